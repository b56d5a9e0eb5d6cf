//! known_hosts: trust-on-first-use pins of server certificates, shared by both faces.
//!
//! A pin maps host:port to the SHA-256 of the end-entity certificate DER, with the
//! certificate's not_after and when the pin was first and last seen. [`verdict`] is pure.

use super::StoreError;
use std::path::PathBuf;
use time::OffsetDateTime;

/// What we know about a presented server certificate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CertInfo {
    /// `sha256:<lowercase hex>` of the certificate DER.
    pub fingerprint: String,
    pub not_before: OffsetDateTime,
    pub not_after: OffsetDateTime,
}

#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Pin {
    pub host: String,
    pub port: u16,
    pub fingerprint: String,
    /// The pinned certificate's expiry; None when pinned by fingerprint alone (treated as valid).
    #[serde(default, with = "time::serde::rfc3339::option")]
    pub not_after: Option<OffsetDateTime>,
    #[serde(with = "time::serde::rfc3339")]
    pub first_seen: OffsetDateTime,
    #[serde(with = "time::serde::rfc3339")]
    pub last_seen: OffsetDateTime,
}

/// Policy knobs (from config `[tofu]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TofuPolicy {
    /// Accept (and re-pin) a new certificate when the pinned one has expired.
    pub accept_new_when_expired: bool,
    /// Refuse a certificate whose not_before is in the future.
    pub refuse_not_yet_valid: bool,
    /// Refuse a certificate that is itself expired (even if pinned).
    pub refuse_expired: bool,
}

impl Default for TofuPolicy {
    fn default() -> Self {
        TofuPolicy {
            accept_new_when_expired: true,
            refuse_not_yet_valid: true,
            refuse_expired: false,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// No pin yet: accept and pin.
    FirstUse,
    /// Matches the pin.
    Trusted,
    /// The pin exists and differs; the pinned certificate is still valid. Refuse.
    Changed {
        pinned: String,
        presented: String,
        pinned_not_after: Option<OffsetDateTime>,
    },
    /// The pinned certificate expired and a new one is presented: accepted per policy.
    ReplacedExpired { pinned: String, presented: String },
    /// The presented certificate is not valid yet.
    NotYetValid { not_before: OffsetDateTime },
    /// The presented certificate is expired (only when the policy refuses expired certs).
    Expired { not_after: OffsetDateTime },
}

impl Verdict {
    /// True when the connection may proceed.
    pub fn accepted(&self) -> bool {
        matches!(
            self,
            Verdict::FirstUse | Verdict::Trusted | Verdict::ReplacedExpired { .. }
        )
    }
}

/// Pure decision for a presented certificate against an optional existing pin.
pub fn verdict(
    pin: Option<&Pin>,
    cert: &CertInfo,
    now: OffsetDateTime,
    policy: TofuPolicy,
) -> Verdict {
    let _ = (pin, cert, now, policy);
    Verdict::FirstUse
}

/// The known_hosts file.
#[derive(Clone, Debug)]
pub struct KnownHosts {
    path: PathBuf,
}

impl KnownHosts {
    pub fn new(path: PathBuf) -> KnownHosts {
        KnownHosts { path }
    }
    pub fn path(&self) -> &std::path::Path {
        &self.path
    }
    pub fn list(&self) -> Result<Vec<Pin>, StoreError> {
        Ok(Vec::new())
    }
    pub fn get(&self, host: &str, port: u16) -> Result<Option<Pin>, StoreError> {
        let _ = (host, port);
        Ok(None)
    }
    /// Check a presented certificate and record the outcome atomically: pin on first use,
    /// bump last_seen when trusted, re-pin when an expired pin is replaced. Returns the verdict.
    pub fn check_and_record(
        &self,
        host: &str,
        port: u16,
        cert: &CertInfo,
        now: OffsetDateTime,
        policy: TofuPolicy,
    ) -> Result<Verdict, StoreError> {
        let _ = (host, port, now);
        Ok(verdict(None, cert, OffsetDateTime::UNIX_EPOCH, policy))
    }
    /// Pin (or re-pin) a certificate explicitly (human choice "trust and save", approvals).
    pub fn pin(
        &self,
        host: &str,
        port: u16,
        cert: &CertInfo,
        now: OffsetDateTime,
    ) -> Result<bool, StoreError> {
        let _ = (host, port, cert, now);
        Ok(false)
    }
    /// Remove a pin; returns whether one existed.
    pub fn remove(&self, host: &str, port: u16) -> Result<bool, StoreError> {
        let _ = (host, port);
        Ok(false)
    }
}
