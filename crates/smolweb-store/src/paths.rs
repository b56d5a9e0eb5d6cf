//! Where smolweb keeps things. The data directory (shared stores) is `--data-dir`, else
//! `SMOLWEB_HOME`, else the platform data directory; the config file is `--config`, else
//! `SMOLWEB_CONFIG`, else `config.toml` in the platform config directory (or in the data
//! directory when one was given explicitly, so tests never read the real home). The cache
//! directory (offline copies of pages) is `cache/` in the data directory when that was given
//! explicitly, else the platform cache directory.

use crate::files;
use std::path::{Path, PathBuf};

/// Why no paths could be chosen.
#[derive(Debug, thiserror::Error)]
pub enum PathsError {
    /// Neither a data directory nor a home directory to derive one from.
    #[error("no home directory: set SMOLWEB_HOME or --data-dir")]
    NoHome,
}

/// The directories and files smolweb uses, chosen once at start (see the module docs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Paths {
    /// The shared stores (pins, identities, approvals, bookmarks, history, subscriptions).
    pub data_dir: PathBuf,
    /// The config file (it may not exist).
    pub config_file: PathBuf,
    /// Where downloads are saved.
    pub downloads_dir: PathBuf,
    /// Rebuildable files (the offline page cache); never holds secrets.
    pub cache_dir: PathBuf,
}

impl Paths {
    /// Resolve from explicit overrides and the environment values (passed in, not read here).
    pub fn resolve(
        data_dir: Option<PathBuf>,
        config: Option<PathBuf>,
        env_home: Option<PathBuf>,
        env_config: Option<PathBuf>,
    ) -> Result<Paths, PathsError> {
        let explicit = data_dir.or(env_home);
        let dirs = directories::ProjectDirs::from("", "", "smolweb");
        let data_dir = match (&explicit, &dirs) {
            (Some(d), _) => d.clone(),
            (None, Some(p)) => p.data_dir().to_path_buf(),
            (None, None) => return Err(PathsError::NoHome),
        };
        let config_file = match (config.or(env_config), &explicit, &dirs) {
            (Some(c), _, _) => c,
            (None, Some(d), _) => d.join("config.toml"),
            (None, None, Some(p)) => p.config_dir().join("config.toml"),
            (None, None, None) => data_dir.join("config.toml"),
        };
        let downloads_dir = match (&explicit, directories::UserDirs::new()) {
            (Some(d), _) => d.join("downloads"),
            (None, Some(u)) => u
                .download_dir()
                .map(Path::to_path_buf)
                .unwrap_or_else(|| data_dir.join("downloads")),
            (None, None) => data_dir.join("downloads"),
        };
        let cache_dir = match (&explicit, &dirs) {
            (Some(d), _) => d.join("cache"),
            (None, Some(p)) => p.cache_dir().to_path_buf(),
            (None, None) => data_dir.join("cache"),
        };
        Ok(Paths {
            data_dir,
            config_file,
            downloads_dir,
            cache_dir,
        })
    }

    /// `known_hosts.toml` in the data directory.
    pub fn known_hosts(&self) -> PathBuf {
        self.data_dir.join(files::KNOWN_HOSTS)
    }
    /// `identities/` in the data directory.
    pub fn identities_dir(&self) -> PathBuf {
        self.data_dir.join(files::IDENTITIES_DIR)
    }
    /// `approvals.toml` in the data directory.
    pub fn approvals(&self) -> PathBuf {
        self.data_dir.join(files::APPROVALS)
    }
    /// `bookmarks.gmi` in the data directory.
    pub fn bookmarks(&self) -> PathBuf {
        self.data_dir.join(files::BOOKMARKS)
    }
    /// `history.toml` in the data directory.
    pub fn history(&self) -> PathBuf {
        self.data_dir.join(files::HISTORY)
    }
    /// `subscriptions.toml` in the data directory.
    pub fn subscriptions(&self) -> PathBuf {
        self.data_dir.join(files::SUBSCRIPTIONS)
    }
    /// `mcp-token` in the data directory (the MCP server's bearer token over HTTP).
    pub fn mcp_token(&self) -> PathBuf {
        self.data_dir.join(files::MCP_TOKEN)
    }
    /// `agent_activity.jsonl` in the data directory.
    pub fn activity(&self) -> PathBuf {
        self.data_dir.join(files::ACTIVITY)
    }
    /// `suggestions.toml` in the data directory.
    pub fn suggestions(&self) -> PathBuf {
        self.data_dir.join(files::SUGGESTIONS)
    }
    /// `browsers.toml` in the data directory.
    pub fn browsers(&self) -> PathBuf {
        self.data_dir.join(files::BROWSERS)
    }
    /// `shared_pages.toml` in the data directory.
    pub fn shared(&self) -> PathBuf {
        self.data_dir.join(files::SHARED)
    }
    /// `upload_allowances.toml` in the data directory.
    pub fn uploads(&self) -> PathBuf {
        self.data_dir.join(files::UPLOADS)
    }
    /// `site_rules.toml` in the data directory (the person's site rules for the reader).
    pub fn site_rules(&self) -> PathBuf {
        self.data_dir.join(files::SITE_RULES)
    }
    /// `sync_queue.toml` in the data directory.
    pub fn sync_queue(&self) -> PathBuf {
        self.data_dir.join(files::SYNC_QUEUE)
    }
    /// `follows/` in the data directory: the copies of pages followed for their changes.
    pub fn follows_dir(&self) -> PathBuf {
        self.data_dir.join(files::FOLLOWS_DIR)
    }
    /// `search/` in the data directory: the local full-text index.
    pub fn search_dir(&self) -> PathBuf {
        self.data_dir.join(files::SEARCH_DIR)
    }
    /// The search index's queue and writer lock.
    pub fn search_queue(&self) -> crate::search_queue::SearchQueue {
        crate::search_queue::SearchQueue::new(
            self.data_dir.join(files::SEARCH_QUEUE_DIR),
            self.data_dir.join(files::SEARCH_LOCK),
        )
    }
    /// `session.toml` in the data directory (the browser's tabs for the next start).
    pub fn session(&self) -> PathBuf {
        self.data_dir.join(files::SESSION)
    }
    /// `tour.toml` in the data directory (links to read next).
    pub fn tour(&self) -> PathBuf {
        self.data_dir.join(files::TOUR)
    }
    /// The offline page cache (inside the cache directory).
    pub fn offline_dir(&self) -> PathBuf {
        self.cache_dir.join("offline")
    }
}
