//! The human face of the web: a web page as an [`Outcome`] the browser and `smolweb get`
//! already show, made from the same [`WebPage`](super::WebPage) `fetch_url` returns. A
//! converted page (and a markdown one) is rewritten as gemtext ([`markdown_to_gemtext`]) and
//! parsed into a [`Page`] whose content is that gemtext (links absolute, numbered by the
//! renderers); other text (plain, JSON, XML, a PDF's text) is a text page. The `mime` is the
//! page's own Content-Type (`application/pdf` for a PDF, whatever it was sent as), so a face
//! can tell a web page from a capsule, `raw` is the body as received, and `info.web` says what
//! the text is ([`Shown`](smolweb_core::webtext::Shown)). An https page's certificate was
//! verified against the trusted roots (there is no TOFU on the web): `info.tls` carries its
//! fingerprint and TLS version with [`TofuState::Trusted`].
//!
//! A 4xx/5xx answer is an [`Outcome::Failure`] with status 50 (4xx) or 40 (5xx, 408, 429: try
//! later) and `HTTP <code> <reason>` in the meta ([`failure_words`] says it to a person); a failure to fetch is an [`Outcome::Error`] whose
//! [`FetchError`] is the nearest Gemini-side error ([`web_error_as_fetch`]).

use super::{WebFetched, WebFormat, WebQuery};
use crate::{Client, Fetched, OpenOptions, Outcome, RequestInfo};
use smolweb_core::html::gemtext::markdown_to_gemtext;
use smolweb_core::html::{Extract, Extraction};
use smolweb_core::page::{Page, mime_of};
use smolweb_core::response::parse_mime;
use smolweb_core::url::Url;
use smolweb_core::webtext::BodyKind;
use smolweb_net::http::{WebError, status_words};
use smolweb_net::{FetchError, TlsInfo, TofuState};
use std::sync::Arc;

/// The gemtext page of a fetched web page (pure; see the module docs). `url` is the page's
/// URL as smolweb's own type; the final URL after redirects is used when it parses.
pub fn reader_page(url: Url, fetched: &WebFetched) -> Page {
    let web = &fetched.page;
    let url = Url::parse(&web.final_url).unwrap_or(url);
    let own_mime = || {
        if smolweb_core::pdf::is_pdf(&web.raw) {
            mime_of("application/pdf")
        } else {
            parse_mime(web.content_type.as_deref().unwrap_or("text/html"))
        }
    };
    if web.binary {
        let mime = match web.content_type.as_deref() {
            None if !smolweb_core::pdf::is_pdf(&web.raw) => mime_of("application/octet-stream"),
            _ => own_mime(),
        };
        return Page::from_gemini(url, mime, web.raw.clone());
    }
    // HTML (converted) and markdown are rewritten as gemtext; other text is shown as text.
    let as_gemtext = web.extraction != Extraction::None || web.kind == Some(BodyKind::Markdown);
    let (text, essence) = if as_gemtext {
        let t = reader_gemtext(web.body.text(), web.meta.title.as_deref());
        (t, "text/gemini")
    } else {
        (web.body.text().to_string(), "text/plain")
    };
    let mut shown = mime_of(essence);
    shown.charset = Some("utf-8".into());
    let mut page = Page::from_gemini(url, shown, text.into_bytes());
    page.mime = own_mime();
    // The page info tells how the web page was decoded, not the reader's own gemtext.
    page.charset = web.charset;
    page.unknown_charset = web.unknown_charset.clone();
    page.lang = web.meta.lang.clone();
    page.raw = web.raw.clone();
    page
}

/// A page of another kind, as a person reads it (pure): HTML served by a capsule (Gemini,
/// Gopher) in the reader view, as a web page is (its main content, links absolute), and any
/// other textual type (JSON re-indented, XML, scripts, CSV...) as plain text; None for a body
/// that is not text. The page keeps its own type, bytes and charset for page info and saving.
pub fn readable_page(page: &Page) -> Option<Page> {
    use smolweb_core::webtext::{classify, pretty_json};
    let essence = page.mime.essence();
    let kind = classify(Some(&essence), &page.raw)?;
    let text = match &page.charset {
        Some(_) => page.body.text().to_string(),
        None => {
            smolweb_core::charset::decode(
                &page.raw,
                page.mime.charset.as_deref(),
                smolweb_core::charset::Origin::Gemini,
            )
            .text
        }
    };
    let (body, shown) = match kind {
        BodyKind::Html => {
            let url = page.url.to_string();
            let c = smolweb_core::html::convert_html(&text, &url, Extract::Main);
            (
                reader_gemtext(&c.markdown, c.meta.title.as_deref()),
                "text/gemini",
            )
        }
        BodyKind::Markdown => (reader_gemtext(&text, None), "text/gemini"),
        BodyKind::Json { .. } => (pretty_json(&text).unwrap_or(text), "text/plain"),
        BodyKind::Pdf { .. } => return None,
        BodyKind::Text | BodyKind::Xml => (text, "text/plain"),
    };
    Some(shown_as(page, shown, body))
}

/// `page` shown as `body`, text of type `essence` in UTF-8, keeping the page's own type,
/// bytes, charset and ending for page info and saving.
fn shown_as(page: &Page, essence: &str, body: String) -> Page {
    let mut mime = mime_of(essence);
    mime.charset = Some("utf-8".into());
    let mut out = Page::from_gemini(page.url.clone(), mime, body.into_bytes());
    out.mime = page.mime.clone();
    out.charset = page.charset.or(out.charset);
    out.raw = page.raw.clone();
    out.ending = page.ending;
    out
}

/// The HTML source of a reader-view page (a web page shown by the reader, or HTML a capsule
/// served), decoded as it was for reading; None for another kind of page.
fn html_source(page: &Page) -> Option<String> {
    use smolweb_core::webtext::{BodyKind, classify};
    let essence = page.mime.essence();
    if classify(Some(&essence), &page.raw)? != BodyKind::Html {
        return None;
    }
    let origin = match page.url.scheme() {
        smolweb_core::url::Scheme::Http | smolweb_core::url::Scheme::Https => {
            smolweb_core::charset::Origin::Web { html: true }
        }
        _ => smolweb_core::charset::Origin::Gemini,
    };
    let declared = page.mime.charset.as_deref();
    Some(smolweb_core::charset::decode(&page.raw, declared, origin).text)
}

/// The regions of a reader-view page's HTML a person may pick as its site's content
/// ([`smolweb_core::html::regions`]); none for a page that is not HTML.
pub fn page_regions(page: &Page) -> Vec<smolweb_core::html::Region> {
    match html_source(page) {
        Some(html) => smolweb_core::html::regions(&html, &page.url.to_string()),
        None => Vec::new(),
    }
}

/// A reader-view page read again from its HTML under `rule` (None: as without a rule), for
/// the browser's preview while the person picks a region (pure). The page keeps its URL,
/// type, bytes and charset, and comes with its reading; None for a page that is not HTML,
/// and when the rule keeps no text on it.
pub fn page_under_rule(
    page: &Page,
    rule: Option<&smolweb_core::html::SiteRule>,
) -> Option<(Page, smolweb_core::html::Reading)> {
    use smolweb_core::html::{RuleUse, convert_html_with};
    let html = html_source(page)?;
    let c = convert_html_with(&html, &page.url.to_string(), Extract::Main, rule);
    if rule.is_some() && c.rule != Some(RuleUse::Applied) {
        return None;
    }
    let body = reader_gemtext(&c.markdown, c.meta.title.as_deref());
    let mut out = shown_as(page, "text/gemini", body);
    out.unknown_charset = page.unknown_charset.clone();
    out.lang = page.lang.clone();
    Some((out, c.reading()))
}

/// The gemtext of a converted page's markdown, headed by the page's title (pure).
/// Readability drops a heading that repeats the title: the reader gets it back.
pub(crate) fn reader_gemtext(markdown: &str, title: Option<&str>) -> String {
    let body = markdown_to_gemtext(markdown);
    match title {
        Some(title) if !body.starts_with("# ") => format!("# {title}\n\n{body}"),
        _ => body,
    }
}

/// A web failure as the faces that read every page as an outcome see it: working offline and
/// the budget running out are the same facts as for a capsule; every other failure is kept as
/// the web's own ([`FetchError::Web`], with the Gemini-side code nearest to it).
pub(crate) fn web_error_as_fetch(e: &WebError) -> FetchError {
    match e {
        WebError::Timeout(d) => FetchError::Timeout(*d),
        WebError::Offline { url } => FetchError::Offline { url: url.clone() },
        other => FetchError::Web(Box::new(other.clone())),
    }
}

/// Open an http(s) URL for the human face (see the module docs): the main content, or the
/// whole page when [`OpenOptions::web_full`] asks for it.
pub(crate) async fn open_reader(
    client: &Client,
    url: Url,
    original: &str,
    opts: &OpenOptions,
) -> Outcome {
    client
        .open_web_reader(url, original, extract_of(opts), opts.refresh)
        .await
}

/// The conversion a human asked for.
fn extract_of(opts: &OpenOptions) -> Extract {
    if opts.web_full {
        Extract::Full
    } else {
        Extract::Main
    }
}

impl Client {
    /// Fetch an http(s) page and return it as a reader-view [`Outcome`] (for the browser's
    /// web pages; `extract` toggles main content / full page; `refresh` skips the held copy).
    pub async fn open_web_reader(
        &self,
        url: Url,
        original: &str,
        extract: Extract,
        refresh: bool,
    ) -> Outcome {
        let info = RequestInfo {
            url: original.trim().to_string(),
            host: url.host().to_string(),
            port: url.port(),
            ..RequestInfo::default()
        };
        let query = WebQuery {
            url: original.to_string(),
            format: WebFormat::Markdown,
            extract,
            max_bytes: None,
        };
        if refresh {
            self.forget_web(&query);
        }
        let fetched = match self.fetch_web(&query).await {
            Ok(f) => f,
            Err(e) => {
                let error = web_error_as_fetch(&e);
                return super::super::error(info, error);
            }
        };
        reader_outcome(url, info, &fetched)
    }
}

/// A failure answer said the way its protocol speaks: a web page's "the server answered 404
/// Not Found", a capsule's "the capsule answered 51: not here", a proxy status (43, 53) in
/// plain words ([`crate::proxy_status_words`]). `url` is the answer's URL
/// (`RequestInfo::url`), `status` and `meta` the [`Outcome::Failure`]'s.
pub fn failure_words(url: &str, status: u8, meta: &str) -> String {
    let web = url.starts_with("http://") || url.starts_with("https://");
    // A web URL with a Gemini proxy status was asked of the person's Gemini proxy.
    if let Some(words) = crate::proxy_status_words(status, web) {
        return match meta.trim() {
            "" => words.to_string(),
            said => format!("{words}; it says: {said}"),
        };
    }
    match meta.strip_prefix("HTTP ") {
        Some(http) if web => format!("the server answered {http}"),
        _ => format!("the capsule answered {status}: {meta}"),
    }
}

/// The reader-view [`Outcome`] of a fetched web page (pure: what [`Client::open_web_reader`]
/// answers once the page is fetched). `info` is the request's; the page's final URL, time,
/// certificate and what its text is ([`WebPage::shown`](super::WebPage::shown)) are added.
/// A 4xx/5xx answer is a failure (see the module docs).
pub fn reader_outcome(url: Url, mut info: RequestInfo, fetched: &WebFetched) -> Outcome {
    info.timestamp = Some(fetched.page.fetched_at);
    info.url = fetched.page.final_url.clone();
    info.web = fetched.page.shown();
    info.site_rule = fetched
        .page
        .site_rule
        .as_ref()
        .map(|r| format!("{} ({})", r.content, r.site));
    info.tls = fetched.page.tls.as_ref().map(|t| TlsInfo {
        version: t.version.clone().unwrap_or_else(|| "TLS".into()),
        cipher: String::new(),
        cert_fingerprint: t.cert_fingerprint.clone(),
        cert_not_after: String::new(),
        tofu: TofuState::Trusted,
        client_cert: None,
        client_cert_warning: None,
        pin_warning: None,
        root: t.root.as_ref().map(ToString::to_string),
    });
    let status = fetched.page.status;
    if status >= 400 {
        let temporary = status >= 500 || status == 408 || status == 429;
        let meta = match &fetched.page.retry_after {
            Some(r) => format!("HTTP {} (Retry-After: {r})", status_words(status)),
            None => format!("HTTP {}", status_words(status)),
        };
        return Outcome::Failure {
            info,
            status: if temporary { 40 } else { 50 },
            meta,
            retry_after_seconds: None,
        };
    }
    let page = Arc::new(reader_page(url, fetched));
    Outcome::Page {
        info,
        fetched: Fetched {
            page,
            cached: fetched.from_cache,
            cached_at: Some(fetched.page.fetched_at),
        },
    }
}
