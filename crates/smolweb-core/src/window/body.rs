//! The decoded body with a char -> byte checkpoint index and lazily found preformat fences.
//! The text is shared (`Arc`), so a page's lazily parsed content can read it without a copy.

use std::sync::{Arc, OnceLock};

/// Chars between two checkpoints: `byte_at` walks at most this many chars.
pub(super) const STRIDE: usize = 4096;

/// A decoded body with a char index, so a window at any offset is found without rescanning.
#[derive(Clone, Debug, Default)]
pub struct Body {
    text: Arc<String>,
    total_chars: usize,
    /// `checkpoints[k]` = byte index of char `k * STRIDE` (k * STRIDE < total_chars).
    checkpoints: Vec<usize>,
    /// Byte starts of lines beginning with "```", found on first use by a gemtext window.
    fences: OnceLock<Vec<usize>>,
    /// Byte starts of every line, found on first use by a window cut from a held document.
    line_starts: OnceLock<Vec<usize>>,
}

impl Body {
    /// Index the text in one pass: char count plus a checkpoint every [`STRIDE`] chars.
    pub fn new(text: String) -> Body {
        Body::shared(Arc::new(text))
    }
    /// Index a text that is shared with other owners.
    pub fn shared(text: Arc<String>) -> Body {
        let (total_chars, checkpoints) = index(text.as_bytes());
        Body {
            text,
            total_chars,
            checkpoints,
            fences: OnceLock::new(),
            line_starts: OnceLock::new(),
        }
    }
    /// The whole text.
    pub fn text(&self) -> &str {
        &self.text
    }
    /// Another handle on the same text (no copy).
    pub(crate) fn shared_text(&self) -> Arc<String> {
        Arc::clone(&self.text)
    }
    /// Chars in the whole text.
    pub fn total_chars(&self) -> usize {
        self.total_chars
    }
    /// Byte index of the char at `char_offset` (clamped to the end). Walks at most
    /// [`STRIDE`] chars from the nearest checkpoint.
    pub fn byte_at(&self, char_offset: usize) -> usize {
        if char_offset >= self.total_chars {
            return self.text.len();
        }
        let k = char_offset / STRIDE;
        let from = self.checkpoints.get(k).copied().unwrap_or(0);
        let skip = char_offset - k * STRIDE;
        self.text[from..]
            .char_indices()
            .nth(skip)
            .map_or(self.text.len(), |(b, _)| from + b)
    }
    /// Chars in a byte range of the text (clamped to char boundaries' validity by the caller).
    pub(crate) fn char_len(&self, bytes: std::ops::Range<usize>) -> usize {
        self.text.get(bytes).map_or(0, |s| s.chars().count())
    }
    /// True when byte index `byte` starts a line (0, or just after a line terminator; the LF of
    /// a CRLF is inside the terminator, not a line start).
    pub(crate) fn is_line_start(&self, byte: usize) -> bool {
        let b = self.text.as_bytes();
        match byte.checked_sub(1).and_then(|i| b.get(i)) {
            None => true,
            Some(b'\n') => true,
            Some(b'\r') => b.get(byte) != Some(&b'\n'),
            Some(_) => false,
        }
    }
    /// Byte starts of the lines opening with "```", in order.
    pub(super) fn fences(&self) -> &[usize] {
        self.fences.get_or_init(|| find_fences(&self.text))
    }
    /// Byte starts of the lines, in order: one per line the gemtext parser yields (none for
    /// an empty text; a final terminator opens no line).
    pub(super) fn line_starts(&self) -> &[usize] {
        self.line_starts
            .get_or_init(|| find_line_starts(&self.text))
    }
}

fn find_line_starts(text: &str) -> Vec<usize> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut start = 0usize;
    while start < b.len() {
        out.push(start);
        match memchr_line_end(b, start) {
            Some(next) => start = next,
            None => break,
        }
    }
    out
}

/// Count chars and record a checkpoint every [`STRIDE`] chars. Counts 64-byte blocks at a
/// time and walks bytes only inside the block where a checkpoint falls.
fn index(bytes: &[u8]) -> (usize, Vec<usize>) {
    let is_start = |b: &u8| (*b & 0xC0) != 0x80;
    let mut checkpoints = Vec::with_capacity(bytes.len() / STRIDE + 1);
    let mut chars = 0usize;
    let mut next_mark = 0usize;
    let mut at = 0usize;
    for block in bytes.chunks(64) {
        // Char starts are the bytes that are not UTF-8 continuations (0x80-0xBF, i.e. below
        // -64 as i8). Summing into a u8 (a block has at most 64) lets this vectorize.
        let n = usize::from(
            block
                .iter()
                .map(|&b| u8::from(i8::from_ne_bytes([b]) >= -64))
                .sum::<u8>(),
        );
        if chars + n <= next_mark {
            chars += n;
        } else {
            for (i, b) in block.iter().enumerate() {
                if is_start(b) {
                    if chars == next_mark {
                        checkpoints.push(at + i);
                        next_mark += STRIDE;
                    }
                    chars += 1;
                }
            }
        }
        at += block.len();
    }
    (chars, checkpoints)
}

/// Byte starts of lines that begin with "```". Lines end at LF, CRLF or a lone CR.
fn find_fences(text: &str) -> Vec<usize> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut start = 0usize;
    loop {
        if b[start..].starts_with(b"```") {
            out.push(start);
        }
        match memchr_line_end(b, start) {
            Some(next) => start = next,
            None => return out,
        }
    }
}

/// The byte after the next line terminator at or after `from`, None when there is none.
pub(super) fn memchr_line_end(b: &[u8], from: usize) -> Option<usize> {
    let rel = b
        .get(from..)?
        .iter()
        .position(|&c| c == b'\n' || c == b'\r')?;
    let at = from + rel;
    if b[at] == b'\r' && b.get(at + 1) == Some(&b'\n') {
        Some(at + 2)
    } else {
        Some(at + 1)
    }
}
