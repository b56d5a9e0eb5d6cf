//! The index on disk: opening it (and knowing when it must be rebuilt), rebuilding it from
//! the stores, and the handle the client keeps ([`SearchIndex`]).
//!
//! Lock order, everywhere: the writer lock (a file lock, between processes) before the
//! in-process state mutex, never the other way round, so the committer thread and a search
//! that must rebuild cannot wait on each other.
//! A rebuild writes a new index beside the old one (`search.new-*`), then swaps the
//! directories by rename; the old one is removed after. Processes that still read the old
//! files see the version mark change and open the new index before their next search.

use crate::schema::{self, Fields, SCHEMA_VERSION};
use crate::writer::{self, Committer};
use crate::{Doc, SearchError, Source};
use smolweb_store::search_queue::{SearchQueue, WriterLock};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};
use tantivy::{Index, IndexReader, ReloadPolicy};

/// The name of the version mark in the index directory.
pub(crate) const MARK: &str = "smolweb-search.version";
/// Memory for a rebuild's writer: two threads of 16 MB (tantivy's minimum is 15 MB a thread;
/// the arenas grow only as far as the documents need).
const REBUILD_BUDGET: usize = 32_000_000;

/// Where documents come from besides the pages added one by one: the client reads its
/// stores. Used by a rebuild (everything) and before each commit and search (the sources
/// kept equal to a store, when the store's file changed).
pub trait Corpus: Send + Sync {
    /// Every document the stores can give again (history with its offline text, offline
    /// copies, feed entries, bookmarks, shared pages, pages agents fetched as far as the
    /// activity log names them). An error is a sentence naming the store.
    fn documents(&self) -> Result<Vec<Doc>, String>;

    /// The sources kept equal to a store, each with a cheap stamp of its file (size and
    /// modification time): when a stamp changes, [`Corpus::sync`] says what the source holds
    /// now. None by default.
    fn stamps(&self) -> Vec<(Source, String)> {
        Vec::new()
    }

    /// What `source` holds now (see [`Synced`]).
    fn sync(&self, source: Source) -> Result<Synced, String> {
        let _ = source;
        Ok(Synced::Keep(std::collections::HashSet::new()))
    }
}

/// What a store-kept source holds now.
#[derive(Clone, Debug, PartialEq)]
pub enum Synced {
    /// Exactly these documents (bookmarks, shared pages, feed entries, saved pages).
    Replace(Vec<Doc>),
    /// Only documents of these URLs stay (the history: a forgotten visit, a cleared history
    /// or a visit past the history's bound leaves the index).
    Keep(std::collections::HashSet<String>),
}

/// An opened index.
pub(crate) struct Opened {
    pub(crate) index: Index,
    pub(crate) reader: IndexReader,
    pub(crate) fields: Fields,
    /// The version mark's text when it was opened (a rebuild changes it).
    pub(crate) mark: String,
    /// The stamp of tantivy's `meta.json` the reader was last loaded at (see
    /// [`Opened::searcher`]).
    pub(crate) loaded: Mutex<String>,
}

impl Opened {
    /// A searcher over the last commit. The reader is loaded again only when `meta.json`
    /// changed (every commit, of any process, replaces it): loading opens every segment
    /// again and drops the stored-text cache, which cost more than most searches.
    pub(crate) fn searcher(&self, dir: &Path) -> tantivy::Searcher {
        let now = file_stamp(&dir.join("meta.json"));
        let mut loaded = lock(&self.loaded);
        if *loaded != now {
            match self.reader.reload() {
                Ok(()) => *loaded = now,
                Err(e) => tracing::warn!("search index: reloading the reader: {e}"),
            }
        }
        self.reader.searcher()
    }
}

/// A cheap signature of a file: inode, size and modification time ("-" when missing; a link
/// is not followed). Equal stamps: the file was not replaced or written since.
pub fn file_stamp(path: &Path) -> String {
    let Ok(meta) = std::fs::symlink_metadata(path) else {
        return "-".into();
    };
    #[cfg(unix)]
    let ino = std::os::unix::fs::MetadataExt::ino(&meta);
    #[cfg(not(unix))]
    let ino = 0;
    let modified = meta
        .modified()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos());
    format!("{ino}-{}-{modified}", meta.len())
}

/// What a directory holds.
pub(crate) enum Health {
    Ready(Box<Opened>),
    /// It must be rebuilt, and why (a sentence; "missing" for a first build).
    Rebuild(String),
}

/// What a rebuild did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rebuilt {
    /// Why it was rebuilt.
    pub reason: String,
    /// Documents in the new index.
    pub documents: u64,
}

impl Rebuilt {
    /// One sentence for people.
    pub fn message(&self) -> String {
        format!(
            "the search index was rebuilt from smolweb's stores ({}): {}",
            smolweb_core::text::count(self.documents as usize, "document", "documents"),
            self.reason
        )
    }
}

/// What a flush did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Flushed {
    /// Operations committed.
    pub committed: usize,
    /// Operations left queued (another process holds the writer lock).
    pub queued: usize,
    /// Set when the index had to be rebuilt first.
    pub rebuilt: Option<Rebuilt>,
}

/// Numbers about the index, for status lines.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Documents in the index (all sources).
    pub documents: u64,
    /// Bytes on disk.
    pub bytes: u64,
    /// Operations waiting in the queue.
    pub queued: usize,
}

pub(crate) struct Inner {
    pub(crate) dir: PathBuf,
    pub(crate) queue: SearchQueue,
    pub(crate) corpus: Arc<dyn Corpus>,
    pub(crate) state: Mutex<Option<Opened>>,
    /// The store stamps last committed (or found committed) by this process.
    pub(crate) synced: Mutex<Option<Vec<(Source, String)>>>,
}

/// The index of one data directory, as one process uses it. Cheap to share behind an `Arc`;
/// nothing is opened until the first search or write.
pub struct SearchIndex {
    pub(crate) inner: Arc<Inner>,
    committer: Mutex<Option<Committer>>,
}

impl std::fmt::Debug for SearchIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SearchIndex")
            .field("dir", &self.inner.dir)
            .finish_non_exhaustive()
    }
}

impl Drop for SearchIndex {
    fn drop(&mut self) {
        if let Some(c) = lock(&self.committer).take() {
            c.finish();
        }
    }
}

pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl SearchIndex {
    /// The index in `dir`, its queue, and where a rebuild reads the stores.
    pub fn new(dir: PathBuf, queue: SearchQueue, corpus: Arc<dyn Corpus>) -> SearchIndex {
        SearchIndex {
            inner: Arc::new(Inner {
                dir,
                queue,
                corpus,
                state: Mutex::new(None),
                synced: Mutex::new(None),
            }),
            committer: Mutex::new(None),
        }
    }

    /// The index directory.
    pub fn dir(&self) -> &Path {
        &self.inner.dir
    }

    /// Hand `op` to this process's committer thread (started on first use), which queues it
    /// durably and commits the queue when it gets the writer lock. Never blocks on IO.
    pub fn submit(&self, op: crate::Op) {
        let mut c = lock(&self.committer);
        let committer = c.get_or_insert_with(|| Committer::start(self.inner.clone()));
        committer.send(op);
    }

    /// Wait until the operations submitted so far are queued, then try to commit the queue,
    /// waiting at most `wait` for the writer lock (the CLI and tests; the faces submit).
    pub fn flush(&self, wait: std::time::Duration) -> Result<Flushed, SearchError> {
        if let Some(c) = lock(&self.committer).as_ref() {
            c.drain();
        }
        writer::flush(&self.inner, wait)
    }

    /// Queue `op` durably now, in this thread (the store thread of the browser, the CLI).
    pub fn queue_now(&self, op: &crate::Op) -> Result<(), SearchError> {
        writer::queue(&self.inner.queue, op)
    }

    /// Rebuild the index from the stores and the queue (`smolweb search --reindex`), waiting
    /// for the writer lock.
    pub fn reindex(&self, reason: &str) -> Result<Rebuilt, SearchError> {
        let held = self.inner.queue.writer()?;
        rebuild(&self.inner, &held, reason)
    }

    /// Documents, bytes on disk and queued operations.
    pub fn stats(&self) -> Result<Stats, SearchError> {
        let queued = self.inner.queue.len()?;
        let bytes = dir_bytes(&self.inner.dir);
        let documents = match health(&self.inner.dir)? {
            Health::Ready(o) => o.reader.searcher().num_docs(),
            Health::Rebuild(_) => 0,
        };
        Ok(Stats {
            documents,
            bytes,
            queued,
        })
    }

    /// When a store-kept source changed since the last commit, commit it now if the writer
    /// lock is free (a forgotten visit leaves before the search runs); else the holder does.
    /// Returns the rebuild this needed, if any.
    pub(crate) fn sync_stores(&self) -> Option<Rebuilt> {
        let stamps = self.inner.corpus.stamps();
        if lock(&self.inner.synced).as_ref() == Some(&stamps) {
            return None;
        }
        match self.inner.queue.try_writer() {
            Ok(Some(held)) => match writer::commit_locked(&self.inner, &held) {
                Ok((_, rebuilt)) => rebuilt,
                Err(e) => {
                    tracing::warn!("search index: {e}");
                    None
                }
            },
            Ok(None) => None,
            Err(e) => {
                tracing::warn!("search index: the writer lock: {e}");
                None
            }
        }
    }

    /// Run `f` on the opened index, opening it first (rebuilding it when it must be, with
    /// the reason returned). The writer lock is taken only to rebuild.
    pub(crate) fn with_opened<R>(
        &self,
        f: impl FnOnce(&Opened) -> Result<R, SearchError>,
    ) -> Result<(R, Option<Rebuilt>), SearchError> {
        {
            let mut state = lock(&self.inner.state);
            if let Some(o) = state.as_ref()
                && current_mark(&self.inner.dir).as_deref() == Some(o.mark.as_str())
            {
                return Ok((f(o)?, None));
            }
            match health(&self.inner.dir)? {
                Health::Ready(o) => {
                    let o = state.insert(*o);
                    return Ok((f(o)?, None));
                }
                Health::Rebuild(_) => *state = None,
            }
        }
        let held = self.inner.queue.writer()?;
        let rebuilt = ensure_locked(&self.inner, &held)?;
        let state = lock(&self.inner.state);
        match state.as_ref() {
            Some(o) => Ok((f(o)?, rebuilt)),
            None => Err(SearchError::Read {
                path: self.inner.dir.clone(),
                reason: "it could not be opened after a rebuild".into(),
            }),
        }
    }
}

/// The version mark this build writes.
fn mark_text(build: &str) -> String {
    format!("smolweb-search {SCHEMA_VERSION} {build}\n")
}

/// The version mark in `dir`, if readable.
pub(crate) fn current_mark(dir: &Path) -> Option<String> {
    std::fs::read_to_string(dir.join(MARK)).ok()
}

/// Refuse a link or a non-directory; Ok(false) when nothing is there.
fn check_dir(dir: &Path) -> Result<bool, SearchError> {
    match std::fs::symlink_metadata(dir) {
        Ok(m) if m.file_type().is_symlink() => Err(SearchError::Link(dir.to_path_buf())),
        Ok(m) if !m.is_dir() => Err(SearchError::NotDirectory(dir.to_path_buf())),
        Ok(_) => Ok(true),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
        Err(source) => Err(SearchError::Store(smolweb_store::StoreError::Io {
            path: dir.to_path_buf(),
            source,
        })),
    }
}

/// Open `dir`, or say why it must be rebuilt. A link is an error, never a rebuild.
pub(crate) fn health(dir: &Path) -> Result<Health, SearchError> {
    if !check_dir(dir)? {
        return Ok(Health::Rebuild("there was no index yet".into()));
    }
    let Some(mark) = current_mark(dir) else {
        return Ok(Health::Rebuild(
            "it had no version mark (an interrupted build, or not smolweb's)".into(),
        ));
    };
    let version = mark.split_whitespace().nth(1).unwrap_or("");
    if mark.split_whitespace().next() != Some("smolweb-search")
        || version != SCHEMA_VERSION.to_string()
    {
        return Ok(Health::Rebuild(format!(
            "it was written by another version of smolweb (index version \"{version}\", this \
             one reads {SCHEMA_VERSION})"
        )));
    }
    let index = match Index::open_in_dir(dir) {
        Ok(i) => i,
        Err(e) => return Ok(Health::Rebuild(format!("it could not be opened ({e})"))),
    };
    let Some(fields) = schema::fields_of(&index.schema()) else {
        return Ok(Health::Rebuild("its fields are not this version's".into()));
    };
    schema::register(&index);
    // Stamped before the reader loads: a commit in between costs one more load, never a
    // missed one.
    let loaded = Mutex::new(file_stamp(&dir.join("meta.json")));
    let reader = match index
        .reader_builder()
        .reload_policy(ReloadPolicy::Manual)
        .doc_store_cache_num_blocks(8)
        .try_into()
    {
        Ok(r) => r,
        Err(e) => return Ok(Health::Rebuild(format!("it could not be read ({e})"))),
    };
    Ok(Health::Ready(Box::new(Opened {
        index,
        reader,
        fields,
        mark,
        loaded,
    })))
}

/// Holding the writer lock: open the index into the state, rebuilding it when it must be.
pub(crate) fn ensure_locked(
    inner: &Inner,
    held: &WriterLock,
) -> Result<Option<Rebuilt>, SearchError> {
    if let Some(o) = lock(&inner.state).as_ref()
        && current_mark(&inner.dir).as_deref() == Some(o.mark.as_str())
    {
        return Ok(None);
    }
    match health(&inner.dir)? {
        Health::Ready(o) => {
            *lock(&inner.state) = Some(*o);
            Ok(None)
        }
        Health::Rebuild(reason) => rebuild(inner, held, &reason).map(Some),
    }
}

fn rebuild_error(dir: &Path, e: impl std::fmt::Display) -> SearchError {
    SearchError::Rebuild {
        path: dir.to_path_buf(),
        reason: e.to_string(),
    }
}

/// Holding the writer lock: build a new index from the stores and the queue, swap it in.
pub(crate) fn rebuild(
    inner: &Inner,
    _held: &WriterLock,
    reason: &str,
) -> Result<Rebuilt, SearchError> {
    let dir = &inner.dir;
    let exists = check_dir(dir)?;
    let parent = dir.parent().unwrap_or(Path::new("."));
    sweep_leftovers(parent);
    let stamps = inner.corpus.stamps();
    let docs = inner
        .corpus
        .documents()
        .map_err(|e| rebuild_error(dir, format!("the stores could not be read: {e}")))?;
    let nanos = time::OffsetDateTime::now_utc().unix_timestamp_nanos();
    let build = format!("{}-{nanos}", std::process::id());
    let fresh = parent.join(format!("search.new-{build}"));
    let built = build_into(inner, &fresh, docs, &build, &stamps);
    let (documents, committed) = match built {
        Ok(b) => b,
        Err(e) => {
            let _ = std::fs::remove_dir_all(&fresh);
            return Err(e);
        }
    };
    let old = parent.join(format!("search.old-{build}"));
    if exists {
        std::fs::rename(dir, &old).map_err(|e| rebuild_error(dir, e))?;
    }
    if let Err(e) = std::fs::rename(&fresh, dir) {
        if exists {
            let _ = std::fs::rename(&old, dir);
        }
        let _ = std::fs::remove_dir_all(&fresh);
        return Err(rebuild_error(dir, e));
    }
    if let Ok(d) = std::fs::File::open(parent) {
        let _ = d.sync_all();
    }
    let _ = std::fs::remove_dir_all(&old);
    inner.queue.remove(&committed)?;
    *lock(&inner.synced) = Some(stamps);
    *lock(&inner.state) = match health(dir)? {
        Health::Ready(o) => Some(*o),
        Health::Rebuild(why) => return Err(rebuild_error(dir, why)),
    };
    let rebuilt = Rebuilt {
        reason: reason.to_string(),
        documents,
    };
    tracing::warn!("{}", rebuilt.message());
    Ok(rebuilt)
}

/// Write a complete index of `docs` and the queue into `fresh`; the documents in it and the
/// queue files it took.
fn build_into(
    inner: &Inner,
    fresh: &Path,
    docs: Vec<Doc>,
    build: &str,
    stamps: &[(Source, String)],
) -> Result<(u64, Vec<String>), SearchError> {
    let fail = |e: &dyn std::fmt::Display| rebuild_error(&inner.dir, e);
    std::fs::create_dir_all(fresh).map_err(|e| fail(&e))?;
    let (schema, fields) = schema::build();
    let index = Index::builder()
        .schema(schema)
        .settings(schema::settings())
        .create_in_dir(fresh)
        .map_err(|e| fail(&e))?;
    schema::register(&index);
    let mut w = index
        .writer_with_num_threads::<tantivy::TantivyDocument>(2, REBUILD_BUDGET)
        .map_err(|e| fail(&e))?;
    // No merges while building: the segments are merged into one once, after the commit.
    w.set_merge_policy(Box::new(tantivy::indexer::NoMergePolicy));
    for doc in docs {
        writer::add(&w, &fields, doc).map_err(|e| fail(&e))?;
    }
    let taken = writer::apply_queue(inner, &w, &fields).map_err(|e| fail(&e))?;
    let mut prepared = w
        .prepare_commit()
        .map_err(|e| fail(&writer::describe(&e)))?;
    prepared.set_payload(&writer::payload(stamps));
    prepared.commit().map_err(|e| fail(&writer::describe(&e)))?;
    // One segment: the smallest index (one term dictionary per field, the stored text in
    // full blocks), and the fastest searches. Incremental commits add small segments that
    // tantivy's merge policy folds in later.
    let segments = index.searchable_segment_ids().map_err(|e| fail(&e))?;
    if segments.len() > 1 {
        w.merge(&segments).wait().map_err(|e| fail(&e))?;
    }
    w.wait_merging_threads().map_err(|e| fail(&e))?;
    let documents = index.reader().map(|r| r.searcher().num_docs()).unwrap_or(0);
    write_mark(fresh, build).map_err(|e| fail(&e))?;
    Ok((documents, taken))
}

fn write_mark(dir: &Path, build: &str) -> std::io::Result<()> {
    use std::io::Write;
    let mut f = std::fs::File::create(dir.join(MARK))?;
    f.write_all(mark_text(build).as_bytes())?;
    f.sync_all()
}

/// Remove what killed rebuilds left (only the writer lock's holder makes them).
fn sweep_leftovers(parent: &Path) {
    let Ok(entries) = std::fs::read_dir(parent) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name();
        let name = name.to_string_lossy();
        let ours = name.starts_with("search.new-") || name.starts_with("search.old-");
        let is_dir = e.file_type().is_ok_and(|t| t.is_dir());
        if ours && is_dir {
            let _ = std::fs::remove_dir_all(e.path());
        }
    }
}

/// Bytes of the regular files in `dir` (not following links).
pub(crate) fn dir_bytes(dir: &Path) -> u64 {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    entries
        .flatten()
        .filter_map(|e| e.metadata().ok())
        .filter(|m| m.is_file())
        .map(|m| m.len())
        .sum()
}
