//! Reading an identity made elsewhere (Lagrange, amfora, openssl): a PEM certificate and its
//! PEM private key, the key checked against the certificate before anything is kept.
//!
//! Accepted keys: PKCS#8 (`PRIVATE KEY`), SEC1 (`EC PRIVATE KEY`) and PKCS#1 (`RSA PRIVATE
//! KEY`), unencrypted, of the kinds TLS can present here (ECDSA P-256 and P-384, Ed25519,
//! RSA); SEC1 and PKCS#1 keys are rewrapped as PKCS#8, the form created identities have. The
//! key belongs to the certificate when the public key it makes is the certificate's.
//!
//! Invariants: no error says a byte of the key file (only what kind of block it holds), and
//! the key is never logged; the texts are bounded by [`MAX_PEM_BYTES`] before being read.

use super::KeyAlgorithm;
use crate::StoreError;
use smolweb_core::fingerprint::sha256_fingerprint;
use time::OffsetDateTime;
use x509_parser::pem::Pem;

/// The most bytes a certificate or key file may have.
pub const MAX_PEM_BYTES: usize = 256 * 1024;

/// A certificate and key that belong together, ready to be kept.
pub struct Imported {
    pub(super) cert_pem: String,
    pub(super) key_pem: String,
    /// `sha256:<hex>` of the certificate.
    pub fingerprint: String,
    /// The certificate's subject common name, when it has one.
    pub common_name: Option<String>,
    pub(super) not_before: OffsetDateTime,
    pub(super) not_after: OffsetDateTime,
    pub(super) algorithm: KeyAlgorithm,
}

impl std::fmt::Debug for Imported {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Imported")
            .field("fingerprint", &self.fingerprint)
            .finish_non_exhaustive()
    }
}

fn invalid(text: impl Into<String>) -> StoreError {
    StoreError::Invalid(text.into())
}

/// Read a certificate file and a key file (each at most [`MAX_PEM_BYTES`]) and check that
/// they belong together ([`read`]). Errors name the files, never the key's contents.
pub fn read_files(cert: &std::path::Path, key: &std::path::Path) -> Result<Imported, StoreError> {
    let cert_text = bounded(cert)?;
    let key_text = bounded(key)?;
    read(&cert_text, &key_text).map_err(|e| match e {
        StoreError::Invalid(why) => invalid(format!(
            "cannot import {} and {}: {why}",
            cert.display(),
            key.display()
        )),
        other => other,
    })
}

/// A file's bytes, refused past [`MAX_PEM_BYTES`] without reading the rest.
fn bounded(path: &std::path::Path) -> Result<Vec<u8>, StoreError> {
    use std::io::Read;
    let io = |source| StoreError::Io {
        path: path.to_path_buf(),
        source,
    };
    let file = std::fs::File::open(path).map_err(io)?;
    let mut bytes = Vec::new();
    file.take(MAX_PEM_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(io)?;
    if bytes.len() > MAX_PEM_BYTES {
        return Err(invalid(format!(
            "{} is over {} KiB: not a PEM certificate or key",
            path.display(),
            MAX_PEM_BYTES / 1024
        )));
    }
    Ok(bytes)
}

/// The PEM blocks of a text (labels and contents), at most 16.
fn blocks(text: &[u8]) -> Vec<Pem> {
    Pem::iter_from_buffer(text)
        .take(16)
        .map_while(Result::ok)
        .collect()
}

/// Check that `cert` (PEM text) and `key` (PEM text) belong together and say what they are.
pub fn read(cert: &[u8], key: &[u8]) -> Result<Imported, StoreError> {
    if cert.len() > MAX_PEM_BYTES || key.len() > MAX_PEM_BYTES {
        return Err(invalid(format!(
            "a certificate or key file is over {} KiB: not a PEM file",
            MAX_PEM_BYTES / 1024
        )));
    }
    let cert_blocks = blocks(cert);
    let Some(cert_block) = cert_blocks.iter().find(|b| b.label == "CERTIFICATE") else {
        let hint = if cert_blocks.iter().any(|b| b.label.contains("PRIVATE KEY")) {
            " (it holds a private key: are the certificate and the key the other way round?)"
        } else {
            ""
        };
        return Err(invalid(format!(
            "the certificate file is not a PEM certificate: no BEGIN CERTIFICATE block{hint}"
        )));
    };
    let (_, x509) = x509_parser::parse_x509_certificate(&cert_block.contents)
        .map_err(|e| invalid(format!("the certificate cannot be read: {e}")))?;
    let key_pkcs8 = key_der(key)?;
    let pair = rcgen::KeyPair::try_from(key_pkcs8.as_slice()).map_err(|_| {
        invalid(
            "the key is not one smolweb can present (ECDSA P-256 or P-384, Ed25519, RSA), \
             or it is damaged",
        )
    })?;
    use rcgen::PublicKeyData;
    if pair.der_bytes() != &x509.public_key().subject_public_key.data[..] {
        return Err(invalid(
            "the key does not belong to the certificate: their public keys differ",
        ));
    }
    let algorithm = if pair.algorithm() == &rcgen::PKCS_ED25519 {
        KeyAlgorithm::Ed25519
    } else if pair.algorithm() == &rcgen::PKCS_ECDSA_P256_SHA256 {
        KeyAlgorithm::EcdsaP256
    } else if pair.algorithm() == &rcgen::PKCS_ECDSA_P384_SHA384 {
        KeyAlgorithm::EcdsaP384
    } else {
        KeyAlgorithm::Rsa
    };
    let validity = x509.validity();
    let common_name = x509
        .subject()
        .iter_common_name()
        .next()
        .and_then(|cn| cn.as_str().ok())
        .map(|cn| cn.trim().to_string())
        .filter(|cn| !cn.is_empty() && !cn.chars().any(char::is_control));
    Ok(Imported {
        cert_pem: pem_text("CERTIFICATE", &cert_block.contents),
        key_pem: pair.serialize_pem(),
        fingerprint: sha256_fingerprint(&cert_block.contents),
        common_name,
        not_before: validity.not_before.to_datetime(),
        not_after: validity.not_after.to_datetime(),
        algorithm,
    })
}

/// The key file's private key as PKCS#8 DER.
fn key_der(key: &[u8]) -> Result<Vec<u8>, StoreError> {
    let text = String::from_utf8_lossy(key);
    if text.contains("ENCRYPTED") {
        return Err(invalid(
            "the key is encrypted (a passphrase protects it): write it unencrypted first, \
             e.g. openssl pkey -in KEY -out KEY.plain, import that and delete it",
        ));
    }
    let found = blocks(key);
    let block = found.iter().find(|b| b.label.ends_with("PRIVATE KEY"));
    match block.map(|b| (b.label.as_str(), b.contents.as_slice())) {
        Some(("PRIVATE KEY", der)) => Ok(der.to_vec()),
        Some(("RSA PRIVATE KEY", der)) => Ok(pkcs8(&RSA_ALGORITHM, der)),
        Some(("EC PRIVATE KEY", der)) => {
            let curve = sec1_curve(der).ok_or_else(|| {
                invalid("the EC key names no curve smolweb knows (P-256 or P-384)")
            })?;
            Ok(pkcs8(&ec_algorithm(curve), der))
        }
        Some((other, _)) => Err(invalid(format!(
            "the key file holds a {other} block smolweb does not read (PRIVATE KEY, EC PRIVATE \
             KEY or RSA PRIVATE KEY)"
        ))),
        None if found.iter().any(|b| b.label == "CERTIFICATE") => Err(invalid(
            "the key file holds a certificate, not a key: are the certificate and the key the \
             other way round?",
        )),
        None => Err(invalid(
            "the key file is not a PEM private key: no BEGIN PRIVATE KEY block",
        )),
    }
}

/// DER of an AlgorithmIdentifier for rsaEncryption (OID 1.2.840.113549.1.1.1, NULL).
const RSA_ALGORITHM: [u8; 15] = [
    0x30, 0x0d, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01, 0x05, 0x00,
];
/// OID 1.2.840.10045.2.1 (id-ecPublicKey), as a DER TLV.
const EC_PUBLIC_KEY: [u8; 9] = [0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01];
/// The named curves, as DER TLVs: P-256 (1.2.840.10045.3.1.7), P-384 (1.3.132.0.34).
const P256: &[u8] = &[0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07];
const P384: &[u8] = &[0x06, 0x05, 0x2b, 0x81, 0x04, 0x00, 0x22];

fn ec_algorithm(curve: &[u8]) -> Vec<u8> {
    let mut body = EC_PUBLIC_KEY.to_vec();
    body.extend_from_slice(curve);
    tlv(0x30, &body)
}

/// A DER tag-length-value.
fn tlv(tag: u8, body: &[u8]) -> Vec<u8> {
    let mut out = vec![tag];
    let n = body.len();
    if n < 0x80 {
        out.push(n as u8);
    } else {
        let bytes: Vec<u8> = n
            .to_be_bytes()
            .into_iter()
            .skip_while(|&b| b == 0)
            .collect();
        out.push(0x80 | bytes.len() as u8);
        out.extend(bytes);
    }
    out.extend_from_slice(body);
    out
}

/// PKCS#8 PrivateKeyInfo: version 0, the algorithm, the key as an OCTET STRING.
fn pkcs8(algorithm: &[u8], key: &[u8]) -> Vec<u8> {
    let mut body = vec![0x02, 0x01, 0x00];
    body.extend_from_slice(algorithm);
    body.extend(tlv(0x04, key));
    tlv(0x30, &body)
}

/// The named curve of a SEC1 ECPrivateKey (its `[0]` parameters), when it is P-256 or P-384.
fn sec1_curve(der: &[u8]) -> Option<&'static [u8]> {
    [P256, P384].into_iter().find(|c| {
        // `[0] { OID }` right after the private key: A0 len OID.
        der.windows(c.len() + 2)
            .any(|w| w[0] == 0xa0 && usize::from(w[1]) == c.len() && &w[2..] == *c)
    })
}

/// PEM text of a DER block.
fn pem_text(label: &str, der: &[u8]) -> String {
    use base64::Engine;
    let b64 = base64::engine::general_purpose::STANDARD.encode(der);
    let mut out = format!("-----BEGIN {label}-----\n");
    for line in b64.as_bytes().chunks(64) {
        out.push_str(&String::from_utf8_lossy(line));
        out.push('\n');
    }
    out.push_str(&format!("-----END {label}-----\n"));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::identity::{Identities, Scope};

    /// A self-signed certificate and its PKCS#8 key, as another browser would make them.
    fn made(cn: &str, alg: &'static rcgen::SignatureAlgorithm) -> (String, String) {
        let key = rcgen::KeyPair::generate_for(alg).unwrap();
        let mut params = rcgen::CertificateParams::default();
        let mut dn = rcgen::DistinguishedName::new();
        dn.push(rcgen::DnType::CommonName, cn);
        params.distinguished_name = dn;
        let cert = params.self_signed(&key).unwrap();
        (cert.pem(), key.serialize_pem())
    }

    /// The same P-256 key as openssl writes it in SEC1 form (`EC PRIVATE KEY`, with the
    /// curve named in `[0]`), from the PKCS#8 one.
    fn sec1_of(pkcs8_pem: &str) -> String {
        let der = &blocks(pkcs8_pem.as_bytes())[0].contents;
        let inner = find_ec_private_key(der);
        // ECPrivateKey: SEQUENCE { 02 01 01, 04 20 <key>, [1] publicKey }: put [0] P-256 in.
        let body = &inner[2..];
        let split = 3 + 2 + 32;
        let mut new_body = body[..split].to_vec();
        new_body.extend(tlv(0xa0, P256));
        new_body.extend_from_slice(&body[split..]);
        pem_text("EC PRIVATE KEY", &tlv(0x30, &new_body))
    }

    /// The ECPrivateKey SEQUENCE inside a PKCS#8 (short lengths: a P-256 key is small).
    fn find_ec_private_key(pkcs8: &[u8]) -> Vec<u8> {
        let start = pkcs8
            .windows(5)
            .position(|w| w == [0x30, w[1], 0x02, 0x01, 0x01])
            .expect("an ECPrivateKey");
        let len = usize::from(pkcs8[start + 1]);
        pkcs8[start..start + 2 + len].to_vec()
    }

    fn scope() -> Scope {
        Scope {
            host: "capsule.test".into(),
            port: 1965,
            path: "/".into(),
        }
    }

    #[test]
    fn a_certificate_and_its_key_are_kept_like_a_made_identity() {
        let dir = tempfile::tempdir().unwrap();
        let ids = Identities::new(dir.path().join("identities"));
        for (cn, alg) in [
            ("lagrange-p256", &rcgen::PKCS_ECDSA_P256_SHA256),
            ("lagrange-p384", &rcgen::PKCS_ECDSA_P384_SHA384),
            ("lagrange-ed", &rcgen::PKCS_ED25519),
        ] {
            let (cert, key) = made(cn, alg);
            let imported = read(cert.as_bytes(), key.as_bytes()).unwrap();
            assert_eq!(imported.common_name.as_deref(), Some(cn));
            let id = ids.import(imported, scope(), None, false).unwrap();
            assert_eq!(id.name, cn);
            assert_eq!(id.created_by, crate::identity::CreatedBy::Human);
            assert!(
                !id.agent_use,
                "an agent may use it only when the person says so"
            );
            let km = ids.key_material(&id.fingerprint).unwrap();
            assert_eq!(
                rcgen::KeyPair::from_pem(&km.key_pem)
                    .unwrap()
                    .serialize_der(),
                rcgen::KeyPair::from_pem(&key).unwrap().serialize_der(),
                "{cn}: the key kept is the key given"
            );
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                let stem = id.fingerprint.trim_start_matches("sha256:");
                let path = ids.dir().join(format!("{stem}.key"));
                let mode = std::fs::metadata(path).unwrap().permissions().mode();
                assert_eq!(mode & 0o777, 0o600, "{cn}");
            }
        }
        // The same certificate twice: refused, naming the identity it is.
        let (cert, key) = made("twice", &rcgen::PKCS_ECDSA_P256_SHA256);
        let first = read(cert.as_bytes(), key.as_bytes()).unwrap();
        ids.import(first, scope(), Some("mine"), false).unwrap();
        let again = read(cert.as_bytes(), key.as_bytes()).unwrap();
        let e = ids
            .import(again, scope(), None, false)
            .unwrap_err()
            .to_string();
        assert!(e.contains("already the identity 'mine'"), "{e}");
    }

    #[test]
    fn an_openssl_ec_key_is_read_too() {
        let (cert, key) = made("sec1", &rcgen::PKCS_ECDSA_P256_SHA256);
        let sec1 = sec1_of(&key);
        assert!(sec1.contains("BEGIN EC PRIVATE KEY"), "{sec1}");
        let imported = read(cert.as_bytes(), sec1.as_bytes()).unwrap();
        assert_eq!(imported.algorithm, KeyAlgorithm::EcdsaP256);
        assert!(
            imported.key_pem.contains("BEGIN PRIVATE KEY"),
            "kept as PKCS#8"
        );
    }

    #[test]
    fn wrong_files_say_what_is_wrong_and_never_the_key() {
        let (cert, key) = made("a", &rcgen::PKCS_ECDSA_P256_SHA256);
        let (_, other_key) = made("b", &rcgen::PKCS_ECDSA_P256_SHA256);
        let secret_line = key.lines().nth(1).unwrap().to_string();
        let encrypted = "-----BEGIN ENCRYPTED PRIVATE KEY-----\nMIGjMF8GCSqGSIb3DQEFDTBSMDEGCSqGSIb3DQEFDDAkBBA=\n-----END ENCRYPTED PRIVATE KEY-----\n";
        let legacy = "-----BEGIN EC PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,00\n\nAAAA\n-----END EC PRIVATE KEY-----\n";
        let cases: [(&str, &str, &str); 7] = [
            (
                &cert,
                &other_key,
                "the key does not belong to the certificate",
            ),
            (&cert, encrypted, "the key is encrypted"),
            (&cert, legacy, "the key is encrypted"),
            (
                &key,
                &cert,
                "are the certificate and the key the other way round",
            ),
            ("not a pem file\n", &key, "not a PEM certificate"),
            (&cert, "hello\n", "not a PEM private key"),
            (&cert, &cert, "holds a certificate, not a key"),
        ];
        for (c, k, want) in cases {
            let e = read(c.as_bytes(), k.as_bytes()).unwrap_err().to_string();
            assert!(e.contains(want), "{want}: {e}");
            assert!(!e.contains(&secret_line), "the key is never said: {e}");
        }
        let big = vec![b'a'; MAX_PEM_BYTES + 1];
        assert!(read(&big, key.as_bytes()).is_err());
    }
}
