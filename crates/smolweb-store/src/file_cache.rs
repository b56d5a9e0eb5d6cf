//! A parsed copy of a data file kept in memory, reused while the file has not changed, so a
//! large file (the subscriptions, 2 MB with 10,000 entries) is parsed once per change instead
//! of at every read. Reads and writes still go through [`super::atomic`]'s locks and checks
//! (a link, a file others can read, a corrupt file are refused exactly as without a cache);
//! only the parse is skipped.
//!
//! Invariants:
//! - The copy is tied to the file's identity as [`FileKey`]: device, inode, size, and the
//!   modification and status-change times with nanoseconds. A write by any process through
//!   [`super::atomic::write_file`] renames a new file into place (a new inode), and any other
//!   change of the file moves its change time (which no process can set back), so a change
//!   by another process is seen at the next read, within the same second and at the same size.
//! - File times are coarse (one kernel tick, a few milliseconds): two writes within one tick
//!   could carry the same times, and a freed inode number can be given again. So a key is only
//!   trusted alone once the file's times are [`SETTLE`] older than the moment its content was
//!   last confirmed; before that (the racy window, as git calls it for its index) the bytes are
//!   read again and compared with the bytes the copy was parsed from. Reading and comparing
//!   costs a fraction of a millisecond for 2 MB; parsing is what is saved.
//! - A file that does not parse is never cached: every read reports it (named, as
//!   [`super::StoreError::Corrupt`]), and the copy of an earlier good file is never served for it.
//! - The process's own writes store what they wrote (the value and its bytes), under the
//!   exclusive lock, so its next read does not parse what it just rendered.
//! - A missing file reads as the default and is not cached.

use super::StoreError;
use super::parse_failure::ParseFailure;
use std::fmt;
use std::path::Path;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, SystemTime};

/// How much older than the last check of its bytes a file's times must be for its key to be
/// trusted without reading it (well above a kernel tick and the 2 s of the coarsest
/// filesystems).
pub(crate) const SETTLE: Duration = Duration::from_secs(3);

/// What tells one state of a file from another without reading it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct FileKey {
    dev: u64,
    ino: u64,
    len: u64,
    /// Modification time, seconds and nanoseconds since the epoch.
    modified: (i64, i64),
    /// Status-change time (unix), seconds and nanoseconds since the epoch.
    changed: (i64, i64),
}

impl FileKey {
    /// The key of an opened (or just written) file's metadata.
    pub(crate) fn of(meta: &std::fs::Metadata) -> FileKey {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            FileKey {
                dev: meta.dev(),
                ino: meta.ino(),
                len: meta.len(),
                modified: (meta.mtime(), meta.mtime_nsec()),
                changed: (meta.ctime(), meta.ctime_nsec()),
            }
        }
        #[cfg(not(unix))]
        {
            let since = |t: std::io::Result<SystemTime>| {
                t.ok()
                    .and_then(|t| t.duration_since(SystemTime::UNIX_EPOCH).ok())
                    .map_or((0, 0), |d| {
                        (
                            i64::try_from(d.as_secs()).unwrap_or(i64::MAX),
                            i64::from(d.subsec_nanos()),
                        )
                    })
            };
            FileKey {
                dev: 0,
                ino: 0,
                len: meta.len(),
                modified: since(meta.modified()),
                changed: since(meta.created()),
            }
        }
    }

    /// Are the file's times at least `settle` older than `checked` (so a later write, which
    /// happens after `checked`, cannot carry the same times)?
    pub(crate) fn settled(&self, checked: SystemTime, settle: Duration) -> bool {
        let Ok(at) = checked.duration_since(SystemTime::UNIX_EPOCH) else {
            return false;
        };
        let latest = self.modified.max(self.changed);
        let Ok(secs) = u64::try_from(latest.0) else {
            // Before 1970: nothing to compare with, trust nothing.
            return false;
        };
        let nanos = u32::try_from(latest.1).unwrap_or(0);
        let stamp = Duration::new(secs, nanos);
        at.checked_sub(stamp).is_some_and(|age| age >= settle)
    }
}

/// The copy: the value parsed from `bytes`, the file's key when they were read, and when they
/// were last confirmed to be the file's.
struct Copy<T> {
    key: FileKey,
    bytes: Box<[u8]>,
    value: Arc<T>,
    checked: SystemTime,
}

/// The parsed copy of one file (see the module docs). Shared by the clones of a store through
/// an `Arc`; its lock is held while the file is read, under the file's own lock.
pub(crate) struct FileCache<T> {
    copy: Mutex<Option<Copy<T>>>,
}

impl<T> fmt::Debug for FileCache<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FileCache").finish_non_exhaustive()
    }
}

impl<T> Default for FileCache<T> {
    fn default() -> Self {
        FileCache {
            copy: Mutex::new(None),
        }
    }
}

impl<T> FileCache<T> {
    fn slot(&self) -> MutexGuard<'_, Option<Copy<T>>> {
        // A panic while the lock was held left at worst a stale copy, which the key check
        // below replaces: the data is still usable.
        self.copy.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Forget the copy (the next read parses the file).
    pub(crate) fn clear(&self) {
        *self.slot() = None;
    }
}

impl<T: Default> FileCache<T> {
    /// The file's value: the copy when the file is the one it was parsed from, else the file
    /// read and parsed with `parse` (and kept). The caller holds the file's lock (shared or
    /// exclusive), so no writer replaces it meanwhile.
    pub(crate) fn load<E: ParseFailure>(
        &self,
        path: &Path,
        parse: impl FnOnce(&str) -> Result<T, E>,
    ) -> Result<Arc<T>, StoreError> {
        let Some(mut file) = super::atomic::open_data_file(path)? else {
            self.clear();
            return Ok(Arc::new(T::default()));
        };
        let io = |source| StoreError::Io {
            path: path.to_path_buf(),
            source,
        };
        let key = FileKey::of(&file.metadata().map_err(io)?);
        let mut slot = self.slot();
        if let Some(copy) = slot.as_ref()
            && copy.key == key
            && key.settled(copy.checked, SETTLE)
        {
            return Ok(copy.value.clone());
        }
        let mut bytes = Vec::with_capacity(usize::try_from(key.len).unwrap_or(0));
        std::io::Read::read_to_end(&mut file, &mut bytes).map_err(io)?;
        let checked = SystemTime::now();
        if let Some(copy) = slot.as_mut()
            && *copy.bytes == *bytes
        {
            copy.key = key;
            copy.checked = checked;
            return Ok(copy.value.clone());
        }
        let text = String::from_utf8(bytes).map_err(|e| {
            io(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                e.utf8_error(),
            ))
        })?;
        let value = match parse(&text) {
            Ok(v) => Arc::new(v),
            Err(e) => {
                *slot = None;
                return Err(StoreError::Corrupt {
                    path: path.to_path_buf(),
                    reason: e.describe(&text),
                });
            }
        };
        *slot = Some(Copy {
            key,
            bytes: text.into_bytes().into_boxed_slice(),
            value: value.clone(),
            checked,
        });
        Ok(value)
    }

    /// Keep `value`, which this process just wrote to `path` as `bytes` (under the exclusive
    /// lock, so the file on disk is exactly that). When the file cannot be looked at, the copy
    /// is dropped instead.
    pub(crate) fn wrote(&self, path: &Path, bytes: String, value: T) {
        let mut slot = self.slot();
        *slot = std::fs::symlink_metadata(path).ok().map(|meta| Copy {
            key: FileKey::of(&meta),
            bytes: bytes.into_bytes().into_boxed_slice(),
            value: Arc::new(value),
            checked: SystemTime::now(),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::atomic::{Modes, write_file};
    use std::fs::File;
    use std::time::UNIX_EPOCH;

    fn parse_words(text: &str) -> Result<Vec<String>, std::num::ParseIntError> {
        // Any text is words; a line "!" is corrupt (a parse failure to report).
        if text.lines().any(|l| l == "!") {
            return "!".parse::<u8>().map(|_| Vec::new());
        }
        Ok(text.split_whitespace().map(str::to_string).collect())
    }

    fn words(cache: &FileCache<Vec<String>>, path: &Path) -> Vec<String> {
        cache.load(path, parse_words).unwrap().as_ref().clone()
    }

    /// Set the file's modification time to `secs` and `nanos` after the epoch.
    fn set_mtime(path: &Path, secs: u64, nanos: u32) {
        let f = File::options().write(true).open(path).unwrap();
        f.set_modified(UNIX_EPOCH + Duration::new(secs, nanos))
            .unwrap();
    }

    const IN_2020: u64 = 1_577_836_800;

    /// Date the copy's last check an hour ahead, so the file's times look settled and the key
    /// alone decides (what a long-lived browser sees between changes).
    fn key_alone(cache: &FileCache<Vec<String>>) {
        if let Some(copy) = cache.slot().as_mut() {
            copy.checked = SystemTime::now() + Duration::from_secs(3600);
        }
    }

    #[test]
    fn a_replacement_in_the_same_second_at_the_same_size_is_seen() {
        // The key alone decides, so this fails if the key were size and seconds.
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("w.txt");
        let cache = FileCache::default();
        write_file(&path, b"alpha beta", Modes::DATA).unwrap();
        set_mtime(&path, IN_2020, 250_000_000);
        let first = cache.load(&path, parse_words).unwrap();
        assert_eq!(*first, ["alpha", "beta"]);
        key_alone(&cache);
        let again = cache.load(&path, parse_words).unwrap();
        assert!(Arc::ptr_eq(&first, &again), "the copy, the file not read");
        // Another writer: a new file renamed into place, same size, same second.
        write_file(&path, b"gamma delt", Modes::DATA).unwrap();
        set_mtime(&path, IN_2020, 750_000_000);
        assert_eq!(words(&cache, &path), ["gamma", "delt"]);
    }

    #[test]
    fn an_edit_in_place_is_seen_even_with_its_time_set_back() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("w.txt");
        let cache = FileCache::default();
        write_file(&path, b"one two", Modes::DATA).unwrap();
        set_mtime(&path, IN_2020, 0);
        assert_eq!(words(&cache, &path), ["one", "two"]);
        key_alone(&cache);
        // Same inode, same size; nanoseconds alone tell it apart.
        std::fs::write(&path, b"six ten").unwrap();
        set_mtime(&path, IN_2020, 1);
        assert_eq!(words(&cache, &path), ["six", "ten"]);
        key_alone(&cache);
        // Same inode, same size, the modification time put back exactly: the change time
        // (which nobody sets back) still moves.
        std::thread::sleep(Duration::from_millis(20));
        std::fs::write(&path, b"red sky").unwrap();
        set_mtime(&path, IN_2020, 1);
        assert_eq!(words(&cache, &path), ["red", "sky"]);
    }

    #[test]
    fn within_the_racy_window_the_bytes_are_compared() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("w.txt");
        let cache = FileCache::default();
        write_file(&path, b"first", Modes::DATA).unwrap();
        let a = cache.load(&path, parse_words).unwrap();
        // Same bytes: the same copy, not parsed again.
        let b = cache.load(&path, parse_words).unwrap();
        assert!(Arc::ptr_eq(&a, &b));
        // A just-written file is not settled; a file of 2020 checked now is.
        let copy_key = |c: &FileCache<Vec<String>>| c.slot().as_ref().map(|c| (c.key, c.checked));
        let (key, checked) = copy_key(&cache).unwrap();
        assert!(!key.settled(checked, SETTLE));
        set_mtime(&path, IN_2020, 0);
        let (key, _) = {
            cache.load(&path, parse_words).unwrap();
            copy_key(&cache).unwrap()
        };
        // The change time is now, so the key is still not trusted alone.
        assert!(!key.settled(SystemTime::now(), SETTLE));
        assert!(key.settled(SystemTime::now() + SETTLE, SETTLE));
    }

    #[test]
    fn a_corrupt_file_is_reported_at_every_read_never_the_old_copy() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("w.txt");
        let cache = FileCache::default();
        write_file(&path, b"good words", Modes::DATA).unwrap();
        assert_eq!(words(&cache, &path), ["good", "words"]);
        key_alone(&cache);
        write_file(&path, b"!\n", Modes::DATA).unwrap();
        for _ in 0..2 {
            let err = cache.load(&path, parse_words).unwrap_err();
            assert!(matches!(err, StoreError::Corrupt { .. }), "{err:?}");
            assert!(err.to_string().contains("w.txt"), "{err}");
        }
        assert_eq!(std::fs::read(&path).unwrap(), b"!\n", "left as it is");
        // Gone: the default, and no copy kept.
        std::fs::remove_file(&path).unwrap();
        assert!(words(&cache, &path).is_empty());
    }

    #[test]
    fn own_writes_are_kept_without_a_parse() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("w.txt");
        let cache: FileCache<Vec<String>> = FileCache::default();
        write_file(&path, b"mine", Modes::DATA).unwrap();
        cache.wrote(&path, "mine".to_string(), vec!["kept".to_string()]);
        // The value this process said it wrote is served (the parse would give "mine").
        assert_eq!(words(&cache, &path), ["kept"]);
        // Another writer's different bytes replace it.
        write_file(&path, b"them", Modes::DATA).unwrap();
        assert_eq!(words(&cache, &path), ["them"]);
    }
}
