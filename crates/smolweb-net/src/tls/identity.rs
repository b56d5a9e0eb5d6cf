//! Client identities in TLS: choose the identity for a request, load its key with the ring
//! provider, and present it through a resolver that remembers whether the server asked.

use super::TlsState;
use super::verifier::CONNECTION;
use crate::{CertStoreError, ClientCertError, FetchError, IdentityChoice, NetOptions};
use rustls::SignatureScheme;
use rustls::client::ResolvesClientCert;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use rustls::sign::CertifiedKey;
use smolweb_store::identity::{Identities, Identity};
use std::sync::Arc;
use std::sync::atomic::Ordering;

/// The identity a connection will offer.
#[derive(Debug, Clone)]
pub(crate) struct ChosenIdentity {
    pub(crate) fingerprint: String,
    pub(crate) name: String,
    /// Shared by every connection with this identity (rustls resumes only with the same one).
    pub(crate) resolver: Arc<dyn ResolvesClientCert>,
}

/// Presents one identity whenever the server asks, and notes that it did in the connection.
#[derive(Debug)]
pub(crate) struct Resolver {
    key: Arc<CertifiedKey>,
}

impl ResolvesClientCert for Resolver {
    fn resolve(
        &self,
        _root_hint_subjects: &[&[u8]],
        sigschemes: &[SignatureScheme],
    ) -> Option<Arc<CertifiedKey>> {
        // A key the server cannot verify would only make the handshake fail later.
        self.key.key.choose_scheme(sigschemes)?;
        let _ = CONNECTION.try_with(|c| c.presented.store(true, Ordering::SeqCst));
        Some(self.key.clone())
    }

    fn has_certs(&self) -> bool {
        true
    }
}

/// Presents nothing (one shared instance, so identity-less sessions resume).
#[derive(Debug)]
pub(crate) struct NoIdentity;

impl ResolvesClientCert for NoIdentity {
    fn resolve(&self, _: &[&[u8]], _: &[SignatureScheme]) -> Option<Arc<CertifiedKey>> {
        None
    }

    fn has_certs(&self) -> bool {
        false
    }
}

fn store_error(e: smolweb_store::StoreError) -> FetchError {
    CertStoreError::from(e).into()
}

/// An identity's key material that does not load.
fn material_error(
    fingerprint: &str,
    part: &'static str,
    source: impl std::error::Error + Send + Sync + 'static,
) -> FetchError {
    CertStoreError::KeyMaterial {
        fingerprint: fingerprint.to_string(),
        part,
        source: Arc::new(source),
    }
    .into()
}

/// Which identity (if any) this request offers. Refuses an explicitly chosen identity that
/// agents may not use.
pub(crate) fn choose(
    identities: &Identities,
    host: &str,
    port: u16,
    path: &str,
    opts: &NetOptions,
) -> Result<Option<Identity>, FetchError> {
    let found = match &opts.identity {
        IdentityChoice::None => return Ok(None),
        IdentityChoice::Auto => identities
            .find_for(host, port, path, opts.for_agent)
            .map_err(store_error)?,
        IdentityChoice::Fingerprint(fp) => Some(
            identities
                .get(fp)
                .map_err(store_error)?
                .ok_or_else(|| FetchError::from(ClientCertError::Unknown(fp.clone())))?,
        ),
    };
    match found {
        Some(id) if opts.for_agent && !id.agent_use => match opts.identity {
            IdentityChoice::Auto => Ok(None),
            _ => Err(ClientCertError::HumanOnly(id.name).into()),
        },
        other => Ok(other),
    }
}

/// Load (or reuse) the key material of `identity` for presenting.
pub(crate) fn load(
    state: &TlsState,
    identities: &Identities,
    identity: &Identity,
) -> Result<ChosenIdentity, FetchError> {
    let resolver = state.client_resolver(&identity.fingerprint, || {
        let material = identities
            .key_material(&identity.fingerprint)
            .map_err(store_error)?;
        let fp = identity.fingerprint.as_str();
        let chain = CertificateDer::pem_slice_iter(material.cert_pem.as_bytes())
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| material_error(fp, "certificate PEM", e))?;
        let der = PrivateKeyDer::from_pem_slice(material.key_pem.as_bytes())
            .map_err(|e| material_error(fp, "key PEM", e))?;
        let signing = state
            .provider()
            .key_provider
            .load_private_key(der)
            .map_err(|e| material_error(fp, "key", e))?;
        let key = Arc::new(CertifiedKey::new(chain, signing));
        Ok(Arc::new(Resolver { key }) as Arc<dyn ResolvesClientCert>)
    })?;
    Ok(ChosenIdentity {
        fingerprint: identity.fingerprint.clone(),
        name: identity.name.clone(),
        resolver,
    })
}
