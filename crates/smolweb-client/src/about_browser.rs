//! The built-in pages only the browser gets, and the notes it adds to the others: `about:trust`
//! (every pinned certificate, [`pins_page`]) and `about:agents` (what agents did, suggest and
//! were shown, [`agents_page`]) offer their choices as `action:` links, which only the browser
//! acts on (on a built-in page), so [`super::about`]'s router answers them for
//! [`Notes::Browser`] alone; every other face gets the unknown-page error it always got. The
//! browser's notes on about:bookmarks, about:history and about:tour say how its keys add, edit
//! and go through them. Pure functions of store rows: the router reads the stores.
//!
//! The `action:` URLs written here are the browser's `PageAction`s (it parses them; its tests
//! follow each link these pages offer).

use smolweb_store::tofu::Pin;
use std::fmt::Write;

/// Which face a built-in page is made for, and so what it says beyond the stores.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Notes {
    /// The page as `Client::open` answers it to every face (`smolweb get`, the agent's
    /// tools): no notes on keys, and no about:trust or about:agents.
    #[default]
    Plain,
    /// The browser's: its notes on the keys of about:bookmarks, about:history and
    /// about:tour, and its pages about:trust and about:agents, whose `action:` links it acts
    /// on.
    Browser,
}

/// A gemtext link line to the browser's `action:` URL `what`.
fn action(what: &str, label: &str) -> String {
    format!("=> action:{what} {label}\n")
}

/// The browser's note on its history page: how to search it and forget visits.
pub(crate) fn history_note(empty: bool) -> &'static str {
    if empty {
        "Pages you visit are listed here, newest first."
    } else {
        "Search it with /. Select a visit with Tab, then d forgets it; D forgets them all (both ask first)."
    }
}

/// The browser's note on its bookmarks page: how to add one, or how to edit them.
pub(crate) fn bookmarks_note(empty: bool) -> &'static str {
    if empty {
        "Press m on a page to bookmark it."
    } else {
        "Select a bookmark with Tab to rename or delete it (the keys are under \"On the bookmarks page\" in the help)."
    }
}

/// The browser's note on its tour page: how links go on it, and how to go through them.
pub(crate) fn tour_note(empty: bool) -> &'static str {
    if empty {
        "Links to read next, yours and agents'. On a page, + puts the selected link on the tour, or the links you name by number (3, 1-5, * for all; Enter alone: the page itself). > goes to the next one, taking it off."
    } else {
        "Press > to go to the next link (it is taken off the tour). Select a link with Tab: Enter opens it, d takes it off, D takes them all off (asks first). On a page, + puts links on the tour."
    }
}

/// How often a pin's "last seen" is written (the store spares writes).
const LAST_SEEN_EVERY: &str = "at most once an hour";

fn day(t: time::OffsetDateTime) -> String {
    t.date().to_string()
}

/// about:trust: every pinned certificate, and a link to forget each.
pub fn pins_page(pins: &[Pin]) -> String {
    let mut g = String::from("# Trusted certificates\n\n");
    g.push_str("The first certificate a capsule presents is pinned (trust on first use); a different one later gets a warning. The same list as `smolweb trust list`.\n\n");
    if pins.is_empty() {
        g.push_str("No certificates are pinned yet.\n");
        return g;
    }
    let _ = writeln!(
        g,
        "\"Last seen\" is updated {LAST_SEEN_EVERY}, so it may lag behind your last visit.\n"
    );
    for p in pins {
        let expiry = p.not_after.map_or_else(|| "unknown".to_string(), day);
        let _ = write!(
            g,
            "## {}:{}\n\n```\n{}\n```\n* first seen {}, last seen {}\n* valid until {}\n",
            p.host,
            p.port,
            p.fingerprint,
            day(p.first_seen),
            day(p.last_seen),
            expiry,
        );
        g.push_str(&action(
            &format!("forget-pin:{}:{}", p.host, p.port),
            &format!("Forget the certificate of {}:{}", p.host, p.port),
        ));
        g.push('\n');
    }
    g
}

/// Most sessions `about:agents` lists (the most recently active).
const AGENT_SESSIONS_SHOWN: usize = 30;
/// Most calls listed per session (the newest); the rest are counted.
const AGENT_CALLS_SHOWN: usize = 40;

/// about:agents: the pages agents suggest (open or dismiss each), the pages shared with
/// agents (stop sharing each), and the sessions, most recently active first, each with its
/// newest calls and consent steps. Every URL is a link. Names, notes and URLs come cleaned
/// from the store and are kept on one line here again.
pub fn agents_page(
    sessions: &[smolweb_store::activity::Session],
    suggestions: &[smolweb_store::suggestions::Suggestion],
    shared: &[smolweb_store::shared::SharedPage],
    now: time::OffsetDateTime,
) -> String {
    use smolweb_core::text::{one_line, readable_time};
    use smolweb_store::activity::Event;
    let line = |s: &str| one_line(s, None).into_owned();
    let mut g = String::from("# Agents\n\n");
    g.push_str("What agents (smolweb --mcp on this data directory) did, the pages they suggest you look at, and the pages you shared with them. The share key (P by default) shares the page in front of you, or the selected link; `smolweb agents log --follow` prints the activity in a terminal.\n\n");
    g.push_str("## Suggested by agents\n\n");
    if suggestions.is_empty() {
        g.push_str("None waiting. An agent's show_to_user call puts one here; nothing opens by itself.\n\n");
    }
    for s in suggestions {
        let _ = writeln!(
            g,
            "### {} suggests ({})",
            line(&s.client),
            readable_time(s.at)
        );
        let _ = writeln!(g, "=> {} {}", s.url, s.url);
        if let Some(n) = &s.note {
            let _ = writeln!(g, "> {}", line(n));
        }
        g.push_str(&action(&format!("suggestion-open:{}", s.id), "Open it"));
        g.push_str(&action(&format!("suggestion-dismiss:{}", s.id), "Dismiss"));
        g.push('\n');
    }
    g.push_str("## Shared with agents\n\n");
    if shared.is_empty() {
        g.push_str("Nothing shared. Agents read what you share as resources (smolweb://shared/ID) or with shared_pages_list.\n\n");
    }
    for p in shared {
        let title = p.title.as_deref().map_or_else(|| p.url.clone(), line);
        let _ = writeln!(g, "=> {} {title} (shared {})", p.url, readable_time(p.at));
        if let Some(n) = &p.note {
            let _ = writeln!(g, "> {}", line(n));
        }
        g.push_str(&action(&format!("unshare:{}", p.id), "Stop sharing it"));
        g.push('\n');
    }
    g.push_str("## Sessions\n\n");
    if sessions.is_empty() {
        g.push_str("No agent has used smolweb yet (or [agents] activity_log is off).\n");
    }
    for s in sessions.iter().take(AGENT_SESSIONS_SHOWN) {
        let state = if s.active(now) {
            "active".to_string()
        } else if let Some(end) = s.ended {
            format!("ended {}", readable_time(end))
        } else {
            format!("last seen {}", readable_time(s.last))
        };
        let _ = writeln!(g, "### {} · {state} · session {}", line(&s.label()), s.id);
        let started = s
            .started
            .map_or_else(|| "before the log's oldest entry".into(), readable_time);
        let _ = writeln!(
            g,
            "started {started} · {} calls and consent steps",
            s.events.len()
        );
        let hidden = s.events.len().saturating_sub(AGENT_CALLS_SHOWN);
        for e in s.events.iter().rev().take(AGENT_CALLS_SHOWN) {
            let when = e.at.time();
            let at = format!(
                "{:02}:{:02}:{:02}",
                when.hour(),
                when.minute(),
                when.second()
            );
            match &e.event {
                Event::Call {
                    tool,
                    url,
                    outcome,
                    error,
                    cached,
                    ..
                } => {
                    let mark = if *error { "error " } else { "" };
                    let cached = if *cached == Some(true) {
                        ", cached"
                    } else {
                        ""
                    };
                    let what = format!("{at} {} → {mark}{}{cached}", line(tool), line(outcome));
                    match url.as_deref().filter(|u| !u.is_empty()) {
                        Some(u) => {
                            let _ = writeln!(g, "=> {u} {what} {u}");
                        }
                        None => {
                            let _ = writeln!(g, "* {what}");
                        }
                    }
                }
                Event::Consent {
                    tool,
                    step,
                    what,
                    by,
                    ..
                } => {
                    let _ = writeln!(
                        g,
                        "* {at} {}: consent {}: {}",
                        line(tool),
                        step.said(*by),
                        line(what)
                    );
                }
                Event::Start { .. } | Event::End => {}
            }
        }
        if hidden > 0 {
            let _ = writeln!(
                g,
                "* … and {hidden} earlier (smolweb agents log --session {})",
                s.id
            );
        }
        g.push('\n');
    }
    if sessions.len() > AGENT_SESSIONS_SHOWN {
        let _ = writeln!(
            g,
            "{} older sessions are not shown (smolweb agents log lists them all).",
            sessions.len() - AGENT_SESSIONS_SHOWN
        );
    }
    g
}
