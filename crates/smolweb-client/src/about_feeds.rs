//! The gemtext of `about:feeds` and `about:offline`, built by pure functions from store rows
//! (no IO here: [`super::about`] reads the stores and calls these).
//!
//! `about:feeds`: every remembered entry of every subscription, newest first, under one
//! `## YYYY-MM-DD` heading per day (the entry's date, else the day a refresh first saw it),
//! unread entries marked with [`UNREAD`]; then the subscriptions with unread counts, last
//! refresh and last error, and the signs of the sick ones ([`super::health`], as of each
//! one's last refresh), counted at the top with a link to `about:feeds?health`. `about:offline`: the reading list (saved pages) with sizes and
//! dates, and how much of the bound offline copies use. Remote text (titles, errors) was put on
//! one line when stored; it is put on one line again here, so a hand-edited store cannot break
//! the page's structure.

use super::health::{Sign, health};
use smolweb_core::feed::{MAX_TITLE_CHARS, one_line};
use smolweb_core::text::human_bytes;
use smolweb_store::offline::OfflineEntry;
use smolweb_store::subscriptions::{StoredEntry, Subscription};
use std::borrow::Cow;
use std::collections::HashMap;
use std::collections::hash_map::Entry;

/// The mark in front of an unread entry's label.
pub(crate) const UNREAD: &str = "● ";

/// Text for one line of the page: borrowed when it is already a clean, short line (the
/// common case: titles were made one line when stored), else made so by [`one_line`].
fn line(s: &str) -> Cow<'_, str> {
    // Printable ASCII is clean at a glance; anything else is looked at char by char.
    let clean = s.len() <= MAX_TITLE_CHARS
        && (s.bytes().all(|b| (b' '..=b'~').contains(&b))
            || !s
                .chars()
                .any(|c| c.is_control() || (c.is_whitespace() && c != ' ')));
    if clean {
        Cow::Borrowed(s)
    } else {
        Cow::Owned(one_line(s))
    }
}

/// How `about:feeds` lists the entries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FeedsView<'a> {
    /// Every feed's entries together, newest first under a heading per day (`about:feeds`).
    ByDate,
    /// Under a heading per subscription, each newest first (`about:feeds?by=feed`).
    ByFeed,
    /// One subscription's entries only (`about:feeds?feed=URL`, the URL form-encoded).
    One(&'a str),
}

impl<'a> FeedsView<'a> {
    /// The view an `about:feeds` query asks for (`by=feed`, `feed=URL`); by date otherwise.
    pub(crate) fn from_query(query: Option<&'a str>) -> FeedsView<'a> {
        let Some(q) = query else {
            return FeedsView::ByDate;
        };
        if q == "by=feed" {
            return FeedsView::ByFeed;
        }
        match q.strip_prefix("feed=") {
            Some(_) => FeedsView::One(q),
            None => FeedsView::ByDate,
        }
    }
}

/// The `about:feeds?feed=` address of one subscription's entries.
pub fn one_feed_url(feed: &str) -> String {
    let enc: String = url::form_urlencoded::byte_serialize(feed.as_bytes()).collect();
    format!("about:feeds?feed={enc}")
}

/// The one subscription an `about:feeds` address shows (`?feed=URL`), if it shows one.
pub fn feed_of_view(address: &str) -> Option<String> {
    feed_of_query(address.split_once('?')?.1)
}

/// The subscription URL an `about:feeds?feed=` query names.
fn feed_of_query(query: &str) -> Option<String> {
    url::form_urlencoded::parse(query.as_bytes())
        .find(|(k, _)| k == "feed")
        .map(|(_, v)| v.into_owned())
}

/// The `about:feeds` page, by date.
pub fn feeds_page(subs: &[Subscription]) -> String {
    feeds_page_view(subs, FeedsView::ByDate)
}

/// The `about:feeds` page in one of its views.
pub(crate) fn feeds_page_view(subs: &[Subscription], view: FeedsView<'_>) -> String {
    let only = match view {
        FeedsView::One(q) => feed_of_query(q),
        _ => None,
    };
    let subs: Vec<&Subscription> = subs
        .iter()
        .filter(|s| only.as_ref().is_none_or(|u| *u == s.url))
        .collect();
    let names: Vec<Cow<'_, str>> = subs.iter().map(|s| line(s.name())).collect();
    let rows = entry_rows(&subs, view);
    let unread = rows.iter().filter(|r| !r.read).count();
    let mut out = String::with_capacity(64 + rows.len() * 112);
    match (&only, view) {
        (Some(_), _) => {
            let name = names.first().cloned().unwrap_or_default();
            out.push_str(&format!("# Feeds: {name}\n\n"));
        }
        (None, FeedsView::ByFeed) => out.push_str("# Feeds by feed\n\n"),
        _ => out.push_str("# Feeds\n\n"),
    }
    if subs.is_empty() && only.is_some() {
        out.push_str("You do not follow this feed (any more).\n");
        return out;
    }
    if subs.is_empty() {
        out.push_str(
            "You follow no feeds yet. Subscribe to a gemlog, an Atom, RSS or JSON feed from \
             the browser, or with `smolweb feeds add URL`.\n",
        );
        return out;
    }
    let count =
        |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    // Health as of each one's last refresh (pure: the page reads no clock).
    let signs: Vec<Vec<Sign>> = subs
        .iter()
        .map(|s| health(s, s.refreshed.unwrap_or(s.added)).signs)
        .collect();
    let sick = signs.iter().filter(|g| !g.is_empty()).count();
    out.push_str(&format!(
        "{} · {} · {unread} unread\n",
        count(subs.len(), "subscription", "subscriptions"),
        count(rows.len(), "entry", "entries"),
    ));
    if sick > 0 {
        // Text, not a link: the entries keep their link numbers.
        let n = match sick {
            1 => "1 subscription needs".to_string(),
            n => format!("{n} subscriptions need"),
        };
        out.push_str(&format!(
            "⚠ {n} attention: see Subscriptions, or Health of every subscription\n"
        ));
    }
    let mut day = "";
    let mut feed = usize::MAX;
    for Row {
        key,
        entry: e,
        sub: n,
        read,
    } in &rows
    {
        if view == FeedsView::ByFeed && only.is_none() {
            if *n != feed {
                feed = *n;
                out.push_str(&format!(
                    "\n## {}\n=> {} Only this feed\n",
                    names[*n],
                    one_feed_url(&subs[*n].url)
                ));
            }
        } else {
            let d = key.get(..10).unwrap_or(key);
            if d != day {
                out.push_str("\n## ");
                out.push_str(d);
                out.push('\n');
                day = d;
            }
        }
        out.push_str("=> ");
        out.push_str(&e.url);
        out.push(' ');
        if !read {
            out.push_str(UNREAD);
        }
        out.push_str(&line(&e.title));
        out.push_str(" · ");
        out.push_str(&names[*n]);
        out.push('\n');
    }
    if rows.is_empty() {
        out.push_str("\nNo entries yet: refresh to fetch your feeds.\n");
    }
    out.push_str("\n## Subscriptions\n");
    for (s, signs) in subs.iter().zip(&signs) {
        let when = s.last_try();
        out.push_str(&format!(
            "=> {} {} ({} unread, {when})\n",
            s.url,
            one_line(s.name()),
            s.unread()
        ));
        if let Some(err) = &s.error {
            out.push_str(&format!("* last refresh failed: {}\n", one_line(err)));
        }
        // The other signs of a sick one (its failure is the line above).
        for sign in signs.iter().filter(|g| g.tag() != "failing") {
            out.push_str(&format!("* ⚠ {}\n", sign.words()));
        }
    }
    // The other views, last: the entries keep their link numbers.
    out.push_str("\n## Views\n");
    if view != FeedsView::ByDate || only.is_some() {
        out.push_str("=> about:feeds By date, all feeds\n");
    }
    if view != FeedsView::ByFeed || only.is_some() {
        out.push_str("=> about:feeds?by=feed By feed\n");
    }
    out.push_str("=> about:feeds?health Health of every subscription\n");
    out
}

/// One line of the entries: an entry, the time it is sorted by, its subscription (an index
/// into the subscriptions shown), and whether it is read (here or in another subscription).
struct Row<'a> {
    key: Cow<'a, str>,
    entry: &'a StoredEntry,
    sub: usize,
    read: bool,
}

/// The entries to list, in the view's order: newest first (by feed: grouped by subscription,
/// each newest first). One entry URL is one entry, whichever feeds list it (a gemlog and its
/// own Atom feed): listed once, under the first subscription that has it, read when any copy
/// is read. One sort and one pass with one lookup per entry.
fn entry_rows<'a>(subs: &[&'a Subscription], view: FeedsView<'_>) -> Vec<Row<'a>> {
    let mut all: Vec<Row<'a>> = subs
        .iter()
        .enumerate()
        .flat_map(|(n, s)| {
            s.entries.iter().map(move |e| Row {
                key: e.sort_key(),
                entry: e,
                sub: n,
                read: e.read,
            })
        })
        .collect();
    match view {
        // Stable: each subscription's entries stay newest first.
        FeedsView::ByFeed => all.sort_by(|a, b| a.sub.cmp(&b.sub).then(b.key.cmp(&a.key))),
        _ => all.sort_by(|a, b| b.key.cmp(&a.key)),
    }
    let mut first: HashMap<&'a str, usize> = HashMap::with_capacity(all.len());
    let mut rows: Vec<Row<'a>> = Vec::with_capacity(all.len());
    for row in all {
        match first.entry(row.entry.url.as_str()) {
            Entry::Occupied(kept) => {
                if let Some(k) = rows.get_mut(*kept.get()) {
                    k.read |= row.read;
                }
            }
            Entry::Vacant(slot) => {
                slot.insert(rows.len());
                rows.push(row);
            }
        }
    }
    rows
}

/// The `about:offline` page: `saved` is the reading list, `total_bytes` what all offline copies
/// use, `max_bytes` the configured bound.
pub fn offline_page(saved: &[OfflineEntry], total_bytes: u64, max_bytes: u64) -> String {
    let mut out = String::from("# Offline reading list\n\n");
    let saved_bytes: u64 = saved.iter().map(|e| e.bytes).sum();
    out.push_str(&format!(
        "{} ({}) · offline copies use {} of {}\n\n",
        smolweb_core::text::count(saved.len(), "saved page", "saved pages"),
        human_bytes(saved_bytes),
        human_bytes(total_bytes),
        human_bytes(max_bytes)
    ));
    if saved.is_empty() {
        out.push_str(
            "Nothing saved yet. Save a page for offline reading from the browser: it stays \
             here, out of the cache's eviction, until you remove it.\n",
        );
    }
    for e in saved {
        let title = e
            .title
            .as_deref()
            .map(one_line)
            .unwrap_or_else(|| e.url.clone());
        // Both times in the one form a person reads (the day alone hid a same-day refetch).
        let readable = smolweb_core::text::readable_time;
        let saved_on = e
            .saved
            .map(|t| format!(", saved {}", readable(t)))
            .unwrap_or_default();
        out.push_str(&format!(
            "=> {} {} ({}{saved_on}, fetched {})\n",
            e.url,
            title,
            human_bytes(e.bytes),
            readable(e.fetched)
        ));
    }
    out.push_str(
        "\nPages you visit are kept too (no queries, no identity pages) and offered when the \
         network fails; those go first when the cache is full.\n",
    );
    out
}

#[cfg(test)]
mod tests;
