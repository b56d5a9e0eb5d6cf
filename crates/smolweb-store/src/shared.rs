//! Pages the person shared with agents: the browser's share key adds one, `about:agents`
//! removes it, and `smolweb --mcp` offers each as a resource (`smolweb://shared/ID`) and
//! through `shared_pages_list`.
//!
//! `shared_pages.toml` holds `[[page]]` entries: an id, the URL (without query: a query may
//! hold a secret answer), the page's title and the person's note, and when. Sharing a URL
//! already shared replaces its note and time and keeps its id. At most [`MAX_SHARED`] are
//! kept; past that the oldest goes.

use super::StoreError;
use super::activity::{clean_note, clean_url};
use super::list_file::{ListFile, ListItem};
use super::suggestions::MAX_NOTE_CHARS;
use std::path::PathBuf;
use time::OffsetDateTime;

/// Most pages shared at once.
pub(crate) const MAX_SHARED: usize = 100;

/// One shared page.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SharedPage {
    /// Short random id (8 hex digits).
    pub id: String,
    /// The page (without query).
    pub url: String,
    /// Its title, when it had one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The person's note, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// When it was shared (whole seconds).
    #[serde(with = "time::serde::rfc3339")]
    pub at: OffsetDateTime,
}

impl ListItem for SharedPage {
    const TABLE: &'static str = "page";
    fn header() -> String {
        "# smolweb: pages you shared with agents (they read them as resources).\n".into()
    }
}

/// The shared pages file.
#[derive(Clone, Debug)]
pub struct SharedPages {
    file: ListFile<SharedPage>,
}

impl SharedPages {
    /// The file at `path` (nothing is read or created yet).
    pub fn new(path: PathBuf) -> SharedPages {
        SharedPages {
            file: ListFile::new(path),
        }
    }
    /// The file this store reads and writes.
    pub fn path(&self) -> &std::path::Path {
        self.file.path()
    }
    /// Share a page (again: new note and time, same id). Returns it.
    pub fn add(
        &self,
        url: &str,
        title: Option<&str>,
        note: Option<&str>,
        now: OffsetDateTime,
    ) -> Result<SharedPage, StoreError> {
        let url = clean_url(url);
        if url.is_empty() {
            return Err(StoreError::Invalid("an empty URL".into()));
        }
        let now = now.replace_nanosecond(0).unwrap_or(now);
        self.file.update(|list| {
            let id = super::list_file::take_keeping_id(list, |p| p.url == url, |p| &p.id)?;
            let page = SharedPage {
                id,
                url,
                title: clean_note(title, 200),
                note: clean_note(note, MAX_NOTE_CHARS),
                at: now,
            };
            super::list_file::push_bounded(list, page.clone(), MAX_SHARED);
            Ok((page, true))
        })
    }
    /// The shared pages, newest first.
    pub fn list(&self) -> Result<Vec<SharedPage>, StoreError> {
        self.file.newest_first()
    }
    /// One page by id.
    pub fn get(&self, id: &str) -> Result<SharedPage, StoreError> {
        self.file
            .read()?
            .into_iter()
            .find(|p| p.id == id)
            .ok_or_else(|| StoreError::NotFound(format!("shared page {id}")))
    }
    /// Stop sharing a page.
    pub fn remove(&self, id: &str) -> Result<SharedPage, StoreError> {
        let taken = self.file.update(|list| {
            Ok(match list.iter().position(|p| p.id == id) {
                Some(i) => (Some(list.remove(i)), true),
                None => (None, false),
            })
        })?;
        taken.ok_or_else(|| StoreError::NotFound(format!("shared page {id}")))
    }
    /// A cheap signature of the file (length and modification time) to notice changes.
    pub fn stamp(&self) -> Option<(u64, u64, std::time::SystemTime)> {
        let meta = std::fs::symlink_metadata(self.file.path()).ok()?;
        let ino = super::activity::ino_of(&meta);
        Some((ino, meta.len(), meta.modified().ok()?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_are_shared_again_in_place_and_removed() {
        let dir = tempfile::tempdir().unwrap();
        let s = SharedPages::new(dir.path().join("shared_pages.toml"));
        let now = OffsetDateTime::from_unix_timestamp(1_700_000_000).unwrap();
        let before = s.stamp();
        let p = s
            .add("gemini://c.test/p?q", Some("Title"), Some("read this"), now)
            .unwrap();
        assert_eq!(p.url, "gemini://c.test/p");
        assert_ne!(s.stamp(), before);
        let q = s
            .add("gemini://c.test/p", None, Some("again"), now)
            .unwrap();
        assert_eq!(q.id, p.id);
        assert_eq!(s.list().unwrap().len(), 1);
        assert_eq!(s.get(&p.id).unwrap().note.as_deref(), Some("again"));
        s.remove(&p.id).unwrap();
        assert!(s.list().unwrap().is_empty());
        assert!(matches!(s.get(&p.id), Err(StoreError::NotFound(_))));
    }
}
