//! Pending approvals: changes an agent asked for that only the human may perform.
//!
//! Stored in one file in the shared data directory; each request has an id, what it asks,
//! who asked (the MCP client's name), when, and an expiry (24 h). Expired entries are dropped
//! on every write. Approving is done by the approving process (CLI or TUI), see `client`.

use super::StoreError;
use super::identity::Scope;
use std::path::PathBuf;
use time::OffsetDateTime;

/// How long a request waits for the human.
pub const APPROVAL_TTL_HOURS: i64 = 24;

#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum Request {
    IdentityCreate {
        scope: Scope,
        name: String,
    },
    IdentityRemove {
        fingerprint: String,
        scope: Scope,
    },
    TrustPin {
        host: String,
        port: u16,
        fingerprint: String,
    },
    TrustRemove {
        host: String,
        port: u16,
    },
}

impl Request {
    /// One sentence for the human: what approving does.
    pub fn describe(&self) -> String {
        match self {
            Request::IdentityCreate { scope, name } => {
                format!("create client identity '{name}' for {}", scope.url())
            }
            Request::IdentityRemove { fingerprint, scope } => {
                format!("delete client identity {fingerprint} for {}", scope.url())
            }
            Request::TrustPin {
                host,
                port,
                fingerprint,
            } => {
                format!("trust certificate {fingerprint} for {host}:{port}")
            }
            Request::TrustRemove { host, port } => {
                format!("forget the pinned certificate of {host}:{port}")
            }
        }
    }
    pub fn is_identity(&self) -> bool {
        matches!(
            self,
            Request::IdentityCreate { .. } | Request::IdentityRemove { .. }
        )
    }
}

#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Approval {
    /// Short random id (e.g. 8 hex chars).
    pub id: String,
    pub request: Request,
    /// The requesting MCP client's name.
    pub client: String,
    #[serde(with = "time::serde::rfc3339")]
    pub requested_at: OffsetDateTime,
    #[serde(with = "time::serde::rfc3339")]
    pub expires_at: OffsetDateTime,
}

#[derive(Clone, Debug)]
pub struct Approvals {
    path: PathBuf,
}

impl Approvals {
    pub fn new(path: PathBuf) -> Approvals {
        Approvals { path }
    }
    /// Record a request; an identical pending request is reused (same id returned).
    pub fn add(
        &self,
        request: Request,
        client: &str,
        now: OffsetDateTime,
    ) -> Result<Approval, StoreError> {
        let _ = (request, client, now, &self.path);
        Err(StoreError::Invalid("not implemented".into()))
    }
    /// Pending, unexpired requests, oldest first.
    pub fn pending(&self, now: OffsetDateTime) -> Result<Vec<Approval>, StoreError> {
        let _ = now;
        Ok(Vec::new())
    }
    /// Remove and return a request (to approve or deny it).
    pub fn take(&self, id: &str, now: OffsetDateTime) -> Result<Approval, StoreError> {
        let _ = now;
        Err(StoreError::NotFound(id.to_string()))
    }
}
