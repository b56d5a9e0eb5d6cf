//! Pages an agent suggests the person look at (`show_to_user`), and which browsers are
//! running to show them.
//!
//! `suggestions.toml` holds `[[suggestion]]` entries: an id, the URL (without query: the
//! person's browser opens exactly what is shown), the agent's note, who suggested it and
//! when. At most [`MAX_PENDING`] wait; a new one past that drops the oldest. The browser lists
//! them and the person opens or dismisses each ([`Suggestions::take`]); nothing opens by
//! itself.
//!
//! `browsers.toml` holds `[[browser]]` entries, one per running browser (its process id and
//! its last heartbeat). A browser beats every few seconds while it runs and leaves on exit;
//! one that crashed stops beating and counts as gone after [`BROWSER_STALE_SECONDS`].

use super::StoreError;
use super::activity::{MAX_TEXT_CHARS, clean_note, clean_text, clean_url};
use super::list_file::{ListFile, ListItem};
use std::path::PathBuf;
use time::OffsetDateTime;

/// Most suggestions waiting at once.
pub const MAX_PENDING: usize = 50;
/// Most characters of a note.
pub(crate) const MAX_NOTE_CHARS: usize = 500;
/// A browser whose last heartbeat is older than this is taken for gone.
pub(crate) const BROWSER_STALE_SECONDS: i64 = 15;

/// A page an agent suggested.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Suggestion {
    /// Short random id (8 hex digits).
    pub id: String,
    /// The page (without query).
    pub url: String,
    /// The agent's note (untrusted text), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// The MCP client's declared name.
    pub client: String,
    /// Its session id in the activity log.
    pub session: String,
    /// When (whole seconds).
    #[serde(with = "time::serde::rfc3339")]
    pub at: OffsetDateTime,
}

impl ListItem for Suggestion {
    const TABLE: &'static str = "suggestion";
    fn header() -> String {
        "# smolweb: pages agents suggested you look at; open or dismiss them on about:agents.\n"
            .into()
    }
}

/// The suggestions file.
#[derive(Clone, Debug)]
pub struct Suggestions {
    file: ListFile<Suggestion>,
}

impl Suggestions {
    /// The file at `path` (nothing is read or created yet).
    pub fn new(path: PathBuf) -> Suggestions {
        Suggestions {
            file: ListFile::new(path),
        }
    }
    /// The file this store reads and writes.
    pub fn path(&self) -> &std::path::Path {
        self.file.path()
    }
    /// Queue a suggestion; the same URL already waiting is replaced (new note, new time, same
    /// id). Returns it.
    pub fn add(
        &self,
        url: &str,
        note: Option<&str>,
        client: &str,
        session: &str,
        now: OffsetDateTime,
    ) -> Result<Suggestion, StoreError> {
        let url = clean_url(url);
        if url.is_empty() {
            return Err(StoreError::Invalid("an empty URL".into()));
        }
        let now = now.replace_nanosecond(0).unwrap_or(now);
        self.file.update(|list| {
            let id = super::list_file::take_keeping_id(list, |s| s.url == url, |s| &s.id)?;
            let s = Suggestion {
                id,
                url,
                note: clean_note(note, MAX_NOTE_CHARS),
                client: clean_text(client, MAX_TEXT_CHARS),
                session: clean_text(session, 16),
                at: now,
            };
            super::list_file::push_bounded(list, s.clone(), MAX_PENDING);
            Ok((s, true))
        })
    }
    /// Waiting suggestions, newest first.
    pub fn pending(&self) -> Result<Vec<Suggestion>, StoreError> {
        self.file.newest_first()
    }
    /// Remove and return one (the person opened or dismissed it).
    pub fn take(&self, id: &str) -> Result<Suggestion, StoreError> {
        let taken = self.file.update(|list| {
            Ok(match list.iter().position(|s| s.id == id) {
                Some(i) => (Some(list.remove(i)), true),
                None => (None, false),
            })
        })?;
        taken.ok_or_else(|| StoreError::NotFound(format!("suggestion {id}")))
    }
}

/// A running browser.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Browser {
    /// Its process id.
    pub pid: u32,
    /// Its last heartbeat.
    #[serde(with = "time::serde::rfc3339")]
    pub seen: OffsetDateTime,
}

impl ListItem for Browser {
    const TABLE: &'static str = "browser";
    fn header() -> String {
        "# smolweb: browsers running now (each beats every few seconds).\n".into()
    }
}

/// The presence file of running browsers.
#[derive(Clone, Debug)]
pub struct Browsers {
    file: ListFile<Browser>,
}

fn fresh(b: &Browser, now: OffsetDateTime) -> bool {
    now - b.seen <= time::Duration::seconds(BROWSER_STALE_SECONDS)
}

impl Browsers {
    /// The file at `path` (nothing is read or created yet).
    pub fn new(path: PathBuf) -> Browsers {
        Browsers {
            file: ListFile::new(path),
        }
    }
    /// The browser `pid` is alive now (stale entries of others are dropped).
    pub fn heartbeat(&self, pid: u32, now: OffsetDateTime) -> Result<(), StoreError> {
        let now = now.replace_nanosecond(0).unwrap_or(now);
        self.file.update(|list| {
            list.retain(|b| b.pid != pid && fresh(b, now));
            list.push(Browser { pid, seen: now });
            Ok(((), true))
        })
    }
    /// The browser `pid` is leaving.
    pub fn leave(&self, pid: u32) -> Result<(), StoreError> {
        self.file.update(|list| {
            let before = list.len();
            list.retain(|b| b.pid != pid);
            Ok(((), list.len() != before))
        })
    }
    /// How many browsers beat recently.
    pub fn running(&self, now: OffsetDateTime) -> Result<usize, StoreError> {
        Ok(self.file.read()?.iter().filter(|b| fresh(b, now)).count())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: i64) -> OffsetDateTime {
        OffsetDateTime::from_unix_timestamp(1_700_000_000 + s).unwrap()
    }

    #[test]
    fn suggestions_queue_replace_and_are_taken() {
        let dir = tempfile::tempdir().unwrap();
        let s = Suggestions::new(dir.path().join("suggestions.toml"));
        let a = s
            .add(
                "gemini://c.test/a?secret",
                Some("look\u{1b}[2J"),
                "bot",
                "s1",
                at(0),
            )
            .unwrap();
        assert_eq!(a.url, "gemini://c.test/a");
        assert_eq!(a.note.as_deref(), Some("look[2J"));
        let again = s
            .add("gemini://c.test/a", None, "bot", "s1", at(1))
            .unwrap();
        assert_eq!(again.id, a.id);
        s.add("gemini://c.test/b", None, "bot", "s1", at(2))
            .unwrap();
        let list = s.pending().unwrap();
        assert_eq!(list.len(), 2);
        assert_eq!(list[0].url, "gemini://c.test/b", "newest first");
        assert_eq!(s.take(&a.id).unwrap().url, "gemini://c.test/a");
        assert!(matches!(s.take(&a.id), Err(StoreError::NotFound(_))));
        for i in 0..(MAX_PENDING + 5) {
            s.add(&format!("gemini://c.test/{i}"), None, "bot", "s1", at(10))
                .unwrap();
        }
        assert_eq!(s.pending().unwrap().len(), MAX_PENDING);
    }

    #[test]
    fn browsers_beat_leave_and_go_stale() {
        let dir = tempfile::tempdir().unwrap();
        let b = Browsers::new(dir.path().join("browsers.toml"));
        assert_eq!(b.running(at(0)).unwrap(), 0);
        b.heartbeat(10, at(0)).unwrap();
        b.heartbeat(11, at(1)).unwrap();
        assert_eq!(b.running(at(2)).unwrap(), 2);
        b.leave(10).unwrap();
        assert_eq!(b.running(at(2)).unwrap(), 1);
        assert_eq!(b.running(at(1 + BROWSER_STALE_SECONDS + 1)).unwrap(), 0);
    }
}
