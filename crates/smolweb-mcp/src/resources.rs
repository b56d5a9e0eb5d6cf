//! The resources: `smolweb://policy` (the effective limits and settings an agent may see, no
//! file paths) and the pages the person shared, `smolweb://shared/ID` (`[?offset=N]`).
//!
//! Shared pages are read from the store on every list (another process writes them); a read
//! fetches the page through the fetch tools' paths (cache, guard, windows: `?offset=N` reads
//! on); every read is written to the session's activity log (by the server, with what was
//! read and how it went). The shared pages file's signature is looked at every [`WATCH_EVERY`]:
//! a change is `notifications/resources/list_changed`, sent by a watcher per initialize-style
//! session (2025 revisions) or on each `subscriptions/listen` stream of a 2026-07-28 client,
//! which has no session.

use crate::fetch;
use crate::render;
use crate::tools::web;
use rmcp::model::{Resource, ResourceContents, SubscriptionFilter};
use rmcp::service::SubscriptionContext;
use rmcp::{ErrorData, RoleServer};
use serde_json::{Value, json};
use smolweb_client::Client;
use std::fmt::Write;
use std::sync::Arc;
use std::time::Duration;

/// The policy resource.
pub(crate) const POLICY_URI: &str = "smolweb://policy";
/// How long a client may hold what does not change while the server runs (the tools, the
/// prompts, what `server/discover` says, the policy), in milliseconds: ten minutes.
pub(crate) const FIXED_TTL_MS: u64 = 600_000;
/// How often a session looks at the shared pages file.
pub(crate) const WATCH_EVERY: Duration = Duration::from_millis(500);
/// The resource URI prefix of a shared page.
pub(crate) const SHARED_PREFIX: &str = "smolweb://shared/";

/// The effective settings an agent may see (no file paths).
pub(crate) fn policy(client: &Client) -> Value {
    let c = client.config();
    json!({
        "network": {
            "timeout_seconds": c.network.timeout_seconds,
            "max_response_bytes": c.network.max_response_bytes,
            "allow_private_addresses": c.network.allow_private_addresses,
            "allowed_hosts": c.network.allowed_hosts,
            "allow_client_cert_over_tls12": c.network.allow_client_cert_over_tls12,
            "max_in_flight": c.network.max_in_flight,
            "max_in_flight_per_host": c.network.max_in_flight_per_host,
        },
        "politeness": {
            "per_host_interval_ms": c.politeness.per_host_interval_ms,
            "respect_robots": c.politeness.respect_robots,
        },
        "cache": {
            "ttl_seconds": c.cache.ttl_seconds,
            "max_entries": c.cache.max_entries,
            "max_bytes": c.cache.max_bytes,
        },
        "mcp": {
            "max_rendered_chars": c.mcp.max_rendered_chars,
            "max_menu_items": c.mcp.max_menu_items,
            "batch_concurrency": c.mcp.batch_concurrency,
            "max_batch_urls": fetch::MAX_BATCH,
            "max_message_bytes": c.mcp.max_message_bytes,
        },
        "tofu": {
            "accept_new_when_expired": c.tofu.accept_new_when_expired,
            "refuse_not_yet_valid": c.tofu.refuse_not_yet_valid,
            "refuse_expired": c.tofu.refuse_expired,
        },
        "consent": "identity and trust changes need the user's approval \
                    (elicitation, or `smolweb identity|trust approve ID`)",
        "search": {
            "local_index": client.search_index().is_some(),
            "sources_visible_to_agents": client
                .search_scope()
                .sources()
                .iter()
                .map(|s| s.as_str())
                .collect::<Vec<_>>(),
            "search_history": c.agents.search_history,
        },
        "site_rules": {
            "count": client.site_rules().map(|r| r.len()).unwrap_or(0),
            "agents_see": "the person's rule for a page's site, in fetch_url's site_rule, when \
                           it chose the page's text; agents cannot make, change or remove rules",
        },
    })
}

/// Every resource: the policy, then the shared pages.
pub(crate) fn list(client: &Client) -> Vec<Resource> {
    let policy = Resource::new(POLICY_URI, "policy")
        .with_title("smolweb policy")
        .with_description("The effective limits and settings of this smolweb server")
        .with_mime_type("application/json");
    let mut all = vec![policy];
    all.extend(shared_resources(client));
    all
}

/// The shared pages as resources.
fn shared_resources(client: &Client) -> Vec<Resource> {
    let list = match client.shared_pages() {
        Ok(l) => l,
        Err(e) => {
            tracing::warn!("cannot list the shared pages: {e}");
            return Vec::new();
        }
    };
    list.into_iter()
        .map(|p| {
            let name = p.title.clone().unwrap_or_else(|| p.url.clone());
            let description = match &p.note {
                Some(n) => n.clone(),
                None => format!("shared by the user: {}", p.url),
            };
            Resource::new(format!("{SHARED_PREFIX}{}", p.id), name)
                .with_title(format!("Shared page: {}", p.url))
                .with_description(description)
                .with_mime_type("text/plain")
        })
        .collect()
}

/// What a `resources/read` gave: the answer, and what the activity log says of it.
pub(crate) struct Read {
    /// The contents, or the JSON-RPC error.
    pub(crate) answer: Result<ResourceContents, ErrorData>,
    /// What was read: a shared page's URL, or the URI asked for.
    pub(crate) what: String,
    /// A shared page's result as its fetch tool gives it, and whether it is an error.
    pub(crate) result: Option<(Value, bool)>,
    /// How long the answer stays the same (milliseconds): the policy's for as long as the
    /// server runs, a page's while it stays in the cache, 0 for anything else.
    pub(crate) fresh_for_ms: u64,
}

/// Answer a `resources/read` of `uri`: the policy or a shared page.
pub(crate) async fn read(client: &Client, uri: &str) -> Read {
    if uri.starts_with(SHARED_PREFIX) {
        return read_shared(client, uri).await;
    }
    let answer = if uri == POLICY_URI {
        serde_json::to_string_pretty(&policy(client))
            .map(|text| ResourceContents::text(text, POLICY_URI).with_mime_type("application/json"))
            .map_err(|e| ErrorData::internal_error(e.to_string(), None))
    } else {
        Err(ErrorData::resource_not_found(
            format!("no resource {uri}"),
            None,
        ))
    };
    let fresh_for_ms = if answer.is_ok() { FIXED_TTL_MS } else { 0 };
    Read {
        answer,
        what: uri.to_string(),
        result: None,
        fresh_for_ms,
    }
}

/// Read `smolweb://shared/ID[?offset=N]`: the page's text block, windowed like the fetch
/// tools.
async fn read_shared(client: &Client, uri: &str) -> Read {
    let failed = |e: ErrorData| Read {
        answer: Err(e),
        what: uri.to_string(),
        result: None,
        fresh_for_ms: 0,
    };
    let rest = uri.strip_prefix(SHARED_PREFIX).unwrap_or(uri);
    let (id, offset) = match rest.split_once('?') {
        Some((id, q)) => {
            let offset = q
                .strip_prefix("offset=")
                .and_then(|n| n.parse::<i64>().ok());
            match offset {
                Some(o) if o >= 0 => (id, o),
                _ => {
                    return failed(ErrorData::invalid_params(
                        "the only query a shared page takes is ?offset=N (N >= 0)",
                        None,
                    ));
                }
            }
        }
        None => (rest, 0),
    };
    let page = match client.shared_page(id) {
        Ok(p) => p,
        Err(smolweb_store::StoreError::NotFound(_)) => {
            return failed(ErrorData::resource_not_found(
                format!("no shared page {id} (the user may have removed it)"),
                None,
            ));
        }
        Err(e) => return failed(ErrorData::internal_error(e.to_string(), None)),
    };
    let lower = page.url.to_ascii_lowercase();
    let (text, result) = if lower.starts_with("http://") || lower.starts_with("https://") {
        let params = json!({ "url": page.url, "start_index": offset });
        let out = match serde_json::from_value(params) {
            Ok(p) => web::fetch_url(client, &p).await,
            Err(e) => return failed(ErrorData::internal_error(e.to_string(), None)),
        };
        (web::render(&out), as_value(&out, out.is_error()))
    } else {
        let r = if lower.starts_with("gopher://") {
            fetch::gopher(client, &page.url, None, (offset, false), None).await
        } else {
            fetch::gemini(client, &page.url, None, (offset, false), None).await
        };
        (render::fetch(&r, offset as u64), as_value(&r, r.is_error()))
    };
    let mut head = format!("Shared by the user: {}", page.url);
    if let Some(n) = &page.note {
        let _ = write!(head, "\nTheir note: {n}");
    }
    head.push_str("\n\n");
    head.push_str(&text);
    let ttl_ms = client.config().cache.ttl_seconds.saturating_mul(1000);
    let fresh_for_ms = result.as_ref().map_or(0, |(v, e)| fresh_for(v, *e, ttl_ms));
    Read {
        answer: Ok(ResourceContents::text(head, uri).with_mime_type("text/plain")),
        what: page.url,
        result,
        fresh_for_ms,
    }
}

/// How long a shared page's result stays as it is, in milliseconds: what is left of the
/// cache's `ttl_ms` since its body was downloaded; 0 for an error, an answer that is not a
/// page (a prompt, a redirect), a copy read offline, and a web page's held copy, whose age
/// the result does not say.
fn fresh_for(result: &Value, is_error: bool, ttl_ms: u64) -> u64 {
    if is_error || result.get("offline").is_some() {
        return 0;
    }
    if let Some(held) = result.get("fromCache").and_then(Value::as_bool) {
        return if held { 0 } else { ttl_ms };
    }
    match result.get("cached").and_then(Value::as_bool) {
        Some(false) => ttl_ms,
        Some(true) => {
            let age = result.get("cache_age_seconds").and_then(Value::as_f64);
            age.map_or(0, |a| ttl_ms.saturating_sub((a * 1000.0) as u64))
        }
        None => 0,
    }
}

fn as_value<T: serde::Serialize>(result: &T, is_error: bool) -> Option<(Value, bool)> {
    serde_json::to_value(result).ok().map(|v| (v, is_error))
}

/// The shared pages file's signature, looked at every [`WATCH_EVERY`]: what both ways of
/// telling a client about a change wait on.
pub(crate) struct SharedWatch {
    seen: Option<(u64, u64, std::time::SystemTime)>,
    tick: tokio::time::Interval,
}

impl SharedWatch {
    pub(crate) fn new(client: &Client) -> SharedWatch {
        SharedWatch {
            seen: client.shared_pages_stamp(),
            tick: tokio::time::interval(WATCH_EVERY),
        }
    }

    /// Wait for the next look; true when the file changed since the last one.
    pub(crate) async fn tick(&mut self, client: &Client) -> bool {
        self.tick.tick().await;
        let now = client.shared_pages_stamp();
        if now == self.seen {
            return false;
        }
        self.seen = now;
        true
    }
}

/// Watch the shared pages file for an initialize-style session (2025 revisions):
/// `notifications/resources/list_changed` to `peer` within [`WATCH_EVERY`] of a change,
/// until the peer is gone.
pub(crate) fn watch_shared(client: Arc<Client>, peer: rmcp::Peer<RoleServer>) {
    tokio::spawn(async move {
        let mut watch = SharedWatch::new(&client);
        loop {
            let changed = watch.tick(&client).await;
            if peer.is_transport_closed() {
                return;
            }
            if changed && peer.notify_resource_list_changed().await.is_err() {
                return;
            }
        }
    });
}

/// What a 2026-07-28 client may listen to with `subscriptions/listen`: the resource list's
/// changes (the pages the person shares). Nothing else changes while the server runs.
pub(crate) fn listen_filter() -> SubscriptionFilter {
    SubscriptionFilter::builder()
        .resources_list_changed()
        .build()
}

/// One `subscriptions/listen` stream (2026-07-28, no session): the same changes as
/// [`watch_shared`] sends, on the stream, until the client cancels it.
pub(crate) async fn listen(client: &Client, sub: &SubscriptionContext) {
    let mut watch = SharedWatch::new(client);
    loop {
        tokio::select! {
            () = sub.cancelled() => return,
            changed = watch.tick(client) => {
                if changed && sub.sink().notify_resource_list_changed().await.is_err() {
                    return;
                }
            }
        }
    }
}
