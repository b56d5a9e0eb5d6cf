//! Feeds: one entry list from the gemlog subscription convention, Atom, RSS and JSON Feed.
//!
//! Every kind of feed becomes a [`Feed`]: an optional title and [`Entry`]s {`title`, `url`
//! (absolute), `published` (RFC 3339 UTC, `YYYY-MM-DDTHH:MM:SSZ`, or None)}, in document order.
//! - [`gemlog`]: the Gemini convention. The first level-1 heading is the feed title; each link
//!   line whose label starts with a valid `YYYY-MM-DD` date is an entry, the rest of the label
//!   its title; links are resolved against the page URL by the gemtext parser (`core::url`).
//!   The same rule reads Gopher phlog menus (item titles that start with a date).
//! - [`syndication`]: Atom, RSS (0.9x, 1.0, 2.0) and JSON Feed through the `feed-rs` crate (no
//!   XML is parsed by hand here); relative links are resolved against the feed's URL.
//! - [`discover`]: `<link rel="alternate">` feed announcements in an HTML page.
//!
//! Entries lead only where smolweb fetches (gemini, gopher, http(s)): one whose link has
//! another scheme (`javascript:`, `file:`, `mailto:`, ...) is dropped, by the one link rule
//! of [`crate::url::destination`].
//!
//! Titles are untrusted remote text: they are put on one line (control characters become
//! spaces, runs of whitespace collapse) and cut to [`MAX_TITLE_CHARS`]. Pure: no IO, no clock.

pub mod discover;
pub mod gemlog;
pub mod syndication;

use crate::url::{Scheme, Url};

/// Longest entry or feed title kept, in characters.
pub const MAX_TITLE_CHARS: usize = 300;

/// Which convention or format a feed was read from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FeedKind {
    /// A gemtext page (or a Gopher menu) in the subscription convention.
    Gemlog,
    /// An Atom feed.
    Atom,
    /// An RSS feed (0.9x, 1.0 or 2.0).
    Rss,
    /// A JSON Feed.
    JsonFeed,
}

impl FeedKind {
    /// The kind's name: `gemlog`, `atom`, `rss` or `json_feed`.
    pub fn as_str(self) -> &'static str {
        match self {
            FeedKind::Gemlog => "gemlog",
            FeedKind::Atom => "atom",
            FeedKind::Rss => "rss",
            FeedKind::JsonFeed => "json_feed",
        }
    }
}

/// One post of a feed.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Entry {
    /// The entry's title, on one line.
    pub title: String,
    /// Absolute (any scheme: gemini, gopher, https, ...).
    pub url: String,
    /// RFC 3339 UTC (`2026-11-30T00:00:00Z` for a gemlog date), or None when the feed gives none.
    pub published: Option<String>,
}

/// A parsed feed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Feed {
    /// Which convention or format the feed was read from.
    pub kind: FeedKind,
    /// The feed's title on one line, or None when it has none.
    pub title: Option<String>,
    /// The entries, in document order.
    pub entries: Vec<Entry>,
}

/// Why a document could not be read as a feed: the syndication parser's reason, on one line
/// (text about the document, which its author wrote).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("not a readable feed: {0}")]
pub struct FeedParseError(pub String);

/// A title or a reason kept from a feed, on one line: [`crate::text::one_line`] cut to
/// [`MAX_TITLE_CHARS`] characters (controls and whitespace runs become one space, trimmed).
pub fn one_line(s: &str) -> String {
    crate::text::one_line(s, Some(MAX_TITLE_CHARS)).into_owned()
}

/// Resolve `reference` against `base` (gemini/gopher bases with `core::url`, http(s) bases
/// with [`crate::url::join_web`]; against any other base only an absolute reference
/// resolves). None when it cannot be made absolute, or when it leads nowhere smolweb fetches
/// ([`crate::url::destination`]: `javascript:`, `file:`, `mailto:`, ... entries could not be
/// opened).
pub fn resolve(base: &str, reference: &str) -> Option<String> {
    resolve_any(base, reference).filter(|u| is_fetched(u))
}

/// Is `url` a destination smolweb fetches (the one link rule)?
pub fn is_fetched(url: &str) -> bool {
    crate::url::destination(url) == crate::url::Destination::Fetch
}

fn resolve_any(base: &str, reference: &str) -> Option<String> {
    let reference = reference.trim();
    if reference.is_empty() {
        return None;
    }
    if let Ok(b) = Url::parse(base) {
        let out = b.resolve(reference).ok()?;
        return is_absolute(&out).then_some(out);
    }
    let web = url::Url::parse(base).ok();
    match web.and_then(|b| crate::url::join_web(&b, reference)) {
        Some(u) => Some(u.to_string()),
        None => url::Url::parse(reference).ok().map(|u| u.to_string()),
    }
}

/// Why a URL cannot be followed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FeedUrlError {
    /// The URL is a built-in (`about:`) page, not a feed.
    #[error("{0} is a built-in page, not a feed")]
    BuiltIn(String),
    /// A Gemini feed URL carries a query, which is refused.
    #[error("a Gemini feed URL may not carry a query")]
    GeminiQuery,
    /// The input is not an absolute gemini://, gopher:// or http(s):// URL.
    #[error("cannot follow {0}: give an absolute gemini://, gopher:// or https:// URL")]
    NotAbsolute(String),
}

/// The stored form of a subscription URL: gemini://, gopher:// and http(s):// normalized by
/// `core::url` (a Gemini URL with a query is refused: a query may hold a secret answer).
/// Other schemes are refused.
pub fn subscription_url(input: &str) -> Result<String, FeedUrlError> {
    let input = input.trim();
    if let Ok(u) = Url::parse(input) {
        return match u.scheme() {
            Scheme::About => Err(FeedUrlError::BuiltIn(one_line(input))),
            Scheme::Gemini if u.query().is_some() => Err(FeedUrlError::GeminiQuery),
            _ => Ok(u.to_string()),
        };
    }
    match url::Url::parse(input) {
        Ok(mut u) if matches!(u.scheme(), "http" | "https") && u.host().is_some() => {
            u.set_fragment(None);
            Ok(u.to_string())
        }
        _ => Err(FeedUrlError::NotAbsolute(one_line(input))),
    }
}

/// True when the string starts with a URL scheme (`letter *( letter / digit / + - . ) :`).
fn is_absolute(s: &str) -> bool {
    let Some((scheme, _)) = s.split_once(':') else {
        return false;
    };
    let mut chars = scheme.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_line_flattens_and_cuts() {
        assert_eq!(one_line("  a\n\tb\x1b[31m  c "), "a b [31m c");
        assert_eq!(one_line(&"x".repeat(1000)).chars().count(), MAX_TITLE_CHARS);
        assert_eq!(one_line("\n\n"), "");
    }

    #[test]
    fn gemlog_entries_with_foreign_schemes_are_dropped() {
        let base = Url::parse("gemini://a.org/log/").unwrap();
        let feed = gemlog::parse(
            "# Log\n=> javascript:alert(1) 2026-01-02 Click\n=> file:///etc/passwd 2026-01-03 X\n\
             => post.gmi 2026-01-04 Real\n",
            &base,
        );
        let urls: Vec<&str> = feed.entries.iter().map(|e| e.url.as_str()).collect();
        assert_eq!(urls, ["gemini://a.org/log/post.gmi"]);
    }

    #[test]
    fn a_space_at_the_cut_does_not_overrun_the_limit() {
        // A word boundary just at the limit: the space and the next char must not both be
        // pushed past it (the cut used to give 301 chars).
        let title = format!("{} y", "x".repeat(MAX_TITLE_CHARS - 1));
        let cut = one_line(&title);
        assert_eq!(cut.chars().count(), MAX_TITLE_CHARS - 1);
        assert!(!cut.ends_with(' '));
        let exact = format!("{} y", "x".repeat(MAX_TITLE_CHARS - 2));
        assert_eq!(one_line(&exact).chars().count(), MAX_TITLE_CHARS);
    }

    #[test]
    fn subscription_urls() {
        let ok = [
            ("gemini://A.example:1965/log/", "gemini://a.example/log/"),
            (
                "  gopher://g.example/1/phlog ",
                "gopher://g.example/1/phlog",
            ),
            (
                "https://W.example/feed.xml#top",
                "https://w.example/feed.xml",
            ),
            (
                "https://w.example/feed?format=atom",
                "https://w.example/feed?format=atom",
            ),
        ];
        for (input, want) in ok {
            assert_eq!(subscription_url(input).as_deref(), Ok(want), "{input}");
        }
        for bad in [
            "",
            "about:feeds",
            "gemini://a.example/?secret",
            "file:///etc/passwd",
            "log/",
        ] {
            assert!(subscription_url(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn resolve_handles_each_base() {
        let cases = [
            (
                "gemini://a.org/log/",
                "post.gmi",
                Some("gemini://a.org/log/post.gmi"),
            ),
            ("gemini://a.org/log/", "../x", Some("gemini://a.org/x")),
            (
                "gemini://a.org/",
                "https://b.org/p",
                Some("https://b.org/p"),
            ),
            (
                "https://b.org/blog/feed.xml",
                "/p/1",
                Some("https://b.org/p/1"),
            ),
            (
                "gopher://g.org/1/phlog",
                "gopher://g.org/0/x",
                Some("gopher://g.org/0/x"),
            ),
            ("not a url", "relative", None),
            ("gemini://a.org/", "  ", None),
            // Not destinations: an entry could not be opened.
            ("https://b.org/feed.xml", "javascript:alert(1)", None),
            ("gemini://a.org/", "file:///etc/passwd", None),
            ("https://b.org/feed.xml", "mailto:op@b.org", None),
            ("gopher://g.org/1/", "telnet://g.org", None),
        ];
        for (base, r, want) in cases {
            assert_eq!(resolve(base, r).as_deref(), want, "{base} + {r}");
        }
    }

    #[test]
    fn a_base_that_is_not_on_the_web_resolves_only_absolute_references() {
        // Found by fuzzing (the url target): the url crate's join against this `file:` base
        // trips one of its debug assertions (a panic in debug and test builds).
        assert_eq!(resolve("file:h/le:h/..//s:#o/l", "..//s:#o/l"), None);
        assert_eq!(
            resolve("file:h/le:h/..//s:", "https://b.org/p").as_deref(),
            Some("https://b.org/p")
        );
    }
}
