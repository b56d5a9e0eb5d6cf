//! known_hosts: trust-on-first-use pins of server certificates, shared by both faces.
//!
//! A pin maps host:port to the SHA-256 of the end-entity certificate DER, with the
//! certificate's not_after and when the pin was first and last seen. [`verdict`] is pure.
//!
//! Every host that enters this API goes through [`normalize_host`] (the one normalizer a
//! parsed URL uses too), so a pin made from what a human or an agent typed (`[::1]`,
//! `Example.ORG`, an IDN) is the pin the next fetch of that host checks; a host with a port
//! or a scheme is refused with [`StoreError::Invalid`]. Hosts read from an older file are
//! normalized on load (and written back normalized on the next change).
//!
//! Reading and saving fail differently ([`KnownHosts::check`]): a store that cannot be read
//! (unreadable, corrupt) is an error, since no verdict can be trusted without it; a pin that
//! cannot be saved (disk full, read-only directory) still gives its verdict, with the write
//! error in [`Checked::not_saved`], and is kept in memory for the rest of the process so the
//! next handshake (a redirect, a resumed session) agrees with this one.

use super::StoreError;
use super::list_file::{ListFile, ListItem};
use smolweb_core::fingerprint::is_sha256_fingerprint;
use smolweb_core::url::normalize_host;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};
use time::OffsetDateTime;

/// What we know about a presented server certificate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CertInfo {
    /// `sha256:<lowercase hex>` of the certificate DER.
    pub fingerprint: String,
    /// The start of the certificate's validity.
    pub not_before: OffsetDateTime,
    /// The certificate's expiry.
    pub not_after: OffsetDateTime,
}

/// One pinned certificate: what known_hosts remembers of host:port.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Pin {
    /// The host, normalized ([`normalize_host`]).
    pub host: String,
    /// The port.
    pub port: u16,
    /// `sha256:<lowercase hex>` of the pinned certificate's DER.
    pub fingerprint: String,
    /// The pinned certificate's expiry; None when pinned by fingerprint alone (treated as valid).
    #[serde(default, with = "time::serde::rfc3339::option")]
    pub not_after: Option<OffsetDateTime>,
    /// When this certificate was pinned.
    #[serde(with = "time::serde::rfc3339")]
    pub first_seen: OffsetDateTime,
    /// When it was last presented (updated at most once per [`LAST_SEEN_GRANULARITY`]).
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

/// What to do with a presented certificate ([`verdict`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// No pin yet: accept and pin.
    FirstUse,
    /// Matches the pin.
    Trusted,
    /// The pin exists and differs; the pinned certificate is still valid. Refuse.
    Changed {
        /// The fingerprint pinned.
        pinned: String,
        /// The fingerprint presented.
        presented: String,
        /// The pinned certificate's expiry, when known.
        pinned_not_after: Option<OffsetDateTime>,
    },
    /// The pinned certificate expired and a new one is presented: accepted per policy.
    ReplacedExpired {
        /// The fingerprint of the expired pin.
        pinned: String,
        /// The fingerprint now pinned in its place.
        presented: String,
    },
    /// The presented certificate is not valid yet.
    NotYetValid {
        /// When the certificate becomes valid.
        not_before: OffsetDateTime,
    },
    /// The presented certificate is expired (only when the policy refuses expired certs).
    Expired {
        /// When the certificate expired.
        not_after: OffsetDateTime,
    },
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
///
/// Order: the presented certificate's own dates first (per policy), then the pin:
/// none -> FirstUse; same fingerprint -> Trusted; different and the pinned certificate is
/// known to have expired -> ReplacedExpired (or Changed when the policy says so); otherwise
/// Changed. A pin without a known expiry counts as still valid.
pub fn verdict(
    pin: Option<&Pin>,
    cert: &CertInfo,
    now: OffsetDateTime,
    policy: TofuPolicy,
) -> Verdict {
    if policy.refuse_not_yet_valid && cert.not_before > now {
        return Verdict::NotYetValid {
            not_before: cert.not_before,
        };
    }
    if policy.refuse_expired && cert.not_after < now {
        return Verdict::Expired {
            not_after: cert.not_after,
        };
    }
    let Some(pin) = pin else {
        return Verdict::FirstUse;
    };
    if pin.fingerprint.eq_ignore_ascii_case(&cert.fingerprint) {
        return Verdict::Trusted;
    }
    let pinned = pin.fingerprint.clone();
    let presented = cert.fingerprint.clone();
    match pin.not_after {
        Some(t) if t < now && policy.accept_new_when_expired => {
            Verdict::ReplacedExpired { pinned, presented }
        }
        pinned_not_after => Verdict::Changed {
            pinned,
            presented,
            pinned_not_after,
        },
    }
}

/// A Trusted visit rewrites the file to bump `last_seen` only when the stored value is older
/// than this, so ordinary browsing does not rewrite known_hosts on every fetch.
pub(crate) const LAST_SEEN_GRANULARITY: time::Duration = time::Duration::hours(1);

/// On disk: `[[pin]]` tables, sorted by host then port.
impl ListItem for Pin {
    const TABLE: &'static str = "pin";
    fn header() -> String {
        "# smolweb known hosts: trust-on-first-use pins of server certificates.\n\
         # fingerprint = sha256 of the certificate DER; times are RFC 3339.\n"
            .into()
    }
    /// Normalize the hosts an older version stored as typed.
    fn after_read(pins: &mut [Pin]) {
        for pin in pins {
            if let Ok(host) = normalize_host(&pin.host) {
                pin.host = host;
            }
        }
    }
}

fn find(pins: &[Pin], host: &str, port: u16) -> Option<usize> {
    pins.iter()
        .position(|p| p.port == port && p.host.eq_ignore_ascii_case(host))
}

fn sort(pins: &mut [Pin]) {
    pins.sort_by(|a, b| (&a.host, a.port).cmp(&(&b.host, b.port)));
}

/// Insert or replace the pin of host:port with a fresh one.
fn set(
    pins: &mut Vec<Pin>,
    host: &str,
    port: u16,
    fingerprint: &str,
    not_after: Option<OffsetDateTime>,
    now: OffsetDateTime,
) {
    let pin = Pin {
        host: host.to_ascii_lowercase(),
        port,
        fingerprint: fingerprint.to_ascii_lowercase(),
        not_after: not_after.map(seconds),
        first_seen: seconds(now),
        last_seen: seconds(now),
    };
    match find(pins, host, port) {
        Some(i) => pins[i] = pin,
        None => pins.push(pin),
    }
    sort(pins);
}

/// A host as the store keys it (see the module doc); refused hosts are `Invalid`.
fn host_key(host: &str) -> Result<String, StoreError> {
    normalize_host(host).map_err(|e| StoreError::Invalid(format!("{e}")))
}

/// Stored timestamps are whole seconds (readable, and stable through a round trip).
fn seconds(t: OffsetDateTime) -> OffsetDateTime {
    t.replace_nanosecond(0).unwrap_or(t)
}

/// The result of [`KnownHosts::check`].
#[derive(Debug)]
pub struct Checked {
    /// The decision about the certificate.
    pub verdict: Verdict,
    /// Set when the verdict pinned a certificate (first use, an expired pin replaced) but
    /// the pin could not be written: the connection may go on, the pin lasts only as long as
    /// this process, and the faces say so.
    pub not_saved: Option<StoreError>,
}

/// The known_hosts file (clones share the pins kept in memory after a failed save).
#[derive(Clone, Debug)]
pub struct KnownHosts {
    file: ListFile<Pin>,
    unsaved: Arc<Mutex<Vec<Pin>>>,
}

impl KnownHosts {
    /// The known_hosts file at `path` (nothing is read or created yet).
    pub fn new(path: PathBuf) -> KnownHosts {
        KnownHosts {
            file: ListFile::new(path),
            unsaved: Arc::default(),
        }
    }
    fn unsaved(&self) -> std::sync::MutexGuard<'_, Vec<Pin>> {
        self.unsaved.lock().unwrap_or_else(PoisonError::into_inner)
    }
    /// The pin of host:port: on disk, else kept in memory after a failed save.
    fn lookup(&self, host: &str, port: u16) -> Result<Option<Pin>, StoreError> {
        let mut pins = self.file.read()?;
        if let Some(i) = find(&pins, host, port) {
            return Ok(Some(pins.swap_remove(i)));
        }
        let unsaved = self.unsaved();
        Ok(unsaved
            .iter()
            .find(|p| p.port == port && p.host == host)
            .cloned())
    }
    /// The file this store reads and writes.
    pub fn path(&self) -> &std::path::Path {
        self.file.path()
    }
    fn update<R>(&self, mutate: impl FnOnce(&mut Vec<Pin>) -> (R, bool)) -> Result<R, StoreError> {
        self.file.update(|pins| Ok(mutate(pins)))
    }
    /// All pins, sorted by host then port.
    pub fn list(&self) -> Result<Vec<Pin>, StoreError> {
        let mut pins = self.file.read()?;
        sort(&mut pins);
        Ok(pins)
    }
    /// The pin of host:port (on disk, or kept in memory after a failed save).
    pub fn get(&self, host: &str, port: u16) -> Result<Option<Pin>, StoreError> {
        self.lookup(&host_key(host)?, port)
    }
    /// Check a presented certificate and record the outcome atomically: pin on first use,
    /// bump last_seen when trusted (at most once per [`LAST_SEEN_GRANULARITY`]), re-pin when an
    /// expired pin is replaced. Refusals write nothing. A failed write is an error here; see
    /// [`KnownHosts::check`] for the form that still answers when the disk is full.
    pub fn check_and_record(
        &self,
        host: &str,
        port: u16,
        cert: &CertInfo,
        now: OffsetDateTime,
        policy: TofuPolicy,
    ) -> Result<Verdict, StoreError> {
        let checked = self.check(host, port, cert, now, policy)?;
        match checked.not_saved {
            Some(e) => Err(e),
            None => Ok(checked.verdict),
        }
    }
    /// [`KnownHosts::check_and_record`] that separates reading from saving: an unreadable or
    /// corrupt store is an error; a verdict whose pin could not be written is returned with
    /// the write error in [`Checked::not_saved`] (a failed `last_seen` bump is not reported:
    /// nothing a user relies on was lost).
    pub fn check(
        &self,
        host: &str,
        port: u16,
        cert: &CertInfo,
        now: OffsetDateTime,
        policy: TofuPolicy,
    ) -> Result<Checked, StoreError> {
        let host = &host_key(host)?;
        // Fast path under the shared lock: a trusted, recently seen pin needs no write.
        let known = self.lookup(host, port)?;
        let first = verdict(known.as_ref(), cert, now, policy);
        if !known
            .as_ref()
            .is_some_and(|pin| needs_write(&first, pin, now))
            && !matches!(first, Verdict::FirstUse | Verdict::ReplacedExpired { .. })
        {
            return Ok(Checked {
                verdict: first,
                not_saved: None,
            });
        }
        let written = self.update(|pins| {
            let idx = find(pins, host, port);
            let v = verdict(idx.map(|i| &pins[i]), cert, now, policy);
            let changed = match (&v, idx) {
                (Verdict::FirstUse | Verdict::ReplacedExpired { .. }, _) => {
                    set(
                        pins,
                        host,
                        port,
                        &cert.fingerprint,
                        Some(cert.not_after),
                        now,
                    );
                    true
                }
                (Verdict::Trusted, Some(i)) if needs_write(&v, &pins[i], now) => {
                    let pin = &mut pins[i];
                    pin.last_seen = seconds(now);
                    pin.not_after = Some(seconds(cert.not_after));
                    true
                }
                _ => false,
            };
            (v, changed)
        });
        match written {
            Ok(verdict) => {
                self.unsaved()
                    .retain(|p| !(p.port == port && &p.host == host));
                Ok(Checked {
                    verdict,
                    not_saved: None,
                })
            }
            Err(e @ StoreError::Io { .. }) => {
                let pins = matches!(first, Verdict::FirstUse | Verdict::ReplacedExpired { .. });
                if pins {
                    self.keep_unsaved(host, port, cert, now);
                }
                Ok(Checked {
                    verdict: first,
                    not_saved: pins.then_some(e),
                })
            }
            Err(e) => Err(e),
        }
    }
    /// Remember a pin that could not be written, for the rest of this process.
    fn keep_unsaved(&self, host: &str, port: u16, cert: &CertInfo, now: OffsetDateTime) {
        let mut unsaved = self.unsaved();
        unsaved.retain(|p| !(p.port == port && p.host == host));
        unsaved.push(Pin {
            host: host.to_string(),
            port,
            fingerprint: cert.fingerprint.to_ascii_lowercase(),
            not_after: Some(seconds(cert.not_after)),
            first_seen: seconds(now),
            last_seen: seconds(now),
        });
    }
    /// Pin (or re-pin) a certificate explicitly (human choice "trust and save", approvals).
    /// Returns true when the stored pin changed (new host or different fingerprint).
    pub fn pin(
        &self,
        host: &str,
        port: u16,
        cert: &CertInfo,
        now: OffsetDateTime,
    ) -> Result<bool, StoreError> {
        self.pin_with(host, port, &cert.fingerprint, Some(cert.not_after), now)
    }
    /// Pin by fingerprint alone (expiry unknown: the pin counts as valid until replaced).
    pub fn pin_fingerprint(
        &self,
        host: &str,
        port: u16,
        fingerprint: &str,
        now: OffsetDateTime,
    ) -> Result<bool, StoreError> {
        self.pin_with(host, port, fingerprint, None, now)
    }
    fn pin_with(
        &self,
        host: &str,
        port: u16,
        fingerprint: &str,
        not_after: Option<OffsetDateTime>,
        now: OffsetDateTime,
    ) -> Result<bool, StoreError> {
        let host = &host_key(host)?;
        if !is_sha256_fingerprint(fingerprint) {
            return Err(StoreError::Invalid(format!(
                "not a sha256:<64 hex> fingerprint: {fingerprint}"
            )));
        }
        self.update(|pins| match find(pins, host, port) {
            Some(i) if pins[i].fingerprint.eq_ignore_ascii_case(fingerprint) => {
                let pin = &mut pins[i];
                let fill = pin.not_after.is_none() && not_after.is_some();
                if fill {
                    pin.not_after = not_after.map(seconds);
                }
                (false, fill)
            }
            _ => {
                set(pins, host, port, fingerprint, not_after, now);
                (true, true)
            }
        })
    }
    /// Remove a pin; returns whether one existed.
    pub fn remove(&self, host: &str, port: u16) -> Result<bool, StoreError> {
        let host = &host_key(host)?;
        let mut unsaved = self.unsaved();
        let before = unsaved.len();
        unsaved.retain(|p| !(p.port == port && &p.host == host));
        let in_memory = unsaved.len() != before;
        drop(unsaved);
        let on_disk = self.update(|pins| match find(pins, host, port) {
            Some(i) => {
                pins.remove(i);
                (true, true)
            }
            None => (false, false),
        })?;
        Ok(on_disk || in_memory)
    }
}

/// Does this verdict against this pin call for a write? (Only Trusted is checked here; the
/// other accepted verdicts always write.)
fn needs_write(v: &Verdict, pin: &Pin, now: OffsetDateTime) -> bool {
    match v {
        Verdict::Trusted => pin.not_after.is_none() || now - pin.last_seen >= LAST_SEEN_GRANULARITY,
        Verdict::FirstUse | Verdict::ReplacedExpired { .. } => true,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    const NOW: OffsetDateTime = datetime!(2026-06-01 12:00 UTC);
    const FP_A: &str = "sha256:aaaa";
    const FP_B: &str = "sha256:bbbb";

    fn cert(fp: &str, nb: OffsetDateTime, na: OffsetDateTime) -> CertInfo {
        CertInfo {
            fingerprint: fp.into(),
            not_before: nb,
            not_after: na,
        }
    }
    fn pin(fp: &str, na: Option<OffsetDateTime>) -> Pin {
        Pin {
            host: "h".into(),
            port: 1965,
            fingerprint: fp.into(),
            not_after: na,
            first_seen: NOW,
            last_seen: NOW,
        }
    }

    #[test]
    fn verdict_table() {
        let past = datetime!(2026-01-01 0:00 UTC);
        let future = datetime!(2027-01-01 0:00 UTC);
        let ok = cert(FP_A, past, future);
        let other = cert(FP_B, past, future);
        let d = TofuPolicy::default();
        let strict = TofuPolicy {
            accept_new_when_expired: false,
            refuse_not_yet_valid: true,
            refuse_expired: true,
        };
        let lax = TofuPolicy {
            accept_new_when_expired: true,
            refuse_not_yet_valid: false,
            refuse_expired: false,
        };
        let changed = |na| Verdict::Changed {
            pinned: FP_A.into(),
            presented: FP_B.into(),
            pinned_not_after: na,
        };
        let replaced = Verdict::ReplacedExpired {
            pinned: FP_A.into(),
            presented: FP_B.into(),
        };
        let cases: Vec<(Option<Pin>, CertInfo, TofuPolicy, Verdict)> = vec![
            (None, ok.clone(), d, Verdict::FirstUse),
            (
                Some(pin(FP_A, Some(future))),
                ok.clone(),
                d,
                Verdict::Trusted,
            ),
            // Fingerprints compare case-insensitively.
            (
                Some(pin("SHA256:AAAA", Some(future))),
                ok.clone(),
                d,
                Verdict::Trusted,
            ),
            (
                Some(pin(FP_A, Some(future))),
                other.clone(),
                d,
                changed(Some(future)),
            ),
            (Some(pin(FP_A, None)), other.clone(), d, changed(None)),
            (
                Some(pin(FP_A, Some(past))),
                other.clone(),
                d,
                replaced.clone(),
            ),
            (
                Some(pin(FP_A, Some(past))),
                other.clone(),
                strict,
                changed(Some(past)),
            ),
            (
                None,
                cert(FP_A, future, future),
                d,
                Verdict::NotYetValid { not_before: future },
            ),
            (None, cert(FP_A, future, future), lax, Verdict::FirstUse),
            // An expired certificate is accepted unless the policy refuses it.
            (
                Some(pin(FP_A, Some(past))),
                cert(FP_A, past, past),
                d,
                Verdict::Trusted,
            ),
            (
                Some(pin(FP_A, Some(past))),
                cert(FP_A, past, past),
                strict,
                Verdict::Expired { not_after: past },
            ),
        ];
        for (i, (p, c, pol, want)) in cases.into_iter().enumerate() {
            let got = verdict(p.as_ref(), &c, NOW, pol);
            assert_eq!(got, want, "case {i}");
        }
    }

    #[test]
    fn accepted_verdicts() {
        assert!(Verdict::FirstUse.accepted());
        assert!(Verdict::Trusted.accepted());
        assert!(!Verdict::NotYetValid { not_before: NOW }.accepted());
    }
}
