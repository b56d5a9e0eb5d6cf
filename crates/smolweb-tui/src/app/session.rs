//! Sessions that come back (`[tui] restore_session`): the tabs turned into what the store's
//! `session.toml` keeps (each tab's history as URLs, and the place on each page), and the
//! tabs made again from it at the next start.
//!
//! Invariants: a page fetched under a client identity, or with a query (it may be an answer
//! typed at a prompt), is never handed to the store unless `[tui] restore_private_pages`
//! asks for it; a Titan upload's answer never is. A restored step is fetched only when it is
//! shown (the active tab at start, another when it becomes active or history steps onto
//! it), once, and put back where the reader was.

use super::{App, Entry, FetchOptions, Tab, View, in_room};
use crate::layout::Pos;
use smolweb_store::session::{SavedEntry, SavedSession, SavedTab};

/// May this step be kept for the next start?
fn keep(e: &Entry, private: bool) -> bool {
    let url = e.url.as_str();
    let scheme = url.split_once(':').map_or("", |(s, _)| s);
    if scheme.eq_ignore_ascii_case("titan") {
        return false;
    }
    if private {
        return true;
    }
    let identity = e
        .info
        .as_ref()
        .and_then(|i| i.tls.as_ref())
        .is_some_and(|t| t.client_cert.is_some());
    let query = !scheme.eq_ignore_ascii_case("about") && url.contains('?');
    !identity && !query
}

/// Where the reader was on a step.
fn place(e: &Entry) -> Pos {
    match &e.view {
        View::Doc(dv) => dv.top,
        View::Unloaded { top, .. } => *top,
        View::Identities { .. } => Pos::default(),
    }
}

/// A tab as the store keeps it (None: nothing of it may be kept).
fn saved_tab(t: &Tab, private: bool) -> Option<SavedTab> {
    let current = t.current.as_ref()?;
    // History order: back (oldest first), the page shown, forward (the next one is last).
    let steps = t
        .back
        .iter()
        .map(|e| (e, false))
        .chain(std::iter::once((current, true)))
        .chain(t.forward.iter().rev().map(|e| (e, false)));
    let mut entries = Vec::new();
    let mut at = None;
    for (e, shown) in steps {
        if keep(e, private) {
            let top = place(e);
            entries.push(SavedEntry {
                url: e.url.clone(),
                line: top.line,
                row: top.row,
            });
            if shown {
                at = Some(entries.len() - 1);
            }
        } else if shown {
            // The page shown is left out: the step before it is shown next time.
            at = Some(entries.len().saturating_sub(1));
        }
    }
    (!entries.is_empty()).then(|| SavedTab {
        current: at.unwrap_or(0).min(entries.len() - 1),
        entries,
    })
}

/// A step not fetched yet.
fn unloaded(s: &SavedEntry) -> Entry {
    Entry {
        url: s.url.clone(),
        title: super::nav::short_url(&s.url),
        view: View::Unloaded {
            top: Pos {
                line: s.line,
                row: s.row,
            },
            asked: false,
        },
        info: None,
    }
}

impl App {
    /// The tabs as the next start should find them (`private`: keep pages fetched under an
    /// identity or with a query too).
    pub fn saved_session(&self, private: bool) -> SavedSession {
        let mut active = 0;
        let mut tabs = Vec::new();
        for (i, t) in self.tabs.iter().enumerate() {
            if let Some(s) = saved_tab(t, private) {
                if i <= self.tabs.active {
                    active = tabs.len();
                }
                tabs.push(s);
            }
        }
        SavedSession { active, tabs }
    }

    /// Open the tabs of a saved session (then `url`, when given, in a new tab that is
    /// active); the active tab's page is fetched, the others when they are shown. Returns
    /// the effects to run.
    pub fn restore(&mut self, saved: SavedSession, url: Option<String>) -> Vec<super::Effect> {
        let saved = saved.bounded();
        if saved.tabs.is_empty() {
            return self.start(url);
        }
        for s in &saved.tabs {
            self.tabs.open();
            let Some(t) = self.tabs.active_mut() else {
                continue;
            };
            let current = s.current.min(s.entries.len().saturating_sub(1));
            t.back = s.entries[..current].iter().map(unloaded).collect();
            t.current = s.entries.get(current).map(unloaded);
            t.forward = s.entries[(current + 1).min(s.entries.len())..]
                .iter()
                .rev()
                .map(unloaded)
                .collect();
        }
        self.tabs.select(saved.active);
        let mut fx = vec![super::Effect::Store(super::StoreOp::LoadLists)];
        if let Some(url) = url {
            fx.extend(in_room!(self, |ctx| self.nav.new_tab(&mut ctx, &url)));
        }
        fx.extend(self.wake());
        self.screen.refresh(&mut self.tabs);
        fx
    }

    /// The active tab shows a restored step not fetched yet: fetch it (once), in its place.
    pub(super) fn wake(&mut self) -> Vec<super::Effect> {
        let Some(t) = self.tabs.active_mut().filter(|t| t.loading.is_none()) else {
            return Vec::new();
        };
        let Some(e) = t.current.as_mut() else {
            return Vec::new();
        };
        let View::Unloaded { asked, .. } = &mut e.view else {
            return Vec::new();
        };
        if *asked {
            return Vec::new();
        }
        *asked = true;
        let url = e.url.clone();
        in_room!(self, |ctx| self.nav.navigate(
            &mut ctx,
            &url,
            FetchOptions::default(),
            true
        ))
    }
}
