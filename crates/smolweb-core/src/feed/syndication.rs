//! Atom, RSS and JSON Feed documents, parsed by the `feed-rs` crate.
//!
//! An entry's URL is its `alternate` link (or the first link without a `rel`, or any first
//! link; JSON Feed's `url`), resolved against the feed's URL; an entry with no link that can be
//! made absolute is dropped (an agent or reader could not open it). `published` is the entry's
//! published time, else its updated time, as RFC 3339 UTC seconds. HTML in titles (Atom
//! `type="html"`) is reduced to its text.

use super::{Entry, Feed, FeedKind, FeedParseError, one_line, resolve};
use feed_rs::model;

/// Parse `bytes` (XML or JSON) as a feed served at `base` (the feed's own URL).
pub fn parse(bytes: &[u8], base: &str) -> Result<Feed, FeedParseError> {
    let parsed = feed_rs::parser::Builder::new()
        .build()
        .parse(bytes)
        .map_err(|e| FeedParseError(one_line(&e.to_string())))?;
    let kind = match parsed.feed_type {
        model::FeedType::Atom => FeedKind::Atom,
        model::FeedType::JSON => FeedKind::JsonFeed,
        model::FeedType::RSS0 | model::FeedType::RSS1 | model::FeedType::RSS2 => FeedKind::Rss,
    };
    let entries = parsed
        .entries
        .iter()
        .filter_map(|e| entry(e, base))
        .collect();
    Ok(Feed {
        kind,
        title: parsed.title.as_ref().map(text).filter(|t| !t.is_empty()),
        entries,
    })
}

/// True when the body looks like XML or JSON (worth handing to [`parse`]) after any BOM and
/// leading whitespace.
pub fn looks_like(bytes: &[u8]) -> bool {
    let body = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let first = body.iter().find(|b| !b.is_ascii_whitespace());
    matches!(first, Some(b'<') | Some(b'{'))
}

fn entry(e: &model::Entry, base: &str) -> Option<Entry> {
    let link = e
        .links
        .iter()
        .find(|l| l.rel.as_deref() == Some("alternate"))
        .or_else(|| e.links.iter().find(|l| l.rel.is_none()))
        .or_else(|| e.links.first())?;
    let url = resolve(base, &link.href)?;
    let title = e
        .title
        .as_ref()
        .map(text)
        .filter(|t| !t.is_empty())
        .unwrap_or_else(|| one_line(&url));
    let published = e
        .published
        .or(e.updated)
        .map(|t| t.format("%Y-%m-%dT%H:%M:%SZ").to_string());
    Some(Entry {
        title,
        url,
        published,
    })
}

/// A feed text on one line; HTML markup reduced to its text.
fn text(t: &model::Text) -> String {
    if t.content_type.subty() == "html" {
        one_line(&strip_tags(&t.content))
    } else {
        one_line(&t.content)
    }
}

/// Drop `<...>` markup and decode the few entities that survive in titles.
fn strip_tags(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut in_tag = false;
    for c in s.chars() {
        match (in_tag, c) {
            (false, '<') => in_tag = true,
            (true, '>') => in_tag = false,
            (false, c) => out.push(c),
            (true, _) => {}
        }
    }
    out.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

#[cfg(test)]
mod tests;
