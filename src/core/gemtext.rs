//! Gemtext (text/gemini) parsing into a document of typed lines.
//!
//! Infallible and linear: every input produces a document. Lines end at LF, CRLF or CR. A `=>`
//! line without a URL is text. ``` toggles preformatted mode; the fence line itself is a
//! `Preformat` line carrying its alt text (opening fence only) and a language guessed from it.
//! A final line without a line ending counts; a trailing line ending adds no empty line, so the
//! `content` of all lines joined with "\n" is the body with its line endings made LF (minus one
//! final LF). Headings, list items and quotes carry `text` (marker stripped, trimmed); other
//! kinds carry `text: None` to save an allocation per line.

use crate::core::url::Url;

mod lang;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LineKind {
    Text,
    Link,
    Heading1,
    Heading2,
    Heading3,
    List,
    Quote,
    /// A line inside a preformatted block, or a fence line (see [`Line::fence`]).
    Preformat,
}

impl LineKind {
    /// The MCP contract name: text|link|heading1|heading2|heading3|list|quote|preformat.
    pub fn as_str(self) -> &'static str {
        match self {
            LineKind::Text => "text",
            LineKind::Link => "link",
            LineKind::Heading1 => "heading1",
            LineKind::Heading2 => "heading2",
            LineKind::Heading3 => "heading3",
            LineKind::List => "list",
            LineKind::Quote => "quote",
            LineKind::Preformat => "preformat",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Link {
    /// Absolute, resolved against the page URL (may be another scheme: https:, mailto:, ...).
    /// When resolution fails the reference is kept as written.
    pub url: String,
    /// The label, or None when the line has none.
    pub text: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fence {
    /// True for the fence that opens a block, false for the closing one.
    pub opening: bool,
    /// Alt text after the ``` (opening fence only; None if empty).
    pub alt_text: Option<String>,
    /// Language recognised from the alt text (e.g. "rust", "python"), opening fence only.
    pub language: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    pub kind: LineKind,
    /// The line as sent, marker included, without its line ending.
    pub content: String,
    /// Marker stripped and trimmed (headings, list items, quotes); None otherwise.
    pub text: Option<String>,
    /// Set for Link lines.
    pub link: Option<Link>,
    /// Set for fence lines (``` lines) only.
    pub fence: Option<Fence>,
}

impl Line {
    /// Heading level 1-3 for heading lines.
    pub fn level(&self) -> Option<u8> {
        match self.kind {
            LineKind::Heading1 => Some(1),
            LineKind::Heading2 => Some(2),
            LineKind::Heading3 => Some(3),
            _ => None,
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Document {
    pub lines: Vec<Line>,
}

impl Document {
    /// All links of the document, in order.
    pub fn links(&self) -> impl Iterator<Item = &Link> {
        self.lines.iter().filter_map(|l| l.link.as_ref())
    }

    /// The first level-1 heading's text, if any (a page title).
    pub fn title(&self) -> Option<&str> {
        self.lines
            .iter()
            .find(|l| l.kind == LineKind::Heading1)
            .and_then(|l| l.text.as_deref())
    }
}

/// Parser state carried across a window cut.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ParseState {
    /// True when the text starts inside a preformatted block.
    pub in_preformat: bool,
}

/// Parse a gemtext body. `base` resolves relative links (None keeps them as written).
pub fn parse(body: &str, base: Option<&Url>) -> Document {
    parse_with_state(body, base, ParseState::default()).0
}

/// Parse starting from a given state; returns the document and the state at the end.
pub fn parse_with_state(
    body: &str,
    base: Option<&Url>,
    state: ParseState,
) -> (Document, ParseState) {
    let mut lines = Vec::with_capacity(line_count_hint(body));
    let mut in_preformat = state.in_preformat;
    for line in Lines::new(body) {
        let parsed = if in_preformat {
            preformat_line(line)
        } else {
            normal_line(line, base)
        };
        if parsed.fence.is_some() {
            in_preformat = !in_preformat;
        }
        lines.push(parsed);
    }
    (Document { lines }, ParseState { in_preformat })
}

/// An upper bound on the number of lines for LF or CRLF bodies (a capacity hint only).
fn line_count_hint(body: &str) -> usize {
    body.bytes().filter(|&b| b == b'\n').count() + 1
}

/// Lines of a body, split at LF, CRLF or a lone CR; a trailing line ending adds no empty line.
struct Lines<'a> {
    rest: &'a str,
}

impl<'a> Lines<'a> {
    fn new(body: &'a str) -> Self {
        Lines { rest: body }
    }
}

impl<'a> Iterator for Lines<'a> {
    type Item = &'a str;
    fn next(&mut self) -> Option<&'a str> {
        if self.rest.is_empty() {
            return None;
        }
        let bytes = self.rest.as_bytes();
        let Some(end) = bytes.iter().position(|&b| b == b'\n' || b == b'\r') else {
            return Some(std::mem::take(&mut self.rest));
        };
        let skip = if bytes[end] == b'\r' && bytes.get(end + 1) == Some(&b'\n') {
            2
        } else {
            1
        };
        let line = &self.rest[..end];
        self.rest = &self.rest[end + skip..];
        Some(line)
    }
}

fn plain(kind: LineKind, line: &str, text: Option<String>) -> Line {
    Line {
        kind,
        content: line.to_string(),
        text,
        link: None,
        fence: None,
    }
}

fn preformat_line(line: &str) -> Line {
    let mut parsed = plain(LineKind::Preformat, line, None);
    if line.starts_with("```") {
        parsed.fence = Some(Fence {
            opening: false,
            alt_text: None,
            language: None,
        });
    }
    parsed
}

fn normal_line(line: &str, base: Option<&Url>) -> Line {
    let b = line.as_bytes();
    let rest_trimmed = |n: usize| Some(line[n..].trim().to_string());
    match b {
        [b'`', b'`', b'`', ..] => opening_fence(line),
        [b'=', b'>', ..] => link_line(line, base),
        [b'#', b'#', b'#', ..] => plain(LineKind::Heading3, line, rest_trimmed(3)),
        [b'#', b'#', ..] => plain(LineKind::Heading2, line, rest_trimmed(2)),
        [b'#', ..] => plain(LineKind::Heading1, line, rest_trimmed(1)),
        [b'*', b' ', ..] => plain(LineKind::List, line, rest_trimmed(2)),
        [b'>', ..] => plain(LineKind::Quote, line, rest_trimmed(1)),
        _ => plain(LineKind::Text, line, None),
    }
}

fn opening_fence(line: &str) -> Line {
    let alt = line[3..].trim();
    let mut parsed = plain(LineKind::Preformat, line, None);
    parsed.fence = Some(Fence {
        opening: true,
        alt_text: (!alt.is_empty()).then(|| alt.to_string()),
        language: lang::guess(alt).map(str::to_string),
    });
    parsed
}

/// `=>[ws]URL[ws label]`; without a URL the line is text.
fn link_line(line: &str, base: Option<&Url>) -> Line {
    let rest = line[2..].trim_start_matches(is_gemtext_space);
    let url_end = rest.find(is_gemtext_space).unwrap_or(rest.len());
    let (url, label) = rest.split_at(url_end);
    if url.is_empty() {
        return plain(LineKind::Text, line, None);
    }
    let label = label.trim();
    let resolved = match base {
        Some(b) => b.resolve(url).unwrap_or_else(|_| url.to_string()),
        None => url.to_string(),
    };
    let mut parsed = plain(LineKind::Link, line, None);
    parsed.link = Some(Link {
        url: resolved,
        text: (!label.is_empty()).then(|| label.to_string()),
    });
    parsed
}

/// Whitespace between link parts: ASCII space and tab (and the other ASCII blanks).
fn is_gemtext_space(c: char) -> bool {
    c.is_ascii_whitespace()
}

#[cfg(test)]
mod tests;
