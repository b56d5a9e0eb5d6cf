//! The messages between the app and its shell: what happened ([`Msg`]), what the shell must
//! do ([`Effect`], [`StoreOp`]) and why work the shell did failed ([`ShellError`]).

use crate::keymap::Key;
use smolweb_client::Outcome;
use smolweb_core::page::Page;
use smolweb_net::IdentityChoice;
use smolweb_store::StoreError;
use smolweb_store::approvals::Approval;
use smolweb_store::bookmarks::Bookmark;
use smolweb_store::identity::{Identity, NewIdentity};
use std::path::PathBuf;
use std::sync::Arc;

/// Something that happened.
#[derive(Clone, Debug)]
pub enum Msg {
    Key(Key),
    /// A left click at a screen cell.
    Click {
        col: u16,
        row: u16,
    },
    /// The pointer moved over a screen cell.
    Hover {
        col: u16,
        row: u16,
    },
    /// Mouse wheel: positive = down.
    Wheel(i32),
    Resize {
        width: u16,
        height: u16,
    },
    /// Milliseconds since start; drives the spinner and the link-number timeout.
    Tick(u64),
    Paste(String),
    Fetched {
        id: u64,
        outcome: Box<Outcome>,
    },
    Progress {
        id: u64,
        bytes: u64,
    },
    /// History (url, title) and bookmarks, for completion and the bookmark toggle.
    Lists {
        history: Vec<(String, Option<String>)>,
        bookmarks: Vec<Bookmark>,
    },
    Identities(Vec<Identity>),
    Approvals(Vec<Approval>),
    IdentityCreated {
        result: Result<Identity, ShellError>,
        /// Where to go with the new identity (tab id, URL).
        then: Option<(u64, String)>,
    },
    /// A store operation finished: a sentence for the status line, or an error.
    Done(Result<String, ShellError>),
    /// Feeds and offline reading: refresh progress, results, an offered offline copy.
    Feeds(super::FeedMsg),
}

/// Why work the shell did for the app failed (a store change, a download, a program). The
/// cause is kept as the error's source; `Arc` keeps the messages cloneable.
#[derive(Clone, Debug, thiserror::Error)]
pub enum ShellError {
    /// A store read or write failed.
    #[error(transparent)]
    Store(Arc<StoreError>),
    /// A download could not be written.
    #[error("cannot write {}: {source}", path.display())]
    Write {
        /// The file or directory.
        path: PathBuf,
        /// Why.
        source: Arc<std::io::Error>,
    },
    /// Every name tried for a download exists already.
    #[error("too many files named {name} in {}", dir.display())]
    NameTaken {
        /// The name asked for.
        name: String,
        /// The downloads directory.
        dir: PathBuf,
    },
    /// `[tui] external_command` is empty.
    #[error("no external command configured")]
    NoCommand,
    /// A link of another scheme than http(s) and mailto reached the opener.
    #[error("not handed to an external program: only http(s) and mailto links are ({scheme}:)")]
    NotOpened {
        /// Its scheme (sanitized).
        scheme: String,
    },
    /// The external program could not be started.
    #[error("cannot start {program} for {url}: {source}")]
    Start {
        /// The program.
        program: String,
        /// What it was to open.
        url: String,
        /// Why it did not start.
        source: Arc<std::io::Error>,
    },
    /// The store thread could not be started.
    #[error("not done: the store thread did not start ({0})")]
    NoStoreThread(#[source] Arc<std::io::Error>),
    /// The store thread has stopped (it no longer takes work).
    #[error("not done: the store thread has stopped")]
    StoreThreadStopped,
}

impl From<StoreError> for ShellError {
    fn from(e: StoreError) -> Self {
        ShellError::Store(Arc::new(e))
    }
}

/// Per-fetch options.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FetchOptions {
    pub input: Option<String>,
    pub search: Option<String>,
    pub refresh: bool,
    pub identity: IdentityChoice,
    pub trust_once: Option<String>,
    /// Web pages: the whole page rather than its main content.
    pub web_full: bool,
}

/// Persistent changes and reads, done by the shell.
#[derive(Clone, Debug)]
pub enum StoreOp {
    RecordHistory {
        url: String,
        title: Option<String>,
    },
    AddBookmark {
        url: String,
        title: String,
    },
    RemoveBookmark {
        url: String,
    },
    /// Reload history, bookmarks, identities and approvals.
    LoadLists,
    CreateIdentity {
        new: NewIdentity,
        then: Option<(u64, String)>,
    },
    SetAgentUse {
        fingerprint: String,
        allowed: bool,
    },
    ExportIdentity {
        fingerprint: String,
    },
    DeleteIdentity {
        fingerprint: String,
    },
    Pin {
        host: String,
        port: u16,
        fingerprint: String,
        not_after: String,
    },
    /// Forget a pinned certificate.
    Forget {
        host: String,
        port: u16,
    },
    Approve {
        id: String,
    },
    Deny {
        id: String,
    },
}

/// Something the shell must do.
#[derive(Clone, Debug)]
pub enum Effect {
    Fetch {
        id: u64,
        url: String,
        opts: FetchOptions,
    },
    Cancel {
        id: u64,
    },
    OpenExternal {
        url: String,
    },
    Save {
        page: Arc<Page>,
        name: String,
    },
    /// Save a download, then open it with the program for its type.
    Open {
        page: Arc<Page>,
        name: String,
    },
    Store(StoreOp),
    /// Put text on the clipboard through the terminal (OSC 52).
    Copy {
        text: String,
    },
    Quit,
    /// Subscribe, refresh, save for offline (see [`super::FeedOp`]).
    Feeds(super::FeedOp),
}
