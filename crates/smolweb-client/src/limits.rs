//! Bounds on fetches in flight for the whole process: at most `network.max_in_flight` network
//! requests at once, and at most `network.max_in_flight_per_host` to one host (robots.txt
//! fetches included). The rest wait in line (tokio semaphores are fair: first come, first
//! served) within their call's time budget; a wait that outlasts it is a `TIMEOUT`. A request
//! that has to wait says so first to its [`NetOptions::waits`] (a batch reports it as
//! progress). A host's semaphore lives only while requests to it are in flight or waiting, so
//! memory stays bounded by the work in progress, not by the hosts ever seen.
//!
//! The per-host default (5) equals `mcp.batch_concurrency`'s, so a batch to one host runs in one
//! round; pacing (`politeness.per_host_interval_ms`) still spaces the requests' starts.
//!
//! [`Limited`] wraps any [`Transport`], so every path that reaches the network is bounded.

use super::transport::{BoxFuture, Transport};
use smolweb_net::{FetchError, NetOptions, Request, Response, Wait, WaitNotices, tell_wait};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Instant;
use tokio::sync::{OwnedSemaphorePermit, Semaphore, TryAcquireError};

pub(crate) struct Limited {
    inner: Arc<dyn Transport>,
    all: Arc<Semaphore>,
    max_in_flight: usize,
    per_host: usize,
    hosts: Mutex<HashMap<String, Arc<Semaphore>>>,
}

/// A permit of `sem`: at once when one is free, else after telling `notices` why it waits.
async fn permit(
    sem: Arc<Semaphore>,
    notices: Option<&WaitNotices>,
    wait: impl FnOnce() -> Wait,
) -> Option<OwnedSemaphorePermit> {
    match sem.clone().try_acquire_owned() {
        Ok(p) => Some(p),
        Err(TryAcquireError::Closed) => None,
        Err(TryAcquireError::NoPermits) => {
            tell_wait(notices, wait());
            sem.acquire_owned().await.ok()
        }
    }
}

/// The permits of one request; the host's entry goes when its last user is done.
struct Turn<'a> {
    limits: &'a Limited,
    host: String,
    _host: Option<OwnedSemaphorePermit>,
    _all: Option<OwnedSemaphorePermit>,
}

impl Drop for Turn<'_> {
    fn drop(&mut self) {
        self._host = None;
        let mut hosts = self.limits.lock();
        if hosts
            .get(&self.host)
            .is_some_and(|s| Arc::strong_count(s) == 1)
        {
            hosts.remove(&self.host);
        }
    }
}

impl Limited {
    pub(crate) fn new(inner: Arc<dyn Transport>, max_in_flight: usize, per_host: usize) -> Limited {
        Limited {
            inner,
            all: Arc::new(Semaphore::new(max_in_flight.max(1))),
            max_in_flight: max_in_flight.max(1),
            per_host: per_host.max(1),
            hosts: Mutex::new(HashMap::new()),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<Semaphore>>> {
        self.hosts.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Wait for a turn to `host` within `opts.timeout`; the options for the request carry
    /// what is left of it.
    async fn turn(
        &self,
        host: &str,
        opts: &NetOptions,
    ) -> Result<(Turn<'_>, NetOptions), FetchError> {
        let started = Instant::now();
        let key = host.to_ascii_lowercase();
        let host_sem = self
            .lock()
            .entry(key.clone())
            .or_insert_with(|| Arc::new(Semaphore::new(self.per_host)))
            .clone();
        let mut turn = Turn {
            limits: self,
            host: key,
            _host: None,
            _all: None,
        };
        let notices = opts.waits.as_ref();
        let (limit, all_limit) = (self.per_host, self.max_in_flight);
        let wait = async move {
            let host = || Wait::HostSlot {
                host: host.to_string(),
                limit,
            };
            let h = permit(host_sem, notices, host).await;
            let any = || Wait::AnySlot { limit: all_limit };
            let a = permit(self.all.clone(), notices, any).await;
            (h, a)
        };
        let (h, a) = tokio::time::timeout(opts.timeout, wait)
            .await
            .map_err(|_| FetchError::Timeout(opts.timeout))?;
        turn._host = h;
        turn._all = a;
        let left = opts.timeout.saturating_sub(started.elapsed());
        if left.is_zero() {
            return Err(FetchError::Timeout(opts.timeout));
        }
        let opts = NetOptions {
            timeout: left,
            ..opts.clone()
        };
        Ok((turn, opts))
    }
}

impl Transport for Limited {
    fn send<'a>(
        &'a self,
        request: &'a Request,
        opts: &'a NetOptions,
    ) -> BoxFuture<'a, Result<Response, FetchError>> {
        Box::pin(async move {
            let (_turn, opts) = self.turn(request.host(), opts).await?;
            self.inner.send(request, &opts).await
        })
    }
}
