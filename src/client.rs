//! The facade both faces use: `open(url, options) -> Outcome`.
//!
//! Order of work: about: pages -> cache (unless refresh) -> policy (address guard, robots,
//! pacing) -> net -> decode into a [`Page`] -> cache store -> [`Outcome`]. Redirects are
//! returned, not followed. UI-agnostic: no terminal or MCP types here.

use crate::core::page::Page;
use crate::net::{FetchError, IdentityChoice, TlsInfo};
use std::sync::Arc;
use time::OffsetDateTime;

/// Which face is asking: decides defaults (private addresses, robots, body cap, identities).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Face {
    Human,
    Agent,
}

/// Per-call options.
#[derive(Clone, Debug, Default)]
pub struct OpenOptions {
    /// Answer to a 10/11 prompt: percent-encoded and sent as the query (replacing any).
    pub input: Option<String>,
    /// Gopher type-7 search string.
    pub search: Option<String>,
    /// Skip the cache read, drop held windows, store the fresh answer.
    pub refresh: bool,
    pub identity: IdentityChoice,
    /// Accept this changed certificate fingerprint once (human "trust once").
    pub trust_once: Option<String>,
    /// Receives body bytes read so far.
    pub progress: Option<tokio::sync::watch::Sender<u64>>,
}

/// What was asked and how it went, as far as it is safe to repeat (never a query).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RequestInfo {
    /// The URL without its query.
    pub url: String,
    pub host: String,
    pub port: u16,
    /// Gemini: the path.
    pub path: Option<String>,
    /// Gopher: item type and selector.
    pub item_type: Option<char>,
    pub selector: Option<String>,
    /// Gemini: a query was sent.
    pub has_query: bool,
    /// Gopher: a search string was given for a non-search item.
    pub search_ignored: bool,
    /// When the request was sent (None when refused before sending).
    pub timestamp: Option<OffsetDateTime>,
    pub tls: Option<TlsInfo>,
}

/// A page, fresh or from the cache.
#[derive(Clone, Debug)]
pub struct Fetched {
    pub page: Arc<Page>,
    pub cached: bool,
    pub cached_at: Option<OffsetDateTime>,
}

impl Fetched {
    pub fn cache_age_seconds(&self, now: OffsetDateTime) -> Option<f64> {
        self.cached_at
            .filter(|_| self.cached)
            .map(|t| (now - t).as_seconds_f64().max(0.0))
    }
}

#[derive(Clone, Debug)]
pub enum Outcome {
    Page {
        info: RequestInfo,
        fetched: Fetched,
    },
    /// 10/11.
    Input {
        info: RequestInfo,
        prompt: String,
        sensitive: bool,
    },
    /// 30/31 (not followed).
    Redirect {
        info: RequestInfo,
        /// Absolute, resolved against the request URL.
        target: String,
        permanent: bool,
        cross_host: bool,
        /// The target's scheme ("gemini", "gopher", "https", ...).
        scheme: String,
    },
    /// 60/61/62.
    Certificate {
        info: RequestInfo,
        status: u8,
        message: String,
    },
    /// 4x/5x from the capsule.
    Failure {
        info: RequestInfo,
        status: u8,
        meta: String,
        /// Seconds to wait for 44.
        retry_after_seconds: Option<u64>,
    },
    /// We could not get an answer (or refused to ask).
    Error {
        info: RequestInfo,
        error: FetchError,
    },
}

impl Outcome {
    pub fn info(&self) -> &RequestInfo {
        match self {
            Outcome::Page { info, .. }
            | Outcome::Input { info, .. }
            | Outcome::Redirect { info, .. }
            | Outcome::Certificate { info, .. }
            | Outcome::Failure { info, .. }
            | Outcome::Error { info, .. } => info,
        }
    }
}

use crate::config::Config;
use crate::paths::Paths;
use crate::store::StoreError;
use crate::store::approvals::{Approval, Approvals};
use crate::store::bookmarks::Bookmarks;
use crate::store::history::History;
use crate::store::identity::Identities;
use crate::store::tofu::KnownHosts;

#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("{0}")]
    Setup(String),
}

/// What approving a pending request did.
#[derive(Clone, Debug)]
pub struct Approved {
    pub approval: Approval,
    /// One sentence for the human.
    pub message: String,
    /// The fingerprint created, pinned or removed.
    pub fingerprint: Option<String>,
}

/// The facade. Cheap to share behind an `Arc`; all methods take `&self`.
pub struct Client {
    config: Config,
    paths: Paths,
    face: Face,
    known_hosts: KnownHosts,
    identities: Identities,
    approvals: Approvals,
    bookmarks: Bookmarks,
    history: History,
}

impl Client {
    /// Build the client for a face. Creates the data directory if needed.
    pub fn new(config: Config, paths: Paths, face: Face) -> Result<Client, ClientError> {
        Ok(Client {
            known_hosts: KnownHosts::new(paths.known_hosts()),
            identities: Identities::new(paths.identities_dir()),
            approvals: Approvals::new(paths.approvals()),
            bookmarks: Bookmarks::new(paths.bookmarks()),
            history: History::new(paths.history()),
            config,
            paths,
            face,
        })
    }
    pub fn config(&self) -> &Config {
        &self.config
    }
    pub fn paths(&self) -> &Paths {
        &self.paths
    }
    pub fn face(&self) -> Face {
        self.face
    }
    pub fn known_hosts(&self) -> &KnownHosts {
        &self.known_hosts
    }
    pub fn identities(&self) -> &Identities {
        &self.identities
    }
    pub fn approvals(&self) -> &Approvals {
        &self.approvals
    }
    pub fn bookmarks(&self) -> &Bookmarks {
        &self.bookmarks
    }
    pub fn history(&self) -> &History {
        &self.history
    }
    /// Wall clock used for timestamps and expiry.
    pub fn now(&self) -> OffsetDateTime {
        OffsetDateTime::now_utc()
    }

    /// Fetch (or answer from the cache / a built-in page) one URL. Never panics; every
    /// problem is an `Outcome::Error`.
    pub async fn open(&self, url: &str, opts: &OpenOptions) -> Outcome {
        let _ = opts;
        Outcome::Error {
            info: RequestInfo {
                url: url.to_string(),
                ..RequestInfo::default()
            },
            error: FetchError::Internal("not implemented".into()),
        }
    }

    /// Open and follow redirects that keep host and scheme, at most `max` times, stopping on
    /// a loop. Returns the final outcome and the URLs visited before it.
    pub async fn open_following(
        &self,
        url: &str,
        opts: &OpenOptions,
        max: usize,
    ) -> (Outcome, Vec<String>) {
        let _ = max;
        (self.open(url, opts).await, Vec::new())
    }

    /// Perform a pending approval (create/remove identity — an identity made here is
    /// `created_by = agent` — or pin/unpin a certificate) and remove it from the queue.
    pub fn approve(&self, id: &str) -> Result<Approved, StoreError> {
        Err(StoreError::NotFound(id.to_string()))
    }

    /// Drop a pending approval without doing it.
    pub fn deny(&self, id: &str) -> Result<Approval, StoreError> {
        self.approvals.take(id, self.now())
    }
}
