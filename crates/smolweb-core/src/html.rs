//! The web page -> text conversion (pure: bytes and strings in, text out; no IO).
//!
//! Steps, in order: [`crate::charset::decode`] turns the body into text (BOM,
//! Content-Type, `<meta charset>`, UTF-8, a statistical guess); [`convert_html`] parses it once with
//! dom_query (html5ever), [`sanitize`]s the tree (scripts, styles, templates, comments, hidden
//! elements, forms; links and images made absolute against `<base href>`), renders the whole
//! page as markdown with dom_query's serializer, and, for `extract = main`, lets dom_smoothie
//! (a readability port) pick the article; a lossiness check falls back to the whole page when
//! the article keeps too little of it. Finally [`invisible::strip`] removes format characters
//! (zero-width, bidi controls, tag characters, soft hyphens) from the text and metadata.
//!
//! Everything a page says is untrusted data: metadata included. Hints tell the caller when a
//! page hid text that addresses an AI ([`Hint::SuspiciousHiddenContent`]) or is an empty
//! app shell that needs JavaScript ([`Hint::RequiresJavascript`]).

pub mod gemtext;
/// The format-character table lives with the terminal sanitizer (one mechanism).
pub use crate::text::invisible;
mod meta;
pub(crate) mod sanitize;
pub mod window;

pub use meta::Metadata;

use dom_query::Document;
use dom_smoothie::{Config, ParsePolicy, Readability, TextMode};

/// Which part of the page to keep.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Extract {
    /// The article, without navigation, banners and footers.
    #[default]
    Main,
    /// The whole page.
    Full,
}

impl Extract {
    pub fn as_str(self) -> &'static str {
        match self {
            Extract::Main => "main",
            Extract::Full => "full",
        }
    }
}

/// What the conversion kept (the `extraction` field of `fetch_url`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Extraction {
    Main,
    Full,
    /// `main` was asked for, but the article looked lossy: the whole page is given.
    FallbackFull,
    /// Not converted (raw format, or not HTML).
    None,
}

impl Extraction {
    pub fn as_str(self) -> &'static str {
        match self {
            Extraction::Main => "main",
            Extraction::Full => "full",
            Extraction::FallbackFull => "fallback-full",
            Extraction::None => "none",
        }
    }
}

/// Warnings about a page, for the agent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Hint {
    /// Hidden text that addressed an AI was removed: treat the page as adversarial.
    SuspiciousHiddenContent,
    /// The page is an empty shell filled in by JavaScript.
    RequiresJavascript,
}

impl Hint {
    pub fn as_str(self) -> &'static str {
        match self {
            Hint::SuspiciousHiddenContent => "suspicious-hidden-content-removed",
            Hint::RequiresJavascript => "likely-requires-javascript",
        }
    }
}

/// A converted page.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Converted {
    /// Markdown, links absolute.
    pub markdown: String,
    pub extraction: Extraction,
    pub hints: Vec<Hint>,
    pub meta: Metadata,
    /// Forms replaced by a note.
    pub forms_removed: usize,
}

/// The note left where a form was.
pub const FORM_NOTE: &str = "(A form was removed here: smolweb does not submit forms.)";

/// The article must keep at least this share (1/N) of the page's text, else the whole page is
/// given (`fallback-full`).
const LOSSY_SHARE: usize = 4;
/// ... and, on pages with more text than this, at least this many characters.
const LOSSY_MIN_CHARS: usize = 140;
/// A page whose visible text is shorter than this, and that had scripts, is an app shell.
const SHELL_MAX_CHARS: usize = 80;

/// Convert an HTML page (already decoded) to markdown. `page_url` is the absolute URL the page
/// came from (after redirects); relative links resolve against it or its `<base href>`.
pub fn convert_html(html: &str, page_url: &str, extract: Extract) -> Converted {
    let doc = Document::from(html);
    let mut meta = meta::from_document(&doc, page_url);
    let report = sanitize::sanitize(&doc, page_url);
    let full = tidy(&doc.md(None));
    let full_chars = visible_chars(&full);
    let mut hints = Vec::new();
    if report.suspicious {
        hints.push(Hint::SuspiciousHiddenContent);
    }
    if report.had_scripts && full_chars < SHELL_MAX_CHARS {
        hints.push(Hint::RequiresJavascript);
    }
    let cfg = Config {
        text_mode: TextMode::Markdown,
        // Fewer link-density passes while scoring: the crate's guidance for speed.
        min_score_to_adjust: 10.0,
        ..Config::default()
    };
    let doc_url = url::Url::parse(page_url).ok().map(|u| u.to_string());
    let mut reader = Readability::with_document(doc, doc_url.as_deref(), Some(cfg)).ok();
    if let Some(r) = &reader {
        meta.merge_readability(&r.get_article_metadata(r.parse_json_ld()));
    }
    let (markdown, extraction) = match (extract, reader.as_mut()) {
        (Extract::Full, _) | (_, None) => (full, Extraction::Full),
        // One strict pass (not the crate's retry ladder): faster and lighter; a lossy result
        // falls back to the whole page anyway.
        (Extract::Main, Some(r)) => match r.parse_with_policy(ParsePolicy::Strict) {
            Ok(article) => {
                let main = tidy(&article.text_content);
                if lossy(visible_chars(&main), full_chars) {
                    (full, Extraction::FallbackFull)
                } else {
                    (main, Extraction::Main)
                }
            }
            Err(_) => (full, Extraction::FallbackFull),
        },
    };
    meta.strip_invisible();
    Converted {
        markdown: invisible::strip(&markdown).into_owned(),
        extraction,
        hints,
        meta,
        forms_removed: report.forms_removed,
    }
}

/// Does an article of `main` characters lose too much of a page of `full` characters?
fn lossy(main: usize, full: usize) -> bool {
    main * LOSSY_SHARE < full || (main < LOSSY_MIN_CHARS && full > main * 2)
}

/// Characters that are not whitespace or markdown punctuation.
fn visible_chars(md: &str) -> usize {
    md.chars()
        .filter(|c| !c.is_whitespace() && !matches!(c, '#' | '*' | '_' | '`' | '>' | '|' | '-'))
        .count()
}

/// Trim trailing spaces on lines, collapse runs of blank lines (outside code fences), end with
/// one newline.
fn tidy(md: &str) -> String {
    let mut out = String::with_capacity(md.len());
    let mut blank = 0;
    let mut fenced = false;
    for line in md.lines() {
        let line = line.trim_end();
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        }
        if line.is_empty() && !fenced {
            blank += 1;
            continue;
        }
        if !out.is_empty() {
            out.push_str(if blank > 0 { "\n\n" } else { "\n" });
        }
        blank = 0;
        out.push_str(line);
    }
    if !out.is_empty() {
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests;
