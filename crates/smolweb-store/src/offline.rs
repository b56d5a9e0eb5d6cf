//! The offline page cache: copies of pages on disk, bounded by size, in the cache directory.
//!
//! Layout: `index.toml` (one row per page: URL, file, bytes, fetched, last used, saved) and
//! `pages/<sha256 of the URL>.page` (a short text header naming the URL, the answer's media
//! type and the fetch time, a blank line, then the body bytes as received).
//! Invariants:
//! - Every change of the index runs under its lock through [`atomic::update_if`]; a page file
//!   is written inside that same critical section with [`atomic::write_file`] (temp file,
//!   fsync, rename), so a killed writer leaves the old copy whole, and two processes storing
//!   at once merge their rows. Files are 0600 in 0700 directories.
//! - A writer killed between the page file and the index leaves a page file no row names;
//!   the next store removes such files and temp files (it holds the index lock, under which
//!   every page is written).
//! - The page file is self-describing; the index is bookkeeping. A file whose header does not
//!   name the URL asked for (or does not parse) is treated as missing, never shown.
//! - Size bound: after each store, pages that are not saved are evicted least recently used
//!   first until the total is at most `max_bytes`. Saved pages (the reading list) are never
//!   evicted and count toward the total. A bound of 0 keeps no unsaved pages.
//! - What may be stored (no queries, no identity pages, nothing from the agent) is decided by
//!   the caller (`client::offline`); this module stores what it is given.

use super::StoreError;
use super::atomic::{self, Modes};
use super::file_cache::{FileKey, SETTLE};
use smolweb_core::fingerprint::sha256_hex;
use std::path::{Path, PathBuf};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

const MAGIC: &str = "smolweb-offline 1";

/// Temp files older than this are leftovers of a killed writer and are removed by [`Offline::sweep`].
pub(crate) const STALE_TEMP: std::time::Duration = std::time::Duration::from_secs(600);

/// One row of the index.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OfflineEntry {
    /// The page's URL (the key of the copy).
    pub url: String,
    /// Body size in bytes.
    pub bytes: u64,
    /// When the copy was fetched.
    #[serde(with = "time::serde::rfc3339")]
    pub fetched: OffsetDateTime,
    /// When the copy was last stored or read (eviction drops the least recently used).
    #[serde(with = "time::serde::rfc3339")]
    pub last_used: OffsetDateTime,
    /// When the human saved it for offline reading (None: an ordinary, evictable copy).
    #[serde(
        default,
        with = "time::serde::rfc3339::option",
        skip_serializing_if = "Option::is_none"
    )]
    pub saved: Option<OffsetDateTime>,
    /// The page's title when it has one (for the reading list).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
}

/// A stored page as read back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredPage {
    pub(crate) url: String,
    /// The media type line (`text/gemini; charset=utf-8`); for Gopher, what the item decoded as.
    pub media_type: String,
    /// When the copy was fetched.
    pub fetched: OffsetDateTime,
    /// The body's bytes as they arrived.
    pub body: Vec<u8>,
}

/// What to store.
#[derive(Clone, Debug)]
pub struct NewPage<'a> {
    /// The page's URL.
    pub url: &'a str,
    /// The media type line to store with it.
    pub media_type: &'a str,
    /// The page's title, when it has one.
    pub title: Option<&'a str>,
    /// The body's bytes.
    pub body: &'a [u8],
    /// When it was fetched.
    pub fetched: OffsetDateTime,
    /// Put it on the reading list (kept out of eviction).
    pub save: bool,
}

/// What tells one state of a copy's file from another without reading it: the file's
/// identity, size and times, as [`crate::file_cache`] keys a parsed file. A reader that holds
/// what it built from a copy compares stamps instead of reading the file again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CopyStamp(FileKey);

impl CopyStamp {
    /// Does this stamp alone vouch for the copy as it was read at `read` (a time taken before
    /// the read)? Only once the file's times are [`SETTLE`] older than `read`: file times are
    /// coarse, so before that two writes could carry the same stamp (see [`crate::file_cache`]),
    /// and the copy must be read again and compared.
    pub fn settled_since(&self, read: std::time::SystemTime) -> bool {
        self.0.settled(read, SETTLE)
    }
}

#[derive(Debug, Default, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Index {
    #[serde(default, rename = "page")]
    pages: Vec<OfflineEntry>,
}

fn render(index: &Index) -> Result<String, StoreError> {
    let body = atomic::render_toml(index)?;
    Ok(format!(
        "# smolweb offline copies (index; the pages are in pages/).\n\n{body}"
    ))
}

/// Read, write and read again (the fuzz targets' check; see [`super::fuzzing`]).
#[cfg(any(test, feature = "fuzzing"))]
pub(super) fn index_round_trip(text: &str) -> super::fuzzing::RoundTrip {
    super::fuzzing::check(text, atomic::parse_toml::<Index>, render)
}

/// A page file decoded and encoded, then that encoding decoded and encoded again: the two
/// encodings agree (see [`super::fuzzing`]).
#[cfg(any(test, feature = "fuzzing"))]
pub(super) fn page_round_trip(raw: &[u8]) -> super::fuzzing::RoundTrip {
    let encode_stored = |page: &StoredPage| {
        encode(&NewPage {
            url: &page.url,
            media_type: &page.media_type,
            title: None,
            body: &page.body,
            fetched: page.fetched,
            save: false,
        })
    };
    let Some(page) = decode(raw) else {
        return super::fuzzing::RoundTrip::Refused;
    };
    let first = encode_stored(&page);
    let second = decode(&first).map(|p| encode_stored(&p));
    if second.as_ref() == Some(&first) {
        return super::fuzzing::RoundTrip::Stable;
    }
    super::fuzzing::RoundTrip::Unstable {
        first: String::from_utf8_lossy(&first).into_owned(),
        second: second.map_or("cannot read back".into(), |s| {
            String::from_utf8_lossy(&s).into_owned()
        }),
    }
}

fn second(t: OffsetDateTime) -> OffsetDateTime {
    t.replace_nanosecond(0).unwrap_or(t)
}

/// The offline cache directory.
#[derive(Clone, Debug)]
pub struct Offline {
    dir: PathBuf,
    max_bytes: u64,
}

impl Offline {
    /// The offline cache in `dir`, holding at most `max_bytes` of pages (see the module docs);
    /// nothing is read or created yet.
    pub fn new(dir: PathBuf, max_bytes: u64) -> Offline {
        Offline { dir, max_bytes }
    }
    /// The directory this cache reads and writes.
    pub fn dir(&self) -> &Path {
        &self.dir
    }
    fn index_path(&self) -> PathBuf {
        self.dir.join("index.toml")
    }
    fn pages_dir(&self) -> PathBuf {
        self.dir.join("pages")
    }
    /// The file holding `url`'s copy.
    pub fn page_path(&self, url: &str) -> PathBuf {
        self.pages_dir()
            .join(format!("{}.page", sha256_hex(url.as_bytes())))
    }

    fn update<R>(
        &self,
        mutate: impl FnOnce(&mut Index) -> Result<(R, bool), StoreError>,
    ) -> Result<R, StoreError> {
        atomic::update_if(
            &self.index_path(),
            Modes::DATA,
            atomic::parse_toml::<Index>,
            render,
            mutate,
        )
    }

    /// All rows, most recently used first.
    pub fn list(&self) -> Result<Vec<OfflineEntry>, StoreError> {
        let mut pages = atomic::read(&self.index_path(), atomic::parse_toml::<Index>)?.pages;
        pages.sort_by_key(|p| std::cmp::Reverse(p.last_used));
        Ok(pages)
    }

    /// The reading list (saved pages), most recently saved first.
    pub fn saved(&self) -> Result<Vec<OfflineEntry>, StoreError> {
        let mut pages: Vec<_> = self
            .list()?
            .into_iter()
            .filter(|p| p.saved.is_some())
            .collect();
        pages.sort_by_key(|p| std::cmp::Reverse(p.saved));
        Ok(pages)
    }

    /// Store (or replace) a copy, then evict down to the bound. Returns false when it was not
    /// kept: an unsaved page larger than the whole bound (or a bound of 0). A page already
    /// saved stays saved.
    pub fn put(&self, page: &NewPage<'_>, now: OffsetDateTime) -> Result<bool, StoreError> {
        let bytes = page.body.len() as u64;
        let now = second(now);
        let stored = self.update(|index| {
            let known = index.pages.iter().position(|p| p.url == page.url);
            let was_saved = known.and_then(|i| index.pages[i].saved);
            let saved = if page.save {
                was_saved.or(Some(now))
            } else {
                was_saved
            };
            if saved.is_none() && bytes > self.max_bytes {
                return Ok((false, false));
            }
            self.remove_leftovers(index);
            atomic::write_file(&self.page_path(page.url), &encode(page), Modes::DATA)?;
            let row = OfflineEntry {
                url: page.url.to_string(),
                bytes,
                fetched: second(page.fetched),
                last_used: now,
                saved,
                title: page.title.map(str::to_string).filter(|t| !t.is_empty()),
            };
            match known {
                Some(i) => index.pages[i] = row,
                None => index.pages.push(row),
            }
            self.evict(index);
            Ok((true, true))
        })?;
        self.sweep(STALE_TEMP);
        Ok(stored)
    }

    /// Under the index lock: remove what killed writers left in `pages/`, temp files and
    /// page files no row names (a writer killed between its page and the index). Counting
    /// the page files first keeps the usual case (none) to one directory listing.
    fn remove_leftovers(&self, index: &Index) {
        let dir = self.pages_dir();
        atomic::sweep_temps(&dir, None);
        let Ok(entries) = std::fs::read_dir(&dir) else {
            return;
        };
        let pages: Vec<std::path::PathBuf> = entries
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "page"))
            .collect();
        if pages.len() <= index.pages.len() {
            return;
        }
        let named: std::collections::HashSet<PathBuf> =
            index.pages.iter().map(|p| self.page_path(&p.url)).collect();
        for page in pages.iter().filter(|p| !named.contains(*p)) {
            let _ = std::fs::remove_file(page);
        }
    }

    /// Drop unsaved rows (and files), least recently used first, until the total fits.
    fn evict(&self, index: &mut Index) {
        let mut total: u64 = index.pages.iter().map(|p| p.bytes).sum();
        if total <= self.max_bytes {
            return;
        }
        index.pages.sort_by_key(|p| std::cmp::Reverse(p.last_used));
        let mut keep = Vec::with_capacity(index.pages.len());
        for p in std::mem::take(&mut index.pages).into_iter().rev() {
            if total > self.max_bytes && p.saved.is_none() {
                total -= p.bytes;
                let _ = std::fs::remove_file(self.page_path(&p.url));
            } else {
                keep.push(p);
            }
        }
        keep.reverse();
        index.pages = keep;
    }

    /// Read the copy of `url` (None when there is none or it does not check out) and mark it
    /// used (when the index can be written: a full disk still gives the page).
    pub fn get(&self, url: &str, now: OffsetDateTime) -> Result<Option<StoredPage>, StoreError> {
        let Some(page) = self.peek(url)? else {
            return Ok(None);
        };
        let now = second(now);
        let touched = self.update(|index| {
            let row = index.pages.iter_mut().find(|p| p.url == url);
            let touched = row.is_some();
            if let Some(row) = row {
                row.last_used = now;
            }
            Ok(((), touched))
        });
        // Marking the copy used is bookkeeping: a full disk does not keep the page from
        // the reader (an unreadable or corrupt index still is an error).
        match touched {
            Ok(()) | Err(StoreError::Io { .. }) => Ok(Some(page)),
            Err(e) => Err(e),
        }
    }

    /// Read the copy of `url` without marking it used (None when there is none or it does
    /// not check out): the search index reads copies this way.
    pub fn peek(&self, url: &str) -> Result<Option<StoredPage>, StoreError> {
        let Some(raw) = atomic::read_bytes(&self.page_path(url))? else {
            return Ok(None);
        };
        Ok(decode(&raw).filter(|p| p.url == url))
    }

    /// The stamp of `url`'s copy file as it is now, without reading it (None: there is no file,
    /// or it cannot be looked at). Take it before reading the copy, so that a write between the
    /// two shows as another stamp at the next look.
    pub fn stamp(&self, url: &str) -> Option<CopyStamp> {
        std::fs::symlink_metadata(self.page_path(url))
            .ok()
            .filter(|m| m.is_file())
            .map(|m| CopyStamp(FileKey::of(&m)))
    }

    /// The index row of `url`, if it has a copy.
    pub fn entry(&self, url: &str) -> Result<Option<OfflineEntry>, StoreError> {
        Ok(self.list()?.into_iter().find(|p| p.url == url))
    }

    /// Take `url` off the reading list (the copy stays, evictable). Returns whether it was saved.
    pub fn unsave(&self, url: &str) -> Result<bool, StoreError> {
        self.update(|index| {
            let row = index
                .pages
                .iter_mut()
                .find(|p| p.url == url && p.saved.is_some());
            let found = row.is_some();
            if let Some(row) = row {
                row.saved = None;
            }
            self.evict(index);
            Ok((found, found))
        })
    }

    /// Forget the copy of `url` entirely. Returns whether there was one.
    pub fn remove(&self, url: &str) -> Result<bool, StoreError> {
        self.update(|index| {
            let before = index.pages.len();
            index.pages.retain(|p| p.url != url);
            let found = index.pages.len() != before;
            if found {
                let _ = std::fs::remove_file(self.page_path(url));
            }
            Ok((found, found))
        })
    }

    /// Total bytes of all copies.
    pub fn total_bytes(&self) -> Result<u64, StoreError> {
        Ok(self.list()?.iter().map(|p| p.bytes).sum())
    }

    /// Remove temp files left by killed writers (older than `age`). Best effort.
    pub fn sweep(&self, age: std::time::Duration) {
        atomic::sweep_old_temps(&self.pages_dir(), age);
    }
}

fn encode(page: &NewPage<'_>) -> Vec<u8> {
    let fetched = smolweb_core::text::rfc3339(page.fetched);
    let media = page.media_type.replace(['\r', '\n'], " ");
    let mut out = format!(
        "{MAGIC}\nurl: {}\ntype: {media}\nfetched: {fetched}\n\n",
        page.url
    )
    .into_bytes();
    out.extend_from_slice(page.body);
    out
}

fn decode(raw: &[u8]) -> Option<StoredPage> {
    let end = raw.windows(2).position(|w| w == b"\n\n")?;
    let head = std::str::from_utf8(&raw[..end]).ok()?;
    let mut lines = head.lines();
    if lines.next()? != MAGIC {
        return None;
    }
    let (mut url, mut media_type, mut fetched) = (None, None, None);
    for line in lines {
        let (key, value) = line.split_once(": ")?;
        match key {
            "url" => url = Some(value.to_string()),
            "type" => media_type = Some(value.to_string()),
            "fetched" => fetched = OffsetDateTime::parse(value, &Rfc3339).ok(),
            _ => {}
        }
    }
    Some(StoredPage {
        url: url?,
        media_type: media_type?,
        fetched: fetched?,
        body: raw[end + 2..].to_vec(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encode_decode_round_trip_keeps_binary_bodies() {
        let t = OffsetDateTime::from_unix_timestamp(1_800_000_000).unwrap();
        let page = NewPage {
            url: "gemini://a.example/x",
            media_type: "image/png",
            title: None,
            body: b"\x89PNG\n\n\x00\xff",
            fetched: t,
            save: false,
        };
        let back = decode(&encode(&page)).unwrap();
        assert_eq!(back.url, page.url);
        assert_eq!(back.media_type, "image/png");
        assert_eq!(back.fetched, t);
        assert_eq!(back.body, page.body);
        assert!(decode(b"garbage\n\nbody").is_none());
        assert!(decode(b"").is_none());
    }
}
