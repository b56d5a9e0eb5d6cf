//! The content walker: what a reader of the extracted text would notice, and bytes that must
//! not break it.

use super::*;

/// One font, `/F1`, whose bytes are Latin-1; `/Fm1` is a form drawing `form`; `/Im1` an image.
struct Fake {
    form: Option<Vec<u8>>,
}

impl Resources for Fake {
    fn decode(&self, font: &[u8], bytes: &[u8], out: &mut String) -> bool {
        if font != b"F1" {
            return false;
        }
        out.extend(bytes.iter().map(|&b| char::from(b)));
        true
    }
    fn xobject(&self, name: &[u8]) -> XObject<'_> {
        match (name, &self.form) {
            (b"Fm1", Some(f)) => XObject::Form(
                f.clone(),
                Box::new(Fake {
                    form: Some(f.clone()),
                }),
            ),
            (b"Im1", _) => XObject::Image,
            _ => XObject::Unknown,
        }
    }
}

fn text_of(content: &str) -> String {
    let mut p = PageText::default();
    p.read(content.as_bytes(), &Fake { form: None }, &|| true);
    p.text
}

#[test]
fn lines_words_and_paragraphs_come_from_positions() {
    let cases = [
        // Td moves down: new lines; a much larger gap: a blank line.
        (
            "BT /F1 12 Tf 72 700 Td (one) Tj 0 -14 Td (two) Tj 0 -14 Td (three) Tj 0 -40 Td (four) Tj ET",
            "one\ntwo\nthree\n\nfour",
        ),
        // Words placed one by one on one baseline: spaces between them.
        (
            "BT /F1 12 Tf 1 0 0 1 72 700 Tm (left) Tj 1 0 0 1 110 700 Tm (right) Tj ET",
            "left right",
        ),
        // Separate BT blocks on separate baselines.
        (
            "BT /F1 12 Tf 72 700 Td (a) Tj ET BT /F1 12 Tf 72 686 Td (b) Tj ET",
            "a\nb",
        ),
        // TJ: wide gaps are spaces, kerning is not.
        ("BT /F1 12 Tf [(Wo) -20 (rd) -333 (two)] TJ ET", "Word two"),
        // T*, ' and " start new lines.
        (
            "BT /F1 12 Tf 14 TL (a) Tj T* (b) Tj (c) ' 1 2 (d) \" ET",
            "a\nb\nc\nd",
        ),
        // Strings: escapes, octal, balanced parentheses, hex (odd digit padded).
        (
            r"BT /F1 12 Tf (x\(y\) \101\102 (nested) \\) Tj ET",
            r"x(y) AB (nested) \",
        ),
        ("BT /F1 12 Tf <48 69 2>Tj ET", "Hi "),
        // Unknown fonts and text before any Tf show nothing.
        ("BT (lost) Tj /F9 12 Tf (lost too) Tj ET", ""),
        // Comments, dictionaries, booleans and stray closers are skipped.
        (
            "% a comment\n/Span << /ActualText (x) /K [1 2] >> BDC BT /F1 12 Tf (kept) Tj ET EMC ] } true",
            "kept",
        ),
        // Control characters from a font are dropped, tabs become spaces.
        ("BT /F1 12 Tf (a\\tb\\000c) Tj ET", "a bc"),
    ];
    for (content, want) in cases {
        assert_eq!(text_of(content), want, "{content}");
    }
}

#[test]
fn inline_images_are_skipped_and_noted() {
    let mut p = PageText::default();
    let content = b"BT /F1 12 Tf (before) Tj ET\nBI /W 2 /H 1 /BPC 8 /CS /G ID \x00(EI) Tj\xff EI\nBT /F1 12 Tf 72 600 Td (after) Tj ET";
    p.read(content, &Fake { form: None }, &|| true);
    assert_eq!(p.text, "before\nafter");
    assert!(p.saw_image);
}

#[test]
fn forms_are_entered_to_a_bounded_depth_and_images_noted() {
    // A form that draws itself: read MAX_FORM_DEPTH times, then no deeper.
    let form = b"BT /F1 12 Tf [(f)] TJ ET /Fm1 Do".to_vec();
    let mut p = PageText::default();
    p.read(b"/Fm1 Do /Im1 Do", &Fake { form: Some(form) }, &|| true);
    assert_eq!(p.text, "f".repeat(MAX_FORM_DEPTH));
    assert!(p.saw_image);
}

#[test]
fn keep_going_stops_a_long_stream() {
    let content = "BT /F1 12 Tf (x) Tj ET\n".repeat(CHECK_EVERY);
    let mut p = PageText::default();
    p.read(content.as_bytes(), &Fake { form: None }, &|| false);
    assert!(p.stopped);
    let mut p = PageText::default();
    p.read(content.as_bytes(), &Fake { form: None }, &|| true);
    assert!(!p.stopped);
}

#[test]
fn operands_and_arrays_are_held_only_up_to_their_bounds() {
    let mut lex = Lexer { s: b"", i: 0 };
    let many = format!("[{}] TJ", "(a) ".repeat(MAX_ARRAY + 10));
    lex.s = many.as_bytes();
    let items = match lex.next_token() {
        Some(Token::Operand(Operand::Array(items))) => items,
        _ => Vec::new(),
    };
    assert_eq!(items.len(), MAX_ARRAY);
    // A flood of operands before one operator keeps only the first few.
    let flood = format!("{} Tj", "1 ".repeat(100_000));
    let mut p = PageText::default();
    p.read(flood.as_bytes(), &Fake { form: None }, &|| true);
    assert_eq!(p.text, "");
}

#[test]
fn any_bytes_are_read_without_panicking() {
    // Truncated strings, arrays, dictionaries and inline images at the end of the stream.
    for content in [
        &b"BT /F1 12 Tf (unterminated"[..],
        b"BT /F1 12 Tf <4142",
        b"[(a) (b",
        b"<< /A << /B (x",
        b"BI /W 1 ID",
        b"BI /W 1",
        b"(\\",
        b"1e5 -- .. +. Tm Td",
        b"\xff\xfe\x00\x01",
    ] {
        let mut p = PageText::default();
        p.read(content, &Fake { form: None }, &|| true);
    }
    // A deterministic pseudo-random walk over content-stream bytes.
    let alphabet = b"()<>[]{}/% \n\\0123456789.-TjJdmfBTETBIIDEIQq*'\"";
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    for _ in 0..2000 {
        let len = (seed % 200) as usize;
        let bytes: Vec<u8> = (0..len)
            .map(|_| {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                alphabet[(seed % alphabet.len() as u64) as usize]
            })
            .collect();
        let mut p = PageText::default();
        p.read(
            &bytes,
            &Fake {
                form: Some(bytes.clone()),
            },
            &|| true,
        );
    }
}

#[test]
fn numbers() {
    assert_eq!(number(b"12"), Some(12.0));
    assert_eq!(number(b"-3.5"), Some(-3.5));
    assert_eq!(number(b".5"), Some(0.5));
    assert_eq!(number(b"+1."), Some(1.0));
    assert_eq!(number(b"Tj"), None);
    assert_eq!(number(b"1e5"), None);
    assert_eq!(number(b"--"), None);
}
