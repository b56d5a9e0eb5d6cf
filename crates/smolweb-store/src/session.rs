//! The browser's tabs kept for the next start (`[tui] restore_session`): each tab's history
//! (the URLs before and after the page shown) and where the reader was on each page.
//!
//! `session.toml` holds the active tab and `[[tab]]` tables, each with its `[[tab.entry]]`
//! steps in history order and the index of the one shown. Only URLs and places are kept,
//! never a page's text; what the browser leaves out (pages fetched under an identity or with
//! a query) it never hands here. At most [`MAX_TABS`] tabs of at most [`MAX_ENTRIES`] steps
//! are written or read. Written through [`crate::atomic`]: a corrupt file is an error naming
//! it, and is never written over (the browser then keeps the session to itself).

use super::StoreError;
use super::atomic::{self, Modes};
use std::path::PathBuf;

/// The most tabs kept.
pub(crate) const MAX_TABS: usize = 64;
/// The most history steps kept per tab (the newest around the page shown).
pub const MAX_ENTRIES: usize = 50;

/// One step of a tab's history.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SavedEntry {
    /// The page's URL.
    pub url: String,
    /// The first line on screen (a display line of the page).
    #[serde(default)]
    pub line: usize,
    /// The wrapped row of that line on screen.
    #[serde(default)]
    pub row: usize,
}

/// One tab.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SavedTab {
    /// The index in `entry` of the page shown.
    #[serde(default)]
    pub current: usize,
    /// The history, oldest first.
    #[serde(default, rename = "entry")]
    pub entries: Vec<SavedEntry>,
}

/// The tabs of one browser.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SavedSession {
    /// The index of the active tab.
    #[serde(default)]
    pub active: usize,
    /// The tabs, in order.
    #[serde(default, rename = "tab")]
    pub tabs: Vec<SavedTab>,
}

impl SavedSession {
    /// Within the bounds, and every index pointing at something: tabs without entries go,
    /// a tab's steps are cut to [`MAX_ENTRIES`] around the one shown.
    pub fn bounded(mut self) -> SavedSession {
        self.tabs.retain(|t| !t.entries.is_empty());
        self.tabs.truncate(MAX_TABS);
        for t in &mut self.tabs {
            t.current = t.current.min(t.entries.len() - 1);
            if t.entries.len() > MAX_ENTRIES {
                let start = (t.current + 1).saturating_sub(MAX_ENTRIES);
                let end = (start + MAX_ENTRIES).min(t.entries.len());
                t.entries = t.entries[start..end].to_vec();
                t.current -= start;
            }
        }
        self.active = self.active.min(self.tabs.len().saturating_sub(1));
        self
    }
}

/// The session file.
#[derive(Clone, Debug)]
pub struct Session {
    path: PathBuf,
}

const HEADER: &str =
    "# smolweb: the browser's tabs, opened again at the next start ([tui] restore_session).\n";

impl Session {
    /// The file at `path` (nothing is read or created yet).
    pub fn new(path: PathBuf) -> Session {
        Session { path }
    }

    /// The file this store reads and writes.
    pub fn path(&self) -> &std::path::Path {
        &self.path
    }

    /// The saved tabs (None: no file, or no tabs in it). A file that does not parse is
    /// [`StoreError::Corrupt`], naming it.
    pub fn load(&self) -> Result<Option<SavedSession>, StoreError> {
        let saved: SavedSession = atomic::read(&self.path, atomic::parse_toml)?;
        let saved = saved.bounded();
        Ok((!saved.tabs.is_empty()).then_some(saved))
    }

    /// Keep these tabs for the next start, in place of the last ones. A corrupt file is left
    /// as it is (the error names it).
    pub fn save(&self, session: &SavedSession) -> Result<(), StoreError> {
        let session = session.clone().bounded();
        atomic::update_if(
            &self.path,
            Modes::DATA,
            atomic::parse_toml::<SavedSession>,
            |v| atomic::render_toml(v).map(|t| format!("{HEADER}{t}")),
            |old| {
                *old = session;
                Ok(((), true))
            },
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(url: &str, line: usize) -> SavedEntry {
        SavedEntry {
            url: url.into(),
            line,
            row: 0,
        }
    }

    #[test]
    fn tabs_come_back_as_they_were_saved() {
        let dir = tempfile::tempdir().unwrap();
        let s = Session::new(dir.path().join("session.toml"));
        assert_eq!(s.load().unwrap(), None, "no file: nothing to restore");
        let saved = SavedSession {
            active: 1,
            tabs: vec![
                SavedTab {
                    current: 1,
                    entries: vec![entry("gemini://a.test/", 0), entry("gemini://a.test/b", 40)],
                },
                SavedTab {
                    current: 0,
                    entries: vec![entry("about:feeds", 3)],
                },
            ],
        };
        s.save(&saved).unwrap();
        assert_eq!(s.load().unwrap(), Some(saved));
        let text = std::fs::read_to_string(s.path()).unwrap();
        assert!(text.starts_with("# smolweb: the browser's tabs"), "{text}");
        assert!(text.contains("[[tab.entry]]"), "{text}");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(s.path()).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
    }

    #[test]
    fn a_corrupt_file_is_named_and_never_written_over() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("session.toml");
        crate::perms::write_private(&path, "[[tab]\nnot toml").unwrap();
        let s = Session::new(path.clone());
        let e = s.load().unwrap_err();
        assert!(
            matches!(&e, StoreError::Corrupt { path: p, .. } if *p == path),
            "{e}"
        );
        assert!(!e.to_string().contains("not toml"), "never quoted: {e}");
        assert!(s.save(&SavedSession::default()).is_err());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "[[tab]\nnot toml");
    }

    #[test]
    fn indexes_are_kept_in_bounds() {
        let many: Vec<SavedEntry> = (0..MAX_ENTRIES + 30)
            .map(|i| entry(&format!("gemini://a.test/{i}"), i))
            .collect();
        let s = SavedSession {
            active: 9,
            tabs: vec![
                SavedTab {
                    current: MAX_ENTRIES + 20,
                    entries: many,
                },
                SavedTab {
                    current: 3,
                    entries: Vec::new(),
                },
            ],
        }
        .bounded();
        assert_eq!(s.tabs.len(), 1, "a tab without a page goes");
        assert_eq!(s.active, 0);
        let t = &s.tabs[0];
        assert_eq!(t.entries.len(), MAX_ENTRIES);
        assert_eq!(
            t.entries[t.current].url,
            format!("gemini://a.test/{}", MAX_ENTRIES + 20),
            "the page shown is kept, with the steps before it"
        );
    }
}
