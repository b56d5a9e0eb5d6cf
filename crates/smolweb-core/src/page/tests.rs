use super::*;

// Every test that builds a Page needs `Url::parse` (and the gemtext ones the real parser) from
// the url/gemtext helper: they pass after merging main. The helpers below them do not.

fn url(s: &str) -> Url {
    Url::parse(s).expect("test URL parses")
}

fn gemini_mime(essence: &str, charset: Option<&str>, lang: Option<&str>) -> Mime {
    let mut m = mime_of(essence);
    m.charset = charset.map(str::to_string);
    m.lang = lang.map(str::to_string);
    m
}

#[test]
fn gemini_gemtext_is_parsed_and_resolved() {
    let raw = b"# Title\n=> /next Next\n".to_vec();
    let mime = gemini_mime("text/gemini", None, Some("en"));
    let page = Page::from_gemini(url("gemini://example.org/dir/"), mime, raw.clone());
    assert_eq!(page.charset, Some(Charset::utf8()));
    assert_eq!(page.lang.as_deref(), Some("en"));
    assert_eq!(page.title(), Some("Title"));
    assert_eq!(page.body.text(), "# Title\n=> /next Next\n");
    assert_eq!(page.raw, raw);
    let Content::Gemtext(doc) = &page.content else {
        panic!("not gemtext")
    };
    let links: Vec<&str> = doc.links().map(|l| l.url.as_str()).collect();
    assert_eq!(links, ["gemini://example.org/next"]);
}

#[test]
fn gemini_text_uses_declared_charset() {
    let mime = gemini_mime("text/plain", Some("iso-8859-1"), None);
    let page = Page::from_gemini(url("gemini://example.org/a.txt"), mime, b"caf\xe9".to_vec());
    assert_eq!(page.body.text(), "café");
    assert_eq!(
        page.charset.map(Charset::name).as_deref(),
        Some("windows-1252")
    );
    assert!(matches!(page.content, Content::Text));
    // A body declared UTF-8 that is not: detected, not mangled.
    let mime = gemini_mime("text/plain", None, None);
    let page = Page::from_gemini(url("gemini://example.org/b.txt"), mime, b"caf\xe9".to_vec());
    assert_eq!(page.body.text(), "café");
}

#[test]
fn gemini_binary_keeps_bytes_only() {
    let raw = b"\x89PNG\r\n\x1a\n....".to_vec();
    let page = Page::from_gemini(url("gemini://example.org/i.png"), mime_of("image/png"), raw);
    assert!(matches!(page.content, Content::Binary));
    assert_eq!(page.body.text(), "");
    assert_eq!(page.charset, None);
    assert_eq!(page.size(), 12);
}

#[test]
fn gopher_menu_text_and_binary() {
    let menu = b"iWelcome\t\terror.host\t1\r\n1Docs\t/docs\texample.org\t70\r\n.\r\n".to_vec();
    let page = Page::from_gopher(url("gopher://example.org/1/"), '1', menu);
    let Content::Menu(items) = &page.content else {
        panic!("not a menu")
    };
    assert_eq!(items.len(), 2);
    assert_eq!(items[1].next_url, "gopher://example.org/1/docs");

    let text = b"line\r\n..dot\r\n.\r\n".to_vec();
    let page = Page::from_gopher(url("gopher://example.org/0/a.txt"), '0', text.clone());
    assert!(matches!(page.content, Content::Text));
    assert_eq!(page.body.text(), "line\n.dot\n");
    assert_eq!(page.mime.essence(), "text/plain");
    assert_eq!(page.raw, text);

    let html = b"<p>\r\n.\r\n".to_vec();
    let page = Page::from_gopher(url("gopher://example.org/h/p.html"), 'h', html);
    assert_eq!(page.mime.essence(), "text/html");
    assert_eq!(page.body.text(), "<p>\r\n.\r\n");

    let gif = b"GIF89a\x01\x00".to_vec();
    let page = Page::from_gopher(url("gopher://example.org/I/x"), 'I', gif);
    assert!(matches!(page.content, Content::Binary));
    assert_eq!(page.mime.essence(), "image/gif");
    assert_eq!(page.charset, None);

    let odd = b"not really a gif".to_vec();
    let page = Page::from_gopher(url("gopher://example.org/g/x"), 'g', odd);
    assert_eq!(page.mime.essence(), "image/gif");
}

#[test]
fn gopher_unknown_type_is_sniffed() {
    let page = Page::from_gopher(
        url("gopher://example.org/Q/x"),
        'Q',
        b"plain words\n".to_vec(),
    );
    assert!(matches!(page.content, Content::Text));
    let page = Page::from_gopher(
        url("gopher://example.org/Q/y"),
        'Q',
        b"\x00\x01\x02".to_vec(),
    );
    assert!(matches!(page.content, Content::Binary));
}

#[test]
fn builtin_is_gemtext() {
    let page = Page::builtin(url("about:start"), "# Start\n");
    assert_eq!(page.title(), Some("Start"));
    assert_eq!(page.mime.essence(), "text/gemini");
}

#[test]
fn mime_helpers_table() {
    let cases = [
        ('g', &b"xx"[..], "image/gif"),
        ('I', b"\xFF\xD8\xFF\xE0", "image/jpeg"),
        ('I', b"xx", "application/octet-stream"),
        ('p', b"xx", "image/png"),
        ('P', b"xx", "application/pdf"),
        ('9', b"PK\x03\x04", "application/zip"),
        ('9', b"xx", "application/octet-stream"),
        ('M', b"xx", "multipart/mixed"),
    ];
    for (t, raw, want) in cases {
        assert_eq!(binary_mime(t, raw), want, "type {t}");
    }
    assert_eq!(text_mime('h'), "text/html");
    assert_eq!(text_mime('0'), "text/plain");
    assert!(looks_like_text(b"a\tb\r\n\x1b[0m"));
    assert!(!looks_like_text(b"a\x00b"));
    assert!(!looks_like_text(b"%PDF-1.4"));
    let m = mime_of("Text/Plain");
    assert_eq!(
        (m.mime_type.as_str(), m.subtype.as_str()),
        ("text", "plain")
    );
}

#[test]
fn gopher_menus_end_cleanly_only_with_their_final_dot_line() {
    let cases: &[(char, &[u8], Ending)] = &[
        ('1', b"0About\t/a\th\t70\r\n.\r\n", Ending::Clean),
        ('1', b"0About\t/a\th\t70\n.\n", Ending::Clean),
        ('7', b"0Hit\t/a\th\t70\r\n.", Ending::Clean),
        ('1', b"0About\t/a\th\t70\r\n", Ending::NoTerminator),
        (
            '1',
            b"0About\t/a\th\t70\r\n.\r\n0More\t/b\th\t70\r\n",
            Ending::NoTerminator,
        ),
        ('1', b"", Ending::NoTerminator),
        // Types without an end marker end with the connection.
        ('0', b"plain text without a dot line\n", Ending::Clean),
        ('9', b"\x00\x01", Ending::Clean),
    ];
    for (t, raw, want) in cases {
        let page = Page::from_gopher(url("gopher://h/1/x"), *t, raw.to_vec());
        assert_eq!(page.ending, *want, "{t} {raw:?}");
    }
    let page = Page::from_gemini(
        url("gemini://h/"),
        mime_of("text/gemini"),
        b"# x\n".to_vec(),
    );
    assert_eq!(page.ending, Ending::Clean);
    let cut = page.with_ending(Ending::NoCloseNotify);
    assert!(!cut.ending.is_clean());
    assert!(cut.ending.describe().contains("close_notify"));
}

#[test]
fn a_gopher_menu_page_has_the_title_it_gives_itself() {
    let url = Url::parse("gopher://example.org/1/").unwrap();
    let menu = b"iThe Example Hole\tfake\t(NULL)\t0\r\n0About\t/about\texample.org\t70\r\n.\r\n";
    let page = Page::from_gopher(url.clone(), '1', menu.to_vec());
    assert_eq!(page.title(), Some("The Example Hole"));
    let text = Page::from_gopher(url, '0', b"iNot a menu\r\n".to_vec());
    assert_eq!(text.title(), None, "a text item has no menu title");
}

#[test]
fn a_gophers_menu_keeps_same_host_items_on_tls() {
    let menu = b"0Here\t/a\tExample.org\t70\r\n0Other port\t/b\texample.org\t7070\r\n\
                 0Elsewhere\t/c\tother.example\t70\r\nhWeb\tURL:https://x.example/\t\t\r\n.\r\n";
    let over_tls = Page::from_gopher(url("gophers://example.org/1/"), '1', menu.to_vec());
    let Content::Menu(m) = &over_tls.content else {
        panic!("a menu");
    };
    let streamed: Vec<String> = m.stream().map(|i| i.next_url).collect();
    let built: Vec<String> = m.iter().map(|i| i.next_url.clone()).collect();
    assert_eq!(
        streamed,
        vec![
            "gophers://example.org/0/a",
            "gopher://example.org:7070/0/b",
            "gopher://other.example/0/c",
            "https://x.example/",
        ]
    );
    assert_eq!(streamed, built, "the list and the stream agree");
    let plain = Page::from_gopher(url("gopher://example.org/1/"), '1', menu.to_vec());
    let Content::Menu(m) = &plain.content else {
        panic!("a menu");
    };
    assert_eq!(
        m.stream().next().unwrap().next_url,
        "gopher://example.org/0/a"
    );
}
