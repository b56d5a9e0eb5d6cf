//! Persisted state shared by the browser and the MCP server, in one data directory.
//!
//! Every file goes through [`atomic`]: exclusive lock on a sidecar `.lock` file, re-read,
//! mutate (so concurrent writers merge), write a temp file in the same directory, fsync,
//! rename. A corrupt file is a [`StoreError::Corrupt`] naming the file; never reset silently,
//! and never quoted ([`parse_failure`]: line, column and what went wrong, nothing of the file).
//! A data file (or its lock) that is a symbolic link or not a regular file is refused with its
//! name ([`StoreError::NotRegular`]), for reads and writes alike: smolweb never reads or writes
//! through a link in its data directory. Paths are always injected by the caller; nothing here
//! discovers directories.

pub mod approvals;
pub(crate) mod atomic;
pub mod bookmarks;
#[doc(hidden)]
pub mod fuzzing;
pub mod history;
pub mod identity;
pub(crate) mod list_file;
pub mod offline;
pub mod parse_failure;
pub mod paths;
pub mod subscriptions;
pub mod tofu;

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("cannot access {path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// `reason` never quotes the file ([`parse_failure`]).
    #[error("{path} is corrupt: {reason}")]
    Corrupt { path: PathBuf, reason: String },
    /// A symbolic link, a directory, a FIFO or a device where a data file should be.
    #[error(
        "{path} is {kind}, not a regular file: smolweb does not read or write through it \
         (replace it with a regular file; to keep the data elsewhere, point --data-dir there)"
    )]
    NotRegular { path: PathBuf, kind: &'static str },
    #[error("not found: {0}")]
    NotFound(String),
    #[error("already exists: {0}")]
    Exists(String),
    #[error("invalid: {0}")]
    Invalid(String),
    #[error("certificate generation failed: {0}")]
    Crypto(String),
}

/// The standard file names inside the data directory.
pub mod files {
    pub const KNOWN_HOSTS: &str = "known_hosts.toml";
    pub const IDENTITIES_DIR: &str = "identities";
    pub const APPROVALS: &str = "approvals.toml";
    pub const BOOKMARKS: &str = "bookmarks.gmi";
    pub const HISTORY: &str = "history.toml";
    pub const SUBSCRIPTIONS: &str = "subscriptions.toml";
}
