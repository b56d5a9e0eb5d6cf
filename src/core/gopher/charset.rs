//! Body decoding: UTF-8, latin-1 (ISO-8859-1) and CP437, with detection for undeclared bodies.
//!
//! Every decoder maps each input byte to exactly one char (UTF-8 sequences to theirs), so no
//! byte is ever dropped or replaced. A UTF-8 byte-order mark is stripped. CP437 maps 0x80-0xFF
//! and 0x7F to their IBM PC glyphs, and the C0 control bytes that ANSI/ASCII art uses as glyphs
//! (all but NUL, TAB, LF, CR and ESC) to theirs; TAB/LF/CR/ESC stay controls so lines and ANSI
//! escape sequences survive.

use super::Charset;

/// CP437 0x80-0xFF.
const CP437_HIGH: [char; 128] = [
    'Ç', 'ü', 'é', 'â', 'ä', 'à', 'å', 'ç', 'ê', 'ë', 'è', 'ï', 'î', 'ì', 'Ä', 'Å', //
    'É', 'æ', 'Æ', 'ô', 'ö', 'ò', 'û', 'ù', 'ÿ', 'Ö', 'Ü', '¢', '£', '¥', '₧', 'ƒ', //
    'á', 'í', 'ó', 'ú', 'ñ', 'Ñ', 'ª', 'º', '¿', '⌐', '¬', '½', '¼', '¡', '«', '»', //
    '░', '▒', '▓', '│', '┤', '╡', '╢', '╖', '╕', '╣', '║', '╗', '╝', '╜', '╛', '┐', //
    '└', '┴', '┬', '├', '─', '┼', '╞', '╟', '╚', '╔', '╩', '╦', '╠', '═', '╬', '╧', //
    '╨', '╤', '╥', '╙', '╘', '╒', '╓', '╫', '╪', '┘', '┌', '█', '▄', '▌', '▐', '▀', //
    'α', 'ß', 'Γ', 'π', 'Σ', 'σ', 'µ', 'τ', 'Φ', 'Θ', 'Ω', 'δ', '∞', 'φ', 'ε', '∩', //
    '≡', '±', '≥', '≤', '⌠', '⌡', '÷', '≈', '°', '∙', '·', '√', 'ⁿ', '²', '■', '\u{a0}',
];

/// CP437 glyphs for 0x00-0x1F (index = byte).
const CP437_LOW: [char; 32] = [
    '\0', '☺', '☻', '♥', '♦', '♣', '♠', '•', '◘', '○', '◙', '♂', '♀', '♪', '♫', '☼', //
    '►', '◄', '↕', '‼', '¶', '§', '▬', '↨', '↑', '↓', '→', '←', '∟', '↔', '▲', '▼',
];

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Decode a body: UTF-8 when valid (BOM stripped), else CP437 or latin-1 by heuristic.
pub fn decode(bytes: &[u8]) -> (String, Charset) {
    if let Some(text) = utf8(bytes) {
        return (text, Charset::Utf8);
    }
    if looks_like_cp437(bytes) {
        (cp437(bytes), Charset::Cp437)
    } else {
        (latin1(bytes), Charset::Latin1)
    }
}

/// Decode a body with a declared charset (utf-8, iso-8859-1/latin1, us-ascii, cp437, ...);
/// unknown names, and a declared UTF-8/ASCII body that is not valid UTF-8, fall back to
/// [`decode`]. windows-1252 is decoded as latin-1.
pub fn decode_as(bytes: &[u8], charset: &str) -> (String, Charset) {
    let name = charset
        .trim()
        .trim_matches(['"', '\''])
        .to_ascii_lowercase();
    match name.as_str() {
        "utf-8" | "utf8" | "us-ascii" | "ascii" => match utf8(bytes) {
            Some(text) => (text, Charset::Utf8),
            None => decode(bytes),
        },
        "iso-8859-1" | "iso8859-1" | "iso_8859-1" | "latin1" | "latin-1" | "l1"
        | "windows-1252" | "cp1252" => (latin1(bytes), Charset::Latin1),
        "cp437" | "ibm437" | "437" | "cp-437" => (cp437(bytes), Charset::Cp437),
        _ => decode(bytes),
    }
}

fn utf8(bytes: &[u8]) -> Option<String> {
    let bytes = bytes.strip_prefix(BOM).unwrap_or(bytes);
    std::str::from_utf8(bytes).ok().map(str::to_string)
}

fn latin1(bytes: &[u8]) -> String {
    bytes.iter().map(|&b| char::from(b)).collect()
}

fn cp437(bytes: &[u8]) -> String {
    bytes.iter().map(|&b| cp437_char(b)).collect()
}

fn cp437_char(b: u8) -> char {
    match b {
        0x09 | 0x0A | 0x0D | 0x1B => char::from(b),
        0x00..=0x1F => CP437_LOW[usize::from(b)],
        0x7F => '⌂',
        0x80..=0xFF => CP437_HIGH[usize::from(b - 0x80)],
        _ => char::from(b),
    }
}

/// Box drawing, shades and blocks: 0xB0-0xDF.
fn is_box(b: u8) -> bool {
    (0xB0..=0xDF).contains(&b)
}

/// The heuristic for a body that is not UTF-8: CP437 when it carries ANSI escape sequences,
/// control bytes used as glyphs next to high bytes, or when a good share of its high bytes are
/// box/block characters standing next to each other (latin-1 prose rarely puts two bytes of
/// 0xB0-0xDF side by side; ANSI art does it all the time).
fn looks_like_cp437(bytes: &[u8]) -> bool {
    let high = bytes.iter().filter(|&&b| b >= 0x80).count();
    if high == 0 {
        return false;
    }
    let csi = bytes.windows(2).filter(|w| w == b"\x1b[").count();
    let glyph_controls = bytes
        .iter()
        .filter(|&&b| b < 0x20 && !matches!(b, 0x00 | 0x09 | 0x0A | 0x0C | 0x0D | 0x1A | 0x1B))
        .count();
    let paired_boxes = bytes
        .windows(2)
        .filter(|w| is_box(w[0]) && is_box(w[1]))
        .count();
    csi > 0 || glyph_controls >= 2 || paired_boxes * 4 >= high
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    #[test]
    fn decode_table() {
        let cases: &[(&[u8], &str, Charset)] = &[
            (b"hello", "hello", Charset::Utf8),
            (b"\xEF\xBB\xBFhi", "hi", Charset::Utf8),
            ("café".as_bytes(), "café", Charset::Utf8),
            (b"caf\xe9 cr\xe8me", "café crème", Charset::Latin1),
            (b"Stra\xdfe \xc4rger", "Straße Ärger", Charset::Latin1),
            (
                b"\xc9\xcd\xcd\xbb\n\xba  \xba",
                "╔══╗\n║  ║",
                Charset::Cp437,
            ),
            (b"\xdb\xdb\xb2\xb1\xb0", "██▓▒░", Charset::Cp437),
            (
                b"\x1b[1;31m\xdb\x1b[0m",
                "\x1b[1;31m█\x1b[0m",
                Charset::Cp437,
            ),
            (
                b"\x03\x04 card \x05\x06 \x80",
                "♥♦ card ♣♠ Ç",
                Charset::Cp437,
            ),
            (b"", "", Charset::Utf8),
        ];
        for (bytes, text, cs) in cases {
            assert_eq!(decode(bytes), (text.to_string(), *cs), "input {bytes:?}");
        }
    }

    #[test]
    fn decode_as_table() {
        let cases: &[(&[u8], &str, &str, Charset)] = &[
            (b"abc", "utf-8", "abc", Charset::Utf8),
            (b"abc", "UTF8", "abc", Charset::Utf8),
            (b"caf\xe9", "utf-8", "café", Charset::Latin1),
            (b"caf\xe9", "us-ascii", "café", Charset::Latin1),
            (b"caf\xe9", "ISO-8859-1", "café", Charset::Latin1),
            (b"caf\xe9", "\"latin1\"", "café", Charset::Latin1),
            (
                b"\x93q\x94",
                "windows-1252",
                "\u{93}q\u{94}",
                Charset::Latin1,
            ),
            (b"\xc4\xb3", "cp437", "─│", Charset::Cp437),
            (b"\xc4\xb3", "IBM437", "─│", Charset::Cp437),
            ("é".as_bytes(), "klingon", "é", Charset::Utf8),
            (b"caf\xe9", "klingon", "café", Charset::Latin1),
        ];
        for (bytes, cs_name, text, cs) in cases {
            assert_eq!(
                decode_as(bytes, cs_name),
                (text.to_string(), *cs),
                "{cs_name}"
            );
        }
    }

    #[test]
    fn cp437_table_is_complete_and_distinct() {
        let mut seen = std::collections::HashSet::new();
        for b in 0u8..=255 {
            assert!(
                seen.insert(cp437_char(b)),
                "byte {b:#x} maps to a duplicate"
            );
        }
        assert_eq!(cp437_char(0xFF), '\u{a0}');
        assert_eq!(cp437_char(0xE1), 'ß');
        assert_eq!(cp437_char(0x0A), '\n');
        assert_eq!(cp437_char(b'A'), 'A');
    }

    #[test]
    fn every_byte_becomes_one_char() {
        let all: Vec<u8> = (0u8..=255).collect();
        for cs in ["latin1", "cp437"] {
            let (text, _) = decode_as(&all, cs);
            assert_eq!(text.chars().count(), 256, "{cs}");
        }
        let (text, _) = decode(&all);
        assert_eq!(text.chars().count(), 256);
    }
}
