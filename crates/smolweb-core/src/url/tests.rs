use super::*;
use proptest::prelude::*;

fn p(s: &str) -> Url {
    Url::parse(s).unwrap_or_else(|e| panic!("{s}: {e}"))
}

#[test]
fn parse_normalizes() {
    let cases = [
        ("gemini://example.org", "gemini://example.org/"),
        ("  GEMINI://Example.ORG/  ", "gemini://example.org/"),
        ("gemini://example.org:1965/a", "gemini://example.org/a"),
        ("gemini://example.org:1966/a", "gemini://example.org:1966/a"),
        ("gemini://example.org:/a", "gemini://example.org/a"),
        (
            "gemini://example.org/a/./b/../c",
            "gemini://example.org/a/c",
        ),
        ("gemini://example.org/../../x", "gemini://example.org/x"),
        ("gemini://example.org/a/b/..", "gemini://example.org/a/"),
        ("gemini://example.org/a#frag", "gemini://example.org/a"),
        ("gemini://example.org/a b", "gemini://example.org/a%20b"),
        ("gemini://example.org/é", "gemini://example.org/%C3%A9"),
        (
            "gemini://example.org/%7e%2f%zz",
            "gemini://example.org/~%2F%25zz",
        ),
        ("gemini://example.org/?q r", "gemini://example.org/?q%20r"),
        ("gemini://example.org/?a/b?c", "gemini://example.org/?a/b?c"),
        ("gemini://example.org/?", "gemini://example.org/?"),
        ("gemini://münchen.de/", "gemini://xn--mnchen-3ya.de/"),
        ("gemini://[::1]:1966/", "gemini://[::1]:1966/"),
        ("gemini://[0:0::1]/", "gemini://[::1]/"),
        ("gemini://127.0.0.1:1965/", "gemini://127.0.0.1/"),
        ("gopher://Host", "gopher://host/"),
        ("gopher://host:70/1/a/../b", "gopher://host/1/a/../b"),
        ("gopher://host:7070/0x", "gopher://host:7070/0x"),
        ("about:Home", "about:home"),
        ("ABOUT:help?x", "about:help?x"),
        ("about:%41b", "about:ab"),
        ("gemini://h/a/%2E%2E/b", "gemini://h/b"),
        ("gemini://h/a/%2e/", "gemini://h/a/"),
    ];
    for (input, want) in cases {
        assert_eq!(p(input).to_string(), want, "input {input:?}");
    }
}

#[test]
fn parse_accessors() {
    let u = p("gemini://[::1]/x?y");
    assert_eq!(u.scheme(), Scheme::Gemini);
    assert_eq!(u.host(), "::1");
    assert_eq!(u.port(), 1965);
    assert_eq!(u.path(), "/x");
    assert_eq!(u.query(), Some("y"));
    let g = p("gopher://h");
    assert_eq!((g.port(), g.path(), g.query()), (70, "/", None));
    let a = p("about:home");
    assert_eq!(
        (a.scheme(), a.host(), a.port(), a.path()),
        (Scheme::About, "", 0, "home")
    );
}

#[test]
fn parse_errors() {
    let cases: [(&str, UrlError); 14] = [
        ("", UrlError::Empty),
        ("   ", UrlError::Empty),
        (
            "example.org/a",
            UrlError::NotAbsolute("example.org/a".into()),
        ),
        (
            "ftp://example.org/",
            UrlError::UnsupportedScheme("ftp".into()),
        ),
        ("gemini://user@example.org/", UrlError::Userinfo),
        ("gemini://u:p@example.org/", UrlError::Userinfo),
        (
            "gemini://example.org/a\nb",
            UrlError::ControlCharacter("a URL"),
        ),
        (
            "gemini://exa\tmple.org/",
            UrlError::ControlCharacter("a URL"),
        ),
        (
            "gemini://example.org/\0",
            UrlError::ControlCharacter("a URL"),
        ),
        (
            "gemini://example.org:99999/",
            UrlError::InvalidPort("99999".into()),
        ),
        ("gemini://example.org:0/", UrlError::InvalidPort("0".into())),
        ("gemini://example.org:x/", UrlError::InvalidPort("x".into())),
        ("gemini:///path", UrlError::MissingHost),
        ("gemini:example.org", UrlError::MissingHost),
    ];
    for (input, want) in cases {
        assert_eq!(Url::parse(input), Err(want), "input {input:?}");
    }
    for bad in [
        "gemini://exa mple.org/",
        "gemini://[::1/",
        "gemini://[zz]/",
        "gemini://a<b/",
    ] {
        assert!(
            matches!(Url::parse(bad), Err(UrlError::InvalidHost(_))),
            "{bad}"
        );
    }
    assert!(Url::parse("about:").is_err());
}

#[test]
fn gemini_request_limit() {
    let base = "gemini://example.org/";
    let ok = p(&format!(
        "{base}{}",
        "a".repeat(GEMINI_MAX_URL_BYTES - base.len())
    ));
    assert_eq!(ok.gemini_request().unwrap().len(), GEMINI_MAX_URL_BYTES);
    let long = p(&format!(
        "{base}{}",
        "a".repeat(GEMINI_MAX_URL_BYTES + 1 - base.len())
    ));
    assert_eq!(
        long.gemini_request(),
        Err(UrlError::TooLong {
            len: 1025,
            limit: 1024
        })
    );
    assert!(p("gopher://h/").gemini_request().is_err());
}

#[test]
fn query_helpers() {
    let u = p("gemini://example.org/search?secret");
    assert_eq!(u.without_query(), "gemini://example.org/search");
    let answered = u.with_input("a b/c?é&");
    assert_eq!(
        answered.to_string(),
        "gemini://example.org/search?a%20b%2Fc%3F%C3%A9%26"
    );
    assert_eq!(percent_encode("AZaz09-._~ +"), "AZaz09-._~%20%2B");
    assert_eq!(Url::parse(&answered.to_string()), Ok(answered));
}

#[test]
fn resolve_references() {
    let base = p("gemini://example.org/a/b/c?q");
    let cases = [
        ("d", "gemini://example.org/a/b/d"),
        ("./d/", "gemini://example.org/a/b/d/"),
        ("../d", "gemini://example.org/a/d"),
        ("../../../../d", "gemini://example.org/d"),
        ("/x/./y", "gemini://example.org/x/y"),
        ("?r", "gemini://example.org/a/b/c?r"),
        ("", "gemini://example.org/a/b/c?q"),
        ("#frag", "gemini://example.org/a/b/c?q"),
        ("d#frag", "gemini://example.org/a/b/d"),
        ("//other.org:1966/z", "gemini://other.org:1966/z"),
        ("GEMINI://Other.org", "gemini://other.org/"),
        ("gopher://h/1", "gopher://h/1"),
        ("https://web.example/x#y", "https://web.example/x#y"),
        ("mailto:someone@example.org", "mailto:someone@example.org"),
        (" spaced name ", "gemini://example.org/a/b/spaced%20name"),
    ];
    for (r, want) in cases {
        assert_eq!(base.resolve(r).unwrap(), want, "ref {r:?}");
    }
    assert_eq!(base.resolve("gemini://u@h/"), Err(UrlError::Userinfo));
    let about = p("about:home");
    assert!(matches!(about.resolve("x"), Err(UrlError::NotAbsolute(_))));
    assert_eq!(about.resolve("gemini://h").unwrap(), "gemini://h/");
    let gopher = p("gopher://h/1/dir/");
    assert_eq!(gopher.resolve("0file").unwrap(), "gopher://h/1/dir/0file");
}

fn target(s: &str) -> GopherTarget {
    p(s).gopher_target().unwrap()
}

#[test]
fn gopher_targets() {
    // (url, type, selector, search, ignored)
    let cases: [(&str, char, &str, Option<&str>, bool); 8] = [
        ("gopher://h", '1', "", None, false),
        ("gopher://h/", '1', "", None, false),
        ("gopher://h/1", '1', "", None, false),
        (
            "gopher://h/0/docs/a%20b.txt",
            '0',
            "/docs/a b.txt",
            None,
            false,
        ),
        (
            "gopher://h/7/search%09rust lang",
            '7',
            "/search",
            Some("rust lang"),
            false,
        ),
        ("gopher://h/7/s?q%20x", '7', "/s", Some("q x"), false),
        ("gopher://h/0/f%09term%09+", '0', "/f", Some("term"), true),
        ("gopher://h/1/a/../b", '1', "/a/../b", None, false),
    ];
    for (url, ty, sel, search, ignored) in cases {
        let t = target(url);
        assert_eq!(
            (
                t.item_type,
                t.selector.as_str(),
                t.search.as_deref(),
                t.search_ignored
            ),
            (ty, sel, search, ignored),
            "url {url}"
        );
        assert_eq!((t.host.as_str(), t.port), ("h", 70));
    }
    assert!(p("gemini://h/").gopher_target().is_err());
    let crlf = p("gopher://h/0a%0D%0Ab");
    assert!(matches!(
        crlf.gopher_target(),
        Err(UrlError::ControlCharacter(_))
    ));
    let long = p(&format!("gopher://h/0{}", "a".repeat(1025)));
    assert!(matches!(
        long.gopher_target(),
        Err(UrlError::TooLong { .. })
    ));
    let long_search = p(&format!("gopher://h/7s?{}", "a".repeat(257)));
    assert!(matches!(
        long_search.gopher_target(),
        Err(UrlError::TooLong { .. })
    ));
}

#[test]
fn gopher_item_urls() {
    let cases = [
        ("Host", 70, '1', "", "gopher://host/1"),
        (
            "h",
            7070,
            '0',
            "/a b?c#d%",
            "gopher://h:7070/0/a%20b%3Fc%23d%25",
        ),
        ("::1", 70, '9', "/x", "gopher://[::1]/9/x"),
    ];
    for (host, port, ty, sel, want) in cases {
        let u = gopher_item_url(host, port, ty, sel);
        assert_eq!(u, want);
        let t = p(&u).gopher_target().unwrap();
        assert_eq!((t.item_type, t.selector.as_str()), (ty, sel));
    }
}

#[test]
fn parent_and_root() {
    let cases = [
        ("gemini://h/a/b/c", Some("gemini://h/a/b/")),
        ("gemini://h/a/b/", Some("gemini://h/a/")),
        ("gemini://h/a?q", Some("gemini://h/")),
        ("gemini://h/", None),
        ("about:home", None),
    ];
    for (url, want) in cases {
        assert_eq!(
            p(url).parent().map(|u| u.to_string()).as_deref(),
            want,
            "{url}"
        );
    }
    assert_eq!(
        p("gemini://h:1966/a/b?q").root().to_string(),
        "gemini://h:1966/"
    );
}

#[test]
fn user_input() {
    let cases = [
        ("example.org", "gemini://example.org/"),
        (" example.org/a ", "gemini://example.org/a"),
        ("example.org:1966/x", "gemini://example.org:1966/x"),
        ("localhost:1965", "gemini://localhost/"),
        ("gopher.floodgap.com", "gopher://gopher.floodgap.com/"),
        (
            "Gopher.example:7070/1/x",
            "gopher://gopher.example:7070/1/x",
        ),
        ("//example.org/", "gemini://example.org/"),
        ("gopher://h/1", "gopher://h/1"),
        ("about:help", "about:help"),
    ];
    for (input, want) in cases {
        assert_eq!(
            parse_user_input(input).unwrap().to_string(),
            want,
            "{input}"
        );
    }
    assert_eq!(parse_user_input(""), Err(UrlError::Empty));
    // Web URLs parse (the reader view); other schemes stay unsupported.
    assert_eq!(
        parse_user_input("https://x.org").unwrap().to_string(),
        "https://x.org/"
    );
    assert!(matches!(
        parse_user_input("ftp://x.org"),
        Err(UrlError::UnsupportedScheme(_))
    ));
    assert!(matches!(
        parse_user_input("mailto:a"),
        Err(UrlError::UnsupportedScheme(_))
    ));
}

proptest! {
    #[test]
    fn parse_never_panics_and_round_trips(s in "\\PC*") {
        if let Ok(u) = Url::parse(&s) {
            prop_assert_eq!(Url::parse(&u.to_string()), Ok(u.clone()));
            let _ = u.gopher_target();
            let _ = u.parent();
            let _ = u.resolve(&s);
        }
        let _ = parse_user_input(&s);
    }

    #[test]
    fn structured_urls_round_trip(
        scheme in "(gemini|gopher|GEMINI)",
        host in "[a-zA-Z0-9.-]{1,12}|\\[::[0-9a-f]{1,4}\\]|[a-zé]{1,5}\\.de",
        port in proptest::option::of(1u16..),
        path in "(/[a-zA-Z0-9 %é?./~-]{0,10}){0,4}",
    ) {
        let raw = match port {
            Some(n) => format!("{scheme}://{host}:{n}{path}"),
            None => format!("{scheme}://{host}{path}"),
        };
        if let Ok(u) = Url::parse(&raw) {
            prop_assert_eq!(Url::parse(&u.to_string()), Ok(u.clone()));
            prop_assert!(u.path().starts_with('/'));
            prop_assert!(u.to_string().is_ascii());
        }
    }

    #[test]
    fn resolve_output_parses(base in "gemini://h(/[a-z.]{0,3}){0,4}", r in "[a-z.?#][a-z./?#]{0,12}") {
        let b = Url::parse(&base).unwrap();
        let out = b.resolve(&r).unwrap();
        prop_assert_eq!(Url::parse(&out).unwrap().to_string(), out);
    }

    #[test]
    fn with_input_round_trips(answer in "\\PC*") {
        let u = Url::parse("gemini://h/q").unwrap().with_input(&answer);
        let q = u.query().unwrap().to_string();
        prop_assert_eq!(encode::decode_lossy(&q), answer);
        prop_assert_eq!(Url::parse(&u.to_string()), Ok(u));
    }
}

#[test]
fn one_host_normalizer_for_every_path_that_names_a_host() {
    let same = [
        ("example.org", "example.org"),
        ("EXAMPLE.Org", "example.org"),
        ("example.org.", "example.org"),
        ("  example.org ", "example.org"),
        ("bücher.example", "xn--bcher-kva.example"),
        ("[::1]", "::1"),
        ("::1", "::1"),
        ("[2001:DB8::1]", "2001:db8::1"),
        ("127.0.0.1", "127.0.0.1"),
    ];
    for (typed, want) in same {
        assert_eq!(normalize_host(typed).unwrap(), want, "{typed}");
        // What a fetch of that host looks up is the same string.
        let url = Url::parse(&format!("gemini://{}/", bracket(want))).unwrap();
        assert_eq!(url.host(), want, "{typed}");
    }
    for bad in [
        "",
        "host:1966",
        "[::1]:1966",
        "gemini://example.org",
        "GEMINI://example.org/",
        "gemini:",
        "example.org/path",
        "user@example.org",
        "exa mple.org",
        "ex\u{1b}ample",
        "[::1",
    ] {
        assert!(normalize_host(bad).is_err(), "{bad:?} accepted");
    }
}

fn bracket(host: &str) -> String {
    if host.contains(':') {
        format!("[{host}]")
    } else {
        host.to_string()
    }
}

#[test]
fn host_and_port_splits_then_normalizes() {
    let cases = [
        ("Example.org", ("example.org", 1965)),
        ("example.org:1966", ("example.org", 1966)),
        ("[::1]:1966", ("::1", 1966)),
        ("[::1]", ("::1", 1965)),
        ("::1", ("::1", 1965)),
        ("bücher.example:7", ("xn--bcher-kva.example", 7)),
    ];
    for (typed, (host, port)) in cases {
        assert_eq!(
            host_and_port(typed, 1965).unwrap(),
            (host.to_string(), port),
            "{typed}"
        );
    }
    for bad in [
        "host:0",
        "host:99999",
        "host:x",
        "gemini://host",
        "host:1/x",
    ] {
        assert!(host_and_port(bad, 1965).is_err(), "{bad:?} accepted");
    }
}

#[test]
fn strip_query_drops_everything_from_the_first_question_mark() {
    let cases = [
        ("gemini://h/p?secret", "gemini://h/p"),
        ("gemini://h/p?a?b#f", "gemini://h/p"),
        ("gemini://h/p#frag", "gemini://h/p#frag"),
        ("not a url ? at all", "not a url "),
        ("", ""),
    ];
    for (input, want) in cases {
        assert_eq!(strip_query(input), want, "{input}");
    }
}

#[test]
fn small_protocol_schemes_and_default_ports() {
    for (url, scheme, port, shown) in [
        (
            "nex://Example.org/",
            Scheme::Nex,
            1900,
            "nex://example.org/",
        ),
        (
            "finger://example.org",
            Scheme::Finger,
            79,
            "finger://example.org/",
        ),
        (
            "SPARTAN://example.org:300/a",
            Scheme::Spartan,
            300,
            "spartan://example.org/a",
        ),
        (
            "scroll://example.org:5700/",
            Scheme::Scroll,
            5700,
            "scroll://example.org:5700/",
        ),
        (
            "gophers://example.org/1/",
            Scheme::Gophers,
            70,
            "gophers://example.org/1/",
        ),
        (
            "titan://example.org/a.gmi",
            Scheme::Titan,
            1965,
            "titan://example.org/a.gmi",
        ),
    ] {
        let u = p(url);
        assert_eq!((u.scheme(), u.port()), (scheme, port), "{url}");
        assert_eq!(u.to_string(), shown, "{url}");
        assert_eq!(p(shown), u, "round trip of {shown}");
    }
    assert!(Scheme::Scroll.is_tls() && Scheme::Gophers.is_tls() && !Scheme::Nex.is_tls());
    assert!(!Scheme::Titan.is_small_net() && Scheme::Finger.is_small_net());
    // Hierarchical paths lose their dot segments; a finger query and a selector keep them.
    assert_eq!(p("nex://h/a/../b").path(), "/b");
    assert_eq!(p("gophers://h/0/a/../b").path(), "/0/a/../b");
}

#[test]
fn finger_user_at_host_becomes_a_path_and_forwards_are_seen() {
    let u = p("finger://alice@example.org");
    assert_eq!(u.to_string(), "finger://example.org/alice");
    assert_eq!(u.finger_query().unwrap(), ("alice".to_string(), false));
    let f = p("finger://alice@h1.example@h2.example");
    assert_eq!(f.host(), "h2.example");
    assert_eq!(
        f.finger_query().unwrap(),
        ("alice@h1.example".to_string(), true)
    );
    assert!(
        p("finger://h2.example/alice@h1.example")
            .finger_query()
            .unwrap()
            .1
    );
    assert_eq!(p("finger://example.org/").finger_query().unwrap().0, "");
    assert!(Url::parse("finger://alice@example.org/bob").is_err());
    assert!(
        Url::parse("nex://alice@example.org/").is_err(),
        "userinfo elsewhere"
    );
    assert!(p("gemini://example.org/").finger_query().is_err());
}

#[test]
fn small_protocol_links_resolve_and_are_fetched_but_titan_is_not() {
    let base = p("nex://example.org/docs/");
    assert_eq!(
        base.resolve("a.txt").unwrap(),
        "nex://example.org/docs/a.txt"
    );
    assert_eq!(
        base.resolve("spartan://Example.org/").unwrap(),
        "spartan://example.org/"
    );
    for url in [
        "nex://x/",
        "finger://x/u",
        "spartan://x/",
        "scroll://x/",
        "gophers://x/",
    ] {
        assert_eq!(destination(url), Destination::Fetch, "{url}");
    }
    assert_eq!(destination("titan://x/a;size=3"), Destination::Refused);
}

#[test]
fn scheme_all_is_the_one_list() {
    for s in Scheme::ALL {
        assert_eq!(Scheme::from_name(s.as_str()), Some(s));
        assert_eq!(Scheme::from_name(&s.as_str().to_ascii_uppercase()), Some(s));
        // A link may lead to every scheme but the upload one, and the link rule agrees.
        let url = format!("{}://example.org/", s.as_str());
        let fetched = crate::url::destination(&url) == crate::url::Destination::Fetch;
        assert_eq!(fetched, s != Scheme::Titan, "{url}");
    }
    let names: std::collections::HashSet<&str> = Scheme::ALL.iter().map(|s| s.as_str()).collect();
    assert_eq!(names.len(), Scheme::ALL.len(), "no name twice");
    let said = UrlError::UnsupportedScheme("ftp".into()).to_string();
    for s in Scheme::ALL.iter().filter(|s| **s != Scheme::About) {
        assert!(said.contains(s.as_str()), "{said} names {}", s.as_str());
    }
    let last = Scheme::ALL[Scheme::ALL.len() - 1].as_str();
    let tail = format!(" and {last} URLs can be opened)");
    assert!(said.ends_with(&tail), "{said}");
}
