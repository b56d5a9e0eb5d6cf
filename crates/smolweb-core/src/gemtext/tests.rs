use super::*;
use proptest::prelude::*;

fn one(line: &str) -> Line {
    let doc = parse(line, None);
    assert_eq!(doc.lines.len(), 1, "{line:?}");
    doc.lines.into_iter().next().unwrap()
}

#[test]
fn line_kinds_and_text() {
    use LineKind::*;
    let cases: [(&str, LineKind, Option<&str>); 16] = [
        ("plain words", Text, None),
        ("  ", Text, None),
        (" # not a heading", Text, None),
        ("# Title ", Heading1, Some("Title")),
        ("#Title", Heading1, Some("Title")),
        ("## Sub", Heading2, Some("Sub")),
        ("### Third", Heading3, Some("Third")),
        ("#### Four", Heading3, Some("# Four")),
        ("* item one", List, Some("item one")),
        ("*not a list", Text, None),
        ("*", Text, None),
        ("> quoted", Quote, Some("quoted")),
        (">quoted", Quote, Some("quoted")),
        (">", Quote, Some("")),
        ("=>", Text, None),
        ("=>   \t ", Text, None),
    ];
    for (line, kind, text) in cases {
        let l = one(line);
        assert_eq!((l.kind, l.text.as_deref()), (kind, text), "{line:?}");
        assert_eq!(l.content, line);
        assert!(l.link.is_none() && l.fence.is_none());
    }
    assert_eq!(one("## Sub").level(), Some(2));
    assert_eq!(one("text").level(), None);
}

#[test]
fn links() {
    let cases: [(&str, &str, Option<&str>); 6] = [
        ("=> gemini://h/x", "gemini://h/x", None),
        ("=>gemini://h/x Label", "gemini://h/x", Some("Label")),
        ("=>  /a \t spaced  label  ", "/a", Some("spaced  label")),
        ("=>\tx.gmi\tTab label", "x.gmi", Some("Tab label")),
        (
            "=> https://web.example/ The web",
            "https://web.example/",
            Some("The web"),
        ),
        ("=> mailto:a@b", "mailto:a@b", None),
    ];
    for (line, url, label) in cases {
        let l = one(line);
        assert_eq!(l.kind, LineKind::Link, "{line:?}");
        let link = l.link.unwrap();
        assert_eq!(
            (link.url.as_str(), link.text.as_deref()),
            (url, label),
            "{line:?}"
        );
        assert!(l.text.is_none());
    }
}

#[test]
fn links_resolved_against_base() {
    let base = Url::parse("gemini://example.org/dir/page.gmi").unwrap();
    let body =
        "=> other.gmi Other\n=> /root\n=> //h2/x\n=> https://w.example/\n=> gemini://u@h/ bad";
    let doc = parse(body, Some(&base));
    let urls: Vec<&str> = doc.links().map(|l| l.url.as_str()).collect();
    assert_eq!(
        urls,
        [
            "gemini://example.org/dir/other.gmi",
            "gemini://example.org/root",
            "gemini://h2/x",
            "https://w.example/",
            "gemini://u@h/",
        ]
    );
}

#[test]
fn preformatted_blocks() {
    let body = "```rust main\nfn main() {}\n# not heading\n=> not/link\n``` ignored\n# Heading";
    let (doc, state) = parse_with_state(body, None, ParseState::default());
    let kinds: Vec<LineKind> = doc.lines.iter().map(|l| l.kind).collect();
    use LineKind::*;
    assert_eq!(
        kinds,
        [
            Preformat, Preformat, Preformat, Preformat, Preformat, Heading1
        ]
    );
    let open = doc.lines[0].fence.as_ref().unwrap();
    assert!(open.opening);
    assert_eq!(open.alt_text.as_deref(), Some("rust main"));
    assert_eq!(open.language.as_deref(), Some("rust"));
    assert!(doc.lines[1].fence.is_none() && doc.lines[2].text.is_none());
    assert!(doc.lines[3].link.is_none());
    let close = doc.lines[4].fence.as_ref().unwrap();
    assert_eq!((close.opening, close.alt_text.as_deref()), (false, None));
    assert!(!state.in_preformat);
}

#[test]
fn state_carried_across_a_cut() {
    let (doc, state) = parse_with_state("```\ncode", None, ParseState::default());
    assert!(state.in_preformat);
    assert_eq!(doc.lines[0].fence.as_ref().unwrap().alt_text, None);
    let (doc, state) = parse_with_state("# still code\n```\n# heading", None, state);
    let kinds: Vec<LineKind> = doc.lines.iter().map(|l| l.kind).collect();
    assert_eq!(
        kinds,
        [LineKind::Preformat, LineKind::Preformat, LineKind::Heading1]
    );
    assert!(!state.in_preformat);
}

#[test]
fn fence_languages() {
    let cases = [
        ("```", None),
        ("```Python", Some("python")),
        ("``` sh script", Some("sh")),
        ("```main.rs", Some("rust")),
        ("```src/lib.py the code", Some("python")),
        ("```An ASCII drawing", None),
        ("```.bashrc", None),
        ("```notes.unknown", None),
        ("```yml", Some("yaml")),
    ];
    for (line, lang) in cases {
        let l = one(line);
        assert_eq!(l.fence.unwrap().language.as_deref(), lang, "{line:?}");
    }
}

#[test]
fn line_endings() {
    let cases: [(&str, &[&str]); 8] = [
        ("", &[]),
        ("a", &["a"]),
        ("a\n", &["a"]),
        ("a\r\nb\r\n", &["a", "b"]),
        ("a\rb\r", &["a", "b"]),
        ("a\n\nb", &["a", "", "b"]),
        ("\n", &[""]),
        ("a\r\r\nb", &["a", "", "b"]),
    ];
    for (body, want) in cases {
        let got: Vec<String> = parse(body, None)
            .lines
            .into_iter()
            .map(|l| l.content)
            .collect();
        assert_eq!(got, want, "{body:?}");
    }
}

#[test]
fn title_is_first_heading1() {
    let doc = parse("## two\n# One\n# Later", None);
    assert_eq!(doc.title(), Some("One"));
    assert_eq!(parse("text", None).title(), None);
}

fn normalized(body: &str) -> String {
    let lf = body.replace("\r\n", "\n").replace('\r', "\n");
    lf.strip_suffix('\n').map(str::to_string).unwrap_or(lf)
}

proptest! {
    #[test]
    fn never_panics_and_keeps_content(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let body = String::from_utf8_lossy(&bytes);
        let base = Url::parse("gemini://h/a/").unwrap();
        let doc = parse(&body, Some(&base));
        let joined: Vec<&str> = doc.lines.iter().map(|l| l.content.as_str()).collect();
        prop_assert_eq!(joined.join("\n"), normalized(&body));
    }

    #[test]
    fn gemtext_like_content_round_trips(
        lines in proptest::collection::vec("(```|=>|#|##|\\* |>)?[ a-z/:.]{0,12}", 0..30),
        eol in "(\n|\r\n|\r)",
        pre in any::<bool>(),
    ) {
        let body = lines.join(&eol);
        let (doc, _) = parse_with_state(&body, None, ParseState { in_preformat: pre });
        let joined: Vec<&str> = doc.lines.iter().map(|l| l.content.as_str()).collect();
        prop_assert_eq!(joined.join("\n"), normalized(&body));
        for l in &doc.lines {
            prop_assert_eq!(l.link.is_some(), l.kind == LineKind::Link);
        }
    }
}
