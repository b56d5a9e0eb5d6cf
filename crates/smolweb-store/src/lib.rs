//! Persisted state shared by the browser and the MCP server, in one data directory.
//!
//! Every file goes through [`atomic`]: exclusive lock on a sidecar `.lock` file, re-read,
//! mutate (so concurrent writers merge), write a temp file in the same directory, fsync,
//! rename. A corrupt file is a [`StoreError::Corrupt`] naming the file; never reset silently,
//! and never quoted ([`parse_failure`]: line, column and what went wrong, nothing of the file).
//! A data file (or its lock) that is a symbolic link or not a regular file is refused with its
//! name ([`StoreError::NotRegular`]), for reads and writes alike: smolweb never reads or writes
//! through a link in its data directory. A file others can read, or a directory others can
//! write, is refused too ([`perms`], [`StoreError::Exposed`]). Paths are always injected by the
//! caller; nothing here discovers directories.

#![warn(missing_docs)]

pub mod activity;
pub mod approvals;
pub(crate) mod atomic;
pub mod bookmarks;
pub(crate) mod file_cache;
pub mod follows;
#[cfg(any(test, feature = "fuzzing"))]
#[doc(hidden)]
pub mod fuzzing;
pub mod history;
pub mod identity;
pub(crate) mod list_file;
pub mod mcp_token;
pub mod offline;
pub mod parse_failure;
pub mod paths;
pub mod perms;
pub mod search_queue;
pub mod session;
pub mod shared;
pub mod site_rules;
pub mod subscriptions;
pub mod suggestions;
pub mod sync_queue;
pub mod tofu;
pub mod tour;
pub mod uploads;

use std::path::PathBuf;

/// Why a store operation failed. Every variant that concerns a file names it.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// Reading or writing a file failed (permissions, disk full, not UTF-8, ...).
    #[error("cannot access {path}: {source}")]
    Io {
        /// The file or directory concerned.
        path: PathBuf,
        /// What the operating system said.
        #[source]
        source: std::io::Error,
    },
    /// A file that does not parse; it is left as it is (never reset or rewritten).
    #[error("{path} is corrupt: {reason}")]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// Where and what went wrong; never quotes the file ([`parse_failure`]).
        reason: String,
    },
    /// A symbolic link, a directory, a FIFO or a device where a data file should be.
    #[error(
        "{path} is {kind}, not a regular file: smolweb does not read or write through it \
         (replace it with a regular file; to keep the data elsewhere, point --data-dir there)"
    )]
    NotRegular {
        /// The path that should be a data file or its lock.
        path: PathBuf,
        /// What it is instead ("a symbolic link", "a directory", ...).
        kind: &'static str,
    },
    /// A store file group or others can read or write, or a directory of the stores others
    /// can write ([`perms`]): not used; says how to fix it.
    #[error(
        "{path} can be {what} by other users (mode {mode:04o}), so smolweb does not use it: \
         run `chmod {fix} {path}` (or set loose_permissions = \"warn\" under [data] in the \
         config to use it anyway with a warning)"
    )]
    Exposed {
        /// The file or directory.
        path: PathBuf,
        /// Its permission bits.
        mode: u32,
        /// "read", "written" or "read and written".
        what: &'static str,
        /// The mode that fixes it ("600", "700").
        fix: &'static str,
    },
    /// No such entry (an identity, approval, pin or subscription); says which.
    #[error("not found: {0}")]
    NotFound(String),
    /// An entry with this name or key is already there; says which.
    #[error("already exists: {0}")]
    Exists(String),
    /// The caller's input is unusable (a host with a port, a bad fingerprint, ...); says why.
    #[error("invalid: {0}")]
    Invalid(String),
    /// Generating a key or certificate, or drawing random bytes, failed.
    #[error("certificate generation failed: {0}")]
    Crypto(String),
}

/// The standard file names inside the data directory.
pub mod files {
    /// Pins of server certificates ([`crate::tofu::KnownHosts`]).
    pub const KNOWN_HOSTS: &str = "known_hosts.toml";
    /// The directory of client identities ([`crate::identity::Identities`]).
    pub const IDENTITIES_DIR: &str = "identities";
    /// Requests waiting for the human ([`crate::approvals::Approvals`]).
    pub(crate) const APPROVALS: &str = "approvals.toml";
    /// Bookmarks, a gemtext file ([`crate::bookmarks::Bookmarks`]).
    pub(crate) const BOOKMARKS: &str = "bookmarks.gmi";
    /// Visited URLs ([`crate::history::History`]).
    pub const HISTORY: &str = "history.toml";
    /// Followed feeds and their read state ([`crate::subscriptions::Subscriptions`]).
    pub const SUBSCRIPTIONS: &str = "subscriptions.toml";
    /// The bearer token of the MCP server over HTTP ([`crate::mcp_token`]).
    pub const MCP_TOKEN: &str = "mcp-token";
    /// What agents did, one JSON object per line ([`crate::activity::Activity`]).
    pub(crate) const ACTIVITY: &str = "agent_activity.jsonl";
    /// Pages agents suggested ([`crate::suggestions::Suggestions`]).
    pub(crate) const SUGGESTIONS: &str = "suggestions.toml";
    /// Running browsers ([`crate::suggestions::Browsers`]).
    pub(crate) const BROWSERS: &str = "browsers.toml";
    /// Pages the person shared with agents ([`crate::shared::SharedPages`]).
    pub const SHARED: &str = "shared_pages.toml";
    /// Agents allowed to upload under a scope ([`crate::uploads::Uploads`]).
    pub(crate) const UPLOADS: &str = "upload_allowances.toml";
    /// Which part of a site's web pages the reader keeps ([`crate::site_rules::SiteRules`]).
    pub const SITE_RULES: &str = "site_rules.toml";
    /// Pages to fetch at the next `smolweb sync` ([`crate::sync_queue::SyncQueue`]).
    pub(crate) const SYNC_QUEUE: &str = "sync_queue.toml";
    /// The copies of pages followed for their changes ([`crate::follows::Follows`]).
    pub const FOLLOWS_DIR: &str = "follows";
    /// The local full-text index, a directory (the search crate's).
    pub const SEARCH_DIR: &str = "search";
    /// Documents waiting for the index's next writer ([`crate::search_queue::SearchQueue`]).
    pub const SEARCH_QUEUE_DIR: &str = "search-queue";
    /// The index's writer lock ([`crate::search_queue::SearchQueue::try_writer`]).
    pub const SEARCH_LOCK: &str = "search.lock";
    /// The browser's tabs, for the next start ([`crate::session::Session`]).
    pub const SESSION: &str = "session.toml";
    /// Links to read next, the person's and agents' ([`crate::tour::Tour`]).
    pub const TOUR: &str = "tour.toml";

    /// Every file above with what it holds, for the manual page.
    pub const DESCRIBED: &[(&str, &str)] = &[
        (KNOWN_HOSTS, "server certificates pinned on first use"),
        (
            IDENTITIES_DIR,
            "client identities: a certificate and a key (0600) each, with their scope",
        ),
        (APPROVALS, "agents' requests waiting for your answer"),
        (BOOKMARKS, "bookmarks, as gemtext"),
        (HISTORY, "visited pages (never with a query)"),
        (SUBSCRIPTIONS, "feeds you follow and what you read of them"),
        (
            FOLLOWS_DIR,
            "the last copy of each page you follow for changes, with its recent changes",
        ),
        (
            SESSION,
            "the browser's tabs, opened again at the next start",
        ),
        (SYNC_QUEUE, "pages to fetch at the next smolweb sync"),
        (
            TOUR,
            "the tour: links to read next, yours and agents' (with why)",
        ),
        (ACTIVITY, "what agents did, one JSON object per line"),
        (SUGGESTIONS, "pages agents suggest you look at"),
        (BROWSERS, "the browsers running now"),
        (SHARED, "pages you shared with agents"),
        (
            UPLOADS,
            "scopes where agents may upload (Titan) without asking",
        ),
        (MCP_TOKEN, "the MCP server's bearer token over HTTP (0600)"),
        (
            SEARCH_DIR,
            "the local full-text index of what you and agents read",
        ),
        (
            SEARCH_QUEUE_DIR,
            "pages waiting for the search index's next writer",
        ),
    ];
}
