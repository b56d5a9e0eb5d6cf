//! Map a client [`Outcome`] to the contract's result kinds, windowed at an offset.
//!
//! Invariants: `request_info` carries only keys that applied and never a query; every error
//! carries `code`, `message`, `retryable`; capsule 4x/5x answers add `status`, `meta`,
//! `temporary` (and `retry_after_seconds` for 44). Windows come from `core::window`, so
//! consecutive windows rebuild the body exactly.

use super::results::*;
use smolweb_client::{Fetched, Outcome, RequestInfo};
use smolweb_core::page::{Content, LazyDocument, Page};
use smolweb_core::text::scan;
use smolweb_core::window::{
    HeldWindow, gemtext_window, held_gemtext_window, item_window, text_window,
};
use smolweb_net::FetchError;
use std::sync::Arc;
use time::OffsetDateTime;

/// Which tool family asked: decides the request_info keys and the error enum.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Family {
    Gemini,
    Gopher,
}

/// Window sizes (from `config.mcp`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Limits {
    pub chars: usize,
    pub items: usize,
    /// The client works offline: fetched results come from the offline cache and say so.
    pub offline: bool,
    /// The client holds the pages it answers from its cache or from kept copies
    /// (`Client::holds_pages`), so a whole parse of one serves its next windows.
    pub held: bool,
}

pub(crate) use smolweb_core::text::rfc3339 as iso;

fn non_empty(s: &str) -> Option<String> {
    (!s.is_empty()).then(|| s.to_string())
}

/// Strip any query (a Gemini query may hold a secret answer).
pub(crate) fn without_query(url: &str) -> String {
    smolweb_core::url::strip_query(url).to_string()
}

pub(crate) fn request_info(info: &RequestInfo, family: Family) -> RequestInfoOut {
    let mut out = RequestInfoOut {
        url: non_empty(&without_query(&info.url)),
        host: non_empty(&info.host),
        port: (info.port != 0).then_some(info.port),
        timestamp: info.timestamp.map(iso),
        ..RequestInfoOut::default()
    };
    match family {
        Family::Gemini => {
            out.path = info.path.clone();
            out.has_query = Some(info.has_query);
        }
        Family::Gopher => {
            out.url = non_empty(&info.url);
            out.item_type = info.item_type.map(String::from);
            out.selector = info.selector.clone();
            out.search_ignored = info.search_ignored.then_some(true);
        }
    }
    if let Some(tls) = &info.tls {
        out.tls_version = Some(tls.version.clone());
        out.cipher = Some(tls.cipher.clone());
        out.cert_fingerprint = Some(tls.cert_fingerprint.clone());
        out.tls_root = tls.root.clone();
        out.tofu_warning = tls.tofu_warning();
        out.client_cert_warning = tls.client_cert_warning.clone();
    }
    out
}

pub(crate) fn cache_meta(f: &Fetched, now: OffsetDateTime, offline: bool) -> CacheMeta {
    CacheMeta {
        cached: f.cached,
        cached_at: f.cached_at.map(iso),
        cache_age_seconds: f.cache_age_seconds(now),
        offline: (offline && f.cached).then_some(true),
    }
}

fn mime_out(page: &Page) -> MimeOut {
    MimeOut {
        mime_type: page.mime.mime_type.clone(),
        subtype: page.mime.subtype.clone(),
        // The encoding the content was decoded with (the declared one for binary bodies).
        charset: page
            .charset
            .map(|c| c.name())
            .or_else(|| page.mime.charset.clone()),
        lang: page.mime.lang.clone(),
    }
}

fn charset(page: &Page) -> String {
    page.charset
        .map(|c| c.name())
        .or_else(|| page.mime.charset.clone())
        .unwrap_or_else(|| "utf-8".into())
}

fn window_meta(truncated: bool, total: usize, next: Option<usize>) -> WindowMeta {
    WindowMeta {
        truncated,
        total_chars: total as u64,
        next_offset: next.map(|n| n as u64),
    }
}

/// The hints of a text window (see [`TextHint`]): what `core::text` found in the text that a
/// terminal would show otherwise, and an unknown charset label. The text stays as sent.
fn text_hints(found: smolweb_core::text::Found, page: &Page) -> Vec<TextHint> {
    let mut out = Vec::new();
    if found.bidi {
        out.push(TextHint::BidiControls);
    }
    if found.invisible {
        out.push(TextHint::InvisibleCharacters);
    }
    if page.unknown_charset.is_some() {
        out.push(TextHint::UnknownCharsetLabel);
    }
    out
}

fn binary_note(page: &Page) -> String {
    format!(
        "binary content ({}, {} bytes) is not returned; open it in smolweb or save it with `smolweb get --raw`",
        page.mime.essence(),
        page.size()
    )
}

/// A window of a page held by the client (in the memory cache, or a kept copy read while
/// working offline), cut from its whole parsed document (parsed once, on the first window read
/// from the held page, and held with it, so a refresh or an eviction drops it with the page):
/// a slice, not a parse. None, and the window's text parsed alone, for a page just downloaded
/// (a page read once is never parsed whole) and for a page the client does not hold (`[cache]`
/// holds nothing, so a whole parse would be thrown away), unless its document is parsed
/// already; None too for a piece of an over-long line and for a document of another text or
/// base.
fn held_window<'a>(
    fetched: &'a Fetched,
    doc: &'a LazyDocument,
    offset: usize,
    limits: Limits,
) -> Option<HeldWindow<'a>> {
    let page = &fetched.page;
    let held = doc.is_parsed() || (fetched.cached && limits.held);
    if !held || doc.base() != &page.url || !doc.is_of(&page.body) {
        return None;
    }
    held_gemtext_window(&page.body, doc, offset, limits.chars)
}

/// A fetched page as the result kind of its family, windowed at `offset`.
pub(crate) fn page_result(
    family: Family,
    info: RequestInfoOut,
    fetched: &Fetched,
    offset: usize,
    limits: Limits,
    now: OffsetDateTime,
) -> FetchResult {
    let page = &fetched.page;
    let cache = cache_meta(fetched, now, limits.offline);
    let info = RequestInfoOut {
        ended_cleanly: Some(page.ending.is_clean()),
        ..info
    };
    match (&page.content, family) {
        (Content::Gemtext(doc), _) => {
            let (lines, meta, partial_line) = match held_window(fetched, doc, offset, limits) {
                Some(h) => {
                    let range = h.first..h.first + h.lines.len();
                    let meta = (h.truncated, h.total_chars, h.next_offset);
                    (
                        WindowLines::Held(Arc::clone(&fetched.page), range),
                        meta,
                        false,
                    )
                }
                None => {
                    let w = gemtext_window(&page.body, Some(&page.url), offset, limits.chars);
                    let meta = (w.truncated, w.total_chars, w.next_offset);
                    (WindowLines::Parsed(w.document.lines), meta, w.partial_line)
                }
            };
            let found = lines
                .lines()
                .iter()
                .fold(Default::default(), |f: smolweb_core::text::Found, l| {
                    f.or(scan(&l.content))
                });
            FetchResult::Gemini(GeminiResult::Gemtext(GemtextOut {
                request_info: info,
                cache,
                document: DocumentOut {
                    lines,
                    links: LinksOfLines,
                },
                charset: charset(page),
                lang: page.lang.clone(),
                size: page.size() as u64,
                window: window_meta(meta.0, meta.1, meta.2),
                partial_line,
                hints: text_hints(found, page),
                input_from_user: None,
            }))
        }
        (Content::Menu(items), _) => {
            let w = item_window(items, offset, limits.items);
            let found = w
                .items
                .iter()
                .fold(smolweb_core::text::Found::default(), |f, i| {
                    f.or(scan(&i.title)).or(scan(&i.selector))
                });
            // The window is `items[start..]`, as `item_window` cut it.
            let start = offset.min(items.len());
            let range = start..start + w.items.len();
            FetchResult::Gopher(GopherResult::Menu(MenuOut {
                request_info: info,
                cache,
                items: WindowItems::new(Arc::clone(&fetched.page), range),
                truncated: w.truncated,
                total_items: w.total_items as u64,
                next_offset: w.next_offset.map(|n| n as u64),
                hints: text_hints(found, page),
            }))
        }
        (Content::Text, Family::Gemini) => {
            let w = text_window(&page.body, offset, limits.chars);
            FetchResult::Gemini(GeminiResult::Success(SuccessOut {
                request_info: info,
                cache,
                mime_type: mime_out(page),
                content: w.text.to_string(),
                size: page.size() as u64,
                window: window_meta(w.truncated, w.total_chars, w.next_offset),
                hints: text_hints(scan(w.text), page),
                input_from_user: None,
            }))
        }
        (Content::Text, Family::Gopher) => {
            let w = text_window(&page.body, offset, limits.chars);
            FetchResult::Gopher(GopherResult::Text(GopherTextOut {
                request_info: info,
                cache,
                text: w.text.to_string(),
                charset: charset(page),
                bytes: page.size() as u64,
                window: window_meta(w.truncated, w.total_chars, w.next_offset),
                hints: text_hints(scan(w.text), page),
            }))
        }
        (Content::Binary, Family::Gemini) => {
            FetchResult::Gemini(GeminiResult::Binary(GeminiBinaryOut {
                request_info: info,
                cache,
                mime_type: mime_out(page),
                size: page.size() as u64,
                note: binary_note(page),
            }))
        }
        (Content::Binary, Family::Gopher) => {
            FetchResult::Gopher(GopherResult::Binary(GopherBinaryOut {
                request_info: info,
                cache,
                bytes: page.size() as u64,
                mime_type: page.mime.essence(),
                note: binary_note(page),
            }))
        }
    }
}

/// The `next_step` text of a 6x answer.
pub(crate) fn certificate_next_step(status: u8, identity_sent: bool) -> &'static str {
    match status {
        61 | 62 if !identity_sent => {
            "No identity was presented with this request. For titan_upload, check the token \
              (a wrong or missing one is often answered so). Otherwise the capsule may want an \
              identity: ask the user first; only with their agreement call \
              gemini_client_cert_update with action 'create' and this URL as scope."
        }
        60 => {
            "The capsule wants a client certificate (a persistent identity). Ask the user \
              first; only with their agreement call gemini_client_cert_update with action \
              'create' and this URL as scope, then fetch again."
        }
        61 => {
            "The identity that was presented is not authorised here. Creating another \
              identity will not help; tell the user."
        }
        _ => {
            "The identity that was presented is outside its validity window. Replace it only \
              with the user's agreement (gemini_client_cert_update remove, then create)."
        }
    }
}

fn status_name(status: u8) -> &'static str {
    match status {
        40 => "temporary failure",
        41 => "server unavailable",
        42 => "CGI error",
        43 => "proxy error",
        44 => "slow down",
        51 => "not found",
        52 => "gone",
        53 => "proxy request refused",
        59 => "bad request",
        s if s < 50 => "temporary failure",
        _ => "permanent failure",
    }
}

/// Error body for a capsule's 4x/5x answer.
pub(crate) fn failure_body(status: u8, meta: &str, retry_after: Option<u64>) -> ErrorBody {
    let temporary = status < 50;
    let code = match status {
        44 => ErrorCode::SlowDown,
        _ if temporary => ErrorCode::TemporaryError,
        _ => ErrorCode::PermanentError,
    };
    let message = match smolweb_client::proxy_status_words(status, false) {
        Some(words) => words.to_string(),
        None => format!("the capsule answered {status} ({})", status_name(status)),
    };
    let mut body = error_body(code, message, temporary);
    body.status = Some(status);
    body.meta = Some(meta.to_string());
    body.temporary = Some(temporary);
    body.retry_after_seconds = if status == 44 {
        retry_after.or_else(|| meta.trim().parse().ok())
    } else {
        None
    };
    body
}

pub(crate) fn fetch_error_body(e: &FetchError) -> ErrorBody {
    let mut body = error_body(e.code(), e.to_string(), e.retryable());
    if let FetchError::BlockedByRobots { host, .. } = e
        && smolweb_client::search::is_engine_host(host)
    {
        body.message.push_str(
            ": this search engine forbids bots, and agents honour robots.txt (the person's \
             browser sends words to it); search_local searches what was already read",
        );
    }
    if let FetchError::SlowDown {
        retry_after_seconds,
    } = e
    {
        body.retry_after_seconds = Some(*retry_after_seconds);
    }
    body
}

pub(crate) fn error_result(family: Family, out: ErrorOut) -> FetchResult {
    match family {
        Family::Gemini => FetchResult::Gemini(GeminiResult::Error(out)),
        Family::Gopher => FetchResult::Gopher(GopherResult::Error(out)),
    }
}

/// A Gemini-kind `error` refused before (or instead of) a request: `request_info` holds only
/// the URL, without its query (absent when there is none).
pub(crate) fn refused(url: &str, code: ErrorCode, message: impl Into<String>) -> FetchResult {
    let info = RequestInfoOut {
        url: Some(without_query(url.trim())).filter(|u| !u.is_empty()),
        ..RequestInfoOut::default()
    };
    error_result(Family::Gemini, error_out(info, code, message))
}

/// Map any outcome (window at `offset` for pages).
pub(crate) fn map_outcome(
    family: Family,
    outcome: &Outcome,
    offset: usize,
    limits: Limits,
    now: OffsetDateTime,
) -> FetchResult {
    let info = request_info(outcome.info(), family);
    match outcome {
        Outcome::Page { fetched, .. } => page_result(family, info, fetched, offset, limits, now),
        Outcome::Input {
            prompt, sensitive, ..
        } => FetchResult::Gemini(GeminiResult::Input(InputOut {
            request_info: info,
            prompt: prompt.clone(),
            sensitive: *sensitive,
        })),
        Outcome::Redirect {
            target,
            permanent,
            cross_host,
            scheme,
            ..
        } => FetchResult::Gemini(GeminiResult::Redirect(RedirectOut {
            request_info: info,
            new_url: target.clone(),
            permanent: *permanent,
            cross_host: *cross_host,
            scheme: scheme.clone(),
        })),
        Outcome::Certificate {
            status, message, ..
        } => FetchResult::Gemini(GeminiResult::Certificate(CertificateOut {
            request_info: info,
            status: *status,
            message: message.clone(),
            required: *status == 60,
            next_step: certificate_next_step(*status, outcome.info().identity_sent()).to_string(),
        })),
        Outcome::Failure {
            status,
            meta,
            retry_after_seconds,
            ..
        } => error_result(
            family,
            ErrorOut {
                request_info: Box::new(info),
                error: failure_body(*status, meta, *retry_after_seconds),
            },
        ),
        Outcome::Error { error, .. } => error_result(
            family,
            ErrorOut {
                request_info: Box::new(info),
                error: fetch_error_body(error),
            },
        ),
    }
}

#[cfg(test)]
#[path = "outcome_tests.rs"]
mod tests;
