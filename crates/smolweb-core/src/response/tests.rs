use super::*;
use proptest::prelude::*;

#[test]
fn headers_that_parse() {
    let cases: [(&[u8], u8, &str); 8] = [
        (b"20 text/gemini\r\n", 20, "text/gemini"),
        (b"20\r\n", 20, ""),
        (b"20 \r\n", 20, ""),
        (b"10 Your name?\r\n", 10, "Your name?"),
        (b"31 gemini://h/x\r\n", 31, "gemini://h/x"),
        (b"69 odd but valid\r\n", 69, "odd but valid"),
        (b"51 caf\xc3\xa9\r\n", 51, "caf\u{e9}"),
        (b"44  two spaces\r\n", 44, " two spaces"),
    ];
    for (line, status, meta) in cases {
        let h = parse_header(line).unwrap();
        assert_eq!((h.status, h.meta.as_str()), (status, meta), "{line:?}");
    }
}

#[test]
fn headers_refused() {
    let long = format!("20 {}\r\n", "a".repeat(MAX_META_BYTES + 1));
    let max = format!("20 {}\r\n", "a".repeat(MAX_META_BYTES));
    assert_eq!(max.len(), MAX_HEADER_BYTES);
    assert!(parse_header(max.as_bytes()).is_ok());
    let cases: [(&[u8], HeaderError); 13] = [
        (b"20 text/gemini", HeaderError::MissingCrlf),
        (b"20 text/gemini\n", HeaderError::MissingCrlf),
        (b"20 text/gemini\r", HeaderError::MissingCrlf),
        (b"20 a\nb\r\n", HeaderError::MissingCrlf),
        (b"", HeaderError::MissingCrlf),
        (
            b"200 text/gemini\r\n",
            HeaderError::InvalidStatus("200".into()),
        ),
        (b"2 text/gemini\r\n", HeaderError::InvalidStatus("2".into())),
        (b"70 x\r\n", HeaderError::InvalidStatus("70".into())),
        (b"09 x\r\n", HeaderError::InvalidStatus("09".into())),
        (b"ab x\r\n", HeaderError::InvalidStatus("ab".into())),
        (b"20text/gemini\r\n", HeaderError::MissingSpace),
        (b"20\ttext/gemini\r\n", HeaderError::MissingSpace),
        (b"20 \xff\r\n", HeaderError::NotUtf8),
    ];
    for (line, err) in cases {
        assert_eq!(parse_header(line), Err(err), "{line:?}");
    }
    assert_eq!(
        parse_header(long.as_bytes()),
        Err(HeaderError::TooLong(MAX_META_BYTES + 1))
    );
}

#[test]
fn header_end_finds_first_lf() {
    assert_eq!(header_end(b"20 text/gemini\r\nbody\n"), Some(16));
    assert_eq!(header_end(b"20 text/gem"), None);
    assert_eq!(header_end(b""), None);
    assert_eq!(header_end(b"\n"), Some(1));
}

#[test]
fn status_classes() {
    let cases = [
        (10, StatusClass::Input),
        (20, StatusClass::Success),
        (31, StatusClass::Redirect),
        (44, StatusClass::TemporaryFailure),
        (59, StatusClass::PermanentFailure),
        (62, StatusClass::ClientCertificate),
    ];
    for (status, class) in cases {
        let h = parse_header(format!("{status} m\r\n").as_bytes()).unwrap();
        assert_eq!(h.class(), class);
    }
}

fn m(meta: &str) -> (String, Option<String>, Option<String>) {
    let mime = parse_mime(meta);
    (mime.essence(), mime.charset, mime.lang)
}

#[test]
fn mime_types() {
    let s = |v: &str| Some(v.to_string());
    let cases = [
        ("", ("text/gemini", s("utf-8"), None)),
        ("text/gemini", ("text/gemini", None, None)),
        (
            "Text/Gemini; Charset=UTF-8; LANG=en-GB",
            ("text/gemini", s("utf-8"), s("en-GB")),
        ),
        (
            "text/plain;charset=\"ISO-8859-1\"",
            ("text/plain", s("iso-8859-1"), None),
        ),
        (
            "text/gemini; lang=\"en;fr\"; charset=utf-8",
            ("text/gemini", s("utf-8"), s("en;fr")),
        ),
        (
            "text/gemini; lang=\"a\\\"b\"",
            ("text/gemini", None, s("a\"b")),
        ),
        (
            "text/gemini; junk; ;=x; charset = latin1 ",
            ("text/gemini", s("latin1"), None),
        ),
        (
            "text/gemini; charset=\"unterminated",
            ("text/gemini", s("unterminated"), None),
        ),
        ("text/gemini; charset=", ("text/gemini", None, None)),
        (
            "text/gemini; charset=a; charset=b",
            ("text/gemini", s("a"), None),
        ),
        ("image/PNG", ("image/png", None, None)),
        ("gemini", ("application/octet-stream", None, None)),
        ("/x", ("application/octet-stream", None, None)),
        ("te xt/plain", ("application/octet-stream", None, None)),
    ];
    for (meta, (essence, charset, lang)) in cases {
        assert_eq!(m(meta), (essence.to_string(), charset, lang), "{meta:?}");
    }
    assert!(parse_mime("").is_gemtext());
    assert!(parse_mime("text/plain").is_text());
    assert!(!parse_mime("image/png").is_text());
}

proptest! {
    #[test]
    fn header_parser_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..1100)) {
        let _ = parse_header(&bytes);
        let _ = header_end(&bytes);
    }

    #[test]
    fn well_formed_headers_parse(status in 10u8..=69, meta in "[^\r\n]{0,200}") {
        let line = if meta.is_empty() { format!("{status}\r\n") } else { format!("{status} {meta}\r\n") };
        let h = parse_header(line.as_bytes()).unwrap();
        prop_assert_eq!((h.status, h.meta), (status, meta));
    }

    #[test]
    fn mime_parser_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        let meta = String::from_utf8_lossy(&bytes);
        let mime = parse_mime(&meta);
        prop_assert!(!mime.mime_type.is_empty() && !mime.subtype.is_empty());
    }
}
