//! The local full-text index of what the person and their agents read, on tantivy: pages
//! visited, offline copies, feed entries, bookmarks, pages shared with agents and pages
//! agents fetched, each a document that knows its [`Source`], URL, title, language and time.
//!
//! One crate owns the engine: the faces call it through the client and never name tantivy.
//! What it promises:
//! - **Privacy in one place.** [`Scope`] says which sources each face sees; the filter is a
//!   clause of the query itself, so a hidden document is never counted, ranked or
//!   snippeted, and asking for a hidden source is an error that says which setting allows
//!   it, not a count. What is never indexed is [`doc::refusal`]'s rule.
//! - **One writer at a time, nothing lost.** Every change is first queued durably
//!   (`smolweb_store::search_queue`: one small file per operation, written atomically), then
//!   the process that gets the writer lock (never waiting for it) commits the whole queue
//!   and removes what it committed; a process that does not get it leaves its operations to
//!   the holder or the next writer. A killed process loses at most the operation it had not
//!   queued yet; a failed commit (a full disk) leaves the queue as it was.
//! - **Never a crash on a bad index.** A missing, corrupt or other-version index is rebuilt
//!   from the stores ([`Corpus`]) with a message saying why ([`Results::rebuilt`]); the
//!   directory being a symbolic link is refused with its name, never followed or replaced.
//! - **Indexing never waits in a face.** [`SearchIndex::submit`] hands the operation to a
//!   background thread of this process, which queues and commits it.
//!
//! Layout: `search/` in the data directory (tantivy's files and `smolweb-search.version`),
//! `search-queue/` and `search.lock` beside it.

#![warn(missing_docs)]

pub mod doc;
/// The fuzz targets' door (`fuzz/`): only with the `fuzzing` feature. Not an API.
#[cfg(feature = "fuzzing")]
#[doc(hidden)]
pub mod fuzzing;
mod index;
mod phrase;
pub mod query;
mod results;
mod schema;
mod tokenize;
mod writer;

pub use doc::{Doc, Kind, MAX_TEXT_BYTES, Op, Scope, Source, page_text, refusal};
pub use index::{Corpus, Flushed, Rebuilt, SearchIndex, Stats, Synced, file_stamp};
pub use query::{QueryError, parse};
pub use results::{Hit, MAX_RANKED, MAX_WINDOW, Request, Results, Snippet};

use std::path::PathBuf;

/// Why a search, a commit or a rebuild failed. Every variant that concerns a file names it.
#[derive(Debug, thiserror::Error)]
pub enum SearchError {
    /// The query cannot be run (the error says why and what to do).
    #[error(transparent)]
    Query(#[from] QueryError),
    /// The searcher's scope does not include this source.
    #[error(
        "pages of the source \"{}\" are not searchable by agents: the person can allow \
         them with [agents] search_history = true in smolweb's config",
        .0.as_str()
    )]
    HiddenSource(Source),
    /// The index directory is a symbolic link.
    #[error(
        "{} is a symbolic link: smolweb does not read or write its search index through one \
         (replace it with a directory, or point --data-dir where the data should be)",
        .0.display()
    )]
    Link(PathBuf),
    /// The index path is a file, a FIFO or a device, not a directory.
    #[error("{} is not a directory: smolweb keeps its search index there (move it away)", .0.display())]
    NotDirectory(PathBuf),
    /// The queue or the lock could not be used.
    #[error(transparent)]
    Store(#[from] smolweb_store::StoreError),
    /// The index could not be read.
    #[error("cannot read the search index {}: {reason}", .path.display())]
    Read {
        /// The index directory.
        path: PathBuf,
        /// What tantivy said.
        reason: String,
    },
    /// A commit failed; the operations stay queued for the next writer.
    #[error(
        "cannot write the search index {}: {reason}; nothing is lost: the pages stay queued \
         and the next write commits them",
        .path.display()
    )]
    Commit {
        /// The index directory.
        path: PathBuf,
        /// What failed (a full disk says so).
        reason: String,
    },
    /// A rebuild failed; the old index (if any) is left as it was.
    #[error("cannot rebuild the search index {}: {reason}", .path.display())]
    Rebuild {
        /// The index directory.
        path: PathBuf,
        /// What failed.
        reason: String,
    },
}
