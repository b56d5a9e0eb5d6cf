//! IBM code page 437, which the WHATWG standard lacks but Gopher's ANSI art needs.
//!
//! Every byte maps to exactly one char, so nothing is dropped: 0x80-0xFF and 0x7F to their
//! IBM PC glyphs, and the C0 control bytes that ANSI/ASCII art uses as glyphs (all but NUL,
//! TAB, LF, CR and ESC) to theirs; TAB/LF/CR/ESC stay controls so lines and ANSI escape
//! sequences survive (the terminal sanitizer marks ESC when the text is printed).

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

/// Decode CP437: every byte becomes one char.
pub(super) fn decode(bytes: &[u8]) -> String {
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

/// How much a body that is not UTF-8 looks like CP437 art.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Evidence {
    None,
    /// A good share of its high bytes are box/block characters standing next to each other
    /// (latin-1 prose rarely puts two bytes of 0xB0-0xDF side by side; ANSI art does it all
    /// the time, but so does text in a legacy CJK encoding).
    Weak,
    /// ANSI escape sequences, or control bytes used as glyphs next to high bytes.
    Strong,
}

/// The heuristic for a body that is not UTF-8 (see [`Evidence`]).
pub(super) fn evidence(bytes: &[u8]) -> Evidence {
    let high = bytes.iter().filter(|&&b| b >= 0x80).count();
    if high == 0 {
        return Evidence::None;
    }
    let csi = bytes.windows(2).filter(|w| w == b"\x1b[").count();
    let glyph_controls = bytes
        .iter()
        .filter(|&&b| b < 0x20 && !matches!(b, 0x00 | 0x09 | 0x0A | 0x0C | 0x0D | 0x1A | 0x1B))
        .count();
    if csi > 0 || glyph_controls >= 2 {
        return Evidence::Strong;
    }
    let paired_boxes = bytes
        .windows(2)
        .filter(|w| is_box(w[0]) && is_box(w[1]))
        .count();
    if paired_boxes * 4 >= high {
        Evidence::Weak
    } else {
        Evidence::None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_complete_and_distinct() {
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
}
