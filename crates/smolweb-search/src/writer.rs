//! Writing: queueing an operation durably, the committer thread each process starts on its
//! first [`crate::SearchIndex::submit`], and the commit of the queue by whoever holds the
//! writer lock.
//!
//! The committer queues each operation it receives, then tries the writer lock: when it gets
//! it, it commits the whole queue (its own operations and any other process's); when another
//! process holds it, it tries again a little later, for a while ([`RETRY_FOR`]), and then
//! leaves the queue to the next writer. A commit applies the queued operations in the order
//! they were queued (an add replaces the document of the same source and URL), commits,
//! and only then removes the files it applied: a crash in between applies them again, which
//! changes nothing.

use crate::SearchError;
use crate::doc::{Doc, MAX_TITLE_BYTES, Op, Source, cut_to};
use crate::index::{Flushed, Inner, ensure_locked, lock};
use crate::schema::{Fields, language_of};
use smolweb_store::search_queue::{SearchQueue, WriterLock};
use std::sync::Arc;
use std::sync::mpsc;
use std::time::{Duration, Instant};
use tantivy::{IndexWriter, TantivyDocument, Term};

/// Memory of an incremental commit's writer (tantivy's minimum, one thread).
const COMMIT_BUDGET: usize = 15_000_000;
/// How long the committer keeps trying for the writer lock before leaving its queue to the
/// next writer.
pub(crate) const RETRY_FOR: Duration = Duration::from_secs(10);
const RETRY_EVERY: Duration = Duration::from_millis(100);

/// The separator of a document's key (source, URL).
const KEY_SEP: char = '\u{1f}';

pub(crate) fn key(source: Source, url: &str) -> String {
    format!("{}{KEY_SEP}{url}", source.as_str())
}

/// A stable 64-bit hash of a URL (FNV-1a): results of several sources merge by it.
pub(crate) fn url_key(url: &str) -> u64 {
    url.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The host of a URL and its parent domains (`a.b.test`, `b.test`, `test`), for `site:`.
pub(crate) fn hosts(url: &str) -> Vec<String> {
    let Ok(u) = smolweb_core::url::Url::parse(url) else {
        return Vec::new();
    };
    let host = u.host().trim_end_matches('.').to_lowercase();
    let mut out = vec![host.clone()];
    let mut rest = host.as_str();
    while let Some((_, parent)) = rest.split_once('.') {
        if parent.is_empty() {
            break;
        }
        out.push(parent.to_string());
        rest = parent;
    }
    out
}

/// Queue `op` durably (the caller's thread).
pub(crate) fn queue(queue: &SearchQueue, op: &Op) -> Result<(), SearchError> {
    let text = serde_json::to_string(op).map_err(|e| SearchError::Commit {
        path: queue.dir().to_path_buf(),
        reason: e.to_string(),
    })?;
    queue.push(&text)?;
    Ok(())
}

/// Add one document (replacing the one of its source and URL) to a writer.
pub(crate) fn add(
    w: &IndexWriter<TantivyDocument>,
    f: &Fields,
    mut doc: Doc,
) -> tantivy::Result<()> {
    let key = key(doc.source, &doc.url);
    w.delete_term(Term::from_field_text(f.key, &key));
    let cut = cut_to(&mut doc.text, crate::MAX_TEXT_BYTES);
    let text = smolweb_core::text::sanitize(&doc.text);
    let mut d = TantivyDocument::default();
    d.add_text(f.key, &key);
    d.add_text(f.source, doc.source.as_str());
    d.add_u64(f.url_key, url_key(&doc.url));
    d.add_text(f.url, &doc.url);
    d.add_text(f.url_words, &doc.url);
    for h in hosts(&doc.url) {
        d.add_text(f.host, &h);
    }
    if let Some(mut t) = doc.title.filter(|t| !t.trim().is_empty()) {
        cut_to(&mut t, MAX_TITLE_BYTES);
        d.add_text(f.title, smolweb_core::text::one_line(&t, None).trim());
    }
    if let Some(mut feed) = doc.feed {
        cut_to(&mut feed, MAX_TITLE_BYTES);
        d.add_text(f.feed, smolweb_core::text::one_line(&feed, None).trim());
    }
    let body = match doc.lang.as_deref().and_then(language_of) {
        Some(i) => f.bodies[i + 1],
        None => f.bodies[0],
    };
    if let Some(lang) = &doc.lang {
        d.add_text(f.lang, lang);
    }
    d.add_i64(f.time, doc.time.unix_timestamp());
    d.add_text(body, &text);
    d.add_text(f.text, &text);
    d.add_u64(f.cut, u64::from(cut));
    w.add_document(d)?;
    Ok(())
}

/// Apply one operation to a writer.
fn apply(w: &IndexWriter<TantivyDocument>, f: &Fields, op: Op) -> tantivy::Result<()> {
    match op {
        Op::Add(doc) => add(w, f, doc),
        Op::Forget { url, sources } => {
            let url = smolweb_core::url::strip_query(url.trim());
            for s in sources {
                w.delete_term(Term::from_field_text(f.key, &key(s, url)));
            }
            Ok(())
        }
        Op::Clear { source } => {
            w.delete_term(Term::from_field_text(f.source, source.as_str()));
            Ok(())
        }
    }
}

/// Apply the whole queue to a writer (not committed); the names of the files it took,
/// unreadable ones included (they are removed with the others, after a warning).
pub(crate) fn apply_queue(
    inner: &Inner,
    w: &IndexWriter<TantivyDocument>,
    f: &Fields,
) -> Result<Vec<String>, SearchError> {
    let (ops, bad) = inner.queue.pending()?;
    let mut taken = Vec::with_capacity(ops.len() + bad.len());
    for b in bad {
        tracing::warn!(file = %b.name, "search queue: a file could not be read and is dropped: {}", b.error);
        taken.push(b.name);
    }
    for q in ops {
        match serde_json::from_str::<Op>(&q.text) {
            Ok(op) => apply(w, f, op).map_err(|e| SearchError::Commit {
                path: inner.dir.clone(),
                reason: describe(&e),
            })?,
            Err(e) => {
                tracing::warn!(file = %q.name, "search queue: not an operation, dropped: {e}");
            }
        }
        taken.push(q.name);
    }
    Ok(taken)
}

/// A tantivy error in words, a full disk named as such.
pub(crate) fn describe(e: &tantivy::TantivyError) -> String {
    let text = e.to_string();
    let full = text.contains("No space left") || text.contains("File too large");
    match full {
        true => format!("the disk is full ({text})"),
        false => text,
    }
}

/// The commit payload: the store stamps the index now agrees with.
pub(crate) fn payload(stamps: &[(Source, String)]) -> String {
    let map: std::collections::BTreeMap<&str, &str> = stamps
        .iter()
        .map(|(s, v)| (s.as_str(), v.as_str()))
        .collect();
    serde_json::to_string(&map).unwrap_or_default()
}

/// The stamps a committed payload holds.
fn committed_stamps(index: &tantivy::Index) -> Vec<(Source, String)> {
    let payload = index.load_metas().ok().and_then(|m| m.payload);
    let map: std::collections::BTreeMap<String, String> = payload
        .and_then(|p| serde_json::from_str(&p).ok())
        .unwrap_or_default();
    map.into_iter()
        .filter_map(|(k, v)| Source::parse(&k).map(|s| (s, v)))
        .collect()
}

/// Bring the store-kept sources whose stamp changed up to date, in the writer (before the
/// queue, so a page queued meanwhile is added after the deletions).
fn sync_sources(
    inner: &Inner,
    w: &IndexWriter<TantivyDocument>,
    f: &Fields,
    reader: &tantivy::IndexReader,
    changed: &[Source],
) -> Result<(), SearchError> {
    let fail = |reason: String| SearchError::Commit {
        path: inner.dir.clone(),
        reason,
    };
    for source in changed {
        match inner.corpus.sync(*source).map_err(fail)? {
            crate::Synced::Replace(docs) => {
                w.delete_term(Term::from_field_text(f.source, source.as_str()));
                for d in docs {
                    add(w, f, d).map_err(|e| fail(describe(&e)))?;
                }
            }
            crate::Synced::Keep(urls) => {
                for url in indexed_urls(reader, f, *source).map_err(|e| fail(describe(&e)))? {
                    if !urls.contains(&url) {
                        w.delete_term(Term::from_field_text(f.key, &key(*source, &url)));
                    }
                }
            }
        }
    }
    Ok(())
}

/// The URLs of a source's documents in the committed index.
fn indexed_urls(
    reader: &tantivy::IndexReader,
    f: &Fields,
    source: Source,
) -> tantivy::Result<Vec<String>> {
    use tantivy::schema::Value;
    let _ = reader.reload();
    let searcher = reader.searcher();
    let q = tantivy::query::TermQuery::new(
        Term::from_field_text(f.source, source.as_str()),
        tantivy::schema::IndexRecordOption::Basic,
    );
    let addrs = searcher.search(&q, &tantivy::collector::DocSetCollector)?;
    let mut out = Vec::with_capacity(addrs.len());
    for a in addrs {
        let d: TantivyDocument = searcher.doc(a)?;
        if let Some(u) = d.get_first(f.url).and_then(|v| v.as_str()) {
            out.push(u.to_string());
        }
    }
    Ok(out)
}

/// Holding the writer lock: bring the store-kept sources up to date and commit the queue
/// into the index (rebuilding it first when it must be). Returns how many queued operations
/// were committed and the rebuild, if any.
pub(crate) fn commit_locked(
    inner: &Inner,
    held: &WriterLock,
) -> Result<(usize, Option<crate::Rebuilt>), SearchError> {
    let rebuilt = ensure_locked(inner, held)?;
    let stamps = inner.corpus.stamps();
    let queued = !inner.queue.is_empty()?;
    let stale = lock(&inner.synced).as_ref() != Some(&stamps);
    if !queued && !stale {
        return Ok((0, rebuilt));
    }
    // The state is not held during the commit: a search in this process goes on meanwhile.
    let opened = lock(&inner.state)
        .as_ref()
        .map(|o| (o.index.clone(), o.fields.clone(), o.reader.clone()));
    let Some((index, fields, reader)) = opened else {
        return Ok((0, rebuilt));
    };
    let fail = |reason: String| SearchError::Commit {
        path: inner.dir.clone(),
        reason,
    };
    let committed = committed_stamps(&index);
    let changed: Vec<Source> = stamps
        .iter()
        .filter(|s| !committed.contains(s))
        .map(|(s, _)| *s)
        .collect();
    if !queued && changed.is_empty() {
        *lock(&inner.synced) = Some(stamps);
        return Ok((0, rebuilt));
    }
    let mut w = index
        .writer_with_num_threads::<TantivyDocument>(1, COMMIT_BUDGET)
        .map_err(|e| fail(describe(&e)))?;
    let taken = match sync_sources(inner, &w, &fields, &reader, &changed)
        .and_then(|()| apply_queue(inner, &w, &fields))
    {
        Ok(t) => t,
        Err(e) => {
            let _ = w.rollback();
            return Err(e);
        }
    };
    let done = w.prepare_commit().and_then(|mut p| {
        p.set_payload(&payload(&stamps));
        p.commit()
    });
    if let Err(e) = done {
        let _ = w.rollback();
        return Err(fail(describe(&e)));
    }
    // Merges finish here, in the committer, not in a face.
    if let Err(e) = w.wait_merging_threads() {
        tracing::warn!("search index: a merge failed ({e}); the next commit merges again");
    }
    inner.queue.remove(&taken)?;
    let _ = reader.reload();
    *lock(&inner.synced) = Some(stamps);
    Ok((taken.len(), rebuilt))
}

/// Try for the writer lock for up to `wait`, and commit the queue when it is had.
pub(crate) fn flush(inner: &Inner, wait: Duration) -> Result<Flushed, SearchError> {
    let until = Instant::now() + wait;
    loop {
        if let Some(held) = inner.queue.try_writer()? {
            let (committed, rebuilt) = commit_locked(inner, &held)?;
            let queued = inner.queue.len()?;
            return Ok(Flushed {
                committed,
                queued,
                rebuilt,
            });
        }
        if Instant::now() >= until {
            return Ok(Flushed {
                committed: 0,
                queued: inner.queue.len()?,
                rebuilt: None,
            });
        }
        std::thread::sleep(RETRY_EVERY);
    }
}

enum Msg {
    Op(Box<Op>),
    /// Answered once everything sent before it is queued.
    Drain(mpsc::Sender<()>),
}

/// The committer thread of one process.
pub(crate) struct Committer {
    tx: mpsc::Sender<Msg>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Committer {
    pub(crate) fn start(inner: Arc<Inner>) -> Committer {
        let (tx, rx) = mpsc::channel();
        let thread = std::thread::Builder::new()
            .name("smolweb-search".into())
            .spawn(move || run(&inner, &rx))
            .ok();
        if thread.is_none() {
            tracing::warn!("search index: no committer thread could be started");
        }
        Committer { tx, thread }
    }

    pub(crate) fn send(&self, op: Op) {
        let _ = self.tx.send(Msg::Op(Box::new(op)));
    }

    /// Wait until everything sent so far is queued on disk.
    pub(crate) fn drain(&self) {
        let (tx, rx) = mpsc::channel();
        if self.tx.send(Msg::Drain(tx)).is_ok() {
            let _ = rx.recv_timeout(RETRY_FOR);
        }
    }

    /// Stop the thread after it queued what it was sent and tried once more to commit.
    pub(crate) fn finish(mut self) {
        let (tx, _) = mpsc::channel();
        drop(std::mem::replace(&mut self.tx, tx));
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn take(inner: &Inner, msg: Msg) {
    match msg {
        Msg::Op(op) => {
            if let Err(e) = queue(&inner.queue, &op) {
                tracing::warn!("search index: a page could not be queued: {e}");
            }
        }
        Msg::Drain(done) => {
            let _ = done.send(());
        }
    }
}

fn run(inner: &Inner, rx: &mpsc::Receiver<Msg>) {
    let mut open = true;
    while open {
        let Ok(first) = rx.recv() else {
            break;
        };
        take(inner, first);
        let deadline = Instant::now() + RETRY_FOR;
        loop {
            loop {
                match rx.try_recv() {
                    Ok(m) => take(inner, m),
                    Err(mpsc::TryRecvError::Empty) => break,
                    Err(mpsc::TryRecvError::Disconnected) => {
                        open = false;
                        break;
                    }
                }
            }
            match inner.queue.try_writer() {
                Ok(Some(held)) => {
                    if let Err(e) = commit_locked(inner, &held) {
                        tracing::warn!("search index: {e}");
                    }
                    break;
                }
                Ok(None) if open && Instant::now() < deadline => {
                    match rx.recv_timeout(RETRY_EVERY) {
                        Ok(m) => take(inner, m),
                        Err(mpsc::RecvTimeoutError::Timeout) => {}
                        Err(mpsc::RecvTimeoutError::Disconnected) => open = false,
                    }
                }
                Ok(None) => break,
                Err(e) => {
                    tracing::warn!("search index: the writer lock: {e}");
                    break;
                }
            }
        }
    }
}
