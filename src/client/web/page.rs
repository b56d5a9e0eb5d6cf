//! A web answer as a page: content type decides the path (HTML and XHTML converted,
//! `text/markdown` kept as is, other text as text, anything else refused with its type and
//! size), the charset decides the decoding, and the result is held as a [`Body`] for windows.

use crate::core::html::charset;
use crate::core::html::{self, Extract, Extraction, Hint, Metadata, invisible};
use crate::core::window::Body;
use crate::net::http::{HttpResponse, WebError, WebTls};
use time::OffsetDateTime;

/// Converted (markdown) or as sent (raw).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum WebFormat {
    #[default]
    Markdown,
    Raw,
}

impl WebFormat {
    pub fn as_str(self) -> &'static str {
        match self {
            WebFormat::Markdown => "markdown",
            WebFormat::Raw => "raw",
        }
    }
}

/// A fetched web page, converted per the query; every text in it is untrusted.
#[derive(Clone, Debug)]
pub struct WebPage {
    pub status: u16,
    pub final_url: String,
    pub content_type: Option<String>,
    /// Bytes downloaded (decompressed).
    pub bytes: u64,
    /// The body cap was hit.
    pub truncated: bool,
    pub extraction: Extraction,
    pub hints: Vec<Hint>,
    pub meta: Metadata,
    pub markdown_tokens: Option<u64>,
    pub retry_after: Option<String>,
    /// The text (markdown, or the text as sent), indexed for windows.
    pub body: Body,
    /// The encoding the body was decoded from.
    pub encoding: &'static str,
    pub forms_removed: usize,
    pub tls: Option<WebTls>,
    pub redirects: Vec<String>,
    pub fetched_at: OffsetDateTime,
    /// The body bytes as received (after decompression): `smolweb get --raw`.
    pub raw: Vec<u8>,
    /// Not text (human face only: kept to be saved or opened elsewhere; `body` is empty).
    pub binary: bool,
}

impl WebPage {
    /// The error to report with this page: 4xx/5xx answers (see [`WebError::for_status`]).
    pub fn status_error(&self) -> Option<WebError> {
        WebError::for_status(self.status, self.retry_after.as_deref())
    }
}

/// What kind of body this is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Html,
    Markdown,
    Text,
}

/// The MIME essence of a Content-Type ("text/html"), lowercased.
pub fn essence(content_type: Option<&str>) -> String {
    content_type
        .unwrap_or_default()
        .split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase()
}

/// The `charset` parameter of a Content-Type.
fn charset_param(content_type: Option<&str>) -> Option<String> {
    content_type?.split(';').skip(1).find_map(|p| {
        let (k, v) = p.split_once('=')?;
        k.trim()
            .eq_ignore_ascii_case("charset")
            .then(|| v.trim().trim_matches('"').to_string())
    })
}

fn kind_of(essence: &str, body: &[u8]) -> Option<Kind> {
    match essence {
        "text/html" | "application/xhtml+xml" => Some(Kind::Html),
        "text/markdown" | "text/x-markdown" => Some(Kind::Markdown),
        "" => sniff(body),
        e if e.starts_with("text/")
            || e.ends_with("+json")
            || e.ends_with("+xml")
            || matches!(
                e,
                "application/json"
                    | "application/xml"
                    | "application/javascript"
                    | "application/ecmascript"
                    | "application/x-ndjson"
                    | "application/csv"
                    | "application/toml"
                    | "application/yaml"
                    | "application/x-yaml"
            ) =>
        {
            Some(Kind::Text)
        }
        _ => None,
    }
}

/// An untyped body: HTML when it opens like HTML, text when it has no control bytes.
fn sniff(body: &[u8]) -> Option<Kind> {
    let head = &body[..body.len().min(1024)];
    let lower = String::from_utf8_lossy(head)
        .trim_start()
        .to_ascii_lowercase();
    if lower.starts_with("<!doctype html") || lower.starts_with("<html") {
        return Some(Kind::Html);
    }
    let binary = head
        .iter()
        .any(|&b| b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r' | 0x0C));
    (!binary).then_some(Kind::Text)
}

/// Build the page of an answer (pure apart from the timestamp given). A body that is not
/// text is refused with its type and size, unless `keep_binary` (the human face) keeps it.
pub fn build(
    resp: HttpResponse,
    format: WebFormat,
    extract: Extract,
    now: OffsetDateTime,
    keep_binary: bool,
) -> Result<WebPage, WebError> {
    let ct = resp.content_type.as_deref();
    let essence = essence(ct);
    let kind = kind_of(&essence, &resp.body);
    if kind.is_none() && keep_binary {
        return Ok(binary_page(resp, now));
    }
    let Some(kind) = kind else {
        return Err(WebError::Unsupported {
            content_type: if essence.is_empty() {
                "(none)".into()
            } else {
                essence
            },
            bytes: resp.body.len() as u64,
        });
    };
    let declared = charset_param(ct);
    let bytes = resp.body.len() as u64;
    let converted = if format == WebFormat::Markdown && kind == Kind::Html {
        // A UTF-8 page is converted from its own bytes, taken as the text and given back as
        // `raw` afterwards: a large page is not held twice while it is converted.
        let (decoded, kept) = match charset::decode_in_place(resp.body, declared.as_deref(), true) {
            Ok(decoded) => (decoded, None),
            Err(body) => (
                charset::decode(&body, declared.as_deref(), true),
                Some(body),
            ),
        };
        let c = html::convert_html(&decoded.text, &resp.final_url, extract);
        let encoding = decoded.encoding;
        let raw = kept.unwrap_or_else(|| decoded.text.into_bytes());
        (
            c.markdown,
            c.extraction,
            c.hints,
            c.meta,
            c.forms_removed,
            encoding,
            raw,
        )
    } else {
        let decoded = charset::decode(&resp.body, declared.as_deref(), kind == Kind::Html);
        let text = match format {
            WebFormat::Raw => decoded.text,
            WebFormat::Markdown => invisible::strip(&decoded.text).into_owned(),
        };
        (
            text,
            Extraction::None,
            Vec::new(),
            Metadata::default(),
            0,
            decoded.encoding,
            resp.body,
        )
    };
    let (text, extraction, hints, meta, forms, encoding, raw) = converted;
    Ok(WebPage {
        status: resp.status,
        final_url: resp.final_url,
        content_type: resp.content_type,
        bytes,
        truncated: resp.truncated,
        extraction,
        hints,
        meta,
        markdown_tokens: resp.markdown_tokens,
        retry_after: resp.retry_after,
        body: Body::new(text),
        encoding,
        forms_removed: forms,
        tls: resp.tls,
        redirects: resp.redirects,
        fetched_at: now,
        raw,
        binary: false,
    })
}

fn binary_page(resp: HttpResponse, now: OffsetDateTime) -> WebPage {
    WebPage {
        status: resp.status,
        final_url: resp.final_url,
        content_type: resp.content_type,
        bytes: resp.body.len() as u64,
        truncated: resp.truncated,
        extraction: Extraction::None,
        hints: Vec::new(),
        meta: Metadata::default(),
        markdown_tokens: None,
        retry_after: resp.retry_after,
        body: Body::default(),
        encoding: "binary",
        forms_removed: 0,
        tls: resp.tls,
        redirects: resp.redirects,
        fetched_at: now,
        raw: resp.body,
        binary: true,
    }
}

impl crate::cache::Weigh for std::sync::Arc<WebPage> {
    /// The body as received plus its conversion (the metadata is small next to them).
    fn weight(&self) -> usize {
        self.raw.len() + self.body.text().len() + self.final_url.len()
    }
}
