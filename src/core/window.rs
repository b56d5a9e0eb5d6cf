//! Windows (pagination) over decoded bodies, as the MCP contract defines them.
//!
//! Offsets count Unicode scalar values (chars) of the decoded body, or items for menus, never
//! bytes. Gemtext windows end at the last complete line within the limit so windows abut
//! exactly; a single line longer than the limit is delivered as one unparsed piece with
//! `partial_line` set; the preformatted state at the window start is carried in. Text windows end
//! at the last line boundary within the limit when one exists. Concatenating consecutive windows
//! rebuilds the body exactly.

use crate::core::gemtext::{Document, ParseState};
use crate::core::url::Url;

/// A decoded body with a char index, so a window at any offset is found without rescanning.
#[derive(Clone, Debug, Default)]
pub struct Body {
    text: String,
    total_chars: usize,
}

impl Body {
    pub fn new(text: String) -> Body {
        let total_chars = text.chars().count();
        Body { text, total_chars }
    }
    pub fn text(&self) -> &str {
        &self.text
    }
    pub fn total_chars(&self) -> usize {
        self.total_chars
    }
    /// Byte index of the char at `char_offset` (clamped to the end).
    pub fn byte_at(&self, char_offset: usize) -> usize {
        self.text
            .char_indices()
            .nth(char_offset)
            .map_or(self.text.len(), |(b, _)| b)
    }
}

/// A window over a plain text body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextWindow<'a> {
    pub text: &'a str,
    /// Char offset of the window start.
    pub offset: usize,
    /// Chars in this window.
    pub chars: usize,
    /// Char offset of the next window, None at the end.
    pub next_offset: Option<usize>,
    pub total_chars: usize,
    /// True when more remains after this window.
    pub truncated: bool,
}

/// A window over a gemtext body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GemtextWindow<'a> {
    /// The raw text of the window.
    pub text: &'a str,
    pub document: Document,
    pub offset: usize,
    pub chars: usize,
    pub next_offset: Option<usize>,
    pub total_chars: usize,
    pub truncated: bool,
    /// True when the window is (part of) a single line longer than the limit, delivered as one
    /// unparsed text line.
    pub partial_line: bool,
    /// Parser state at the window start.
    pub start_state: ParseState,
}

/// Window over a text body: at most `limit` chars from `offset`, cut at a line boundary when
/// one exists in the window. Offset past the end -> empty window, next_offset None.
pub fn text_window(body: &Body, offset: usize, limit: usize) -> TextWindow<'_> {
    let _ = limit;
    TextWindow {
        text: "",
        offset,
        chars: 0,
        next_offset: None,
        total_chars: body.total_chars(),
        truncated: false,
    }
}

/// Window over a gemtext body (see module docs). `base` resolves links.
pub fn gemtext_window<'a>(
    body: &'a Body,
    base: Option<&Url>,
    offset: usize,
    limit: usize,
) -> GemtextWindow<'a> {
    let _ = (base, limit);
    GemtextWindow {
        text: "",
        document: Document::default(),
        offset,
        chars: 0,
        next_offset: None,
        total_chars: body.total_chars(),
        truncated: false,
        partial_line: false,
        start_state: ParseState::default(),
    }
}

/// A window over items (menus).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ItemWindow<'a, T> {
    pub items: &'a [T],
    pub offset: usize,
    pub next_offset: Option<usize>,
    pub total_items: usize,
    pub truncated: bool,
}

pub fn item_window<T>(items: &[T], offset: usize, limit: usize) -> ItemWindow<'_, T> {
    let start = offset.min(items.len());
    let end = start.saturating_add(limit).min(items.len());
    let rest = end < items.len();
    ItemWindow {
        items: &items[start..end],
        offset,
        next_offset: rest.then_some(end),
        total_items: items.len(),
        truncated: rest,
    }
}
