//! The human's subscriptions and what was read, in `subscriptions.toml` in the data directory.
//!
//! Every change goes through [`ListFile::update`] (lock, re-read, merge, atomic replace), so a
//! browser and a CLI refreshing at once both keep their entries: a refresh adds the entries it
//! saw to what is on disk at that moment (union by entry URL), and marking read only ever sets
//! flags. An entry keeps its `read` flag and `first_seen` time across refreshes. Each
//! subscription keeps at most [`MAX_ENTRIES`] entries (newest by date, then first seen).
//! Subscription URLs are stored normalized ([`smolweb_core::feed::subscription_url`]).
//!
//! A subscription is a feed, or a page followed for its changes ([`Subscription::changes`];
//! at most [`MAX_FOLLOWED_PAGES`]), whose entries are its changes (`about:changes?…` URLs,
//! at most [`crate::follows::MAX_CHANGES`]). Each keeps its health: the last success, the
//! failures in a row since when and the last error, a permanent redirect's target, and for a
//! page whether it is restless. An entry's date in the future or before 1970 is not kept
//! ([`smolweb_core::feed::plausible_date`]).

use super::StoreError;
use super::file_cache::FileCache;
use super::list_file::{ListFile, ListItem};
use smolweb_core::feed::{self, Entry};
use smolweb_core::follow::Watch;
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use time::OffsetDateTime;

/// Most entries remembered per subscription.
pub const MAX_ENTRIES: usize = 300;

/// One remembered entry of a subscription.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StoredEntry {
    /// The entry's URL (entries are told apart by it).
    pub url: String,
    /// The entry's title from the last refresh that listed it.
    pub title: String,
    /// RFC 3339 UTC as the feed gave it (see [`smolweb_core::feed::Entry`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub published: Option<String>,
    /// When a refresh first saw this entry.
    #[serde(with = "time::serde::rfc3339")]
    pub first_seen: OffsetDateTime,
    /// Has the human read it?
    #[serde(default)]
    pub read: bool,
}

impl StoredEntry {
    /// The time the entry is sorted and grouped by: its date, else when it was first seen.
    pub fn sort_key(&self) -> std::borrow::Cow<'_, str> {
        match &self.published {
            Some(p) => std::borrow::Cow::Borrowed(p.as_str()),
            None => std::borrow::Cow::Owned(iso(self.first_seen)),
        }
    }
}

/// One followed feed.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Subscription {
    /// The feed's URL, normalized ([`smolweb_core::feed::subscription_url`]).
    pub url: String,
    /// The feed's title from the last successful refresh.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// When it was followed.
    #[serde(with = "time::serde::rfc3339")]
    pub added: OffsetDateTime,
    /// When the last refresh finished (success or failure).
    #[serde(
        default,
        with = "time::serde::rfc3339::option",
        skip_serializing_if = "Option::is_none"
    )]
    pub refreshed: Option<OffsetDateTime>,
    /// Why the last refresh failed (None after a success).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Whether `smolweb sync` also keeps the pages each entry links to on the same capsule
    /// (one level). None: the `[sync] follow_links` default of the config.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sync_links: Option<bool>,
    /// A page followed for its changes, and what counts as one (None: a feed). Its copy and
    /// its changes are in [`crate::follows`]; its entries are its changes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub changes: Option<Watch>,
    /// When the last successful refresh ended (None: never, or not recorded before 0.4).
    #[serde(
        default,
        with = "time::serde::rfc3339::option",
        skip_serializing_if = "Option::is_none"
    )]
    pub succeeded: Option<OffsetDateTime>,
    /// Refreshes that failed in a row (0 after a success).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub failures: u32,
    /// When the current run of failures began.
    #[serde(
        default,
        with = "time::serde::rfc3339::option",
        skip_serializing_if = "Option::is_none"
    )]
    pub failing_since: Option<OffsetDateTime>,
    /// Where a permanent redirect sent the last refresh (the feed or page moved there);
    /// `smolweb feeds adopt` follows it there ([`Subscriptions::adopt`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub moved_to: Option<String>,
    /// A followed page that changes at every refresh: its changes are not listed
    /// ([`smolweb_core::follow::judge`]).
    #[serde(default, skip_serializing_if = "is_false")]
    pub restless: bool,
    /// A followed page longer than the copy kept: only its beginning is compared.
    #[serde(default, skip_serializing_if = "is_false")]
    pub cut: bool,
    /// The `ETag` of the last answer over http(s), sent back as `If-None-Match`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub etag: Option<String>,
    /// The `Last-Modified` of the last answer over http(s), sent back as
    /// `If-Modified-Since`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_modified: Option<String>,
    /// Newest first.
    #[serde(default, rename = "entry")]
    pub entries: Vec<StoredEntry>,
}

impl Subscription {
    /// A subscription just added (nothing refreshed yet): a feed, or (`changes`) a page
    /// followed for its changes.
    pub fn new(url: String, now: OffsetDateTime, changes: Option<Watch>) -> Subscription {
        Subscription {
            url,
            title: None,
            added: second(now),
            refreshed: None,
            error: None,
            sync_links: None,
            changes,
            succeeded: None,
            failures: 0,
            failing_since: None,
            moved_to: None,
            restless: false,
            cut: false,
            etag: None,
            last_modified: None,
            entries: Vec::new(),
        }
    }
    /// The title to show: the feed's, else its URL.
    pub fn name(&self) -> &str {
        self.title.as_deref().unwrap_or(&self.url)
    }
    /// When the last successful refresh ended: recorded since 0.4, else the last refresh
    /// when it did not fail.
    pub fn last_success(&self) -> Option<OffsetDateTime> {
        self.succeeded
            .or(self.refreshed.filter(|_| self.error.is_none()))
    }
    /// Is this a page followed for its changes (not a feed)?
    pub fn is_page(&self) -> bool {
        self.changes.is_some()
    }
    /// How many of its entries are unread.
    pub fn unread(&self) -> usize {
        self.entries.iter().filter(|e| !e.read).count()
    }
    /// When it was last tried, for people: "refreshed <time>", "refresh failed <time>" (the
    /// time is when the last try ended, failed or not), or "never refreshed".
    pub fn last_try(&self) -> String {
        let tried = match self.error {
            Some(_) => "refresh failed",
            None => "refreshed",
        };
        self.refreshed.map_or_else(
            || "never refreshed".to_string(),
            |t| format!("{tried} {}", smolweb_core::text::readable_time(t)),
        )
    }
}

/// What one refresh of one feed brought.
#[derive(Clone, Debug)]
pub enum Refreshed {
    /// The feed was fetched and parsed (a followed page: compared; its entries are all its
    /// kept changes). An answer that says the copy held is current (HTTP 304) is `Ok` with
    /// no title and no entries.
    Ok {
        /// The feed's title, when it gives one (kept from before otherwise).
        title: Option<String>,
        /// Its entries, in feed order.
        entries: Vec<Entry>,
    },
    /// The fetch or the parse failed; the entries on disk are kept.
    Failed(String),
}

/// What a refresh learned besides its entries, recorded with it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Notes {
    /// A permanent redirect's target (None: no permanent redirect on the way).
    pub moved_to: Option<String>,
    /// The answer's `ETag` (http(s); replaces the one kept after a success).
    pub etag: Option<String>,
    /// The answer's `Last-Modified` (http(s); replaces the one kept after a success).
    pub last_modified: Option<String>,
    /// A followed page: whether it is restless now (None: leave as it is).
    pub restless: Option<bool>,
    /// A followed page: whether its copy was cut (None: leave as it is).
    pub cut: Option<bool>,
}

/// One subscription's refresh, to record.
#[derive(Clone, Debug)]
pub struct Answer<'a> {
    /// The subscription's stored (normalized) URL.
    pub url: String,
    /// What the refresh brought.
    pub outcome: &'a Refreshed,
    /// What it learned besides.
    pub notes: Notes,
}

/// Most pages followed for their changes (each keeps a copy of up to
/// [`smolweb_core::follow::MAX_TEXT_BYTES`] and its last [`crate::follows::MAX_CHANGES`]
/// changes).
pub const MAX_FOLLOWED_PAGES: usize = 500;

fn is_zero(n: &u32) -> bool {
    *n == 0
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// On disk: `[[subscription]]` tables, each with its `[[subscription.entry]]` tables.
impl ListItem for Subscription {
    const TABLE: &'static str = "subscription";
    fn header() -> String {
        "# smolweb subscriptions and read state (shared by the browser, the CLI and the MCP server).\n"
            .into()
    }
}

use smolweb_core::text::rfc3339 as iso;

fn second(t: OffsetDateTime) -> OffsetDateTime {
    t.replace_nanosecond(0).unwrap_or(t)
}

/// The subscriptions file, and its parsed copy ([`crate::file_cache`]): the clones of one
/// store share the copy, so a process that keeps one store (the client does) parses the file
/// once per change, by whichever process, instead of at every read.
#[derive(Clone, Debug)]
pub struct Subscriptions {
    file: ListFile<Subscription>,
    cache: Arc<FileCache<Vec<Subscription>>>,
}

impl Subscriptions {
    /// The subscriptions file at `path` (nothing is read or created yet).
    pub fn new(path: PathBuf) -> Subscriptions {
        Subscriptions {
            file: ListFile::new(path),
            cache: Arc::default(),
        }
    }
    /// The file this store reads and writes.
    pub fn path(&self) -> &Path {
        self.file.path()
    }

    fn update<R>(
        &self,
        mutate: impl FnOnce(&mut Vec<Subscription>) -> Result<(R, bool), StoreError>,
    ) -> Result<R, StoreError> {
        self.file.update_cached(&self.cache, mutate)
    }

    /// All subscriptions, in the order they were added.
    pub fn list(&self) -> Result<Vec<Subscription>, StoreError> {
        Ok(self.shared()?.as_ref().clone())
    }

    /// All subscriptions, in the order they were added, as the file holds them now: the
    /// parsed copy itself, shared (no copy of 10,000 entries for a page that only reads them).
    pub fn shared(&self) -> Result<Arc<Vec<Subscription>>, StoreError> {
        self.file.read_cached(&self.cache)
    }

    /// One subscription by URL (normalized first).
    pub fn get(&self, url: &str) -> Result<Option<Subscription>, StoreError> {
        let url = normalize(url)?;
        Ok(self.shared()?.iter().find(|s| s.url == url).cloned())
    }

    /// Follow `url`. Returns the stored (normalized) URL and whether it was new.
    pub fn add(&self, url: &str, now: OffsetDateTime) -> Result<(String, bool), StoreError> {
        let url = normalize(url)?;
        self.update(|subs| {
            if subs.iter().any(|s| s.url == url) {
                return Ok(((url.clone(), false), false));
            }
            subs.push(Subscription::new(url.clone(), now, None));
            Ok(((url.clone(), true), true))
        })
    }

    /// Follow the page at `url` for its changes, `watch` saying which count. Returns the
    /// stored URL and whether it was new; a page followed already takes the new `watch`. A
    /// feed followed at that URL is refused (`Exists`), as is a page beyond
    /// [`MAX_FOLLOWED_PAGES`] (`Invalid`).
    pub fn follow(
        &self,
        url: &str,
        watch: Watch,
        now: OffsetDateTime,
    ) -> Result<(String, bool), StoreError> {
        let url = normalize(url)?;
        self.update(|subs| {
            if let Some(sub) = subs.iter_mut().find(|s| s.url == url) {
                return match sub.changes {
                    None => Err(StoreError::Exists(format!("{url} is followed as a feed"))),
                    Some(w) => {
                        sub.changes = Some(watch);
                        Ok(((url.clone(), false), w != watch))
                    }
                };
            }
            if subs.iter().filter(|s| s.is_page()).count() >= MAX_FOLLOWED_PAGES {
                return Err(StoreError::Invalid(format!(
                    "at most {MAX_FOLLOWED_PAGES} pages are followed for changes: stop following one first"
                )));
            }
            subs.push(Subscription::new(url.clone(), now, Some(watch)));
            Ok(((url.clone(), true), true))
        })
    }

    /// Follow a subscription to the address a permanent redirect gave it
    /// ([`Subscription::moved_to`]): its entries and read state move with it, and it is due
    /// for a refresh. When that address is followed already, the old subscription is dropped
    /// and the one there kept. Returns the subscription as it is now; `NotFound` when `url`
    /// is not followed, `Invalid` when it has not moved.
    pub fn adopt(&self, url: &str) -> Result<Subscription, StoreError> {
        let url = normalize(url)?;
        self.update(|subs| {
            let i = subs
                .iter()
                .position(|s| s.url == url)
                .ok_or_else(|| StoreError::NotFound(format!("no subscription to {url}")))?;
            let target = match &subs[i].moved_to {
                Some(t) => normalize(t)?,
                None => {
                    return Err(StoreError::Invalid(format!(
                        "{url} has not moved (no permanent redirect at its last refresh)"
                    )));
                }
            };
            if let Some(there) = subs.iter().find(|s| s.url == target).cloned() {
                subs.remove(i);
                return Ok((there, true));
            }
            let sub = &mut subs[i];
            sub.url = target;
            sub.moved_to = None;
            sub.refreshed = None;
            sub.error = None;
            sub.failures = 0;
            sub.failing_since = None;
            sub.etag = None;
            sub.last_modified = None;
            Ok((sub.clone(), true))
        })
    }

    /// Stop following `url` (its read state goes with it). `NotFound` when not followed.
    pub fn remove(&self, url: &str) -> Result<Subscription, StoreError> {
        let url = normalize(url)?;
        self.update(|subs| {
            let i = subs
                .iter()
                .position(|s| s.url == url)
                .ok_or_else(|| StoreError::NotFound(format!("no subscription to {url}")))?;
            Ok((subs.remove(i), true))
        })
    }

    /// Say whether `smolweb sync` keeps the same-capsule pages of `url`'s entries too (None:
    /// the config's default). Returns the subscription as stored; `NotFound` when not followed.
    pub fn set_sync_links(
        &self,
        url: &str,
        links: Option<bool>,
    ) -> Result<Subscription, StoreError> {
        let url = normalize(url)?;
        self.update(|subs| {
            let sub = subs
                .iter_mut()
                .find(|s| s.url == url)
                .ok_or_else(|| StoreError::NotFound(format!("no subscription to {url}")))?;
            let changed = sub.sync_links != links;
            sub.sync_links = links;
            Ok((sub.clone(), changed))
        })
    }

    /// Merge one refresh into what is on disk now and return the entries it saw first.
    /// A subscription removed meanwhile stays removed (nothing is returned).
    pub fn record(
        &self,
        url: &str,
        outcome: &Refreshed,
        now: OffsetDateTime,
    ) -> Result<Vec<StoredEntry>, StoreError> {
        self.record_visited(url, outcome, now, &HashSet::new())
    }

    /// [`Subscriptions::record`], with new entries in `visited` starting read (see
    /// [`Subscriptions::record_many_visited`]).
    pub fn record_visited(
        &self,
        url: &str,
        outcome: &Refreshed,
        now: OffsetDateTime,
        visited: &HashSet<String>,
    ) -> Result<Vec<StoredEntry>, StoreError> {
        let url = normalize(url)?;
        let mut fresh = self.record_many_visited(&[(url, outcome)], now, visited)?;
        Ok(fresh.pop().unwrap_or_default())
    }

    /// [`Subscriptions::record`] for several feeds in one locked rewrite of the file (what a
    /// refresh of many feeds does with the answers that arrived together). `batch` holds
    /// stored (normalized) URLs; the result has one list of new entries per element.
    pub fn record_many(
        &self,
        batch: &[(String, &Refreshed)],
        now: OffsetDateTime,
    ) -> Result<Vec<Vec<StoredEntry>>, StoreError> {
        self.record_many_visited(batch, now, &HashSet::new())
    }

    /// [`Subscriptions::record_many`], where an entry seen for the first time starts read
    /// when its URL is in `visited` (the person's history: a post read before its feed was
    /// followed) or is read in another subscription (a gemlog and its own Atom feed).
    pub fn record_many_visited(
        &self,
        batch: &[(String, &Refreshed)],
        now: OffsetDateTime,
        visited: &HashSet<String>,
    ) -> Result<Vec<Vec<StoredEntry>>, StoreError> {
        let answers: Vec<Answer<'_>> = batch
            .iter()
            .map(|(url, outcome)| Answer {
                url: url.clone(),
                outcome,
                notes: Notes::default(),
            })
            .collect();
        self.record_answers(&answers, now, visited)
    }

    /// [`Subscriptions::record_many_visited`] with what each refresh learned besides its
    /// entries: a success resets the failures and records its time, redirect and validators;
    /// a failure counts one more in a row.
    pub fn record_answers(
        &self,
        batch: &[Answer<'_>],
        now: OffsetDateTime,
        visited: &HashSet<String>,
    ) -> Result<Vec<Vec<StoredEntry>>, StoreError> {
        let now = second(now);
        self.update(|subs| {
            let read_elsewhere: HashSet<String> = subs
                .iter()
                .flat_map(|s| s.entries.iter())
                .filter(|e| e.read)
                .map(|e| e.url.clone())
                .collect();
            let seen = |url: &str| visited.contains(url) || read_elsewhere.contains(url);
            let mut changed = false;
            let mut out = Vec::with_capacity(batch.len());
            for answer in batch {
                let Some(sub) = subs.iter_mut().find(|s| s.url == answer.url) else {
                    out.push(Vec::new());
                    continue;
                };
                changed = true;
                out.push(record_one(sub, answer, now, &seen));
            }
            Ok((out, changed))
        })
    }

    /// Mark every entry with this URL read (in all subscriptions). Returns whether one was
    /// unread. Nothing is written when nothing changes.
    pub fn mark_read(&self, entry_url: &str) -> Result<bool, StoreError> {
        self.update(|subs| {
            let mut changed = false;
            for e in subs
                .iter_mut()
                .flat_map(|s| s.entries.iter_mut())
                .filter(|e| e.url == entry_url && !e.read)
            {
                e.read = true;
                changed = true;
            }
            Ok((changed, changed))
        })
    }

    /// Mark all entries read, of one subscription or (None) of all. Returns how many changed.
    pub fn mark_all_read(&self, url: Option<&str>) -> Result<usize, StoreError> {
        let url = url.map(normalize).transpose()?;
        self.update(|subs| {
            let mut n = 0;
            for sub in subs
                .iter_mut()
                .filter(|s| url.as_ref().is_none_or(|u| *u == s.url))
            {
                for e in sub.entries.iter_mut().filter(|e| !e.read) {
                    e.read = true;
                    n += 1;
                }
            }
            Ok((n, n > 0))
        })
    }
}

/// Merge one answer into its subscription; the entries it saw first.
fn record_one(
    sub: &mut Subscription,
    answer: &Answer<'_>,
    now: OffsetDateTime,
    seen: &dyn Fn(&str) -> bool,
) -> Vec<StoredEntry> {
    let notes = &answer.notes;
    match answer.outcome {
        Refreshed::Failed(_) if fresh_success(sub, now) => {
            // Another process (the browser's background refresh, a CLI `feeds add`) read
            // this feed moments ago: its answer stands, and this failure, most likely the
            // two colliding at the capsule, is not recorded over it.
            Vec::new()
        }
        Refreshed::Failed(reason) => {
            sub.refreshed = Some(now);
            sub.error = Some(feed::one_line(reason));
            sub.failures = sub.failures.saturating_add(1);
            sub.failing_since = sub.failing_since.or(Some(now));
            if notes.moved_to.is_some() {
                sub.moved_to = notes.moved_to.clone();
            }
            Vec::new()
        }
        Refreshed::Ok { title, entries } => {
            sub.refreshed = Some(now);
            sub.succeeded = Some(now);
            sub.error = None;
            sub.failures = 0;
            sub.failing_since = None;
            sub.moved_to = notes.moved_to.clone();
            sub.etag = notes.etag.clone();
            sub.last_modified = notes.last_modified.clone();
            if let Some(r) = notes.restless {
                sub.restless = r;
            }
            if let Some(c) = notes.cut {
                sub.cut = c;
            }
            if title.is_some() {
                sub.title = title.clone();
            }
            merge(sub, entries, now, seen)
        }
    }
}

/// How recent another process's successful refresh must be for a failure not to replace it.
pub(crate) const FRESH_SUCCESS: time::Duration = time::Duration::minutes(2);

/// The feed was read without error within [`FRESH_SUCCESS`] of `now`.
fn fresh_success(sub: &Subscription, now: OffsetDateTime) -> bool {
    sub.error.is_none()
        && sub
            .refreshed
            .is_some_and(|t| now - t <= FRESH_SUCCESS && t <= now)
}

/// A subscription URL in stored form, or `Invalid` with the reason.
fn normalize(url: &str) -> Result<String, StoreError> {
    feed::subscription_url(url).map_err(|e| StoreError::Invalid(e.to_string()))
}

/// Add the entries not known yet (by URL), refresh titles and dates of known ones, keep the
/// newest [`MAX_ENTRIES`]. Returns the new ones, in feed order.
fn merge(
    sub: &mut Subscription,
    entries: &[Entry],
    now: OffsetDateTime,
    seen: &dyn Fn(&str) -> bool,
) -> Vec<StoredEntry> {
    let mut fresh = Vec::new();
    // A date in the future or before 1970 is the feed's mistake: the entry is kept undated
    // (sorted by when it was first seen), so it neither sits on top of the list for ever
    // nor makes a silent feed look alive.
    let date = |e: &Entry| e.published.clone().filter(|p| feed::plausible_date(p, now));
    for e in entries {
        if let Some(known) = sub.entries.iter_mut().find(|k| k.url == e.url) {
            known.title = e.title.clone();
            if let Some(p) = date(e) {
                known.published = Some(p);
            }
            continue;
        }
        if fresh.iter().any(|f: &StoredEntry| f.url == e.url) {
            continue;
        }
        fresh.push(StoredEntry {
            url: e.url.clone(),
            title: e.title.clone(),
            published: date(e),
            first_seen: now,
            read: seen(&e.url),
        });
    }
    sub.entries.extend(fresh.iter().cloned());
    sub.entries
        .sort_by_cached_key(|e| std::cmp::Reverse((e.sort_key().into_owned(), e.first_seen)));
    sub.entries.truncate(match sub.changes {
        Some(_) => crate::follows::MAX_CHANGES,
        None => MAX_ENTRIES,
    });
    fresh.retain(|f| sub.entries.iter().any(|e| e.url == f.url));
    fresh
}
