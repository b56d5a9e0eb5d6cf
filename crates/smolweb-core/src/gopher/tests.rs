use super::*;
use proptest::prelude::*;

/// (type, title, selector, host, port)
type Fields = (char, String, String, String, u16);

fn item(t: char, title: &str, sel: &str, host: &str, port: u16) -> Fields {
    (t, title.into(), sel.into(), host.into(), port)
}

fn fields(i: &MenuItem) -> Fields {
    (
        i.item_type,
        i.title.clone(),
        i.selector.clone(),
        i.host.clone(),
        i.port,
    )
}

#[test]
fn menu_fields_table() {
    let cases: &[(&str, Option<Fields>)] = &[
        (
            "1Docs\t/docs\texample.org\t70",
            Some(item('1', "Docs", "/docs", "example.org", 70)),
        ),
        (
            "0About\t/about.txt\thost\t7070",
            Some(item('0', "About", "/about.txt", "host", 7070)),
        ),
        ("iJust info", Some(item('i', "Just info", "", "", 70))),
        (
            "iinfo\t\terror.host\t1",
            Some(item('i', "info", "", "error.host", 1)),
        ),
        (
            "1No port\t/x\thost",
            Some(item('1', "No port", "/x", "host", 70)),
        ),
        (
            "1Bad port\t/x\thost\tabc",
            Some(item('1', "Bad port", "/x", "host", 0)),
        ),
        (
            "1Zero port\t/x\thost\t0",
            Some(item('1', "Zero port", "/x", "host", 0)),
        ),
        (
            "1Big port\t/x\thost\t99999",
            Some(item('1', "Big port", "/x", "host", 0)),
        ),
        (
            "1Spaced\t/x\t host \t 71 ",
            Some(item('1', "Spaced", "/x", "host", 71)),
        ),
        (
            "1Plus\t/x\thost\t70\t+",
            Some(item('1', "Plus", "/x", "host", 70)),
        ),
        (
            "1Plus2\t/x\thost\t70\t+\textra",
            Some(item('1', "Plus2", "/x", "host", 70)),
        ),
        (
            "zWeird\t/w\thost\t70",
            Some(item('z', "Weird", "/w", "host", 70)),
        ),
        ("é\t/u\thost\t70", Some(item('é', "", "/u", "host", 70))),
        ("1", Some(item('1', "", "", "", 70))),
        ("", None),
    ];
    for (line, want) in cases {
        let got = parse_menu_line(line);
        assert_eq!(got.as_ref().map(fields), *want, "line {line:?}");
    }
}

#[test]
fn menu_lines_crlf_lf_and_terminator() {
    let text = "iHello\r\n1A\t/a\th\t70\r\n\r\n0B\t/b\th\t70\n.\r\n1After\t/c\th\t70\r\n";
    let items = parse_menu(text);
    let titles: Vec<&str> = items.iter().map(|i| i.title.as_str()).collect();
    // Only a final "." ends a menu: the one in the middle is skipped, nothing after it lost.
    assert_eq!(titles, ["Hello", "A", "B", "After"]);
    assert_eq!(items[1].selector, "/a");
    assert!(items[0].is_info());
    // A line holding more than "." is not a terminator.
    let items = parse_menu("i.\n..\n1X\t/\th\t70\n");
    assert_eq!(items.len(), 3);
}

#[test]
fn next_url_without_url_module() {
    let cases: &[(&str, &str)] = &[
        ("iinfo\t\terror.host\t1", ""),
        ("3Error\t\terror.host\t1", ""),
        ("1No host\t/x\t\t70", ""),
        (
            "hWeb\tURL:https://example.org/a?b\thost\t70",
            "https://example.org/a?b",
        ),
        (
            "hWeb\t/URL:http://example.org/\thost\t70",
            "http://example.org/",
        ),
        (
            "hWeb\tURL:https://example.org/\t\t70",
            "https://example.org/",
        ),
        (
            "hMail\tURL:mailto:op@example.org\thost\t70",
            "mailto:op@example.org",
        ),
    ];
    for (line, want) in cases {
        let got = parse_menu_line(line).unwrap();
        assert_eq!(got.next_url, *want, "line {line:?}");
        assert_eq!(got.refused_scheme, None, "line {line:?}");
    }
}

#[test]
fn foreign_schemes_are_text_not_destinations() {
    let cases: &[(&str, &str)] = &[
        ("hClick\tURL:javascript:alert(1)\thost\t70", "javascript"),
        ("hSecrets\tURL:file:///etc/passwd\thost\t70", "file"),
        ("hX\t/URL:JavaScript:alert(1)\thost\t70", "javascript"),
        (
            "hX\tURL:data:text/html,<script>x</script>\thost\t70",
            "data",
        ),
        ("hX\tURL:vbscript:msgbox(1)\thost\t70", "vbscript"),
        ("hX\tURL:x-thing:whatever\thost\t70", "x-thing"),
        // Telnet is not fetched, and the opener only takes the web and mail.
        ("8Chat\tlogin\tbbs.example\t23", "telnet"),
        ("TMainframe\t\tibm.example\t23", "telnet"),
    ];
    for (line, scheme) in cases {
        let got = parse_menu_line(line).unwrap();
        assert_eq!(got.next_url, "", "line {line:?}");
        assert_eq!(
            got.refused_scheme.as_deref(),
            Some(*scheme),
            "line {line:?}"
        );
    }
}

#[test]
fn next_url_gopher_items() {
    let cases: &[(&str, &str)] = &[
        (
            "1Docs\t/docs\texample.org\t70",
            "gopher://example.org/1/docs",
        ),
        (
            "0Text\t/a.txt\texample.org\t7070",
            "gopher://example.org:7070/0/a.txt",
        ),
        (
            "hPage\t/p.html\texample.org\t70",
            "gopher://example.org/h/p.html",
        ),
        (
            "7Find\t/search\texample.org\t70",
            "gopher://example.org/7/search",
        ),
    ];
    for (line, want) in cases {
        let got = parse_menu_line(line).unwrap();
        assert_eq!(got.next_url, *want, "line {line:?}");
    }
}

#[test]
fn unusable_ports_keep_the_item_but_lead_nowhere() {
    for port in ["0", "99999", "-1", "abc", "70x"] {
        let line = format!("1Item\t/x\thost\t{port}");
        let item = parse_menu_line(&line).unwrap();
        assert_eq!(item.title, "Item", "{port}");
        assert!(item.invalid_port, "{port}");
        assert_eq!(item.next_url, "", "{port}");
        assert_eq!(item.port, 0, "{port}");
    }
    for line in [
        "1Ok\t/x\thost\t7070",
        "1No port\t/x\thost",
        "1Empty\t/x\thost\t",
    ] {
        let item = parse_menu_line(line).unwrap();
        assert!(!item.invalid_port, "{line}");
        assert!(item.next_url.starts_with("gopher://host"), "{line}");
    }
    // An info or error line's port says nothing: it is not an invalid port to warn about.
    for line in ["iArt line	fake	(NULL)	0", "3Oops		error.host	0"] {
        let item = parse_menu_line(line).unwrap();
        assert!(!item.invalid_port, "{line}");
        assert_eq!(item.next_url, "", "{line}");
    }
}

#[test]
fn a_dot_line_inside_a_menu_does_not_end_it() {
    let menu = "0One\t/1\th\t70\r\n.\r\n0Two\t/2\th\t70\r\n.\r\n";
    let titles: Vec<String> = parse_menu(menu).into_iter().map(|i| i.title).collect();
    assert_eq!(titles, ["One", "Two"]);
}

#[test]
fn undot_table() {
    let cases: &[(&str, &str)] = &[
        ("hello\r\nworld\r\n.\r\n", "hello\nworld\n"),
        ("a\n..b\n...\n.\n", "a\n.b\n..\n"),
        ("a\n.\ntrailing junk\n", "a\n.\ntrailing junk\n"),
        ("a\r\n.\r\nb\r\n..c\r\n.\r\n", "a\n.\nb\n.c\n"),
        ("end\n.\n\n  \r\n", "end\n"),
        ("no final\n.\nx", "no final\n.\nx"),
        ("last line\n.", "last line\n"),
        (".\n", ""),
        ("no terminator\r\n..kept\r\n", "no terminator\n..kept\n"),
        ("no newline at end", "no newline at end"),
        ("a\n.x\n.\n", "a\n.x\n"),
        ("", ""),
    ];
    for (input, want) in cases {
        assert_eq!(undot_text(input), *want, "input {input:?}");
    }
}

#[test]
fn type_names_cover_rfc1436_and_common_types() {
    let cases = [
        ('0', "text"),
        ('1', "menu"),
        ('2', "cso"),
        ('3', "error"),
        ('4', "binhex"),
        ('5', "dos"),
        ('6', "uuencode"),
        ('7', "search"),
        ('8', "telnet"),
        ('9', "binary"),
        ('+', "mirror"),
        ('g', "gif"),
        ('I', "image"),
        ('T', "tn3270"),
        ('h', "html"),
        ('i', "info"),
        ('s', "sound"),
        ('d', "document"),
        ('p', "png"),
        (';', "video"),
        (':', "bitmap"),
        ('<', "sound"),
        ('M', "mime"),
        ('P', "pdf"),
        ('r', "rtf"),
        ('X', "xml"),
        ('c', "calendar"),
        ('Q', "unknown"),
    ];
    for (t, name) in cases {
        assert_eq!(type_name(t), name, "type {t}");
    }
    assert!(!is_fetchable('8') && !is_fetchable('T') && !is_fetchable('2'));
    assert!(is_fetchable('1') && is_fetchable('9'));
}

proptest! {
    #[test]
    fn parsers_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..600)) {
        let text = crate::charset::decode(&bytes, None, crate::charset::Origin::Gopher).text;
        let _ = parse_menu(&text);
        let _ = undot_text(&text);
        let _ = sniff_mime(&bytes);
    }

    #[test]
    fn menu_round_trip(
        rows in proptest::collection::vec(
            ("[0-9a-zA-Z+]", "[^\t\r\n]{0,12}", "[^\t\r\n]{0,12}", "[a-z.]{1,10}", 1u16..),
            0..20,
        )
    ) {
        let text: String = rows
            .iter()
            .map(|(t, d, s, h, p)| format!("{t}{d}\t{s}\t{h}\t{p}\r\n"))
            .collect::<String>() + ".\r\n";
        let items = parse_menu(&text);
        prop_assert_eq!(items.len(), rows.len());
        for (item, (t, d, s, h, p)) in items.iter().zip(&rows) {
            prop_assert_eq!(item.item_type.to_string(), t.clone());
            prop_assert_eq!(&item.title, d);
            prop_assert_eq!(&item.selector, s);
            prop_assert_eq!(&item.host, h);
            prop_assert_eq!(item.port, *p);
        }
    }
}

#[test]
fn a_menu_is_titled_by_its_opening_info_line() {
    let menu = "i=========\tfake\t(NULL)\t0\r\n\
                i  Welcome to the Veronica hole  \tfake\t(NULL)\t0\r\n\
                i\tfake\t(NULL)\t0\r\n\
                1Phlog\t/phlog\texample.org\t70\r\n.\r\n";
    assert_eq!(menu_title(menu), Some("Welcome to the Veronica hole"));
    // A menu that opens with an item names nothing; nor does an info line after the items.
    let items_first = "1Phlog\t/phlog\texample.org\t70\r\niAbout\tfake\t(NULL)\t0\r\n";
    assert_eq!(menu_title(items_first), None);
    assert_eq!(menu_title("i-- ** --\tx\tx\t0\r\n\r\n"), None);
    assert_eq!(menu_title(""), None);
}
