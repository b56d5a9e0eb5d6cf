//! Persistent history of visited URLs (never with a query: it may hold a secret answer).
//! Bounded (newest kept), most recent first, deduplicated by URL.

use super::StoreError;
use super::list_file::{ListFile, ListItem};
use smolweb_core::url::strip_query;
use std::path::PathBuf;
use time::OffsetDateTime;

/// Most visits kept; older ones are dropped when a visit is recorded.
pub const MAX_HISTORY: usize = 2000;

/// One visited URL.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Visit {
    /// The URL without its query (a query may hold a secret answer).
    pub url: String,
    /// The page's title, when it had one.
    pub title: Option<String>,
    /// When it was last visited (whole seconds).
    #[serde(with = "time::serde::rfc3339")]
    pub at: OffsetDateTime,
}

/// On disk: `[[visit]]` tables, most recent first.
impl ListItem for Visit {
    const TABLE: &'static str = "visit";
    fn header() -> String {
        "# smolweb history, most recent first (URLs are stored without their query).\n".into()
    }
}

/// The history file.
#[derive(Clone, Debug)]
pub struct History {
    file: ListFile<Visit>,
}

impl History {
    /// The history file at `path` (nothing is read or created yet).
    pub fn new(path: PathBuf) -> History {
        History {
            file: ListFile::new(path),
        }
    }
    /// The file this store reads and writes.
    pub fn path(&self) -> &std::path::Path {
        self.file.path()
    }
    /// Record a visit: the query is stripped, an earlier visit of the same URL moves to the
    /// front (keeping the new title, or the old one when none is given), and the list is cut
    /// to [`MAX_HISTORY`].
    pub fn record(
        &self,
        url: &str,
        title: Option<&str>,
        now: OffsetDateTime,
    ) -> Result<(), StoreError> {
        let url = strip_query(url.trim());
        if url.is_empty() {
            return Ok(());
        }
        let now = now.replace_nanosecond(0).unwrap_or(now);
        self.file.update(|visits| {
            let old = visits
                .iter()
                .position(|v| v.url == url)
                .map(|i| visits.remove(i));
            let title = title
                .map(|t| t.trim().to_string())
                .filter(|t| !t.is_empty())
                .or_else(|| old.and_then(|v| v.title));
            visits.insert(
                0,
                Visit {
                    url: url.to_string(),
                    title,
                    at: now,
                },
            );
            visits.truncate(MAX_HISTORY);
            Ok(((), true))
        })
    }
    /// Visits, most recent first.
    pub fn list(&self) -> Result<Vec<Visit>, StoreError> {
        self.file.read()
    }
    /// Forget the visit of `url` (its query, if any, ignored). Returns whether it was there.
    pub fn remove(&self, url: &str) -> Result<bool, StoreError> {
        let url = strip_query(url.trim()).to_string();
        self.file.update(|visits| {
            let before = visits.len();
            visits.retain(|v| v.url != url);
            let gone = visits.len() != before;
            Ok((gone, gone))
        })
    }
    /// Forget every visit. Returns how many there were.
    pub fn clear(&self) -> Result<usize, StoreError> {
        self.file.update(|visits| {
            let n = visits.len();
            visits.clear();
            Ok((n, n > 0))
        })
    }
}
