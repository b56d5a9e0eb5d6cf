//! The rustls client configuration of the web fetcher: the ring provider only, TLS 1.2 and
//! 1.3, the bundled WebPKI roots (so a machine without a CA store works) plus extra roots from
//! the config, ALPN h2 then http/1.1. PEM files are read by the caller; [`roots_from_pem`]
//! parses their bytes.

use super::WebError;
use rustls::pki_types::CertificateDer;
use rustls::pki_types::pem::PemObject;
use rustls::{ClientConfig, RootCertStore};
use std::sync::Arc;

/// Build the client configuration.
pub fn client_config(extra_roots: &[CertificateDer<'static>]) -> Result<ClientConfig, WebError> {
    let mut roots = RootCertStore {
        roots: webpki_roots::TLS_SERVER_ROOTS.to_vec(),
    };
    for der in extra_roots {
        roots.add(der.clone()).map_err(|e| {
            WebError::Internal(format!("an extra root certificate is unusable: {e}"))
        })?;
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| WebError::Internal(format!("TLS setup: {e}")))?
        .with_root_certificates(roots)
        .with_no_client_auth();
    config.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
    Ok(config)
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
