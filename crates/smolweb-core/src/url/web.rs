//! References found on the web, resolved with the WHATWG URL parser (the `url` crate) against
//! a web base. The one place a remote reference meets `url::Url::join`.
//!
//! Invariant: the base is http or https. A base of another scheme (`file:`, `data:`, ...)
//! is refused: a page may only re-base its links on the web, and the crate's `file:` path
//! handling trips its own debug assertions on some relative references (found by fuzzing).

/// `reference` resolved against the web URL `base`; None when `base` is not an http(s) URL
/// or the reference does not resolve.
pub(crate) fn join_web(base: &url::Url, reference: &str) -> Option<url::Url> {
    if !matches!(base.scheme(), "http" | "https") {
        return None;
    }
    base.join(reference.trim()).ok()
}
