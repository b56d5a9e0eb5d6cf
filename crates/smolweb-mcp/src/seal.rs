//! Sealed request state for 2026-07-28 input-required rounds.
//!
//! The state string travels through the client and comes back on the retry, so it is untrusted:
//! it is `purpose.digest.expiry.mac` where `mac` = HMAC-SHA256 under a key drawn at random when
//! the process starts (a restart invalidates every outstanding state). `digest` binds the state
//! to the exact tool arguments; `expiry` is a Unix time. Nothing secret is put in it.

use ring::hmac;

/// How long a question may wait for its answer.
pub(crate) const STATE_TTL_SECONDS: i64 = 600;

pub(crate) struct Sealer {
    /// None when the system random source failed: every state then fails to open (BadMac).
    key: Option<hmac::Key>,
}

/// Why a returned state was refused.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum SealError {
    #[error("the request state is malformed")]
    Malformed,
    #[error("the request state was not issued by this smolweb process")]
    BadMac,
    #[error("the request state belongs to another question or other arguments")]
    Mismatch,
    #[error("the request state has expired; call the tool again")]
    Expired,
}

/// SHA-256 over the parts that identify a call (tool name and its arguments).
pub(crate) fn digest(parts: &[&str]) -> String {
    let mut h = ring::digest::Context::new(&ring::digest::SHA256);
    for p in parts {
        h.update(&(p.len() as u64).to_be_bytes());
        h.update(p.as_bytes());
    }
    hex::encode(h.finish())
}

impl Default for Sealer {
    fn default() -> Self {
        Sealer::new()
    }
}

impl Sealer {
    pub(crate) fn new() -> Sealer {
        let rng = ring::rand::SystemRandom::new();
        Sealer {
            key: hmac::Key::generate(hmac::HMAC_SHA256, &rng).ok(),
        }
    }

    /// Seal a state for `purpose` and the call `digest`, valid until `now + TTL`.
    pub(crate) fn seal(&self, purpose: &str, digest: &str, now_unix: i64) -> String {
        let payload = format!("{purpose}.{digest}.{}", now_unix + STATE_TTL_SECONDS);
        let mac = self
            .key
            .as_ref()
            .map(|k| hex::encode(hmac::sign(k, payload.as_bytes())))
            .unwrap_or_default();
        format!("{payload}.{mac}")
    }

    /// Check a returned state against the purpose and call digest expected now.
    pub(crate) fn open(
        &self,
        state: &str,
        purpose: &str,
        digest: &str,
        now_unix: i64,
    ) -> Result<(), SealError> {
        let (payload, mac_hex) = state.rsplit_once('.').ok_or(SealError::Malformed)?;
        let mac = hex::decode(mac_hex).map_err(|_| SealError::Malformed)?;
        let key = self.key.as_ref().ok_or(SealError::BadMac)?;
        hmac::verify(key, payload.as_bytes(), &mac).map_err(|_| SealError::BadMac)?;
        let mut parts = payload.splitn(3, '.');
        let (p, d, e) = (parts.next(), parts.next(), parts.next());
        let expiry: i64 = e.and_then(|e| e.parse().ok()).ok_or(SealError::Malformed)?;
        if p != Some(purpose) || d != Some(digest) {
            return Err(SealError::Mismatch);
        }
        if now_unix > expiry {
            return Err(SealError::Expired);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_refusals() {
        let s = Sealer::new();
        let d = digest(&["gemini_trust_update", "pin", "example.org"]);
        let state = s.seal("consent", &d, 1000);
        assert_eq!(s.open(&state, "consent", &d, 1001), Ok(()));
        assert_eq!(s.open(&state, "answer", &d, 1001), Err(SealError::Mismatch));
        let other = digest(&["gemini_trust_update", "pin", "evil.org"]);
        assert_eq!(
            s.open(&state, "consent", &other, 1001),
            Err(SealError::Mismatch)
        );
        assert_eq!(
            s.open(&state, "consent", &d, 1000 + STATE_TTL_SECONDS + 1),
            Err(SealError::Expired)
        );
        let forged = state.replace(".1600.", ".9999999999.");
        assert_eq!(s.open(&forged, "consent", &d, 1001), Err(SealError::BadMac));
        assert_eq!(
            Sealer::new().open(&state, "consent", &d, 1001),
            Err(SealError::BadMac)
        );
        assert_eq!(
            s.open("nonsense", "consent", &d, 1),
            Err(SealError::Malformed)
        );
    }

    #[test]
    fn digest_separates_parts() {
        assert_ne!(digest(&["ab", "c"]), digest(&["a", "bc"]));
    }
}
