//! Greedy word wrapping by display width, for the browser's view and `smolweb get --width`. Rows are byte ranges into the line, trailing spaces
//! dropped, leading spaces of continuation rows skipped; a word wider than the row is cut,
//! except by [`wrap_keeping_urls`], where a URL is never cut: it goes on a row of its own,
//! which may be wider than asked (text for a pipe, where a cut URL is a broken one).
//! The unit is the grapheme cluster (what a reader sees as one character: an accented letter
//! with its combining marks, a family emoji joined by ZWJ), so a cut never splits one.
//! Tabs count as one cell (the view draws them as one space in wrapped text); characters the
//! core sanitizer marks count the one cell of their mark, those it drops none (see
//! [`super::shown`]), so a row is as wide as what the view draws.

use super::{Shown, shown};
use unicode_segmentation::UnicodeSegmentation;
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// Cells of one grapheme cluster, as the view draws it.
fn cell_width(g: &str) -> usize {
    if g == "\t" {
        return 1;
    }
    if g.is_ascii() && !g.bytes().any(|b| b < 0x20 || b == 0x7f) {
        return g.len();
    }
    // Marked and dropped characters are controls or format characters, each its own
    // cluster or a joiner inside one; the cluster's own width counts them as nothing.
    let marked = g
        .chars()
        .filter(|&c| shown(None, c, None) == Shown::Mark)
        .count();
    if marked == 0 {
        return g.width();
    }
    g.chars()
        .map(|c| match shown(None, c, None) {
            Shown::Mark => 1,
            Shown::Drop => 0,
            Shown::Keep => c.width().unwrap_or(0),
        })
        .sum()
}

/// Display width in cells.
pub fn display_width(text: &str) -> usize {
    if text.is_ascii() && !text.bytes().any(|b| b < 0x20 || b == 0x7f) {
        return text.len();
    }
    text.graphemes(true).map(cell_width).sum()
}

fn is_space(g: &str) -> bool {
    g == " " || g == "\t"
}

/// Is this word a URL (`scheme://…`, maybe in brackets or quotes)? Such a word is kept
/// whole by [`wrap_keeping_urls`].
fn is_url(word: &str) -> bool {
    let word = word.trim_start_matches(['<', '(', '[', '{', '"', '\'']);
    let Some((scheme, _)) = word.split_once("://") else {
        return false;
    };
    let mut chars = scheme.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
}

/// Wrap `text` into rows of at most `width` cells, as byte ranges `(start, end)` into it.
/// Always returns at least one row.
pub fn wrap(text: &str, width: usize) -> Vec<(u32, u32)> {
    wrap_with(text, width, false)
}

/// Wrap as [`wrap`] does, but never cut a URL: one that does not fit where it is starts a
/// new row, and one longer than `width` is a row of its own, that long.
pub fn wrap_keeping_urls(text: &str, width: usize) -> Vec<(u32, u32)> {
    wrap_with(text, width, true)
}

fn wrap_with(text: &str, width: usize, keep_urls: bool) -> Vec<(u32, u32)> {
    let width = width.max(1);
    if text.len() <= width && text.is_ascii() {
        let end = text.trim_end().len();
        return vec![(0, end as u32)];
    }
    let mut rows = Vec::new();
    let mut push = |a: usize, b: usize| {
        let end = a + text[a..b].trim_end().len();
        rows.push((a as u32, end as u32));
    };
    let mut start = 0usize;
    let mut w = 0usize;
    let mut brk: Option<(usize, usize)> = None;
    let mut skipping = false;
    // A URL kept whole: the byte where it ends (its graphemes are counted at its start).
    let mut whole_to = 0usize;
    let mut after_space = true;
    for (i, c) in text.grapheme_indices(true) {
        if i < whole_to {
            continue;
        }
        let cw = cell_width(c);
        let word_start = after_space && !is_space(c);
        after_space = is_space(c);
        if skipping {
            if is_space(c) {
                continue;
            }
            skipping = false;
            start = i;
            w = 0;
            brk = None;
        }
        if keep_urls && word_start {
            let end = text[i..].find([' ', '\t']).map_or(text.len(), |n| i + n);
            let word = &text[i..end];
            if is_url(word) {
                let ww = display_width(word);
                if w > 0 && w + ww > width {
                    push(start, i);
                    start = i;
                    w = 0;
                }
                brk = None;
                w += ww;
                whole_to = end;
                continue;
            }
        }
        if is_space(c) {
            if w + cw > width {
                push(start, i);
                skipping = true;
                continue;
            }
            brk = Some((i, w));
            w += cw;
            continue;
        }
        if w + cw > width && w > 0 {
            match brk {
                Some((sp, spw)) if sp > start => {
                    push(start, sp);
                    start = sp + 1;
                    w -= spw + 1;
                }
                _ => {
                    push(start, i);
                    start = i;
                    w = 0;
                }
            }
            brk = None;
        }
        w += cw;
    }
    if !skipping {
        push(start, text.len());
    }
    if rows.is_empty() {
        rows.push((0, 0));
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(text: &str, width: usize) -> Vec<&str> {
        wrap(text, width)
            .into_iter()
            .map(|(a, b)| &text[a as usize..b as usize])
            .collect()
    }

    #[test]
    fn wraps_words_by_cells() {
        let cases: &[(&str, usize, &[&str])] = &[
            ("", 10, &[""]),
            ("short", 10, &["short"]),
            ("the quick brown fox", 10, &["the quick", "brown fox"]),
            ("the quick brown fox", 9, &["the quick", "brown fox"]),
            ("aaaaaaaaaaaa", 5, &["aaaaa", "aaaaa", "aa"]),
            ("a  b", 1, &["a", "b"]),
            ("word   ", 4, &["word"]),
            // Wide characters take two cells each.
            ("日本語のテキスト", 6, &["日本語", "のテキ", "スト"]),
            // Combining marks take none: "e\u{301}" is one cell.
            (
                "e\u{301}e\u{301}e\u{301} x",
                3,
                &["e\u{301}e\u{301}e\u{301}", "x"],
            ),
            ("🦀🦀 🦀", 4, &["🦀🦀", "🦀"]),
            // A combining accent stays with its letter at the wrap column.
            ("abce\u{301}fg", 4, &["abce\u{301}", "fg"]),
            ("abcde\u{301}\u{302}f", 4, &["abcd", "e\u{301}\u{302}f"]),
        ];
        for (text, width, want) in cases {
            assert_eq!(rows(text, *width), *want, "{text:?} at {width}");
        }
    }

    fn kept(text: &str, width: usize) -> Vec<&str> {
        wrap_keeping_urls(text, width)
            .into_iter()
            .map(|(a, b)| &text[a as usize..b as usize])
            .collect()
    }

    /// Issue 33: `get --width` cut URLs in the middle. A URL is never cut: it goes on its own
    /// row, longer than the width when it must be.
    #[test]
    fn urls_are_never_cut() {
        let url = "https://news.example/2026/12/07/global-warming-has-begun.html";
        let text = format!("Read it: [3] The story <{url}> today");
        assert_eq!(
            kept(&text, 30),
            ["Read it: [3] The story", &format!("<{url}>"), "today"]
        );
        // A short URL that fits stays on its row.
        assert_eq!(
            kept("see gemini://a.test/ now", 30),
            ["see gemini://a.test/ now"]
        );
        assert_eq!(
            kept("see gemini://a.test/ and more", 14),
            ["see", "gemini://a.test/", "and more"]
        );
        // Alone, at the start, the URL is its own row.
        assert_eq!(kept(url, 20), [url]);
        // Words that only look alike are still cut, and plain wrap cuts every long word.
        assert_eq!(kept("abcdefgh", 4), ["abcd", "efgh"]);
        assert_eq!(kept("://abcdefgh", 4), ["://a", "bcde", "fgh"]);
        assert!(rows(url, 20).len() > 1, "the browser's wrap still cuts");
        // Nothing is lost or reordered.
        let letters = |s: &str| s.chars().filter(|c| !c.is_whitespace()).collect::<String>();
        for width in 1..40 {
            let joined: String = kept(&text, width).concat();
            assert_eq!(letters(&joined), letters(&text), "at {width}");
            assert!(
                kept(&text, width).iter().any(|r| r.contains(url)),
                "at {width}"
            );
        }
    }

    #[test]
    fn no_row_is_wider_than_asked() {
        let text = "Lorem ipsum dolor sit amet, 日本語 consectetur adipiscing elit, sed do eiusmod";
        for width in 2..40 {
            for r in rows(text, width) {
                assert!(display_width(r) <= width, "{r:?} wider than {width}");
            }
        }
    }

    #[test]
    fn a_cut_never_splits_a_grapheme_cluster() {
        let family = "👨\u{200d}👩\u{200d}👧";
        let text = format!("abc{family}{family}de\u{301}e\u{301}x");
        for width in 1..12 {
            let rows = rows(&text, width);
            assert_eq!(rows.concat(), text, "nothing lost at {width}");
            for r in &rows {
                assert!(
                    !r.starts_with('\u{200d}') && !r.starts_with('\u{301}'),
                    "{r:?} starts inside a cluster at {width}"
                );
                assert!(!r.ends_with('\u{200d}'), "{r:?} at {width}");
            }
        }
        let short = format!("abc{family}");
        assert_eq!(
            rows(&short, 4),
            ["abc", family],
            "the family moves whole to the next row"
        );
    }

    #[test]
    fn widths() {
        assert_eq!(display_width("abc"), 3);
        assert_eq!(display_width("日本"), 4);
        assert_eq!(display_width("e\u{301}"), 1);
        // As drawn: a bidi override is its one-cell mark, a zero-width space nothing.
        assert_eq!(display_width("a\u{202e}b"), 3);
        assert_eq!(display_width("a\u{200b}b"), 2);
        assert_eq!(display_width("a\x1bb"), 3);
    }
}
