//! Invisible characters: Unicode format characters (category Cf) that change nothing a reader
//! sees but can hide or reorder text: zero-width spaces and joiners, bidi controls and
//! isolates, word joiners and invisible operators, the BOM, soft hyphens, tag characters
//! (U+E0000..U+E007F, which can spell hidden ASCII), interlinear annotations and the other Cf
//! code points. This is the one table of them: the terminal sanitizer ([`super`]) decides
//! what each becomes on a screen, the web conversion removes them ([`strip`]) and reads what
//! tag characters spell ([`tag_text`]) to judge hidden text, and the agent's results flag
//! them ([`super::scan`]).

use std::borrow::Cow;

/// The format (Cf) code points, as sorted, disjoint inclusive ranges.
const FORMAT: &[(u32, u32)] = &[
    (0x00AD, 0x00AD),
    (0x0600, 0x0605),
    (0x061C, 0x061C),
    (0x06DD, 0x06DD),
    (0x070F, 0x070F),
    (0x0890, 0x0891),
    (0x08E2, 0x08E2),
    (0x180E, 0x180E),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x2064),
    (0x2066, 0x206F),
    (0xFEFF, 0xFEFF),
    (0xFFF9, 0xFFFB),
    (0x110BD, 0x110BD),
    (0x110CD, 0x110CD),
    (0x13430, 0x1343F),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE007F),
];

/// Is `c` an invisible format character (any of the Cf table)?
pub(crate) fn is_invisible(c: char) -> bool {
    let c = u32::from(c);
    if c < 0xAD {
        return false;
    }
    let at = FORMAT.partition_point(|&(_, hi)| hi < c);
    FORMAT.get(at).is_some_and(|&(lo, _)| lo <= c)
}

/// The bidi embeddings, overrides and isolates (LRE, RLE, PDF, LRO, RLO, U+202A..U+202E;
/// LRI, RLI, FSI, PDI, U+2066..U+2069): they reorder the text after them on a display that
/// applies the bidi algorithm (the "Trojan Source" characters).
pub(crate) fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// The bidi marks: LRM (U+200E), RLM (U+200F), ALM (U+061C). Zero-width characters with a
/// strong direction; they only move neutral characters next to right-to-left text.
pub(crate) fn is_bidi_mark(c: char) -> bool {
    matches!(c, '\u{200E}' | '\u{200F}' | '\u{061C}')
}

/// ZERO WIDTH NON-JOINER and ZERO WIDTH JOINER (U+200C, U+200D): needed inside emoji
/// sequences and by the shaping of Indic and Arabic-script text.
pub(crate) fn is_joiner(c: char) -> bool {
    matches!(c, '\u{200C}' | '\u{200D}')
}

/// `text` without invisible characters (borrowed when there were none).
pub fn strip(text: &str) -> Cow<'_, str> {
    if text.is_ascii() || !text.chars().any(is_invisible) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(text.chars().filter(|c| !is_invisible(*c)).collect())
}

/// The ASCII that tag characters in `text` spell (empty when there are none).
pub fn tag_text(text: &str) -> String {
    text.chars()
        .filter_map(|c| {
            let v = u32::from(c);
            (0xE0020..=0xE007E)
                .contains(&v)
                .then(|| char::from_u32(v - 0xE0000))
                .flatten()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strips_format_characters() {
        let s = "a\u{200B}b\u{200D}c\u{202E}d\u{2066}e\u{FEFF}f\u{00AD}g\u{E0041}h\u{2060}i";
        assert_eq!(strip(s), "abcdefghi");
        assert!(matches!(strip("plain é ü 日本"), Cow::Borrowed(_)));
        assert_eq!(strip("é"), "é");
    }

    #[test]
    fn the_table_is_sorted_and_matches_each_range() {
        assert!(FORMAT.windows(2).all(|w| w[0].1 < w[1].0));
        for &(lo, hi) in FORMAT {
            for v in [lo, hi] {
                assert!(is_invisible(char::from_u32(v).unwrap_or('x')), "{v:#x}");
            }
            for v in [lo - 1, hi + 1] {
                let c = char::from_u32(v).unwrap_or('x');
                let inside = FORMAT.iter().any(|&(l, h)| l <= v && v <= h);
                assert_eq!(is_invisible(c), inside, "{v:#x}");
            }
        }
        for c in ['a', 'é', '日', '\u{a0}', '🦀', '\u{2028}'] {
            assert!(!is_invisible(c), "{c:?}");
        }
    }

    #[test]
    fn tag_characters_spell_ascii() {
        let hidden: String = "hi AI"
            .chars()
            .map(|c| char::from_u32(0xE0000 + c as u32).unwrap_or(' '))
            .collect();
        assert_eq!(tag_text(&format!("x{hidden}y")), "hi AI");
    }
}
