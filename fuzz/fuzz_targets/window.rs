//! The contract's windows (`core::window`) over a body: bytes 0-1 are the window limit in
//! chars (little endian; 0 is treated as 1), byte 2 chooses gemtext (even) or plain text
//! (odd), the rest is the body. Every window from offset 0 is walked and the module's
//! invariants checked: at most `limit` chars, windows concatenate to exactly the body, the
//! carried preformatted state matches a parse of the whole body.
#![no_main]
use libfuzzer_sys::fuzz_target;
use smolweb_core::gemtext::{self, LineKind};
use smolweb_core::url::Url;
use smolweb_core::window::{Body, gemtext_window, text_window};
use std::sync::LazyLock;

static BASE: LazyLock<Url> =
    LazyLock::new(|| Url::parse("gemini://fuzz.example/dir/page.gmi").unwrap());

fuzz_target!(|data: &[u8]| {
    if data.len() < 3 {
        return;
    }
    let limit = usize::from(u16::from_le_bytes([data[0], data[1]]));
    let gemtext = data[2].is_multiple_of(2);
    let text = String::from_utf8_lossy(&data[3..]).into_owned();
    let body = Body::new(text.clone());
    let total = text.chars().count();
    assert_eq!(body.total_chars(), total);
    let mut joined = String::new();
    let mut offset = 0;
    let mut windowed_lines = Vec::new();
    let mut any_partial = false;
    loop {
        let (piece, chars, next) = if gemtext {
            let w = gemtext_window(&body, Some(&BASE), offset, limit);
            assert_eq!(w.offset, offset);
            any_partial |= w.partial_line;
            if !w.partial_line {
                windowed_lines.extend(w.document.lines.iter().map(|l| (l.kind, l.content.clone())));
            }
            (w.text, w.chars, w.next_offset)
        } else {
            let w = text_window(&body, offset, limit);
            assert_eq!(w.truncated, w.next_offset.is_some());
            (w.text, w.chars, w.next_offset)
        };
        assert!(
            chars <= limit.max(1),
            "{chars} chars in a window of {limit}"
        );
        assert_eq!(piece.chars().count(), chars);
        joined.push_str(piece);
        match next {
            Some(n) => {
                assert!(chars > 0, "an empty window before the end");
                assert_eq!(n, offset + chars);
                offset = n;
            }
            None => break,
        }
    }
    assert_eq!(joined, text, "the windows do not concatenate to the body");
    // Past the end: an empty window.
    let past = text_window(&body, total + 1, limit);
    assert!(past.text.is_empty() && past.next_offset.is_none() && !past.truncated);
    // Without pieces of long lines, the windows' parses are the whole parse.
    if gemtext && !any_partial {
        let whole: Vec<(LineKind, String)> = gemtext::parse(&text, Some(&BASE))
            .lines
            .into_iter()
            .map(|l| (l.kind, l.content))
            .collect();
        assert_eq!(windowed_lines, whole, "the carried parser state went wrong");
    }
});
