//! The TOFU certificate verifier: fingerprint + validity of the end-entity certificate,
//! checked and recorded against known_hosts during the handshake. [`decide`] is pure.
//!
//! A known_hosts that cannot be read refuses the connection (`CERTIFICATE_STORE_UNAVAILABLE`:
//! without the pins no verdict holds). A pin that cannot be saved (disk full) does not: the
//! certificate is accepted as the verdict says and the write error travels in
//! [`VerifyOutcome::Accepted::pin_not_saved`] to `TlsInfo::pin_warning`, which both faces show.

use crate::{FetchError, TofuState};
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::{CryptoProvider, verify_tls12_signature, verify_tls13_signature};
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{CertificateError, DigitallySignedStruct, Error, SignatureScheme};
use smolweb_store::tofu::{CertInfo, KnownHosts, TofuPolicy, Verdict};
use std::sync::{Arc, Mutex, PoisonError};
use time::OffsetDateTime;

/// What the verifier decided for one connection.
#[derive(Clone, Debug)]
pub(crate) enum VerifyOutcome {
    Accepted {
        cert: CertInfo,
        tofu: TofuState,
        /// Why the pin this verdict made could not be saved (see the module doc).
        pin_not_saved: Option<String>,
    },
    Refused(FetchError),
}

/// Slot the verifier fills and the fetcher reads after the handshake.
pub(crate) type Slot = Mutex<Option<VerifyOutcome>>;

/// A server certificate that does not parse as X.509.
#[derive(Debug, thiserror::Error)]
#[error("cannot parse the server certificate: {0}")]
pub struct BadCertificate(#[source] x509_parser::nom::Err<x509_parser::error::X509Error>);

impl From<BadCertificate> for FetchError {
    fn from(e: BadCertificate) -> FetchError {
        FetchError::Tls(crate::TlsError::BadCertificate(std::sync::Arc::new(e)))
    }
}

/// Hash and parse a DER certificate.
pub(crate) fn cert_details(der: &[u8]) -> Result<CertInfo, BadCertificate> {
    let (_, cert) = x509_parser::parse_x509_certificate(der).map_err(BadCertificate)?;
    let validity = cert.validity();
    Ok(CertInfo {
        fingerprint: smolweb_core::fingerprint::sha256_fingerprint(der),
        not_before: validity.not_before.to_datetime(),
        not_after: validity.not_after.to_datetime(),
    })
}

pub(crate) use smolweb_core::text::rfc3339;

/// Map a store verdict to the connection outcome (pure). `trust_once` accepts exactly that
/// changed fingerprint without saving it.
pub(crate) fn decide(
    verdict: Verdict,
    cert: &CertInfo,
    host: &str,
    port: u16,
    trust_once: Option<&str>,
) -> VerifyOutcome {
    let accept = |tofu| VerifyOutcome::Accepted {
        cert: cert.clone(),
        tofu,
        pin_not_saved: None,
    };
    match verdict {
        Verdict::FirstUse => accept(TofuState::FirstUse),
        Verdict::Trusted => accept(TofuState::Trusted),
        Verdict::ReplacedExpired { pinned, .. } => {
            accept(TofuState::ReplacedExpired { previous: pinned })
        }
        Verdict::Changed {
            pinned,
            presented,
            pinned_not_after,
        } => {
            if trust_once == Some(presented.as_str()) {
                return accept(TofuState::TrustedOnce);
            }
            VerifyOutcome::Refused(FetchError::CertificateChanged {
                change: Box::new(crate::CertChange {
                    host: host.to_string(),
                    port,
                    pinned,
                    presented,
                    pinned_not_after: pinned_not_after.map_or_else(|| "unknown".into(), rfc3339),
                    presented_not_after: rfc3339(cert.not_after),
                }),
            })
        }
        Verdict::NotYetValid { not_before } => {
            VerifyOutcome::Refused(FetchError::CertificateNotYetValid {
                host: host.to_string(),
                not_before: rfc3339(not_before),
            })
        }
        Verdict::Expired { not_after } => VerifyOutcome::Refused(FetchError::CertificateExpired {
            host: host.to_string(),
            not_after: rfc3339(not_after),
        }),
    }
}

/// What one connection's handshake needs beyond the shared verifier: where it goes, the
/// caller's "trust once" choice, and the slots the verifier and the identity resolver fill.
#[derive(Debug, Default)]
pub(crate) struct Connection {
    pub(crate) host: String,
    pub(crate) port: u16,
    pub(crate) trust_once: Option<String>,
    pub(crate) slot: Slot,
    /// Set when the server asked for a client certificate and one was presented.
    pub(crate) presented: std::sync::atomic::AtomicBool,
}

tokio::task_local! {
    /// The connection whose handshake is being driven. rustls only resumes a session with the
    /// very same verifier and resolver objects, so those are shared and per-connection facts
    /// reach them through this task-local, set around the handshake future.
    pub(crate) static CONNECTION: Arc<Connection>;
}

/// The TOFU verifier, one per `Net` (shared so that sessions can resume).
#[derive(Debug)]
pub(crate) struct TofuVerifier {
    pub(crate) known_hosts: KnownHosts,
    pub(crate) policy: TofuPolicy,
    pub(crate) provider: Arc<CryptoProvider>,
}

impl TofuVerifier {
    fn outcome(&self, conn: &Connection, der: &[u8], now: UnixTime) -> VerifyOutcome {
        let cert = match cert_details(der) {
            Ok(cert) => cert,
            Err(e) => return VerifyOutcome::Refused(e.into()),
        };
        let secs = i64::try_from(now.as_secs()).unwrap_or(i64::MAX);
        let now =
            OffsetDateTime::from_unix_timestamp(secs).unwrap_or_else(|_| OffsetDateTime::now_utc());
        let (host, port) = (conn.host.as_str(), conn.port);
        match self.known_hosts.check(host, port, &cert, now, self.policy) {
            Ok(checked) => {
                let mut outcome = decide(
                    checked.verdict,
                    &cert,
                    host,
                    port,
                    conn.trust_once.as_deref(),
                );
                if let (VerifyOutcome::Accepted { pin_not_saved, .. }, Some(e)) =
                    (&mut outcome, checked.not_saved)
                {
                    tracing::warn!(
                        host,
                        port,
                        "the server certificate could not be pinned: {e}"
                    );
                    *pin_not_saved = Some(e.to_string());
                }
                outcome
            }
            Err(e) => VerifyOutcome::Refused(crate::CertStoreError::from(e).into()),
        }
    }
}

impl ServerCertVerifier for TofuVerifier {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, Error> {
        let Ok(conn) = CONNECTION.try_with(Arc::clone) else {
            // Not driven by our fetcher: refuse rather than trust blindly.
            return Err(Error::General("no connection context for TOFU".into()));
        };
        let outcome = self.outcome(&conn, end_entity.as_ref(), now);
        let accepted = matches!(outcome, VerifyOutcome::Accepted { .. });
        *conn.slot.lock().unwrap_or_else(PoisonError::into_inner) = Some(outcome);
        if accepted {
            Ok(ServerCertVerified::assertion())
        } else {
            Err(Error::InvalidCertificate(
                CertificateError::ApplicationVerificationFailure,
            ))
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, Error> {
        verify_tls12_signature(
            message,
            cert,
            dss,
            &self.provider.signature_verification_algorithms,
        )
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, Error> {
        verify_tls13_signature(
            message,
            cert,
            dss,
            &self.provider.signature_verification_algorithms,
        )
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.provider
            .signature_verification_algorithms
            .supported_schemes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use smolweb_core::code::ErrorCode;
    use time::macros::datetime;

    fn cert(fp: &str) -> CertInfo {
        CertInfo {
            fingerprint: fp.into(),
            not_before: datetime!(2020-01-01 0:00 UTC),
            not_after: datetime!(2030-01-01 0:00 UTC),
        }
    }

    #[test]
    fn verdicts_map_to_outcomes() {
        let c = cert("sha256:bb");
        let changed = || Verdict::Changed {
            pinned: "sha256:aa".into(),
            presented: "sha256:bb".into(),
            pinned_not_after: Some(datetime!(2029-05-01 0:00 UTC)),
        };
        let tofu = |o: VerifyOutcome| match o {
            VerifyOutcome::Accepted { tofu, .. } => Ok(tofu),
            VerifyOutcome::Refused(e) => Err(e.code()),
        };
        assert_eq!(
            tofu(decide(Verdict::FirstUse, &c, "h", 1965, None)),
            Ok(TofuState::FirstUse)
        );
        assert_eq!(
            tofu(decide(Verdict::Trusted, &c, "h", 1965, None)),
            Ok(TofuState::Trusted)
        );
        let replaced = Verdict::ReplacedExpired {
            pinned: "sha256:aa".into(),
            presented: "sha256:bb".into(),
        };
        assert_eq!(
            tofu(decide(replaced, &c, "h", 1965, None)),
            Ok(TofuState::ReplacedExpired {
                previous: "sha256:aa".into()
            })
        );
        assert_eq!(
            tofu(decide(changed(), &c, "h", 1965, None)),
            Err(ErrorCode::CertificateChanged)
        );
        assert_eq!(
            tofu(decide(changed(), &c, "h", 1965, Some("sha256:cc"))),
            Err(ErrorCode::CertificateChanged)
        );
        assert_eq!(
            tofu(decide(changed(), &c, "h", 1965, Some("sha256:bb"))),
            Ok(TofuState::TrustedOnce)
        );
        let early = Verdict::NotYetValid {
            not_before: datetime!(2031-01-01 0:00 UTC),
        };
        assert_eq!(
            tofu(decide(early, &c, "h", 1965, None)),
            Err(ErrorCode::CertificateNotYetValid)
        );
        let expired = Verdict::Expired {
            not_after: datetime!(2019-01-01 0:00 UTC),
        };
        assert_eq!(
            tofu(decide(expired, &c, "h", 1965, None)),
            Err(ErrorCode::CertificateExpired)
        );
    }

    #[test]
    fn changed_error_names_both_fingerprints() {
        let VerifyOutcome::Refused(err) = decide(
            Verdict::Changed {
                pinned: "sha256:aa".into(),
                presented: "sha256:bb".into(),
                pinned_not_after: None,
            },
            &cert("sha256:bb"),
            "example.org",
            1965,
            None,
        ) else {
            panic!("accepted a changed certificate");
        };
        let text = err.to_string();
        assert!(
            text.contains("sha256:aa") && text.contains("sha256:bb"),
            "{text}"
        );
    }

    #[test]
    fn garbage_is_not_a_certificate() {
        assert!(cert_details(b"not a certificate").is_err());
    }
}
