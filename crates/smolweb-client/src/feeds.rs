//! Feeds over the facade: fetch one feed URL, refresh every subscription.
//!
//! Every fetch goes through [`Client::open_following`] (cache, robots, pacing, the address
//! guard, TOFU and the one timeout, same-host redirects followed), so a feed is never fetched
//! around policy. A page becomes a feed by what it is ([`feed_of_page`]): gemtext and Gopher
//! menus by the gemlog convention, XML/JSON bodies as Atom, RSS or JSON Feed.
//!
//! [`refresh_all`] fetches subscriptions with bounded concurrency
//! (`[feeds] refresh_concurrency`): feeds of different hosts in parallel, feeds of one host one
//! after another, `[politeness] per_host_interval_ms` apart (on both faces: a refresh is a
//! batch of requests to hosts the human did not just click), each turn taken from the client's
//! batch [`Pacer`](smolweb_net::policy::pacing::Pacer) keyed by the normalized host. A feed that fails records its
//! error in the store and never stops the others; answers that arrive together are merged
//! into the store in one locked rewrite. [`candidates`] is what the browser's subscribe key
//! offers for a page.

use super::follow::{self, CompareError, Target, fetch_fresh};
use super::{Client, Fetched, OpenOptions, Outcome, RequestInfo};
use smolweb_core::feed::{self, Feed, FeedKind, discover, gemlog, syndication};
use smolweb_core::page::{Content, Page};
use smolweb_core::url::{Scheme, Url};
use smolweb_net::FetchError;
use smolweb_store::StoreError;
use smolweb_store::subscriptions::{Answer, Notes, Refreshed, StoredEntry, Subscriptions};
use std::collections::BTreeMap;
use std::sync::Arc;

use super::follow::MAX_REDIRECTS;

/// What fetching a feed URL gave.
#[derive(Clone, Debug)]
pub enum FeedOutcome {
    /// A page that reads as a feed.
    Feed {
        /// What was asked.
        info: RequestInfo,
        /// The page.
        fetched: Fetched,
        /// The page read as a feed.
        feed: Feed,
    },
    /// A page, but not a feed (`reason` says why, naming announced feeds when there are some).
    NotAFeed {
        /// What was asked.
        info: RequestInfo,
        /// The page.
        fetched: Fetched,
        /// Why it is not a feed.
        reason: NotAFeed,
    },
    /// Anything but a page: input, redirect to another host, certificate, failure, error.
    Other(Outcome),
}

impl FeedOutcome {
    /// An outcome read as a feed: a page that is one, a page that is not, or anything else.
    pub fn of(outcome: Outcome) -> FeedOutcome {
        match outcome {
            Outcome::Page { info, fetched } => match feed_of_page(&fetched.page) {
                Ok(feed) => FeedOutcome::Feed {
                    info,
                    fetched,
                    feed,
                },
                Err(reason) => FeedOutcome::NotAFeed {
                    info,
                    fetched,
                    reason,
                },
            },
            other => FeedOutcome::Other(other),
        }
    }
    /// Why this is not a feed (None for a feed); its message is one line.
    pub fn failure(&self) -> Option<RefreshError> {
        match self {
            FeedOutcome::Feed { .. } => None,
            FeedOutcome::NotAFeed { reason, .. } => Some(RefreshError::NotAFeed(reason.clone())),
            FeedOutcome::Other(o) => Some(RefreshError::NoPage(NoPage::of(o.clone()))),
        }
    }
}

/// Why a fetch meant to give a page (a feed, a page to save) gave none.
#[derive(Clone, Debug, thiserror::Error)]
pub enum NoPage {
    /// The request failed (policy, DNS, connection, TLS, protocol, ...).
    #[error("{}", feed::one_line(&.0.to_string()))]
    Fetch(#[source] FetchError),
    /// The server answered, but not with a page: input, a redirect to another host, a
    /// certificate request or a failure status ([`describe`] words it).
    #[error("{}", describe(.0))]
    Answer(Box<Outcome>),
}

impl NoPage {
    /// The reason an outcome that is not a page gives.
    pub fn of(outcome: Outcome) -> NoPage {
        match outcome {
            Outcome::Error { error, .. } => NoPage::Fetch(error),
            other => NoPage::Answer(Box::new(other)),
        }
    }
}

/// Why refreshing a subscription failed (the old entries are kept).
#[derive(Clone, Debug, thiserror::Error)]
pub enum RefreshError {
    /// The URL gave a page that is not a feed.
    #[error(transparent)]
    NotAFeed(#[from] NotAFeed),
    /// The URL gave no page.
    #[error(transparent)]
    NoPage(#[from] NoPage),
    /// The subscriptions store could not record the answer.
    #[error("cannot record the refresh: {0}")]
    Store(#[source] Arc<StoreError>),
    /// The blocking task writing the store failed.
    #[error("the store task failed: {0}")]
    StoreTask(#[source] Arc<tokio::task::JoinError>),
    /// A followed page could not be compared with its copy.
    #[error(transparent)]
    Compare(#[from] CompareError),
    /// The task fetching the feed stopped before it answered.
    #[error("the refresh task stopped")]
    Stopped,
}

/// A short sentence for an outcome that is not a page.
pub fn describe(o: &Outcome) -> String {
    match o {
        Outcome::Page { .. } => "a page".to_string(),
        Outcome::Input { .. } => "the URL asks for input; it is not a feed".to_string(),
        Outcome::Redirect { target, .. } => {
            format!(
                "redirects to {} (another server; not followed)",
                feed::one_line(target)
            )
        }
        Outcome::Certificate { status, .. } => {
            format!("status {status}: the capsule wants a client certificate")
        }
        Outcome::Failure {
            info, status, meta, ..
        } if info.url.starts_with("http") => {
            feed::one_line(&crate::web::failure_words(&info.url, *status, meta))
        }
        Outcome::Failure { status, meta, .. } => {
            format!("status {status}: {}", feed::one_line(meta))
        }
        Outcome::Error { error, .. } => feed::one_line(&error.to_string()),
    }
}

/// Read a fetched page as a feed: gemtext and menus by the gemlog convention, XML or JSON
/// bodies by feed-rs. The title falls back to the page's own title.
pub fn feed_of_page(page: &Page) -> Result<Feed, NotAFeed> {
    let base = page.url.to_string();
    // A web page arrives converted to gemtext for reading; a feed served over http(s) is
    // read from the body as sent.
    let web = matches!(page.url.scheme(), Scheme::Http | Scheme::Https);
    let mut feed = match &page.content {
        _ if web && syndication::looks_like(&page.raw) => {
            syndication::parse(&page.raw, &base).map_err(|e| not_a_feed(page, &e.to_string()))?
        }
        Content::Gemtext(doc) => gemlog::from_document(doc),
        Content::Menu(items) => gemlog::from_links(
            None,
            items
                .iter()
                .filter(|i| !i.is_info() && !i.next_url.is_empty())
                .map(|i| (i.title.as_str(), i.next_url.as_str())),
        ),
        Content::Text | Content::Binary if syndication::looks_like(&page.raw) => {
            match syndication::parse(&page.raw, &base) {
                Ok(f) => f,
                Err(e) => return Err(not_a_feed(page, &e.to_string())),
            }
        }
        _ => return Err(not_a_feed(page, "neither gemtext, a menu, XML nor JSON")),
    };
    if feed.title.is_none() {
        feed.title = page.title().map(feed::one_line);
    }
    Ok(feed)
}

fn is_html(page: &Page) -> bool {
    matches!(page.mime.subtype.as_str(), "html" | "xhtml+xml")
}

/// The HTML of a page: a web page keeps it as sent in `raw` (its body is the reader view's
/// gemtext); an HTML page from a capsule has it as its body.
fn html_of(page: &Page) -> std::borrow::Cow<'_, str> {
    if matches!(page.url.scheme(), Scheme::Http | Scheme::Https) {
        String::from_utf8_lossy(&page.raw)
    } else {
        std::borrow::Cow::Borrowed(page.body.text())
    }
}

/// Why a page is not a feed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotAFeed {
    /// Neither a feed format nor the gemlog convention could read it (why, on one line).
    #[error("not a feed ({0})")]
    Unreadable(String),
    /// An HTML page that announces feeds (`<link rel="alternate">`): their URLs.
    #[error("not a feed; the page announces: {}", .0.join(", "))]
    Announces(Vec<String>),
}

/// The reason a page is not a feed, naming the feeds an HTML page announces.
fn not_a_feed(page: &Page, why: &str) -> NotAFeed {
    let announced = if is_html(page) {
        discover::alternates(&html_of(page), &page.url.to_string())
    } else {
        Vec::new()
    };
    if announced.is_empty() {
        return NotAFeed::Unreadable(feed::one_line(why));
    }
    NotAFeed::Announces(announced.into_iter().map(|a| a.url).collect())
}

/// Something the "subscribe" key can offer for a page.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate {
    /// The candidate's URL.
    pub url: String,
    /// What it is known to be (None: a link that looks like a feed, not fetched yet).
    pub kind: Option<FeedKind>,
    /// A label for the choice (the feed's or the link's title).
    pub title: Option<String>,
}

/// Link targets that are feeds by their name (`atom.xml`, `feed.xml`, `index.rss`, ...).
fn looks_like_feed_link(url: &str) -> bool {
    let path = url
        .split(['?', '#'])
        .next()
        .unwrap_or("")
        .to_ascii_lowercase();
    let name = path.rsplit('/').next().unwrap_or("");
    name.ends_with(".atom")
        || name.ends_with(".rss")
        || matches!(
            name,
            "atom.xml" | "feed.xml" | "rss.xml" | "index.xml" | "feed.json"
        )
}

/// What the "subscribe" key offers for a page, in order: the page itself when it reads as a
/// feed with entries, then the feeds an HTML page announces (`<link rel="alternate">`), then
/// links whose names say they are feeds. Deduplicated; the browser asks which when there are
/// several, and subscribes directly when there is one.
pub fn candidates(page: &Page) -> Vec<Candidate> {
    let mut out: Vec<Candidate> = Vec::new();
    let own = page.url.to_string();
    if let Ok(f) = feed_of_page(page)
        && !f.entries.is_empty()
    {
        out.push(Candidate {
            url: own.clone(),
            kind: Some(f.kind),
            title: f.title,
        });
    }
    if is_html(page) {
        for a in discover::alternates(&html_of(page), &own) {
            out.push(Candidate {
                url: a.url,
                kind: Some(a.kind),
                title: a.title,
            });
        }
    }
    if let Content::Gemtext(doc) = &page.content {
        for l in doc.links().filter(|l| looks_like_feed_link(&l.url)) {
            out.push(Candidate {
                url: l.url.clone(),
                kind: None,
                title: l.text.as_deref().map(feed::one_line),
            });
        }
    }
    let mut seen = Vec::new();
    out.retain(|c| {
        let fresh = !seen.contains(&c.url);
        seen.push(c.url.clone());
        fresh
    });
    out
}

impl Client {
    /// The subscriptions store of this client's data directory. Every clone shares the
    /// client's parsed copy of the file, re-read only when the file changed (by this process
    /// or another): keep the clone or ask again, both are cheap.
    pub(crate) fn subscriptions(&self) -> Subscriptions {
        self.subscriptions.clone()
    }

    /// Fetch `url` and read it as a feed.
    pub async fn fetch_feed(&self, url: &str, opts: &OpenOptions) -> FeedOutcome {
        FeedOutcome::of(self.open_feed_url(url, opts).await)
    }

    /// The one place a feed URL is fetched: gemini://, gopher:// and http(s):// all go through
    /// `open_following` (so the guard, pins, robots and limits apply); an http(s) feed is then
    /// read from the body as sent (see [`feed_of_page`]).
    async fn open_feed_url(&self, url: &str, opts: &OpenOptions) -> Outcome {
        self.open_following(url, opts, MAX_REDIRECTS).await.0
    }

    /// Fetch one subscription (bypassing the in-memory cache) and merge it into the store.
    pub async fn refresh_feed(&self, url: &str) -> FeedRefresh {
        let target = match self.subscriptions().get(url) {
            Ok(Some(sub)) => Target::of(&sub),
            _ => Target {
                url: url.to_string(),
                changes: None,
                validators: Default::default(),
            },
        };
        let fetched = self.fetch_for_refresh(&target).await;
        let visited = self.visited_urls();
        let answer = fetched.answer();
        let recorded = self
            .subscriptions()
            .record_answers(&[answer], self.now(), &visited)
            .map(|mut lists| lists.pop().unwrap_or_default());
        fetched.into_result(recorded.map_err(|e| RefreshError::Store(Arc::new(e))))
    }

    /// The fetch half of a refresh: what to merge into the store. A feed is read as one; a
    /// followed page is compared with its copy ([`super::follow`]).
    async fn fetch_for_refresh(&self, target: &Target) -> Fetch {
        let fresh = fetch_fresh(self, target).await;
        let notes = fresh.notes;
        let unchanged = || Refreshed::Ok {
            title: None,
            entries: Vec::new(),
        };
        let (refreshed, title, failure, notes) = match (fresh.outcome, target.changes) {
            (None, _) => (unchanged(), None, None, notes),
            (Some(Outcome::Page { fetched, .. }), Some(watch)) => {
                match follow::compare(self, &target.url, watch, &fetched.page).await {
                    Ok(c) => {
                        let notes = Notes {
                            restless: Some(c.restless),
                            cut: Some(c.cut),
                            ..notes
                        };
                        let ok = Refreshed::Ok {
                            title: c.title.clone(),
                            entries: c.entries,
                        };
                        (ok, c.title, None, notes)
                    }
                    Err(e) => {
                        let e = RefreshError::Compare(e);
                        (Refreshed::Failed(e.to_string()), None, Some(e), notes)
                    }
                }
            }
            (Some(outcome), changes) => {
                let outcome = match changes {
                    None => FeedOutcome::of(outcome),
                    Some(_) => FeedOutcome::Other(outcome),
                };
                let failure = outcome.failure();
                match outcome {
                    FeedOutcome::Feed { feed, .. } => (
                        Refreshed::Ok {
                            title: feed.title.clone(),
                            entries: feed.entries,
                        },
                        feed.title,
                        None,
                        notes,
                    ),
                    _ => {
                        let why = failure
                            .as_ref()
                            .map(ToString::to_string)
                            .unwrap_or_default();
                        (Refreshed::Failed(why), None, failure, notes)
                    }
                }
            }
        };
        Fetch {
            url: target.url.clone(),
            refreshed,
            title,
            failure,
            notes,
        }
    }

    /// True when some subscription was never refreshed or not within
    /// `[feeds] refresh_after_minutes` (what opening `about:feeds` checks).
    pub fn feeds_due(&self) -> Result<bool, StoreError> {
        let age = time::Duration::minutes(self.config.feeds.refresh_after_minutes as i64);
        let now = self.now();
        Ok(self
            .subscriptions()
            .list()?
            .iter()
            .any(|s| s.refreshed.is_none_or(|t| now - t >= age)))
    }
}

/// What refreshing one subscription did.
#[derive(Clone, Debug)]
pub struct FeedRefresh {
    /// The subscription's URL.
    pub url: String,
    /// The feed's title, when the refresh read one.
    pub title: Option<String>,
    /// Entries seen for the first time, in feed order.
    pub new_entries: Vec<StoredEntry>,
    /// Why the refresh failed (the old entries are kept).
    pub error: Option<RefreshError>,
}

impl FeedRefresh {
    /// A refresh that gave nothing but its failure.
    fn failed(url: String, error: RefreshError) -> FeedRefresh {
        FeedRefresh {
            url,
            title: None,
            new_entries: Vec::new(),
            error: Some(error),
        }
    }
}

/// A fetched feed waiting to be merged into the store.
struct Fetch {
    url: String,
    refreshed: Refreshed,
    title: Option<String>,
    failure: Option<RefreshError>,
    notes: Notes,
}

impl Fetch {
    /// What the store records of it.
    fn answer(&self) -> Answer<'_> {
        Answer {
            url: self.url.clone(),
            outcome: &self.refreshed,
            notes: self.notes.clone(),
        }
    }

    /// The refresh result once the store answered (`Err`: why it could not record).
    fn into_result(self, recorded: Result<Vec<StoredEntry>, RefreshError>) -> FeedRefresh {
        let (new_entries, error) = match recorded {
            Ok(fresh) => (fresh, self.failure),
            Err(e) => (Vec::new(), Some(e)),
        };
        FeedRefresh {
            url: self.url,
            title: self.title,
            new_entries,
            error,
        }
    }
}

/// Refresh every subscription; `on_done(done, total, result)` is called as each finishes
/// (progress). Results come back in subscription order. Fetches run in spawned tasks; the
/// answers that arrive together are merged into the store in one locked rewrite (on a
/// blocking thread), so a hundred feeds do not cost a hundred rewrites of the file.
pub async fn refresh_all(
    client: &Arc<Client>,
    mut on_done: impl FnMut(usize, usize, &FeedRefresh),
) -> Result<Vec<FeedRefresh>, StoreError> {
    let subs = client.subscriptions().list()?;
    let total = subs.len();
    // The copies of pages no longer followed (unfollowed, adopted elsewhere) go.
    let pages: std::collections::HashSet<String> = subs
        .iter()
        .filter(|s| s.is_page())
        .map(|s| s.url.clone())
        .collect();
    if let Err(e) = client.follows().retain(&pages) {
        tracing::warn!("cannot tidy the copies of followed pages: {e}");
    }
    let mut by_host: BTreeMap<String, Vec<(usize, Target)>> = BTreeMap::new();
    // Grouped by the key the batch pacer uses, so one group is one pacing queue.
    for (i, s) in subs.iter().enumerate() {
        by_host
            .entry(host_of(&s.url))
            .or_default()
            .push((i, Target::of(s)));
    }
    let limit = client.config.feeds.refresh_concurrency.max(1);
    let slots = Arc::new(tokio::sync::Semaphore::new(limit));
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<(usize, Fetch)>();
    let mut tasks = tokio::task::JoinSet::new();
    for (_, feeds) in by_host {
        let (client, slots, tx) = (client.clone(), slots.clone(), tx.clone());
        tasks.spawn(async move {
            for (i, target) in feeds {
                let Ok(_slot) = slots.acquire().await else {
                    return;
                };
                // The turn is taken with the slot held, so the pause is measured from the
                // previous fetch's start, not from when it queued for a slot.
                client.batch_turn(&target.url).await;
                let _ = tx.send((i, client.fetch_for_refresh(&target).await));
            }
        });
    }
    drop(tx);
    let mut results: Vec<Option<FeedRefresh>> = vec![None; total];
    let mut done = 0;
    while let Some(first) = rx.recv().await {
        let mut batch = vec![first];
        while let Ok(more) = rx.try_recv() {
            batch.push(more);
        }
        for (i, r) in record_batch(client, batch).await {
            done += 1;
            on_done(done, total, &r);
            results[i] = Some(r);
        }
    }
    while tasks.join_next().await.is_some() {}
    Ok(subs
        .into_iter()
        .zip(results)
        .map(|(s, r)| r.unwrap_or_else(|| FeedRefresh::failed(s.url, RefreshError::Stopped)))
        .collect())
}

/// The URLs the person visited (as history keeps them, and as URLs print), so an entry
/// read before its feed was followed starts read. A history that cannot be read counts
/// nothing as visited: the entries then show unread, as before.
fn visited_in(history: &smolweb_store::history::History) -> std::collections::HashSet<String> {
    let mut out = std::collections::HashSet::new();
    for v in history.list().unwrap_or_default() {
        if let Ok(u) = smolweb_core::url::Url::parse(&v.url) {
            out.insert(u.to_string());
        }
        out.insert(v.url);
    }
    out
}

impl Client {
    fn visited_urls(&self) -> std::collections::HashSet<String> {
        visited_in(self.history())
    }
}

/// Merge a batch of fetched feeds into the store in one rewrite, off the async threads.
async fn record_batch(client: &Client, batch: Vec<(usize, Fetch)>) -> Vec<(usize, FeedRefresh)> {
    let store = client.subscriptions();
    let now = client.now();
    let history = client.history().clone();
    let keys: Vec<(usize, String)> = batch.iter().map(|(i, f)| (*i, f.url.clone())).collect();
    let joined = tokio::task::spawn_blocking(move || {
        let items: Vec<Answer<'_>> = batch.iter().map(|(_, f)| f.answer()).collect();
        let visited = visited_in(&history);
        let recorded = store.record_answers(&items, now, &visited);
        (batch, recorded)
    })
    .await;
    match joined {
        Ok((batch, Ok(lists))) => batch
            .into_iter()
            .zip(lists)
            .map(|((i, f), fresh)| (i, f.into_result(Ok(fresh))))
            .collect(),
        Ok((batch, Err(e))) => {
            let e = Arc::new(e);
            batch
                .into_iter()
                .map(|(i, f)| (i, f.into_result(Err(RefreshError::Store(e.clone())))))
                .collect()
        }
        Err(e) => {
            let e = Arc::new(e);
            keys.into_iter()
                .map(|(i, url)| {
                    (
                        i,
                        FeedRefresh::failed(url, RefreshError::StoreTask(e.clone())),
                    )
                })
                .collect()
        }
    }
}

/// The pacing key of a URL's host (the whole string, lowercased, when it does not parse).
pub(crate) fn host_of(url: &str) -> String {
    Url::parse(url).map_or_else(|_| super::host_key(url), |u| super::host_key(u.host()))
}
