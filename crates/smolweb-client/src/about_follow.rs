//! The gemtext of `about:changes` (a followed page's changes, one change with its diff) and
//! of `about:feeds?health` (every subscription's health), built by pure functions from store
//! rows (no IO here: [`super::about`] reads the stores and calls these), and the lines of a
//! diff as text for `smolweb feeds changes` and the agents' text block ([`diff_lines`]).
//!
//! A diff is shown in the page's own rendering: links as link lines (absolute, so they open),
//! paragraphs as the line kinds they were (text, a heading, a list item, a quote), a
//! preformatted block as one. Remote text was kept on its lines when the copy was made; here
//! each paragraph is put on one line again (a preformatted block keeps its lines, none of
//! which can open or close a fence), so a kept copy cannot change the page's structure.

use super::health::{Health, health};
use smolweb_core::feed::one_line;
use smolweb_core::follow::{Block, BlockKind, Diff, DiffLink};
use smolweb_core::text::{count, readable_time};
use smolweb_store::follows::{PageCopy, StoredChange};
use smolweb_store::subscriptions::Subscription;
use std::fmt::Write;

/// `about:changes?page=URL&at=ID`: one change of a followed page.
pub fn change_page(sub: Option<&Subscription>, copy: &PageCopy, change: &StoredChange) -> String {
    let name = sub.map_or(copy.url.as_str(), Subscription::name);
    let mut g = format!("# Changes: {}\n\n", one_line(name));
    let _ = writeln!(g, "=> {} Open the page", link_target(&copy.url));
    let _ = writeln!(
        g,
        "{} · found {} · compared with the copy of {}",
        super::follow::change_title(change),
        readable_time(change.at),
        readable_time(change.since)
    );
    if change.cut {
        let _ = writeln!(
            g,
            "The page is longer than the {} kept of it: only its beginning is compared.",
            smolweb_core::text::human_bytes(smolweb_core::follow::MAX_TEXT_BYTES as u64)
        );
    }
    diff_sections(&mut g, &change.diff);
    let _ = writeln!(
        g,
        "\n=> {} Every kept change of this page",
        super::follow::changes_url(&copy.url)
    );
    g.push_str("=> about:feeds Feeds and followed pages\n");
    g
}

/// `about:changes?page=URL`: every kept change of a followed page, newest first.
pub fn changes_list_page(sub: Option<&Subscription>, copy: &PageCopy) -> String {
    let name = sub.map_or(copy.url.as_str(), Subscription::name);
    let mut g = format!("# Changes: {}\n\n", one_line(name));
    let _ = writeln!(g, "=> {} Open the page", link_target(&copy.url));
    let _ = writeln!(
        g,
        "Last copy {} · {} kept (the newest {})\n",
        readable_time(copy.fetched),
        count(copy.changes.len(), "change", "changes"),
        smolweb_store::follows::MAX_CHANGES
    );
    if copy.changes.is_empty() {
        g.push_str("No change seen yet.\n");
    }
    for c in copy.changes.iter().rev() {
        let _ = writeln!(
            g,
            "=> {} {} · {}",
            super::follow::change_url(&copy.url, c.id()),
            readable_time(c.at),
            super::follow::change_title(c)
        );
    }
    g
}

/// The page shown when the change asked for is not kept (or the page is not followed).
pub fn change_gone_page(page: &str, followed: bool) -> String {
    let mut g = String::from("# Changes\n\n");
    if followed {
        let _ = writeln!(
            g,
            "This change is no longer kept: smolweb keeps the last {} changes of a page.",
            smolweb_store::follows::MAX_CHANGES
        );
        let _ = writeln!(
            g,
            "=> {} Every kept change of this page",
            super::follow::changes_url(page)
        );
    } else {
        g.push_str("This page is not followed (any more), so none of its changes are kept.\n");
    }
    g.push_str("=> about:feeds Feeds and followed pages\n");
    g
}

/// A URL as it may stand on a link line (a kept URL never holds spaces; one that does is
/// shown as text by the gemtext parser rather than breaking the line).
fn link_target(url: &str) -> String {
    url.replace(char::is_whitespace, "%20")
}

fn link_line(g: &mut String, l: &DiffLink) {
    let label = one_line(&l.label);
    if label.is_empty() {
        let _ = writeln!(g, "=> {}", link_target(&l.url));
    } else {
        let _ = writeln!(g, "=> {} {label}", link_target(&l.url));
    }
}

fn block_lines(g: &mut String, b: &Block) {
    let text = one_line(&b.text);
    match b.kind {
        BlockKind::Heading => {
            let _ = writeln!(g, "### {text}");
        }
        BlockKind::List => {
            let _ = writeln!(g, "* {text}");
        }
        BlockKind::Quote => {
            let _ = writeln!(g, "> {text}");
        }
        BlockKind::Text => {
            // A line that would read as a link or a fence is shown as text.
            let lead = if text.starts_with("=>") || text.starts_with("```") {
                " "
            } else {
                ""
            };
            let _ = writeln!(g, "{lead}{text}");
        }
        BlockKind::Pre => {
            g.push_str("```\n");
            for line in b.text.lines() {
                let lead = if line.starts_with("```") { " " } else { "" };
                let _ = writeln!(g, "{lead}{line}");
            }
            g.push_str("```\n");
        }
    }
}

/// The sections of a diff, with a line saying what was left out of a cut list.
fn diff_sections(g: &mut String, d: &Diff) {
    let c = &d.counts;
    let more = |g: &mut String, listed: usize, all: u64| {
        if (listed as u64) < all {
            let _ = writeln!(g, "… and {} more", all - listed as u64);
        }
    };
    if !d.links_added.is_empty() {
        g.push_str("\n## Links added\n");
        d.links_added.iter().for_each(|l| link_line(g, l));
        more(g, d.links_added.len(), c.links_added);
    }
    if !d.links_removed.is_empty() {
        g.push_str("\n## Links removed\n");
        d.links_removed.iter().for_each(|l| link_line(g, l));
        more(g, d.links_removed.len(), c.links_removed);
    }
    if !d.added.is_empty() {
        g.push_str("\n## Paragraphs added\n");
        d.added.iter().for_each(|b| block_lines(g, b));
        more(g, d.added.len(), c.added);
    }
    if !d.removed.is_empty() {
        g.push_str("\n## Paragraphs removed\n");
        d.removed.iter().for_each(|b| block_lines(g, b));
        more(g, d.removed.len(), c.removed);
    }
    if c.noise > 0 {
        let _ = writeln!(
            g,
            "\n({} changed only in dates or numbers, not shown.)",
            count(c.noise as usize, "line", "lines")
        );
    }
}

/// A diff as lines of text: `+ => URL label`, `- => URL label`, `+ paragraph`,
/// `- paragraph` (on one line each), then what was left out.
pub fn diff_lines(d: &Diff) -> Vec<String> {
    let mut out = Vec::new();
    let link = |sign: char, l: &DiffLink| {
        let label = one_line(&l.label);
        if label.is_empty() {
            format!("{sign} => {}", l.url)
        } else {
            format!("{sign} => {} {label}", l.url)
        }
    };
    out.extend(d.links_added.iter().map(|l| link('+', l)));
    out.extend(d.links_removed.iter().map(|l| link('-', l)));
    out.extend(d.added.iter().map(|b| format!("+ {}", one_line(&b.text))));
    out.extend(d.removed.iter().map(|b| format!("- {}", one_line(&b.text))));
    if d.cut() {
        let c = &d.counts;
        let listed =
            (d.links_added.len() + d.links_removed.len() + d.added.len() + d.removed.len()) as u64;
        let all = c.links_added + c.links_removed + c.added + c.removed;
        out.push(format!("… and {} more", all - listed));
    }
    out
}

/// The words of a subscription's kind: `feed`, `page (links)`, `page (text)`.
pub fn kind_words(sub: &Subscription) -> &'static str {
    match sub.changes {
        None => "feed",
        Some(smolweb_core::follow::Watch::Links) => "page, new links",
        Some(smolweb_core::follow::Watch::Text) => "page, any change",
    }
}

/// One subscription's facts on one line: kind, entries, newest, last success.
pub fn facts(sub: &Subscription, h: &Health) -> String {
    let entries = if sub.is_page() {
        count(h.entries, "change", "changes")
    } else {
        count(h.entries, "entry", "entries")
    };
    let newest = h
        .newest
        .map(|t| format!(" · newest {}", t.date()))
        .unwrap_or_default();
    let success = h.last_success.map_or_else(
        || "never read".to_string(),
        |t| format!("last success {}", readable_time(t)),
    );
    format!("{} · {entries}{newest} · {success}", kind_words(sub))
}

/// `about:feeds?health`: the sick subscriptions first, each with what is wrong, then the
/// healthy ones. `human` adds the browser's adopt links to moved ones.
pub fn health_page(subs: &[Subscription], now: time::OffsetDateTime, human: bool) -> String {
    let mut g = String::from("# Health of your subscriptions\n\n");
    if subs.is_empty() {
        g.push_str("You follow nothing yet.\n=> about:feeds Feeds\n");
        return g;
    }
    let rows: Vec<(&Subscription, Health)> = subs.iter().map(|s| (s, health(s, now))).collect();
    let sick = rows.iter().filter(|(_, h)| h.sick()).count();
    let _ = writeln!(
        g,
        "{} · {sick} need attention",
        count(subs.len(), "subscription", "subscriptions")
    );
    for (title, want_sick) in [("Needs attention", true), ("Healthy", false)] {
        let mut first = true;
        for (s, h) in rows.iter().filter(|(_, h)| h.sick() == want_sick) {
            if first {
                let _ = writeln!(g, "\n## {title}");
                first = false;
            }
            let _ = writeln!(g, "=> {} {}", link_target(&s.url), one_line(s.name()));
            let _ = writeln!(g, "* {}", facts(s, h));
            for sign in &h.signs {
                let _ = writeln!(g, "* ⚠ {}", sign.words());
            }
            if s.moved_to.is_some() && human {
                let _ = writeln!(
                    g,
                    "=> action:adopt:{} Follow it at its new address",
                    link_target(&s.url)
                );
            }
        }
    }
    g.push_str("\n=> about:feeds Feeds and followed pages\n");
    g
}

#[cfg(test)]
mod tests;
