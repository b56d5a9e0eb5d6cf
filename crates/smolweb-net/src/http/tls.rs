//! The rustls client configuration of the web fetcher: the ring provider only, TLS 1.2 and
//! 1.3, ALPN h2 then http/1.1, and the trust anchors of [`super::roots`] (config, system or
//! `SSL_CERT_FILE` / `SSL_CERT_DIR`, bundled WebPKI). There is no way to turn verification
//! off. PEM files are read by the caller; [`roots_from_pem`] parses their bytes.
//!
//! Naming the root: [`RootNamingVerifier`] hands every decision to rustls'
//! `WebPkiServerVerifier` over all the anchors. Only once that accepted the chain, it builds
//! the path again with rustls-webpki's `verify_for_usage` (the function rustls' verifier
//! calls, same anchors, intermediates, time and usage, so the same path) to learn which
//! anchor ended it, and records that root under the server certificate's fingerprint in a
//! [`RootLog`]. The fetcher reads the log with the fingerprint of the certificate reqwest
//! reports for the response, which also holds for a reused pooled connection. The second pass
//! decides nothing: should it ever fail, the root is only not named.

use super::WebError;
use super::roots::{Anchors, TrustRoot};
use rustls::client::WebPkiServerVerifier;
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::{CryptoProvider, WebPkiSupportedAlgorithms};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{ClientConfig, DigitallySignedStruct, RootCertStore, SignatureScheme};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// Certificates whose root is remembered at once (the log is emptied when full).
const ROOT_LOG_CAP: usize = 1024;

/// Which root verified each server certificate seen, by `sha256:<hex>` fingerprint; and the
/// certificate last accepted for each server name (for connections whose TLS facts reqwest
/// does not report: those through the SOCKS5 proxy).
#[derive(Debug, Default)]
pub struct RootLog {
    seen: Mutex<HashMap<String, Arc<TrustRoot>>>,
    by_name: Mutex<HashMap<String, String>>,
}

impl RootLog {
    fn record(&self, fingerprint: String, root: Option<Arc<TrustRoot>>, name: Option<String>) {
        if let (Some(name), Ok(mut by_name)) = (name, self.by_name.lock()) {
            if by_name.len() >= ROOT_LOG_CAP && !by_name.contains_key(&name) {
                by_name.clear();
            }
            by_name.insert(name, fingerprint.clone());
        }
        let (Some(root), Ok(mut seen)) = (root, self.seen.lock()) else {
            return;
        };
        if seen.len() >= ROOT_LOG_CAP && !seen.contains_key(&fingerprint) {
            seen.clear();
        }
        seen.insert(fingerprint, root);
    }

    /// The certificate the verifier last accepted for the server name `host` (its
    /// fingerprint), with the root that verified it when known.
    pub fn last_for(&self, host: &str) -> Option<(String, Option<TrustRoot>)> {
        let name = host.trim_start_matches('[').trim_end_matches(']');
        let fingerprint = self
            .by_name
            .lock()
            .ok()?
            .get(&name.to_ascii_lowercase())?
            .clone();
        let root = self.root_of(&fingerprint);
        Some((fingerprint, root))
    }

    /// The root that verified the certificate with this fingerprint, if one did here.
    pub(crate) fn root_of(&self, fingerprint: &str) -> Option<TrustRoot> {
        let seen = self.seen.lock().ok()?;
        seen.get(fingerprint).map(|r| r.as_ref().clone())
    }
}

/// rustls' WebPKI verifier, which also says which root it found (see the module docs).
#[derive(Debug)]
pub struct RootNamingVerifier {
    inner: Arc<WebPkiServerVerifier>,
    anchors: Arc<Anchors>,
    algorithms: WebPkiSupportedAlgorithms,
    log: Arc<RootLog>,
}

impl RootNamingVerifier {
    fn root_of_chain(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        now: UnixTime,
    ) -> Option<TrustRoot> {
        let cert = webpki::EndEntityCert::try_from(end_entity).ok()?;
        let path = cert
            .verify_for_usage(
                self.algorithms.all,
                &self.anchors.anchors,
                intermediates,
                now,
                webpki::KeyUsage::server_auth(),
                None,
                None,
            )
            .ok()?;
        self.anchors.root_of(path.anchor())
    }
}

impl ServerCertVerifier for RootNamingVerifier {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp_response: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        let verified = self.inner.verify_server_cert(
            end_entity,
            intermediates,
            server_name,
            ocsp_response,
            now,
        )?;
        let root = self.root_of_chain(end_entity, intermediates, now);
        if root.is_none() {
            tracing::debug!("a verified chain's root could not be named");
        }
        let name = match server_name {
            ServerName::DnsName(d) => Some(d.as_ref().to_ascii_lowercase()),
            ServerName::IpAddress(ip) => Some(std::net::IpAddr::from(*ip).to_string()),
            _ => None,
        };
        self.log.record(
            smolweb_core::fingerprint::sha256_fingerprint(end_entity),
            root.map(Arc::new),
            name,
        );
        Ok(verified)
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.inner.verify_tls12_signature(message, cert, dss)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.inner.verify_tls13_signature(message, cert, dss)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.inner.supported_verify_schemes()
    }

    fn root_hint_subjects(&self) -> Option<&[rustls::DistinguishedName]> {
        self.inner.root_hint_subjects()
    }
}

/// Build the client configuration over these anchors, and the log of the roots it names.
pub(crate) fn client_config(
    anchors: Arc<Anchors>,
) -> Result<(ClientConfig, Arc<RootLog>), WebError> {
    let provider: Arc<CryptoProvider> = Arc::new(rustls::crypto::ring::default_provider());
    let store = RootCertStore {
        roots: anchors.anchors.clone(),
    };
    let inner = WebPkiServerVerifier::builder_with_provider(Arc::new(store), provider.clone())
        .build()
        .map_err(|e| WebError::Internal(format!("TLS setup: {e}")))?;
    let log = Arc::new(RootLog::default());
    let verifier = RootNamingVerifier {
        inner,
        anchors,
        algorithms: provider.signature_verification_algorithms,
        log: log.clone(),
    };
    let mut config = ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| WebError::Internal(format!("TLS setup: {e}")))?
        .dangerous()
        .with_custom_certificate_verifier(Arc::new(verifier))
        .with_no_client_auth();
    config.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
    Ok((config, log))
}

/// Why a PEM file gave no root certificate.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PemError {
    /// The file could not be read as PEM; the parser's reason.
    #[error("not a PEM certificate file: {0}")]
    Unreadable(String),
    /// The file holds no certificate.
    #[error("no certificate in the file")]
    Empty,
}

/// The certificates in PEM text (other PEM sections are skipped). None found is an error.
pub fn roots_from_pem(pem: &[u8]) -> Result<Vec<CertificateDer<'static>>, PemError> {
    let certs: Vec<CertificateDer<'static>> = CertificateDer::pem_slice_iter(pem)
        .collect::<Result<_, _>>()
        .map_err(|e| PemError::Unreadable(e.to_string()))?;
    if certs.is_empty() {
        return Err(PemError::Empty);
    }
    Ok(certs)
}
