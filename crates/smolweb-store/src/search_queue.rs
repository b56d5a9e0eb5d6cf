//! The search index's queue and its writer lock: the documents (and forgettings) a process
//! could not commit to the index itself, kept durably until the next writer commits them.
//!
//! Layout, in the data directory: `search-queue/` holds one small JSON file per operation,
//! named `<nanoseconds since 1970, 20 digits>-<pid>-<counter>.json` so the names sort in the
//! order the operations were queued; `search.lock` is the writer lock (one process at a time
//! writes the index).
//! Invariants:
//! - An operation is written through [`atomic::write_file`] (temp file, fsync, rename) before
//!   anything else is done with it, so a process killed after [`SearchQueue::push`] returned
//!   loses nothing, and a reader never sees half a file. The names are unique per process and
//!   call: no lock is needed to add one.
//! - Only the holder of the writer lock ([`SearchQueue::try_writer`]) removes files, after the
//!   index committed what they said.
//! - The queue and its lock are opened without following links: a queued file or a lock that
//!   is a symbolic link (or not a regular file) is refused with its name, like every data file;
//!   temp files left by a killed writer are swept after [`super::offline::STALE_TEMP`].
//! - This module stores what it is given (opaque JSON text); what an operation means, and
//!   what may be indexed at all, is the search crate's business.

use super::StoreError;
use super::atomic::{self, Modes};
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

static COUNTER: AtomicU64 = AtomicU64::new(0);

/// Longest queued operation read back, in bytes (a document's text is bounded well below it
/// by the search crate; a bigger file is not ours and is refused).
pub const MAX_QUEUED_BYTES: u64 = 8 * 1024 * 1024;

/// One queued operation, as read back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Queued {
    /// The file's name (the key to [`SearchQueue::remove`]).
    pub name: String,
    /// Its text, as pushed.
    pub text: String,
}

/// A queued file that could not be read back (named, for a warning; the writer removes it).
#[derive(Debug)]
pub struct Unreadable {
    /// The file's name.
    pub name: String,
    /// Why.
    pub error: StoreError,
}

/// The queue directory and the writer lock beside it.
#[derive(Clone, Debug)]
pub struct SearchQueue {
    dir: PathBuf,
    lock: PathBuf,
}

/// The held writer lock; dropping it lets the next writer in.
#[derive(Debug)]
pub struct WriterLock {
    file: File,
}

impl Drop for WriterLock {
    fn drop(&mut self) {
        let _ = self.file.unlock();
    }
}

impl SearchQueue {
    /// The queue in `dir`, locked through the file `lock` (nothing is created yet).
    pub fn new(dir: PathBuf, lock: PathBuf) -> SearchQueue {
        SearchQueue { dir, lock }
    }

    /// The queue directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Queue one operation durably (see the module docs). Returns the file's name.
    pub fn push(&self, text: &str) -> Result<String, StoreError> {
        let nanos = time::OffsetDateTime::now_utc()
            .unix_timestamp_nanos()
            .max(0);
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let name = format!("{nanos:020}-{}-{n}.json", std::process::id());
        atomic::write_file(&self.dir.join(&name), text.as_bytes(), Modes::DATA)?;
        Ok(name)
    }

    /// The queued operations, oldest first, and the files that could not be read (a link, a
    /// file too big or not UTF-8). A missing directory is an empty queue.
    pub fn pending(&self) -> Result<(Vec<Queued>, Vec<Unreadable>), StoreError> {
        let names = self.names()?;
        let (mut ok, mut bad) = (Vec::new(), Vec::new());
        for name in names {
            let path = self.dir.join(&name);
            match read_bounded(&path) {
                Ok(Some(text)) => ok.push(Queued { name, text }),
                Ok(None) => {}
                Err(error) => bad.push(Unreadable { name, error }),
            }
        }
        Ok((ok, bad))
    }

    /// How many operations wait (cheap: a directory listing).
    pub fn len(&self) -> Result<usize, StoreError> {
        Ok(self.names()?.len())
    }

    /// Is nothing queued?
    pub fn is_empty(&self) -> Result<bool, StoreError> {
        Ok(self.names()?.is_empty())
    }

    fn names(&self) -> Result<Vec<String>, StoreError> {
        let dir = match std::fs::read_dir(&self.dir) {
            Ok(d) => d,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(source) => {
                return Err(StoreError::Io {
                    path: self.dir.clone(),
                    source,
                });
            }
        };
        let mut names: Vec<String> = dir
            .flatten()
            .filter_map(|e| e.file_name().into_string().ok())
            .filter(|n| n.ends_with(".json") && !n.starts_with('.'))
            .collect();
        names.sort();
        Ok(names)
    }

    /// Remove queued files the index committed (call only while holding [`WriterLock`]).
    /// A file already gone is fine.
    pub fn remove(&self, names: &[String]) -> Result<(), StoreError> {
        for name in names {
            let path = self.dir.join(name);
            match std::fs::remove_file(&path) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(source) => return Err(StoreError::Io { path, source }),
            }
        }
        if !names.is_empty()
            && let Ok(d) = File::open(&self.dir)
        {
            let _ = d.sync_all();
        }
        self.sweep();
        Ok(())
    }

    /// Take the writer lock if no other process holds it (never waits). None: another
    /// process is writing; queue the operation and let it (or the next writer) commit it.
    pub fn try_writer(&self) -> Result<Option<WriterLock>, StoreError> {
        Ok(atomic::try_lock(&self.lock)?.map(|file| WriterLock { file }))
    }

    /// Wait for the writer lock (a rebuild, which must not be skipped).
    pub fn writer(&self) -> Result<WriterLock, StoreError> {
        Ok(WriterLock {
            file: atomic::lock_blocking(&self.lock)?,
        })
    }

    /// Remove temp files left by killed writers. Best effort.
    fn sweep(&self) {
        atomic::sweep_old_temps(&self.dir, super::offline::STALE_TEMP);
    }
}

/// A queued file's text (None: gone meanwhile). Not through a link; bounded.
fn read_bounded(path: &Path) -> Result<Option<String>, StoreError> {
    let Some(file) = atomic::open_data_file(path)? else {
        return Ok(None);
    };
    let len = file.metadata().map(|m| m.len()).unwrap_or(0);
    if len > MAX_QUEUED_BYTES {
        return Err(StoreError::Invalid(format!(
            "{} is {len} bytes, more than a queued document can be",
            path.display()
        )));
    }
    drop(file);
    atomic::read_text(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn queue(tmp: &Path) -> SearchQueue {
        SearchQueue::new(tmp.join("search-queue"), tmp.join("search.lock"))
    }

    #[test]
    fn pushed_operations_come_back_in_order_and_go_when_removed() {
        let tmp = tempfile::tempdir().unwrap();
        let q = queue(tmp.path());
        assert!(q.is_empty().unwrap());
        let a = q.push("{\"n\":1}").unwrap();
        let b = q.push("{\"n\":2}").unwrap();
        let (ok, bad) = q.pending().unwrap();
        assert!(bad.is_empty());
        let texts: Vec<_> = ok.iter().map(|q| q.text.as_str()).collect();
        assert_eq!(texts, ["{\"n\":1}", "{\"n\":2}"]);
        q.remove(&[a]).unwrap();
        assert_eq!(q.pending().unwrap().0[0].name, b);
        q.remove(&[b.clone(), b]).unwrap();
        assert_eq!(q.len().unwrap(), 0);
    }

    #[test]
    fn one_writer_at_a_time() {
        let tmp = tempfile::tempdir().unwrap();
        let q = queue(tmp.path());
        let held = q.try_writer().unwrap().expect("free");
        // A second open file description (another process, as far as flock is concerned).
        assert!(q.try_writer().unwrap().is_none());
        drop(held);
        assert!(q.try_writer().unwrap().is_some());
    }

    #[cfg(unix)]
    #[test]
    fn a_linked_queue_file_is_refused_by_name() {
        let tmp = tempfile::tempdir().unwrap();
        let q = queue(tmp.path());
        q.push("{}").unwrap();
        let elsewhere = tmp.path().join("elsewhere");
        std::fs::write(&elsewhere, "{\"secret\":1}").unwrap();
        std::os::unix::fs::symlink(&elsewhere, q.dir().join("00000000000000000000-1-1.json"))
            .unwrap();
        let (ok, bad) = q.pending().unwrap();
        assert_eq!(ok.len(), 1);
        assert_eq!(bad.len(), 1);
        assert!(matches!(bad[0].error, StoreError::NotRegular { .. }));
    }
}
