//! The decoded page that both faces render: what was fetched, how it decoded, and its parsed
//! content. Built once per fetched body; windows and screens are views over it.
//!
//! Text is decoded without losing bytes (see [`gopher::decode_as`]); binary pages keep an empty
//! body and their bytes in `raw`, which every page keeps as received.

use crate::core::gemtext::{self, Document};
use crate::core::gopher::{self, Charset, MenuItem};
use crate::core::response::Mime;
use crate::core::url::Url;
use crate::core::window::Body;

#[derive(Clone, Debug)]
pub enum Content {
    /// text/gemini: the whole body parsed.
    Gemtext(Document),
    /// Any other text (text/plain, gopher type 0, ...).
    Text,
    /// A gopher menu (type 1 or 7 answers).
    Menu(Vec<MenuItem>),
    /// Not text: the raw bytes are kept in [`Page::raw`], never rendered.
    Binary,
}

#[derive(Clone, Debug)]
pub struct Page {
    /// The URL this page answers (after any redirect the caller followed).
    pub url: Url,
    /// Gemini: the parsed meta; Gopher: guessed from the item type or magic bytes.
    pub mime: Mime,
    /// How text was decoded (None for binary).
    pub charset: Option<Charset>,
    /// Gemini `lang` parameter, when given.
    pub lang: Option<String>,
    /// Decoded text (empty for binary).
    pub body: Body,
    /// The bytes as received (kept for binary pages, saving and `--raw`).
    pub raw: Vec<u8>,
    pub content: Content,
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
        let declared = mime.charset.as_deref().unwrap_or("utf-8");
        let (text, charset) = gopher::decode_as(&raw, declared);
        let content = if mime.is_gemtext() {
            Content::Gemtext(gemtext::parse(&text, Some(&url)))
        } else {
            Content::Text
        };
        Page {
            url,
            mime,
            charset: Some(charset),
            lang,
            body: Body::new(text),
            raw,
            content,
        }
    }

    /// Build a page from a Gopher answer for an item type (menus parsed, text undotted,
    /// binaries sniffed). Unknown types are text when the bytes carry no known magic and
    /// decode to text without stray control bytes, else binary.
    pub fn from_gopher(url: Url, item_type: char, raw: Vec<u8>) -> Page {
        if matches!(item_type, '1' | '7') {
            let (text, charset) = gopher::decode(&raw);
            let items = gopher::parse_menu(&text);
            return Page::text(url, mime_of("text/x-gopher-menu"), charset, text, raw)
                .with_content(Content::Menu(items));
        }
        let text_like = gopher::is_text_type(item_type)
            || (!gopher::is_binary_type(item_type) && looks_like_text(&raw));
        if !text_like {
            let mime = mime_of(binary_mime(item_type, &raw));
            return Page::binary(url, mime, None, raw);
        }
        let (text, charset) = gopher::decode(&raw);
        let text = if item_type == 'h' {
            text
        } else {
            gopher::undot_text(&text)
        };
        Page::text(url, mime_of(text_mime(item_type)), charset, text, raw)
    }

    /// A built-in page (about:...), gemtext.
    pub fn builtin(url: Url, gemtext: &str) -> Page {
        let mut mime = mime_of("text/gemini");
        mime.charset = Some("utf-8".into());
        Page::from_gemini(url, mime, gemtext.as_bytes().to_vec())
    }

    pub fn title(&self) -> Option<&str> {
        match &self.content {
            Content::Gemtext(doc) => doc.title(),
            _ => None,
        }
    }

    pub fn size(&self) -> usize {
        self.raw.len()
    }

    fn binary(url: Url, mime: Mime, lang: Option<String>, raw: Vec<u8>) -> Page {
        Page {
            url,
            mime,
            charset: None,
            lang,
            body: Body::default(),
            raw,
            content: Content::Binary,
        }
    }

    fn text(url: Url, mut mime: Mime, charset: Charset, text: String, raw: Vec<u8>) -> Page {
        mime.charset = Some(charset.as_str().to_string());
        Page {
            url,
            mime,
            charset: Some(charset),
            lang: None,
            body: Body::new(text),
            raw,
            content: Content::Text,
        }
    }

    fn with_content(mut self, content: Content) -> Page {
        self.content = content;
        self
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
