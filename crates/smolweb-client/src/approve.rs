//! Performing pending approvals (the human's "yes" to an agent's request). The change is made
//! first and the approval removed after, so a failed change leaves the request pending. The
//! decision (approved or denied, and where: browser, CLI) goes to the agents' activity log,
//! under the session that queued the request (found by the approval's id in its `queued`
//! step), so the session's story ends with what the person decided.
//! Identities made here are `created_by = agent`, `agent_use = true`, with the validity and key
//! type of `[identity]` in the config.

use super::{Approved, Client};
use smolweb_store::StoreError;
use smolweb_store::activity::{ConsentStep, Decider, Entry, Event};
use smolweb_store::approvals::{Approval, Request};
use smolweb_store::identity::{CreatedBy, KeyAlgorithm, NewIdentity, Scope};

/// The configured key type ("ed25519"; anything else is ECDSA P-256).
fn algorithm(name: &str) -> KeyAlgorithm {
    if name.eq_ignore_ascii_case("ed25519") {
        KeyAlgorithm::Ed25519
    } else {
        KeyAlgorithm::EcdsaP256
    }
}

pub(super) fn approve(client: &Client, id: &str, by: Decider) -> Result<Approved, StoreError> {
    let now = client.now();
    let approval = client
        .approvals
        .pending(now)?
        .into_iter()
        .find(|a| a.id == id)
        .ok_or_else(|| StoreError::NotFound(format!("pending request {id}")))?;
    let (message, fingerprint) = perform(client, &approval.request)?;
    let approval = match client.approvals.take(id, now) {
        Ok(taken) => taken,
        // Someone else removed it meanwhile; the change is made, report it.
        Err(StoreError::NotFound(_)) => approval,
        Err(e) => return Err(e),
    };
    tracing::info!(id, "approval performed");
    record(client, &approval, ConsentStep::Approved, by);
    Ok(Approved {
        approval,
        message,
        fingerprint,
    })
}

/// Drop a pending approval without doing it.
pub(super) fn deny(client: &Client, id: &str, by: Decider) -> Result<Approval, StoreError> {
    let denied = client.approvals.take(id, client.now())?;
    record(client, &denied, ConsentStep::Denied, by);
    Ok(denied)
}

/// The person's decision, in the activity log under the session that queued the request. A
/// request no session queued (asked and approved in the agent's own client, whose consent steps
/// the session logs itself; or queued before the log kept it) adds nothing.
fn record(client: &Client, approval: &Approval, step: ConsentStep, by: Decider) {
    if !client.config.agents.activity_log {
        return;
    }
    let log = client.activity();
    let entries = match log.snapshot() {
        Ok(e) => e,
        Err(e) => {
            tracing::warn!("cannot read the activity log to record a decision: {e}");
            return;
        }
    };
    let queued = entries.iter().rev().find_map(|e| match &e.event {
        Event::Consent {
            tool,
            step: ConsentStep::Queued,
            approval: Some(a),
            ..
        } if *a == approval.id => Some((e.session.clone(), tool.clone())),
        _ => None,
    });
    let Some((session, tool)) = queued else {
        return;
    };
    let decision = Event::Consent {
        tool,
        step,
        what: approval.request.describe(),
        approval: Some(approval.id.clone()),
        by: Some(by),
    };
    if let Err(e) = log.append(&Entry::new(&session, client.now(), decision)) {
        tracing::warn!("cannot record the decision in the activity log: {e}");
    }
}

/// The name of an identity made at an agent's request: host, path and a short digest of the
/// scope. It tells the identities of one host apart (a scope holds one identity at a time, so
/// exports do not collide), and it is known before the request exists: the question put to
/// the person, the approval queue and the identity made all name the same identity.
pub fn agent_identity_name(scope: &Scope) -> String {
    let path: String = scope
        .path
        .trim_matches('/')
        .chars()
        .map(|c| if c.is_alphanumeric() { c } else { '-' })
        .collect();
    let digest = smolweb_core::fingerprint::sha256_hex(scope.url().as_bytes());
    let short = digest.get(..8).unwrap_or(&digest);
    if path.is_empty() {
        format!("{}-{short}", scope.host)
    } else {
        format!("{}-{path}-{short}", scope.host)
    }
}

fn perform(client: &Client, request: &Request) -> Result<(String, Option<String>), StoreError> {
    let now = client.now();
    match request {
        Request::IdentityCreate { scope, name } => {
            let cfg = &client.config.identity;
            let new = NewIdentity {
                // A request queued before the name was chosen with it carries the bare host.
                name: if name.is_empty() || *name == scope.host {
                    agent_identity_name(scope)
                } else {
                    name.clone()
                },
                scope: scope.clone(),
                days: cfg.days,
                algorithm: algorithm(&cfg.algorithm),
                created_by: CreatedBy::Agent,
                agent_use: true,
            };
            let made = client.identities.create(new, now)?;
            let msg = format!(
                "created identity '{}' for {} ({})",
                made.name,
                made.scope.url(),
                made.fingerprint
            );
            Ok((msg, Some(made.fingerprint)))
        }
        Request::IdentityRemove { fingerprint, .. } => {
            let gone = client.identities.remove(fingerprint)?;
            let msg = format!("deleted identity '{}' for {}", gone.name, gone.scope.url());
            Ok((msg, Some(gone.fingerprint)))
        }
        Request::TrustPin {
            host,
            port,
            fingerprint,
        } => {
            client
                .known_hosts
                .pin_fingerprint(host, *port, fingerprint, now)?;
            let msg = format!("pinned certificate {fingerprint} for {host}:{port}");
            Ok((msg, Some(fingerprint.clone())))
        }
        Request::TrustRemove { host, port } => {
            let previous = client.known_hosts.get(host, *port)?.map(|p| p.fingerprint);
            let existed = client.forget_pin(host, *port)?;
            let msg = if existed {
                format!("forgot the pinned certificate of {host}:{port}")
            } else {
                format!("no certificate was pinned for {host}:{port}")
            };
            Ok((msg, previous))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_types() {
        assert_eq!(algorithm("ed25519"), KeyAlgorithm::Ed25519);
        assert_eq!(algorithm("ECDSA-P256"), KeyAlgorithm::EcdsaP256);
        assert_eq!(algorithm("rsa"), KeyAlgorithm::EcdsaP256);
    }

    #[test]
    fn agent_identities_get_readable_names_known_before_the_request() {
        let scope = |port: u16, path: &str| Scope {
            host: "127.0.0.1".into(),
            port,
            path: path.into(),
        };
        let login = agent_identity_name(&scope(1965, "/app/login"));
        assert!(login.starts_with("127.0.0.1-app-login-"), "{login}");
        assert_eq!(login.len(), "127.0.0.1-app-login-".len() + 8);
        let root = agent_identity_name(&scope(1965, "/"));
        assert!(root.starts_with("127.0.0.1-") && root.len() == "127.0.0.1-".len() + 8);
        assert_eq!(
            root,
            agent_identity_name(&scope(1965, "/")),
            "the same every time"
        );
        assert_ne!(
            root,
            agent_identity_name(&scope(1966, "/")),
            "another scope, another name"
        );
    }
}
