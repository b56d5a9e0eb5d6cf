//! The human's subscriptions and what was read, in `subscriptions.toml` in the data directory.
//!
//! Every change goes through [`ListFile::update`] (lock, re-read, merge, atomic replace), so a
//! browser and a CLI refreshing at once both keep their entries: a refresh adds the entries it
//! saw to what is on disk at that moment (union by entry URL), and marking read only ever sets
//! flags. An entry keeps its `read` flag and `first_seen` time across refreshes. Each
//! subscription keeps at most [`MAX_ENTRIES`] entries (newest by date, then first seen).
//! Subscription URLs are stored normalized ([`smolweb_core::feed::subscription_url`]).

use super::StoreError;
use super::list_file::{ListFile, ListItem};
use smolweb_core::feed::{self, Entry};
use std::collections::HashSet;
use std::path::{Path, PathBuf};
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
    /// Newest first.
    #[serde(default, rename = "entry")]
    pub entries: Vec<StoredEntry>,
}

impl Subscription {
    /// The title to show: the feed's, else its URL.
    pub fn name(&self) -> &str {
        self.title.as_deref().unwrap_or(&self.url)
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
    /// The feed was fetched and parsed.
    Ok {
        /// The feed's title, when it gives one (kept from before otherwise).
        title: Option<String>,
        /// Its entries, in feed order.
        entries: Vec<Entry>,
    },
    /// The fetch or the parse failed; the entries on disk are kept.
    Failed(String),
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

/// The subscriptions file.
#[derive(Clone, Debug)]
pub struct Subscriptions {
    file: ListFile<Subscription>,
}

impl Subscriptions {
    /// The subscriptions file at `path` (nothing is read or created yet).
    pub fn new(path: PathBuf) -> Subscriptions {
        Subscriptions {
            file: ListFile::new(path),
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
        self.file.update(mutate)
    }

    /// All subscriptions, in the order they were added.
    pub fn list(&self) -> Result<Vec<Subscription>, StoreError> {
        self.file.read()
    }

    /// One subscription by URL (normalized first).
    pub fn get(&self, url: &str) -> Result<Option<Subscription>, StoreError> {
        let url = normalize(url)?;
        Ok(self.list()?.into_iter().find(|s| s.url == url))
    }

    /// Follow `url`. Returns the stored (normalized) URL and whether it was new.
    pub fn add(&self, url: &str, now: OffsetDateTime) -> Result<(String, bool), StoreError> {
        let url = normalize(url)?;
        self.update(|subs| {
            if subs.iter().any(|s| s.url == url) {
                return Ok(((url.clone(), false), false));
            }
            subs.push(Subscription {
                url: url.clone(),
                title: None,
                added: second(now),
                refreshed: None,
                error: None,
                sync_links: None,
                entries: Vec::new(),
            });
            Ok(((url.clone(), true), true))
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
            for (url, outcome) in batch {
                let Some(sub) = subs.iter_mut().find(|s| s.url == *url) else {
                    out.push(Vec::new());
                    continue;
                };
                changed = true;
                out.push(match outcome {
                    Refreshed::Failed(_) if fresh_success(sub, now) => {
                        // Another process (the browser's background refresh, a CLI `feeds
                        // add`) read this feed moments ago: its answer stands, and this
                        // failure, most likely the two colliding at the capsule, is not
                        // recorded over it.
                        Vec::new()
                    }
                    Refreshed::Failed(reason) => {
                        sub.refreshed = Some(now);
                        sub.error = Some(feed::one_line(reason));
                        Vec::new()
                    }
                    Refreshed::Ok { title, entries } => {
                        sub.refreshed = Some(now);
                        sub.error = None;
                        if title.is_some() {
                            sub.title = title.clone();
                        }
                        merge(sub, entries, now, &seen)
                    }
                });
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
    for e in entries {
        if let Some(known) = sub.entries.iter_mut().find(|k| k.url == e.url) {
            known.title = e.title.clone();
            if e.published.is_some() {
                known.published = e.published.clone();
            }
            continue;
        }
        if fresh.iter().any(|f: &StoredEntry| f.url == e.url) {
            continue;
        }
        fresh.push(StoredEntry {
            url: e.url.clone(),
            title: e.title.clone(),
            published: e.published.clone(),
            first_seen: now,
            read: seen(&e.url),
        });
    }
    sub.entries.extend(fresh.iter().cloned());
    sub.entries
        .sort_by_cached_key(|e| std::cmp::Reverse((e.sort_key().into_owned(), e.first_seen)));
    sub.entries.truncate(MAX_ENTRIES);
    fresh.retain(|f| sub.entries.iter().any(|e| e.url == f.url));
    fresh
}
