//! Self-signed server certificates for the test servers.

use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use time::{Duration, OffsetDateTime};

/// A certificate and its private key (ECDSA P-256, SAN localhost + 127.0.0.1).
#[derive(Debug)]
///
/// Each value has its own freshly generated key, so two `TestCert`s never share a fingerprint.
pub struct TestCert {
    /// The certificate in DER form, as a server presents it.
    pub der: CertificateDer<'static>,
    key: PrivatePkcs8KeyDer<'static>,
    /// Start of the validity period, in whole seconds exactly as written in the certificate.
    pub not_before: OffsetDateTime,
    /// End of the validity period, in whole seconds exactly as written in the certificate.
    pub not_after: OffsetDateTime,
}

impl Clone for TestCert {
    fn clone(&self) -> Self {
        TestCert {
            der: self.der.clone(),
            key: self.key.clone_key(),
            not_before: self.not_before,
            not_after: self.not_after,
        }
    }
}

/// `sha256:<hex>` of DER bytes: the fingerprint smolweb's stores use, computed by the same
/// helper ([`smolweb_core::fingerprint::sha256_fingerprint`]).
pub fn fingerprint(der: &[u8]) -> String {
    smolweb_core::fingerprint::sha256_fingerprint(der)
}

impl TestCert {
    /// Valid from yesterday for a year.
    pub fn new() -> TestCert {
        let now = OffsetDateTime::now_utc();
        TestCert::with_validity(now - Duration::days(1), now + Duration::days(365))
    }

    /// Expired yesterday.
    pub fn expired() -> TestCert {
        let now = OffsetDateTime::now_utc();
        TestCert::with_validity(now - Duration::days(30), now - Duration::days(1))
    }

    /// Valid only from tomorrow.
    pub fn not_yet_valid() -> TestCert {
        let now = OffsetDateTime::now_utc();
        TestCert::with_validity(now + Duration::days(1), now + Duration::days(30))
    }

    /// Valid between the two instants given (sub-second parts are dropped, see the fields),
    /// for tests that need a particular window, e.g. one that ends in a few seconds.
    ///
    /// Panics if rcgen cannot generate the key or sign the certificate.
    pub fn with_validity(not_before: OffsetDateTime, not_after: OffsetDateTime) -> TestCert {
        let key = rcgen::KeyPair::generate().expect("key");
        let mut params =
            rcgen::CertificateParams::new(vec!["localhost".to_string()]).expect("params");
        params
            .subject_alt_names
            .push(rcgen::SanType::IpAddress([127, 0, 0, 1].into()));
        // rcgen keeps whole seconds; truncate so our copy matches the certificate.
        let nb = not_before.replace_nanosecond(0).expect("time");
        let na = not_after.replace_nanosecond(0).expect("time");
        params.not_before = nb;
        params.not_after = na;
        let cert = params.self_signed(&key).expect("self-signed");
        TestCert {
            der: cert.der().clone(),
            key: PrivatePkcs8KeyDer::from(key.serialize_der()),
            not_before: nb,
            not_after: na,
        }
    }

    /// The `sha256:<hex>` fingerprint of this certificate: what smolweb pins in known hosts
    /// once a server presented it.
    pub fn fingerprint(&self) -> String {
        fingerprint(self.der.as_ref())
    }

    /// A copy of the private key (PKCS#8), e.g. to build a rustls config that serves this
    /// certificate.
    pub fn key(&self) -> PrivateKeyDer<'static> {
        PrivateKeyDer::Pkcs8(self.key.clone_key())
    }
}

impl Default for TestCert {
    fn default() -> Self {
        TestCert::new()
    }
}
