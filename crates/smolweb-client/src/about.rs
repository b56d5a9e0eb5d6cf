//! Built-in `about:` pages, rendered as gemtext from the shared stores. They never touch the
//! network and are never cached (they change as the stores change).
//!
//! `about:home` (the bundled start page), `about:bookmarks`, `about:history`,
//! `about:identities` (identities and pending approvals), `about:feeds` and `about:offline`
//! (built by [`super::about_feeds`]) and `about:help` (a pointer; the TUI renders its own key
//! list). Capsule-provided text shown here (titles) is kept on one line.

use super::{Client, about_feeds};
use smolweb_net::FetchError;
use smolweb_store::StoreError;
use smolweb_store::identity::CreatedBy;
use time::format_description::well_known::Rfc3339;

const HOME: &str = include_str!("../../../assets/home.gmi");

const HELP: &str = "# smolweb help\n\n\
Run `smolweb --help` in a shell for the command line, and press ? in the browser for every key.\n\n\
=> about:home Start page\n=> about:bookmarks Bookmarks\n=> about:history History\n\
=> about:identities Client identities and pending approvals\n\
=> about:feeds Feeds you follow\n=> about:offline Pages saved for offline reading\n";

/// The gemtext of a built-in page, or an error for an unknown name.
pub(super) fn page_text(client: &Client, name: &str) -> Result<String, FetchError> {
    let store = |e: StoreError| FetchError::Internal(e.to_string());
    match name {
        "home" | "" => Ok(HOME.to_string()),
        "help" => Ok(HELP.to_string()),
        "bookmarks" => {
            let text = client.bookmarks().to_gemtext().map_err(store)?;
            if text.trim().is_empty() {
                Ok("# Bookmarks\n\nNo bookmarks yet.\n".to_string())
            } else {
                Ok(text)
            }
        }
        "history" => history(client).map_err(store),
        "identities" => identities(client).map_err(store),
        "feeds" => client
            .subscriptions()
            .list()
            .map_err(store)
            .map(|s| about_feeds::feeds_page(&s)),
        "offline" => offline(client).map_err(store),
        other => Err(FetchError::InvalidRequest(format!(
            "unknown built-in page about:{other}"
        ))),
    }
}

/// Untrusted text on one line. A line of the page's gemtext, through the one sanitizer (line breaks become
/// spaces, so a title cannot start a line of its own; controls and bidi overrides are marked).
fn one_line(s: &str) -> String {
    smolweb_core::text::sanitize_line(s).into_owned()
}

fn date(t: time::OffsetDateTime) -> String {
    t.format(&Rfc3339).unwrap_or_else(|_| t.to_string())
}

fn history(client: &Client) -> Result<String, StoreError> {
    let mut out = String::from("# History\n\n");
    let visits = client.history().list()?;
    if visits.is_empty() {
        out.push_str("Nothing visited yet.\n");
    }
    for v in visits {
        let title = v
            .title
            .as_deref()
            .map(one_line)
            .unwrap_or_else(|| v.url.clone());
        out.push_str(&format!("=> {} {} ({})\n", v.url, title, date(v.at)));
    }
    Ok(out)
}

fn offline(client: &Client) -> Result<String, StoreError> {
    let store = client.offline();
    let saved = store.saved()?;
    let total = store.total_bytes()?;
    Ok(about_feeds::offline_page(
        &saved,
        total,
        client.config().offline.max_bytes,
    ))
}

fn identities(client: &Client) -> Result<String, StoreError> {
    let now = client.now();
    let mut out = String::from("# Client identities\n\n");
    let scan = client.identities().scan()?;
    for bad in &scan.unreadable {
        out.push_str(&format!(
            "> {} could not be read and is left as it is: {}\n\n",
            one_line(&bad.path.display().to_string()),
            one_line(&bad.reason)
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
        out.push_str(&format!("## {}{}\n", one_line(&id.name), status));
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
            one_line(&a.request.describe()),
            one_line(&a.client),
            date(a.expires_at)
        ));
    }
    if out.ends_with("None.\n") {
        return Ok(out);
    }
    out.push_str("\nApprove with `smolweb identity approve ID` or `smolweb trust approve ID`.\n");
    Ok(out)
}
