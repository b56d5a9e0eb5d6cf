//! The one open pipeline every capsule protocol goes through, and the seam each protocol fills.
//!
//! [`Client::open`] parses the URL, answers `about:` and the web itself, and hands every other
//! scheme to [`of`]: the table from [`Scheme`] to its [`Protocol`] (an exhaustive match, so a
//! scheme added to [`Scheme::ALL`] does not build until it has a row). A protocol says two
//! things, and nothing else:
//! - [`Protocol::plan`]: what a URL asks — the [`Request`] for `net` (or why none can be sent),
//!   what the outcome may repeat of it ([`RequestInfo`], never a secret), the cache key (None
//!   when the request carries an answer or a query that may be a secret) and the path
//!   robots.txt judges (None: the protocol has no robots.txt convention).
//! - [`Protocol::map`]: what the answer is — a page, a 44 to wait on, or any other outcome.
//!
//! [`run`] does the rest, the same way for every protocol, in this order: a refusal before
//! anything is sent; the cache (skipped on `refresh`); robots.txt (through
//! [`Protocol::robots`]); the host's paced turn; the request through the client's transport,
//! which is the in-flight limits, the work-offline gate and `net` (the address guard and TOFU
//! are there); the mapping; a 44 waited on and asked once more when the budget allows; a page
//! cached. One [`Budget`] covers all of it.

use super::budget::Budget;
use super::{Client, Fetched, OpenOptions, Outcome, RequestInfo, cached_fetched, error};
use smolweb_core::page::Page;
use smolweb_core::url::{Scheme, Url};
use smolweb_net::cache::CacheEntry;
use smolweb_net::policy::RobotsAnswer;
use smolweb_net::{FetchError, NetOptions, Request, Response, TofuState, WaitNotices};
use std::sync::Arc;
use std::time::Duration;

/// What one protocol brings to the pipeline: its request and its answer's mapping.
pub(crate) trait Protocol: Send + Sync {
    /// What `url` asks with `opts` (see [`Plan`]).
    fn plan(&self, url: &Url, opts: &OpenOptions) -> Plan;
    /// What the answer to the plan's request is (`url` is the plan's).
    fn map(&self, url: &Url, info: RequestInfo, answer: Response) -> Answer;
    /// How this protocol's hosts publish robots.txt; None when it has no convention.
    fn robots(&self) -> Option<RobotsRule> {
        None
    }
}

/// The protocol of a scheme fetched through the pipeline; None for the ones the client answers
/// another way (about: pages, the web reader, Titan, which uploads and is never opened).
pub(crate) fn of(scheme: Scheme) -> Option<&'static dyn Protocol> {
    use super::{gemini, gopher, guppy, smallnet};
    match scheme {
        Scheme::Gemini => Some(&gemini::Gemini),
        Scheme::Gopher => Some(&gopher::Gopher),
        Scheme::Nex | Scheme::Finger | Scheme::Spartan | Scheme::Scroll => {
            Some(&smallnet::SmallNet)
        }
        Scheme::Gophers => Some(&smallnet::Gophers),
        Scheme::Guppy => Some(&guppy::Guppy),
        Scheme::About | Scheme::Http | Scheme::Https | Scheme::Titan => None,
    }
}

/// What a URL asks, before anything is sent.
pub(crate) struct Plan {
    /// The URL the answer is read against: the page's URL and the base of its redirects.
    pub(crate) url: Url,
    /// What the outcome says was asked (never a query that may be a secret).
    pub(crate) info: RequestInfo,
    /// What is sent, or why nothing can be.
    pub(crate) request: Result<Request, FetchError>,
    /// Where the page is cached; None when it may not be.
    pub(crate) cache_key: Option<String>,
    /// The path or selector robots.txt judges; None when it is not asked.
    pub(crate) robots_path: Option<String>,
}

/// What an answer is.
pub(crate) enum Answer {
    /// A page: cached under the plan's key and returned.
    Page(RequestInfo, Box<Page>),
    /// A 44 SLOW DOWN and its meta: the host is paused, and the request asked once more when
    /// the wait fits in the budget.
    SlowDown(RequestInfo, String),
    /// Any other outcome, returned as it is.
    Done(Outcome),
}

/// A protocol's robots.txt convention.
pub(crate) struct RobotsRule {
    /// The request for the robots.txt of `host:port`.
    pub(crate) request: fn(host: &str, port: u16) -> Result<Request, FetchError>,
    /// Its answer as rules, with the TOFU news of its connection (None without TLS).
    pub(crate) read: fn(Response) -> Result<RobotsRead, FetchError>,
    /// The user agents whose rules apply.
    pub(crate) agents: &'static [&'static str],
}

/// A robots.txt answer read as rules, with the TOFU news of its connection.
pub(crate) type RobotsRead = (RobotsAnswer, Option<TofuState>);

/// Open `url` with `proto`: plan, then [`run`].
pub(crate) async fn open(
    client: &Client,
    proto: &dyn Protocol,
    url: &Url,
    opts: &OpenOptions,
    budget: Budget,
) -> Outcome {
    let plan = proto.plan(url, opts);
    let call = Call {
        refresh: opts.refresh,
        net: client.net_options(opts),
        waits: opts.waits.as_ref(),
        budget,
    };
    run(client, proto, plan, &call).await
}

/// The per-call parts of a run.
pub(crate) struct Call<'a> {
    /// Skip the cache read (the answer is still stored).
    pub(crate) refresh: bool,
    /// The face's network options for this call.
    pub(crate) net: NetOptions,
    /// Told of paced waits.
    pub(crate) waits: Option<&'a WaitNotices>,
    /// The call's one deadline.
    pub(crate) budget: Budget,
}

/// The pipeline (see the module docs).
pub(crate) async fn run(
    client: &Client,
    proto: &dyn Protocol,
    plan: Plan,
    call: &Call<'_>,
) -> Outcome {
    let Plan {
        url,
        mut info,
        request,
        cache_key,
        robots_path,
    } = plan;
    let request = match request {
        Ok(r) => r,
        Err(e) => return error(info, e),
    };
    if let Some(key) = &cache_key {
        if call.refresh {
            client.cache.remove(key);
        } else if let Some(entry) = client.cache.get(key) {
            // No URL: a Gopher one carries the search, which is never logged.
            tracing::debug!(host = %info.host, port = info.port, "answered from the cache");
            info.timestamp = Some(entry.sent_at);
            // Like the timestamp, the TLS details are those of the download that filled it.
            info.tls = entry.tls.clone();
            let fetched = cached_fetched(entry);
            return Outcome::Page { info, fetched };
        }
    }
    let (host, port) = (url.host(), url.port());
    let news = match (robots_path, proto.robots()) {
        (Some(path), Some(rule)) => {
            let checked = match call.budget.step(&call.net) {
                Ok(o) => client.check_robots(&rule, host, port, &path, &o).await,
                Err(e) => Err(e),
            };
            match checked {
                Ok(news) => news,
                Err(e) => return error(info, e),
            }
        }
        _ => None,
    };
    let mut retried = false;
    loop {
        let turn = client.paced_turn(host, call.budget.left(), call.waits);
        if let Err(wait) = turn.await {
            return error(info, slow_down(wait));
        }
        let step = match call.budget.step(&call.net) {
            Ok(o) => o,
            Err(e) => return error(info, e),
        };
        info.timestamp = Some(client.now());
        // "gemini request", "gopher request", ...: never the URL (a query, a search).
        tracing::debug!(host, port, "{} request", url.scheme().as_str());
        let mut answer = match client.transport.send(&request, &step).await {
            Ok(a) => a,
            Err(e) => return error(info, e),
        };
        if let (Some(news), Some(tls)) = (&news, answer.tls_mut())
            && tls.tofu == TofuState::Trusted
        {
            // The robots.txt fetch just before pinned the certificate: say so here.
            tls.tofu = news.clone();
        }
        let meta = match proto.map(&url, info, answer) {
            Answer::Page(info, page) => {
                return page_outcome(client, cache_key.as_deref(), info, *page);
            }
            Answer::Done(outcome) => return outcome,
            Answer::SlowDown(answered, meta) => {
                info = answered;
                meta
            }
        };
        let Some(seconds) = slow_down_seconds(&meta) else {
            return slow_failure(info, meta, None);
        };
        client.pacer.push_back(host, seconds);
        if retried {
            return slow_failure(info, meta, Some(seconds));
        }
        if Duration::from_secs(seconds) > call.budget.left() {
            let error_value = FetchError::SlowDown {
                retry_after_seconds: seconds,
            };
            return error(info, error_value);
        }
        retried = true;
    }
}

/// A fresh page, cached under `key` when given.
fn page_outcome(client: &Client, key: Option<&str>, info: RequestInfo, page: Page) -> Outcome {
    let page = Arc::new(page);
    let now = client.now();
    if let Some(key) = key {
        let entry = CacheEntry {
            tls: info.tls.clone().map(held_tls),
            page: page.clone(),
            cached_at: now,
            sent_at: info.timestamp.unwrap_or(now),
        };
        client.cache.put(key, entry);
    }
    let fetched = Fetched {
        page,
        cached: false,
        cached_at: Some(now),
    };
    Outcome::Page { info, fetched }
}

/// The TLS details kept with a cached answer: a pin made or replaced on that visit is, for
/// every later read of the copy, simply the pinned certificate.
pub(crate) fn held_tls(mut tls: smolweb_net::TlsInfo) -> smolweb_net::TlsInfo {
    if matches!(
        tls.tofu,
        TofuState::FirstUse | TofuState::ReplacedExpired { .. }
    ) {
        tls.tofu = TofuState::Trusted;
    }
    tls
}

/// The host is paused (after a 44) for longer than the budget allows.
fn slow_down(wait: Duration) -> FetchError {
    FetchError::SlowDown {
        retry_after_seconds: wait.as_secs() + u64::from(wait.subsec_nanos() > 0),
    }
}

/// The seconds of a 44 meta ("30", " 30 ", "30 seconds" are read as 30).
fn slow_down_seconds(meta: &str) -> Option<u64> {
    let digits: String = meta
        .trim()
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

fn slow_failure(info: RequestInfo, meta: String, retry_after: Option<u64>) -> Outcome {
    Outcome::Failure {
        info,
        status: 44,
        meta,
        retry_after_seconds: retry_after,
    }
}

/// The answer is not the kind the request asks for (`what` it is): a bug in a transport.
pub(crate) fn unexpected(info: RequestInfo, what: &'static str) -> Answer {
    let e = smolweb_net::InternalError::WrongAnswer(what);
    Answer::Done(error(info, e.into()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slow_down_meta() {
        for (meta, want) in [
            ("30", Some(30)),
            (" 5 ", Some(5)),
            ("12 seconds", Some(12)),
            ("soon", None),
            ("", None),
            ("99999999999999999999999", None),
        ] {
            assert_eq!(slow_down_seconds(meta), want, "{meta:?}");
        }
    }

    #[test]
    fn every_scheme_has_one_way_in() {
        for s in Scheme::ALL {
            let answered_elsewhere = matches!(s, Scheme::About | Scheme::Titan) || s.is_web();
            assert_eq!(of(s).is_some(), !answered_elsewhere, "{s:?}");
        }
    }
}
