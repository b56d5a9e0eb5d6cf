use super::*;

const ATOM: &str = include_str!("../../../tests/fixtures/feeds/atom.xml");
const RSS: &str = include_str!("../../../tests/fixtures/feeds/rss.xml");
const JSON: &str = include_str!("../../../tests/fixtures/feeds/feed.json");

fn rows(feed: &Feed) -> Vec<(&str, &str, Option<&str>)> {
    feed.entries
        .iter()
        .map(|e| (e.title.as_str(), e.url.as_str(), e.published.as_deref()))
        .collect()
}

#[test]
fn atom_fixture() {
    let feed = parse(ATOM.as_bytes(), "gemini://atom.example/feed.xml").unwrap();
    assert_eq!(feed.kind, FeedKind::Atom);
    assert_eq!(feed.title.as_deref(), Some("Station & Notes"));
    assert_eq!(
        rows(&feed),
        [
            (
                "Relative link post",
                "gemini://atom.example/posts/one.gmi",
                Some("2026-11-29T17:30:00Z")
            ),
            (
                "Bold title",
                "gemini://atom.example/posts/two.gmi",
                Some("2026-11-01T00:00:00Z")
            ),
        ]
    );
}

#[test]
fn rss_fixture() {
    let feed = parse(RSS.as_bytes(), "gopher://rss.example/0/feed.xml").unwrap();
    assert_eq!(feed.kind, FeedKind::Rss);
    assert_eq!(feed.title.as_deref(), Some("A Phlog in RSS"));
    assert_eq!(
        rows(&feed),
        [
            (
                "First item",
                "gopher://rss.example/0/phlog/first.txt",
                Some("2026-11-30T10:15:00Z")
            ),
            (
                "Undated item",
                "gopher://rss.example/0/phlog/undated.txt",
                None
            ),
        ]
    );
}

#[test]
fn json_feed_fixture() {
    let feed = parse(JSON.as_bytes(), "https://json.example/feed.json").unwrap();
    assert_eq!(feed.kind, FeedKind::JsonFeed);
    assert_eq!(feed.title.as_deref(), Some("JSON Log"));
    assert_eq!(
        rows(&feed),
        [
            (
                "Hello JSON",
                "https://json.example/p/1",
                Some("2026-11-28T13:00:00Z")
            ),
            ("https://json.example/p/2", "https://json.example/p/2", None),
        ]
    );
}

#[test]
fn garbage_is_an_error_not_a_panic() {
    for bad in [
        &b"<html><body>not a feed</body></html>"[..],
        b"{\"version\": 3}",
        b"<rss><channel><item><title>unclosed",
        b"\xff\xfe\x00<",
        b"",
    ] {
        assert!(parse(bad, "gemini://x.example/").is_err(), "{bad:?}");
    }
}

#[test]
fn sniffing() {
    assert!(looks_like(b"\xEF\xBB\xBF  <?xml"));
    assert!(looks_like(b"\n{\"version\":1}"));
    assert!(!looks_like(b"# A gemlog\n"));
    assert!(!looks_like(b""));
}
