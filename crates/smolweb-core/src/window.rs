//! Windows (pagination) over decoded bodies, as the MCP contract defines them.
//!
//! Offsets count Unicode scalar values (chars) of the decoded body, or items for menus, never
//! bytes. Lines end at LF, CRLF or a lone CR (a cut never falls between the CR and LF of a
//! CRLF). Invariants, for any body and limit:
//! - a window holds at most `limit` chars (a limit of 0 is treated as 1);
//! - walking from offset 0 through `next_offset` visits windows that concatenate to exactly the
//!   body, and `next_offset` is None only at the end;
//! - an offset at or past the end gives an empty window, `next_offset` None, `truncated` false.
//!
//! Text windows end after the last line terminator inside the window when there is one, else
//! at exactly `limit` chars. Gemtext windows end at the last complete line within the limit; a
//! line longer than the limit is delivered in pieces of at most `limit` chars, each one
//! unparsed `Text` line with `partial_line` set (a continuation piece ends at the end of that
//! line, so the next window starts at a line start and parsing resumes). The preformatted state
//! at a window start is found from the fence lines before it and handed to the parser.

mod body;

pub use body::Body;

use crate::gemtext::{self, Document, Line, LineKind, ParseState};
use crate::url::Url;

/// A window over a plain text body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextWindow<'a> {
    /// The text of the window, a slice of the body.
    pub text: &'a str,
    /// Char offset of the window start.
    pub offset: usize,
    /// Chars in this window.
    pub chars: usize,
    /// Char offset of the next window, None at the end.
    pub next_offset: Option<usize>,
    /// Chars in the whole body.
    pub total_chars: usize,
    /// True when more remains after this window.
    pub truncated: bool,
}

/// A window over a gemtext body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GemtextWindow<'a> {
    /// The raw text of the window.
    pub text: &'a str,
    /// The window's lines, parsed (one unparsed text line when `partial_line`).
    pub document: Document,
    /// Char offset of the window start.
    pub offset: usize,
    /// Chars in this window.
    pub chars: usize,
    /// Char offset of the next window, None at the end.
    pub next_offset: Option<usize>,
    /// Chars in the whole body.
    pub total_chars: usize,
    /// True when more remains after this window.
    pub truncated: bool,
    /// True when the window is (part of) a single line longer than the limit, delivered as one
    /// unparsed text line.
    pub partial_line: bool,
    /// Parser state at the window start.
    pub(crate) start_state: ParseState,
}

/// Where a window falls: byte range, char count, and whether it is a piece of a long line.
struct Span {
    start: usize,
    end: usize,
    chars: usize,
    partial: bool,
}

/// Window over a text body: at most `limit` chars from `offset`, cut after the last line
/// terminator in the window when one exists. Offset past the end -> empty window.
pub fn text_window(body: &Body, offset: usize, limit: usize) -> TextWindow<'_> {
    let limit = limit.max(1);
    let span = if offset >= body.total_chars() {
        empty_span(body)
    } else {
        let start = body.byte_at(offset);
        let (end, reaches_end) = limit_end(body, offset, limit);
        let end = if reaches_end {
            end
        } else {
            last_line_end(body.text().as_bytes(), start, end).unwrap_or(end)
        };
        Span {
            start,
            end,
            chars: body.char_len(start..end),
            partial: false,
        }
    };
    let next_offset = next_offset(body, offset, span.chars);
    TextWindow {
        text: &body.text()[span.start..span.end],
        offset,
        chars: span.chars,
        next_offset,
        total_chars: body.total_chars(),
        truncated: next_offset.is_some(),
    }
}

/// Window over a gemtext body (see module docs). `base` resolves links.
pub fn gemtext_window<'a>(
    body: &'a Body,
    base: Option<&Url>,
    offset: usize,
    limit: usize,
) -> GemtextWindow<'a> {
    let limit = limit.max(1);
    let span = if offset >= body.total_chars() {
        empty_span(body)
    } else {
        gemtext_span(body, offset, limit)
    };
    let text = &body.text()[span.start..span.end];
    let start_state = ParseState {
        in_preformat: in_preformat_at(body, span.start),
    };
    let document = if span.partial {
        unparsed(text)
    } else {
        gemtext::parse_with_state(text, base, start_state).0
    };
    let next_offset = next_offset(body, offset, span.chars);
    GemtextWindow {
        text,
        document,
        offset,
        chars: span.chars,
        next_offset,
        total_chars: body.total_chars(),
        truncated: next_offset.is_some(),
        partial_line: span.partial,
        start_state,
    }
}

/// A gemtext window cut from a page's whole parsed document: its lines are a slice of the
/// document's, found by a binary search on the body's line starts, so a held page is never
/// parsed again for a window. Everything else is what [`gemtext_window`] says of the window.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeldWindow<'a> {
    /// The window's lines, a slice of the whole document's.
    pub lines: &'a [Line],
    /// Index of the window's first line in the whole document (`lines` is
    /// `whole.lines[first..first + lines.len()]`).
    pub first: usize,
    /// Char offset of the window start.
    pub offset: usize,
    /// Chars in this window.
    pub chars: usize,
    /// Char offset of the next window, None at the end.
    pub next_offset: Option<usize>,
    /// Chars in the whole body.
    pub total_chars: usize,
    /// True when more remains after this window.
    pub truncated: bool,
}

/// The window [`gemtext_window`] cuts at `offset`, as a slice of `whole`, the document parsed
/// from the whole of `body` (with the same base). None when the window is a piece of a line
/// longer than the limit (its one unparsed line is no line of the document; cut it with
/// [`gemtext_window`]), or when `whole` has not one line per line of `body`.
pub fn held_gemtext_window<'a>(
    body: &Body,
    whole: &'a Document,
    offset: usize,
    limit: usize,
) -> Option<HeldWindow<'a>> {
    let limit = limit.max(1);
    let span = if offset >= body.total_chars() {
        empty_span(body)
    } else {
        gemtext_span(body, offset, limit)
    };
    let starts = body.line_starts();
    if span.partial || starts.len() != whole.lines.len() {
        return None;
    }
    // A window that is not a piece starts at a line start and ends at a line end (or the end).
    let first = starts.partition_point(|&s| s < span.start);
    let past = starts.partition_point(|&s| s < span.end);
    let next_offset = next_offset(body, offset, span.chars);
    Some(HeldWindow {
        lines: whole.lines.get(first..past)?,
        first,
        offset,
        chars: span.chars,
        next_offset,
        total_chars: body.total_chars(),
        truncated: next_offset.is_some(),
    })
}

/// The span of a gemtext window starting inside the body.
fn gemtext_span(body: &Body, offset: usize, limit: usize) -> Span {
    let b = body.text().as_bytes();
    let start = body.byte_at(offset);
    let (limit_byte, reaches_end) = limit_end(body, offset, limit);
    let mid_line = !body.is_line_start(start);
    let (end, partial) = if mid_line {
        // The rest of a long line: up to its end when that fits, never parsed.
        match body::memchr_line_end(b, start).filter(|&e| e <= limit_byte) {
            Some(e) => (e, true),
            None => (limit_byte, true),
        }
    } else if reaches_end {
        (limit_byte, false)
    } else {
        match last_line_end(b, start, limit_byte) {
            Some(e) => (e, false),
            None => (limit_byte, true),
        }
    };
    Span {
        start,
        end,
        chars: body.char_len(start..end),
        partial,
    }
}

fn empty_span(body: &Body) -> Span {
    let end = body.text().len();
    Span {
        start: end,
        end,
        chars: 0,
        partial: false,
    }
}

/// Byte index `limit` chars after `offset` (clamped), and whether that is the body end.
fn limit_end(body: &Body, offset: usize, limit: usize) -> (usize, bool) {
    let end_char = offset.saturating_add(limit);
    (body.byte_at(end_char), end_char >= body.total_chars())
}

fn next_offset(body: &Body, offset: usize, chars: usize) -> Option<usize> {
    let next = offset.saturating_add(chars);
    (chars > 0 && next < body.total_chars()).then_some(next)
}

/// The byte just after the last line terminator in `b[start..end]`, not splitting a CRLF
/// whose LF lies at or past `end`.
fn last_line_end(b: &[u8], start: usize, end: usize) -> Option<usize> {
    let mut hi = end;
    while hi > start {
        let pos = start
            + b[start..hi]
                .iter()
                .rposition(|&c| c == b'\n' || c == b'\r')?;
        if b[pos] == b'\r' && b.get(pos + 1) == Some(&b'\n') {
            hi = pos;
            continue;
        }
        return Some(pos + 1);
    }
    None
}

/// Inside a preformatted block at byte `at`: an odd number of fence lines start before it.
fn in_preformat_at(body: &Body, at: usize) -> bool {
    let fences = body.fences();
    fences.partition_point(|&f| f < at) % 2 == 1
}

/// A piece of a long line as a single unparsed text line.
fn unparsed(text: &str) -> Document {
    let content = text
        .strip_suffix("\r\n")
        .or_else(|| text.strip_suffix('\n'))
        .or_else(|| text.strip_suffix('\r'))
        .unwrap_or(text);
    Document {
        lines: vec![Line {
            kind: LineKind::Text,
            content: content.to_string(),
            text: None,
            link: None,
            fence: None,
        }],
    }
}

/// A window over items (menus).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ItemWindow<'a, T> {
    /// The items in this window.
    pub items: &'a [T],
    pub(crate) offset: usize,
    /// Index of the first item of the next window, None at the end.
    pub next_offset: Option<usize>,
    /// Items in the whole list.
    pub total_items: usize,
    /// True when more items remain after this window.
    pub truncated: bool,
}

/// At most `limit` items from `offset` (a limit of 0 is treated as 1); past the end -> empty.
pub fn item_window<T>(items: &[T], offset: usize, limit: usize) -> ItemWindow<'_, T> {
    let start = offset.min(items.len());
    let end = start.saturating_add(limit.max(1)).min(items.len());
    let rest = end < items.len();
    ItemWindow {
        items: &items[start..end],
        offset,
        next_offset: rest.then_some(end),
        total_items: items.len(),
        truncated: rest,
    }
}

#[cfg(test)]
mod tests;
