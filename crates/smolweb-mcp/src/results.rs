//! The result kinds of the MCP contract as serde + schemars types.
//!
//! One enum per tool family, internally tagged by `kind`, so the derived schema is a `oneOf`
//! discriminated by `kind` and the serialized value is exactly the `structuredContent`.
//! Optional keys are skipped when they do not apply (`request_info` holds only what applied);
//! `next_offset`, `cached_at` and `cache_age_seconds` are always present (null when unknown).

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::Serialize;
pub(crate) use smolweb_core::code::ErrorCode;
use smolweb_core::gemtext::{Line, LineKind};
use smolweb_core::gopher::MenuItem;
use smolweb_core::page::{Content, Page};
use smolweb_store::StoreError;
use std::ops::Range;
use std::sync::Arc;

/// The schema of an error `code`: a string enum of every [`ErrorCode`] name (core has no
/// schemars, so the schema is written here from `ErrorCode::ALL`, the names serde writes).
pub(crate) fn error_code_schema(_: &mut SchemaGenerator) -> Schema {
    let names: Vec<&str> = ErrorCode::ALL.iter().map(|c| c.as_str()).collect();
    json_schema!({ "type": "string", "enum": names })
}

/// What was asked and how it went; only keys that applied. Never a query string.
#[derive(Clone, Debug, Default, PartialEq, Serialize, JsonSchema)]
pub(crate) struct RequestInfoOut {
    /// The URL asked for, without its query (Gemini).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub host: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub port: Option<u16>,
    /// Gemini: the path.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// Gopher: the item type.
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    pub item_type: Option<String>,
    /// Gopher: the selector.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub selector: Option<String>,
    /// Gemini: a query (or an input answer) was sent; its value is never repeated.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub has_query: Option<bool>,
    /// Gopher: a search string was given for an item that is not a search; it was not sent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub search_ignored: Option<bool>,
    /// When the request was sent (ISO-8601 UTC); for an answer from smolweb's copy, when the
    /// request that filled the copy was sent. Absent when refused before sending.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timestamp: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tls_version: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cipher: Option<String>,
    /// `sha256:<hex>` of the server certificate.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cert_fingerprint: Option<String>,
    /// https: the trusted root that verified the certificate chain and where smolweb found it
    /// (bundled WebPKI roots, system trust store, SSL_CERT_FILE, SSL_CERT_DIR, or the config's
    /// web.extra_root_certificates).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tls_root: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tofu_warning: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub client_cert_warning: Option<String>,
    /// Fetched results: whether the body's end was confirmed (Gemini: TLS close_notify seen;
    /// Gopher menus: their final "." line; other Gopher items: the connection's close). false
    /// means the body may have been cut short (many capsules close that way, so it is often
    /// complete anyway). Repeated from smolweb's copy for cached answers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ended_cleanly: Option<bool>,
}

// Where a fetched result came from (flattened into the fetched kinds).
#[derive(Clone, Debug, Default, PartialEq, Serialize, JsonSchema)]
pub(crate) struct CacheMeta {
    /// True when answered from the body held since an earlier download (no new request).
    pub cached: bool,
    /// When the held body was downloaded (ISO-8601), or null.
    pub cached_at: Option<String>,
    /// Age of the held body in seconds, or null.
    pub cache_age_seconds: Option<f64>,
    /// Present (true) only when smolweb works offline (`[offline] work_offline`): the page
    /// came from the offline cache the person keeps; `cached_at` says when it was downloaded
    /// and `cache_age_seconds` how old it is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub offline: Option<bool>,
}

/// The schema of core's [`LineKind`] (core has no schemars). Only the schema is taken from
/// here: values are serialized by core's own derive. serde's `remote` check makes this mirror
/// fail to compile when core's variants change, and a test compares the names.
#[derive(Serialize, JsonSchema)]
#[serde(remote = "LineKind", rename_all = "lowercase")]
#[allow(dead_code)] // read by the derives only
pub(crate) enum LineKindSchema {
    Text,
    Link,
    Heading1,
    Heading2,
    Heading3,
    List,
    Quote,
    Preformat,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub(crate) struct LinkOut<'a> {
    /// Absolute URL (gemini, gopher, http(s), about or mailto), or, for a refused link, the
    /// target as written.
    pub url: &'a str,
    /// The label, or null.
    pub text: Option<&'a str>,
    /// Set when the link's scheme is not one smolweb follows (`javascript`, `data`, `file`,
    /// `vbscript`, `telnet`, unknown ones): the link is kept as text, is not in
    /// `document.links` and must not be followed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refused_scheme: Option<String>,
}

/// What smolweb noticed in a text result that the text does not show. The text itself is
/// kept exactly as sent; absent when there is nothing to say.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum TextHint {
    /// Bidi controls (embeddings, overrides, isolates or marks): the text may display in
    /// another order than it is stored ("Trojan Source").
    BidiControls,
    /// Invisible format characters (zero-width spaces and joiners, word joiners, tag
    /// characters, soft hyphens, ...): two strings that look alike may differ.
    InvisibleCharacters,
    /// The declared charset is not one smolweb knows; `charset` says how the body was decoded.
    UnknownCharsetLabel,
}

impl TextHint {
    /// The serialized name (kebab-case, as `serde` writes it).
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            TextHint::BidiControls => "bidi-controls",
            TextHint::InvisibleCharacters => "invisible-characters",
            TextHint::UnknownCharsetLabel => "unknown-charset-label",
        }
    }
}

/// One gemtext line: `type` and `content` always, plus only what those cannot say.
// Borrowed from the parsed line while the result is written (`line_out`); a plain
// comment, as the published schema has only the sentence above.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub(crate) struct LineOut<'a> {
    #[serde(rename = "type")]
    #[schemars(with = "LineKindSchema")]
    pub(crate) line_type: LineKind,
    /// The line as sent, marker included.
    pub content: &'a str,
    /// Marker stripped (headings, list items, quotes).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub level: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub link: Option<LinkOut<'a>>,
    /// Opening fence of a preformatted block only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub alt_text: Option<&'a str>,
    /// Opening fence of a preformatted block only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub language: Option<&'a str>,
}

// A window's document: its lines, and the links among them (written from the lines, so
// nothing is copied; see `WindowLines`). Plain comments: the published schema has none here.
#[derive(Clone, Debug, Default, PartialEq, JsonSchema)]
pub(crate) struct DocumentOut {
    #[schemars(with = "Vec<LineOut<'static>>")]
    pub lines: WindowLines,
    /// The links of this window, in order (the text rendering numbers them from 1).
    #[schemars(with = "Vec<LinkOut<'static>>")]
    pub links: LinksOfLines,
}

/// `document.links`: the offered links of `document.lines`, written from them.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct LinksOfLines;

impl DocumentOut {
    /// The window's lines as the result has them.
    pub(crate) fn line_outs(&self) -> impl Iterator<Item = LineOut<'_>> {
        self.lines.lines().iter().map(line_out)
    }
    /// The offered links (a refused link stays in its line, flagged).
    pub(crate) fn links(&self) -> impl Iterator<Item = LinkOut<'_>> {
        self.line_outs()
            .filter_map(|l| l.link)
            .filter(|k| k.refused_scheme.is_none())
    }
}

impl Serialize for DocumentOut {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut out = s.serialize_struct("DocumentOut", 2)?;
        out.serialize_field("lines", &Seq(|| self.line_outs()))?;
        out.serialize_field("links", &Seq(|| self.links()))?;
        out.end()
    }
}

/// A sequence written from an iterator made on demand (nothing collected first).
struct Seq<F>(F);

impl<F, I> Serialize for Seq<F>
where
    F: Fn() -> I,
    I: Iterator,
    I::Item: Serialize,
{
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq((self.0)())
    }
}

/// The lines of a gemtext window: a range of the page's whole parsed document, held with the
/// page in the cache (a slice: nothing is copied or parsed again), or the lines parsed for
/// this window alone (a page just downloaded, a piece of a long line).
#[derive(Clone)]
pub(crate) enum WindowLines {
    /// `lines[range]` of the page's parsed document.
    Held(Arc<Page>, Range<usize>),
    /// Parsed for this window.
    Parsed(Vec<Line>),
}

impl WindowLines {
    /// The window's lines.
    pub(crate) fn lines(&self) -> &[Line] {
        match self {
            WindowLines::Held(page, range) => match &page.content {
                Content::Gemtext(doc) => doc.lines.get(range.clone()).unwrap_or_default(),
                _ => &[],
            },
            WindowLines::Parsed(lines) => lines,
        }
    }
}

impl Default for WindowLines {
    fn default() -> WindowLines {
        WindowLines::Parsed(Vec::new())
    }
}

impl PartialEq for WindowLines {
    fn eq(&self, other: &WindowLines) -> bool {
        self.lines() == other.lines()
    }
}

impl std::fmt::Debug for WindowLines {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.lines()).finish()
    }
}

/// A window position shared by text-like results.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, JsonSchema)]
pub(crate) struct WindowMeta {
    /// True when more remains after this window.
    pub truncated: bool,
    /// Characters of the whole decoded body.
    pub total_chars: u64,
    /// Pass this as `offset` for the next window; null at the end.
    pub next_offset: Option<u64>,
}

#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub(crate) struct GemtextOut {
    pub request_info: RequestInfoOut,
    #[serde(flatten)]
    pub cache: CacheMeta,
    pub document: DocumentOut,
    pub charset: String,
    pub lang: Option<String>,
    /// Body size in bytes.
    pub size: u64,
    #[serde(flatten)]
    pub window: WindowMeta,
    /// True when this window is (part of) one line longer than the limit, given unparsed.
    pub partial_line: bool,
    /// Present when the text holds bidi controls or invisible characters, or its charset
    /// label was unknown (see the values).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub hints: Vec<TextHint>,
    /// smolweb: the answer to the capsule's prompt was typed by the user (never shown).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input_from_user: Option<bool>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub(crate) struct MimeOut {
    #[serde(rename = "type")]
    pub mime_type: String,
    pub subtype: String,
    pub charset: Option<String>,
    pub lang: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub(crate) struct SuccessOut {
    pub request_info: RequestInfoOut,
    #[serde(flatten)]
    pub cache: CacheMeta,
    pub mime_type: MimeOut,
    pub content: String,
    pub size: u64,
    #[serde(flatten)]
    pub window: WindowMeta,
    /// Present when the text holds bidi controls or invisible characters, or its charset
    /// label was unknown (see the values).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub hints: Vec<TextHint>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input_from_user: Option<bool>,
}

#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub(crate) struct GeminiBinaryOut {
    pub request_info: RequestInfoOut,
    #[serde(flatten)]
    pub cache: CacheMeta,
    pub mime_type: MimeOut,
    pub size: u64,
    pub note: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub(crate) struct InputOut {
    pub request_info: RequestInfoOut,
    /// The capsule's prompt text (untrusted data).
    pub prompt: String,
    /// True for status 11: the answer is secret (a password or similar).
    pub sensitive: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub(crate) struct RedirectOut {
    pub request_info: RequestInfoOut,
    /// The target, resolved to an absolute URL. Not followed.
    pub new_url: String,
    pub permanent: bool,
    /// The target is on another host.
    pub cross_host: bool,
    pub scheme: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub(crate) struct CertificateOut {
    pub request_info: RequestInfoOut,
    pub status: u8,
    /// The capsule's text (untrusted data).
    pub message: String,
    /// True only for 60 (a client certificate is required).
    pub required: bool,
    pub next_step: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub(crate) struct ErrorBody {
    /// One of the contract's error codes (e.g. `INVALID_REQUEST`).
    #[schemars(schema_with = "error_code_schema")]
    pub code: ErrorCode,
    pub message: String,
    /// May the same request succeed later?
    pub retryable: bool,
    /// The capsule's status for 4x/5x answers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<u8>,
    /// The capsule's meta text for 4x/5x answers (untrusted data).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<String>,
    /// True for 4x, false for 5x.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub temporary: Option<bool>,
    /// Seconds to wait (44 SLOW DOWN).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retry_after_seconds: Option<u64>,
}

#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub(crate) struct ErrorOut {
    pub request_info: Box<RequestInfoOut>,
    pub error: ErrorBody,
}

/// What `gemini_fetch` returns.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub(crate) enum GeminiResult {
    Gemtext(GemtextOut),
    Success(SuccessOut),
    Binary(GeminiBinaryOut),
    Input(InputOut),
    Redirect(RedirectOut),
    Certificate(CertificateOut),
    Error(ErrorOut),
}

// One menu item as the result has it, borrowed from the parsed item while it is written (a
// plain comment: the published schema has no description here).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub(crate) struct MenuItemOut<'a> {
    #[serde(rename = "type")]
    pub item_type: &'a str,
    pub title: &'a str,
    pub selector: &'a str,
    pub host: &'a str,
    pub port: u16,
    /// Where following the item leads; "" for info lines and items that cannot be followed.
    pub next_url: &'a str,
    /// Set when the item's target has a scheme smolweb does not follow (`URL:javascript:...`,
    /// `URL:file:...`, telnet items): `next_url` is "" and the item is text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refused_scheme: Option<&'a str>,
}

/// The items of a menu window: a range of the page's parsed menu, held with the page (a
/// slice: nothing is copied or parsed again).
#[derive(Clone)]
pub(crate) struct WindowItems {
    page: Arc<Page>,
    range: Range<usize>,
}

impl WindowItems {
    /// `items[range]` of `page`'s menu.
    pub(crate) fn new(page: Arc<Page>, range: Range<usize>) -> WindowItems {
        WindowItems { page, range }
    }
    /// The window's items.
    pub(crate) fn items(&self) -> &[MenuItem] {
        match &self.page.content {
            Content::Menu(menu) => menu.get(self.range.clone()).unwrap_or_default(),
            _ => &[],
        }
    }
}

impl Serialize for WindowItems {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let items = self.items();
        let mut seq = s.serialize_seq(Some(items.len()))?;
        for m in items {
            let mut buf = [0u8; 4];
            seq.serialize_element(&MenuItemOut {
                item_type: m.item_type.encode_utf8(&mut buf),
                title: &m.title,
                selector: &m.selector,
                host: &m.host,
                port: m.port,
                next_url: &m.next_url,
                refused_scheme: m.refused_scheme.as_deref(),
            })?;
        }
        seq.end()
    }
}

impl PartialEq for WindowItems {
    fn eq(&self, other: &WindowItems) -> bool {
        self.items() == other.items()
    }
}

impl std::fmt::Debug for WindowItems {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.items()).finish()
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub(crate) struct MenuOut {
    pub request_info: RequestInfoOut,
    #[serde(flatten)]
    pub cache: CacheMeta,
    #[schemars(with = "Vec<MenuItemOut<'static>>")]
    pub items: WindowItems,
    pub truncated: bool,
    pub total_items: u64,
    /// Pass this as `offset` for the next items; null at the end.
    pub next_offset: Option<u64>,
    /// Present when the text holds bidi controls or invisible characters, in titles or selectors, or
    /// its charset label was unknown (see the values).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub hints: Vec<TextHint>,
}

#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub(crate) struct GopherTextOut {
    pub request_info: RequestInfoOut,
    #[serde(flatten)]
    pub cache: CacheMeta,
    pub text: String,
    pub charset: String,
    /// Body size in bytes.
    pub bytes: u64,
    #[serde(flatten)]
    pub window: WindowMeta,
    /// Present when the text holds bidi controls or invisible characters, or its charset
    /// label was unknown (see the values).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub hints: Vec<TextHint>,
}

#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub(crate) struct GopherBinaryOut {
    pub request_info: RequestInfoOut,
    #[serde(flatten)]
    pub cache: CacheMeta,
    /// Body size in bytes (the bytes themselves are never returned).
    pub bytes: u64,
    /// Guessed from magic bytes.
    pub mime_type: String,
    pub note: String,
}

/// What `gopher_fetch` returns.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub(crate) enum GopherResult {
    Menu(MenuOut),
    Text(GopherTextOut),
    Binary(GopherBinaryOut),
    Error(ErrorOut),
}

/// Either fetch family, as produced by the outcome mapping.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub(crate) enum FetchResult {
    Gemini(GeminiResult),
    Gopher(GopherResult),
}

impl FetchResult {
    pub(crate) fn is_error(&self) -> bool {
        matches!(
            self,
            FetchResult::Gemini(GeminiResult::Error(_))
                | FetchResult::Gopher(GopherResult::Error(_))
        )
    }
}

/// Build an `error` body from a code and message.
pub(crate) fn error_body(
    code: ErrorCode,
    message: impl Into<String>,
    retryable: bool,
) -> ErrorBody {
    ErrorBody {
        code,
        message: message.into(),
        retryable,
        status: None,
        meta: None,
        temporary: None,
        retry_after_seconds: None,
    }
}

/// An `error` result with a request_info; `retryable` is the code's default.
pub(crate) fn error_out(
    info: RequestInfoOut,
    code: ErrorCode,
    message: impl Into<String>,
) -> ErrorOut {
    ErrorOut {
        request_info: Box::new(info),
        error: error_body(code, message, code.retryable()),
    }
}

/// An error as the store tools return it (retryable as the code says).
pub(crate) fn err(code: ErrorCode, message: impl Into<String>) -> ErrorOut {
    error_out(RequestInfoOut::default(), code, message)
}

/// The contract code of a store failure.
pub(crate) use smolweb_net::store_code;

pub(crate) fn store_err(e: &StoreError) -> ErrorOut {
    err(store_code(e), e.to_string())
}

/// A parsed line as the result has it (borrowed: nothing is copied).
pub(crate) fn line_out(l: &Line) -> LineOut<'_> {
    let keeps_text = matches!(
        l.kind,
        LineKind::Heading1
            | LineKind::Heading2
            | LineKind::Heading3
            | LineKind::List
            | LineKind::Quote
    );
    let opening = l.fence.as_ref().filter(|f| f.opening);
    LineOut {
        line_type: l.kind,
        content: &l.content,
        text: if keeps_text { l.text.as_deref() } else { None },
        level: l.level(),
        link: l.link.as_ref().map(|k| LinkOut {
            url: &k.url,
            text: k.text.as_deref(),
            refused_scheme: k.refused_scheme(),
        }),
        alt_text: opening.and_then(|f| f.alt_text.as_deref()),
        language: opening.and_then(|f| f.language.as_deref()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_failures_are_typed_codes_with_their_retryability() {
        let corrupt = StoreError::Corrupt {
            path: "known_hosts.toml".into(),
            reason: "bad".into(),
        };
        let cases = [
            (corrupt, ErrorCode::CertificateStoreUnavailable, true),
            (
                StoreError::Exists("x".into()),
                ErrorCode::CertificateExists,
                false,
            ),
            (
                StoreError::NotFound("x".into()),
                ErrorCode::InvalidRequest,
                false,
            ),
            (
                StoreError::Crypto("x".into()),
                ErrorCode::InternalError,
                false,
            ),
        ];
        for (e, code, retryable) in cases {
            let out = store_err(&e);
            assert_eq!(
                (out.error.code, out.error.retryable),
                (code, retryable),
                "{e}"
            );
            let v = serde_json::to_value(&out).unwrap();
            assert_eq!(v["error"]["code"], code.as_str());
        }
    }
}
