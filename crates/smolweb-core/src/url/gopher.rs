//! RFC 4266 gopher:// URLs: from a URL to a request target, and from a menu item to a URL.
//!
//! Path "/" or "" means a type-1 menu with an empty selector; otherwise the first character
//! after "/" is the item type and the rest, percent-decoded, is the selector. A `%09` splits
//! selector and search (anything after a second TAB, the Gopher+ string, is dropped); a `?query`
//! also counts as the search. Limits: selector 1024 bytes, search 256 bytes, no CR/LF.

use super::encode::{decode_bytes, decode_lossy, encode_selector};
use super::{
    GOPHER_MAX_SEARCH_BYTES, GOPHER_MAX_SELECTOR_BYTES, GopherTarget, Scheme, Url, UrlError,
};

pub(super) fn target(url: &Url) -> Result<GopherTarget, UrlError> {
    if !matches!(url.scheme, Scheme::Gopher | Scheme::Gophers) {
        return Err(UrlError::UnsupportedScheme(url.scheme.as_str().into()));
    }
    let decoded = decode_bytes(url.path.strip_prefix('/').unwrap_or(&url.path));
    let decoded = String::from_utf8_lossy(&decoded);
    let mut chars = decoded.chars();
    let (item_type, rest) = match chars.next() {
        None => ('1', ""),
        Some(c) => (c, chars.as_str()),
    };
    let mut parts = rest.split('\t');
    let selector = parts.next().unwrap_or("").to_string();
    let search = match parts.next() {
        Some(s) => Some(s.to_string()),
        None => url.query.as_deref().map(decode_lossy),
    };
    check(&selector, GOPHER_MAX_SELECTOR_BYTES, "a gopher selector")?;
    if let Some(s) = &search {
        check(s, GOPHER_MAX_SEARCH_BYTES, "a gopher search")?;
    }
    Ok(GopherTarget {
        host: url.host.clone(),
        port: url.port,
        item_type,
        search_ignored: search.is_some() && item_type != '7',
        selector,
        search,
    })
}

fn check(s: &str, limit: usize, what: &'static str) -> Result<(), UrlError> {
    if s.contains(['\r', '\n', '\t', '\0']) {
        return Err(UrlError::ControlCharacter(what));
    }
    if s.len() > limit {
        return Err(UrlError::TooLong {
            len: s.len(),
            limit,
        });
    }
    Ok(())
}

/// Build a gopher:// URL for a menu item (host, port, type, selector). The selector is
/// percent-encoded; port 70 is elided; the result is normalized when it parses.
pub fn gopher_item_url(host: &str, port: u16, item_type: char, selector: &str) -> String {
    let host_part = if host.contains(':') && !host.starts_with('[') {
        format!("[{host}]")
    } else {
        host.to_string()
    };
    let port_part = if port == 70 {
        String::new()
    } else {
        format!(":{port}")
    };
    let mut ty = [0u8; 4];
    let raw = format!(
        "gopher://{host_part}{port_part}/{}{}",
        encode_selector(item_type.encode_utf8(&mut ty)),
        encode_selector(selector)
    );
    Url::parse(&raw).map_or(raw, |u| u.to_string())
}
