//! Persisted state shared by the browser and the MCP server, in one data directory.
//!
//! Every file goes through [`atomic`]: exclusive lock on a sidecar `.lock` file, re-read,
//! mutate (so concurrent writers merge), write a temp file in the same directory, fsync,
//! rename. A corrupt file is a [`StoreError::Corrupt`] naming the file; never reset silently.
//! Paths are always injected by the caller; nothing here discovers directories.

pub mod approvals;
pub mod atomic;
pub mod bookmarks;
#[doc(hidden)]
pub mod fuzzing;
pub mod history;
pub mod identity;
pub mod offline;
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
    #[error("{path} is corrupt: {reason}")]
    Corrupt { path: PathBuf, reason: String },
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
