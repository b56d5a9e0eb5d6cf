//! Pending approvals: changes an agent asked for that only the human may perform.
//!
//! Stored in one file in the shared data directory; each request has an id, what it asks,
//! who asked (the MCP client's name), when, and an expiry (24 h). Expired entries are dropped
//! on every write. Approving is done by the approving process (CLI or TUI), see `client`.
//! Hosts of trust requests are normalized when queued (the one host normalizer, see
//! [`smolweb_core::url::normalize_host`]); a host with a port or a scheme is refused.

use super::StoreError;
use super::atomic::{self, Modes};
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
    /// The request with its host in the normalized form; an unusable host is `Invalid`.
    fn normalized(mut self) -> Result<Request, StoreError> {
        if let Request::TrustPin { host, .. } | Request::TrustRemove { host, .. } = &mut self {
            *host = smolweb_core::url::normalize_host(host)
                .map_err(|e| StoreError::Invalid(e.to_string()))?;
        }
        Ok(self)
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

/// On-disk shape: `[[approval]]` tables.
#[derive(Debug, Default, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct ApprovalFile {
    #[serde(default, rename = "approval")]
    approvals: Vec<Approval>,
}

impl ApprovalFile {
    /// Drop expired entries; true when any was dropped.
    fn prune(&mut self, now: OffsetDateTime) -> bool {
        let before = self.approvals.len();
        self.approvals.retain(|a| a.expires_at > now);
        self.approvals.len() != before
    }
}

fn render(file: &ApprovalFile) -> Result<String, StoreError> {
    let body = atomic::render_toml(file)?;
    Ok(format!(
        "# smolweb pending approvals: changes an agent asked for, waiting for the human.\n\
         # Approve or deny them in the browser or with the CLI; entries expire after {APPROVAL_TTL_HOURS} h.\n\n{body}"
    ))
}

/// Read, write and read again (the fuzz targets' check; see [`super::fuzzing`]).
pub(super) fn round_trip(text: &str) -> super::fuzzing::RoundTrip {
    super::fuzzing::check(text, atomic::parse_toml::<ApprovalFile>, render)
}

/// 8 random lowercase hex digits, not already used in `file`. The system's random source
/// failing is reported, not papered over with a predictable id.
fn fresh_id(file: &ApprovalFile) -> Result<String, StoreError> {
    let rng = ring::rand::SystemRandom::new();
    loop {
        let bytes: [u8; 4] = ring::rand::generate(&rng)
            .map_err(|_| StoreError::Crypto("the system random source failed".into()))?
            .expose();
        let id = format!("{:08x}", u32::from_be_bytes(bytes));
        if !file.approvals.iter().any(|a| a.id == id) {
            return Ok(id);
        }
    }
}

/// The approvals file.
#[derive(Clone, Debug)]
pub struct Approvals {
    path: PathBuf,
}

impl Approvals {
    pub fn new(path: PathBuf) -> Approvals {
        Approvals { path }
    }
    pub fn path(&self) -> &std::path::Path {
        &self.path
    }
    fn update<R>(
        &self,
        mutate: impl FnOnce(&mut ApprovalFile) -> Result<(R, bool), StoreError>,
    ) -> Result<R, StoreError> {
        atomic::update_if(
            &self.path,
            Modes::DATA,
            atomic::parse_toml::<ApprovalFile>,
            render,
            mutate,
        )
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
        self.update(|file| {
            let pruned = file.prune(now);
            if let Some(existing) = file.approvals.iter().find(|a| a.request == request) {
                return Ok((existing.clone(), pruned));
            }
            let approval = Approval {
                id: fresh_id(file)?,
                request,
                client: client.to_string(),
                requested_at: now,
                expires_at: now + time::Duration::hours(APPROVAL_TTL_HOURS),
            };
            file.approvals.push(approval.clone());
            Ok((approval, true))
        })
    }
    /// Pending, unexpired requests, oldest first.
    pub fn pending(&self, now: OffsetDateTime) -> Result<Vec<Approval>, StoreError> {
        let mut file = atomic::read(&self.path, atomic::parse_toml::<ApprovalFile>)?;
        file.prune(now);
        file.approvals.sort_by_key(|a| a.requested_at);
        Ok(file.approvals)
    }
    /// Remove and return a request (to approve or deny it). Unknown or expired: NotFound.
    pub fn take(&self, id: &str, now: OffsetDateTime) -> Result<Approval, StoreError> {
        // Nothing taken still persists the pruning; NotFound is reported after the write.
        let taken = self.update(|file| {
            let pruned = file.prune(now);
            Ok(match file.approvals.iter().position(|a| a.id == id) {
                Some(i) => (Some(file.approvals.remove(i)), true),
                None => (None, pruned),
            })
        })?;
        taken.ok_or_else(|| StoreError::NotFound(format!("approval {id}")))
    }
}
