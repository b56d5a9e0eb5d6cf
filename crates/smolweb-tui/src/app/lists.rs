//! The lists room: what the shared stores last reported (history and bookmarks for
//! completion and the bookmark toggle, identities, pending agent approvals). The shell
//! reloads them; the app only mirrors them and updates its copy when it asks for a change.
//! [`Bookmarks`] is the room of the bookmark keys over that copy.

use super::{Ctx, Effect, Purpose};
use crate::keymap::Action;
use smolweb_store::approvals::Approval;
use smolweb_store::bookmarks::Bookmark;
use smolweb_store::identity::Identity;

/// How many address completions are offered.
const COMPLETIONS: usize = 8;

#[derive(Debug, Default)]
/// What the stores last said, mirrored for completion, the toggles and the identities screen.
pub struct Lists {
    /// (url, title), newest first.
    pub history: Vec<(String, Option<String>)>,
    /// Bookmarks, as stored.
    pub bookmarks: Vec<Bookmark>,
    pub(crate) identities: Vec<Identity>,
    pub(crate) approvals: Vec<Approval>,
    /// Agents' sessions, suggestions and shared pages, as last seen.
    pub agents: super::AgentsSeen,
    /// The work-offline mode is on (the client fetches nothing; the status line says so).
    pub work_offline: bool,
}

impl Lists {
    /// Note a visit (newest first, one entry per URL).
    pub fn visited(&mut self, url: &str, title: Option<String>) {
        self.history.retain(|(u, _)| u != url);
        self.history.insert(0, (url.to_string(), title));
    }

    /// The bookmark of a URL.
    pub fn bookmark(&self, url: &str) -> Option<&Bookmark> {
        self.bookmarks.iter().find(|b| b.url == url)
    }

    /// Add a bookmark or give it a new title.
    pub fn set_bookmark(&mut self, url: &str, title: &str) {
        match self.bookmarks.iter_mut().find(|b| b.url == url) {
            Some(b) => b.title = title.to_string(),
            None => self.bookmarks.push(Bookmark {
                url: url.to_string(),
                title: title.to_string(),
                folder: String::new(),
            }),
        }
    }

    /// Remove a bookmark; true when there was one.
    pub fn remove_bookmark(&mut self, url: &str) -> bool {
        let before = self.bookmarks.len();
        self.bookmarks.retain(|b| b.url != url);
        self.bookmarks.len() != before
    }

    /// Bookmarks then history entries whose URL or title contains `text` (any case; a
    /// typed URL's scheme and authority normalized as stored URLs are, see [`typed_prefix`]).
    pub fn completions(&self, text: &str) -> Vec<(String, String)> {
        let needle = typed_prefix(text).to_lowercase();
        let mut out: Vec<(String, String)> = Vec::new();
        let marks = self
            .bookmarks
            .iter()
            .map(|b| (b.url.as_str(), b.title.as_str()));
        let hist = self
            .history
            .iter()
            .map(|(u, t)| (u.as_str(), t.as_deref().unwrap_or_default()));
        for (url, title) in marks.chain(hist) {
            if out.len() >= COMPLETIONS {
                break;
            }
            let hit =
                url.to_lowercase().contains(&needle) || title.to_lowercase().contains(&needle);
            if hit && url != text && !out.iter().any(|(u, _)| u == url) {
                out.push((url.to_string(), title.to_string()));
            }
        }
        out
    }

    /// Rows of the identities screen: approvals first, then identities.
    pub fn identity_rows(&self) -> usize {
        self.identities.len() + self.approvals.len()
    }

    /// The identity with this fingerprint.
    pub fn identity(&self, fingerprint: &str) -> Option<&Identity> {
        self.identities
            .iter()
            .find(|i| i.fingerprint == fingerprint)
    }
}
/// Typed text as the stores keep URLs: when it starts like a URL, its scheme and authority
/// go through the one URL parser (lowercase host, the scheme's default port dropped:
/// `gemini://Host:1965/ge` is looked for as `gemini://host/ge`); the path and anything that
/// is not a URL stay as typed.
pub(crate) fn typed_prefix(text: &str) -> std::borrow::Cow<'_, str> {
    use std::borrow::Cow;
    let Some(sep) = text.find("://") else {
        return Cow::Borrowed(text);
    };
    let rest = &text[sep + 3..];
    let end = sep + 3 + rest.find(['/', '?', '#']).unwrap_or(rest.len());
    match smolweb_core::url::Url::parse(&format!("{}/", &text[..end])) {
        Ok(url) => {
            let base = url.to_string();
            Cow::Owned(format!("{}{}", base.trim_end_matches('/'), &text[end..]))
        }
        Err(_) => Cow::Borrowed(text),
    }
}

/// The bookmarks room: the bookmark key and the keys of the bookmarks page, over the
/// bookmarks the stores last said (in the lent [`Ctx`]).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Bookmarks;

impl Bookmarks {
    /// Bookmark the page (or, after asking, take its bookmark away); rename or delete the
    /// selected one.
    pub(crate) fn act(self, action: Action, ctx: &mut Ctx) -> Vec<Effect> {
        match action {
            Action::Bookmark => self.toggle(ctx),
            _ => self.edit(action, ctx),
        }
    }

    fn toggle(self, ctx: &mut Ctx) -> Vec<Effect> {
        let Some(e) = ctx.current() else {
            return Vec::new();
        };
        let (url, title) = (e.url.clone(), e.title.clone());
        if url.starts_with("about:") {
            ctx.info("built-in pages cannot be bookmarked");
            return Vec::new();
        }
        if let Some(b) = ctx.lists.bookmark(&url) {
            let name = if b.title.is_empty() { &url } else { &b.title };
            let question =
                format!("Remove the bookmark '{name}' of {url}? (y: yes, any other key keeps it)");
            return ctx.ask(question, super::dialog::Pending::DeleteBookmark(url));
        }
        ctx.prompt(Purpose::BookmarkName { url, title });
        Vec::new()
    }

    /// Rename or delete the bookmark selected on the bookmarks page.
    fn edit(self, action: Action, ctx: &mut Ctx) -> Vec<Effect> {
        let Some(url) = ctx
            .doc_view()
            .and_then(|dv| dv.doc.link_url(dv.hover.or(dv.selected)?))
            .map(str::to_string)
        else {
            let text = format!("select a bookmark first ({})", ctx.hint(Action::NextLink));
            ctx.info(text);
            return Vec::new();
        };
        let title = ctx
            .lists
            .bookmark(&url)
            .map_or_else(String::new, |b| b.title.clone());
        if action == Action::BookmarkRename {
            ctx.prompt(Purpose::BookmarkName { url, title });
            return Vec::new();
        }
        if action == Action::BookmarkFolder {
            let folder = ctx
                .lists
                .bookmark(&url)
                .map_or_else(String::new, |b| b.folder.clone());
            ctx.prompt(Purpose::BookmarkFolder { url, folder });
            return Vec::new();
        }
        let name = if title.is_empty() { &url } else { &title };
        ctx.ask(
            format!("Delete the bookmark '{name}'? (y/n)"),
            super::dialog::Pending::DeleteBookmark(url),
        )
    }
}

/// The history room: the keys of the history page (forget one visit, forget them all), over
/// the visits the stores last said.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Visits;

impl Visits {
    /// Forget the selected visit, or every visit; both ask first.
    pub(crate) fn act(self, action: Action, ctx: &mut Ctx) -> Vec<Effect> {
        if action == Action::HistoryClear {
            let n = ctx.lists.history.len();
            return ctx.ask(
                format!(
                    "Forget {}? (y: yes, any other key keeps {})",
                    match n {
                        1 => "the one visit".to_string(),
                        n => format!("all {n} visits"),
                    },
                    if n == 1 { "it" } else { "them" }
                ),
                super::dialog::Pending::ClearHistory,
            );
        }
        let Some(url) = ctx
            .doc_view()
            .and_then(|dv| dv.doc.link_url(dv.hover.or(dv.selected)?))
            .map(str::to_string)
        else {
            let text = format!("select a visit first ({})", ctx.hint(Action::NextLink));
            ctx.info(text);
            return Vec::new();
        };
        ctx.ask(
            format!("Forget the visit of {url}? (y: yes, any other key keeps it)"),
            super::dialog::Pending::DeleteVisit(url),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_typed_url_is_looked_for_as_stored() {
        for (typed, want) in [
            ("gemini://host.test:1965/ge", "gemini://host.test/ge"),
            ("gemini://HOST.test:1965", "gemini://host.test"),
            ("gemini://host.test:1966/ge", "gemini://host.test:1966/ge"),
            ("gopher://host.test:70/1/Docs", "gopher://host.test/1/Docs"),
            ("gemini://ho", "gemini://ho"),
            ("gemini://", "gemini://"),
            ("host.test:1965/ge", "host.test:1965/ge"),
            ("notes", "notes"),
        ] {
            assert_eq!(typed_prefix(typed), want, "{typed}");
        }
    }
}
