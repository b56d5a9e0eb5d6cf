//! One time budget per call: `network.timeout_seconds` covers everything a call does — the
//! wait for its turn (in-flight bounds, per-host pacing), the robots.txt fetch, the request, and
//! the one retry after a 44 — not each of them anew. Every network step is given what is left
//! of the budget as its timeout; nothing left is a `TIMEOUT` before anything is sent.

use smolweb_net::{FetchError, NetOptions};
use std::time::{Duration, Instant};

#[derive(Clone, Copy, Debug)]
pub(crate) struct Budget {
    total: Duration,
    deadline: Instant,
}

impl Budget {
    /// A budget of `total` starting at `started`.
    pub(crate) fn from(started: Instant, total: Duration) -> Budget {
        Budget {
            total,
            deadline: started + total,
        }
    }

    /// What is left (zero once spent).
    pub(crate) fn left(&self) -> Duration {
        self.deadline.saturating_duration_since(Instant::now())
    }

    /// `opts` with what is left of the budget as the timeout of the next step.
    pub(crate) fn step(&self, opts: &NetOptions) -> Result<NetOptions, FetchError> {
        let left = self.left();
        if left.is_zero() {
            return Err(FetchError::Timeout(self.total));
        }
        Ok(NetOptions {
            timeout: left,
            ..opts.clone()
        })
    }
}
