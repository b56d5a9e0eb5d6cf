//! The feeds-and-offline room: what the browser knows of the subscriptions and the reading
//! list (mirrored from the stores, for the subscribe and save toggles), a background feed
//! refresh in progress, and the offline copy offered after a network failure; plus the keys
//! that act on them (subscribe, refresh, save for offline, read the offline copy).
//!
//! The room owns its state and has its own update ([`Feeds::update`] for the shell's
//! results, `Feeds::act` for its keys), given a [`Ctx`] by the app; remaking a page from
//! the stores is left to the app ([`Then::RemakeStorePage`]).
//!
//! Invariants: nothing here does IO. Subscribing, refreshing, saving and reading the offline
//! store are [`FeedOp`] effects the shell carries out; their results come back as
//! [`FeedMsg`]s. An offered copy belongs to one URL and is only shown while that URL's error
//! page is the tab's current entry.

use super::dialog::Pending;
use super::special::{PageAction, Special, pages};
use super::{Ctx, Effect, ShellError, Then};
use crate::keymap::Action;
use smolweb_client::feeds::{Candidate, candidates};
use smolweb_client::offline::{OfflineCopy, OfflineError, same_site_links};
use smolweb_core::text::human_age;
use smolweb_store::StoreError;
use std::sync::Arc;

/// The built-in page that asks which feed to follow.
pub(crate) const CHOOSE_FEED: &str = "about:subscribe";
/// The health of every subscription (its moved ones carry an adopt link).
pub(crate) const FEEDS_HEALTH: &str = "about:feeds?health";

/// What the browser mirrors of the feed and offline stores, and what is under way.
#[derive(Debug, Default)]
pub struct Feeds {
    /// Followed URLs (as stored).
    subscribed: Vec<String>,
    /// URLs on the reading list.
    saved: Vec<String>,
    /// A background refresh: (feeds done, feeds in all).
    refreshing: Option<(usize, usize)>,
    /// The offline copy offered after the last network failure.
    offer: Option<Offer>,
}

impl Feeds {
    /// A background refresh in progress: (feeds done, feeds in all).
    pub fn refreshing(&self) -> Option<(usize, usize)> {
        self.refreshing
    }
}

/// An offline copy offered for a URL whose fetch failed for a network reason.
#[derive(Clone, Debug)]
pub struct Offer {
    /// The URL that failed.
    pub url: String,
    /// The copy kept.
    pub copy: Box<OfflineCopy>,
    /// How old the copy was when it was offered, in seconds.
    pub age_seconds: u64,
}

/// What a whole refresh did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RefreshSummary {
    /// Feeds refreshed.
    pub feeds: usize,
    /// Entries not seen before.
    pub new_entries: usize,
    /// Feeds whose refresh failed (their errors are on `about:feeds`).
    pub failed: usize,
}

/// Feed and offline work for the shell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FeedOp {
    /// Follow `url`, then fetch it once.
    Subscribe {
        /// The feed (or the page announcing it).
        url: String,
    },
    /// Follow a page for its changes, then keep its first copy.
    Follow {
        /// The page.
        url: String,
        /// What counts as a change.
        watch: smolweb_core::follow::Watch,
    },
    /// Follow a subscription that moved, at the address its permanent redirect gave.
    Adopt {
        /// The subscription, as stored.
        url: String,
    },
    /// Stop following a feed.
    Unsubscribe {
        /// The followed URL.
        url: String,
    },
    /// Refresh every subscription when the last refresh is older than configured.
    RefreshIfDue,
    /// Refresh every subscription now.
    Refresh,
    /// Put a page (and, with links, the same-capsule pages it links to) on the reading list.
    SaveOffline {
        /// The page.
        url: String,
        /// Also the same-capsule pages it links to.
        with_links: bool,
    },
    /// Take a page off the reading list.
    Unsave {
        /// The page.
        url: String,
    },
    /// Read the subscriptions as they are now and say whether `url` is one
    /// ([`FeedMsg::Followed`]): `about:feeds` asks before unfollowing what the store holds,
    /// which another process may have changed.
    CheckFollowed {
        /// The link selected on `about:feeds`.
        url: String,
    },
    /// Mark every entry read: of one subscription, or (None) of all.
    MarkAllRead {
        /// The subscription, as stored.
        feed: Option<String>,
    },
}

/// Feed and offline results from the shell.
#[derive(Clone, Debug)]
pub enum FeedMsg {
    /// What the stores hold now.
    Lists {
        /// Followed URLs.
        subscribed: Vec<String>,
        /// URLs on the reading list.
        saved: Vec<String>,
    },
    /// A refresh moved on.
    /// Feeds done, feeds in all.
    Progress {
        /// Feeds done.
        done: usize,
        /// Feeds in all.
        total: usize,
    },
    /// A refresh ended (Err: the store could not be read).
    Refreshed(Result<RefreshSummary, FeedError>),
    /// A fetch failed for a network reason and an offline copy exists.
    Offer(Offer),
    /// A feed or offline change: a sentence for the status line, or why it failed.
    Changed(Result<String, FeedError>),
    /// The answer to [`FeedOp::CheckFollowed`]: whether `url` is followed now (Err: the
    /// subscriptions could not be read).
    Followed {
        /// The URL asked about.
        url: String,
        /// The subscription as stored (its normalized URL) when `url` is followed now.
        followed: Result<Option<String>, FeedError>,
    },
}

/// Why feed or offline work failed, its cause kept as the source (`Arc`: messages clone).
#[derive(Clone, Debug, thiserror::Error)]
pub enum FeedError {
    /// The subscriptions or the reading list could not be read or written.
    #[error(transparent)]
    Store(Arc<StoreError>),
    /// Saving or keeping an offline copy failed.
    #[error(transparent)]
    Offline(Arc<OfflineError>),
    /// The feed is followed, but fetching it the first time failed.
    #[error("following {url}, but its first fetch failed: {reason}")]
    FirstFetch {
        /// The feed.
        url: String,
        /// Why, as the client's refresh says it.
        #[source]
        reason: smolweb_client::feeds::RefreshError,
    },
    /// The store thread is not running, so the work was not done.
    #[error(transparent)]
    Shell(#[from] ShellError),
}

impl From<StoreError> for FeedError {
    fn from(e: StoreError) -> Self {
        FeedError::Store(Arc::new(e))
    }
}

impl From<OfflineError> for FeedError {
    fn from(e: OfflineError) -> Self {
        FeedError::Offline(Arc::new(e))
    }
}

/// The page that asks which of several feeds to follow.
fn choice_page(url: &str, list: &[Candidate]) -> String {
    let mut g = format!("# Subscribe\n\n{url} offers more than one feed. Which one?\n\n");
    for c in list {
        let label = c.title.as_deref().unwrap_or(&c.url);
        let kind = c
            .kind
            .map(|k| format!(" ({})", k.as_str()))
            .unwrap_or_default();
        g.push_str(&PageAction::Subscribe(c.url.clone()).link(&format!("{label}{kind}")));
    }
    g.push('\n');
    g.push_str(&PageAction::Back.link("Go back"));
    g
}

/// The choice page of the subscribe key on a page without a feed: follow the page itself.
fn follow_page_choice(url: &str) -> String {
    use smolweb_core::follow::Watch;
    let mut g = format!(
        "# Follow this page\n\n{url} is not a gemlog and announces or links no feed. Follow the page for its changes? A refresh compares it with the copy kept now; changes show on about:feeds with their diff.\n\n"
    );
    for (watch, label) in [
        (Watch::Links, "For new and removed links"),
        (
            Watch::Text,
            "For any change of its text (links and paragraphs)",
        ),
    ] {
        let action = PageAction::Follow {
            url: url.to_string(),
            watch,
        };
        g.push_str(&action.link(label));
    }
    g.push('\n');
    g.push_str(&PageAction::Back.link("Go back"));
    g
}

/// A URL that can stand on a gemtext link line of a built-in page.
fn linkable(url: &str) -> bool {
    !url.is_empty() && !url.chars().any(|c| c.is_whitespace() || c.is_control())
}

impl Feeds {
    /// A feed or offline result from the shell.
    pub(crate) fn update(&mut self, msg: FeedMsg, ctx: &mut Ctx) -> Vec<Effect> {
        match msg {
            FeedMsg::Lists { subscribed, saved } => {
                self.subscribed = subscribed;
                self.saved = saved;
            }
            FeedMsg::Progress { done, total } => self.refreshing = Some((done, total)),
            FeedMsg::Refreshed(Ok(s)) if s.feeds == 0 => {
                self.refreshing = None;
                let text = format!(
                    "you follow no feeds yet: {} on a gemlog follows it",
                    ctx.hint(Action::Subscribe)
                );
                ctx.info(text);
            }
            FeedMsg::Refreshed(Ok(s)) => {
                self.refreshing = None;
                let failed = if s.failed > 0 {
                    format!(", {} failed (see about:feeds)", s.failed)
                } else {
                    String::new()
                };
                ctx.info(format!(
                    "{} refreshed: {}{failed}",
                    smolweb_core::text::count(s.feeds, "feed", "feeds"),
                    smolweb_core::text::count(s.new_entries, "new entry", "new entries")
                ));
                ctx.then(Then::RemakeStorePage);
            }
            FeedMsg::Refreshed(Err(e)) => {
                self.refreshing = None;
                ctx.error(format!("cannot refresh feeds: {e}"));
            }
            FeedMsg::Offer(offer) => self.offer(offer, ctx),
            FeedMsg::Changed(Ok(text)) => {
                ctx.info(text);
                ctx.then(Then::RemakeStorePage);
            }
            FeedMsg::Changed(Err(e)) => ctx.error(e.to_string()),
            FeedMsg::Followed { url, followed } => self.followed(url, followed, ctx),
        }
        Vec::new()
    }

    /// The keys of this room: subscribe, refresh, save for offline, read the offline copy.
    pub(crate) fn act(&mut self, action: Action, ctx: &mut Ctx) -> Vec<Effect> {
        match action {
            Action::Subscribe => self.toggle_subscription(ctx),
            Action::RefreshFeeds => self.refresh(ctx),
            Action::SaveOffline => self.toggle_offline(ctx),
            Action::OfflineCopy => self.read_offline_copy(ctx),
            Action::MarkAllRead => mark_all_read(ctx),
            _ => Vec::new(),
        }
    }

    /// Opening `about:feeds` (not a reload of it) refreshes the feeds when they are due.
    pub(crate) fn opened(&self, url: &str, replace: bool) -> Vec<Effect> {
        if is_feeds_page(url) && !replace && self.refreshing.is_none() {
            vec![Effect::Feeds(FeedOp::RefreshIfDue)]
        } else {
            Vec::new()
        }
    }

    fn offer(&mut self, offer: Offer, ctx: &mut Ctx) {
        let showing_error = ctx.current_url() == Some(offer.url.as_str())
            && ctx.doc_view().is_some_and(|d| d.special == Special::Error);
        if showing_error {
            offer_on_error_page(&offer, ctx);
            let text = format!(
                "offline: a copy from {} ago is kept; press {} to read it",
                human_age(offer.age_seconds),
                ctx.hint(Action::OfflineCopy)
            );
            ctx.error(text);
        }
        self.offer = Some(offer);
    }

    /// Subscribe to the page's feed, or (after asking) unsubscribe when it is followed. On
    /// `about:feeds`, the selected subscription is unfollowed after asking, as the store holds
    /// it now: another process may have added or removed subscriptions since the browser last
    /// read them, and the links of the page are no feeds of its own.
    fn toggle_subscription(&mut self, ctx: &mut Ctx) -> Vec<Effect> {
        let Some(url) = feed_target(ctx, "about:feeds") else {
            let text = format!(
                "select a subscription first ({})",
                ctx.hint(Action::NextLink)
            );
            ctx.info(text);
            return Vec::new();
        };
        if ctx.current_url().is_some_and(is_feeds_page) {
            return vec![Effect::Feeds(FeedOp::CheckFollowed { url })];
        }
        let page = ctx.doc_view().map(|d| d.doc.page().clone());
        let mut list = match &page {
            Some(p) if !url.starts_with("about:") => candidates(p),
            _ => Vec::new(),
        };
        if let Some(followed) = std::iter::once(url.as_str())
            .chain(list.iter().map(|c| c.url.as_str()))
            .find(|u| self.subscribed.iter().any(|s| s == u))
            .map(str::to_string)
        {
            return ask_unfollow(followed, ctx);
        }
        if url.starts_with("about:") {
            ctx.info("built-in pages cannot be followed");
            return Vec::new();
        }
        list.retain(|c| linkable(&c.url));
        match list.len() {
            0 => {
                // No feed: offer to follow the page itself for its changes.
                let tab = ctx.tab_id();
                let page = pages::synth("subscribe", &follow_page_choice(&url));
                ctx.show_doc(tab, CHOOSE_FEED, page, Special::None, None, false);
                ctx.info("no feed here: follow the page for its changes?");
                Vec::new()
            }
            1 => self.subscribe(list.remove(0).url, ctx),
            _ => {
                let tab = ctx.tab_id();
                let page = pages::synth("subscribe", &choice_page(&url, &list));
                ctx.show_doc(tab, CHOOSE_FEED, page, Special::None, None, false);
                ctx.info("pick the feed to follow");
                Vec::new()
            }
        }
    }

    /// Follow one feed (from the key or the choice page).
    pub(crate) fn subscribe(&mut self, url: String, ctx: &mut Ctx) -> Vec<Effect> {
        ctx.info(format!("subscribing to {url}…"));
        if !self.subscribed.contains(&url) {
            self.subscribed.push(url.clone());
        }
        vec![Effect::Feeds(FeedOp::Subscribe { url })]
    }

    /// Follow a page for its changes (from the choice page).
    pub(crate) fn follow_page(
        &mut self,
        url: String,
        watch: smolweb_core::follow::Watch,
        ctx: &mut Ctx,
    ) -> Vec<Effect> {
        ctx.info(format!("following {url}…"));
        if !self.subscribed.contains(&url) {
            self.subscribed.push(url.clone());
        }
        vec![Effect::Feeds(FeedOp::Follow { url, watch })]
    }

    /// Follow a moved subscription at its new address (the health page's link).
    pub(crate) fn adopt(&mut self, url: String, ctx: &mut Ctx) -> Vec<Effect> {
        ctx.info(format!("following {url} at its new address…"));
        vec![Effect::Feeds(FeedOp::Adopt { url })]
    }

    fn refresh(&mut self, ctx: &mut Ctx) -> Vec<Effect> {
        if ctx.lists.work_offline {
            let key = ctx.hint(Action::WorkOffline);
            ctx.info(format!(
                "working offline: feeds are not refreshed ({key}: online again, or run smolweb sync)"
            ));
            return Vec::new();
        }
        if let Some((done, total)) = self.refreshing {
            ctx.info(format!("already refreshing feeds ({done}/{total})"));
            return Vec::new();
        }
        self.refreshing = Some((0, 0));
        vec![Effect::Feeds(FeedOp::Refresh)]
    }

    /// Save the page for offline reading (asking whether with its links), or (after asking)
    /// take it off the reading list. On `about:offline`, the selected page is taken off.
    fn toggle_offline(&mut self, ctx: &mut Ctx) -> Vec<Effect> {
        let Some(url) = feed_target(ctx, "about:offline") else {
            let text = format!("select a saved page first ({})", ctx.hint(Action::NextLink));
            ctx.info(text);
            return Vec::new();
        };
        if self.saved.contains(&url) {
            return ctx.ask(
                format!("Take {url} off the reading list? Its offline copy is deleted. (y: yes, any other key keeps it)"),
                Pending::Unsave(url),
            );
        }
        if url.starts_with("about:") {
            ctx.info("built-in pages are not saved for offline reading");
            return Vec::new();
        }
        // The page shown (not a list's selected link): its links decide whether to ask.
        let shown = (ctx.current_url() == Some(url.as_str()))
            .then(|| ctx.doc_view().map(|d| d.doc.page().clone()))
            .flatten();
        if shown.is_some_and(|p| same_site_links(&p).is_empty()) {
            // No link of the same site or capsule (or not a page at all): nothing to ask.
            return self.save_offline(url, false, ctx);
        }
        let web = url.starts_with("http://") || url.starts_with("https://");
        let same = if web { "site" } else { "capsule" };
        ctx.ask(
            format!(
                "Save {url} for offline reading. Also the pages of the same {same} it links to? (y: with links, n: this page only, esc: cancel)"
            ),
            Pending::SaveOffline(url),
        );
        Vec::new()
    }

    /// The answer to the save question.
    pub(crate) fn save_offline(
        &mut self,
        url: String,
        with_links: bool,
        ctx: &mut Ctx,
    ) -> Vec<Effect> {
        let what = if with_links { " and its links" } else { "" };
        ctx.info(format!("saving {url}{what} for offline reading…"));
        if !self.saved.contains(&url) {
            self.saved.push(url.clone());
        }
        vec![Effect::Feeds(FeedOp::SaveOffline { url, with_links })]
    }

    /// The store's answer to "is the selected link of `about:feeds` followed?": ask before
    /// unfollowing it, if `about:feeds` is still shown.
    fn followed(
        &mut self,
        url: String,
        followed: Result<Option<String>, FeedError>,
        ctx: &mut Ctx,
    ) {
        if !ctx.current_url().is_some_and(is_feeds_page) || ctx.dialog.asking() {
            return;
        }
        match followed {
            Ok(Some(stored)) => {
                ask_unfollow(stored, ctx);
            }
            Ok(None) => ctx.info(format!(
                "{url} is not a subscription: select one of the Subscriptions ({})",
                ctx.hint(Action::NextLink)
            )),
            Err(e) => ctx.error(format!("cannot read the subscriptions: {e}")),
        }
    }

    /// The "yes" to unfollowing a feed.
    pub(crate) fn unsubscribe(&mut self, url: String) -> Vec<Effect> {
        self.subscribed.retain(|s| *s != url);
        vec![Effect::Feeds(FeedOp::Unsubscribe { url })]
    }

    /// The "yes" to taking a page off the reading list.
    pub(crate) fn unsave(&mut self, url: String) -> Vec<Effect> {
        self.saved.retain(|s| *s != url);
        vec![Effect::Feeds(FeedOp::Unsave { url })]
    }

    /// Show the offline copy offered for the current URL in place of its error page.
    pub(crate) fn read_offline_copy(&mut self, ctx: &mut Ctx) -> Vec<Effect> {
        let current = ctx.current_url().map(str::to_string);
        let Some(offer) = self
            .offer
            .clone()
            .filter(|o| Some(&o.url) == current.as_ref())
        else {
            ctx.info("no offline copy is offered for this page");
            return Vec::new();
        };
        let tab = ctx.tab_id();
        let page = Some(offer.copy.fetched.page.clone());
        ctx.show_doc(tab, &offer.url, page, Special::None, None, true);
        let when = smolweb_core::text::readable_time(offer.copy.fetched_at);
        let text = format!(
            "offline copy, {} old (downloaded {when}); {} tries the network again",
            human_age(offer.age_seconds),
            ctx.hint(Action::Reload)
        );
        ctx.info(text);
        Vec::new()
    }
}

/// Turn the work-offline mode on or off: the client is told (no request leaves while on) and
/// the status line says which.
pub(crate) fn toggle_work_offline(ctx: &mut Ctx) -> Vec<Effect> {
    let on = !ctx.lists.work_offline;
    ctx.lists.work_offline = on;
    let key = ctx.hint(Action::WorkOffline);
    ctx.info(if on {
        format!("working offline: nothing is fetched, pages come from the offline cache ({key}: online again)")
    } else {
        format!("working online again ({key}: offline)")
    });
    // The start page's link says which mode is on: made again when it is shown.
    ctx.then(Then::RemakeStorePage);
    vec![Effect::WorkOffline(on)]
}

/// Working offline, a link to a page that is not kept: offer to queue it for the next
/// `smolweb sync` (never a URL with a query, which may be an answer to a prompt).
pub(crate) fn offer_queue(url: &str, from: Option<String>, ctx: &mut Ctx) -> Vec<Effect> {
    if url.contains('?') || url.starts_with("about:") {
        return Vec::new();
    }
    ctx.ask(
        format!("Working offline: {url} is not kept. Queue it for the next smolweb sync? (y: queue, n: no)"),
        Pending::QueueSync {
            url: url.to_string(),
            from: from.filter(|f| !f.starts_with("about:") && f != url),
        },
    )
}

/// Ask before unfollowing a feed: its entries and their read state go with it.
fn ask_unfollow(url: String, ctx: &mut Ctx) -> Vec<Effect> {
    ctx.ask(
        format!("Stop following {url}? Its entries and what you read of them are forgotten. (y: yes, any other key keeps it)"),
        Pending::Unsubscribe(url),
    )
}

/// Add a link to the offered copy at the end of the error page shown for its URL.
fn offer_on_error_page(offer: &Offer, ctx: &mut Ctx) {
    let Some(tab) = ctx.tabs.active() else {
        return;
    };
    let id = tab.id;
    let info = tab.current.as_ref().and_then(|e| e.info.clone());
    let Some(text) = ctx.doc_view().map(|d| d.doc.page().body.text().to_string()) else {
        return;
    };
    let label = format!(
        "Read the offline copy ({} old, {})",
        human_age(offer.age_seconds),
        ctx.hint(Action::OfflineCopy)
    );
    let page = pages::synth("error", &(text + &PageAction::OfflineCopy.link(&label)));
    ctx.show_doc(id, &offer.url, page, Special::Error, info, true);
}

/// The link selected on a built-in list page, else the current page's URL.
fn feed_target(ctx: &Ctx, list_page: &str) -> Option<String> {
    let on_list = match list_page {
        "about:feeds" => ctx.current_url().is_some_and(is_feeds_page),
        page => ctx.current_url() == Some(page),
    };
    if on_list {
        let dv = ctx.doc_view()?;
        return dv
            .doc
            .link_url(dv.hover.or(dv.selected)?)
            .map(str::to_string);
    }
    ctx.current_url().map(str::to_string)
}

/// On `about:feeds`, mark every entry read (of the one feed its view shows, else of all),
/// after asking: the read state cannot be had back.
fn mark_all_read(ctx: &mut Ctx) -> Vec<Effect> {
    let Some(url) = ctx.current_url().filter(|u| is_feeds_page(u)) else {
        ctx.info(format!(
            "mark all read works on the feeds page ({})",
            ctx.hint(Action::Feeds)
        ));
        return Vec::new();
    };
    let feed = smolweb_client::about_feeds::feed_of_view(url);
    let question = match &feed {
        Some(f) => format!("Mark every entry of {f} read? (y: yes, any other key keeps them)"),
        None => "Mark every entry of every feed read? (y: yes, any other key keeps them)".into(),
    };
    ctx.ask(question, super::dialog::Pending::MarkAllRead(feed))
}

/// `about:feeds` in any of its views.
pub(crate) fn is_feeds_page(url: &str) -> bool {
    url == "about:feeds" || url.starts_with("about:feeds?")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_choice_page_links_each_feed_as_an_action() {
        let list = vec![
            Candidate {
                url: "gemini://cap.test/atom.xml".into(),
                kind: None,
                title: Some("Atom".into()),
            },
            Candidate {
                url: "gemini://cap.test/feed.json".into(),
                kind: None,
                title: None,
            },
        ];
        let g = choice_page("gemini://cap.test/", &list);
        assert!(
            g.contains("=> action:subscribe:gemini://cap.test/atom.xml Atom\n"),
            "{g}"
        );
        assert!(
            g.contains(
                "=> action:subscribe:gemini://cap.test/feed.json gemini://cap.test/feed.json\n"
            ),
            "{g}"
        );
        assert!(!linkable("gemini://a b/"));
        assert!(linkable("gemini://a/b"));
    }
}
