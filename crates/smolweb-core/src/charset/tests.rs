use super::*;
use proptest::prelude::*;

const GEM: Origin = Origin::Gemini;
const GOPHER: Origin = Origin::Gopher;
const WEB: Origin = Origin::Web { html: false };
const HTML: Origin = Origin::Web { html: true };

fn utf16le(s: &str) -> Vec<u8> {
    s.encode_utf16().flat_map(u16::to_le_bytes).collect()
}

fn utf16be(s: &str) -> Vec<u8> {
    s.encode_utf16().flat_map(u16::to_be_bytes).collect()
}

fn encode(label: &str, s: &str) -> Vec<u8> {
    let enc = Encoding::for_label(label.as_bytes()).unwrap();
    let (bytes, _, bad) = enc.encode(s);
    assert!(!bad, "{s} in {label}");
    bytes.into_owned()
}

/// (body, declared, origin) -> (text, charset name, source).
type Case<'a> = (Vec<u8>, Option<&'a str>, Origin, &'a str, &'a str, Source);

#[test]
fn decode_table() {
    let ja = "日本語のテキストです。今日は良い天気ですね。";
    let ko = "한국어 텍스트입니다. 오늘은 날씨가 좋네요.";
    let zh = "简体中文的文本。今天天气很好。";
    let tw = "繁體中文的文字。今天天氣很好。";
    let bom_le = [&[0xFF, 0xFE][..], &utf16le("# Hé\n")].concat();
    let bom_be = [&[0xFE, 0xFF][..], &utf16be("# Hé\n")].concat();
    let cases: Vec<Case> = vec![
        // UTF-16, declared, with and without a BOM; the BOM wins over the label.
        (
            utf16le("# Hé\n"),
            Some("utf-16"),
            GEM,
            "# Hé\n",
            "utf-16le",
            Source::Declared,
        ),
        (
            utf16le("# Hé\n"),
            Some("UTF-16LE"),
            GEM,
            "# Hé\n",
            "utf-16le",
            Source::Declared,
        ),
        (
            utf16be("# Hé\n"),
            Some("utf-16be"),
            GEM,
            "# Hé\n",
            "utf-16be",
            Source::Declared,
        ),
        (
            bom_le.clone(),
            Some("utf-16"),
            GEM,
            "# Hé\n",
            "utf-16le",
            Source::Bom,
        ),
        (
            bom_be.clone(),
            Some("utf-16le"),
            GEM,
            "# Hé\n",
            "utf-16be",
            Source::Bom,
        ),
        (
            bom_be.clone(),
            None,
            GOPHER,
            "# Hé\n",
            "utf-16be",
            Source::Bom,
        ),
        (
            bom_le,
            Some("iso-8859-1"),
            WEB,
            "# Hé\n",
            "utf-16le",
            Source::Bom,
        ),
        // A UTF-8 BOM served as iso-8859-1 is UTF-8 (the WHATWG rule).
        (
            b"\xEF\xBB\xBFcaf\xC3\xA9".to_vec(),
            Some("iso-8859-1"),
            HTML,
            "café",
            "utf-8",
            Source::Bom,
        ),
        (
            b"\xEF\xBB\xBFhi".to_vec(),
            None,
            GOPHER,
            "hi",
            "utf-8",
            Source::Bom,
        ),
        // Legacy CJK encodings by label.
        (
            encode("shift_jis", ja),
            Some("Shift_JIS"),
            GEM,
            ja,
            "shift_jis",
            Source::Declared,
        ),
        (
            encode("euc-jp", ja),
            Some("euc-jp"),
            GEM,
            ja,
            "euc-jp",
            Source::Declared,
        ),
        (
            encode("euc-kr", ko),
            Some("euc-kr"),
            GEM,
            ko,
            "euc-kr",
            Source::Declared,
        ),
        (
            encode("gb18030", zh),
            Some("gb18030"),
            WEB,
            zh,
            "gb18030",
            Source::Declared,
        ),
        (
            encode("gbk", zh),
            Some("GB2312"),
            GEM,
            zh,
            "gbk",
            Source::Declared,
        ),
        (
            encode("big5", tw),
            Some("big5"),
            GEM,
            tw,
            "big5",
            Source::Declared,
        ),
        // WHATWG label rules: latin-1 is windows-1252; quotes and case do not matter.
        (
            b"caf\xe9".to_vec(),
            Some("ISO-8859-1"),
            GEM,
            "café",
            "windows-1252",
            Source::Declared,
        ),
        (
            b"\x93q\x94".to_vec(),
            Some("\"latin1\""),
            GEM,
            "“q”",
            "windows-1252",
            Source::Declared,
        ),
        (
            b"\xc4\xb3".to_vec(),
            Some("cp437"),
            GEM,
            "─│",
            "cp437",
            Source::Declared,
        ),
        (
            b"\xc4\xb3".to_vec(),
            Some("IBM437"),
            GEM,
            "─│",
            "cp437",
            Source::Declared,
        ),
        (
            encode("koi8-r", "Привет"),
            Some("koi8-r"),
            GEM,
            "Привет",
            "koi8-r",
            Source::Declared,
        ),
        // Gemini's default is UTF-8; a body that is not UTF-8 is detected, not mangled.
        (
            "é".as_bytes().to_vec(),
            None,
            GEM,
            "é",
            "utf-8",
            Source::Declared,
        ),
        (
            b"caf\xe9".to_vec(),
            None,
            GEM,
            "café",
            "windows-1252",
            Source::Detected,
        ),
        (
            b"caf\xe9".to_vec(),
            Some("us-ascii"),
            GEM,
            "café",
            "windows-1252",
            Source::Detected,
        ),
        (
            "é".as_bytes().to_vec(),
            Some("us-ascii"),
            GEM,
            "é",
            "utf-8",
            Source::Declared,
        ),
        // The web keeps the declared encoding, with replacement, as browsers do.
        (
            b"caf\xe9".to_vec(),
            Some("utf-8"),
            WEB,
            "caf\u{fffd}",
            "utf-8",
            Source::Declared,
        ),
        // Gopher: UTF-8, CP437 art, or a lossless guess.
        (
            "café".as_bytes().to_vec(),
            None,
            GOPHER,
            "café",
            "utf-8",
            Source::Detected,
        ),
        (
            b"\xc9\xcd\xcd\xbb\n\xba  \xba".to_vec(),
            None,
            GOPHER,
            "╔══╗\n║  ║",
            "cp437",
            Source::Detected,
        ),
        (
            b"\x1b[1;31m\xdb\x1b[0m".to_vec(),
            None,
            GOPHER,
            "\x1b[1;31m█\x1b[0m",
            "cp437",
            Source::Detected,
        ),
        (
            b"\xdb\xdb\xb2\xb1\xb0".to_vec(),
            None,
            GOPHER,
            "██▓▒░",
            "cp437",
            Source::Detected,
        ),
        (
            b"\x03\x04 card \x05\x06 \x80".to_vec(),
            None,
            GOPHER,
            "♥♦ card ♣♠ Ç",
            "cp437",
            Source::Detected,
        ),
        (b"".to_vec(), None, GOPHER, "", "utf-8", Source::Detected),
        // HTML: <meta charset> when nothing else is declared.
        (
            b"<meta charset=\"iso-8859-1\"><p>caf\xe9".to_vec(),
            None,
            HTML,
            "<meta charset=\"iso-8859-1\"><p>café",
            "windows-1252",
            Source::Meta,
        ),
        (
            b"<meta charset=utf-16><p>hi".to_vec(),
            None,
            HTML,
            "<meta charset=utf-16><p>hi",
            "utf-8",
            Source::Meta,
        ),
    ];
    for (bytes, declared, origin, text, name, source) in cases {
        let d = decode(&bytes, declared, origin);
        assert_eq!(
            (d.text.as_str(), d.charset.name().as_str(), d.source),
            (text, name, source),
            "{declared:?} {origin:?} {bytes:x?}"
        );
        assert_eq!(d.unknown_label, None, "{declared:?}");
    }
}

#[test]
fn legacy_cjk_is_detected_without_a_label() {
    let ja = "日本語のテキストです。今日は良い天気ですね。明日は雨が降るでしょう。".repeat(3);
    let d = decode(&encode("shift_jis", &ja), None, GOPHER);
    assert_eq!(
        (d.text.as_str(), d.charset.name().as_str()),
        (ja.as_str(), "shift_jis")
    );
    let ko = "한국어 텍스트입니다. 오늘은 날씨가 좋네요. 내일은 비가 올 것 같습니다.".repeat(3);
    let d = decode(&encode("euc-kr", &ko), Some("klingon"), GEM);
    assert_eq!(d.text, ko);
    assert_eq!(d.charset.name(), "euc-kr");
}

#[test]
fn undeclared_web_windows_1252_is_guessed() {
    let text = "Les élèves étaient très fâchés: « déjà vu » — naïve café crème brûlée. ".repeat(4);
    let d = decode(&encode("windows-1252", &text), None, HTML);
    assert_eq!(
        (d.charset.name().as_str(), d.source),
        ("windows-1252", Source::Detected)
    );
    assert_eq!(d.text, text);
    let http_equiv = b"<meta http-equiv='Content-Type' content='text/html; charset=koi8-r'>";
    assert_eq!(decode(http_equiv, None, HTML).charset.name(), "koi8-r");
    // A declared charset beats the page's own <meta>.
    let meta = b"<meta charset=\"iso-8859-1\"><p>caf\xc3\xa9";
    assert_eq!(decode(meta, Some("utf-8"), HTML).source, Source::Declared);
}

#[test]
fn an_unknown_label_is_reported_and_the_body_detected() {
    for (label, origin) in [("klingon", GEM), ("x-nonsense", WEB), ("iso-2022-kr", GEM)] {
        let d = decode("é".as_bytes(), Some(label), origin);
        assert_eq!(
            (d.text.as_str(), d.source),
            ("é", Source::Detected),
            "{label}"
        );
        assert_eq!(d.unknown_label.as_deref(), Some(label));
    }
    let d = decode(b"caf\xe9", Some("klingon"), GEM);
    assert_eq!(
        (d.text.as_str(), d.charset.name().as_str()),
        ("café", "windows-1252")
    );
    // Even when a BOM decides, the unusable label is still reported.
    let d = decode(b"\xEF\xBB\xBFx", Some("bogus"), GEM);
    assert_eq!(
        (d.text.as_str(), d.unknown_label.as_deref()),
        ("x", Some("bogus"))
    );
}

#[test]
fn reported_names_read_back_as_labels() {
    for label in [
        "utf-8",
        "utf-16le",
        "utf-16be",
        "windows-1252",
        "shift_jis",
        "euc-kr",
        "gb18030",
        "big5",
        "iso-8859-2",
        "koi8-r",
        "cp437",
    ] {
        let c = Charset::for_label(label).unwrap();
        assert_eq!(c.name(), label);
        assert_eq!(Charset::for_label(&c.name()), Some(c));
    }
    assert_eq!(Charset::for_label("replacement"), None);
}

#[test]
fn every_byte_becomes_one_char_in_single_byte_fallbacks() {
    let all: Vec<u8> = (0u8..=255).collect();
    for label in ["latin1", "cp437", "windows-1252"] {
        let d = decode(&all, Some(label), GEM);
        assert_eq!(d.text.chars().count(), 256, "{label}");
    }
    let d = decode(&all, None, GOPHER);
    assert!(!d.text.contains('\u{fffd}'));
}

proptest! {
    /// Gemini and Gopher detection never drops or replaces a byte: no U+FFFD that the body
    /// did not carry, never more chars than bytes.
    #[test]
    fn detection_keeps_every_byte(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        for (declared, origin) in [(None, GOPHER), (Some("utf-8"), GEM), (Some("nope"), GEM)] {
            if Encoding::for_bom(&bytes).is_some() {
                continue;
            }
            let d = decode(&bytes, declared, origin);
            prop_assert!(d.text.chars().count() <= bytes.len());
            let had = bytes.windows(3).any(|w| w == "\u{fffd}".as_bytes());
            prop_assert!(had || !d.text.contains('\u{fffd}'), "{:?}", d.charset);
        }
    }

    #[test]
    fn decoding_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        for label in [None, Some("utf-16"), Some("shift_jis"), Some("cp437"), Some("x")] {
            for origin in [GEM, GOPHER, WEB, HTML] {
                let _ = decode(&bytes, label, origin);
            }
        }
    }
}

#[test]
fn in_place_is_decode_without_the_copy_and_only_for_utf8() {
    let bodies: [&[u8]; 6] = [
        "<p>café ☕</p>".as_bytes(),
        b"<meta charset=\"iso-8859-1\"><p>caf\xc3\xa9</p>",
        b"<meta charset='utf-16'><p>plain</p>",
        b"\xEF\xBB\xBFhi",
        b"caf\xe9 is not UTF-8",
        b"",
    ];
    let labels = [
        None,
        Some("utf-8"),
        Some("us-ascii"),
        Some("windows-1252"),
        Some("x-nope"),
    ];
    let origins = [
        Origin::Gemini,
        Origin::Gopher,
        Origin::Web { html: false },
        Origin::Web { html: true },
    ];
    let mut taken = 0;
    for body in bodies {
        for label in labels {
            for origin in origins {
                let want = decode(body, label, origin);
                match decode_in_place(body.to_vec(), label, origin) {
                    Ok(d) => {
                        taken += 1;
                        assert_eq!(d, want, "{body:?} {label:?} {origin:?}");
                        assert_eq!(d.text.into_bytes(), body, "{label:?} {origin:?}");
                    }
                    Err(back) => {
                        assert_eq!(back, body, "handed back unchanged");
                        let utf8_as_is =
                            want.charset == Charset::utf8() && want.text.as_bytes() == body;
                        assert!(
                            !utf8_as_is,
                            "{body:?} {label:?} {origin:?}: decode reads it as UTF-8 as it is"
                        );
                    }
                }
            }
        }
    }
    assert!(taken > 20, "{taken}");
}

#[test]
fn a_utf8_body_under_a_legacy_label_is_read_as_utf8() {
    // A page re-saved as UTF-8 that kept its old <meta charset=gb2312>, and a server's default
    // iso-8859-1 over UTF-8 text: obeying the label would show mojibake.
    let zh = "<meta charset=\"gb2312\"><p>人工智能迈上新台阶</p>";
    let d = decode(zh.as_bytes(), None, HTML);
    assert_eq!((d.text.as_str(), d.charset.name().as_str()), (zh, "utf-8"));
    assert_eq!(d.source, Source::Detected);
    for origin in [GEM, WEB, HTML] {
        let d = decode("naïve café".as_bytes(), Some("iso-8859-1"), origin);
        assert_eq!(d.text, "naïve café", "{origin:?}");
        let back = decode_in_place("naïve café".as_bytes().to_vec(), Some("iso-8859-1"), origin);
        assert_eq!(
            back.map(|d| d.text).as_deref(),
            Ok("naïve café"),
            "{origin:?}"
        );
    }
    // Real legacy text is not valid UTF-8, so the label still decides it.
    let latin = encode("windows-1252", "naïve café");
    assert_eq!(decode(&latin, Some("iso-8859-1"), WEB).text, "naïve café");
    let gbk = encode("gbk", "人工智能");
    let d = decode(&gbk, Some("gb2312"), WEB);
    assert_eq!(
        (d.text.as_str(), d.charset.name().as_str()),
        ("人工智能", "gbk")
    );
    // ASCII is ASCII under any label, and UTF-16 labels are obeyed.
    assert_eq!(
        decode(b"plain", Some("koi8-r"), WEB).charset.name(),
        "koi8-r"
    );
    assert_eq!(
        decode(&utf16le("é"), Some("utf-16le"), WEB).charset.name(),
        "utf-16le"
    );
}
