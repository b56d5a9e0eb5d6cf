//! Certificate generation with rcgen: a fresh key pair and a self-signed certificate whose
//! subject CN is the identity name. Validity starts one minute before `now` (small clock skew
//! between us and the server) and lasts `days` days. Times are whole seconds.

use super::KeyAlgorithm;
use crate::StoreError;
use smolweb_core::fingerprint::sha256_fingerprint;
use time::{Duration, OffsetDateTime};

/// What generation produced (the key PEM is secret: never log it).
pub(super) struct Generated {
    pub(crate) cert_pem: String,
    pub(crate) key_pem: String,
    pub(crate) fingerprint: String,
    pub(crate) not_before: OffsetDateTime,
    pub(crate) not_after: OffsetDateTime,
}

fn crypto(e: rcgen::Error) -> StoreError {
    StoreError::Crypto(e.to_string())
}

pub(super) fn generate(
    name: &str,
    algorithm: KeyAlgorithm,
    days: u32,
    now: OffsetDateTime,
) -> Result<Generated, StoreError> {
    let alg = match algorithm {
        KeyAlgorithm::EcdsaP256 => &rcgen::PKCS_ECDSA_P256_SHA256,
        KeyAlgorithm::Ed25519 => &rcgen::PKCS_ED25519,
        KeyAlgorithm::EcdsaP384 => &rcgen::PKCS_ECDSA_P384_SHA384,
        KeyAlgorithm::Rsa => {
            return Err(StoreError::Invalid(
                "RSA keys are not made here: make the identity elsewhere and import it".into(),
            ));
        }
    };
    let key = rcgen::KeyPair::generate_for(alg).map_err(crypto)?;
    let now = now.replace_nanosecond(0).unwrap_or(now);
    let not_before = now - Duration::minutes(1);
    let not_after = now + Duration::days(i64::from(days));
    let mut params = rcgen::CertificateParams::default();
    let mut dn = rcgen::DistinguishedName::new();
    dn.push(rcgen::DnType::CommonName, name);
    params.distinguished_name = dn;
    params.not_before = not_before;
    params.not_after = not_after;
    let cert = params.self_signed(&key).map_err(crypto)?;
    Ok(Generated {
        cert_pem: cert.pem(),
        key_pem: key.serialize_pem(),
        fingerprint: sha256_fingerprint(cert.der()),
        not_before,
        not_after,
    })
}
