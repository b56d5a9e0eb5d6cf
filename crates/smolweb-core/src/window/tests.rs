use super::body::STRIDE;
use super::*;
use proptest::prelude::*;

fn body(s: &str) -> Body {
    Body::new(s.to_string())
}

#[test]
fn body_index_matches_naive_walk() {
    // Mixed 1-4 byte chars over several checkpoint strides.
    let unit = "aé€😀\n";
    let text = unit.repeat(STRIDE);
    let b = body(&text);
    assert_eq!(b.total_chars(), text.chars().count());
    let naive: Vec<usize> = text.char_indices().map(|(i, _)| i).collect();
    for c in [
        0,
        1,
        2,
        3,
        4,
        5,
        STRIDE - 1,
        STRIDE,
        STRIDE + 1,
        3 * STRIDE + 7,
        naive.len() - 1,
    ] {
        assert_eq!(b.byte_at(c), naive[c], "char {c}");
    }
    assert_eq!(b.byte_at(naive.len()), text.len());
    assert_eq!(b.byte_at(usize::MAX), text.len());
    assert_eq!(body("").byte_at(0), 0);
    assert_eq!(body("").total_chars(), 0);
}

#[test]
fn text_window_table() {
    // (body, offset, limit, window text, next_offset)
    let cases: &[(&str, usize, usize, &str, Option<usize>)] = &[
        ("one\ntwo\nthree\n", 0, 9, "one\ntwo\n", Some(8)),
        ("one\ntwo\nthree\n", 8, 9, "three\n", None),
        ("one\ntwo\nthree\n", 0, 100, "one\ntwo\nthree\n", None),
        ("abcdefgh", 0, 3, "abc", Some(3)),
        ("abcdefgh", 6, 3, "gh", None),
        ("abc", 3, 3, "", None),
        ("abc", 99, 3, "", None),
        ("ab\r\ncd", 0, 3, "ab\r", Some(3)),
        ("x\nab\r\ncd", 0, 5, "x\n", Some(2)),
        ("éé\néé", 0, 4, "éé\n", Some(3)),
        ("abc", 0, 0, "a", Some(1)),
    ];
    for (text, offset, limit, want, next) in cases {
        let b = body(text);
        let w = text_window(&b, *offset, *limit);
        assert_eq!(w.text, *want, "{text:?} @{offset} /{limit}");
        assert_eq!(w.next_offset, *next, "{text:?} @{offset} /{limit}");
        assert_eq!(w.truncated, next.is_some());
        assert_eq!(w.chars, want.chars().count());
        assert_eq!(w.total_chars, text.chars().count());
        assert_eq!(w.offset, *offset);
    }
}

#[test]
fn gemtext_window_cuts_at_complete_lines() {
    let b = body("# T\n=> /a A\ntext\n");
    let w = gemtext_window(&b, None, 0, 14);
    assert_eq!(w.text, "# T\n=> /a A\n");
    assert_eq!(w.next_offset, Some(12));
    assert!(!w.partial_line);
    let w = gemtext_window(&b, None, 12, 14);
    assert_eq!(w.text, "text\n");
    assert_eq!(w.next_offset, None);
    assert!(!w.truncated);
}

#[test]
fn gemtext_long_line_is_delivered_unparsed_in_pieces() {
    let b = body("=> gemini://example.org/very/long/link label\n# after\n");
    let w1 = gemtext_window(&b, None, 0, 10);
    assert_eq!(w1.text, "=> gemini:");
    assert!(w1.partial_line);
    assert_eq!(w1.document.lines.len(), 1);
    assert_eq!(w1.document.lines[0].kind, LineKind::Text);
    assert_eq!(w1.document.lines[0].content, "=> gemini:");
    assert!(w1.document.lines[0].link.is_none());
    // The continuation is never parsed, even when it looks like a heading or link.
    let mut at = w1.next_offset.unwrap();
    let mut pieces = vec![w1.text.to_string()];
    loop {
        let w = gemtext_window(&b, None, at, 10);
        if !w.partial_line {
            assert_eq!(w.text, "# after\n");
            break;
        }
        assert_eq!(w.document.lines.len(), 1);
        assert_eq!(w.document.lines[0].kind, LineKind::Text);
        assert!(w.chars <= 10);
        pieces.push(w.text.to_string());
        at = w.next_offset.unwrap();
    }
    assert_eq!(
        pieces.concat(),
        "=> gemini://example.org/very/long/link label\n"
    );
    // The last piece ends at the line end (so "# after" starts a window); no terminator in
    // its content.
    let last = pieces.last().unwrap();
    assert!(last.ends_with('\n'));
}

#[test]
fn gemtext_continuation_that_looks_like_markup_stays_text() {
    // The cut falls right before "=> " inside one long line.
    let b = body("aaaa=> /x link\n");
    let w = gemtext_window(&b, None, 4, 100);
    assert_eq!(w.text, "=> /x link\n");
    assert!(w.partial_line);
    assert_eq!(w.document.lines[0].kind, LineKind::Text);
    assert_eq!(w.document.lines[0].content, "=> /x link");
    assert_eq!(w.next_offset, None);
}

#[test]
fn gemtext_window_start_state_tracks_fences() {
    let text = "intro\n```rust\nfn main() {}\n=> not a link\n```\nafter\n";
    let b = body(text);
    let starts = [
        (0, false),
        (6, false),  // the opening fence line itself
        (14, true),  // inside the block
        (27, true),  // "=> not a link"
        (41, true),  // the closing fence
        (45, false), // after the block
    ];
    for (offset, pre) in starts {
        let w = gemtext_window(&b, None, offset, 1000);
        assert_eq!(
            w.start_state.in_preformat, pre,
            "offset {offset}: {:?}",
            w.text
        );
    }
}

#[test]
fn gemtext_window_past_end_is_empty() {
    let b = body("# x\n");
    for offset in [4, 5, 1000] {
        let w = gemtext_window(&b, None, offset, 10);
        assert_eq!(w.text, "");
        assert!(w.document.lines.is_empty());
        assert_eq!(w.next_offset, None);
        assert!(!w.truncated && !w.partial_line);
    }
}

#[test]
fn gemtext_window_never_splits_crlf() {
    let b = body("ab\r\ncd\r\n");
    let w = gemtext_window(&b, None, 0, 3);
    // "ab\r" would split the CRLF: the first line does not fit, so it is a partial piece.
    assert!(w.partial_line);
    assert_eq!(w.text, "ab\r");
    let w2 = gemtext_window(&b, None, 3, 3);
    assert_eq!(w2.text, "\n");
    assert!(w2.partial_line);
    let w3 = gemtext_window(&b, None, 4, 4);
    assert_eq!(w3.text, "cd\r\n");
    assert!(!w3.partial_line);
}

#[test]
fn gemtext_window_document_comes_from_window_text_with_state() {
    let text = "```\n=> /in-block\n```\n=> /a A\n## H\n";
    let b = body(text);
    let w = gemtext_window(&b, None, 4, 1000);
    assert!(w.start_state.in_preformat);
    let kinds: Vec<LineKind> = w.document.lines.iter().map(|l| l.kind).collect();
    assert_eq!(
        kinds,
        [
            LineKind::Preformat,
            LineKind::Preformat,
            LineKind::Link,
            LineKind::Heading2
        ]
    );
    let w = gemtext_window(&b, None, 0, 21);
    assert_eq!(w.text, "```\n=> /in-block\n```\n");
    assert_eq!(w.document.lines.len(), 3);
    assert_eq!(w.document.links().count(), 0);
}

#[test]
fn held_window_refuses_a_document_of_another_body() {
    let b = body("one\ntwo\n");
    let other = gemtext::parse("one\n", None);
    assert!(held_gemtext_window(&b, &other, 0, 100).is_none());
    let whole = gemtext::parse(b.text(), None);
    let h = held_gemtext_window(&b, &whole, 4, 100).unwrap();
    assert_eq!(h.lines.len(), 1);
    assert_eq!(h.lines[0].content, "two");
    assert!(held_gemtext_window(&body(""), &gemtext::parse("", None), 0, 5).is_some());
}

#[test]
fn item_window_table() {
    let items: Vec<u32> = (0..10).collect();
    // (offset, limit, items, next_offset)
    let cases: &[(usize, usize, &[u32], Option<usize>)] = &[
        (0, 4, &[0, 1, 2, 3], Some(4)),
        (8, 4, &[8, 9], None),
        (6, 4, &[6, 7, 8, 9], None),
        (10, 4, &[], None),
        (50, 4, &[], None),
        (0, 0, &[0], Some(1)),
        (0, usize::MAX, &[0, 1, 2, 3, 4, 5, 6, 7, 8, 9], None),
    ];
    for (offset, limit, want, next) in cases {
        let w = item_window(&items, *offset, *limit);
        assert_eq!(w.items, *want, "@{offset} /{limit}");
        assert_eq!(w.next_offset, *next, "@{offset} /{limit}");
        assert_eq!(w.truncated, next.is_some());
        assert_eq!(w.total_items, 10);
    }
}

/// Bodies built from pieces that stress cuts: multi-byte chars, CR/LF/CRLF, markup.
fn arb_body() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("a"),
        Just("word "),
        Just("é"),
        Just("😀"),
        Just("\n"),
        Just("\r\n"),
        Just("\r"),
        Just("=> /link label\n"),
        Just("=> gemini://h/x\n"),
        Just("# head\n"),
        Just("```\n"),
        Just("```py\n"),
        Just("* item\n"),
    ];
    proptest::collection::vec(piece, 0..60).prop_map(|v| v.concat())
}

/// Walk all gemtext windows from 0 and check the invariants; returns the windows' documents.
fn walk_gemtext(b: &Body, limit: usize) -> Result<Vec<Document>, TestCaseError> {
    let mut at = 0;
    let mut text = String::new();
    let mut docs = Vec::new();
    loop {
        let w = gemtext_window(b, None, at, limit);
        prop_assert!(w.chars <= limit.max(1));
        prop_assert_eq!(w.chars, w.text.chars().count());
        text.push_str(w.text);
        if let Some(next) = w.next_offset {
            prop_assert_eq!(next, at + w.chars);
            prop_assert!(w.truncated);
            if !w.partial_line {
                let end = b.byte_at(next);
                prop_assert!(b.is_line_start(end), "cut mid-line at {}", next);
            }
            at = next;
            docs.push(w.document);
        } else {
            prop_assert!(!w.truncated);
            docs.push(w.document);
            break;
        }
    }
    prop_assert_eq!(text, b.text());
    Ok(docs)
}

proptest! {
    #[test]
    fn text_windows_rebuild_the_body(s in arb_body(), limit in 1usize..40) {
        let b = Body::new(s.clone());
        prop_assert_eq!(b.total_chars(), s.chars().count());
        let mut at = 0;
        let mut text = String::new();
        loop {
            let w = text_window(&b, at, limit);
            prop_assert!(w.chars <= limit);
            prop_assert_eq!(w.chars, w.text.chars().count());
            text.push_str(w.text);
            match w.next_offset {
                Some(next) => {
                    prop_assert_eq!(next, at + w.chars);
                    at = next;
                }
                None => break,
            }
        }
        prop_assert_eq!(text, s);
    }

    #[test]
    fn gemtext_windows_rebuild_the_body(s in arb_body(), limit in 1usize..40) {
        let b = Body::new(s);
        walk_gemtext(&b, limit)?;
    }

    #[test]
    fn body_byte_at_matches_char_indices(s in "\\PC{0,300}", k in 0usize..400) {
        let b = Body::new(s.clone());
        let want = s.char_indices().nth(k).map_or(s.len(), |(i, _)| i);
        prop_assert_eq!(b.byte_at(k), want);
    }

    #[test]
    fn windows_never_panic_on_any_offset(s in arb_body(), offset in 0usize..2000, limit in 0usize..50) {
        let b = Body::new(s);
        let _ = text_window(&b, offset, limit);
        let _ = gemtext_window(&b, None, offset, limit);
    }

    #[test]
    fn held_windows_are_the_parsed_windows(s in arb_body(), offset in 0usize..400, limit in 1usize..40) {
        let b = Body::new(s);
        let base = Url::parse("gemini://example.org/dir/page").ok();
        let whole = gemtext::parse(b.text(), base.as_ref());
        let w = gemtext_window(&b, base.as_ref(), offset, limit);
        match held_gemtext_window(&b, &whole, offset, limit) {
            Some(h) => {
                prop_assert!(!w.partial_line);
                prop_assert_eq!(h.lines, w.document.lines.as_slice());
                prop_assert_eq!(whole.lines.get(h.first..h.first + h.lines.len()), Some(h.lines));
                prop_assert_eq!(
                    (h.offset, h.chars, h.next_offset, h.total_chars, h.truncated),
                    (w.offset, w.chars, w.next_offset, w.total_chars, w.truncated)
                );
            }
            None => prop_assert!(w.partial_line, "only a piece of a long line is refused"),
        }
    }

    #[test]
    fn windowed_links_match_whole_parse(s in arb_body(), limit in 16usize..80) {
        let b = Body::new(s);
        let longest = b.text().split(['\n', '\r']).map(|l| l.chars().count() + 2).max();
        prop_assume!(longest.unwrap_or(0) <= limit);
        let docs = walk_gemtext(&b, limit)?;
        let windowed: usize = docs.iter().map(|d| d.links().count()).sum();
        let whole = gemtext::parse(b.text(), None).links().count();
        prop_assert_eq!(windowed, whole);
    }
}
