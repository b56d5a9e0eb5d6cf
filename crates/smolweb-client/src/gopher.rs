//! Gopher on the open pipeline (`pipeline`): item type and selector from the URL (RFC 4266),
//! the search string (only sent for type 7; otherwise `search_ignored`), robots.txt at the
//! `robots.txt` selector, and the page. Gopher searches are not secret, so a search answer is cached under a key that
//! includes the search.

use super::pipeline::{Answer, Plan, Protocol, RobotsRule, unexpected};
use super::{OpenOptions, RequestInfo};
use smolweb_core::gopher::is_fetchable;
use smolweb_core::page::Page;
use smolweb_core::url::{GopherTarget, Url, gopher_item_url, percent_encode};
use smolweb_net::policy::gopher_robots_answer;
use smolweb_net::policy::robots::GOPHER_AGENTS;
use smolweb_net::{FetchError, InternalError, Request, RequestError, Response};

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

/// Gopher (`gopher://`).
pub(crate) struct Gopher;

impl Protocol for Gopher {
    fn plan(&self, url: &Url, opts: &OpenOptions) -> Plan {
        let base_info = RequestInfo {
            url: url.to_string(),
            host: url.host().to_string(),
            port: url.port(),
            ..RequestInfo::default()
        };
        let refused = |info, e| Plan {
            url: url.clone(),
            info,
            request: Err(e),
            cache_key: None,
            robots_path: None,
        };
        let mut target = match url.gopher_target() {
            Ok(t) => t,
            Err(e) => return refused(base_info, RequestError::Url(e).into()),
        };
        let search = opts.search.clone().or_else(|| target.search.clone());
        let search_ignored = search.is_some() && target.item_type != '7';
        target.search = search.filter(|_| target.item_type == '7');
        target.search_ignored = search_ignored;
        let (page_url, key) = request_url(&target, target.search.as_deref());
        let info = RequestInfo {
            url: key.clone(),
            item_type: Some(target.item_type),
            selector: Some(target.selector.clone()),
            search_ignored,
            ..base_info
        };
        if !is_fetchable(target.item_type) {
            return refused(info, FetchError::NotFetchable(target.item_type));
        }
        Plan {
            url: page_url.unwrap_or_else(|| url.clone()),
            info,
            robots_path: Some(target.selector.clone()),
            request: Ok(Request::Gopher(target)),
            cache_key: Some(key),
        }
    }

    fn map(&self, url: &Url, info: RequestInfo, answer: Response) -> Answer {
        let Response::Gopher(raw) = answer else {
            return unexpected(info, "a non-Gopher answer");
        };
        let item_type = info.item_type.unwrap_or('1');
        Answer::Page(
            info,
            Box::new(Page::from_gopher(url.clone(), item_type, raw)),
        )
    }

    fn robots(&self) -> Option<RobotsRule> {
        Some(RobotsRule {
            request: |host, port| Ok(Request::Gopher(robots_target(host, port))),
            read: |answer| match answer {
                Response::Gopher(body) => Ok((gopher_robots_answer(&body), None)),
                _ => Err(InternalError::WrongAnswer("a non-Gopher answer").into()),
            },
            agents: GOPHER_AGENTS,
        })
    }
}

/// The robots.txt item of a Gopher host (selector `robots.txt`, type 0), over TCP or TLS.
pub(crate) fn robots_target(host: &str, port: u16) -> GopherTarget {
    GopherTarget {
        host: host.to_string(),
        port,
        item_type: '0',
        selector: "robots.txt".to_string(),
        search: None,
        search_ignored: false,
    }
}
