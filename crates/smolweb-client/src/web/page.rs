//! A web answer as a page: [`webtext::classify`] decides the path (HTML and XHTML converted,
//! markdown and every other textual type given as sent, JSON re-indented, a PDF's text read by
//! [`super::pdf`], anything else refused with its type and size), the charset decides the
//! decoding, and the result is held as a [`Body`] for windows. [`WebPage::shown`] says what
//! the text is, in the words every face uses.

use smolweb_core::charset::{self, Charset, Origin};
use smolweb_core::html::{self, Extract, Extraction, Hint, Metadata, Reading, invisible};
use smolweb_core::pdf::{PdfError, PdfText};
use smolweb_core::webtext::{self, BodyKind, Shown};
use smolweb_core::window::Body;
use smolweb_net::http::{HttpResponse, WebError, WebTls};
use smolweb_store::site_rules::SiteRuleEntry;
use time::OffsetDateTime;

/// Converted (markdown) or as sent (raw).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum WebFormat {
    #[default]
    /// HTML converted to markdown (other text as it is).
    Markdown,
    /// The text as the server sent it (decoded, not converted).
    Raw,
}

impl WebFormat {
    /// The parameter's name (`markdown`, `raw`).
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
    /// The final HTTP status.
    pub status: u16,
    /// The URL the text came from, after redirects.
    pub final_url: String,
    /// The `Content-Type` as sent.
    pub content_type: Option<String>,
    /// Bytes downloaded (decompressed).
    pub bytes: u64,
    /// The body cap was hit.
    pub truncated: bool,
    /// Which part of the page was kept.
    pub extraction: Extraction,
    /// HTML converted: what the page is and, for its main text, the quality figure (kept
    /// with the page, so a copy served from the cache says the same).
    pub reading: Option<Reading>,
    /// What the body is (None: not text, `binary`).
    pub(crate) kind: Option<BodyKind>,
    /// What was noticed in the page (hidden text removed, JavaScript needed).
    pub hints: Vec<Hint>,
    /// The page's metadata (title, byline, ...), untrusted.
    pub meta: Metadata,
    /// The token count the site announced for its markdown.
    pub markdown_tokens: Option<u64>,
    pub(crate) retry_after: Option<String>,
    /// The text (markdown, or the text as sent), indexed for windows.
    pub body: Body,
    /// The encoding the body was decoded from (None for a binary body).
    pub charset: Option<Charset>,
    /// The Content-Type's charset label, when it named no known encoding (see
    /// [`smolweb_core::charset`]: the body was decoded by detection).
    pub(crate) unknown_charset: Option<String>,
    /// Forms removed from the text.
    pub forms_removed: usize,
    /// The person's rule for the page's site it was read by (whether it matched: the
    /// reading's `rule`).
    pub site_rule: Option<SiteRuleEntry>,
    /// TLS details of an https connection.
    pub tls: Option<WebTls>,
    /// The redirects followed, in order.
    pub redirects: Vec<String>,
    pub(crate) fetched_at: OffsetDateTime,
    /// The body bytes as received (after decompression): `smolweb get --raw`.
    pub(crate) raw: Vec<u8>,
    /// Not text (human face only: kept to be saved or opened elsewhere; `body` is empty).
    pub(crate) binary: bool,
}

impl WebPage {
    /// The error to report with this page: 4xx/5xx answers (see [`WebError::for_status`]).
    pub fn status_error(&self) -> Option<WebError> {
        WebError::for_status(self.status, self.retry_after.as_deref())
    }

    /// When the page was downloaded (for a kept copy read offline: when it was kept).
    pub fn fetched_at(&self) -> OffsetDateTime {
        self.fetched_at
    }

    /// What the text of this page is (None for a body that is not text).
    pub fn shown(&self) -> Option<Shown> {
        Some(Shown {
            kind: self.kind?,
            extraction: self.extraction,
            reading: self.reading,
        })
    }
}

/// Build the page of an answer (pure apart from the timestamp given). A body that is not
/// text is refused with its type and size, unless `keep_binary` (the human face) keeps it.
/// A PDF is read by [`build_pdf`] instead (its text comes from a worker thread).
pub fn build(
    resp: HttpResponse,
    format: WebFormat,
    extract: Extract,
    now: OffsetDateTime,
    keep_binary: bool,
) -> Result<WebPage, WebError> {
    build_ruled(resp, format, extract, None, now, keep_binary)
}

/// [`build`] under the person's rule for the page's site (see
/// [`smolweb_core::html::convert_html_with`]); the page keeps the rule it was read by.
pub fn build_ruled(
    resp: HttpResponse,
    format: WebFormat,
    extract: Extract,
    rule: Option<&SiteRuleEntry>,
    now: OffsetDateTime,
    keep_binary: bool,
) -> Result<WebPage, WebError> {
    let ct = resp.content_type.as_deref();
    let kind = match webtext::classify(ct, &resp.body) {
        Some(BodyKind::Pdf { .. }) | None => return refuse(resp, now, keep_binary, None),
        Some(kind) => kind,
    };
    let origin = Origin::Web {
        html: kind == BodyKind::Html,
    };
    let declared = webtext::charset_param(ct);
    let bytes = resp.body.len() as u64;
    let mut resp = resp;
    let body = std::mem::take(&mut resp.body);
    // A UTF-8 page to convert is decoded from its own bytes (no copy), converted, and given
    // back as `raw` afterwards: a large page is not held twice while it is converted.
    let in_place = format == WebFormat::Markdown && kind == BodyKind::Html;
    let (decoded, kept) = match in_place {
        true => match charset::decode_in_place(body, declared.as_deref(), origin) {
            Ok(decoded) => (decoded, None),
            Err(body) => (
                charset::decode(&body, declared.as_deref(), origin),
                Some(body),
            ),
        },
        false => (
            charset::decode(&body, declared.as_deref(), origin),
            Some(body),
        ),
    };
    let mut kind = kind;
    let mut text = decoded.text;
    let mut raw = kept;
    let mut extraction = Extraction::None;
    let mut reading = None;
    let mut hints = Vec::new();
    let mut meta = Metadata::default();
    let mut forms = 0;
    match (format, kind) {
        (WebFormat::Raw, _) => {}
        (WebFormat::Markdown, BodyKind::Html) => {
            let site_rule = rule.map(SiteRuleEntry::rule);
            let c = html::convert_html_with(&text, &resp.final_url, extract, site_rule.as_ref());
            reading = Some(c.reading());
            let source = std::mem::replace(&mut text, c.markdown);
            raw = raw.or(Some(source.into_bytes()));
            (extraction, hints, meta, forms) = (c.extraction, c.hints, c.meta, c.forms_removed);
        }
        (WebFormat::Markdown, _) => {
            if let BodyKind::Json { .. } = kind
                && let Some(pretty) = webtext::pretty_json(&text)
            {
                text = pretty;
                kind = BodyKind::Json { pretty: true };
            }
            text = invisible::strip(&text).into_owned();
        }
    }
    let raw = raw.unwrap_or_default();
    Ok(WebPage {
        status: resp.status,
        final_url: resp.final_url,
        content_type: resp.content_type,
        bytes,
        truncated: resp.truncated,
        extraction,
        reading,
        kind: Some(kind),
        hints,
        meta,
        markdown_tokens: resp.markdown_tokens,
        retry_after: resp.retry_after,
        body: Body::new(text),
        charset: Some(decoded.charset),
        unknown_charset: decoded.unknown_label,
        forms_removed: forms,
        site_rule: reading.and_then(|r| r.rule).and(rule.cloned()),
        tls: resp.tls,
        redirects: resp.redirects,
        fetched_at: now,
        raw,
        binary: false,
    })
}

/// The page of a PDF answer from what [`smolweb_core::pdf::extract`] made of it. A PDF without
/// readable text is refused saying why, unless `keep_binary` keeps it to be opened elsewhere.
pub fn build_pdf(
    resp: HttpResponse,
    read: Result<PdfText, PdfError>,
    now: OffsetDateTime,
    keep_binary: bool,
) -> Result<WebPage, WebError> {
    let pdf = match read {
        Ok(pdf) => pdf,
        Err(PdfError::Stopped) => {
            return Err(WebError::Internal("the PDF reader was stopped".into()));
        }
        Err(e) => return refuse(resp, now, keep_binary, Some(e)),
    };
    let meta = Metadata::of_document(pdf.title.as_deref(), pdf.author.as_deref());
    Ok(WebPage {
        status: resp.status,
        final_url: resp.final_url,
        content_type: resp.content_type,
        bytes: resp.body.len() as u64,
        truncated: resp.truncated || pdf.truncated,
        extraction: Extraction::None,
        reading: None,
        kind: Some(BodyKind::Pdf { pages: pdf.pages }),
        hints: Vec::new(),
        meta,
        markdown_tokens: None,
        retry_after: resp.retry_after,
        body: Body::new(invisible::strip(&pdf.text).into_owned()),
        charset: None,
        unknown_charset: None,
        forms_removed: 0,
        site_rule: None,
        tls: resp.tls,
        redirects: resp.redirects,
        fetched_at: now,
        raw: resp.body,
        binary: false,
    })
}

/// A body that gives no text: kept as binary for the human face, else refused with its type,
/// size and, for a PDF, the reason.
fn refuse(
    resp: HttpResponse,
    now: OffsetDateTime,
    keep_binary: bool,
    pdf: Option<PdfError>,
) -> Result<WebPage, WebError> {
    if keep_binary {
        return Ok(binary_page(resp, now));
    }
    let bytes = resp.body.len() as u64;
    if let Some(e) = pdf {
        return Err(WebError::UnreadablePdf {
            reason: e.to_string(),
            bytes,
        });
    }
    let essence = webtext::essence(resp.content_type.as_deref());
    Err(WebError::Unsupported {
        content_type: if essence.is_empty() {
            "(none)".into()
        } else {
            essence
        },
        bytes,
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
        reading: None,
        kind: None,
        hints: Vec::new(),
        meta: Metadata::default(),
        markdown_tokens: None,
        retry_after: resp.retry_after,
        body: Body::default(),
        charset: None,
        unknown_charset: None,
        forms_removed: 0,
        site_rule: None,
        tls: resp.tls,
        redirects: resp.redirects,
        fetched_at: now,
        raw: resp.body,
        binary: true,
    }
}

impl smolweb_net::cache::Weigh for WebPage {
    /// The body as received plus its conversion (the metadata is small next to them).
    fn weight(&self) -> usize {
        self.raw.len() + self.body.text().len() + self.final_url.len()
    }
}
