//! The tabs room: every open tab with its history (back, current, forward), the active tab,
//! recently closed tabs (with the place they were closed at) and tab ids.
//!
//! Back and forward move entries between the stacks and never fetch: entries keep their page
//! and scroll position.

use super::Special;
use super::search::Search;
use crate::layout::{Doc, Pos};
use smolweb_client::RequestInfo;

/// How many closed tabs can be reopened.
const CLOSED_KEPT: usize = 20;

/// What a history entry shows.
#[derive(Debug)]
pub enum View {
    /// A page.
    Doc(Box<DocView>),
    /// The identities screen, with its cursor.
    Identities {
        /// The row under the cursor (approvals, then identities).
        selected: usize,
    },
    /// A step of a restored session, not fetched yet: fetched (once) when it is shown, and
    /// put where the reader was.
    Unloaded {
        /// Where the reader was.
        top: Pos,
        /// Its fetch was sent.
        asked: bool,
    },
}

/// A page on screen with its scroll state.
#[derive(Debug)]
pub struct DocView {
    /// The laid-out document.
    pub doc: Doc,
    /// The first row on screen.
    pub top: Pos,
    /// Columns scrolled sideways (text that does not wrap).
    pub hscroll: usize,
    /// The selected link.
    pub selected: Option<usize>,
    /// The link under the mouse pointer.
    pub(crate) hover: Option<usize>,
    /// The search on this page.
    pub search: Option<Search>,
    pub(crate) special: Special,
    /// A web page converted whole (the reader's main/full toggle), not just its main content.
    pub(crate) web_full: bool,
    /// A picture page: the image answer itself (the doc is its header; the view paints the
    /// picture under it; save and open act on this).
    pub(crate) picture: Option<std::sync::Arc<smolweb_core::page::Page>>,
}

impl DocView {
    /// A view of `doc` at its top.
    pub fn new(doc: Doc, special: Special) -> DocView {
        DocView {
            doc,
            top: Pos::default(),
            hscroll: 0,
            selected: None,
            hover: None,
            search: None,
            special,
            web_full: false,
            picture: None,
        }
    }

    /// Is this a page the browser made itself (the only pages whose `action:` links act)?
    pub fn builtin(&self) -> bool {
        self.doc.page().url.scheme() == smolweb_core::url::Scheme::About
    }
}

/// One step of a tab's history.
#[derive(Debug)]
pub struct Entry {
    /// What a reload fetches (never a sensitive answer).
    pub url: String,
    /// The tab's title for this entry.
    pub title: String,
    /// What it shows.
    pub view: View,
    pub(crate) info: Option<RequestInfo>,
}

/// A load in progress.
#[derive(Clone, Debug)]
pub struct Loading {
    pub(crate) id: u64,
    pub(crate) url: String,
    pub(crate) bytes: u64,
    /// When it started (ms).
    pub started: u64,
    /// An upload of this many bytes (None: a fetch).
    pub(crate) upload: Option<u64>,
}

#[derive(Debug, Default)]
/// A tab: its history and its load in progress.
pub struct Tab {
    pub(crate) id: u64,
    /// Entries before the current one.
    pub back: Vec<Entry>,
    pub(crate) current: Option<Entry>,
    /// Entries after the current one (after going back).
    pub forward: Vec<Entry>,
    /// The load in progress.
    pub loading: Option<Loading>,
}

impl Tab {
    /// The title of the current entry (or of the load).
    pub fn title(&self) -> String {
        match (&self.current, &self.loading) {
            (Some(e), _) => e.title.clone(),
            (None, Some(l)) => l.url.clone(),
            (None, None) => "new tab".into(),
        }
    }

    /// The page view of the current entry.
    pub fn doc_view(&self) -> Option<&DocView> {
        match self.current.as_ref().map(|e| &e.view) {
            Some(View::Doc(d)) => Some(d),
            _ => None,
        }
    }

    /// The page view of the current entry, to change.
    pub fn doc_view_mut(&mut self) -> Option<&mut DocView> {
        match self.current.as_mut().map(|e| &mut e.view) {
            Some(View::Doc(d)) => Some(d),
            _ => None,
        }
    }

    /// Show an entry: a new step of history, or in place of the current one.
    pub fn show(&mut self, entry: Entry, replace: bool) {
        if let Some(old) = self.current.take()
            && !replace
        {
            self.back.push(old);
            self.forward.clear();
        }
        self.current = Some(entry);
    }

    /// Move one entry back or forward; false when there is none.
    pub fn step(&mut self, back: bool) -> bool {
        let (from, to) = if back {
            (&mut self.back, &mut self.forward)
        } else {
            (&mut self.forward, &mut self.back)
        };
        match from.pop() {
            Some(entry) => {
                if let Some(cur) = self.current.replace(entry) {
                    to.push(cur);
                }
                true
            }
            None => false,
        }
    }

    /// The most recent gemini:// URL of the tab, newest first.
    pub fn last_url_with(&self, prefix: &str) -> Option<&str> {
        self.current
            .iter()
            .chain(self.back.iter().rev())
            .map(|e| e.url.as_str())
            .find(|u| u.starts_with(prefix))
    }
}

/// All tabs.
#[derive(Debug, Default)]
pub struct Tabs {
    list: Vec<Tab>,
    /// The index of the active tab.
    pub active: usize,
    /// Closed tabs with the position each had.
    closed: Vec<(usize, Tab)>,
    next_id: u64,
}

impl Tabs {
    /// How many tabs.
    pub fn len(&self) -> usize {
        self.list.len()
    }
    /// No tabs.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }
    /// The tabs, in order.
    pub fn iter(&self) -> std::slice::Iter<'_, Tab> {
        self.list.iter()
    }
    /// The tab at an index.
    pub fn get(&self, i: usize) -> Option<&Tab> {
        self.list.get(i)
    }
    /// The active tab.
    pub fn active(&self) -> Option<&Tab> {
        self.list.get(self.active)
    }
    /// The active tab, to change.
    pub fn active_mut(&mut self) -> Option<&mut Tab> {
        self.list.get_mut(self.active)
    }
    /// The tab with this id.
    pub fn by_id(&self, id: u64) -> Option<&Tab> {
        self.list.iter().find(|t| t.id == id)
    }
    /// The tab with this id, to change.
    pub fn by_id_mut(&mut self, id: u64) -> Option<&mut Tab> {
        self.list.iter_mut().find(|t| t.id == id)
    }
    /// The tabs, to change.
    pub fn iter_mut(&mut self) -> std::slice::IterMut<'_, Tab> {
        self.list.iter_mut()
    }

    /// Open an empty tab at the end and make it active; returns its id.
    pub fn open(&mut self) -> u64 {
        self.next_id += 1;
        self.list.push(Tab {
            id: self.next_id,
            ..Tab::default()
        });
        self.active = self.list.len() - 1;
        self.next_id
    }

    /// Close the active tab (never the last one); it can be reopened.
    pub fn close_active(&mut self) -> bool {
        if self.list.len() <= 1 {
            return false;
        }
        let at = self.active;
        let tab = self.list.remove(at);
        self.active = self.active.min(self.list.len() - 1);
        self.closed.push((at, tab));
        if self.closed.len() > CLOSED_KEPT {
            self.closed.remove(0);
        }
        true
    }

    /// Reopen the last closed tab where it was; returns whether it is empty.
    pub fn reopen(&mut self) -> Option<bool> {
        let (at, tab) = self.closed.pop()?;
        let empty = tab.current.is_none();
        let at = at.min(self.list.len());
        self.list.insert(at, tab);
        self.active = at;
        Some(empty)
    }

    /// Move to another tab (wrapping).
    pub fn switch(&mut self, delta: isize) {
        let n = self.list.len() as isize;
        if n > 0 {
            self.active = (self.active as isize + delta).rem_euclid(n) as usize;
        }
    }

    /// Make the tab at an index active.
    pub fn select(&mut self, i: usize) {
        if i < self.list.len() {
            self.active = i;
        }
    }
}
