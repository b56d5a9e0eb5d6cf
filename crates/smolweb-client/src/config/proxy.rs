//! The proxies of the config: `[network] socks5` (every protocol through a SOCKS5 proxy, which
//! resolves the names) and `[web] gemini_proxy` (the browser's http(s) links asked of a Gemini
//! proxy). Both are written as strings, empty for none, and checked when the file is read, so a
//! wrong one is a config error naming its key, never a fetch that goes around the proxy.

use serde::{Deserialize, Deserializer, de::Error};
use smolweb_core::url::{Scheme, Url};
use std::net::SocketAddr;

/// The proxy's address as `[network] socks5` gives it: None when empty.
pub(crate) fn socks5_addr(text: &str) -> Option<SocketAddr> {
    text.trim().parse().ok()
}

/// `[network] socks5`: empty, or an IP address and a port (a name would need a lookup that
/// does not go through the proxy).
pub(super) fn socks5<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    empty_or(
        d,
        |t| socks5_addr(t).is_some(),
        "network.socks5 is empty or an IP address and port: expected one such as \
         127.0.0.1:9050 or [::1]:9050 (a host name is not accepted: looking it up would not go \
         through the proxy)",
    )
}

/// A string key that is empty or passes `usable`; else a config error saying `what`.
fn empty_or<'de, D: Deserializer<'de>>(
    d: D,
    usable: fn(&str) -> bool,
    what: &'static str,
) -> Result<String, D::Error> {
    let text = String::deserialize(d)?;
    if text.trim().is_empty() || usable(&text) {
        Ok(text)
    } else {
        Err(D::Error::custom(what))
    }
}

/// The Gemini proxy's URL as `[web] gemini_proxy` gives it: None when empty.
pub(crate) fn gemini_proxy_url(text: &str) -> Option<Url> {
    Url::parse(text.trim())
        .ok()
        .filter(|u| u.scheme() == Scheme::Gemini && !u.host().is_empty())
}

/// `[web] gemini_proxy`: empty, or a gemini:// URL with a host (its port, 1965 when none).
pub(super) fn gemini_proxy<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    empty_or(
        d,
        |t| gemini_proxy_url(t).is_some(),
        "web.gemini_proxy is empty or the Gemini proxy's URL: expected one such as \
         gemini://127.0.0.1:1965/",
    )
}
