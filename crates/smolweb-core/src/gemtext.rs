//! Gemtext (text/gemini) parsing into a document of typed lines.
//!
//! Infallible and linear: every input produces a document. Lines end at LF, CRLF or CR. A `=>`
//! line without a URL is text. ``` toggles preformatted mode; the fence line itself is a
//! `Preformat` line carrying its alt text (opening fence only) and a language guessed from it.
//! A final line without a line ending counts; a trailing line ending adds no empty line, so the
//! `content` of all lines joined with "\n" is the body with its line endings made LF (minus one
//! final LF). Headings, list items and quotes carry `text` (marker stripped, trimmed); other
//! kinds carry `text: None` to save an allocation per line.

use crate::url::Url;

mod lang;

/// What kind of gemtext line a line is. Serialized as [`LineKind::as_str`] (the MCP
/// contract's `type` of a line).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum LineKind {
    /// A plain text line (also a `=>` line without a URL).
    Text,
    /// A link line (`=>`).
    Link,
    /// A level-1 heading (`#`).
    Heading1,
    /// A level-2 heading (`##`).
    Heading2,
    /// A level-3 heading (`###`).
    Heading3,
    /// A list item (`* `).
    List,
    /// A quote line (`>`).
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

/// A link of a link line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Link {
    /// Absolute, resolved against the page URL (may be another scheme: https:, mailto:, ...).
    /// When resolution fails the reference is kept as written.
    pub url: String,
    /// The label, or None when the line has none.
    pub text: Option<String>,
}

impl Link {
    /// What the link is to smolweb (the one rule, [`crate::url::destination`]): a
    /// refused link is shown as text with its scheme, never numbered or followed.
    pub fn destination(&self) -> crate::url::Destination {
        crate::url::destination(&self.url)
    }
    /// The scheme of a refused link (see [`crate::url::refused_scheme`]).
    pub fn refused_scheme(&self) -> Option<String> {
        crate::url::refused_scheme(&self.url)
    }
}

/// What a fence line (one that starts with three backticks) carries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fence {
    /// True for the fence that opens a block, false for the closing one.
    pub opening: bool,
    /// Alt text after the ``` (opening fence only; None if empty).
    pub alt_text: Option<String>,
    /// Language recognised from the alt text (e.g. "rust", "python"), opening fence only.
    pub language: Option<String>,
}

/// One line of a gemtext document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// What kind of line this is.
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

/// A parsed gemtext document: its lines in order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Document {
    /// Every line of the body, in order.
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
    pub(crate) in_preformat: bool,
}

/// A parsed line that borrows from the body: what [`Line`] holds, without allocating. Links
/// keep their URL as written (resolve with [`LineView::resolved_url`]); fences carry their
/// alt text but no guessed language. [`views`] yields these for streaming renderers that
/// must not hold a whole document (`smolweb get` of a very large page).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineView<'a> {
    /// What kind of line this is.
    pub kind: LineKind,
    /// The line as sent, marker included, without its line ending.
    pub content: &'a str,
    /// Marker stripped and trimmed (headings, list items, quotes); None otherwise.
    pub text: Option<&'a str>,
    /// Link lines: the URL as written and the label (None when the line has none).
    pub link: Option<(&'a str, Option<&'a str>)>,
    /// Fence lines: whether it opens a block, and the alt text of an opening fence.
    pub(crate) fence: Option<(bool, Option<&'a str>)>,
}

impl<'a> LineView<'a> {
    /// The link URL resolved against `base` (kept as written when resolution fails or there
    /// is no base); None for lines that are not links.
    pub fn resolved_url(&self, base: Option<&Url>) -> Option<String> {
        let (url, _) = self.link?;
        Some(match base {
            Some(b) => b.resolve(url).unwrap_or_else(|_| url.to_string()),
            None => url.to_string(),
        })
    }

    /// The owned line, links resolved against `base`.
    pub fn to_line(&self, base: Option<&Url>) -> Line {
        Line {
            kind: self.kind,
            content: self.content.to_string(),
            text: self.text.map(str::to_string),
            link: self.link.map(|(_, label)| Link {
                url: self.resolved_url(base).unwrap_or_default(),
                text: label.map(str::to_string),
            }),
            fence: self.fence.map(|(opening, alt)| Fence {
                opening,
                alt_text: alt.map(str::to_string),
                language: alt.and_then(lang::guess).map(str::to_string),
            }),
        }
    }
}

/// Borrowed lines of a body, parsed one at a time (see [`LineView`]).
pub struct Views<'a> {
    lines: Lines<'a>,
    in_preformat: bool,
}

impl Views<'_> {
    /// The parser state after the lines yielded so far.
    pub fn state(&self) -> ParseState {
        ParseState {
            in_preformat: self.in_preformat,
        }
    }
}

impl<'a> Iterator for Views<'a> {
    type Item = LineView<'a>;
    fn next(&mut self) -> Option<LineView<'a>> {
        let line = self.lines.next()?;
        let view = if self.in_preformat {
            preformat_line(line)
        } else {
            normal_line(line)
        };
        if view.fence.is_some() {
            self.in_preformat = !self.in_preformat;
        }
        Some(view)
    }
}

/// A Spartan prompt line, `=: URL [label]` (text elsewhere; only a page served over Spartan
/// reads it as a link whose answer is sent as the request's data block): its target and label.
pub fn spartan_prompt(line: &str) -> Option<(&str, &str)> {
    let rest = line.strip_prefix("=:")?.trim();
    let (url, label) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
    (!url.is_empty()).then(|| (url, label.trim()))
}

/// Parse a body lazily, one borrowed line at a time, starting from `state`.
pub fn views(body: &str, state: ParseState) -> Views<'_> {
    Views {
        lines: Lines::new(body),
        in_preformat: state.in_preformat,
    }
}

/// Parse a gemtext body. `base` resolves relative links (None keeps them as written).
pub fn parse(body: &str, base: Option<&Url>) -> Document {
    parse_with_state(body, base, ParseState::default()).0
}

/// Parse starting from a given state; returns the document and the state at the end.
pub(crate) fn parse_with_state(
    body: &str,
    base: Option<&Url>,
    state: ParseState,
) -> (Document, ParseState) {
    let mut lines = Vec::with_capacity(line_count_hint(body));
    let mut it = views(body, state);
    for view in it.by_ref() {
        lines.push(view.to_line(base));
    }
    (Document { lines }, it.state())
}

/// The first level-1 heading's text, found without building a document.
pub(crate) fn first_heading(body: &str) -> Option<&str> {
    views(body, ParseState::default())
        .find(|v| v.kind == LineKind::Heading1)
        .and_then(|v| v.text)
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

fn plain<'a>(kind: LineKind, line: &'a str, text: Option<&'a str>) -> LineView<'a> {
    LineView {
        kind,
        content: line,
        text,
        link: None,
        fence: None,
    }
}

fn preformat_line(line: &str) -> LineView<'_> {
    let mut parsed = plain(LineKind::Preformat, line, None);
    if line.starts_with("```") {
        parsed.fence = Some((false, None));
    }
    parsed
}

fn normal_line(line: &str) -> LineView<'_> {
    let b = line.as_bytes();
    let rest_trimmed = |n: usize| Some(line[n..].trim());
    match b {
        [b'`', b'`', b'`', ..] => {
            let alt = line[3..].trim();
            let mut parsed = plain(LineKind::Preformat, line, None);
            parsed.fence = Some((true, (!alt.is_empty()).then_some(alt)));
            parsed
        }
        [b'=', b'>', ..] => link_line(line),
        [b'#', b'#', b'#', ..] => plain(LineKind::Heading3, line, rest_trimmed(3)),
        [b'#', b'#', ..] => plain(LineKind::Heading2, line, rest_trimmed(2)),
        [b'#', ..] => plain(LineKind::Heading1, line, rest_trimmed(1)),
        [b'*', b' ', ..] => plain(LineKind::List, line, rest_trimmed(2)),
        [b'>', ..] => plain(LineKind::Quote, line, rest_trimmed(1)),
        _ => plain(LineKind::Text, line, None),
    }
}

/// `=>[ws]URL[ws label]`; without a URL the line is text.
fn link_line(line: &str) -> LineView<'_> {
    let rest = line[2..].trim_start_matches(is_gemtext_space);
    let url_end = rest.find(is_gemtext_space).unwrap_or(rest.len());
    let (url, label) = rest.split_at(url_end);
    if url.is_empty() {
        return plain(LineKind::Text, line, None);
    }
    let label = label.trim();
    let mut parsed = plain(LineKind::Link, line, None);
    parsed.link = Some((url, (!label.is_empty()).then_some(label)));
    parsed
}

/// Whitespace between link parts: ASCII space and tab (and the other ASCII blanks).
fn is_gemtext_space(c: char) -> bool {
    c.is_ascii_whitespace()
}

#[cfg(test)]
mod tests;
