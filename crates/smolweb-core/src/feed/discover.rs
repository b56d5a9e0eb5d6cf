//! Feeds announced by an HTML page: `<link rel="alternate" type="..." href="...">` with an
//! Atom, RSS or JSON Feed media type, parsed with a real HTML parser (`dom_query`, html5ever).
//!
//! `rel` is a space-separated, case-insensitive token list; `type` is compared without its
//! parameters and case; `href` is resolved against the page URL (a `<base href>` is not
//! honoured: it would let a page point the reader elsewhere than its own origin suggests, and
//! feeds are nearly always linked absolutely or from the page's own path). Duplicates (same
//! resolved URL) are listed once, in document order.

use super::{FeedKind, one_line, resolve};

/// A feed a page links to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Alternate {
    /// Absolute URL of the feed.
    pub url: String,
    /// The feed's format, from the link's `type`.
    pub kind: FeedKind,
    /// The `title` attribute, on one line, when given.
    pub title: Option<String>,
}

/// The feeds announced in `html`, a page served at `base`.
pub fn alternates(html: &str, base: &str) -> Vec<Alternate> {
    let doc = dom_query::Document::from(html);
    let mut out: Vec<Alternate> = Vec::new();
    for node in doc.select("link[rel][href]").nodes() {
        let rel = node
            .attr("rel")
            .map(|r| r.to_ascii_lowercase())
            .unwrap_or_default();
        if !rel.split_ascii_whitespace().any(|t| t == "alternate") {
            continue;
        }
        let Some(kind) = node.attr("type").and_then(|t| kind_of(&t)) else {
            continue;
        };
        let Some(url) = node.attr("href").and_then(|h| resolve(base, &h)) else {
            continue;
        };
        if out.iter().any(|a| a.url == url) {
            continue;
        }
        let title = node
            .attr("title")
            .map(|t| one_line(&t))
            .filter(|t| !t.is_empty());
        out.push(Alternate { url, kind, title });
    }
    out
}

/// The feed kind of a media type (`application/atom+xml; charset=utf-8` -> Atom).
pub(crate) fn kind_of(media_type: &str) -> Option<FeedKind> {
    let essence = media_type.split(';').next().unwrap_or("").trim();
    match essence.to_ascii_lowercase().as_str() {
        "application/atom+xml" => Some(FeedKind::Atom),
        "application/rss+xml" | "application/rdf+xml" => Some(FeedKind::Rss),
        "application/feed+json" | "application/json+feed" => Some(FeedKind::JsonFeed),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_announced_feeds() {
        let html = r#"<!doctype html><html><head>
            <link rel="stylesheet" href="/s.css">
            <LINK REL="Alternate" TYPE="application/atom+xml; charset=utf-8" href="/feed.atom" title="Posts (Atom)">
            <link rel="alternate feed" type="application/rss+xml" href="rss.xml?a=1&amp;b=2">
            <link rel="alternate" type="application/feed+json" href="https://cdn.example/f.json">
            <link rel="alternate" type="text/html" hreflang="fr" href="/fr/">
            <link rel="alternate" type="application/atom+xml" href="/feed.atom">
            <link rel="alternate" type="application/atom+xml">
            </head><body><link rel="alternate" type="application/rss+xml" href="/late.xml"></body></html>"#;
        let got = alternates(html, "https://blog.example/posts/index.html");
        let urls: Vec<_> = got.iter().map(|a| (a.url.as_str(), a.kind)).collect();
        assert_eq!(
            urls,
            [
                ("https://blog.example/feed.atom", FeedKind::Atom),
                ("https://blog.example/posts/rss.xml?a=1&b=2", FeedKind::Rss),
                ("https://cdn.example/f.json", FeedKind::JsonFeed),
                ("https://blog.example/late.xml", FeedKind::Rss),
            ]
        );
        assert_eq!(got[0].title.as_deref(), Some("Posts (Atom)"));
        assert_eq!(got[1].title, None);
    }

    #[test]
    fn pages_without_feeds_and_broken_markup() {
        assert!(alternates("<p>hello", "https://x.example/").is_empty());
        assert!(alternates("", "https://x.example/").is_empty());
        assert!(
            alternates(
                "<link rel=alternate type=application/atom+xml href=",
                "https://x.example/"
            )
            .is_empty()
        );
    }
}
