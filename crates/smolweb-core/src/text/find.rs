//! The one text search: every occurrence of a needle in a line of text, as byte ranges of
//! the text itself, with or without case folding ([`find_all`]). The browser's find-in-page
//! uses it; a face that searches shown text calls it instead of a copy.

/// Byte ranges of every occurrence of `needle` in `text`, in order and not overlapping,
/// folding case when `fold` is set (ranges are in `text` even where lowercasing changes a
/// character's length).
pub fn find_all(text: &str, needle: &str, fold: bool) -> Vec<(usize, usize)> {
    if !fold {
        return text
            .match_indices(needle)
            .map(|(i, m)| (i, i + m.len()))
            .collect();
    }
    let needle = needle.to_lowercase();
    if text.is_ascii() {
        let lower = text.to_ascii_lowercase();
        return lower
            .match_indices(&needle)
            .map(|(i, m)| (i, i + m.len()))
            .collect();
    }
    // Lowercase with a map from each byte of the lowercase text to its source byte.
    let mut lower = String::with_capacity(text.len());
    let mut from = Vec::with_capacity(text.len() + 1);
    for (i, c) in text.char_indices() {
        for l in c.to_lowercase() {
            lower.push(l);
            from.extend(std::iter::repeat_n(i, l.len_utf8()));
        }
    }
    from.push(text.len());
    let mut out: Vec<(usize, usize)> = Vec::new();
    for (i, m) in lower.match_indices(&needle) {
        let start = from[i];
        // The end is the start of the source character after the match.
        let end = from.get(i + m.len()).copied().unwrap_or(text.len());
        let end = if end <= start {
            start + text[start..].chars().next().map_or(0, char::len_utf8)
        } else {
            end
        };
        if out.last().is_none_or(|&(_, e)| start >= e) {
            out.push((start, end));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_case_finds_only_the_same_bytes() {
        assert_eq!(find_all("Straße STRA stra", "stra", false), [(13, 17)]);
        assert!(find_all("abc", "x", false).is_empty());
    }

    #[test]
    fn folded_ranges_are_in_the_source_text() {
        // "Straße" is 7 bytes; "İ" is 2 and lowercases to 3.
        assert_eq!(
            find_all("Straße und STRASSE", "stra", true),
            [(0, 4), (12, 16)]
        );
        assert_eq!(find_all("İx İx", "x", true), [(2, 3), (6, 7)]);
        assert_eq!(find_all("aİb", "i̇", true), [(1, 3)]);
    }

    #[test]
    fn occurrences_do_not_overlap() {
        assert_eq!(find_all("aaaa", "aa", false), [(0, 2), (2, 4)]);
        assert_eq!(find_all("AAAA", "aa", true), [(0, 2), (2, 4)]);
    }
}
