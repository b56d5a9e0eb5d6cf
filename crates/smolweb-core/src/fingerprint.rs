//! Certificate fingerprints: `sha256:` and the lowercase hex SHA-256 of the certificate's DER
//! bytes. The one form every pin, identity, listing and log line uses.

use ring::digest::{SHA256, digest};

/// `sha256:<64 lowercase hex>` of a DER certificate.
pub fn sha256_fingerprint(der: &[u8]) -> String {
    format!("sha256:{}", sha256_hex(der))
}

/// The SHA-256 of `bytes` as 64 lowercase hex digits (no prefix): the digest smolweb also
/// names files by (offline copies).
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(digest(&SHA256, bytes))
}

/// `sha256:` followed by 64 hex digits (either case).
pub fn is_sha256_fingerprint(fp: &str) -> bool {
    fp.strip_prefix("sha256:")
        .is_some_and(|h| h.len() == 64 && h.bytes().all(|b| b.is_ascii_hexdigit()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_digest_and_shape() {
        let fp = sha256_fingerprint(b"abc");
        assert_eq!(
            fp,
            "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert!(is_sha256_fingerprint(&fp));
        assert!(is_sha256_fingerprint(
            &fp.to_uppercase().replace("SHA256", "sha256")
        ));
        for bad in ["", "sha256:", "sha256:abc", "md5:00", &fp[7..]] {
            assert!(!is_sha256_fingerprint(bad), "{bad}");
        }
    }
}
