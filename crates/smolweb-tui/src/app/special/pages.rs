//! The built-in pages as gemtext: help (from the live keymap), messages, errors, the
//! changed-certificate warning, the client-certificate requests (60/61/62), and the pins page
//! (about:trust). Pure: the shell reads the stores. The bookmarks and history pages have one
//! owner, the client's `about` module; [`bookmarks_note`] is what the browser adds to the first.

use super::{PageAction, Reach, Special};
use crate::keymap::Keymap;
use smolweb_client::RequestInfo;
use smolweb_core::page::Page;
use smolweb_core::url::Url;
use smolweb_net::{CertChange, FetchError};
use smolweb_store::identity::Identity;
use smolweb_store::tofu::Pin;
use std::fmt::Write;
use std::sync::Arc;

/// A gemtext page built here.
pub fn synth(name: &str, gemtext: &str) -> Option<Arc<Page>> {
    let url = Url::parse(&format!("about:{name}")).ok()?;
    Some(Arc::new(Page::builtin(url, gemtext)))
}

/// The help page, generated from the live keymap.
pub fn help_page(keymap: &Keymap) -> Option<Arc<Page>> {
    let mut g = String::from("# Keys\n\n");
    g.push_str("Every key can be changed in the config file: [tui.keys] maps an action name to a list of keys, e.g. quit = [\"q\", \"ctrl-q\"].\n\n");
    for (keys, what) in crate::keymap::NOT_ACTIONS {
        let _ = writeln!(g, "* {keys}: {what}");
    }
    g.push('\n');
    for (title, rows) in keymap.sections() {
        let _ = writeln!(g, "## {title}\n");
        for (keys, help, name) in rows {
            let _ = writeln!(g, "* {keys}: {help} ({name})");
        }
        g.push('\n');
    }
    g.push_str("## Pages\n\n=> about:home Start page\n=> about:bookmarks Bookmarks\n=> about:history History\n=> about:identities Client identities and agent requests\n=> about:feeds Feeds you follow\n=> about:offline Pages saved for offline reading\n=> about:messages Messages the status line said\n");
    synth("help", &g)
}

/// A page that says `text` under `title`, with a way back.
pub fn message_page(title: &str, text: &str) -> Option<Arc<Page>> {
    let back = PageAction::Back.link("Go back");
    synth("error", &format!("# {title}\n\n{text}\n\n{back}"))
}

fn back_and_retry() -> String {
    PageAction::Back.link("Go back") + &PageAction::Retry.link("Try again")
}

/// The page for a capsule's failure answer (4x, 5x), with its status, meta and retry hint.
pub fn failure_page(url: &str, status: u8, meta: &str, retry: Option<u64>) -> Option<Arc<Page>> {
    let what = match status {
        40..=49 => "The capsule had a temporary problem",
        51 => "Not found",
        52 => "Gone",
        53 => "The capsule refuses to proxy this request",
        59 => "The capsule says the request was malformed",
        _ => "The capsule refused the request",
    };
    let url = smolweb_core::url::display(url);
    let mut g = format!("# {what}\n\n{url}\n\nStatus {status}: {meta}\n");
    if let Some(s) = retry {
        let _ = write!(
            g,
            "\nThe capsule asks to wait {s} seconds before trying again.\n"
        );
    }
    g.push('\n');
    g.push_str(&back_and_retry());
    synth("error", &g)
}

/// The page for a fetch that failed (network, TLS, protocol).
pub fn error_page(url: &str, error: &FetchError) -> Option<Arc<Page>> {
    let url = smolweb_core::url::display(url);
    let g = format!(
        "# Could not load the page\n\n{url}\n\n{error}\n\n{}",
        back_and_retry()
    );
    synth("error", &g)
}

/// The warning shown when a pinned certificate changed, with its choices.
pub fn cert_changed_page(change: &CertChange) -> Option<Arc<Page>> {
    let CertChange {
        host,
        port,
        pinned,
        presented,
        pinned_not_after,
        presented_not_after,
    } = change;
    let g = format!(
        "# Warning: the certificate of {host} changed\n\n\
The server at {host}:{port} presented a different certificate from the one you trusted before, and the old one has not expired. This can be an ordinary renewal, or someone between you and the capsule pretending to be it.\n\n\
## Trusted before\n\n```\n{pinned}\nvalid until {pinned_not_after}\n```\n\n\
## Presented now\n\n```\n{presented}\nvalid until {presented_not_after}\n```\n\n\
If you can, check the new fingerprint with the capsule's author before you trust it.\n\n{}{}{}",
        PageAction::Back.link("Go back (recommended)"),
        PageAction::TrustOnce.link("Trust the new certificate for this session only"),
        PageAction::TrustSave.link("Trust the new certificate and remember it"),
    );
    synth("certificate-changed", &g)
}

/// The page for 60/61/62, and its context.
pub fn client_cert_page(
    identities: &[Identity],
    url: &str,
    info: &RequestInfo,
    status: u8,
    message: &str,
) -> (Option<Arc<Page>>, Special) {
    let presented = info.tls.as_ref().and_then(|t| t.client_cert.clone());
    let shown = smolweb_core::url::display(url);
    let mut g = String::new();
    match status {
        60 => {
            let _ = write!(
                g,
                "# This page asks for a client identity\n\n{shown}\n\nThe capsule says: {message}\n\nAn identity is a certificate that lets the capsule recognise you on your next visits (like an account without a password). Pick where the new identity applies:\n\n{}{}{}",
                PageAction::NewIdentity(Reach::Capsule).link("New identity for this whole capsule"),
                PageAction::NewIdentity(Reach::Directory).link("New identity for this directory"),
                PageAction::NewIdentity(Reach::Page).link("New identity for this page only"),
            );
            if !identities.is_empty() {
                g.push_str("\n## Or use an existing identity\n\n");
                for id in identities {
                    let label = format!("{} ({})", id.name, id.scope.url());
                    g.push_str(&PageAction::UseIdentity(id.fingerprint.clone()).link(&label));
                }
            }
        }
        61 if presented.is_none() => {
            let _ = write!(
                g,
                "# The capsule says you are not allowed here\n\n{shown}\n\nNo identity was sent with this request, and the capsule answered that it is not authorised (status 61): {message}\n\nIf this was an upload, its token may be wrong or missing; otherwise the capsule may want an identity it knows.\n\n{}{}",
                PageAction::Back.link("Go back"),
                PageAction::NewIdentity(Reach::Capsule).link("New identity for this whole capsule"),
            );
        }
        61 => {
            let _ = write!(
                g,
                "# This identity is not allowed here\n\n{shown}\n\nThe capsule recognised the identity you presented but says it may not see this page: {message}\n\nYou can go back, or try another identity.\n\n{}{}",
                PageAction::Back.link("Go back"),
                PageAction::NewIdentity(Reach::Capsule).link("New identity for this whole capsule"),
            );
        }
        _ if presented.is_none() => {
            let _ = write!(
                g,
                "# The capsule asks for an identity\n\n{shown}\n\nNo identity was sent with this request, yet the capsule answered that the certificate is not valid (status 62): {message}\n\nIt probably wants one: you can make an identity for it.\n\n{}{}",
                PageAction::NewIdentity(Reach::Capsule).link("New identity for this whole capsule"),
                PageAction::Back.link("Go back"),
            );
        }
        _ => {
            let _ = write!(
                g,
                "# The capsule did not accept your identity\n\n{shown}\n\nThe capsule says the certificate you presented is not valid (it may have expired or be malformed): {message}\n\n{}{}",
                PageAction::ReplaceIdentity
                    .link("Replace it with a new identity for the same place"),
                PageAction::Back.link("Go back"),
            );
        }
    }
    let special = Special::ClientCert {
        url: url.to_string(),
        status,
        presented,
    };
    (synth("identity", &g), special)
}

/// The browser's note on its history page: how to search it and forget visits.
pub fn history_note(empty: bool) -> &'static str {
    if empty {
        "Pages you visit are listed here, newest first."
    } else {
        "Search it with /. Select a visit with Tab, then d forgets it; D forgets them all (both ask first)."
    }
}

/// The browser's note on its bookmarks page: how to add one, or how to edit them.
pub fn bookmarks_note(empty: bool) -> &'static str {
    if empty {
        "Press m on a page to bookmark it."
    } else {
        "Select a bookmark with Tab to rename or delete it (the keys are under \"On the bookmarks page\" in the help)."
    }
}

/// How often a pin's "last seen" is written (the store spares writes).
pub const LAST_SEEN_EVERY: &str = "at most once an hour";

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
        let forget = PageAction::ForgetPin {
            host: p.host.clone(),
            port: p.port,
        };
        g.push_str(&forget.link(&format!("Forget the certificate of {}:{}", p.host, p.port)));
        g.push('\n');
    }
    g
}

/// Most sessions `about:agents` lists (the most recently active).
pub const AGENT_SESSIONS_SHOWN: usize = 30;
/// Most calls listed per session (the newest); the rest are counted.
pub const AGENT_CALLS_SHOWN: usize = 40;

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
        g.push_str(&PageAction::SuggestionOpen(s.id.clone()).link("Open it"));
        g.push_str(&PageAction::SuggestionDismiss(s.id.clone()).link("Dismiss"));
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
        g.push_str(&PageAction::Unshare(p.id.clone()).link("Stop sharing it"));
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
