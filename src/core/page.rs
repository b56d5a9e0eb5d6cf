//! The decoded page that both faces render: what was fetched, how it decoded, and its parsed
//! content. Built once per fetched body; windows and screens are views over it.

use crate::core::gemtext::Document;
use crate::core::gopher::{Charset, MenuItem};
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

impl Page {
    /// Build a page from a Gemini 2x answer: decode per charset (default utf-8), parse gemtext.
    pub fn from_gemini(url: Url, mime: Mime, raw: Vec<u8>) -> Page {
        let lang = mime.lang.clone();
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

    /// Build a page from a Gopher answer for an item type (menus parsed, text undotted,
    /// binaries sniffed).
    pub fn from_gopher(url: Url, item_type: char, raw: Vec<u8>) -> Page {
        let _ = item_type;
        Page {
            url,
            mime: crate::core::response::parse_mime("application/octet-stream"),
            charset: None,
            lang: None,
            body: Body::default(),
            raw,
            content: Content::Binary,
        }
    }

    /// A built-in page (about:...), gemtext.
    pub fn builtin(url: Url, gemtext: &str) -> Page {
        let _ = gemtext;
        Page::from_gemini(url, crate::core::response::parse_mime(""), Vec::new())
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
}
