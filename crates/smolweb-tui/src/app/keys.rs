//! Keys, clicks and named actions: which room a key goes to (prompt, question, popup, link
//! number, keymap), the typed link number, and what each named action does.

use super::{App, Ctx, Effect, FetchOptions, Opening, Popup, Purpose, Then};
use crate::keymap::{Action, Code, Context, Key};

/// How long a typed link number waits for more digits before it is followed.
pub(super) const DIGIT_TIMEOUT_MS: u64 = 1000;

/// A link number being typed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Digits {
    pub(crate) typed: String,
    at: u64,
    /// When a number was last followed without Enter (an Enter right after is swallowed).
    followed: Option<u64>,
}

impl Digits {
    pub(crate) fn is_empty(&self) -> bool {
        self.typed.is_empty()
    }
    pub(crate) fn clear(&mut self) {
        self.typed.clear();
    }
    fn push(&mut self, c: char, now: u64) {
        self.typed.push(c);
        self.at = now;
    }
    /// The number, emptying the buffer (0 when none).
    fn take(&mut self) -> usize {
        std::mem::take(&mut self.typed).parse().unwrap_or(0)
    }
    /// Was a number just followed without Enter?
    fn just_followed(&self, now: u64) -> bool {
        self.followed
            .is_some_and(|t| now.saturating_sub(t) < DIGIT_TIMEOUT_MS)
    }

    fn expired(&self, now: u64) -> bool {
        !self.typed.is_empty() && now.saturating_sub(self.at) >= DIGIT_TIMEOUT_MS
    }

    /// A digit typed on a page: followed at once when no longer number exists.
    pub(crate) fn digit(&mut self, c: char, ctx: &mut Ctx) {
        self.push(c, ctx.now);
        let links = ctx.doc_view().map_or(0, |d| d.doc.link_count());
        let n: usize = self.typed.parse().unwrap_or(0);
        if n == 0 || n > links {
            ctx.error(format!("no link {}", self.typed));
            self.clear();
            return;
        }
        ctx.info(format!("link {} (Enter to follow)", self.typed));
        if n.saturating_mul(10) > links {
            self.followed = Some(ctx.now);
            self.follow(Opening::Here, ctx);
        }
    }

    /// The time passed: a number that waited long enough is followed.
    pub(crate) fn tick(&mut self, ctx: &mut Ctx) {
        if self.expired(ctx.now) {
            self.follow(Opening::Here, ctx);
        }
    }

    /// Follow the typed number (after this update).
    fn follow(&mut self, to: Opening, ctx: &mut Ctx) {
        let n = self.take();
        if n == 0 {
            return;
        }
        ctx.status.clear();
        ctx.then(Then::FollowLink { index: n - 1, to });
    }

    /// Enter: the typed number, else the selected link.
    pub(crate) fn enter(&mut self, to: Opening, ctx: &mut Ctx) {
        if !self.is_empty() {
            return self.follow(to, ctx);
        }
        match ctx.doc_view().and_then(|d| d.selected) {
            Some(index) => ctx.then(Then::FollowLink { index, to }),
            // The Enter of someone who typed a number that was followed at once.
            None if self.just_followed(ctx.now) => {}
            None => {
                let text = format!(
                    "type a link number or select one with {}",
                    ctx.hint(Action::NextLink)
                );
                ctx.info(text);
            }
        }
    }
}

impl App {
    pub(super) fn on_key(&mut self, key: Key) -> Vec<Effect> {
        if self.prompt.get().is_some() {
            return super::in_room!(self, |ctx| self.prompt.key(key, &mut ctx));
        }
        if self.dialog.asking() {
            let answer = self.dialog.answer(key);
            return super::in_room!(self, |ctx| super::dialog::answered(answer, &mut ctx));
        }
        if matches!(self.dialog.popup, Some(Popup::Outline(_))) {
            return super::in_room!(self, |ctx| super::outline::key(key, &mut ctx));
        }
        if matches!(self.dialog.popup, Some(Popup::Engines(_))) {
            return self.engines_key(key);
        }
        if matches!(self.dialog.popup, Some(Popup::Regions(_))) {
            return self.regions_key(key);
        }
        if self.dialog.close() {
            return Vec::new();
        }
        let on_doc = self.doc_view().is_some();
        if let Code::Char(c @ '0'..='9') = key.code
            && !key.ctrl
            && !key.alt
            && on_doc
        {
            return super::in_room!(self, |ctx| {
                self.digits.digit(c, &mut ctx);
                Vec::new()
            });
        }
        let context = if super::identities::Identities
            .selection(self.current())
            .is_some()
        {
            Context::Identities
        } else if self.current_url() == Some("about:bookmarks") {
            Context::Bookmarks
        } else if self.current_url() == Some("about:history") {
            Context::History
        } else if self.current_url() == Some(super::tour::PAGE) {
            Context::Tour
        } else {
            Context::Global
        };
        match self.keymap.lookup(key, context) {
            Some(action) => self.act(action),
            None => {
                self.digits.clear();
                Vec::new()
            }
        }
    }

    pub(super) fn on_tick(&mut self, now: u64) -> Vec<Effect> {
        self.now = now;
        self.status.expire(now);
        super::in_room!(self, |ctx| {
            self.digits.tick(&mut ctx);
            Vec::new()
        })
    }

    /// Do a named action.
    pub fn act(&mut self, action: Action) -> Vec<Effect> {
        if !matches!(
            action,
            Action::Follow | Action::OpenInNewTab | Action::OpenInBackground
        ) {
            self.digits.clear();
        }
        if action != Action::Follow {
            self.digits.followed = None;
        }
        let half = (self.screen.page_height() / 2).max(1) as i32;
        let page = self.screen.page_height().saturating_sub(2).max(1) as i32;
        let go = |app: &mut App, url: &str| {
            super::in_room!(app, |ctx| app.nav.navigate(
                &mut ctx,
                url,
                FetchOptions::default(),
                false
            ))
        };
        match action {
            Action::ScrollDown | Action::ScrollUp => {
                let n: i32 = if action == Action::ScrollDown { 1 } else { -1 };
                let pick = |s: usize| s.saturating_add_signed(n as isize);
                if !super::identities::Identities.select(&mut super::lend!(self), pick) {
                    self.screen.scroll(&mut self.tabs, n);
                }
            }
            Action::HalfPageDown => self.screen.scroll(&mut self.tabs, half),
            Action::HalfPageUp => self.screen.scroll(&mut self.tabs, -half),
            Action::PageDown => self.screen.scroll(&mut self.tabs, page),
            Action::PageUp => self.screen.scroll(&mut self.tabs, -page),
            Action::ScrollLeft => self.screen.hscroll(&mut self.tabs, -8),
            Action::ScrollRight => self.screen.hscroll(&mut self.tabs, 8),
            Action::Top | Action::Bottom => {
                let bottom = action == Action::Bottom;
                let pick = |_| if bottom { usize::MAX } else { 0 };
                if !super::identities::Identities.select(&mut super::lend!(self), pick) {
                    self.screen.jump(&mut self.tabs, bottom);
                }
            }
            Action::AddressBar => {
                self.digits.clear();
                self.prompt.open(Purpose::Address, &mut super::lend!(self));
            }
            Action::SearchEngine => return self.open_engines(),
            Action::PickRegion => return self.open_regions(),
            Action::SearchRead => {
                self.digits.clear();
                self.prompt
                    .open(Purpose::SearchRead, &mut super::lend!(self));
            }
            Action::Back => return super::in_room!(self, |ctx| self.nav.go_back(&mut ctx)),
            Action::Forward => return super::in_room!(self, |ctx| self.nav.go_forward(&mut ctx)),
            Action::Reload => return super::in_room!(self, |ctx| self.nav.reload(&mut ctx)),
            Action::Up => return super::in_room!(self, |ctx| self.nav.go_up(&mut ctx, false)),
            Action::Root => return super::in_room!(self, |ctx| self.nav.go_up(&mut ctx, true)),
            Action::Home => {
                let home = self.settings.home.clone();
                return go(self, &home);
            }
            Action::NextLink => self.screen.select_link(&mut super::lend!(self), true),
            Action::PrevLink => self.screen.select_link(&mut super::lend!(self), false),
            Action::Follow | Action::OpenInNewTab | Action::OpenInBackground => {
                let to = match action {
                    Action::OpenInNewTab => Opening::NewTab,
                    Action::OpenInBackground => Opening::Background,
                    _ => Opening::Here,
                };
                return super::in_room!(self, |ctx| {
                    self.digits.enter(to, &mut ctx);
                    Vec::new()
                });
            }
            Action::Outline => return super::in_room!(self, |ctx| super::outline::open(&mut ctx)),
            Action::NewTab => {
                let home = self.settings.home.clone();
                return super::in_room!(self, |ctx| self.nav.new_tab(&mut ctx, &home));
            }
            Action::CloseTab => return super::in_room!(self, |ctx| self.nav.close_tab(&mut ctx)),
            Action::UndoCloseTab => {
                return super::in_room!(self, |ctx| self.nav.undo_close_tab(&mut ctx));
            }
            Action::NextTab => self.tabs.switch(1),
            Action::PrevTab => self.tabs.switch(-1),
            Action::Search => {
                self.digits.clear();
                self.prompt.open(Purpose::Search, &mut super::lend!(self));
            }
            Action::SearchNext => self.screen.search(&mut super::lend!(self), None, true),
            Action::SearchPrev => self.screen.search(&mut super::lend!(self), None, false),
            Action::TogglePreformat => self.screen.toggle_fold(&mut super::lend!(self)),
            Action::PageInfo => {
                let info = super::dialog::page_info(&super::lend!(self));
                self.dialog.show(Popup::Info(info));
            }
            Action::ViewSource => super::lend!(self).view_source(),
            Action::HistoryDelete | Action::HistoryClear => {
                return super::in_room!(self, |ctx| super::lists::Visits.act(action, &mut ctx));
            }
            Action::Bookmark
            | Action::BookmarkRename
            | Action::BookmarkDelete
            | Action::BookmarkFolder => {
                return super::in_room!(self, |ctx| super::lists::Bookmarks.act(action, &mut ctx));
            }
            Action::Bookmarks => return go(self, "about:bookmarks"),
            Action::History => return go(self, "about:history"),
            Action::Messages => return go(self, "about:messages"),
            Action::Identities => return go(self, "about:identities"),
            Action::Trust => return go(self, "about:trust"),
            Action::Save => return super::download::Downloads.save_shown(&super::lend!(self)),
            Action::InlineImages => {
                let ctx = &mut super::lend!(self);
                if !ctx.settings.pictures {
                    ctx.info("pictures are off ([tui] images, SMOLWEB_IMAGES)");
                    return Vec::new();
                }
                self.settings.inline_images = !self.settings.inline_images;
                let said = match self.settings.inline_images {
                    true => "inline pictures on",
                    false => "inline pictures off",
                };
                super::lend!(self).info(said);
                return Vec::new();
            }
            // On a picture page `o` opens the image with its program, as the download
            // question's `o` does (there is no page to keep offline).
            Action::SaveOffline if self.doc_view().is_some_and(|d| d.picture.is_some()) => {
                return super::download::Downloads.open_shown(&mut super::lend!(self));
            }
            Action::CopyUrl => return super::lend!(self).copy_url(),
            Action::Help => return go(self, "about:help"),
            Action::Cancel => return self.cancel(),
            Action::Quit => {
                self.quit = true;
                return vec![Effect::Quit];
            }
            Action::IdentityCreate
            | Action::IdentityImport
            | Action::IdentityToggleAgent
            | Action::IdentityExport
            | Action::IdentityDelete
            | Action::ApprovalApprove
            | Action::ApprovalDeny => {
                return super::in_room!(self, |ctx| super::identities::Identities
                    .act(action, &mut ctx));
            }
            Action::ReaderFull | Action::OpenInBrowser => {
                return super::in_room!(self, |ctx| super::web::Reader.act(action, &mut ctx));
            }
            Action::Subscribe
            | Action::RefreshFeeds
            | Action::SaveOffline
            | Action::OfflineCopy
            | Action::MarkAllRead => {
                return super::in_room!(self, |ctx| self.feeds.act(action, &mut ctx));
            }
            Action::Feeds => return go(self, "about:feeds"),
            Action::OfflinePages => return go(self, "about:offline"),
            Action::WorkOffline => {
                return super::in_room!(self, |ctx| super::feeds::toggle_work_offline(&mut ctx));
            }
            Action::Agents => return go(self, "about:agents"),
            Action::Share => return super::in_room!(self, |ctx| super::agents::share(&mut ctx)),
            Action::Upload => {
                return super::in_room!(self, |ctx| self.upload.begin_here(&mut ctx));
            }
            Action::TourAdd => return super::in_room!(self, |ctx| super::tour::add(&mut ctx)),
            Action::TourNext => return super::tour::next(),
            Action::Tour => return go(self, super::tour::PAGE),
            Action::TourRemove | Action::TourClear => {
                return super::in_room!(self, |ctx| super::tour::edit(action, &mut ctx));
            }
            Action::EditInput => {
                let text = format!(
                    "{} opens an editor at a capsule's input prompt",
                    self.keymap.hint(Action::EditInput)
                );
                super::lend!(self).info(text);
            }
        }
        Vec::new()
    }

    fn cancel(&mut self) -> Vec<Effect> {
        if self.tab().is_some_and(|t| t.loading.is_some()) {
            return super::in_room!(self, |ctx| self.nav.cancel_load(&mut ctx));
        }
        if let Some(dv) = self.tabs.active_mut().and_then(super::Tab::doc_view_mut) {
            dv.selected = None;
            dv.search = None;
        }
        self.status.clear();
        Vec::new()
    }

    pub(super) fn on_click(&mut self, col: u16, row: u16) -> Vec<Effect> {
        self.dialog.close();
        if row == 0 {
            if let Some(i) = super::tab_at(self, col) {
                self.tabs.select(i);
            }
            return Vec::new();
        }
        let index = usize::from(row) - 1;
        let top = super::identities::IDENTITY_LIST_TOP;
        if super::identities::Identities
            .select(&mut super::lend!(self), |_| index.saturating_sub(top))
        {
            return Vec::new();
        }
        match self.screen.link_at(row) {
            Some(link) => {
                if let Some(dv) = self.tabs.active_mut().and_then(super::Tab::doc_view_mut) {
                    dv.selected = Some(link);
                }
                super::in_room!(self, |ctx| self.nav.follow_link(
                    &mut ctx,
                    link,
                    Opening::Here
                ))
            }
            None => Vec::new(),
        }
    }
}
