//! What a room may touch besides its own state: the [`Ctx`] the app lends a room for one
//! update (the status line, the tabs, the question popup, the lists from the stores, the keymap
//! and the settings), and
//! the follow-ups ([`Then`]) a room asks of the app when the work belongs to another room
//! (navigating, making a page from the stores again, going back).
//!
//! A room never holds a `Ctx`: the app builds one from its own fields for each call, so the
//! borrow ends with the update and each room's state stays its own.

use super::dialog::Pending;
use super::{DocView, Entry, FetchOptions, Special, Status, Tabs, View};
use crate::keymap::{Action, Keymap};
use crate::layout::{Doc, Pos};
use smolweb_client::RequestInfo;
use smolweb_core::page::Page;
use std::sync::Arc;

/// Where a followed link opens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Opening {
    /// In the active tab.
    Here,
    /// In a new tab, which becomes active.
    NewTab,
    /// In a new tab behind the active one, which stays where it is.
    Background,
}

/// Work a room leaves to the app (routed after the room's update, in order).
#[derive(Debug)]
pub(crate) enum Then {
    /// Go to a URL in the active tab.
    Go {
        url: String,
        opts: FetchOptions,
        replace: bool,
    },
    /// Send a request (cancelling its tab's previous load).
    Fetch(super::loads::Request),
    /// Send a redirect the user agreed to.
    FollowRedirect(super::loads::Request),
    /// Open the prompt for this purpose.
    Prompt(super::Purpose),
    /// Search the page.
    Search(String),
    /// Follow link `index` (zero-based) of the current page.
    FollowLink { index: usize, to: Opening },
    /// Save a page for offline reading (the feeds room).
    SaveOffline { url: String, with_links: bool },
    /// `about:feeds` was opened (a refresh may be due).
    FeedsOpened { url: String, replace: bool },
    /// Follow this feed (the choice page's link).
    Subscribe(String),
    /// Stop following this feed (the user said yes).
    Unsubscribe(String),
    /// Take this page off the reading list (the user said yes).
    Unsave(String),
    /// Show the offline copy offered for the current URL.
    ReadOfflineCopy,
    /// A store changed: a built-in page made from the stores is made again when shown.
    RemakeStorePage,
    /// One entry back in the active tab, keeping the status line.
    BackKeepingStatus,
    /// A step of the upload flow (the upload room).
    Upload(super::upload::Step),
    /// Send a confirmed upload in a tab (the navigation room: its answer is shown there).
    SendUpload {
        tab: u64,
        upload: Box<smolweb_client::smallnet::Upload>,
    },
    /// Show an image answer as a picture (the pictures room).
    ShowPicture {
        tab: u64,
        url: String,
        page: Arc<Page>,
        info: Option<Box<RequestInfo>>,
        replace: bool,
    },
}

/// What the app lends a room for one update.
pub(crate) struct Ctx<'a> {
    pub(crate) tabs: &'a mut Tabs,
    pub(crate) status: &'a mut Status,
    /// The messages said so far (`about:messages`).
    pub(crate) log: &'a super::status::Log,
    pub(crate) dialog: &'a mut super::Dialog,
    /// What the stores last said (for completion, toggles and the identities screen).
    pub(crate) lists: &'a mut super::Lists,
    pub(crate) keymap: &'a Keymap,
    pub(crate) settings: &'a super::Settings,
    /// Milliseconds since start (for the status line's age).
    pub(crate) now: u64,
    /// Follow-ups for the app.
    pub(crate) then: Vec<Then>,
}

impl Ctx<'_> {
    /// A message on the status line.
    pub(crate) fn info(&mut self, text: impl Into<String>) {
        *self.status = Status::info(text, self.now);
    }

    /// An error on the status line.
    pub(crate) fn error(&mut self, text: impl Into<String>) {
        *self.status = Status::error(text, self.now);
    }

    /// The first key of an action, for hints.
    pub(crate) fn hint(&self, action: Action) -> String {
        self.keymap.hint(action)
    }

    /// Ask a yes/no question (a message under it would read as part of it: it is cleared).
    /// Nothing for the shell until it is answered.
    pub(crate) fn ask(&mut self, question: String, pending: Pending) -> Vec<super::Effect> {
        self.status.clear();
        self.dialog.ask(question, pending);
        Vec::new()
    }

    /// Open the prompt for `purpose` (after this update).
    pub(crate) fn prompt(&mut self, purpose: super::Purpose) {
        self.then(Then::Prompt(purpose));
    }

    /// Copy text to the clipboard (OSC 52), when the config allows it.
    pub(crate) fn copy(&mut self, text: String) -> Vec<super::Effect> {
        if !self.settings.copy {
            self.error("copying is off ([tui] osc52_copy = false)");
            return Vec::new();
        }
        self.info(format!("copied {text}"));
        vec![super::Effect::Copy { text }]
    }

    /// Copy the link's URL (under the pointer, else selected), or else the page's.
    pub(crate) fn copy_url(&mut self) -> Vec<super::Effect> {
        let link = self
            .doc_view()
            .and_then(|dv| dv.doc.link_url(dv.hover.or(dv.selected)?));
        match link.or(self.current_url()).map(str::to_string) {
            Some(text) => self.copy(text),
            None => Vec::new(),
        }
    }

    /// View source: the current page's bytes as received, decoded as text and shown as plain
    /// text (the view's sanitizer applies), as a new history entry; `b` goes back to the page.
    pub(crate) fn view_source(&mut self) {
        let Some(dv) = self.doc_view() else {
            self.info("nothing to show the source of here".to_string());
            return;
        };
        let page = dv.doc.page();
        if page.raw.is_empty() {
            self.info("this page has no source: it was made by smolweb".to_string());
            return;
        }
        if page.charset.is_none() {
            self.info(format!(
                "no text source: the page is {} ({})",
                page.mime.essence(),
                smolweb_core::text::human_bytes(page.raw.len() as u64)
            ));
            return;
        }
        let mut mime = smolweb_core::page::mime_of("text/plain");
        mime.charset = page.charset.map(|c| c.name().to_ascii_lowercase());
        let source = Page::from_gemini(page.url.clone(), mime, page.raw.clone());
        let (url, title) = (
            page.url.to_string(),
            self.current().map(|e| e.title.clone()),
        );
        let info = self.current().and_then(|e| e.info.clone());
        let tab = self.tab_id();
        self.show_doc(
            tab,
            &url,
            Some(Arc::new(source)),
            Special::None,
            info,
            false,
        );
        if let Some(e) = self.tabs.by_id_mut(tab).and_then(|t| t.current.as_mut()) {
            e.title = format!("source: {}", title.unwrap_or_else(|| url.clone()));
        }
        self.info("the page's source, as received (b goes back)".to_string());
    }

    /// Leave work to the app.
    pub(crate) fn then(&mut self, then: Then) {
        self.then.push(then);
    }

    /// The id of the active tab (0 when none).
    pub(crate) fn tab_id(&self) -> u64 {
        self.tabs.active().map_or(0, |t| t.id)
    }

    /// The active tab's current entry.
    pub(crate) fn current(&self) -> Option<&Entry> {
        self.tabs.active().and_then(|t| t.current.as_ref())
    }

    /// The URL of the active tab's current entry.
    pub(crate) fn current_url(&self) -> Option<&str> {
        self.current().map(|e| e.url.as_str())
    }

    /// The page view of the active tab.
    pub(crate) fn doc_view(&self) -> Option<&DocView> {
        self.tabs.active().and_then(super::Tab::doc_view)
    }

    /// Show a page in a tab as a new history entry (or in place of the current one; a
    /// reload of the same URL keeps the reader's place).
    pub(crate) fn show_doc(
        &mut self,
        tab: u64,
        url: &str,
        page: Option<Arc<Page>>,
        special: Special,
        info: Option<RequestInfo>,
        replace: bool,
    ) {
        let Some(page) = page else {
            self.error(format!("cannot display {url}"));
            return;
        };
        let title = page
            .title()
            .map(str::to_string)
            .unwrap_or_else(|| super::nav::short_url(url));
        let mut view = DocView::new(Doc::new(page), special);
        if replace
            && let Some(Entry {
                view: old,
                url: old_url,
                ..
            }) = self.tabs.by_id(tab).and_then(|t| t.current.as_ref())
            && *old_url == url
        {
            match old {
                View::Doc(old) => view.top = same_place(&old.doc, old.top, &view.doc),
                // A restored step: where the reader was (the screen keeps it in the page).
                View::Unloaded { top, .. } => view.top = *top,
                View::Identities { .. } => {}
            }
        }
        let entry = Entry {
            url: url.to_string(),
            title,
            view: View::Doc(Box::new(view)),
            info,
        };
        if let Some(t) = self.tabs.by_id_mut(tab) {
            t.show(entry, replace);
        }
    }
}

/// Where the reader was in `old`, found again in `new` (the same URL made again: a reload, or
/// the web reader's article / full page switch): the same line when it still says the same,
/// else the line of `new` that says what the first line with words at the top of `old` said
/// (the nearest such line to where it was), else the same line number.
fn same_place(old: &Doc, top: Pos, new: &Doc) -> Pos {
    /// How far below the top a line with words is looked for.
    const LOOK: usize = 8;
    let Some(k) =
        (top.line..old.len().min(top.line + LOOK)).find(|&k| !old.text(k).trim().is_empty())
    else {
        return top;
    };
    let said = old.text(k);
    if new.text(k) == said {
        return top;
    }
    let back = k - top.line;
    (0..new.len())
        .filter(|&i| new.text(i) == said)
        .min_by_key(|&i| i.abs_diff(k))
        .map_or(top, |i| Pos {
            line: i.saturating_sub(back),
            row: 0,
        })
}
