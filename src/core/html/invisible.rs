//! Invisible characters: Unicode format characters (category Cf) that change nothing a reader
//! sees but can hide or reorder text for a machine: zero-width spaces and joiners, bidi
//! controls and isolates, word joiners and invisible operators, the BOM, soft hyphens, tag
//! characters (U+E0000..U+E007F, which can spell hidden ASCII), interlinear annotations and
//! the other Cf code points. [`strip`] removes them; [`tag_text`] reads what tag characters
//! spell, so a caller can judge it.

use std::borrow::Cow;

/// The format (Cf) code points, as inclusive ranges.
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

/// Is `c` an invisible format character?
pub fn is_invisible(c: char) -> bool {
    let c = u32::from(c);
    if c < 0xAD {
        return false;
    }
    FORMAT.iter().any(|&(lo, hi)| c >= lo && c <= hi)
}

/// `text` without invisible characters (borrowed when there were none).
pub fn strip(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_invisible) {
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
    fn tag_characters_spell_ascii() {
        let hidden: String = "hi AI"
            .chars()
            .map(|c| char::from_u32(0xE0000 + c as u32).unwrap_or(' '))
            .collect();
        assert_eq!(tag_text(&format!("x{hidden}y")), "hi AI");
    }
}
