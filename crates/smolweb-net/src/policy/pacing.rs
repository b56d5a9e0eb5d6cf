//! Per-host pacing: at most one request per `interval` to a host, shared by all callers.
//!
//! Each caller reserves the next free slot under a mutex (the host's next-allowed instant
//! moves one interval past the slot it hands out), then sleeps outside the lock until its slot.
//! Concurrent callers to one host therefore queue in slot order; different hosts never wait for
//! each other. A 44 SLOW DOWN pushes the host's next slot back by the seconds the capsule asked.
//! Interval zero turns the regular spacing off (pushbacks from 44 still apply).
//! Clock injected; the map is pruned of past entries so it stays bounded by active hosts.

use crate::cache::Clock;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// Entries are pruned when the map grows past this many hosts.
const PRUNE_AT: usize = 256;

/// Spaces requests to each host (see the module docs); every caller holding it shares the turns.
pub struct Pacer {
    interval: Duration,
    clock: Arc<dyn Clock>,
    next: Mutex<HashMap<String, Instant>>,
}

impl Pacer {
    /// A pacer giving each host one turn per `interval` (zero: only 44 pushbacks wait).
    pub fn new(interval: Duration, clock: Arc<dyn Clock>) -> Pacer {
        Pacer {
            interval,
            clock,
            next: Mutex::new(HashMap::new()),
        }
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<String, Instant>> {
        self.next.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Reserve the next slot for `host`; returns the slot and how long to wait for it.
    pub fn reserve(&self, host: &str) -> (Instant, Duration) {
        let now = self.clock.now();
        let mut next = self.lock();
        if next.len() > PRUNE_AT {
            next.retain(|_, at| *at > now);
        }
        let slot = next.get(host).copied().map_or(now, |at| at.max(now));
        if !self.interval.is_zero() || next.contains_key(host) {
            next.insert(host.to_string(), slot + self.interval);
        }
        (slot, slot.saturating_duration_since(now))
    }

    /// Reserve a slot and sleep until it, unless the wait would exceed `max_wait` (a long
    /// 44 pushback): then nothing is reserved and the wait is returned as the error, so the
    /// caller answers SLOW_DOWN at once instead of sleeping past its budget. `on_wait` hears
    /// of a wait that is not zero before the sleep.
    pub async fn wait_turn(
        &self,
        host: &str,
        max_wait: Duration,
        on_wait: impl FnOnce(Duration),
    ) -> Result<(), Duration> {
        let wait = {
            let now = self.clock.now();
            let next = self.lock();
            let slot = next.get(host).copied().map_or(now, |at| at.max(now));
            slot.saturating_duration_since(now)
        };
        if wait > max_wait {
            return Err(wait);
        }
        let (_, wait) = self.reserve(host);
        if !wait.is_zero() {
            on_wait(wait);
            tokio::time::sleep(wait).await;
        }
        Ok(())
    }

    /// The host asked us to slow down: no request before `now + seconds`.
    pub fn push_back(&self, host: &str, seconds: u64) {
        let until = self.clock.now() + Duration::from_secs(seconds);
        let mut next = self.lock();
        let at = next.entry(host.to_string()).or_insert(until);
        *at = (*at).max(until);
    }

    /// The earliest instant the next request to `host` may go (None: right away).
    pub fn next_slot(&self, host: &str) -> Option<Instant> {
        let now = self.clock.now();
        self.lock().get(host).copied().filter(|at| *at > now)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cache::ManualClock;

    fn pacer(ms: u64) -> (Pacer, Arc<ManualClock>) {
        let clock = Arc::new(ManualClock::new());
        (Pacer::new(Duration::from_millis(ms), clock.clone()), clock)
    }

    #[tokio::test]
    async fn a_wait_longer_than_the_budget_is_refused_without_taking_a_slot() {
        let (p, _clock) = pacer(0);
        p.push_back("slow", 3600);
        let err = p
            .wait_turn("slow", Duration::from_secs(30), |_| {})
            .await
            .unwrap_err();
        assert!(err > Duration::from_secs(3500), "{err:?}");
        assert!(
            p.wait_turn("other", Duration::from_secs(30), |_| {})
                .await
                .is_ok()
        );
    }

    #[test]
    fn callers_to_one_host_get_consecutive_slots() {
        let (p, clock) = pacer(1000);
        let t0 = clock.now();
        let waits: Vec<Duration> = (0..3).map(|_| p.reserve("a").1).collect();
        assert_eq!(
            waits,
            [0, 1000, 2000].map(Duration::from_millis).to_vec(),
            "each caller queues one interval after the previous"
        );
        assert_eq!(p.next_slot("a"), Some(t0 + Duration::from_millis(3000)));
    }

    #[test]
    fn hosts_are_independent() {
        let (p, _) = pacer(1000);
        assert_eq!(p.reserve("a").1, Duration::ZERO);
        assert_eq!(p.reserve("b").1, Duration::ZERO);
    }

    #[test]
    fn time_passing_frees_the_slot() {
        let (p, clock) = pacer(1000);
        p.reserve("a");
        clock.advance(Duration::from_millis(400));
        assert_eq!(p.reserve("a").1, Duration::from_millis(600));
        clock.advance(Duration::from_secs(5));
        assert_eq!(p.reserve("a").1, Duration::ZERO);
    }

    #[test]
    fn zero_interval_is_off_but_slow_down_still_counts() {
        let (p, clock) = pacer(0);
        assert_eq!(p.reserve("a").1, Duration::ZERO);
        assert_eq!(p.reserve("a").1, Duration::ZERO);
        assert_eq!(p.next_slot("a"), None);
        p.push_back("a", 3);
        assert_eq!(p.reserve("a").1, Duration::from_secs(3));
        clock.advance(Duration::from_secs(3));
        assert_eq!(p.reserve("a").1, Duration::ZERO);
    }

    #[test]
    fn push_back_never_moves_a_slot_earlier() {
        let (p, _) = pacer(10_000);
        p.reserve("a");
        p.push_back("a", 2);
        assert_eq!(p.reserve("a").1, Duration::from_secs(10));
    }
}
