//! Keys, clicks and named actions: what each one does to the state.

use super::{App, Effect, FetchOptions, Popup, Purpose, Search, StoreOp, View};
use crate::tui::keymap::{Action, Code, Context, Key};
use crate::tui::layout::Pos;

impl App {
    pub(super) fn on_key(&mut self, key: Key) -> Vec<Effect> {
        if self.prompt.is_some() {
            return self.prompt_key(key);
        }
        if self.confirm.is_some() {
            return self.confirm_key(key);
        }
        if self.popup.take().is_some() {
            return Vec::new();
        }
        if let Code::Char(c @ '0'..='9') = key.code
            && !key.ctrl
            && !key.alt
            && matches!(self.current().map(|e| &e.view), Some(View::Doc(_)))
        {
            return self.digit(c);
        }
        let context = match self.current().map(|e| &e.view) {
            Some(View::Identities { .. }) => Context::Identities,
            _ => Context::Global,
        };
        match self.keymap.lookup(key, context) {
            Some(action) => self.act(action),
            None => {
                if !self.digits.is_empty() {
                    self.digits.clear();
                }
                Vec::new()
            }
        }
    }

    fn digit(&mut self, c: char) -> Vec<Effect> {
        self.digits.push(c);
        self.digits_at = self.now;
        let links = self.doc_view().map_or(0, |d| d.doc.link_count());
        let n: usize = self.digits.parse().unwrap_or(0);
        if n == 0 || n > links {
            self.set_error(format!("no link {}", self.digits));
            self.digits.clear();
            return Vec::new();
        }
        self.set_status(format!("link {} (Enter to follow)", self.digits));
        if n.saturating_mul(10) > links {
            return self.follow_digits(false);
        }
        Vec::new()
    }

    pub(super) fn follow_digits(&mut self, new_tab: bool) -> Vec<Effect> {
        let n: usize = std::mem::take(&mut self.digits).parse().unwrap_or(0);
        if n == 0 {
            return Vec::new();
        }
        self.status = Default::default();
        self.follow_link(n - 1, new_tab)
    }

    fn follow_current(&mut self, new_tab: bool) -> Vec<Effect> {
        if !self.digits.is_empty() {
            return self.follow_digits(new_tab);
        }
        match self.doc_view().and_then(|d| d.selected) {
            Some(i) => self.follow_link(i, new_tab),
            None => {
                self.set_status(format!(
                    "type a link number or select one with {}",
                    self.keymap.hint(Action::NextLink)
                ));
                Vec::new()
            }
        }
    }

    /// Do a named action.
    pub fn act(&mut self, action: Action) -> Vec<Effect> {
        if action != Action::Follow && action != Action::OpenInNewTab {
            self.digits.clear();
        }
        let half = (self.page_height() / 2).max(1) as i32;
        let page = self.page_height().saturating_sub(2).max(1) as i32;
        match action {
            Action::ScrollDown => self.move_or_scroll(1),
            Action::ScrollUp => self.move_or_scroll(-1),
            Action::HalfPageDown => self.scroll(half),
            Action::HalfPageUp => self.scroll(-half),
            Action::PageDown => self.scroll(page),
            Action::PageUp => self.scroll(-page),
            Action::ScrollLeft => self.hscroll(-8),
            Action::ScrollRight => self.hscroll(8),
            Action::Top => self.jump_top(),
            Action::Bottom => self.jump_bottom(),
            Action::AddressBar => {
                self.open_prompt(Purpose::Address);
                self.update_completions();
            }
            Action::Back => return self.go_back(),
            Action::Forward => return self.go_forward(),
            Action::Reload => return self.reload(),
            Action::Up => return self.go_up(false),
            Action::Root => return self.go_up(true),
            Action::Home => {
                let home = self.settings.home.clone();
                return self.navigate(&home, FetchOptions::default(), false);
            }
            Action::NextLink => self.select_link(true),
            Action::PrevLink => self.select_link(false),
            Action::Follow => return self.follow_current(false),
            Action::OpenInNewTab => return self.follow_current(true),
            Action::NewTab => {
                let home = self.settings.home.clone();
                return self.new_tab(&home);
            }
            Action::CloseTab => return self.close_tab(),
            Action::UndoCloseTab => return self.undo_close_tab(),
            Action::NextTab => self.switch_tab(1),
            Action::PrevTab => self.switch_tab(-1),
            Action::Search => self.open_prompt(Purpose::Search),
            Action::SearchNext => self.next_match(true),
            Action::SearchPrev => self.next_match(false),
            Action::TogglePreformat => self.toggle_fold(),
            Action::PageInfo => self.popup = Some(Popup::Info(self.page_info())),
            Action::Bookmark => return self.toggle_bookmark(),
            Action::Bookmarks => {
                return self.navigate("about:bookmarks", FetchOptions::default(), false);
            }
            Action::History => {
                return self.navigate("about:history", FetchOptions::default(), false);
            }
            Action::Identities => {
                return self.navigate("about:identities", FetchOptions::default(), false);
            }
            Action::Save => return self.save(),
            Action::Help => return self.navigate("about:help", FetchOptions::default(), false),
            Action::Cancel => return self.cancel(),
            Action::Quit => {
                self.quit = true;
                return vec![Effect::Quit];
            }
            Action::IdentityCreate
            | Action::IdentityToggleAgent
            | Action::IdentityExport
            | Action::IdentityDelete
            | Action::ApprovalApprove
            | Action::ApprovalDeny => return self.identity_action(action),
        }
        Vec::new()
    }

    fn cancel(&mut self) -> Vec<Effect> {
        if self.tab().is_some_and(|t| t.loading.is_some()) {
            return self.cancel_load();
        }
        if let Some(dv) = self.doc_view_mut() {
            dv.selected = None;
            dv.search = None;
        }
        self.status = Default::default();
        Vec::new()
    }

    fn move_or_scroll(&mut self, n: i32) {
        if let Some(View::Identities { selected }) = self
            .tab_mut()
            .and_then(|t| t.current.as_mut())
            .map(|e| &mut e.view)
        {
            *selected = selected.saturating_add_signed(n as isize);
            self.clamp_identity_selection();
            return;
        }
        self.scroll(n);
    }

    fn jump_top(&mut self) {
        match self
            .tab_mut()
            .and_then(|t| t.current.as_mut())
            .map(|e| &mut e.view)
        {
            Some(View::Doc(dv)) => dv.top = Pos::default(),
            Some(View::Identities { selected }) => *selected = 0,
            None => {}
        }
    }

    fn jump_bottom(&mut self) {
        let height = self.page_height();
        let (text_w, _) = self.text_column();
        let count = self.identities.len() + self.approvals.len();
        match self
            .tab_mut()
            .and_then(|t| t.current.as_mut())
            .map(|e| &mut e.view)
        {
            Some(View::Doc(dv)) => {
                dv.doc.set_width(text_w);
                dv.top = dv.doc.max_top(height);
            }
            Some(View::Identities { selected }) => *selected = count.saturating_sub(1),
            None => {}
        }
    }

    fn hscroll(&mut self, n: isize) {
        if let Some(dv) = self.doc_view_mut() {
            dv.hscroll = dv.hscroll.saturating_add_signed(n);
        }
    }

    fn toggle_fold(&mut self) {
        let Some(dv) = self.doc_view_mut() else {
            return;
        };
        let folded = !dv.doc.folded();
        let line = dv.top.line;
        if !dv.doc.set_folded(folded) {
            self.set_status("no preformatted blocks on this page");
            return;
        }
        dv.top = Pos {
            line: line.min(dv.doc.len().saturating_sub(1)),
            row: 0,
        };
        dv.search = None;
        let what = if folded { "folded" } else { "unfolded" };
        self.set_status(format!("preformatted blocks {what}"));
    }

    /// Select the next/previous link, starting from the screen when none is selected.
    fn select_link(&mut self, forward: bool) {
        let first_line = self.frame.first().map_or(0, |r| r.pos.line);
        let last_line = self.frame.last().map_or(0, |r| r.pos.line);
        let Some(dv) = self.doc_view_mut() else {
            return;
        };
        let n = dv.doc.link_count();
        if n == 0 {
            return;
        }
        let visible = |dv: &super::DocView, i: usize| {
            dv.doc
                .link_line(i)
                .is_some_and(|l| l >= first_line && l <= last_line)
        };
        let next = match dv.selected {
            Some(i) if visible(dv, i) => {
                if forward {
                    (i + 1) % n
                } else {
                    (i + n - 1) % n
                }
            }
            _ => {
                let on_screen: Vec<usize> = (0..n).filter(|&i| visible(dv, i)).collect();
                let pick = if forward {
                    on_screen.first()
                } else {
                    on_screen.last()
                };
                match pick {
                    Some(&i) => i,
                    None => (0..n)
                        .find(|&i| dv.doc.link_line(i).is_some_and(|l| l > last_line))
                        .unwrap_or(0),
                }
            }
        };
        dv.selected = Some(next);
        if !visible(dv, next)
            && let Some(line) = dv.doc.link_line(next)
        {
            dv.top = Pos { line, row: 0 };
        }
    }

    pub(super) fn start_search(&mut self, query: &str) {
        let Some(dv) = self.doc_view_mut() else {
            return;
        };
        let matches = dv.doc.search(query);
        let found = matches.len();
        dv.search = Some(Search {
            query: query.to_string(),
            matches,
            current: None,
        });
        if found == 0 {
            self.set_error(format!("not found: {query}"));
            return;
        }
        self.next_match(true);
    }

    fn next_match(&mut self, forward: bool) {
        let Some(dv) = self.doc_view_mut() else {
            return;
        };
        let Some(s) = dv.search.as_mut() else {
            self.set_status("no search: press / first");
            return;
        };
        if s.matches.is_empty() {
            return;
        }
        let top = dv.top.line;
        let n = s.matches.len();
        let idx = match s.current {
            Some(c) if forward => (c + 1) % n,
            Some(c) => (c + n - 1) % n,
            None => s.matches.iter().position(|&l| l >= top).unwrap_or(0),
        };
        s.current = Some(idx);
        let line = s.matches[idx];
        dv.top = Pos { line, row: 0 };
        let msg = format!("match {} of {n} for '{}'", idx + 1, s.query);
        self.set_status(msg);
    }

    fn toggle_bookmark(&mut self) -> Vec<Effect> {
        let Some(e) = self.current() else {
            return Vec::new();
        };
        let (url, title) = (e.url.clone(), e.title.clone());
        if url.starts_with("about:") {
            self.set_status("built-in pages cannot be bookmarked");
            return Vec::new();
        }
        if let Some(i) = self.bookmarks.iter().position(|b| b.url == url) {
            self.bookmarks.remove(i);
            return vec![Effect::Store(StoreOp::RemoveBookmark { url })];
        }
        self.bookmarks.push(crate::store::bookmarks::Bookmark {
            url: url.clone(),
            title: title.clone(),
        });
        vec![Effect::Store(StoreOp::AddBookmark { url, title })]
    }

    fn save(&mut self) -> Vec<Effect> {
        let Some(dv) = self.doc_view() else {
            return Vec::new();
        };
        let page = dv.doc.page().clone();
        let url = self.current_url().unwrap_or_default();
        let mut name = super::nav::file_name(url);
        if !name.contains('.') {
            name.push_str(if page.mime.is_gemtext() {
                ".gmi"
            } else {
                ".txt"
            });
        }
        vec![Effect::Save { page, name }]
    }

    pub(super) fn on_click(&mut self, col: u16, row: u16) -> Vec<Effect> {
        let _ = col;
        self.popup = None;
        if row == 0 {
            if let Some(i) = super::tab_at(self, col) {
                self.active = i;
            }
            return Vec::new();
        }
        let index = usize::from(row) - 1;
        if let Some(View::Identities { selected }) = self
            .tab_mut()
            .and_then(|t| t.current.as_mut())
            .map(|e| &mut e.view)
        {
            *selected = index.saturating_sub(super::flows::IDENTITY_LIST_TOP);
            self.clamp_identity_selection();
            return Vec::new();
        }
        match self.frame.get(index).and_then(|r| r.link) {
            Some(link) => {
                if let Some(dv) = self.doc_view_mut() {
                    dv.selected = Some(link);
                }
                self.follow_link(link, false)
            }
            None => Vec::new(),
        }
    }
}
