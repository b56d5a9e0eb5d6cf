//! The copies of the pages followed for their changes, one TOML file per page in
//! `follows/` of the data directory (`<sha256 of the URL>.toml`).
//!
//! A file holds the page's URL, when the copy was fetched, its follow text
//! ([`smolweb_core::follow::snapshot`], at most [`MAX_TEXT_BYTES`]), the page's
//! [`Memory`] (recent versions, restlessness) and its last [`MAX_CHANGES`] changes, each a
//! bounded [`Diff`] ([`smolweb_core::follow::MAX_LISTED`] items per list). So a file stays
//! under about a megabyte whatever the page does, and there are at most
//! [`crate::subscriptions::MAX_FOLLOWED_PAGES`] of them.
//!
//! Invariants:
//! - A refresh reads, compares and writes the copy inside one [`Follows::update`], under the
//!   file's exclusive lock, through [`atomic`] (temp file, fsync, rename): a writer killed at
//!   any point leaves the old copy or the new one, never half of one, and two processes
//!   refreshing at once compare in turn (the second against the first's copy), so a change
//!   is recorded once.
//! - A file that does not parse, or that names another URL, is [`StoreError::Corrupt`]
//!   naming it; it is never replaced by an empty copy (the refresh fails and says so).
//! - A change is written here before its entry reaches `subscriptions.toml`, and the entries
//!   a refresh records are all the changes kept here (merged by URL), so a refresh that dies
//!   in between is made whole by the next one.

use super::StoreError;
use super::atomic::{self, Modes};
use smolweb_core::fingerprint::sha256_hex;
use smolweb_core::follow::{Diff, MAX_TEXT_BYTES, Memory};
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use time::OffsetDateTime;

/// Changes kept per followed page (the newest).
pub const MAX_CHANGES: usize = 20;

/// One kept change of a followed page.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StoredChange {
    /// When the refresh that found it ended (also its id: [`StoredChange::id`]).
    #[serde(with = "time::serde::rfc3339")]
    pub at: OffsetDateTime,
    /// When the copy it was compared with was fetched.
    #[serde(with = "time::serde::rfc3339")]
    pub since: OffsetDateTime,
    /// This change made the page restless: the next ones are not listed.
    #[serde(default, skip_serializing_if = "is_false")]
    pub restless: bool,
    /// The page was longer than the copy kept: only its beginning was compared.
    #[serde(default, skip_serializing_if = "is_false")]
    pub cut: bool,
    /// What changed (bounded).
    pub diff: Diff,
}

impl StoredChange {
    /// The change's id within its page: the Unix time it was found.
    pub fn id(&self) -> i64 {
        self.at.unix_timestamp()
    }
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// The kept copy of one followed page.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PageCopy {
    /// The page's URL, as the subscription stores it.
    pub url: String,
    /// When this copy was fetched.
    #[serde(with = "time::serde::rfc3339")]
    pub fetched: OffsetDateTime,
    /// The page was longer than [`MAX_TEXT_BYTES`]: `text` is its beginning.
    #[serde(default, skip_serializing_if = "is_false")]
    pub cut: bool,
    /// The follow text.
    pub text: String,
    /// What the refreshes remember.
    #[serde(default)]
    pub memory: Memory,
    /// The last [`MAX_CHANGES`] changes, oldest first.
    #[serde(default, rename = "change")]
    pub changes: Vec<StoredChange>,
}

impl PageCopy {
    /// Add a change, keeping the newest [`MAX_CHANGES`].
    ///
    /// Two changes found within one second (two refreshes in a row) would share an id, and
    /// the second would hide behind the first: a change is dated at least a second after
    /// the one before it.
    pub fn push_change(&mut self, mut change: StoredChange) {
        if let Some(last) = self.changes.last() {
            let after = last.at + time::Duration::seconds(1);
            if change.at < after {
                change.at = after;
            }
        }
        super::list_file::push_bounded(&mut self.changes, change, MAX_CHANGES);
    }
    /// The change with this id.
    pub fn change(&self, id: i64) -> Option<&StoredChange> {
        self.changes.iter().find(|c| c.id() == id)
    }
}

/// The file's contents: a copy, or nothing yet.
#[derive(Default)]
struct Slot(Option<PageCopy>);

/// The directory of copies.
#[derive(Clone, Debug)]
pub struct Follows {
    dir: PathBuf,
}

impl Follows {
    /// The copies in `dir` (nothing is read or created yet).
    pub fn new(dir: PathBuf) -> Follows {
        Follows { dir }
    }

    /// The file of `url`'s copy.
    pub fn path(&self, url: &str) -> PathBuf {
        self.dir
            .join(format!("{}.toml", sha256_hex(url.as_bytes())))
    }

    /// The copy of `url`, if one is kept.
    pub fn get(&self, url: &str) -> Result<Option<PageCopy>, StoreError> {
        let path = self.path(url);
        let Slot(copy) = atomic::read(&path, |t| parse(t, url))?;
        check(copy, url, &path)
    }

    /// Under the copy's lock: read it (None when there is none), let `mutate` change it or
    /// make it, and write it when `mutate` says it changed. A corrupt file is an error and
    /// `mutate` is not called.
    pub fn update<R>(
        &self,
        url: &str,
        mutate: impl FnOnce(&mut Option<PageCopy>) -> Result<(R, bool), StoreError>,
    ) -> Result<R, StoreError> {
        let path = self.path(url);
        atomic::update_if(
            &path,
            Modes::DATA,
            |t| parse(t, url),
            |slot: &Slot| render(slot, url),
            |slot| {
                slot.0 = check(slot.0.take(), url, &path)?;
                mutate(&mut slot.0)
            },
        )
    }

    /// Forget the copies of pages that are not in `followed` (pages no longer followed, or
    /// that moved). Returns how many were removed. Files that are not copies stay.
    pub fn retain(&self, followed: &HashSet<String>) -> Result<usize, StoreError> {
        let keep: HashSet<String> = followed
            .iter()
            .map(|u| format!("{}.toml", sha256_hex(u.as_bytes())))
            .collect();
        let entries = match std::fs::read_dir(&self.dir) {
            Ok(e) => e,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(0),
            Err(source) => {
                return Err(StoreError::Io {
                    path: self.dir.clone(),
                    source,
                });
            }
        };
        let mut removed = 0;
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let is_copy = name.len() == 64 + 5
                && name.ends_with(".toml")
                && name[..64].bytes().all(|b| b.is_ascii_hexdigit());
            if !is_copy || keep.contains(&name) {
                continue;
            }
            let path = entry.path();
            if std::fs::remove_file(&path).is_ok() {
                removed += 1;
            }
            let _ = std::fs::remove_file(atomic::lock_path(&path));
        }
        Ok(removed)
    }

    /// Move `from`'s copy to `to` (a subscription adopted its new address). Nothing when
    /// `from` has no copy or `to` has one.
    pub fn rename(&self, from: &str, to: &str) -> Result<(), StoreError> {
        let Some(mut copy) = self.get(from)? else {
            return Ok(());
        };
        copy.url = to.to_string();
        self.update(to, |slot| {
            if slot.is_some() {
                return Ok(((), false));
            }
            *slot = Some(copy);
            Ok(((), true))
        })?;
        let old = self.path(from);
        let _ = std::fs::remove_file(&old);
        let _ = std::fs::remove_file(atomic::lock_path(&old));
        Ok(())
    }
}

fn parse(text: &str, _url: &str) -> Result<Slot, toml::de::Error> {
    atomic::parse_toml::<PageCopy>(text).map(|c| Slot(Some(c)))
}

fn render(slot: &Slot, url: &str) -> Result<String, StoreError> {
    let Some(copy) = &slot.0 else {
        return Err(StoreError::Invalid(format!("no copy of {url} to write")));
    };
    if copy.text.len() > MAX_TEXT_BYTES {
        return Err(StoreError::Invalid(format!(
            "the copy of {url} is larger than {MAX_TEXT_BYTES} bytes"
        )));
    }
    let body = atomic::render_toml(copy)?;
    Ok(format!(
        "# smolweb: the copy of a page followed for its changes, and its last changes.\n\n{body}"
    ))
}

/// Read, write and read again (the fuzz targets' check; see [`super::fuzzing`]): the copy is
/// written under the URL it names.
#[cfg(any(test, feature = "fuzzing"))]
pub(super) fn round_trip(text: &str) -> super::fuzzing::RoundTrip {
    super::fuzzing::check(
        text,
        |t: &str| parse(t, ""),
        |slot: &Slot| match &slot.0 {
            Some(copy) => render(slot, &copy.url),
            None => render(slot, ""),
        },
    )
}

/// A copy read from `path` must be `url`'s.
fn check(copy: Option<PageCopy>, url: &str, path: &Path) -> Result<Option<PageCopy>, StoreError> {
    match copy {
        Some(c) if c.url != url => Err(StoreError::Corrupt {
            path: path.to_path_buf(),
            reason: "the copy names another page".to_string(),
        }),
        other => Ok(other),
    }
}
