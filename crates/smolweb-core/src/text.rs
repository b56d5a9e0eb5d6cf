//! The one sanitizer for remote text that reaches a terminal.
//!
//! Capsule, server and agent text is untrusted. Every face that prints it passes it through
//! here first; what each kind of character becomes is decided once, by [`shown`]:
//!
//! - **Terminal controls** — every C0 control (U+0000..U+001F, ESC included) but tab, LF and
//!   the CR of a CRLF pair, DEL (U+007F) and every C1 control (U+0080..U+009F, the 8-bit CSI
//!   U+009B among them) — become U+FFFD: a terminal acts on them (OSC 0 sets the window title,
//!   OSC 52 writes the clipboard, CSI 2J clears the screen), and the mark shows that
//!   something was there.
//! - **Bidi embeddings, overrides and isolates** (U+202A..U+202E, U+2066..U+2069) become
//!   U+FFFD too: on a terminal that applies the bidi algorithm they make a line display in
//!   another order than it is stored ("Trojan Source": a link label, a command in a
//!   preformatted block, a file name that reads as something else). With the mark in their
//!   place the line shows in its stored order, and the reader sees it was tampered with.
//! - **Bidi marks** (LRM U+200E, RLM U+200F, ALM U+061C) are dropped: zero-width, they only
//!   nudge neutral characters next to right-to-left text and cannot reorder a run, and they
//!   are common in genuine Arabic and Hebrew text, where a mark at each would bury the words.
//! - **Other invisible format characters** (the rest of Unicode's Cf table in
//!   [`invisible`]: zero-width space, word joiner, invisible operators, BOM, soft hyphen, tag
//!   characters, interlinear annotations, ...) are dropped: they draw nothing, so the line
//!   looks the same, and what is on screen (and what a person copies from it) is what the
//!   text says; two strings that look alike no longer differ invisibly. Exception: ZWJ and
//!   ZWNJ between two non-ASCII characters stay (emoji sequences, Indic and Persian shaping):
//!   there they join or part letters and cannot hide ASCII text.
//!
//! [`sanitize`] keeps tab, LF and CRLF; [`sanitize_line`] also folds tab, CR and LF into a
//! space, for text printed on one line (a prompt, a status message, a redirect target). Both
//! borrow the input unchanged when it is clean (the common case): one scan, no allocation,
//! and ASCII bytes are checked without decoding. The agent face does not sanitize (its text is
//! data) but flags what a terminal would change: [`scan`]. Short forms for people (a byte
//! count, an age, text on one line) are in `short`: [`human_bytes`], [`human_age`],
//! [`one_line`]; the one text search is [`find_all`].

mod find;
pub mod invisible;
mod short;
mod stamp;
pub mod wrap;

pub use find::find_all;
pub use short::{count, human_age, human_bytes, human_duration, one_line};
pub use stamp::{readable_time, rfc3339};

use std::borrow::Cow;

/// What replaces a terminal control or a bidi embedding, override or isolate.
pub const REPLACEMENT: char = '\u{fffd}';

/// What a terminal is shown for one character (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shown {
    /// Shown as it is.
    Keep,
    /// Replaced by [`REPLACEMENT`].
    Mark,
    /// Removed.
    Drop,
}

/// What a terminal is shown for `c`, given the characters around it (only ZWJ and ZWNJ look
/// at them). Every C0 control is `Mark` here, tab and line ends included: callers that keep
/// lines ([`sanitize`], the browser's tab expansion) handle those three first.
pub fn shown(prev: Option<char>, c: char, next: Option<char>) -> Shown {
    if is_terminal_control(c) || invisible::is_bidi_control(c) {
        return Shown::Mark;
    }
    if !invisible::is_invisible(c) {
        return Shown::Keep;
    }
    if invisible::is_joiner(c) && joins(prev) && joins(next) {
        return Shown::Keep;
    }
    Shown::Drop
}

/// May a joiner next to this character stay (see the module docs)?
fn joins(c: Option<char>) -> bool {
    c.is_some_and(|c| {
        !c.is_ascii()
            && !c.is_whitespace()
            && !is_terminal_control(c)
            && !invisible::is_invisible(c)
    })
}

/// Remote text made safe for a terminal, keeping its lines (tab, LF and CRLF stay).
pub fn sanitize(text: &str) -> Cow<'_, str> {
    match first_unsafe(text, false) {
        None => Cow::Borrowed(text),
        Some(at) => Cow::Owned(rebuild(text, at, false)),
    }
}

/// Remote text made safe for a terminal and folded onto one line (tab, CR, LF become spaces).
pub fn sanitize_line(text: &str) -> Cow<'_, str> {
    match first_unsafe(text, true) {
        None => Cow::Borrowed(text),
        Some(at) => Cow::Owned(rebuild(text, at, true)),
    }
}

/// True when [`sanitize`] would return the text unchanged.
pub fn is_terminal_safe(text: &str) -> bool {
    first_unsafe(text, false).is_none()
}

/// The next char of `text` from byte `at` (a char boundary), if any.
fn char_at(text: &str, at: usize) -> Option<char> {
    text.get(at..).and_then(|s| s.chars().next())
}

/// Length of the UTF-8 sequence a lead byte starts.
fn utf8_len(lead: u8) -> usize {
    match lead {
        0x00..=0x7F => 1,
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        _ => 4,
    }
}

/// Could the non-ASCII UTF-8 sequence that starts with these bytes be a C1 control or a
/// format character (the [`invisible`] table)? A byte prefilter, so CJK, Cyrillic or Greek
/// text is skipped without decoding; `prefilter_covers_every_character_it_must` checks it
/// against the table.
fn may_need_care(lead: u8, second: Option<u8>) -> bool {
    match lead {
        0xC2 => matches!(second, Some(0x80..=0x9F | 0xAD)),
        0xD8..=0xDC | 0xE0..=0xE2 | 0xEF | 0xF0 | 0xF3 => true,
        _ => false,
    }
}

/// The non-ASCII characters of `text` that may need care (see [`may_need_care`]), with their
/// byte index.
fn candidates(text: &str) -> impl Iterator<Item = (usize, char)> + '_ {
    let b = text.as_bytes();
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < b.len() {
            let at = i;
            let lead = b[at];
            i += utf8_len(lead);
            if lead >= 0x80 && may_need_care(lead, b.get(at + 1).copied()) {
                return char_at(text, at).map(|c| (at, c));
            }
        }
        None
    })
}

/// What a terminal is shown for the character at byte `at` of `text`, in its context.
fn shown_at(text: &str, at: usize, c: char) -> Shown {
    let prev = text[..at].chars().next_back();
    shown(prev, c, char_at(text, at + c.len_utf8()))
}

/// Byte index of the first character that needs rewriting, None when the text is clean. One
/// pass: ASCII bytes checked as they are, other characters decoded only when the prefilter
/// ([`may_need_care`]) says they might matter.
fn first_unsafe(text: &str, one_line: bool) -> Option<usize> {
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let byte = b[i];
        if byte < 0x80 {
            let bad = match byte {
                b'\t' | b'\n' => one_line,
                b'\r' => one_line || b.get(i + 1) != Some(&b'\n'),
                0x00..=0x1F | 0x7F => true,
                _ => false,
            };
            if bad {
                return Some(i);
            }
            i += 1;
            continue;
        }
        if may_need_care(byte, b.get(i + 1).copied())
            && let Some(c) = char_at(text, i)
            && shown_at(text, i, c) != Shown::Keep
        {
            return Some(i);
        }
        i += utf8_len(byte);
    }
    None
}

/// Copy the clean prefix `..at`, then rewrite the rest char by char.
fn rebuild(text: &str, at: usize, one_line: bool) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    out.push_str(&text[..at]);
    let mut prev = text[..at].chars().next_back();
    let mut chars = text[at..].chars().peekable();
    while let Some(c) = chars.next() {
        let next = chars.peek().copied();
        match c {
            '\t' | '\n' if one_line => out.push(' '),
            '\t' | '\n' => out.push(c),
            '\r' if one_line => out.push(' '),
            '\r' if next == Some('\n') => out.push(c),
            c => match shown(prev, c, next) {
                Shown::Keep => out.push(c),
                Shown::Mark => out.push(REPLACEMENT),
                Shown::Drop => {}
            },
        }
        prev = Some(c);
    }
    out
}

/// C0 controls, DEL and C1 controls (what a terminal may act on).
pub(crate) fn is_terminal_control(c: char) -> bool {
    matches!(c, '\u{0}'..='\u{1f}' | '\u{7f}'..='\u{9f}')
}

/// The format characters a text holds, as the agent face flags them: what a terminal would
/// change there (see the module docs), not counting terminal controls.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Found {
    /// Bidi embeddings, overrides, isolates or marks.
    pub bidi: bool,
    /// Other invisible format characters (zero-width, tag characters, soft hyphens, ...),
    /// joiners kept between non-ASCII characters excepted.
    pub invisible: bool,
}

impl Found {
    /// Was anything found?
    pub fn any(self) -> bool {
        self.bidi || self.invisible
    }
    /// Both findings of two texts.
    pub fn or(self, other: Found) -> Found {
        Found {
            bidi: self.bidi || other.bidi,
            invisible: self.invisible || other.invisible,
        }
    }
}

/// Which format characters `text` holds (see [`Found`]). ASCII text is answered at once.
pub fn scan(text: &str) -> Found {
    let mut found = Found::default();
    if text.is_ascii() {
        return found;
    }
    for (at, c) in candidates(text) {
        if invisible::is_bidi_control(c) || invisible::is_bidi_mark(c) {
            found.bidi = true;
        } else if invisible::is_invisible(c) && shown_at(text, at, c) != Shown::Keep {
            found.invisible = true;
        }
        if found.bidi && found.invisible {
            break;
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clean_text_is_borrowed() {
        let family = "👨\u{200d}👩\u{200d}👧";
        let persian = "می\u{200c}خواهم";
        for s in [
            "",
            "plain",
            "tabs\tand\nlines\r\n",
            "héllo ☃ \u{a0}",
            "日本語 العربية עברית",
            family,
            persian,
            "🏳\u{fe0f}\u{200d}🌈",
        ] {
            assert!(matches!(sanitize(s), Cow::Borrowed(_)), "{s:?}");
            assert!(is_terminal_safe(s), "{s:?}");
        }
        assert!(matches!(sanitize_line("one line"), Cow::Borrowed(_)));
    }

    #[test]
    fn controls_are_replaced() {
        let cases = [
            ("\x1b]52;c;aGk=\x07x", "\u{fffd}]52;c;aGk=\u{fffd}x"),
            ("\x1b[2J", "\u{fffd}[2J"),
            ("a\u{9b}31mb", "a\u{fffd}31mb"),
            ("nul\0del\x7f", "nul\u{fffd}del\u{fffd}"),
            ("lone\rcr", "lone\u{fffd}cr"),
            ("keep\r\nline\tand tab", "keep\r\nline\tand tab"),
            (
                "c1 \u{80} \u{9f} ok \u{a0}",
                "c1 \u{fffd} \u{fffd} ok \u{a0}",
            ),
        ];
        for (input, want) in cases {
            assert_eq!(sanitize(input), want, "{input:?}");
        }
    }

    #[test]
    fn bidi_controls_are_marked_and_invisible_characters_dropped() {
        let cases = [
            // Trojan Source: an override and isolates around a "comment".
            (
                "/*\u{202e} } \u{2066}if (isAdmin)\u{2069} \u{2066} begin */",
                "/*\u{fffd} } \u{fffd}if (isAdmin)\u{fffd} \u{fffd} begin */",
            ),
            (
                "a\u{202a}b\u{202b}c\u{202c}d\u{202d}e",
                "a\u{fffd}b\u{fffd}c\u{fffd}d\u{fffd}e",
            ),
            ("x\u{2067}y\u{2068}z", "x\u{fffd}y\u{fffd}z"),
            // Marks are dropped.
            ("a\u{200e}b\u{200f}c\u{61c}d", "abcd"),
            ("שלום\u{200f}!", "שלום!"),
            // Zero-width and other invisible characters are dropped.
            ("pay\u{200b}pal", "paypal"),
            ("rm\u{2060} -rf\u{feff} x", "rm -rf x"),
            ("soft\u{ad}hyphen", "softhyphen"),
            ("tag\u{e0041}\u{e0049}s", "tags"),
            ("inter\u{fff9}linear\u{fffb}", "interlinear"),
            // Joiners next to ASCII are dropped, between non-ASCII kept.
            ("a\u{200d}b", "ab"),
            ("\u{200d}日", "日"),
            ("日\u{200c}", "日"),
            ("日\u{200d}本", "日\u{200d}本"),
        ];
        for (input, want) in cases {
            assert_eq!(sanitize(input), want, "{input:?}");
            assert!(!is_terminal_safe(input) || input == want, "{input:?}");
        }
    }

    #[test]
    fn one_line_folds_line_breaks() {
        assert_eq!(sanitize_line("a\tb\nc\r\nd\x1b"), "a b c  d\u{fffd}");
        assert_eq!(sanitize_line("a\u{202e}b\u{200b}\nc"), "a\u{fffd}b c");
    }

    #[test]
    fn nothing_unsafe_survives() {
        let all: String = (0u32..0x3000)
            .chain(0xE000..0x1_0000)
            .chain(0xE0000..0xE0100)
            .filter_map(char::from_u32)
            .collect();
        let bad = |c: char| {
            (is_terminal_control(c) && c != '\t' && c != '\n')
                || invisible::is_bidi_control(c)
                || invisible::is_bidi_mark(c)
        };
        let out = sanitize(&all);
        assert!(!out.chars().any(bad));
        let out = sanitize_line(&all);
        assert!(!out.chars().any(|c| bad(c) || is_terminal_control(c)));
        // Only joiners kept between non-ASCII characters survive of the invisible ones.
        let left: Vec<char> = out
            .chars()
            .filter(|&c| invisible::is_invisible(c))
            .collect();
        assert!(left.iter().all(|&c| invisible::is_joiner(c)), "{left:?}");
    }

    #[test]
    fn prefilter_covers_every_character_it_must() {
        let mut buf = [0u8; 4];
        for c in (0x80u32..=0x10FFFF).filter_map(char::from_u32) {
            if shown(None, c, None) == Shown::Keep && !invisible::is_invisible(c) {
                continue;
            }
            let bytes = c.encode_utf8(&mut buf).as_bytes();
            assert!(
                may_need_care(bytes[0], bytes.get(1).copied()),
                "{:#x} is missed",
                u32::from(c)
            );
        }
    }

    #[test]
    fn scan_flags_what_a_terminal_would_change() {
        let cases = [
            ("plain ascii", false, false),
            ("日本語 ☃", false, false),
            ("👨\u{200d}👩", false, false),
            ("a\u{202e}b", true, false),
            ("a\u{200f}b", true, false),
            ("a\u{200b}b", false, true),
            ("a\u{200d}b", false, true),
            ("x\u{e0041}", false, true),
            ("\u{2066}x\u{2069}\u{feff}", true, true),
            ("ctrl \x1b[2J only", false, false),
        ];
        for (text, bidi, inv) in cases {
            assert_eq!(
                scan(text),
                Found {
                    bidi,
                    invisible: inv
                },
                "{text:?}"
            );
        }
    }
}
