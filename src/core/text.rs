//! The one sanitizer for remote text that reaches a terminal.
//!
//! Capsule and server text is untrusted: a control character written to a terminal can set the
//! window title (OSC 0), write the clipboard (OSC 52), clear and fake the screen (CSI 2J) or
//! ring the bell. Every face that prints remote text passes it through here first:
//!
//! - [`sanitize`] keeps tab, LF and the CR of a CRLF pair, and replaces every other C0 control
//!   (U+0000..U+001F, ESC included), DEL (U+007F) and every C1 control (U+0080..U+009F, the
//!   8-bit CSI U+009B among them) with U+FFFD, so the reader sees that something was there;
//! - [`sanitize_line`] does the same and also folds tab, CR and LF into a space, for text
//!   printed on one line (a prompt, a status message, a redirect target).
//!
//! Both borrow the input unchanged when it is clean (the common case): one byte scan, no
//! allocation. Checking works on UTF-8 bytes: C1 controls are the two-byte sequences
//! `C2 80`..`C2 9F`, so no char decoding is needed to find them.

use std::borrow::Cow;

/// What replaces a control character.
pub const REPLACEMENT: char = '\u{fffd}';

/// Remote text made safe for a terminal, keeping its lines (tab, LF and CRLF stay).
pub fn sanitize(text: &str) -> Cow<'_, str> {
    match first_unsafe(text.as_bytes(), false) {
        None => Cow::Borrowed(text),
        Some(at) => Cow::Owned(rebuild(text, at, false)),
    }
}

/// Remote text made safe for a terminal and folded onto one line (tab, CR, LF become spaces).
pub fn sanitize_line(text: &str) -> Cow<'_, str> {
    match first_unsafe(text.as_bytes(), true) {
        None => Cow::Borrowed(text),
        Some(at) => Cow::Owned(rebuild(text, at, true)),
    }
}

/// True when [`sanitize`] would return the text unchanged.
pub fn is_terminal_safe(text: &str) -> bool {
    first_unsafe(text.as_bytes(), false).is_none()
}

/// Byte index of the first byte that needs rewriting, None when the text is clean.
fn first_unsafe(b: &[u8], one_line: bool) -> Option<usize> {
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let bad = match c {
            b'\t' | b'\n' => one_line,
            b'\r' => one_line || b.get(i + 1) != Some(&b'\n'),
            0x00..=0x1F | 0x7F => true,
            0xC2 => matches!(b.get(i + 1), Some(0x80..=0x9F)),
            _ => false,
        };
        if bad {
            return Some(i);
        }
        i += 1;
    }
    None
}

/// Copy the clean prefix `..at`, then rewrite the rest char by char.
fn rebuild(text: &str, at: usize, one_line: bool) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    out.push_str(&text[..at]);
    let mut chars = text[at..].chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\t' | '\n' if one_line => out.push(' '),
            '\t' | '\n' => out.push(c),
            '\r' if one_line => out.push(' '),
            '\r' if chars.peek() == Some(&'\n') => out.push(c),
            c if is_terminal_control(c) => out.push(REPLACEMENT),
            c => out.push(c),
        }
    }
    out
}

/// C0 controls, DEL and C1 controls (what a terminal may act on).
pub fn is_terminal_control(c: char) -> bool {
    matches!(c, '\u{0}'..='\u{1f}' | '\u{7f}'..='\u{9f}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clean_text_is_borrowed() {
        for s in ["", "plain", "tabs\tand\nlines\r\n", "héllo ☃ \u{a0}"] {
            assert!(matches!(sanitize(s), Cow::Borrowed(_)), "{s:?}");
            assert!(is_terminal_safe(s));
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
    fn one_line_folds_line_breaks() {
        assert_eq!(sanitize_line("a\tb\nc\r\nd\x1b"), "a b c  d\u{fffd}");
    }

    #[test]
    fn nothing_unsafe_survives() {
        let all: String = (0u32..0x200).filter_map(char::from_u32).collect();
        let out = sanitize(&all);
        assert!(
            !out.chars()
                .any(|c| is_terminal_control(c) && c != '\t' && c != '\n')
        );
        let out = sanitize_line(&all);
        assert!(!out.chars().any(is_terminal_control));
    }
}
