//! Gopher in the client: item type and selector from the URL (RFC 4266), the search string
//! (only sent for type 7; otherwise `search_ignored`), cache, robots, pacing, the request, and
//! the page. Gopher searches are not secret, so a search answer is cached under a key that
//! includes the search.

use super::budget::Budget;
use super::{Client, Fetched, OpenOptions, Outcome, RequestInfo, cached_fetched, error};
use smolweb_core::gopher::is_fetchable;
use smolweb_core::page::Page;
use smolweb_core::url::{GopherTarget, Scheme, Url, gopher_item_url, percent_encode};
use smolweb_net::FetchError;
use smolweb_net::cache::CacheEntry;
use std::sync::Arc;

/// The URL that names exactly what is sent (search included only when sent), as the parsed
/// URL (when it parses) and its normalized string, which is also the cache key.
pub(super) fn request_url(target: &GopherTarget, search: Option<&str>) -> (Option<Url>, String) {
    let base = gopher_item_url(
        &target.host,
        target.port,
        target.item_type,
        &target.selector,
    );
    let raw = match search {
        Some(s) if target.item_type == '7' => format!("{base}%09{}", percent_encode(s)),
        _ => base,
    };
    match Url::parse(&raw) {
        Ok(u) => {
            let key = u.to_string();
            (Some(u), key)
        }
        Err(_) => (None, raw),
    }
}

pub(super) async fn open(client: &Client, url: Url, opts: &OpenOptions, budget: Budget) -> Outcome {
    let base_info = RequestInfo {
        url: url.to_string(),
        host: url.host().to_string(),
        port: url.port(),
        ..RequestInfo::default()
    };
    let mut target = match url.gopher_target() {
        Ok(t) => t,
        Err(e) => return error(base_info, FetchError::InvalidRequest(e.to_string())),
    };
    let search = opts.search.clone().or_else(|| target.search.clone());
    let search_ignored = search.is_some() && target.item_type != '7';
    target.search = search.filter(|_| target.item_type == '7');
    target.search_ignored = search_ignored;
    let (page_url, key) = request_url(&target, target.search.as_deref());
    let mut info = RequestInfo {
        url: key.clone(),
        item_type: Some(target.item_type),
        selector: Some(target.selector.clone()),
        search_ignored,
        ..base_info
    };
    if !is_fetchable(target.item_type) {
        return error(info, FetchError::NotFetchable(target.item_type));
    }
    if opts.refresh {
        client.cache.remove(&key);
    } else if let Some(entry) = client.cache.get(&key) {
        tracing::debug!(host = %target.host, selector = %target.selector, "answered from the cache");
        info.timestamp = Some(entry.sent_at);
        let fetched = cached_fetched(entry);
        return Outcome::Page { info, fetched };
    }
    let net_opts = client.net_options(opts);
    let robots = match budget.step(&net_opts) {
        Ok(o) => {
            let (host, selector) = (&target.host, &target.selector);
            client
                .check_robots(Scheme::Gopher, host, target.port, selector, &o)
                .await
        }
        Err(e) => Err(e),
    };
    if let Err(e) = robots {
        return error(info, e);
    }
    let turn = client.paced_turn(&target.host, budget.left(), opts.waits.as_ref());
    if let Err(wait) = turn.await {
        return error(info, super::gemini::slow_down(wait));
    }
    let step = match budget.step(&net_opts) {
        Ok(o) => o,
        Err(e) => return error(info, e),
    };
    info.timestamp = Some(client.now());
    // The selector, not the URL: the URL carries the search, which is never logged.
    tracing::debug!(host = %target.host, selector = %target.selector, "gopher request");
    let raw = match client.transport.gopher(&target, &step).await {
        Ok(raw) => raw,
        Err(e) => return error(info, e),
    };
    let page_url = page_url.unwrap_or(url);
    let page = Arc::new(Page::from_gopher(page_url, target.item_type, raw));
    let now = client.now();
    let entry = CacheEntry {
        tls: None,
        page: page.clone(),
        cached_at: now,
        sent_at: info.timestamp.unwrap_or(now),
    };
    client.cache.put(&key, entry);
    let fetched = Fetched {
        page,
        cached: false,
        cached_at: Some(now),
    };
    Outcome::Page { info, fetched }
}
