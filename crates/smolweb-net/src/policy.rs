//! Politeness and safety policy: robots.txt per host, per-host pacing, redirect rules.
//!
//! This module decides; `client` performs the fetches through `net`. Robots answers are kept
//! per host:port for [`ROBOTS_TTL`] (24 h); a capsule whose robots.txt answered a temporary
//! failure (4x) is remembered as unavailable for [`ROBOTS_RETRY_AFTER`] (10 min) so we do not
//! hammer it. How a robots.txt answer is read:
//! - Gemini 2x: parsed; 4x: unavailable (`ROBOTS_UNAVAILABLE`); any other status: allow all.
//! - Gopher: whatever text comes back is parsed (an error menu parses to "allow all").
//! - A host that cannot be reached (DNS, connect, timeout, TLS, refused by the guard or by
//!   TOFU) is reported as that error, never as a robots failure, and nothing is remembered.
//! - Protocol errors and oversized answers: allow all (the capsule has no usable robots.txt).

pub mod http_robots;
pub mod pacing;
pub mod robots;

use crate::FetchError;
use crate::cache::Clock;
use robots::Robots;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// How long a fetched robots.txt is trusted.
pub const ROBOTS_TTL: Duration = Duration::from_secs(24 * 60 * 60);
/// How long a temporary robots.txt failure is remembered.
pub const ROBOTS_RETRY_AFTER: Duration = Duration::from_secs(10 * 60);
/// Body cap for a robots.txt fetch.
pub const ROBOTS_MAX_BYTES: u64 = 256 * 1024;

/// What a robots.txt fetch told us.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RobotsAnswer {
    /// The rules to follow (an allow-all set when the host has no robots.txt).
    Rules(Arc<Robots>),
    /// Temporary failure (Gemini 4x): refuse with `ROBOTS_UNAVAILABLE` for a while.
    Unavailable,
}

/// Read a Gemini answer to `/robots.txt`.
pub fn gemini_robots_answer(status: u8, body: &[u8]) -> RobotsAnswer {
    match status / 10 {
        2 => RobotsAnswer::Rules(Arc::new(Robots::parse(&String::from_utf8_lossy(body)))),
        4 => RobotsAnswer::Unavailable,
        _ => RobotsAnswer::Rules(Arc::new(Robots::allow_all())),
    }
}

/// Read a Gopher answer to selector `robots.txt`.
pub fn gopher_robots_answer(body: &[u8]) -> RobotsAnswer {
    RobotsAnswer::Rules(Arc::new(Robots::parse(&String::from_utf8_lossy(body))))
}

/// A failed robots.txt fetch: `Err(e)` = report `e` for the page (the host is unreachable or
/// refused); `Ok(answer)` = what to assume.
pub fn robots_fetch_failed(err: FetchError) -> Result<RobotsAnswer, FetchError> {
    match err {
        FetchError::Protocol(_) | FetchError::TooLarge { .. } | FetchError::NotFetchable(_) => {
            Ok(RobotsAnswer::Rules(Arc::new(Robots::allow_all())))
        }
        other => Err(other),
    }
}

/// Is this Gemini path / Gopher selector the robots.txt itself (never checked against itself)?
pub fn is_robots_path(path: &str) -> bool {
    path.trim_start_matches('/') == "robots.txt"
}

/// The path robots rules are matched against: Gopher selectors may lack the leading "/".
pub fn robots_match_path(path_or_selector: &str) -> String {
    if path_or_selector.starts_with('/') {
        path_or_selector.to_string()
    } else {
        format!("/{path_or_selector}")
    }
}

struct Held {
    answer: RobotsAnswer,
    until: Instant,
}

type HostKey = (String, u16);

/// Robots answers per host:port, with their lifetimes, plus one async lock per host so that
/// concurrent callers fetch a host's robots.txt once (the others wait and read the answer).
pub struct RobotsCache {
    clock: Arc<dyn Clock>,
    held: Mutex<HashMap<HostKey, Held>>,
    fetching: Mutex<HashMap<HostKey, Arc<tokio::sync::Mutex<()>>>>,
}

impl RobotsCache {
    /// An empty cache whose answers age by `clock`.
    pub fn new(clock: Arc<dyn Clock>) -> RobotsCache {
        RobotsCache {
            clock,
            held: Mutex::new(HashMap::new()),
            fetching: Mutex::new(HashMap::new()),
        }
    }

    /// The lock to hold while fetching the robots.txt of host:port (re-check [`Self::get`]
    /// once it is held). Locks nobody holds are pruned as the map grows.
    pub fn fetch_lock(&self, host: &str, port: u16) -> Arc<tokio::sync::Mutex<()>> {
        let mut locks = self.fetching.lock().unwrap_or_else(|e| e.into_inner());
        if locks.len() > 256 {
            locks.retain(|_, l| Arc::strong_count(l) > 1);
        }
        locks
            .entry((host.to_string(), port))
            .or_insert_with(|| Arc::new(tokio::sync::Mutex::new(())))
            .clone()
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<HostKey, Held>> {
        self.held.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The remembered answer for host:port, if still fresh.
    pub fn get(&self, host: &str, port: u16) -> Option<RobotsAnswer> {
        let now = self.clock.now();
        let mut held = self.lock();
        let key = (host.to_string(), port);
        match held.get(&key) {
            Some(h) if h.until > now => Some(h.answer.clone()),
            Some(_) => {
                held.remove(&key);
                None
            }
            None => None,
        }
    }

    /// Remember an answer (rules for 24 h, unavailability for 10 min).
    pub fn put(&self, host: &str, port: u16, answer: RobotsAnswer) {
        let life = match answer {
            RobotsAnswer::Rules(_) => ROBOTS_TTL,
            RobotsAnswer::Unavailable => ROBOTS_RETRY_AFTER,
        };
        let until = self.clock.now() + life;
        let mut held = self.lock();
        let now = self.clock.now();
        if held.len() > 1024 {
            held.retain(|_, h| h.until > now);
        }
        held.insert((host.to_string(), port), Held { answer, until });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cache::ManualClock;

    #[test]
    fn gemini_statuses() {
        let rules = gemini_robots_answer(20, b"User-agent: *\nDisallow: /x\n");
        let RobotsAnswer::Rules(r) = rules else {
            unreachable!("2x parses")
        };
        assert!(!r.allowed(robots::GEMINI_AGENTS, "/x/y"));
        for status in [10, 31, 51, 53, 59, 60] {
            assert_eq!(
                gemini_robots_answer(status, b""),
                RobotsAnswer::Rules(Arc::new(Robots::allow_all())),
                "{status}"
            );
        }
        for status in [40, 41, 42, 43, 44] {
            assert_eq!(gemini_robots_answer(status, b""), RobotsAnswer::Unavailable);
        }
    }

    #[test]
    fn unreachable_hosts_are_reported_not_assumed() {
        let reported = [
            FetchError::Dns {
                host: "h".into(),
                reason: crate::DnsError::NoAddress,
            },
            FetchError::connection("h", 1, std::io::ErrorKind::ConnectionRefused.into()),
            FetchError::Timeout(Duration::from_secs(1)),
            FetchError::Tls(crate::TlsError::NoCertificate),
            FetchError::Blocked {
                host: "h".into(),
                reason: crate::BlockReason::MetadataName,
            },
        ];
        for e in reported {
            let code = e.code();
            assert!(matches!(robots_fetch_failed(e), Err(back) if back.code() == code));
        }
        assert!(robots_fetch_failed(FetchError::Protocol(crate::ProtocolError::NoAnswer)).is_ok());
        assert!(robots_fetch_failed(FetchError::TooLarge { limit: 1 }).is_ok());
    }

    #[test]
    fn robots_paths() {
        for (p, want) in [
            ("/robots.txt", true),
            ("robots.txt", true),
            ("/a/robots.txt", false),
            ("/", false),
        ] {
            assert_eq!(is_robots_path(p), want, "{p}");
        }
        assert_eq!(robots_match_path("sel"), "/sel");
        assert_eq!(robots_match_path("/sel"), "/sel");
    }

    #[test]
    fn cache_lifetimes() {
        let clock = Arc::new(ManualClock::new());
        let c = RobotsCache::new(clock.clone());
        c.put("a", 1965, RobotsAnswer::Unavailable);
        c.put("b", 1965, gopher_robots_answer(b""));
        assert_eq!(c.get("a", 1965), Some(RobotsAnswer::Unavailable));
        assert_eq!(c.get("a", 1966), None, "per port");
        clock.advance(ROBOTS_RETRY_AFTER);
        assert_eq!(c.get("a", 1965), None, "failure forgotten after 10 min");
        assert!(c.get("b", 1965).is_some());
        clock.advance(ROBOTS_TTL);
        assert_eq!(c.get("b", 1965), None, "rules expire after 24 h");
    }
}
