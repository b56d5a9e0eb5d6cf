//! Windows over a converted web page (`fetch_url`'s `start_index` / `max_chars`).
//!
//! Built on [`crate::window::text_window`] (character offsets, cut after the last line
//! end inside the window when there is one), and preferring a paragraph boundary (a blank
//! line) when one lies in the second half of the window. Walking `next_offset` from 0 visits windows
//! that concatenate to exactly the text; an offset at or past the end gives an empty window.

use crate::window::{Body, TextWindow, text_window};

/// The window of at most `max_chars` characters starting at `start`: a [`TextWindow`], as for
/// a Gemini or Gopher text, cut at a paragraph boundary when one lies in its second half.
pub fn web_window(body: &Body, start: usize, max_chars: usize) -> TextWindow<'_> {
    let w = text_window(body, start, max_chars);
    let mut text = w.text;
    if w.next_offset.is_some()
        && let Some(cut) = text.rfind("\n\n")
        && cut + 2 > text.len() / 2
    {
        text = &text[..cut + 2];
    }
    let chars = if text.len() == w.text.len() {
        w.chars
    } else {
        text.chars().count()
    };
    let next_offset = (start + chars < w.total_chars).then_some(start + chars);
    TextWindow {
        text,
        offset: start,
        chars,
        next_offset,
        total_chars: w.total_chars,
        truncated: next_offset.is_some(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_join_exactly_and_prefer_paragraphs() {
        let mut text = String::new();
        for i in 0..300 {
            text.push_str(&format!(
                "Paragraph {i} é with words.\nSecond line {i}.\n\n"
            ));
        }
        text.push_str("no newline at the end ü");
        let body = Body::new(text.clone());
        for max in [1, 7, 50, 333, 1000] {
            let mut at = 0;
            let mut joined = String::new();
            loop {
                let w = web_window(&body, at, max);
                assert!(w.chars <= max && w.chars > 0, "max {max}");
                joined.push_str(w.text);
                assert_eq!(w.truncated, w.next_offset.is_some());
                match w.next_offset {
                    Some(n) => at = n,
                    None => break,
                }
            }
            assert_eq!(joined, text, "max {max}");
        }
        let w = web_window(&body, 0, 100);
        assert!(w.text.ends_with("\n\n"), "{:?}", w.text);
        let end = web_window(&body, body.total_chars() + 5, 10);
        assert_eq!((end.text, end.next_offset), ("", None));
    }
}
