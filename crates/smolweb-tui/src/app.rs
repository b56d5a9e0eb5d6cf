//! The browser's state and its one entry point, [`App::update`]: a message in (a key, a
//! click, a fetch result, a tick), effects out (fetch, cancel, store changes, open
//! externally). No terminal and no IO here, so tests drive it with key sequences and fake
//! fetch results.
//!
//! The state lives in rooms that own it, each a type with its own update: `nav::Nav`
//! (requests in flight, the session's trust and identity choices, and every flow that moves
//! a tab: going somewhere, the answers, redirects, history steps, tabs opened and closed, the
//! built-in pages' [`PageAction`]s), `prompt::PromptBar` (the open [`Prompt`]), [`Dialog`]
//! (popup and question, and what an answer does), [`Feeds`] (subscriptions, the offline
//! reading list, a feed refresh, an offered copy), [`Screen`] (size, text column, the laid-out
//! frame and what moves the reader's place: scrolling, folding, link selection, [`Search`]
//! matches), `keys::Digits` (a typed link number), [`Pictures`] (decoded pictures by URL, for
//! picture pages and inline pictures), and the stateless rooms over shared state:
//! `identities::Identities`, `lists::Bookmarks`, `download::Downloads` and the web reader
//! `web::Reader`; `upload::Uploads` prepares a Titan upload (dialog, editor or file, size
//! and MIME confirmation, masked token) and leaves the sending to `nav::Nav`; `outline` is
//! the headings popup and the section the reader is in; `engines` is the list of search
//! engines words typed in the address bar go to (picked for the session); `regions` is the region picker (the site rule the person teaches the reader); `session` turns the tabs into what
//! the store keeps for the next start and makes them again from it; `tour` is the tour keys
//! (links to read next, shared with agents) over the page shown and `about:tour`.
//! [`Tabs`], [`Status`] and [`Lists`] are shared: a room reaches them through the `Ctx` the
//! app lends it for one update, and leaves work for another room to the app as `Then`
//! follow-ups (carried out in order after its own effects). `messages` holds what
//! goes between the app and its shell. `App` itself is the routing: it sends each message and
//! key to its room, and the view reads it through accessors.
//!
//! Invariants: every fetch carries a request id; a result whose id is no longer pending (the
//! user cancelled, navigated elsewhere or closed the tab) is dropped. After each update the
//! active tab's visible rows are laid out into the [`Screen`]'s frame, which the view paints
//! as is.

mod agents;
mod ctx;
mod dialog;
mod download;
mod engines;
mod feeds;
mod identities;
mod keys;
mod lists;
mod loads;
mod messages;
mod nav;
mod outline;
mod pictures;
mod prompt;
mod regions;
mod screen;
mod search;
mod session;
mod special;
mod status;
mod tabs;
mod tour;
mod upload;
mod web;

use crate::keymap::{Keymap, KeymapError as KeyError};
use crate::layout::{Kind, Pos};
use crate::theme::{Theme, ThemeError};
use smolweb_client::config::Tui;

pub use agents::AgentsSeen;
pub(crate) use ctx::{Ctx, Opening, Then};
pub use dialog::{Dialog, Popup};
pub(crate) use download::handler_for;
pub use engines::Engines;
pub(crate) use feeds::{CHOOSE_FEED, FEEDS_HEALTH};
pub use feeds::{FeedError, FeedMsg, FeedOp, Feeds, Offer, RefreshSummary};
pub(crate) use keys::Digits;
pub use lists::Lists;
pub use messages::{Effect, FetchOptions, Msg, ShellError, StoreOp};
pub use outline::{Heading, Outline};
pub use pictures::{Pictures, Slot};
pub use prompt::{Prompt, Purpose};
pub use regions::Regions;
pub use screen::Screen;
pub use search::Search;
pub use special::{PageAction, Reach, Special, pages};
pub use status::{Log, Status};
pub use tabs::{DocView, Entry, Loading, Tab, Tabs, View};
pub use upload::UPLOAD_MAX;

/// Settings the app reads from the config.
#[derive(Clone, Debug)]
pub struct Settings {
    pub(crate) text_width: u16,
    pub(crate) home: String,
    pub(crate) identity_days: u32,
    /// Copying to the clipboard (OSC 52) is allowed.
    pub(crate) copy: bool,
    /// Programs that open downloads, by MIME type or major type.
    pub(crate) handlers: std::collections::BTreeMap<String, String>,
    /// `[web] open_external`: http(s) links go to the external browser, not the reader view.
    pub web_external: bool,
    /// The terminal shows pictures (`[tui] images` is not off): image answers are shown, not
    /// offered as downloads.
    pub pictures: bool,
    /// What pictures are drawn with (sizes inline pictures).
    pub graphics: Option<crate::picture::Graphics>,
    /// Image links of gemtext pages are shown as pictures under their line.
    pub inline_images: bool,
    /// The program that opens files of a type no handler names (xdg-open, when the shell
    /// found it installed); None: nothing to offer.
    pub system_opener: Option<String>,
    /// The search engine words typed in the address bar go to (`[search] engine`).
    pub search_engine: Option<String>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            text_width: 80,
            home: "about:home".into(),
            identity_days: 365,
            copy: true,
            handlers: Default::default(),
            web_external: false,
            pictures: false,
            graphics: None,
            inline_images: false,
            system_opener: Some("xdg-open".into()),
            search_engine: None,
        }
    }
}

/// One laid-out screen row of the active page.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FrameRow {
    /// Where the row is in the document (line, wrapped row).
    pub pos: Pos,
    pub(crate) kind: Kind,
    pub(crate) prefix: String,
    pub(crate) tag: &'static str,
    /// The text drawn.
    pub text: String,
    /// The link (index) on this row.
    pub link: Option<usize>,
    pub(crate) external: bool,
    /// A row of an inline picture: (link index, row of the picture).
    pub(crate) picture: Option<(usize, u16)>,
    /// Search matches on this row: byte ranges of `text`, and whether it is the current one.
    pub marks: Vec<Mark>,
}

/// A highlighted piece of a row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mark {
    /// Start byte in the row's text.
    pub start: usize,
    /// End byte (exclusive).
    pub end: usize,
    /// The search's current match.
    pub current: bool,
}

/// Settings, keymap or theme from the config that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum SetupError {
    #[error(transparent)]
    /// A `[tui.keys]` entry.
    Keys(#[from] KeyError),
    #[error(transparent)]
    /// A `[tui.theme]` entry.
    Theme(#[from] ThemeError),
}

/// The context the app lends a room: its fields other than the room's own (disjoint
/// borrows, so the room's state can be borrowed beside it).
macro_rules! lend {
    ($app:ident) => {
        $crate::app::Ctx {
            tabs: &mut $app.tabs,
            status: &mut $app.status,
            log: &$app.log,
            dialog: &mut $app.dialog,
            lists: &mut $app.lists,
            keymap: &$app.keymap,
            settings: &$app.settings,
            now: $app.now,
            then: Vec::new(),
        }
    };
}
pub(crate) use lend;

/// Run a room's update with the context lent (`|ctx| body`, the body a `Vec<Effect>`), then
/// route the follow-ups it left to the app: its effects come first, then theirs.
macro_rules! in_room {
    ($app:ident, |$ctx:ident| $body:expr) => {{
        let mut $ctx = $crate::app::lend!($app);
        let mut fx: Vec<$crate::app::Effect> = $body;
        let then = $ctx.then;
        fx.extend($app.follow(then));
        fx
    }};
}
pub(crate) use in_room;

/// Built-in pages made from the shared stores: made again (in place, keeping the reader's
/// place) when a store changes while one is shown, and when history returns to one.
const STORE_PAGES: [&str; 8] = [
    "about:home",
    "about:agents",
    "about:feeds",
    "about:offline",
    "about:bookmarks",
    "about:history",
    "about:trust",
    tour::PAGE,
];

/// A page made from the stores (a view of one, `about:feeds?by=feed`, too), or from the
/// browser's state (the start page says whether it works offline).
pub(crate) fn is_store_page(url: &str) -> bool {
    let page = url.split_once('?').map_or(url, |(p, _)| p);
    STORE_PAGES.contains(&page)
}

/// The URL of `link` when it points at a picture (by its name).
fn picture_link(doc: &crate::layout::Doc, link: usize) -> Option<&str> {
    doc.link_url(link)
        .filter(|u| crate::picture::looks_like_picture(u))
}

/// The whole browser state, by room.
#[derive(Debug)]
pub struct App {
    settings: Settings,
    keymap: Keymap,
    theme: Theme,
    /// `[tui] theme`, kept to make the theme again when the terminal says its background is
    /// light or dark (base `auto`); None: the theme given stays.
    theme_config: Option<smolweb_client::config::ThemeConfig>,
    /// The tabs and their history (the navigation room works on them through the Ctx).
    tabs: Tabs,
    /// Requests in flight and every flow that moves a tab.
    nav: nav::Nav,
    prompt: prompt::PromptBar,
    /// The popup and the question.
    dialog: Dialog,
    status: Status,
    /// Every message the status line said, for `about:messages`.
    log: status::Log,
    /// A link number being typed.
    digits: Digits,
    /// What the stores last said.
    lists: Lists,
    /// Subscriptions, the reading list, a feed refresh and an offered offline copy.
    feeds: Feeds,
    /// A Titan upload being prepared.
    upload: upload::Uploads,
    /// Decoded pictures, by URL.
    pictures: Pictures,
    /// The search engines the engine key offers.
    engines: Vec<smolweb_client::search::Choice>,
    /// The terminal's size and the active page's laid-out rows.
    screen: Screen,
    /// Milliseconds since start (the last tick).
    now: u64,
    quit: bool,
}

impl App {
    /// An app with these settings, keys and colours, and no tab yet ([`App::start`] opens one).
    pub fn new(settings: Settings, keymap: Keymap, theme: Theme) -> App {
        App {
            screen: Screen::new(settings.text_width),
            settings,
            keymap,
            theme,
            theme_config: None,
            tabs: Tabs::default(),
            nav: nav::Nav::default(),
            prompt: prompt::PromptBar::default(),
            dialog: Dialog::default(),
            status: Status::default(),
            log: status::Log::default(),
            digits: Digits::default(),
            lists: Lists::default(),
            feeds: Feeds::default(),
            upload: upload::Uploads::default(),
            pictures: Pictures::default(),
            engines: Vec::new(),
            now: 0,
            quit: false,
        }
    }

    /// Settings, keymap and theme from the `[tui]` config table.
    pub fn from_config(tui: &Tui, identity_days: u32) -> Result<App, SetupError> {
        let settings = Settings {
            text_width: tui.text_width.max(20),
            home: tui.home.clone(),
            identity_days,
            copy: tui.osc52_copy,
            handlers: tui.handlers.clone(),
            web_external: false,
            pictures: false,
            graphics: None,
            inline_images: tui.inline_images,
            system_opener: Some("xdg-open".into()),
            search_engine: None,
        };
        let mut app = App::new(
            settings,
            Keymap::from_config(&tui.keys)?,
            Theme::from_config(&tui.theme, false)?,
        );
        app.theme_config = Some(tui.theme.clone());
        Ok(app)
    }

    /// Does the theme follow the terminal's background (`[tui] theme` base `auto`)?
    pub fn follows_background(&self) -> bool {
        self.theme_config
            .as_ref()
            .and_then(|c| Theme::base(c).ok())
            .is_some_and(|b| b == crate::theme::Base::Auto)
    }

    /// The terminal says its background is light (or dark): with the base `auto`, the theme
    /// is made again for it.
    pub fn set_light_background(&mut self, light: bool) {
        if !self.follows_background() {
            return;
        }
        if let Some(theme) = self
            .theme_config
            .as_ref()
            .and_then(|c| Theme::from_config(c, light).ok())
        {
            self.theme = theme;
        }
    }

    /// Open the first tab at `url` (or home). Returns the effects to run.
    pub fn start(&mut self, url: Option<String>) -> Vec<Effect> {
        let mut fx = vec![Effect::Store(StoreOp::LoadLists)];
        let url = url.unwrap_or_else(|| self.settings.home.clone());
        fx.extend(in_room!(self, |ctx| self.nav.new_tab(&mut ctx, &url)));
        self.screen.refresh(&mut self.tabs);
        fx
    }

    /// The active tab.
    pub fn tab(&self) -> Option<&Tab> {
        self.tabs.active()
    }
    /// The active tab's current history entry.
    pub fn current(&self) -> Option<&Entry> {
        self.tab().and_then(|t| t.current.as_ref())
    }
    /// The active tab's page view (None on the identities screen).
    pub fn doc_view(&self) -> Option<&DocView> {
        self.tab().and_then(Tab::doc_view)
    }
    /// The URL of the active tab (what is loading, else what is shown).
    pub fn current_url(&self) -> Option<&str> {
        self.current().map(|e| e.url.as_str())
    }

    /// Where the reader is: the active tab and the entry it shows (a transient message
    /// belongs there).
    fn place(&self) -> (u64, Option<String>, usize) {
        let tab = self.tab();
        (
            tab.map_or(0, |t| t.id),
            self.current_url().map(str::to_string),
            tab.map_or(0, |t| t.back.len()),
        )
    }

    /// The one entry point. A message on the status line belongs to the tab and page where it
    /// was said: when an update moves to another tab or page without saying anything new, the
    /// old message goes (the page's own address shows instead).
    pub fn update(&mut self, msg: Msg) -> Vec<Effect> {
        let (place, said) = (self.place(), self.status.clone());
        let fx = self.route(msg);
        if self.place() != place && self.status == said {
            self.status.clear();
        }
        self.log.record(&self.status);
        fx
    }

    /// Tell the app the wall-clock time of its start (`now == 0`), so `about:messages` gives
    /// each message its time of day.
    pub(crate) fn set_started(&mut self, t: time::OffsetDateTime) {
        self.log.set_started(t);
    }

    /// Say a problem of the shell's on the status line (and in `about:messages`): a store
    /// that could not be read at start.
    pub fn report(&mut self, text: String) {
        lend!(self).error(text);
        self.log.record(&self.status);
    }

    /// The status messages said so far (`about:messages`).
    pub fn messages(&self) -> &status::Log {
        &self.log
    }

    fn route(&mut self, msg: Msg) -> Vec<Effect> {
        let fx = match msg {
            Msg::Key(key) => self.on_key(key),
            Msg::Click { col, row } => self.on_click(col, row),
            Msg::Hover { row, .. } => {
                self.screen.hover(&mut self.tabs, row);
                Vec::new()
            }
            Msg::Wheel(n) => {
                self.screen.scroll(&mut self.tabs, n * 3);
                Vec::new()
            }
            Msg::Resize { width, height } => {
                self.screen.resize(width, height);
                Vec::new()
            }
            Msg::Tick(now) => self.on_tick(now),
            Msg::Paste(text) => {
                self.prompt.paste(&text, &mut lend!(self));
                Vec::new()
            }
            Msg::Fetched { id, outcome } => {
                in_room!(self, |ctx| self.nav.on_fetched(&mut ctx, id, *outcome))
            }
            Msg::Progress { id, bytes } => {
                for t in self.tabs.iter_mut() {
                    if let Some(l) = t.loading.as_mut().filter(|l| l.id == id) {
                        l.bytes = bytes;
                    }
                }
                Vec::new()
            }
            Msg::Lists { history, bookmarks } => {
                self.lists.history = history;
                self.lists.bookmarks = bookmarks;
                Vec::new()
            }
            Msg::Identities(_)
            | Msg::Approvals(_)
            | Msg::IdentityCreated { .. }
            | Msg::IdentityImported(_) => {
                in_room!(self, |ctx| identities::Identities.update(msg, &mut ctx))
            }
            Msg::Done(Ok(text)) => in_room!(self, |ctx| {
                ctx.info(text);
                ctx.then(Then::RemakeStorePage);
                Vec::new()
            }),
            Msg::Done(Err(ShellError::Start {
                program,
                url,
                source,
            })) => lend!(self).ask(
                format!(
                    "Cannot start {program}: {source}. Copy {url} to the clipboard instead? (y/n)"
                ),
                dialog::Pending::Copy(url),
            ),
            Msg::Done(Err(e)) => {
                lend!(self).error(e.to_string());
                Vec::new()
            }
            Msg::Feeds(m) => in_room!(self, |ctx| self.feeds.update(m, &mut ctx)),
            Msg::Agents(seen) => in_room!(self, |ctx| agents::seen(seen, &mut ctx)),
            Msg::Edited {
                purpose: Purpose::UploadText,
                result,
            } => in_room!(self, |ctx| self.upload.edited(result, &mut ctx)),
            Msg::Picture { key, result } => {
                self.pictures.decoded(&mut lend!(self), key, result);
                Vec::new()
            }
            Msg::Edited { purpose, result } => {
                in_room!(self, |ctx| self.prompt.edited(purpose, result, &mut ctx))
            }
            Msg::TourNext(Ok(next)) => in_room!(self, |ctx| tour::reached(next, &mut ctx)),
            Msg::TourNext(Err(e)) => {
                lend!(self).error(e.to_string());
                Vec::new()
            }
            Msg::UploadFile { path, result } => {
                in_room!(self, |ctx| self.upload.file_read(path, result, &mut ctx))
            }
        };
        self.screen.refresh(&mut self.tabs);
        let mut fx = fx;
        let woke = self.wake();
        if !woke.is_empty() {
            fx.extend(woke);
            self.screen.refresh(&mut self.tabs);
        }
        fx.extend(self.inline_pictures());
        fx
    }

    /// Carry out the work rooms left to the app, in order.
    fn follow(&mut self, then: Vec<Then>) -> Vec<Effect> {
        let mut fx = Vec::new();
        for t in then {
            match t {
                Then::Go { url, opts, replace } => fx.extend(in_room!(self, |ctx| self
                    .nav
                    .navigate(&mut ctx, &url, opts, replace))),
                Then::Fetch(req) => fx.extend(in_room!(self, |ctx| self.nav.fetch(&mut ctx, req))),
                Then::Prompt(purpose) => {
                    self.digits.clear();
                    self.prompt.open(purpose, &mut lend!(self));
                }
                Then::Search(query) => self.screen.search(&mut lend!(self), Some(&query), true),
                Then::FollowRedirect(req) => {
                    fx.extend(in_room!(self, |ctx| self
                        .nav
                        .follow_redirect(&mut ctx, req)));
                }
                Then::FollowLink { index, to } => {
                    fx.extend(in_room!(self, |ctx| self
                        .nav
                        .follow_link(&mut ctx, index, to)));
                }
                Then::SaveOffline { url, with_links } => {
                    fx.extend(in_room!(self, |ctx| self
                        .feeds
                        .save_offline(url, with_links, &mut ctx)));
                }
                // Working offline, nothing is fetched: no refresh when the page opens.
                Then::FeedsOpened { .. } if self.lists.work_offline => {}
                Then::FeedsOpened { url, replace } => fx.extend(self.feeds.opened(&url, replace)),
                Then::Subscribe(feed) => {
                    fx.extend(in_room!(self, |ctx| self.feeds.subscribe(feed, &mut ctx)));
                }
                Then::Follow { url, watch } => {
                    fx.extend(in_room!(self, |ctx| self
                        .feeds
                        .follow_page(url, watch, &mut ctx)));
                }
                Then::Adopt(url) => {
                    fx.extend(in_room!(self, |ctx| self.feeds.adopt(url, &mut ctx)))
                }
                Then::Unsubscribe(feed) => fx.extend(self.feeds.unsubscribe(feed)),
                Then::Unsave(url) => fx.extend(self.feeds.unsave(url)),
                Then::ReadOfflineCopy => {
                    fx.extend(in_room!(self, |ctx| self.feeds.read_offline_copy(&mut ctx)));
                }
                // A page made from the stores is made again (in place, keeping the reader's
                // place), unless a load is under way. The status line keeps its message.
                Then::RemakeStorePage => {
                    let Some(url) = self.current_url().filter(|u| is_store_page(u)) else {
                        continue;
                    };
                    if self.tab().is_some_and(|t| t.loading.is_some()) {
                        continue;
                    }
                    let (url, status) = (url.to_string(), self.status.clone());
                    let opts = FetchOptions::default();
                    fx.extend(in_room!(self, |ctx| self
                        .nav
                        .navigate(&mut ctx, &url, opts, true)));
                    self.status = status;
                }
                Then::Upload(step) => {
                    fx.extend(in_room!(self, |ctx| self.upload.step(step, &mut ctx)));
                }
                Then::SendUpload { tab, upload } => {
                    fx.extend(in_room!(self, |ctx| self.nav.upload(&mut ctx, tab, upload)));
                }
                Then::ShowPicture {
                    tab,
                    url,
                    page,
                    info,
                    replace,
                } => {
                    let mut ctx = lend!(self);
                    let info = info.map(|i| *i);
                    fx.extend(self.pictures.show(&mut ctx, tab, &url, page, info, replace));
                }
                Then::BackKeepingStatus => {
                    let status = self.status.clone();
                    fx.extend(in_room!(self, |ctx| self.nav.go_back(&mut ctx)));
                    self.status = status;
                }
            }
        }
        fx
    }

    /// Where the link under the pointer, or else the selected link, goes.
    pub fn link_target(&self) -> Option<&str> {
        let dv = self.doc_view()?;
        dv.doc.link_url(dv.hover.or(dv.selected)?)
    }

    /// The agents' badge for the status line: an active session, a suggestion waiting.
    pub fn agents_badge(&self) -> Option<String> {
        agents::badge(&self.lists.agents, &self.keymap)
    }

    /// The reader's note on a web page for the status line, or the protocol and its
    /// security on a page of a small protocol (None on other pages).
    pub fn web_badge(&self) -> Option<String> {
        web::Reader
            .badge(self.current())
            .or_else(|| web::protocol_badge(self.current()))
    }

    /// What the web page shown is and how far to trust its main text ("article · quality
    /// 0.92"), for the status line (None on other pages).
    pub fn web_reading(&self) -> Option<String> {
        web::Reader.reading_badge(self.current())
    }

    /// The section the reader is in on a long page (its heading, for the status line).
    pub fn section(&self) -> Option<String> {
        let dv = self.doc_view()?;
        let top = self.screen.frame().first().map_or(dv.top, |r| r.pos);
        outline::current_section(&dv.doc, top, self.screen.page_height())
    }

    /// The identity the current page was fetched with, by name ("as alice"), for the status
    /// line: a person always sees when a capsule knows who they are.
    pub fn identity_badge(&self) -> Option<String> {
        self.identity_of(self.current()?).map(|n| format!("as {n}"))
    }

    /// The name of the identity an entry was fetched with (its short fingerprint when the
    /// identity is not known here).
    fn identity_of(&self, e: &Entry) -> Option<String> {
        let fp = e.info.as_ref()?.tls.as_ref()?.client_cert.as_deref()?;
        Some(
            self.lists
                .identity(fp)
                .map_or_else(|| nav::short_fp(fp), |i| i.name.clone()),
        )
    }

    /// The open prompt.
    pub fn prompt(&self) -> Option<&Prompt> {
        self.prompt.get()
    }

    /// The terminal's size and the active page's laid-out rows.
    pub fn screen(&self) -> &Screen {
        &self.screen
    }

    /// The status line.
    pub fn status(&self) -> &Status {
        &self.status
    }

    /// The popup over the page and the question waiting for an answer.
    pub fn dialog(&self) -> &Dialog {
        &self.dialog
    }

    /// The tabs and their history.
    pub fn tabs(&self) -> &Tabs {
        &self.tabs
    }

    /// What the stores last said (history, bookmarks, identities, approvals).
    pub fn lists(&self) -> &Lists {
        &self.lists
    }

    /// The colours and styles.
    pub fn theme(&self) -> &Theme {
        &self.theme
    }

    /// The keys.
    pub fn keymap(&self) -> &Keymap {
        &self.keymap
    }

    /// The quit key was pressed.
    pub fn has_quit(&self) -> bool {
        self.quit
    }

    /// Milliseconds since start, at the last tick (drives the spinner).
    pub fn now(&self) -> u64 {
        self.now
    }

    /// A background feed refresh in progress: (feeds done, feeds in all).
    pub fn refreshing(&self) -> Option<(usize, usize)> {
        self.feeds.refreshing()
    }

    /// The link number being typed ("" when none).
    pub(crate) fn typed_link(&self) -> &str {
        &self.digits.typed
    }

    /// `[web] open_external`: http(s) links go to the external browser, not the reader view.
    pub fn set_web_external(&mut self, external: bool) {
        self.settings.web_external = external;
    }

    /// The program that opens files no handler names (the shell looks for xdg-open at start;
    /// None: it is not installed, so no dialog offers it).
    pub fn set_system_opener(&mut self, opener: Option<String>) {
        self.settings.system_opener = opener;
    }

    /// The graphics the shell chose (None: `off`, no pictures).
    pub fn set_pictures(&mut self, graphics: Option<crate::picture::Graphics>) {
        self.settings.pictures = graphics.is_some();
        self.settings.graphics = graphics;
    }

    /// Inline pictures are on (the toggle key, `[tui] inline_images`).
    pub fn inline_images(&self) -> bool {
        self.settings.inline_images && self.settings.pictures
    }

    /// Reserve rows under the visible image links of a gemtext page and ask for their
    /// pictures (lazily: only links on screen are fetched); with inline pictures off, give
    /// the rows back.
    fn inline_pictures(&mut self) -> Vec<Effect> {
        let on = self.inline_images();
        let graphics = self.settings.graphics;
        let (text_w, _) = self.screen.text_column();
        let max_rows = (self.screen.page_height() as u16)
            .saturating_sub(2)
            .clamp(1, 20);
        let visible: Vec<usize> = self.screen.frame().iter().filter_map(|r| r.link).collect();
        let Some(dv) = self.tabs.active_mut().and_then(Tab::doc_view_mut) else {
            return Vec::new();
        };
        let gemtext = matches!(
            dv.doc.page().content,
            smolweb_core::page::Content::Gemtext(_)
        );
        if !on || !gemtext || dv.picture.is_some() || dv.builtin() {
            if dv.doc.clear_below() {
                self.screen.refresh(&mut self.tabs);
            }
            return Vec::new();
        }
        let mut fx = Vec::new();
        for link in visible {
            let Some(url) = picture_link(&dv.doc, link) else {
                continue;
            };
            if self.pictures.get(url).is_none() {
                self.pictures.loading(url);
                fx.push(Effect::FetchPicture {
                    key: url.to_string(),
                });
            }
        }
        let mut changed = false;
        for link in 0..dv.doc.link_count() {
            let Some(url) = picture_link(&dv.doc, link) else {
                continue;
            };
            let rows = match (self.pictures.get(url), graphics) {
                (None, _) => 0,
                (Some(Slot::Ready(d)), Some(g)) => {
                    let area = ratatui::layout::Size::new(text_w as u16, max_rows);
                    crate::picture::fitted(&g, &d.image, area).height.max(1)
                }
                (Some(_), _) => 1,
            };
            changed |= dv.doc.set_below(link, rows);
        }
        if changed {
            self.screen.refresh(&mut self.tabs);
        }
        fx
    }

    /// The picture kept for a URL (a picture page's, or an inline one's).
    pub fn picture(&self, key: &str) -> Option<&Slot> {
        self.pictures.get(key)
    }

    /// Start in the work-offline mode (the client's own switch, `--offline` or
    /// `[offline] work_offline`).
    pub fn set_work_offline(&mut self, on: bool) {
        self.lists.work_offline = on;
    }

    /// The search engine words typed in the address bar go to (None: they are addresses).
    pub fn set_search_engine(&mut self, engine: Option<String>) {
        self.settings.search_engine = engine;
    }

    /// Is the work-offline mode on?
    pub fn working_offline(&self) -> bool {
        self.lists.work_offline
    }

    /// The status line's note while working offline: `offline`, and for a kept page its
    /// age (`offline · kept 3 days ago`). None when online.
    pub fn offline_badge(&self, now: time::OffsetDateTime) -> Option<String> {
        if !self.lists.work_offline {
            return None;
        }
        let kept = self
            .current()
            .filter(|e| !e.url.starts_with("about:"))
            .and_then(|e| e.info.as_ref()?.timestamp)
            .map(|at| (now - at).whole_seconds().max(0) as u64);
        Some(match kept {
            Some(age) => format!("offline · kept {} ago", smolweb_core::text::human_age(age)),
            None => "offline".to_string(),
        })
    }
}

/// The tab bar labels, in order (" 1 title ").
pub(crate) fn tab_labels(app: &App) -> Vec<String> {
    let n = app.tabs.len().max(1);
    let room = (usize::from(app.screen.width()) / n).clamp(8, 30);
    app.tabs
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let spin = if t.loading.is_some() { "…" } else { "" };
            let who = t
                .current
                .as_ref()
                .and_then(|e| app.identity_of(e))
                .map_or_else(String::new, |n| format!("@{n} "));
            let title: String = format!("{who}{}{}", t.title(), spin);
            let label = format!(" {} {} ", i + 1, crate::layout::sanitize(&title, false));
            truncate_cells(&label, room)
        })
        .collect()
}

/// The tab under a column of the tab bar.
pub(crate) fn tab_at(app: &App, col: u16) -> Option<usize> {
    let mut x = 0usize;
    for (i, l) in tab_labels(app).iter().enumerate() {
        let w = crate::layout::display_width(l);
        if usize::from(col) < x + w {
            return Some(i);
        }
        x += w + 1;
    }
    None
}

/// Made safe to draw (`layout::sanitize`: it may be remote text, such as a
/// title or an agent's declared name) and cut to at most `max` cells, the cut marked "…".
pub(crate) fn truncate_cells(text: &str, max: usize) -> String {
    use unicode_width::UnicodeWidthChar;
    let text = crate::layout::sanitize(text, false);
    if crate::layout::display_width(&text) <= max {
        return text.into_owned();
    }
    let mut out = String::new();
    let mut w = 0;
    for c in text.chars() {
        let cw = c.width().unwrap_or(0);
        if w + cw + 1 > max {
            break;
        }
        out.push(c);
        w += cw;
    }
    out.push('…');
    out
}
