//! The region picker: the person teaches the reader which part of a site's web pages is the
//! text. On a web page shown by the reader, the region key lists the page's candidate
//! regions ([`smolweb_client::web::page_regions`]) in a popup at the bottom of the screen,
//! and the page above shows what the one under the cursor keeps (read again from the page's
//! HTML, no new request); the region key again (or the arrows) moves to the next. Enter keeps
//! it as the site's rule (`site_rule.toml`, shared with `smolweb get` and agents' `fetch_url`),
//! the last line ("no rule") removes the rule the site has; Esc puts the page back as it was.

use super::{App, Effect, Popup, Status, StoreOp};
use crate::keymap::{Action, Code, Context, Key};
use crate::layout::{Doc, Pos};
use smolweb_core::html::{Reading, Region, RuleUse, SiteRule};
use smolweb_core::page::Page;
use std::sync::Arc;

/// The picker popup.
#[derive(Clone, Debug)]
pub struct Regions {
    /// The site the rule would be for (the page's host).
    pub site: String,
    /// The candidates, the one most like a main text first.
    pub items: Vec<Region>,
    /// The line under the cursor: an item, or `items.len()` for "no rule".
    pub selected: usize,
    /// The rule the page was read by, as the page info says it (None: no rule).
    pub current: Option<String>,
    /// The page as it was before the preview.
    original: Arc<Page>,
    /// The reading of what is previewed (None until the cursor moves).
    preview: Option<Reading>,
}

impl PartialEq for Regions {
    fn eq(&self, other: &Self) -> bool {
        (&self.site, &self.items, self.selected, &self.current)
            == (&other.site, &other.items, other.selected, &other.current)
    }
}

impl Eq for Regions {}

impl Regions {
    /// The selector under the cursor (None: the "no rule" line).
    pub fn selector(&self) -> Option<&str> {
        self.items.get(self.selected).map(|r| r.selector.as_str())
    }
}

impl App {
    /// The region key: open the picker on a web page's HTML, or say why not.
    pub(super) fn open_regions(&mut self) -> Vec<Effect> {
        let now = self.now;
        let said = |app: &mut App, text: &str| app.status = Status::info(text.to_string(), now);
        let Some(e) = self.current() else {
            return Vec::new();
        };
        let web = super::web::is_web(&e.url);
        let Some(dv) = self.doc_view().filter(|dv| web && !dv.builtin()) else {
            said(
                self,
                "only web pages have regions to pick (a site rule is for a web site)",
            );
            return Vec::new();
        };
        if dv.web_full {
            said(
                self,
                "this is the full page: v shows the main content, then pick its region",
            );
            return Vec::new();
        }
        let original = dv.doc.page().clone();
        let Ok(url) = smolweb_core::url::Url::parse(&e.url) else {
            return Vec::new();
        };
        let current = e.info.as_ref().and_then(|i| i.site_rule.clone());
        let items = smolweb_client::web::page_regions(&original);
        if items.is_empty() {
            said(
                self,
                "no part of this page holds enough text to be picked as its site's content",
            );
            return Vec::new();
        }
        let mut regions = Regions {
            site: url.host().trim_start_matches("www.").to_string(),
            items,
            selected: 0,
            current,
            original,
            preview: None,
        };
        self.preview(&mut regions);
        self.dialog.show(Popup::Regions(regions));
        Vec::new()
    }

    /// Show the page as the line under the cursor reads it.
    fn preview(&mut self, regions: &mut Regions) {
        let rule = regions.selector().map(SiteRule::content);
        let Some((page, reading)) =
            smolweb_client::web::page_under_rule(&regions.original, rule.as_ref())
        else {
            return;
        };
        regions.preview = Some(reading);
        self.replace_doc(Arc::new(page));
    }

    /// Put `page` in the current entry's view, at its top.
    fn replace_doc(&mut self, page: Arc<Page>) {
        if let Some(dv) = self.tabs.active_mut().and_then(|t| t.doc_view_mut()) {
            dv.doc = Doc::new(page);
            dv.top = Pos::default();
            dv.selected = None;
            dv.search = None;
        }
    }

    /// A key while the picker is open: move (and preview), keep, or put the page back.
    pub(super) fn regions_key(&mut self, key: Key) -> Vec<Effect> {
        let Some(Popup::Regions(mut regions)) = self.dialog.popup.clone() else {
            return Vec::new();
        };
        let lines = regions.items.len() + 1;
        let action = self.keymap.lookup(key, Context::Global);
        let moved = match (key.code, action) {
            (Code::Down, _) | (_, Some(Action::ScrollDown | Action::NextLink)) => {
                Some((regions.selected + 1).min(lines - 1))
            }
            (_, Some(Action::PickRegion)) => Some((regions.selected + 1) % lines),
            (Code::Up, _) | (_, Some(Action::ScrollUp | Action::PrevLink)) => {
                Some(regions.selected.saturating_sub(1))
            }
            (Code::Char(c @ '1'..='9'), _) if !key.ctrl && !key.alt => {
                let n = c as usize - '1' as usize;
                (n < lines).then_some(n)
            }
            (Code::Enter, _) => return self.keep_region(regions),
            _ => {
                self.dialog.close();
                self.replace_doc(regions.original.clone());
                self.status = Status::info("page put back as it was; no rule changed", self.now);
                return Vec::new();
            }
        };
        if let Some(n) = moved.filter(|n| *n != regions.selected) {
            regions.selected = n;
            self.preview(&mut regions);
        }
        self.dialog.popup = Some(Popup::Regions(regions));
        Vec::new()
    }

    /// Enter: keep the region under the cursor as the site's rule, or remove the rule.
    fn keep_region(&mut self, regions: Regions) -> Vec<Effect> {
        self.dialog.close();
        let site = regions.site.clone();
        let op = match regions.selector() {
            Some(sel) => StoreOp::SetSiteRule {
                site: site.clone(),
                content: sel.to_string(),
            },
            None if regions.current.is_some() => StoreOp::RemoveSiteRule { site: site.clone() },
            None => {
                self.status = Status::info(
                    format!("{site} has no rule: its pages are read as smolweb finds their text"),
                    self.now,
                );
                return Vec::new();
            }
        };
        // The page shown says what it is now (the next visit reads it by the rule too).
        if let Some(info) = self
            .tabs
            .active_mut()
            .and_then(|t| t.current.as_mut())
            .and_then(|e| e.info.as_mut())
        {
            info.site_rule = regions.selector().map(|sel| format!("{sel} ({site})"));
            if let Some(web) = info.web.as_mut() {
                let reading = regions.preview.or(web.reading);
                web.reading = reading.map(|r| {
                    let rule = regions.selector().map(|_| RuleUse::Applied);
                    r.with_rule(rule)
                });
            }
        }
        vec![Effect::Store(op)]
    }
}
