//! Gemini in the client: cache (never for a query), robots, pacing, the request, and the
//! mapping of status classes to [`Outcome`]s.
//!
//! One budget (`budget`) covers the robots.txt fetch, the pacing wait, the request and the
//! retry after a 44.
//! 44 SLOW DOWN: the host's next slot is pushed back by the seconds in the meta; if that wait
//! fits in what is left of the timeout budget we wait and retry once, else the answer is
//! `FetchError::SlowDown`. A second 44 is returned as a `Failure` with `retry_after_seconds`.
//! An answer from the cache repeats the `timestamp` of the request that filled it.

use super::budget::Budget;
use super::{Client, Fetched, OpenOptions, Outcome, RequestInfo, cached_fetched, error};
use smolweb_core::page::Page;
use smolweb_core::response::{StatusClass, parse_mime};
use smolweb_core::url::{Scheme, Url};
use smolweb_net::cache::CacheEntry;
use smolweb_net::{FetchError, GeminiResponse, TofuState};
use std::sync::Arc;
use std::time::Duration;

pub(super) async fn open(client: &Client, url: Url, opts: &OpenOptions, budget: Budget) -> Outcome {
    let url = match &opts.input {
        Some(answer) => url.with_input(answer),
        None => url,
    };
    let has_query = url.query().is_some();
    let mut info = RequestInfo {
        url: url.without_query(),
        host: url.host().to_string(),
        port: url.port(),
        path: Some(url.path().to_string()),
        has_query,
        ..RequestInfo::default()
    };
    let key = (!has_query).then(|| url.to_string());
    if let Some(key) = &key {
        if opts.refresh {
            client.cache.remove(key);
        } else if let Some(entry) = client.cache.get(key) {
            tracing::debug!(url = %info.url, "answered from the cache");
            info.timestamp = Some(entry.sent_at);
            // Like the timestamp, the TLS details are those of the download that filled it.
            info.tls = entry.tls.clone();
            let fetched = cached_fetched(entry);
            return Outcome::Page { info, fetched };
        }
    }
    let net_opts = client.net_options(opts);
    let (host, port, path) = (url.host(), url.port(), url.path());
    let robots = match budget.step(&net_opts) {
        Ok(o) => {
            client
                .check_robots(Scheme::Gemini, host, port, path, &o)
                .await
        }
        Err(e) => Err(e),
    };
    let robots_tofu = match robots {
        Ok(news) => news,
        Err(e) => return error(info, e),
    };
    let mut retried = false;
    loop {
        let turn = client.paced_turn(host, budget.left(), opts.waits.as_ref());
        if let Err(wait) = turn.await {
            return error(info, slow_down(wait));
        }
        let step = match budget.step(&net_opts) {
            Ok(o) => o,
            Err(e) => return error(info, e),
        };
        info.timestamp = Some(client.now());
        tracing::debug!(url = %info.url, has_query, "gemini request");
        let mut resp = match client.transport.gemini(&url, &step).await {
            Ok(r) => r,
            Err(e) => return error(info, e),
        };
        if let Some(news) = &robots_tofu
            && resp.tls.tofu == TofuState::Trusted
        {
            // The robots.txt fetch just before pinned the certificate: say so here.
            resp.tls.tofu = news.clone();
        }
        info.tls = Some(resp.tls.clone());
        if resp.header.status != 44 {
            return map_answer(client, &url, key.as_deref(), info, resp);
        }
        let meta = resp.header.meta;
        let Some(seconds) = slow_down_seconds(&meta) else {
            return slow_failure(info, meta, None);
        };
        client.pacer.push_back(host, seconds);
        if retried {
            return slow_failure(info, meta, Some(seconds));
        }
        if Duration::from_secs(seconds) > budget.left() {
            let error_value = FetchError::SlowDown {
                retry_after_seconds: seconds,
            };
            return error(info, error_value);
        }
        retried = true;
    }
}

/// The host is paused (after a 44) for longer than the budget allows.
pub(super) fn slow_down(wait: Duration) -> FetchError {
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

/// Map a (non-44) answer to an outcome; 2x pages are cached under `key` when given.
pub(super) fn map_answer(
    client: &Client,
    url: &Url,
    key: Option<&str>,
    info: RequestInfo,
    resp: GeminiResponse,
) -> Outcome {
    let GeminiResponse {
        header,
        body,
        ending,
        ..
    } = resp;
    let status = header.status;
    match header.class() {
        StatusClass::Input => Outcome::Input {
            info,
            prompt: header.meta,
            sensitive: status == 11,
        },
        StatusClass::Success => {
            let page = Page::from_gemini(url.clone(), parse_mime(&header.meta), body);
            // The flag travels with the page, into the memory cache too.
            let page = Arc::new(page.with_ending(ending));
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
        StatusClass::Redirect => redirect(url, info, status, &header.meta),
        StatusClass::TemporaryFailure | StatusClass::PermanentFailure => Outcome::Failure {
            info,
            status,
            meta: header.meta,
            retry_after_seconds: None,
        },
        StatusClass::ClientCertificate => Outcome::Certificate {
            info,
            status,
            message: header.meta,
        },
    }
}

fn redirect(url: &Url, info: RequestInfo, status: u8, meta: &str) -> Outcome {
    let target = match url.resolve(meta.trim()) {
        Ok(t) => t,
        Err(e) => {
            let msg = format!("status {status} with an unusable redirect target: {e}");
            return error(info, FetchError::Protocol(msg));
        }
    };
    // The one link rule: a redirect is followed only to a scheme smolweb fetches.
    if smolweb_core::url::destination(&target) != smolweb_core::url::Destination::Fetch {
        let scheme = smolweb_core::url::refused_scheme(&target).unwrap_or_else(|| "mailto".into());
        let msg = format!("status {status} redirects to a {scheme}: URL, which is not followed");
        return error(info, FetchError::Protocol(msg));
    }
    let (scheme, cross_host) = describe_target(url, &target);
    Outcome::Redirect {
        info,
        target,
        permanent: status == 31,
        cross_host,
        scheme,
    }
}

/// The target's scheme and whether it leaves this host:port.
pub(super) fn describe_target(from: &Url, target: &str) -> (String, bool) {
    if let Ok(t) = Url::parse(target) {
        let cross = t.host() != from.host() || t.port() != from.port();
        return (t.scheme().as_str().to_string(), cross);
    }
    match url::Url::parse(target) {
        Ok(t) => {
            let same_host = t.host_str().is_some_and(|h| {
                h.trim_matches(|c| c == '[' || c == ']')
                    .eq_ignore_ascii_case(from.host())
            });
            let same = same_host && t.port_or_known_default() == Some(from.port());
            (t.scheme().to_string(), !same)
        }
        Err(_) => {
            let scheme = target.split(':').next().unwrap_or_default();
            (scheme.to_ascii_lowercase(), true)
        }
    }
}

/// The TLS details kept with a cached answer: a pin made or replaced on that visit is, for
/// every later read of the copy, simply the pinned certificate.
pub(crate) fn held_tls(mut tls: smolweb_net::TlsInfo) -> smolweb_net::TlsInfo {
    use smolweb_net::TofuState;
    if matches!(
        tls.tofu,
        TofuState::FirstUse | TofuState::ReplacedExpired { .. }
    ) {
        tls.tofu = TofuState::Trusted;
    }
    tls
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
}
