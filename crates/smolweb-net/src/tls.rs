//! TLS for Gemini: rustls 0.23 with the ring provider, TOFU inside the certificate verifier,
//! client identities by scope, session resumption shared across connections.
//!
//! Invariants:
//! - Every config is built with `builder_with_provider(ring)`; no process-wide default.
//! - The TOFU decision happens in [`verifier::TofuVerifier::verify_server_cert`]: a refusal makes
//!   the handshake fail, so no request line and no client certificate ever leave. The precise
//!   reason is left in a per-connection [`Slot`] that the fetcher reads after the failure.
//! - A client identity is offered over TLS 1.3 only, unless the caller allows TLS 1.2 (then the
//!   fetch carries a warning). An identity with `agent_use == false` is never offered for an
//!   agent's request.
//! - Session caches are kept per (identity, port): a session made with one identity is never
//!   resumed with another (or none), and a port never resumes another port's session. Because
//!   a resumed handshake skips the verifier, the fingerprint accepted at the last full
//!   handshake is remembered and the sessions of a host are dropped before connecting when the
//!   pin no longer matches it; after a resumed handshake the peer certificate is compared with
//!   the pin again.
//! - rustls resumes a session only with the same verifier and client-certificate resolver
//!   objects, so both are shared; per-connection facts (host, port, trust once, result slot)
//!   reach them through the [`CONNECTION`] task-local set around the handshake.

pub(crate) mod identity;
pub(crate) mod verifier;

pub(crate) use identity::ChosenIdentity;
pub(crate) use verifier::{
    CONNECTION, Connection, Slot, TofuVerifier, VerifyOutcome, cert_details,
};

use super::{FetchError, InternalError};
use rustls::client::ResolvesClientCert;
use rustls::client::{ClientSessionMemoryCache, ClientSessionStore, Resumption};
use rustls::crypto::CryptoProvider;
use rustls::pki_types::ServerName;
use rustls::{ClientConfig, SupportedProtocolVersion};
use smolweb_store::tofu::{KnownHosts, TofuPolicy};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

/// TLS 1.3 tickets and TLS 1.2 sessions kept per (identity, port) cache.
const SESSIONS_PER_CACHE: usize = 64;

type CacheKey = (Option<String>, u16);
type HostKey = (Option<String>, String, u16);

/// The process-wide TLS state of a [`super::Net`].
pub(crate) struct TlsState {
    provider: Arc<CryptoProvider>,
    caches: Mutex<HashMap<CacheKey, Arc<ClientSessionMemoryCache>>>,
    /// Fingerprint accepted at the last full handshake, per (identity, host, port).
    session_certs: Mutex<HashMap<HostKey, String>>,
    /// Loaded client identities (resolvers) by fingerprint.
    resolvers: Mutex<HashMap<String, Arc<dyn ResolvesClientCert>>>,
    /// The one TOFU verifier and the one "no identity" resolver: rustls resumes a session only
    /// with the same verifier and resolver objects that made it.
    verifier: Arc<TofuVerifier>,
    no_identity: Arc<dyn ResolvesClientCert>,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl TlsState {
    pub(crate) fn new(known_hosts: KnownHosts, policy: TofuPolicy) -> TlsState {
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        TlsState {
            verifier: Arc::new(TofuVerifier {
                known_hosts,
                policy,
                provider: provider.clone(),
            }),
            provider,
            caches: Mutex::new(HashMap::new()),
            session_certs: Mutex::new(HashMap::new()),
            resolvers: Mutex::new(HashMap::new()),
            no_identity: Arc::new(identity::NoIdentity),
        }
    }

    pub(crate) fn provider(&self) -> &Arc<CryptoProvider> {
        &self.provider
    }

    /// Drop every remembered session (the next fetches do full handshakes).
    pub(crate) fn forget_sessions(&self) {
        lock(&self.caches).clear();
        lock(&self.session_certs).clear();
    }

    fn cache(&self, identity: Option<&str>, port: u16) -> Arc<ClientSessionMemoryCache> {
        let key = (identity.map(str::to_string), port);
        lock(&self.caches)
            .entry(key)
            .or_insert_with(|| Arc::new(ClientSessionMemoryCache::new(SESSIONS_PER_CACHE)))
            .clone()
    }

    /// Before connecting: drop the host's sessions unless they were made with the certificate
    /// that is pinned now (`pinned`: the current pin's fingerprint, if any).
    pub(crate) fn prepare_resumption(
        &self,
        identity: Option<&str>,
        name: &ServerName<'static>,
        host: &str,
        port: u16,
        pinned: Option<&str>,
    ) {
        let key = (identity.map(str::to_string), host.to_string(), port);
        let remembered = lock(&self.session_certs).get(&key).cloned();
        if remembered.is_some() && remembered.as_deref() == pinned {
            return;
        }
        tracing::debug!(?remembered, ?pinned, "dropping TLS sessions");
        let cache = self.cache(identity, port);
        while cache.take_tls13_ticket(name).is_some() {}
        cache.remove_tls12_session(name);
        lock(&self.session_certs).remove(&key);
    }

    /// After a full handshake accepted `fingerprint`: sessions from now on belong to it.
    pub(crate) fn remember_session_cert(
        &self,
        identity: Option<&str>,
        host: &str,
        port: u16,
        fingerprint: &str,
    ) {
        let key = (identity.map(str::to_string), host.to_string(), port);
        lock(&self.session_certs).insert(key, fingerprint.to_string());
    }

    /// The resolver presenting an identity, loaded once per fingerprint.
    pub(crate) fn client_resolver(
        &self,
        fingerprint: &str,
        load: impl FnOnce() -> Result<Arc<dyn ResolvesClientCert>, FetchError>,
    ) -> Result<Arc<dyn ResolvesClientCert>, FetchError> {
        if let Some(resolver) = lock(&self.resolvers).get(fingerprint) {
            return Ok(resolver.clone());
        }
        let resolver = load()?;
        lock(&self.resolvers).insert(fingerprint.to_string(), resolver.clone());
        Ok(resolver)
    }

    /// A per-connection client config (protocol versions depend on the identity); it shares
    /// the provider, the verifier, the resolver and the session cache of (identity, port).
    /// Drive its handshake inside `CONNECTION.scope(..)`.
    pub(crate) fn client_config(
        &self,
        identity: Option<&ChosenIdentity>,
        allow_tls12_with_identity: bool,
        port: u16,
    ) -> Result<ClientConfig, FetchError> {
        static BOTH: &[&SupportedProtocolVersion] =
            &[&rustls::version::TLS13, &rustls::version::TLS12];
        static ONLY13: &[&SupportedProtocolVersion] = &[&rustls::version::TLS13];
        let versions = if identity.is_some() && !allow_tls12_with_identity {
            ONLY13
        } else {
            BOTH
        };
        let builder = ClientConfig::builder_with_provider(self.provider.clone())
            .with_protocol_versions(versions)
            .map_err(|e| FetchError::Internal(InternalError::TlsConfig(e)))?
            .dangerous()
            .with_custom_certificate_verifier(self.verifier.clone());
        let resolver = identity.map_or_else(|| self.no_identity.clone(), |c| c.resolver.clone());
        let mut config = builder.with_client_cert_resolver(resolver);
        let fp = identity.map(|c| c.fingerprint.as_str());
        config.resumption = Resumption::store(self.cache(fp, port));
        Ok(config)
    }
}
