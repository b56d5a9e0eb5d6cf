//! Pending approvals: changes an agent asked for that only the human may perform.
//!
//! Stored in one file in the shared data directory; each request has an id, what it asks,
//! who asked (the MCP client's name), when, and an expiry (24 h). Expired entries are dropped
//! on every write. Approving is done by the approving process (CLI or TUI), see `client`.
//! Hosts of trust requests are normalized when queued (the one host normalizer, see
//! [`smolweb_core::url::normalize_host`]); a host with a port or a scheme is refused.

use super::StoreError;
use super::identity::Scope;
use super::list_file::{ListFile, ListItem};
use std::path::PathBuf;
use time::OffsetDateTime;

/// How long a request waits for the human.
pub(crate) const APPROVAL_TTL_HOURS: i64 = 24;

/// A change only the human may make, as an agent asked for it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum Request {
    /// Create a client identity for a scope.
    IdentityCreate {
        /// Where the new identity applies.
        scope: Scope,
        /// The name the agent proposed for it.
        name: String,
    },
    /// Delete the client identity with this fingerprint.
    IdentityRemove {
        /// `sha256:<hex>` of the identity to delete.
        fingerprint: String,
        /// The scope the agent named for it (shown to the human).
        scope: Scope,
    },
    /// Pin a server certificate for host:port, replacing any pin there.
    TrustPin {
        /// The host, normalized when queued.
        host: String,
        /// The port.
        port: u16,
        /// `sha256:<hex>` of the certificate to trust.
        fingerprint: String,
    },
    /// Forget the pin of host:port.
    TrustRemove {
        /// The host, normalized when queued.
        host: String,
        /// The port.
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
    /// The request with its host in the normalized form; an unusable host is `Invalid`.
    fn normalized(mut self) -> Result<Request, StoreError> {
        if let Request::TrustPin { host, .. } | Request::TrustRemove { host, .. } = &mut self {
            *host = smolweb_core::url::normalize_host(host)
                .map_err(|e| StoreError::Invalid(e.to_string()))?;
        }
        Ok(self)
    }

    /// True for the requests about client identities (create or remove).
    pub fn is_identity(&self) -> bool {
        matches!(
            self,
            Request::IdentityCreate { .. } | Request::IdentityRemove { .. }
        )
    }
}

/// One queued request with its id, who asked and until when it waits.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Approval {
    /// Short random id (e.g. 8 hex chars).
    pub id: String,
    /// What approving it does.
    pub request: Request,
    /// The requesting MCP client's name.
    pub client: String,
    /// When it was queued (whole seconds).
    #[serde(with = "time::serde::rfc3339")]
    pub requested_at: OffsetDateTime,
    /// When it lapses unanswered ([`APPROVAL_TTL_HOURS`] after it was queued).
    #[serde(with = "time::serde::rfc3339")]
    pub expires_at: OffsetDateTime,
}

/// On disk: `[[approval]]` tables.
impl ListItem for Approval {
    const TABLE: &'static str = "approval";
    fn header() -> String {
        format!(
            "# smolweb pending approvals: changes an agent asked for, waiting for the human.\n\
             # Approve or deny them in the browser or with the CLI; entries expire after {APPROVAL_TTL_HOURS} h.\n"
        )
    }
}

/// Drop expired entries; true when any was dropped.
fn prune(approvals: &mut Vec<Approval>, now: OffsetDateTime) -> bool {
    let before = approvals.len();
    approvals.retain(|a| a.expires_at > now);
    approvals.len() != before
}

/// The approvals file.
#[derive(Clone, Debug)]
pub struct Approvals {
    file: ListFile<Approval>,
}

impl Approvals {
    /// The approvals file at `path` (nothing is read or created yet).
    pub fn new(path: PathBuf) -> Approvals {
        Approvals {
            file: ListFile::new(path),
        }
    }
    /// The file this store reads and writes.
    pub fn path(&self) -> &std::path::Path {
        self.file.path()
    }
    /// Record a request; an identical pending request is reused (same id returned).
    pub fn add(
        &self,
        request: Request,
        client: &str,
        now: OffsetDateTime,
    ) -> Result<Approval, StoreError> {
        let request = request.normalized()?;
        let now = now.replace_nanosecond(0).unwrap_or(now);
        self.file.update(|approvals| {
            let pruned = prune(approvals, now);
            if let Some(existing) = approvals.iter().find(|a| a.request == request) {
                return Ok((existing.clone(), pruned));
            }
            let approval = Approval {
                id: super::list_file::fresh_id(|id| approvals.iter().any(|a| a.id == id))?,
                request,
                client: client.to_string(),
                requested_at: now,
                expires_at: now + time::Duration::hours(APPROVAL_TTL_HOURS),
            };
            approvals.push(approval.clone());
            Ok((approval, true))
        })
    }
    /// Pending, unexpired requests, oldest first.
    pub fn pending(&self, now: OffsetDateTime) -> Result<Vec<Approval>, StoreError> {
        let mut approvals = self.file.read()?;
        prune(&mut approvals, now);
        approvals.sort_by_key(|a| a.requested_at);
        Ok(approvals)
    }
    /// Remove and return a request (to approve or deny it). Unknown or expired: NotFound.
    pub fn take(&self, id: &str, now: OffsetDateTime) -> Result<Approval, StoreError> {
        // Nothing taken still persists the pruning; NotFound is reported after the write.
        let taken = self.file.update(|approvals| {
            let pruned = prune(approvals, now);
            Ok(match approvals.iter().position(|a| a.id == id) {
                Some(i) => (Some(approvals.remove(i)), true),
                None => (None, pruned),
            })
        })?;
        taken.ok_or_else(|| StoreError::NotFound(format!("approval {id}")))
    }
}
