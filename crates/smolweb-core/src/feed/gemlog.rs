//! The Gemini subscription convention (also read from Gopher phlog menus).
//!
//! A link whose label starts with `YYYY-MM-DD` (a real calendar date, followed by the end of
//! the label or a character that is not a letter or digit) is an entry dated that day at
//! 00:00 UTC; the rest of the label, with leading separators (` - `, `:`, `|`, dashes) removed,
//! is its title (the date itself when nothing else is left). The feed title is the page's
//! first level-1 heading. Links inside preformatted blocks are not links (the gemtext parser
//! decides), so they never become entries.

use super::{Entry, Feed, FeedKind, one_line};
use crate::gemtext::{self, Document};
use crate::url::Url;

/// Read a parsed gemtext document (its links already resolved against the page URL).
pub fn from_document(doc: &Document) -> Feed {
    let links = doc
        .links()
        .map(|l| (l.text.as_deref().unwrap_or(""), l.url.as_str()));
    from_links(doc.title(), links)
}

/// Parse gemtext `text` served at `base` and read it as a feed.
pub fn parse(text: &str, base: &Url) -> Feed {
    from_document(&gemtext::parse(text, Some(base)))
}

/// The convention over (label, absolute URL) pairs, e.g. the items of a Gopher menu.
pub fn from_links<'a>(
    title: Option<&str>,
    links: impl Iterator<Item = (&'a str, &'a str)>,
) -> Feed {
    let entries = links
        .filter(|(_, url)| super::is_fetched(url))
        .filter_map(|(label, url)| {
            let (date, rest) = split_date(label.trim_start())?;
            let rest = one_line(rest);
            let title = if rest.is_empty() {
                date.to_string()
            } else {
                rest
            };
            Some(Entry {
                title,
                url: url.to_string(),
                published: Some(format!("{date}T00:00:00Z")),
            })
        })
        .collect();
    Feed {
        kind: FeedKind::Gemlog,
        title: title.map(one_line).filter(|t| !t.is_empty()),
        entries,
    }
}

/// `Some((date, rest))` when `label` starts with a valid `YYYY-MM-DD` date.
pub(crate) fn split_date(label: &str) -> Option<(&str, &str)> {
    let date = label.get(..10)?;
    let b = date.as_bytes();
    let digits = |r: std::ops::Range<usize>| b[r].iter().all(u8::is_ascii_digit);
    if !(digits(0..4) && b[4] == b'-' && digits(5..7) && b[7] == b'-' && digits(8..10)) {
        return None;
    }
    let rest = &label[10..];
    if rest.chars().next().is_some_and(char::is_alphanumeric) {
        return None;
    }
    let year: u32 = date[0..4].parse().ok()?;
    let month: u32 = date[5..7].parse().ok()?;
    let day: u32 = date[8..10].parse().ok()?;
    if !(1..=12).contains(&month) || day == 0 || day > days_in_month(year, month) {
        return None;
    }
    let rest = rest.trim_start_matches(|c: char| {
        c.is_whitespace() || matches!(c, '-' | '–' | '—' | ':' | '|' | '·' | '~')
    });
    Some((date, rest))
}

fn days_in_month(year: u32, month: u32) -> u32 {
    match month {
        2 if year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400)) => {
            29
        }
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn base() -> Url {
        Url::parse("gemini://log.example/gemlog/index.gmi").unwrap()
    }

    #[test]
    fn date_prefixes() {
        let cases: &[(&str, Option<(&str, &str)>)] = &[
            ("2026-11-30 A post", Some(("2026-11-30", "A post"))),
            ("2026-11-30 - A post", Some(("2026-11-30", "A post"))),
            ("2026-11-30: A post", Some(("2026-11-30", "A post"))),
            ("2026-11-30 — A post", Some(("2026-11-30", "A post"))),
            ("2026-11-30", Some(("2026-11-30", ""))),
            ("2024-02-29 leap", Some(("2024-02-29", "leap"))),
            ("2023-02-29 not leap", None),
            ("1900-02-29 not leap", None),
            ("2000-02-29 leap", Some(("2000-02-29", "leap"))),
            ("2026-13-01 month", None),
            ("2026-04-31 day", None),
            ("2026-00-10 zero month", None),
            ("2026-11-00 zero day", None),
            ("2026-11-301 more digits", None),
            ("2026-11-30T10:00 time", None),
            ("26-11-30 short year", None),
            ("2026/11/30 slashes", None),
            ("On 2026-11-30", None),
            ("", None),
            ("2026-1", None),
            ("２０２６-11-30 wide digits", None),
        ];
        for (label, want) in cases {
            assert_eq!(split_date(label), *want, "{label:?}");
        }
    }

    #[test]
    fn page_in_the_convention() {
        let text = "\
Intro text\n\
# My gemlog\n\
## Subtitle\n\
# Second heading is not the title\n\
=> 2026-11-30-hello.gmi 2026-11-30 Hello, world\n\
=> /about.gmi About me\n\
=> gemini://other.example/x 2026-11-02 - Elsewhere\n\
=> https://web.example/p 2026-10-01: On the web\n\
=> ../up.gmi 2026-09-09\n\
```\n\
=> fake.gmi 2026-01-01 inside preformat\n\
```\n\
=> bad.gmi 2026-02-30 impossible date\n";
        let feed = parse(text, &base());
        assert_eq!(feed.kind, FeedKind::Gemlog);
        assert_eq!(feed.title.as_deref(), Some("My gemlog"));
        let got: Vec<_> = feed
            .entries
            .iter()
            .map(|e| (e.title.as_str(), e.url.as_str(), e.published.as_deref()))
            .collect();
        assert_eq!(
            got,
            [
                (
                    "Hello, world",
                    "gemini://log.example/gemlog/2026-11-30-hello.gmi",
                    Some("2026-11-30T00:00:00Z")
                ),
                (
                    "Elsewhere",
                    "gemini://other.example/x",
                    Some("2026-11-02T00:00:00Z")
                ),
                (
                    "On the web",
                    "https://web.example/p",
                    Some("2026-10-01T00:00:00Z")
                ),
                (
                    "2026-09-09",
                    "gemini://log.example/up.gmi",
                    Some("2026-09-09T00:00:00Z")
                ),
            ]
        );
    }

    #[test]
    fn page_without_entries_or_title() {
        let feed = parse("Just text\n=> /a A link\n## Only h2\n", &base());
        assert_eq!(feed.title, None);
        assert!(feed.entries.is_empty());
        let empty = parse("", &base());
        assert!(empty.entries.is_empty() && empty.title.is_none());
    }

    #[test]
    fn hostile_titles_are_one_line() {
        let feed = parse("# Ti\x1btle\n=> a 2026-01-02 \x07bell\u{85}next\n", &base());
        assert_eq!(feed.title.as_deref(), Some("Ti tle"));
        assert_eq!(feed.entries[0].title, "bell next");
    }

    #[test]
    fn gopher_menu_items() {
        let items = [
            ("2026-03-04 Phlog post", "gopher://g.example/0/phlog/p1.txt"),
            ("Welcome to my hole", ""),
            ("2026-03-01 Older", "gopher://g.example/0/phlog/p0.txt"),
        ];
        let feed = from_links(None, items.iter().copied());
        assert_eq!(feed.entries.len(), 2);
        assert_eq!(feed.entries[1].title, "Older");
    }
}
