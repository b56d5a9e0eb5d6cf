//! What a web body is and how its text is given (pure): the kind a Content-Type and the first
//! bytes name ([`classify`]), JSON re-indented without being rewritten ([`pretty_json`]), and
//! the words every face uses to say what it shows ([`Shown`]).
//!
//! Rules:
//! - A body that starts with `%PDF-` is a PDF whatever its Content-Type says; otherwise the
//!   type decides: HTML and XHTML are converted; `text/markdown` and every other textual type
//!   (`text/*`, JSON and `+json`, XML and `+xml`, and the usual script, CSV, TOML and YAML
//!   types) are given as sent, only decoded from their charset (and, for agents, cleaned of
//!   invisible characters like every web text); JSON is re-indented when it parses. An
//!   untyped body is sniffed: HTML when it opens like HTML, text when it has no control bytes.
//! - RSS and Atom documents are XML like any other here: `feed_fetch` and the browser's
//!   feeds read them as feeds.
//! - Type parameters (`charset`, `profile`, ...) never change the kind.

use crate::html::{Extraction, Reading};
use crate::pdf::pages_words;

/// What a web body is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BodyKind {
    /// HTML or XHTML.
    Html,
    /// Markdown, given as sent.
    Markdown,
    /// Any other text, given as sent.
    Text,
    /// `pretty`: re-indented (false when given as sent: it did not parse, or `raw` asked).
    Json {
        /// True when the JSON was re-indented.
        pretty: bool,
    },
    /// XML (`application/xml`, `text/xml`, `+xml` types), given as sent.
    Xml,
    /// `pages` once read.
    Pdf {
        /// The PDF's page count (0 until it is read).
        pages: usize,
    },
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
pub fn charset_param(content_type: Option<&str>) -> Option<String> {
    content_type?.split(';').skip(1).find_map(|p| {
        let (k, v) = p.split_once('=')?;
        k.trim()
            .eq_ignore_ascii_case("charset")
            .then(|| v.trim().trim_matches('"').to_string())
    })
}

/// The kind of a body sent with this Content-Type (None: not text, and not a PDF).
pub fn classify(content_type: Option<&str>, body: &[u8]) -> Option<BodyKind> {
    if crate::pdf::is_pdf(body) {
        return Some(BodyKind::Pdf { pages: 0 });
    }
    let e = essence(content_type);
    let e = e.as_str();
    match e {
        "text/html" | "application/xhtml+xml" => Some(BodyKind::Html),
        "text/markdown" | "text/x-markdown" => Some(BodyKind::Markdown),
        "" => sniff(body),
        "application/json" | "text/json" => Some(BodyKind::Json { pretty: false }),
        _ if e.starts_with("application/") && e.ends_with("+json") => {
            Some(BodyKind::Json { pretty: false })
        }
        "application/xml" | "text/xml" => Some(BodyKind::Xml),
        _ if e.starts_with("application/") && e.ends_with("+xml") => Some(BodyKind::Xml),
        _ if e.starts_with("text/") => Some(BodyKind::Text),
        "application/javascript"
        | "application/ecmascript"
        | "application/x-ndjson"
        | "application/csv"
        | "application/toml"
        | "application/yaml"
        | "application/x-yaml" => Some(BodyKind::Text),
        _ => None,
    }
}

/// An untyped body: HTML when it opens like HTML, text when it has no control bytes.
fn sniff(body: &[u8]) -> Option<BodyKind> {
    let head = &body[..body.len().min(1024)];
    let lower = String::from_utf8_lossy(head)
        .trim_start()
        .to_ascii_lowercase();
    if lower.starts_with("<!doctype html") || lower.starts_with("<html") {
        return Some(BodyKind::Html);
    }
    let binary = head
        .iter()
        .any(|&b| b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r' | 0x0C));
    (!binary).then_some(BodyKind::Text)
}

/// Deepest nesting [`pretty_json`] indents (deeper JSON is given as sent: indenting it would
/// grow the text with the square of its depth).
pub(crate) const MAX_PRETTY_DEPTH: usize = 64;

/// JSON re-indented by two spaces, every token kept as written (numbers, escapes and key
/// order are not rewritten); None when `text` is not one valid JSON value or nests deeper
/// than [`MAX_PRETTY_DEPTH`].
pub fn pretty_json(text: &str) -> Option<String> {
    serde_json::from_str::<serde::de::IgnoredAny>(text).ok()?;
    let mut out = String::with_capacity(text.len() + text.len() / 4);
    let mut depth = 0usize;
    let mut chars = text.chars().peekable();
    let newline = |out: &mut String, depth: usize| {
        out.push('\n');
        for _ in 0..depth {
            out.push_str("  ");
        }
    };
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                out.push('"');
                while let Some(s) = chars.next() {
                    out.push(s);
                    match s {
                        '\\' => {
                            if let Some(e) = chars.next() {
                                out.push(e);
                            }
                        }
                        '"' => break,
                        _ => {}
                    }
                }
            }
            '{' | '[' => {
                out.push(c);
                let close = if c == '{' { '}' } else { ']' };
                while chars.peek().is_some_and(|p| p.is_ascii_whitespace()) {
                    chars.next();
                }
                if chars.peek() == Some(&close) {
                    chars.next();
                    out.push(close);
                } else {
                    depth += 1;
                    if depth > MAX_PRETTY_DEPTH {
                        return None;
                    }
                    newline(&mut out, depth);
                }
            }
            '}' | ']' => {
                depth = depth.saturating_sub(1);
                newline(&mut out, depth);
                out.push(c);
            }
            ',' => {
                out.push(',');
                newline(&mut out, depth);
            }
            ':' => out.push_str(": "),
            c if c.is_ascii_whitespace() => {}
            c => out.push(c),
        }
    }
    out.push('\n');
    Some(out)
}

/// What a face shows of a web page: the kind of body and, for HTML, which part was kept and
/// what the page is (its type and the extraction's quality figure).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shown {
    /// What the body is.
    pub kind: BodyKind,
    /// Which part of an HTML page was kept (`Extraction::None` when nothing was converted).
    pub extraction: Extraction,
    /// A converted HTML page: its type and quality figure (None when nothing was converted).
    pub reading: Option<Reading>,
}

impl Shown {
    /// The article was looked for and not found: the whole page is shown instead.
    pub fn is_fallback(&self) -> bool {
        self.extraction == Extraction::FallbackFull
    }

    /// Is there a main content / full page choice for this body (HTML only)?
    pub fn has_article_view(&self) -> bool {
        self.kind == BodyKind::Html
    }

    /// A few words for a status line: "main", "full", "full (no article found)",
    /// "JSON", "PDF, 3 pages".
    pub fn short(&self) -> String {
        match (self.kind, self.extraction) {
            (BodyKind::Html, Extraction::Main) => "main".into(),
            (BodyKind::Html, Extraction::FallbackFull) => "full (no article found)".into(),
            (BodyKind::Html, _) => "full".into(),
            (BodyKind::Markdown, _) => "markdown".into(),
            (BodyKind::Text, _) => "text".into(),
            (BodyKind::Json { .. }, _) => "JSON".into(),
            (BodyKind::Xml, _) => "XML".into(),
            (BodyKind::Pdf { pages }, _) => format!("PDF, {}", pages_words(pages)),
        }
    }

    /// What the text is, in a phrase: "main content", "full page, no article found",
    /// "JSON, pretty-printed", "the text of a PDF (3 pages)".
    pub fn describe(&self) -> String {
        match (self.kind, self.extraction) {
            (BodyKind::Html, Extraction::Main) => "main content".into(),
            (BodyKind::Html, Extraction::FallbackFull) => "full page, no article found".into(),
            (BodyKind::Html, _) => "full page".into(),
            (BodyKind::Markdown, _) => "markdown, as sent".into(),
            (BodyKind::Text, _) => "text, as sent".into(),
            (BodyKind::Json { pretty: true }, _) => "JSON, pretty-printed".into(),
            (BodyKind::Json { pretty: false }, _) => "JSON, as sent".into(),
            (BodyKind::Xml, _) => "XML, as sent".into(),
            (BodyKind::Pdf { pages }, _) => {
                format!("the text of a PDF ({})", pages_words(pages))
            }
        }
    }
}

#[cfg(test)]
mod tests;
