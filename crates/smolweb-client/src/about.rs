//! Built-in `about:` pages, rendered as gemtext from the shared stores. They never touch the
//! network and are never cached (they change as the stores change).
//!
//! `about:home` (the bundled start page), `about:bookmarks`, `about:history`, `about:tour`,
//! `about:identities` (identities and pending approvals), `about:feeds` and `about:offline`
//! (built by [`super::about_feeds`]), `about:feeds?health` and `about:changes?page=URL[&at=ID]`
//! (built by [`super::about_follow`]) and `about:help` (a pointer; the TUI renders its own key
//! list). Capsule-provided text shown here (titles) is kept on one line.
//!
//! This router is the one owner of the built-in pages made from the stores, for every face:
//! what differs per face is the [`Notes`] it is asked with. For [`Notes::Browser`] it adds
//! the browser's notes on its keys to about:bookmarks, about:history and about:tour, and
//! answers the browser's own about:trust and about:agents (built by
//! [`super::about_browser`]); for [`Notes::Plain`], what `Client::open` answers every face
//! (`smolweb get`, the agent), those two are unknown pages.

pub use super::about_browser::Notes;
use super::about_browser::{agents_page, bookmarks_note, history_note, pins_page, tour_note};
use super::{Client, about_feeds, about_follow};
use smolweb_core::text::one_line;
use smolweb_net::{CertStoreError, FetchError, RequestError};
use smolweb_store::StoreError;
use smolweb_store::bookmarks::Bookmark;
use smolweb_store::history::Visit;
use smolweb_store::identity::CreatedBy;

const HOME: &str = include_str!("../../../assets/home.gmi");

const HELP: &str = "# smolweb help\n\n\
Run `smolweb --help` in a shell for the command line, and press ? in the browser for every key.\n\n\
=> about:home Start page\n=> about:bookmarks Bookmarks\n=> about:history History\n\
=> about:identities Client identities and pending approvals\n\
=> about:feeds Feeds you follow\n=> about:offline Pages saved for offline reading\n\
=> about:tour The tour: links to read next\n\
=> about:search Search what you and your agents read\n";

/// The start page; the browser's also carries the work-offline switch (an `action:` link,
/// which acts only on built-in pages), saying which mode is on.
fn home(client: &Client) -> String {
    let mut g = HOME.to_string();
    if client.face() == super::Face::Human {
        g.push_str("\n## Working offline\n\n");
        if client.working_offline() {
            g.push_str("You are working offline: nothing is fetched, every page comes from the offline cache, and a page that is not kept can be queued for the next `smolweb sync`.\n\n=> action:work-offline Work online again\n");
        } else {
            g.push_str("=> action:work-offline Work offline: fetch nothing, read only the pages kept offline\n");
        }
    }
    g
}

/// The gemtext of a built-in page as `notes` asks for it, or an error for an unknown name.
pub(super) fn page_text(
    client: &Client,
    name: &str,
    query: Option<&str>,
    notes: Notes,
) -> Result<String, FetchError> {
    let store = FetchError::store;
    let browser = notes == Notes::Browser;
    match name {
        "home" | "" => Ok(home(client)),
        "help" => Ok(HELP.to_string()),
        "bookmarks" => client.bookmarks().list().map_err(store).map(|b| {
            let note = browser.then(|| bookmarks_note(b.is_empty()));
            bookmarks_page(&b, note)
        }),
        "history" => client.history().list().map_err(store).map(|v| {
            let note = browser.then(|| history_note(v.is_empty()));
            history_page(&v, note)
        }),
        // The identities and approvals are the certificate store: its failure is the code
        // an agent already knows from a refused handshake.
        "identities" => identities(client).map_err(|e| FetchError::from(CertStoreError::from(e))),
        "feeds" if query == Some("health") => {
            client.subscriptions().shared().map_err(store).map(|s| {
                about_follow::health_page(&s, client.now(), client.face() == super::Face::Human)
            })
        }
        "changes" => changes(client, query).map_err(store),
        "feeds" => {
            client.subscriptions().shared().map_err(store).map(|s| {
                about_feeds::feeds_page_view(&s, about_feeds::FeedsView::from_query(query))
            })
        }
        "offline" => offline(client).map_err(store),
        "tour" => client.tour().map_err(store).map(|t| {
            let note = browser.then(|| tour_note(t.is_empty()));
            tour_page(&t, note)
        }),
        "search" => Ok(super::search::search_page(client, query)),
        "trust" if browser => client.pinned_hosts().map_err(store).map(|p| pins_page(&p)),
        "agents" if browser => agents(client).map_err(store),
        other => Err(RequestError::UnknownPage(other.to_string()).into()),
    }
}

use smolweb_core::text::rfc3339 as date;

/// `about:tour`: the links to read next, the next first, each labelled by its label (its URL
/// when it has none); under an agent's link, which agent added it and why. `note`, when
/// given, is a paragraph under the heading: how the face adds and goes through them.
pub fn tour_page(stops: &[smolweb_store::tour::Stop], note: Option<&str>) -> String {
    let mut g = String::from("# Tour\n\n");
    if let Some(note) = note {
        g.push_str(note);
        g.push_str("\n\n");
    }
    match stops.len() {
        0 => g.push_str("The tour is empty.\n"),
        1 => g.push_str("One link to read next.\n\n"),
        n => g.push_str(&format!("{n} links to read next, the next first.\n\n")),
    }
    for stop in stops {
        let label = stop.label.as_deref().map(|l| one_line(l, None));
        let label = label.as_deref().filter(|l| !l.trim().is_empty());
        g.push_str(&format!("=> {} {}\n", stop.url, label.unwrap_or(&stop.url)));
        if let Some(agent) = &stop.agent {
            g.push_str(&format!(
                "* added by the agent {} ({}): {}\n",
                one_line(&agent.client, None),
                smolweb_core::text::readable_time(stop.at),
                one_line(&agent.reason, None)
            ));
        }
    }
    g
}

/// Most visits listed on `about:history` (the newest first, as the store lists them).
pub(crate) const HISTORY_PAGE_VISITS: usize = 500;

/// `about:bookmarks`: a link per bookmark, labelled by its title (its URL when it has none).
/// `note`, when given, is a paragraph under the heading: how the face adds and edits them.
pub fn bookmarks_page(list: &[Bookmark], note: Option<&str>) -> String {
    let mut g = String::from("# Bookmarks\n\n");
    if let Some(note) = note {
        g.push_str(note);
        g.push_str("\n\n");
    }
    if list.is_empty() {
        g.push_str("No bookmarks yet.\n");
    }
    for folder in smolweb_store::bookmarks::folders(list) {
        if !folder.is_empty() {
            g.push_str(&format!("\n## {}\n", one_line(folder, None)));
        }
        for b in list.iter().filter(|b| b.folder == folder) {
            let title = one_line(&b.title, None);
            let label = if title.trim().is_empty() {
                b.url.as_str()
            } else {
                &title
            };
            g.push_str(&format!("=> {} {label}\n", b.url));
        }
    }
    g
}

/// `about:history`: the last [`HISTORY_PAGE_VISITS`] visits under a heading per day, each
/// with its time of day (UTC) and its title (its URL when it has none). `note`, when given,
/// is a paragraph under the heading: how the face searches and forgets visits.
pub fn history_page(visits: &[Visit], note: Option<&str>) -> String {
    let mut g = String::from("# History\n\n");
    if let Some(note) = note {
        g.push_str(note);
        g.push('\n');
    }
    if visits.is_empty() {
        g.push_str("\nNothing visited yet.\n");
    }
    let mut day = None;
    for v in visits.iter().take(HISTORY_PAGE_VISITS) {
        let at = v.at.to_offset(time::UtcOffset::UTC);
        if day != Some(at.date()) {
            day = Some(at.date());
            g.push_str(&format!("\n## {}\n", at.date()));
        }
        let title = v.title.as_deref().map(|t| one_line(t, None));
        let label = match &title {
            Some(t) if !t.trim().is_empty() => t,
            _ => v.url.as_str(),
        };
        g.push_str(&format!(
            "=> {} {:02}:{:02} {label}\n",
            v.url,
            at.hour(),
            at.minute()
        ));
    }
    if !visits.is_empty() {
        g.push_str("\nTimes are UTC.\n");
    }
    g
}

/// `about:agents` from the activity log, the suggestions and the shared pages.
fn agents(client: &Client) -> Result<String, StoreError> {
    // Incremental: the browser's store thread has parsed the log already; only new lines
    // are read.
    let entries = client.activity_snapshot()?;
    let sessions = smolweb_store::activity::sessions(&entries);
    let suggestions = client.pending_suggestions()?;
    let shared = client.shared_pages()?;
    Ok(agents_page(&sessions, &suggestions, &shared, client.now()))
}

/// `about:changes?page=URL[&at=ID]`: one change of a followed page, or all it keeps.
fn changes(client: &Client, query: Option<&str>) -> Result<String, StoreError> {
    let Some((page, at)) = query.and_then(super::follow::change_of_query) else {
        return Ok(about_follow::change_gone_page("", false));
    };
    let sub = client.subscriptions().get(&page).ok().flatten();
    let copy = client.follows().get(&page)?;
    Ok(match (copy, at) {
        (Some(copy), None) => about_follow::changes_list_page(sub.as_ref(), &copy),
        (Some(copy), Some(id)) => match copy.change(id) {
            Some(c) => about_follow::change_page(sub.as_ref(), &copy, c),
            None => about_follow::change_gone_page(&page, true),
        },
        (None, _) => about_follow::change_gone_page(&page, sub.is_some()),
    })
}

fn offline(client: &Client) -> Result<String, StoreError> {
    let store = client.offline();
    let saved = store.saved()?;
    let total = store.total_bytes()?;
    let mut page = about_feeds::offline_page(&saved, total, client.config().offline.max_bytes);
    let queue = smolweb_store::sync_queue::SyncQueue::new(client.paths().sync_queue());
    page.push_str(&super::sync::queue_section(&queue.list()?));
    Ok(page)
}

fn identities(client: &Client) -> Result<String, StoreError> {
    let now = client.now();
    let mut out = String::from("# Client identities\n\n");
    let scan = client.identities().scan()?;
    for bad in &scan.unreadable {
        out.push_str(&format!(
            "> {} could not be read and is left as it is: {}\n\n",
            one_line(&bad.path.display().to_string(), None),
            one_line(&bad.reason, None)
        ));
    }
    let ids = scan.identities;
    if ids.is_empty() {
        out.push_str("No identities.\n");
    }
    for id in ids {
        let by = match id.created_by {
            CreatedBy::Human => "you",
            CreatedBy::Agent => "an agent (approved by you)",
        };
        let status = if id.expired(now) { " (expired)" } else { "" };
        out.push_str(&format!("## {}{}\n", one_line(&id.name, None), status));
        out.push_str(&format!("=> {} Scope\n", id.scope.url()));
        out.push_str(&format!("* fingerprint: {}\n", id.fingerprint));
        out.push_str(&format!("* expires: {}\n", date(id.not_after)));
        out.push_str(&format!("* created by: {by}\n"));
        let agent = if id.agent_use { "yes" } else { "no" };
        out.push_str(&format!("* agents may use it: {agent}\n\n"));
    }
    out.push_str("# Pending approvals\n\n");
    let pending = client.approvals().pending(now)?;
    if pending.is_empty() {
        out.push_str("None.\n");
    }
    for a in pending {
        out.push_str(&format!(
            "* {}: {} (asked by {}, expires {})\n",
            a.id,
            one_line(&a.request.describe(), None),
            one_line(&a.client, None),
            date(a.expires_at)
        ));
    }
    if out.ends_with("None.\n") {
        return Ok(out);
    }
    out.push_str("\nApprove with `smolweb identity approve ID` or `smolweb trust approve ID`.\n");
    Ok(out)
}
