//! The fetch tools' work: input checks, one fetch through the client, windows, batches.
//!
//! Invariants: an input problem is an `INVALID_REQUEST` result, never a panic or a JSON-RPC
//! error; later windows come from the client's cache (`Client::open` answers from the held body,
//! no new request); a batch keeps the order of its URLs, runs at most `batch_concurrency`
//! fetches at once (per-host pacing and in-flight slots are the client's), and each element is
//! exactly what the single-fetch tool returns at offset 0. While it runs, a batch tells its
//! caller each finished element and each wait of an element for a slot or a paced turn (one
//! sentence naming the URL, never its query), as [`BatchEvent`]s; [`Progress`] turns them into
//! strictly increasing progress values, and [`batch_call`] sends them to the client as progress
//! notifications when it gave a progress token. The Gemini and Gopher families (`tools`) share
//! this work: their batch parameters, the batch call and the one reply of a fetch.

use super::outcome::{Family, Limits, error_result, map_outcome, without_query};
use super::render;
use super::reply::tool_result;
use super::results::{ErrorCode, FetchResult, RequestInfoOut, error_out};
use rmcp::RoleServer;
use rmcp::model::{CallToolResponse, CallToolResult, ProgressNotificationParam};
use rmcp::service::RequestContext;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;
use smolweb_client::{Client, OpenOptions};
use smolweb_core::url::{GOPHER_MAX_SEARCH_BYTES, Scheme, Url, UrlError};
use smolweb_net::{Wait, WaitNotices};
use std::sync::Arc;
use tokio::sync::mpsc::{UnboundedSender, unbounded_channel};

/// The contract's batch limit.
pub(crate) const MAX_BATCH: usize = 50;

// The parameters of both batch tools (a plain comment: a doc comment would be published as
// the schema's description).
#[derive(Clone, Debug, Deserialize, JsonSchema)]
pub(crate) struct BatchParams {
    /// 1 to 50 URLs; results come back in the same order.
    #[schemars(length(min = 1, max = 50))]
    pub urls: Vec<String>,
    /// Download again instead of using held copies.
    #[serde(default)]
    pub refresh: bool,
}

/// The answer of a single fetch: its result kind and its text block, windowed at `offset`.
pub(crate) fn reply(r: &FetchResult, offset: i64) -> CallToolResponse {
    let text = render::fetch(r, offset.max(0) as u64);
    tool_result(r, vec![text], r.is_error()).into()
}

pub(crate) fn limits(client: &Client) -> Limits {
    let mcp = &client.config().mcp;
    Limits {
        chars: mcp.max_rendered_chars.max(1),
        items: mcp.max_menu_items.max(1),
        offline: client.working_offline(),
        held: client.holds_pages(),
    }
}

/// Why the fetch tools refuse an input before any request (an `INVALID_REQUEST` result).
#[derive(Debug, thiserror::Error)]
enum Refusal {
    #[error("the url is empty")]
    EmptyUrl,
    #[error("{0}")]
    Url(#[from] UrlError),
    #[error("gemini_fetch takes gemini:// URLs (use gopher_fetch for gopher://)")]
    NotGemini,
    #[error("gopher_fetch takes gopher:// URLs (use gemini_fetch for gemini://)")]
    NotGopher,
    #[error("offset must be >= 0 (got {0})")]
    NegativeOffset(i64),
    #[error("with the input: {0}")]
    Input(UrlError),
    #[error("the search string must not contain CR, LF or TAB")]
    SearchControl,
    #[error("the search string is {0} bytes; the limit is {GOPHER_MAX_SEARCH_BYTES}")]
    SearchTooLong(usize),
    #[error("at most {MAX_BATCH} URLs per batch (got {0}); split the list")]
    BatchTooLong(usize),
}

/// A URL as results and messages show it (a Gemini query is never repeated).
fn shown_url(family: Family, raw_url: &str) -> String {
    match family {
        Family::Gemini => without_query(raw_url.trim()),
        Family::Gopher => raw_url.trim().to_string(),
    }
}

fn invalid(family: Family, raw_url: &str, refusal: &Refusal) -> FetchResult {
    let message = refusal.to_string();
    let url = shown_url(family, raw_url);
    let info = RequestInfoOut {
        url: (!url.is_empty()).then_some(url),
        ..RequestInfoOut::default()
    };
    let mut message = message;
    // A Gemini query may be a secret answer: never echo it, even inside a message.
    if family == Family::Gemini
        && let Some((_, query)) = raw_url.split_once('?')
        && !query.is_empty()
    {
        message = message.replace(query, "<query>");
    }
    error_result(family, error_out(info, ErrorCode::InvalidRequest, message))
}

/// Check a URL for a family; Ok(parsed) or why it is refused.
fn check_url(family: Family, raw: &str) -> Result<Url, Refusal> {
    let trimmed = raw.trim();
    if trimmed.is_empty() {
        return Err(Refusal::EmptyUrl);
    }
    let url = Url::parse(trimmed)?;
    match (family, url.scheme()) {
        (Family::Gemini, Scheme::Gemini) => {
            url.gemini_request()?;
        }
        (Family::Gopher, Scheme::Gopher) => {
            url.gopher_target()?;
        }
        (Family::Gemini, _) => return Err(Refusal::NotGemini),
        (Family::Gopher, _) => return Err(Refusal::NotGopher),
    }
    Ok(url)
}

fn check_offset(offset: i64) -> Result<usize, Refusal> {
    usize::try_from(offset).map_err(|_| Refusal::NegativeOffset(offset))
}

/// A Gemini fetch without elicitation. `input` replaces any query; `waits` hears of waits
/// for a slot or a paced turn.
pub(crate) async fn gemini(
    client: &Client,
    url: &str,
    input: Option<&str>,
    (offset, refresh): (i64, bool),
    waits: Option<WaitNotices>,
) -> FetchResult {
    let family = Family::Gemini;
    let checked = check_offset(offset).and_then(|o| Ok((o, check_url(family, url)?)));
    let (offset, parsed) = match checked {
        Ok(v) => v,
        Err(m) => return invalid(family, url, &m),
    };
    if let Some(answer) = input
        && let Err(e) = parsed.with_input(answer).gemini_request()
    {
        return invalid(family, url, &Refusal::Input(e));
    }
    let opts = OpenOptions {
        input: input.map(str::to_string),
        refresh,
        waits,
        ..OpenOptions::default()
    };
    let outcome = client.open(url.trim(), &opts).await;
    map_outcome(family, &outcome, offset, limits(client), client.now())
}

fn check_search(search: &str) -> Result<(), Refusal> {
    if search.contains(['\r', '\n', '\t']) {
        return Err(Refusal::SearchControl);
    }
    if search.len() > GOPHER_MAX_SEARCH_BYTES {
        return Err(Refusal::SearchTooLong(search.len()));
    }
    Ok(())
}

pub(crate) async fn gopher(
    client: &Client,
    url: &str,
    search: Option<&str>,
    (offset, refresh): (i64, bool),
    waits: Option<WaitNotices>,
) -> FetchResult {
    let family = Family::Gopher;
    let checked = check_offset(offset).and_then(|o| {
        search.map(check_search).transpose()?;
        check_url(family, url)?;
        Ok(o)
    });
    let offset = match checked {
        Ok(o) => o,
        Err(m) => return invalid(family, url, &m),
    };
    let opts = OpenOptions {
        search: search.map(str::to_string),
        refresh,
        waits,
        ..OpenOptions::default()
    };
    let outcome = client.open(url.trim(), &opts).await;
    map_outcome(family, &outcome, offset, limits(client), client.now())
}

/// What a batch tells its caller while it runs.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum BatchEvent {
    /// This many elements are finished.
    Done(usize),
    /// An element waits before its request is sent: one sentence that names its URL.
    Waiting(String),
}

/// The sentence for an element that waits.
fn waiting(url: &str, wait: &Wait) -> String {
    match wait {
        Wait::HostSlot { host, limit } => format!(
            "{url} waits for a slot on its host {host}: {limit} requests to it are in flight \
             (network.max_in_flight_per_host)"
        ),
        Wait::AnySlot { limit } => format!(
            "{url} waits for a network slot: {limit} requests are in flight (network.max_in_flight)"
        ),
        Wait::Paced { host, wait } => format!(
            "{url} waits {:.1} s for its turn on its host {host} (per-host pacing)",
            wait.as_secs_f64()
        ),
    }
}

/// One batch element at offset 0, its waits told to `events`.
async fn element(
    client: &Client,
    family: Family,
    url: &str,
    refresh: bool,
    events: &UnboundedSender<BatchEvent>,
) -> FetchResult {
    let (tx, mut waits) = unbounded_channel();
    let shown = shown_url(family, url);
    let fetch = async {
        match family {
            Family::Gemini => gemini(client, url, None, (0, refresh), Some(tx)).await,
            Family::Gopher => gopher(client, url, None, (0, refresh), Some(tx)).await,
        }
    };
    tokio::pin!(fetch);
    loop {
        tokio::select! {
            r = &mut fetch => return r,
            Some(w) = waits.recv() => {
                let _ = events.send(BatchEvent::Waiting(waiting(&shown, &w)));
            }
        }
    }
}

/// Fetch many URLs: order kept, bounded concurrency, a [`BatchEvent::Done`] after each
/// element and a [`BatchEvent::Waiting`] for each wait (no receiver: nothing is told).
pub(crate) async fn batch(
    client: &Arc<Client>,
    family: Family,
    urls: &[String],
    refresh: bool,
    events: UnboundedSender<BatchEvent>,
) -> Vec<FetchResult> {
    if urls.len() > MAX_BATCH {
        let refusal = Refusal::BatchTooLong(urls.len());
        return urls.iter().map(|u| invalid(family, u, &refusal)).collect();
    }
    let permits = Arc::new(tokio::sync::Semaphore::new(
        client.config().mcp.batch_concurrency.max(1),
    ));
    let mut set = tokio::task::JoinSet::new();
    for (i, url) in urls.iter().enumerate() {
        let (client, url, permits) = (client.clone(), url.clone(), permits.clone());
        let events = events.clone();
        set.spawn(async move {
            let _permit = permits.acquire_owned().await;
            (i, element(&client, family, &url, refresh, &events).await)
        });
    }
    let mut results: Vec<Option<FetchResult>> = vec![None; urls.len()];
    let mut done = 0;
    while let Some(joined) = set.join_next().await {
        if let Ok((i, r)) = joined
            && let Some(slot) = results.get_mut(i)
        {
            *slot = Some(r);
        }
        done += 1;
        let _ = events.send(BatchEvent::Done(done));
    }
    results
        .into_iter()
        .zip(urls)
        .map(|(r, u)| {
            r.unwrap_or_else(|| {
                let info = RequestInfoOut {
                    url: Some(without_query(u)),
                    ..RequestInfoOut::default()
                };
                error_result(
                    family,
                    error_out(info, ErrorCode::InternalError, "the fetch task failed"),
                )
            })
        })
        .collect()
}

/// A batch tool's call: the batch, its progress told to the client when the request carries a
/// progress token, and one text block per URL.
pub(crate) async fn batch_call(
    client: &Arc<Client>,
    family: Family,
    p: &BatchParams,
    ctx: &RequestContext<RoleServer>,
) -> CallToolResult {
    let total = p.urls.len();
    let (tx, mut rx) = unbounded_channel::<BatchEvent>();
    let drain = ctx.meta.get_progress_token().map(|token| {
        let peer = ctx.peer.clone();
        tokio::spawn(async move {
            let mut progress = Progress::default();
            while let Some(event) = rx.recv().await {
                let Some(value) = progress.next(&event) else {
                    continue;
                };
                let mut param =
                    ProgressNotificationParam::new(token.clone(), value).with_total(total as f64);
                if let BatchEvent::Waiting(m) = event {
                    param = param.with_message(m);
                }
                if peer.notify_progress(param).await.is_err() {
                    break;
                }
            }
        })
    });
    // Every sender is gone once the batch returns, so the drain ends after the last event.
    let results = batch(client, family, &p.urls, p.refresh, tx).await;
    if let Some(d) = drain {
        let _ = d.await;
    }
    let texts = if results.is_empty() {
        vec!["no URLs were given".to_string()]
    } else {
        results.iter().map(|r| render::fetch(r, 0)).collect()
    };
    let all_failed = results.iter().all(FetchResult::is_error);
    tool_result(&json!({ "result": results }), texts, all_failed)
}

/// Progress values for one batch's notifications: the finished elements, with waits in
/// between. Values strictly increase, as MCP asks of the notifications for one token: a wait
/// moves the value a sixteenth of the way to the next whole element.
#[derive(Debug, Default)]
pub(crate) struct Progress {
    done: usize,
    last: f64,
}

impl Progress {
    /// The value to send for `event`, or None when it would not be above the last one.
    pub(crate) fn next(&mut self, event: &BatchEvent) -> Option<f64> {
        let value = match event {
            BatchEvent::Done(n) => {
                self.done = *n;
                *n as f64
            }
            BatchEvent::Waiting(_) => self.last + (self.done as f64 + 1.0 - self.last) / 16.0,
        };
        (value > self.last).then(|| {
            self.last = value;
            value
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_values_rise_and_waits_stay_below_the_next_element() {
        let mut p = Progress::default();
        let wait = || BatchEvent::Waiting("u waits".into());
        let mut values = vec![p.next(&wait()).unwrap()];
        values.push(p.next(&BatchEvent::Done(1)).unwrap());
        for _ in 0..200 {
            if let Some(v) = p.next(&wait()) {
                values.push(v);
            }
        }
        values.push(p.next(&BatchEvent::Done(2)).unwrap());
        assert!(values.windows(2).all(|w| w[0] < w[1]), "{values:?}");
        assert_eq!(values[1], 1.0);
        assert!(values[values.len() - 2] < 2.0);
        assert_eq!(values.last().copied(), Some(2.0));
    }

    #[test]
    fn a_wait_names_the_url_without_its_query() {
        let w = Wait::HostSlot {
            host: "example.org".into(),
            limit: 5,
        };
        let m = waiting(
            &shown_url(Family::Gemini, "gemini://example.org/a?secret"),
            &w,
        );
        assert!(m.starts_with("gemini://example.org/a waits for a slot on its host example.org"));
        assert!(!m.contains("secret"));
    }
}
