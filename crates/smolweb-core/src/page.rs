//! The decoded page that both faces render: what was fetched, how it decoded, and its parsed
//! content. Built once per fetched body; windows and screens are views over it.
//!
//! Text is decoded by the one decoder, [`charset::decode`] (a BOM or the declared charset, else
//! detection that loses no byte); binary pages keep an empty body and their bytes in `raw`,
//! which every page keeps as received. `charset` is the encoding actually used.
//!
//! Gemtext documents and Gopher menus are parsed on first use ([`LazyDocument`],
//! [`LazyMenu`]) from the body text they share: a face that only walks windows or streams
//! lines ([`gemtext::views`], [`gopher::menu_items`]) never holds a per-line structure of a
//! huge page, and one that needs the whole structure gets it by dereferencing.

use crate::charset::{self, Charset, Decoded, Origin};
use crate::gemtext::{self, Document};
use crate::gopher::{self, MenuItem};
use crate::response::Mime;
use crate::url::Url;
use crate::window::Body;
use std::sync::{Arc, OnceLock};

/// What a page's body is, for rendering.
#[derive(Clone, Debug)]
pub enum Content {
    /// text/gemini: the whole body, parsed on first use.
    Gemtext(LazyDocument),
    /// Any other text (text/plain, gopher type 0, ...).
    Text,
    /// A gopher menu (type 1 or 7 answers), parsed on first use.
    Menu(LazyMenu),
    /// Not text: the raw bytes are kept in [`Page::raw`], never rendered.
    Binary,
}

/// How the transfer of a body ended, as far as its protocol can tell. Recorded, not judged:
/// many capsules close without TLS close_notify, so the faces show it (`request_info`, page
/// info, before a download is saved) instead of warning on every page, and an offline copy is
/// only ever kept of a clean one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Ending {
    /// The end was seen: TLS close_notify (Gemini); a Gopher menu's final "." line; for Gopher
    /// items whose servers send no end marker (text, binaries: gophernicus sends files as
    /// they are), the close of the connection, which is all the protocol has. Pages built
    /// here (about:, the web reader view, whose HTTP framing reqwest checks) are complete.
    #[default]
    Clean,
    /// Gemini: the connection closed without TLS close_notify, so a cut-off body cannot be
    /// told from a complete one.
    NoCloseNotify,
    /// Gopher: a menu (types 1 and 7) ended without its final "." line.
    NoTerminator,
}

impl Ending {
    /// Was the end of the transfer seen?
    pub fn is_clean(self) -> bool {
        self == Ending::Clean
    }

    /// What the faces say about it (one line, our words).
    pub fn describe(self) -> &'static str {
        match self {
            Ending::Clean => "complete",
            Ending::NoCloseNotify => {
                "the connection closed without TLS close_notify: the body may be incomplete"
            }
            Ending::NoTerminator => {
                "the menu ended without its final \".\" line: it may be incomplete"
            }
        }
    }
}

/// A fetched (or built-in) page, decoded: the view both faces render.
#[derive(Clone, Debug)]
pub struct Page {
    /// The URL this page answers (after any redirect the caller followed).
    pub url: Url,
    /// Gemini: the parsed meta; Gopher: guessed from the item type or magic bytes.
    pub mime: Mime,
    /// The encoding the text was decoded with (None for binary).
    pub charset: Option<Charset>,
    /// The declared charset label, when it named no encoding smolweb knows (the body was then
    /// decoded by detection: `charset` says how).
    pub unknown_charset: Option<String>,
    /// Gemini `lang` parameter, when given.
    pub lang: Option<String>,
    /// Decoded text (empty for binary).
    pub body: Body,
    /// The bytes as received (kept for binary pages, saving and `--raw`).
    pub raw: Vec<u8>,
    /// The body's parsed content, or what kind of body it is.
    pub content: Content,
    /// How the transfer ended (travels with the page into the memory cache).
    pub ending: Ending,
    /// What the protocol said about the document beside its body (Scroll's author, publish
    /// and modification lines), as sent: untrusted text for the faces to sanitize.
    pub document_meta: Option<DocumentMeta>,
}

/// Metadata a protocol sends with a document (Scroll: author, publish date, modification
/// date), each as sent; None when the line was empty.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DocumentMeta {
    /// Who wrote it.
    pub author: Option<String>,
    /// When it was published (as the server wrote it).
    pub published: Option<String>,
    /// When it was last changed (as the server wrote it).
    pub modified: Option<String>,
}

impl DocumentMeta {
    /// From three lines as sent; an empty (or blank) line is None.
    pub fn from_lines(author: &str, published: &str, modified: &str) -> DocumentMeta {
        let keep = |s: &str| {
            let t = s.trim();
            (!t.is_empty()).then(|| t.to_string())
        };
        DocumentMeta {
            author: keep(author),
            published: keep(published),
            modified: keep(modified),
        }
    }
}

/// A MIME value from `type/subtype`, no parameters.
pub fn mime_of(essence: &str) -> Mime {
    let (t, s) = essence.split_once('/').unwrap_or((essence, ""));
    Mime {
        mime_type: t.to_ascii_lowercase(),
        subtype: s.to_ascii_lowercase(),
        charset: None,
        lang: None,
    }
}

impl Page {
    /// Build a page from a Gemini 2x answer: decode per charset (default utf-8), parse gemtext.
    pub fn from_gemini(url: Url, mime: Mime, raw: Vec<u8>) -> Page {
        let lang = mime.lang.clone();
        if !mime.is_text() {
            return Page::binary(url, mime, lang, raw);
        }
        let decoded = charset::decode(&raw, mime.charset.as_deref(), Origin::Gemini);
        let text = Arc::new(decoded.text);
        let content = if mime.is_gemtext() {
            Content::Gemtext(LazyDocument::new(Arc::clone(&text), url.clone()))
        } else {
            Content::Text
        };
        Page {
            url,
            mime,
            charset: Some(decoded.charset),
            unknown_charset: decoded.unknown_label,
            lang,
            body: Body::shared(text),
            raw,
            content,
            ending: Ending::Clean,
            document_meta: None,
        }
    }

    /// Build a page from a Gopher answer for an item type (menus parsed, text undotted,
    /// binaries sniffed). Unknown types are text when the bytes carry no known magic and
    /// decode to text without stray control bytes, else binary.
    pub fn from_gopher(url: Url, item_type: char, raw: Vec<u8>) -> Page {
        if matches!(item_type, '1' | '7') {
            let decoded = charset::decode(&raw, None, Origin::Gopher);
            let ending = match gopher::terminator_at(&decoded.text) {
                Some(_) => Ending::Clean,
                None => Ending::NoTerminator,
            };
            let origin = (url.scheme() == crate::url::Scheme::Gophers)
                .then(|| (url.host().to_string(), url.port()));
            let page = Page::text(url, mime_of("text/x-gopher-menu"), decoded, raw);
            let menu = match origin {
                Some((host, port)) => LazyMenu::over_tls(page.body.shared_text(), &host, port),
                None => LazyMenu::new(page.body.shared_text()),
            };
            return page.with_content(Content::Menu(menu)).with_ending(ending);
        }
        let text_like = gopher::is_text_type(item_type)
            || (!gopher::is_binary_type(item_type) && looks_like_text(&raw));
        if !text_like {
            let mime = mime_of(binary_mime(item_type, &raw));
            return Page::binary(url, mime, None, raw);
        }
        let mut decoded = charset::decode(&raw, None, Origin::Gopher);
        if item_type != 'h' {
            decoded.text = gopher::undot_text(&decoded.text);
        }
        Page::text(url, mime_of(text_mime(item_type)), decoded, raw)
    }

    /// A built-in page (about:...), gemtext.
    pub fn builtin(url: Url, gemtext: &str) -> Page {
        let mut mime = mime_of("text/gemini");
        mime.charset = Some("utf-8".into());
        Page::from_gemini(url, mime, gemtext.as_bytes().to_vec())
    }

    /// The page's own title: a gemtext page's first level-1 heading, a Gopher menu's opening
    /// info line ([`gopher::menu_title`]); None for other pages or when there is none.
    pub fn title(&self) -> Option<&str> {
        match &self.content {
            Content::Gemtext(_) => gemtext::first_heading(self.body.text()),
            Content::Menu(_) => gopher::menu_title(self.body.text()),
            _ => None,
        }
    }

    /// The size of the body as received, in bytes.
    pub fn size(&self) -> usize {
        self.raw.len()
    }

    fn binary(url: Url, mime: Mime, lang: Option<String>, raw: Vec<u8>) -> Page {
        Page {
            url,
            mime,
            charset: None,
            unknown_charset: None,
            lang,
            body: Body::default(),
            raw,
            content: Content::Binary,
            ending: Ending::Clean,
            document_meta: None,
        }
    }

    fn text(url: Url, mut mime: Mime, decoded: Decoded, raw: Vec<u8>) -> Page {
        mime.charset = Some(decoded.charset.name());
        Page {
            url,
            mime,
            charset: Some(decoded.charset),
            unknown_charset: decoded.unknown_label,
            lang: None,
            body: Body::new(decoded.text),
            raw,
            content: Content::Text,
            ending: Ending::Clean,
            document_meta: None,
        }
    }

    fn with_content(mut self, content: Content) -> Page {
        self.content = content;
        self
    }

    /// The same page, with the document metadata its protocol sent.
    pub fn with_document_meta(mut self, meta: Option<DocumentMeta>) -> Page {
        self.document_meta = meta;
        self
    }

    /// The same page, with how its transfer ended (the fetcher knows; see [`Ending`]).
    pub fn with_ending(mut self, ending: Ending) -> Page {
        self.ending = ending;
        self
    }
}

/// A gemtext document parsed from the page's text on first dereference (links resolved
/// against the page URL). Dereferences to [`Document`].
#[derive(Clone)]
pub struct LazyDocument {
    text: Arc<String>,
    base: Url,
    doc: OnceLock<Document>,
}

impl LazyDocument {
    /// A document to be parsed from `text`, resolving links against `base`.
    pub fn new(text: Arc<String>, base: Url) -> LazyDocument {
        LazyDocument {
            text,
            base,
            doc: OnceLock::new(),
        }
    }
    /// The lines one at a time, without building the document.
    pub fn views(&self) -> gemtext::Views<'_> {
        gemtext::views(&self.text, gemtext::ParseState::default())
    }
    /// The URL relative links resolve against.
    pub fn base(&self) -> &Url {
        &self.base
    }
    /// True once the whole document has been built.
    pub fn is_parsed(&self) -> bool {
        self.doc.get().is_some()
    }
    /// True when the document is parsed from exactly `body`'s text (the same memory), so its
    /// lines are the body's lines.
    pub fn is_of(&self, body: &Body) -> bool {
        std::ptr::eq(self.text.as_str(), body.text())
    }
}

impl std::ops::Deref for LazyDocument {
    type Target = Document;
    fn deref(&self) -> &Document {
        self.doc
            .get_or_init(|| gemtext::parse(&self.text, Some(&self.base)))
    }
}

impl std::fmt::Debug for LazyDocument {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LazyDocument")
            .field("base", &self.base)
            .field("bytes", &self.text.len())
            .field("parsed", &self.is_parsed())
            .finish()
    }
}

/// A Gopher menu parsed from the page's text on first dereference. Dereferences to the
/// item list.
/// A menu that came over TLS (gophers://) keeps its items on the same host and port on TLS:
/// their `next_url` is gophers://, never a silent step down to plain gopher://.
#[derive(Clone)]
pub struct LazyMenu {
    text: Arc<String>,
    items: OnceLock<Vec<MenuItem>>,
    tls_origin: Option<(String, u16)>,
}

impl LazyMenu {
    /// A menu to be parsed from `text`.
    pub fn new(text: Arc<String>) -> LazyMenu {
        LazyMenu {
            text,
            items: OnceLock::new(),
            tls_origin: None,
        }
    }
    /// A menu fetched over TLS from `host:port` (see the type's docs).
    pub(crate) fn over_tls(text: Arc<String>, host: &str, port: u16) -> LazyMenu {
        LazyMenu {
            tls_origin: Some((host.to_string(), port)),
            ..LazyMenu::new(text)
        }
    }
    /// The items one at a time, without building the list.
    pub fn stream(&self) -> impl Iterator<Item = MenuItem> + '_ {
        gopher::menu_items(&self.text).map(|item| self.on_tls(item))
    }
    fn on_tls(&self, mut item: MenuItem) -> MenuItem {
        if let Some((host, port)) = &self.tls_origin
            && item.port == *port
            && crate::url::normalize_host(&item.host).is_ok_and(|h| h == *host)
            && let Some(rest) = item.next_url.strip_prefix("gopher://")
        {
            item.next_url = format!("gophers://{rest}");
        }
        item
    }
    /// True once the whole list has been built.
    pub fn is_parsed(&self) -> bool {
        self.items.get().is_some()
    }
}

impl std::ops::Deref for LazyMenu {
    type Target = Vec<MenuItem>;
    fn deref(&self) -> &Vec<MenuItem> {
        self.items.get_or_init(|| self.stream().collect())
    }
}

impl std::fmt::Debug for LazyMenu {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LazyMenu")
            .field("bytes", &self.text.len())
            .field("parsed", &self.is_parsed())
            .finish()
    }
}

/// MIME of a Gopher text item.
fn text_mime(item_type: char) -> &'static str {
    match item_type {
        'h' => "text/html",
        'c' => "text/calendar",
        'X' => "text/xml",
        'r' => "text/rtf",
        _ => "text/plain",
    }
}

/// MIME of a Gopher binary item: magic bytes first, then what the item type promises.
fn binary_mime(item_type: char, raw: &[u8]) -> &'static str {
    match (gopher::sniff_mime(raw), item_type) {
        ("application/octet-stream", 'g') => "image/gif",
        ("application/octet-stream", 'p') => "image/png",
        ("application/octet-stream", 'P') => "application/pdf",
        ("application/octet-stream", '4') => "application/mac-binhex40",
        ("application/octet-stream", '6') => "text/x-uuencode",
        ("application/octet-stream", 'M') => "multipart/mixed",
        (sniffed, _) => sniffed,
    }
}

/// No known magic, and no control bytes other than TAB/LF/CR/FF/ESC in the first 4 KiB.
fn looks_like_text(raw: &[u8]) -> bool {
    if gopher::sniff_mime(raw) != "application/octet-stream" {
        return false;
    }
    let head = &raw[..raw.len().min(4096)];
    !head
        .iter()
        .any(|&b| b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r' | 0x0C | 0x1B))
}

#[cfg(test)]
mod tests;
