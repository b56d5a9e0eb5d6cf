//! Pages the person asked to have fetched at the next `smolweb sync`: a link followed while
//! working offline, to a page that is not kept, is queued here instead of fetched.
//!
//! `sync_queue.toml` holds `[[queued]]` entries: the URL (as the person followed it, without
//! fragment, never with a query: that may be an answer to a prompt), when it was queued and where from. At most [`MAX_QUEUED`] wait; a new one past
//! that drops the oldest. `smolweb sync` fetches each into the offline cache and takes it off
//! ([`SyncQueue::take`]); `about:offline` lists what waits.

use super::StoreError;
use super::activity::clean_url;
use super::list_file::{ListFile, ListItem};
use std::path::PathBuf;
use time::OffsetDateTime;

/// Most pages waiting at once.
pub(crate) const MAX_QUEUED: usize = 500;

/// A page waiting for the next sync.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Queued {
    /// The page, without fragment.
    pub url: String,
    /// When it was queued (whole seconds).
    #[serde(with = "time::serde::rfc3339")]
    pub at: OffsetDateTime,
    /// The page it was linked from, if known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    /// Syncs that tried to fetch it and failed for a reason that may pass (the network, a
    /// capsule's temporary failure); a sync gives up after [`MAX_TRIES`].
    #[serde(default, skip_serializing_if = "is_zero")]
    pub tries: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// Failed tries after which a sync drops a queued page.
pub const MAX_TRIES: u32 = 3;

impl ListItem for Queued {
    const TABLE: &'static str = "queued";
    fn header() -> String {
        "# smolweb: pages to fetch into the offline cache at the next `smolweb sync`.\n".into()
    }
}

/// The sync queue file.
#[derive(Clone, Debug)]
pub struct SyncQueue {
    file: ListFile<Queued>,
}

fn without_fragment(url: &str) -> &str {
    url.split_once('#').map_or(url, |(before, _)| before)
}

impl SyncQueue {
    /// The file at `path` (nothing is read or created yet).
    pub fn new(path: PathBuf) -> SyncQueue {
        SyncQueue {
            file: ListFile::new(path),
        }
    }
    /// The file this store reads and writes.
    pub fn path(&self) -> &std::path::Path {
        self.file.path()
    }
    /// Queue a page; one already waiting keeps its place and time. Returns whether it was new.
    pub fn add(
        &self,
        url: &str,
        from: Option<&str>,
        now: OffsetDateTime,
    ) -> Result<bool, StoreError> {
        let url = without_fragment(url).trim().to_string();
        if url.is_empty() || url.chars().any(char::is_control) {
            return Err(StoreError::Invalid("not a URL to queue".into()));
        }
        if url.contains('?') {
            // A query may be an answer to a capsule's prompt: never written down, never kept.
            return Err(StoreError::Invalid(
                "a page with a query is not kept offline".into(),
            ));
        }
        let from = from.map(clean_url).filter(|f| !f.is_empty());
        let now = now.replace_nanosecond(0).unwrap_or(now);
        self.file.update(|list| {
            if list.iter().any(|q| q.url == url) {
                return Ok((false, false));
            }
            let queued = Queued {
                url,
                at: now,
                from,
                tries: 0,
            };
            super::list_file::push_bounded(list, queued, MAX_QUEUED);
            Ok((true, true))
        })
    }
    /// Whether a page waits.
    pub fn contains(&self, url: &str) -> Result<bool, StoreError> {
        let url = without_fragment(url);
        Ok(self.file.read()?.iter().any(|q| q.url == url))
    }
    /// Waiting pages, oldest first (the order a sync fetches them).
    pub fn list(&self) -> Result<Vec<Queued>, StoreError> {
        self.file.read()
    }
    /// Take a page off the queue (fetched, or given up by the person). Returns whether it
    /// was there.
    pub fn take(&self, url: &str) -> Result<bool, StoreError> {
        let url = without_fragment(url);
        self.file.update(|list| {
            let before = list.len();
            list.retain(|q| q.url != url);
            let changed = list.len() != before;
            Ok((changed, changed))
        })
    }
    /// Count a failed try of a waiting page; at [`MAX_TRIES`] it is taken off. Returns the
    /// tries counted so far (None: it was not waiting, e.g. the browser took it off meanwhile).
    pub fn failed(&self, url: &str) -> Result<Option<u32>, StoreError> {
        let url = without_fragment(url);
        self.file.update(|list| {
            let Some(i) = list.iter().position(|q| q.url == url) else {
                return Ok((None, false));
            };
            let tries = list[i].tries.saturating_add(1);
            if tries >= MAX_TRIES {
                list.remove(i);
            } else {
                list[i].tries = tries;
            }
            Ok((Some(tries), true))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: i64) -> OffsetDateTime {
        OffsetDateTime::from_unix_timestamp(1_800_000_000 + s).unwrap()
    }

    #[test]
    fn queue_keeps_order_dedupes_and_takes() {
        let dir = tempfile::tempdir().unwrap();
        let q = SyncQueue::new(dir.path().join("sync_queue.toml"));
        assert!(q.list().unwrap().is_empty());
        assert!(
            q.add("gemini://a.test/one#part", Some("gemini://a.test/"), at(1))
                .unwrap()
        );
        assert!(q.add("https://b.test/two", None, at(2)).unwrap());
        assert!(!q.add("gemini://a.test/one", None, at(3)).unwrap());
        let list = q.list().unwrap();
        let urls: Vec<_> = list.iter().map(|e| e.url.as_str()).collect();
        assert_eq!(urls, ["gemini://a.test/one", "https://b.test/two"]);
        assert_eq!(list[0].at, at(1));
        assert_eq!(list[0].from.as_deref(), Some("gemini://a.test/"));
        assert!(q.contains("gemini://a.test/one#x").unwrap());
        assert!(q.take("gemini://a.test/one").unwrap());
        assert!(!q.take("gemini://a.test/one").unwrap());
        assert!(!q.contains("gemini://a.test/one").unwrap());
        assert_eq!(q.list().unwrap().len(), 1);
    }

    #[test]
    fn failed_tries_are_counted_and_the_third_drops_the_page() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sync_queue.toml");
        let q = SyncQueue::new(path.clone());
        q.add("gemini://a.test/one", None, at(1)).unwrap();
        assert_eq!(q.failed("gemini://a.test/one").unwrap(), Some(1));
        assert_eq!(q.list().unwrap()[0].tries, 1);
        assert!(
            std::fs::read_to_string(&path)
                .unwrap()
                .contains("tries = 1")
        );
        assert_eq!(q.failed("gemini://a.test/one").unwrap(), Some(2));
        assert_eq!(q.failed("gemini://a.test/one").unwrap(), Some(MAX_TRIES));
        assert!(!q.contains("gemini://a.test/one").unwrap());
        assert_eq!(q.failed("gemini://a.test/one").unwrap(), None);
        // A file written before `tries` existed still reads (no tries yet).
        crate::perms::write_private(
            &path,
            "[[queued]]\nurl = \"gemini://a.test/old\"\nat = \"2027-01-15T08:00:00Z\"\n",
        )
        .unwrap();
        assert_eq!(q.list().unwrap()[0].tries, 0);
    }

    #[test]
    fn queue_is_bounded_and_refuses_junk() {
        let dir = tempfile::tempdir().unwrap();
        let q = SyncQueue::new(dir.path().join("sync_queue.toml"));
        assert!(q.add("", None, at(0)).is_err());
        assert!(q.add("gemini://a.test/\nx", None, at(0)).is_err());
        assert!(q.add("gemini://a.test/search?secret", None, at(0)).is_err());
        for i in 0..(MAX_QUEUED + 3) {
            q.add(&format!("gemini://a.test/{i}"), None, at(i as i64))
                .unwrap();
        }
        let list = q.list().unwrap();
        assert_eq!(list.len(), MAX_QUEUED);
        assert_eq!(list[0].url, "gemini://a.test/3");
    }

    #[test]
    fn a_corrupt_queue_is_an_error_and_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sync_queue.toml");
        crate::perms::write_private(&path, "this is = = not toml").unwrap();
        let q = SyncQueue::new(path.clone());
        assert!(q.list().is_err());
        assert!(q.add("gemini://a.test/", None, at(0)).is_err());
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "this is = = not toml"
        );
    }
}
