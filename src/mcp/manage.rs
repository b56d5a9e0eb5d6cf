//! Identity and trust tools: lists, and updates that need the human's consent.
//!
//! An update is never done on the agent's word alone: with elicitation the user is asked a
//! yes/no question naming the scope and the consequence; accepting records the request in the
//! approval queue and approves it at once through `Client::approve` (so the change is the one
//! the CLI makes); declining gives `USER_DECLINED`. Without elicitation the request stays in the
//! queue and the result says `pending: true` with the `approval_id` and a `next_step`.
//! Results never contain a private key or a file path.

use super::ask::{Ask, Retry, ask};
use super::outcome::iso;
use super::params::{CertAction, CertUpdateParams, Confirm, TrustAction, TrustUpdateParams};
use super::results::*;
use super::seal::{Sealer, digest};
use super::text;
use crate::client::{Approved, Client};
use crate::core::url::{Scheme, Url};
use crate::store::StoreError;
use crate::store::approvals::{Approval, Request};
use crate::store::identity::{CreatedBy, Scope};
use rmcp::RoleServer;
use rmcp::model::InputRequiredResult;
use rmcp::service::RequestContext;

/// A finished result or a question for a 2026-07-28 client.
pub enum Reply<T> {
    Done(T),
    NeedInput(InputRequiredResult),
}

/// An error as the store tools return it.
pub fn err(code: &str, message: impl Into<String>) -> ErrorOut {
    let mut e = error_out(RequestInfoOut::default(), code, message);
    e.error.retryable = code == "CERTIFICATE_STORE_UNAVAILABLE";
    e
}

fn store_err(e: &StoreError) -> ErrorOut {
    let code = match e {
        StoreError::Exists(_) => "CERTIFICATE_EXISTS",
        StoreError::NotFound(_) | StoreError::Invalid(_) => "INVALID_REQUEST",
        StoreError::Io { .. } | StoreError::Corrupt { .. } => "CERTIFICATE_STORE_UNAVAILABLE",
        StoreError::Crypto(_) => "INTERNAL_ERROR",
    };
    err(code, e.to_string())
}

/// `sha256:<64 hex>` in lowercase, from that or bare hex.
pub fn normalize_fingerprint(s: &str) -> Option<String> {
    let s = s.trim().to_ascii_lowercase();
    let hex = s.strip_prefix("sha256:").unwrap_or(&s);
    (hex.len() == 64 && hex.bytes().all(|b| b.is_ascii_hexdigit())).then(|| format!("sha256:{hex}"))
}

fn host_matches(filter: Option<&str>, host: &str) -> bool {
    filter
        .map(|f| {
            f.trim()
                .trim_start_matches("gemini://")
                .trim_end_matches('/')
        })
        .is_none_or(|f| f.is_empty() || f.eq_ignore_ascii_case(host))
}

pub fn cert_list(client: &Client, host: Option<&str>) -> CertListResult {
    let list = match client.identities().list() {
        Ok(l) => l,
        Err(e) => return CertListResult::Error(store_err(&e)),
    };
    let now = client.now();
    let entries = list
        .into_iter()
        .filter(|i| host_matches(host, &i.scope.host))
        .map(|i| CertEntry {
            url: i.scope.url(),
            expired: i.expired(now),
            host: i.scope.host,
            port: i.scope.port,
            path: i.scope.path,
            fingerprint: i.fingerprint,
            not_before: iso(i.not_before),
            not_after: iso(i.not_after),
            name: i.name,
            created_by: match i.created_by {
                CreatedBy::Human => "human".into(),
                CreatedBy::Agent => "agent".into(),
            },
            agent_use: i.agent_use,
        })
        .collect();
    CertListResult::ClientCertList(CertListOut { entries })
}

pub fn trust_list(client: &Client, host: Option<&str>) -> TrustListResult {
    let pins = match client.known_hosts().list() {
        Ok(l) => l,
        Err(e) => return TrustListResult::Error(store_err(&e)),
    };
    let now = client.now();
    let entries = pins
        .into_iter()
        .filter(|p| host_matches(host, &p.host))
        .map(|p| TrustEntry {
            expired: p.not_after.is_some_and(|t| now > t),
            expires: p.not_after.map(iso),
            host: p.host,
            port: p.port,
            fingerprint: p.fingerprint,
            first_seen: iso(p.first_seen),
            last_seen: iso(p.last_seen),
        })
        .collect();
    TrustListResult::TrustList(TrustListOut { entries })
}

/// What asking for consent came to.
enum Consent {
    Approved(Approved),
    Pending(Approval),
    NeedInput(InputRequiredResult),
    Failed(ErrorOut),
}

/// Everything a consent round needs.
pub struct ConsentCtx<'a> {
    pub client: &'a Client,
    pub sealer: &'a Sealer,
    pub ctx: &'a RequestContext<RoleServer>,
    pub retry: &'a Retry,
}

impl ConsentCtx<'_> {
    fn client_name(&self) -> String {
        self.ctx
            .client_info()
            .map(|i| i.name)
            .filter(|n| !n.is_empty())
            .unwrap_or_else(|| "an MCP client".into())
    }

    async fn consent(&self, request: Request, call_digest: &str, question: String) -> Consent {
        let answer = ask::<Confirm>(
            self.ctx,
            self.retry,
            self.sealer,
            "consent",
            call_digest,
            question,
        )
        .await;
        let client = self.client;
        let add = || {
            client
                .approvals()
                .add(request, &self.client_name(), client.now())
        };
        match answer {
            Ask::Answer(Confirm { approve: true }) => {
                match add().and_then(|queued| client.approve(&queued.id)) {
                    Ok(done) => Consent::Approved(done),
                    Err(e) => Consent::Failed(store_err(&e)),
                }
            }
            Ask::Unsupported => match add() {
                Ok(queued) => Consent::Pending(queued),
                Err(e) => Consent::Failed(store_err(&e)),
            },
            Ask::NeedInput(r) => Consent::NeedInput(r),
            Ask::Invalid(m) => Consent::Failed(err("INVALID_REQUEST", m)),
            Ask::Answer(Confirm { approve: false }) | Ask::Declined => Consent::Failed(err(
                "USER_DECLINED",
                "the user declined the change; do not ask again unless they bring it up",
            )),
        }
    }
}

fn scope_of(url: &str) -> Result<Scope, ErrorOut> {
    let u = Url::parse(url.trim()).map_err(|e| err("INVALID_REQUEST", e.to_string()))?;
    if u.scheme() != Scheme::Gemini {
        return Err(err(
            "INVALID_REQUEST",
            "an identity scope is a gemini:// URL",
        ));
    }
    Ok(Scope {
        host: u.host().to_string(),
        port: u.port(),
        path: u.path().to_string(),
    })
}

fn cert_base(action: &str, scope: &Scope) -> CertUpdateOut {
    CertUpdateOut {
        action: action.into(),
        host: scope.host.clone(),
        port: scope.port,
        path: scope.path.clone(),
        ..CertUpdateOut::default()
    }
}

pub async fn cert_update(c: &ConsentCtx<'_>, p: &CertUpdateParams) -> Reply<CertUpdateResult> {
    match cert_update_inner(c, p).await {
        Ok(Reply::Done(out)) => Reply::Done(CertUpdateResult::ClientCertUpdate(out)),
        Ok(Reply::NeedInput(r)) => Reply::NeedInput(r),
        Err(e) => Reply::Done(CertUpdateResult::Error(e)),
    }
}

async fn cert_update_inner(
    c: &ConsentCtx<'_>,
    p: &CertUpdateParams,
) -> Result<Reply<CertUpdateOut>, ErrorOut> {
    let scope = scope_of(&p.url)?;
    let ids = c
        .client
        .identities()
        .scan()
        .map_err(|e| store_err(&e))?
        .identities;
    let name = c.client_name();
    let (action, request, question) = match p.action {
        CertAction::Create => {
            if p.fingerprint.is_some() {
                return Err(err(
                    "INVALID_REQUEST",
                    "create makes a new identity: do not pass a fingerprint",
                ));
            }
            if let Some(i) = ids.iter().find(|i| i.scope == scope) {
                return Err(err(
                    "CERTIFICATE_EXISTS",
                    format!(
                        "an identity already exists for {}: {}",
                        scope.url(),
                        i.fingerprint
                    ),
                ));
            }
            let q = format!(
                "{name} asks smolweb to create a client certificate (a lasting identity) for \
                 {}. The capsule will recognise you by it on every visit, in your smolweb \
                 browser too. Allow it?",
                scope.url()
            );
            let req = Request::IdentityCreate {
                scope: scope.clone(),
                name: scope.host.clone(),
            };
            ("create", req, q)
        }
        CertAction::Remove => {
            let raw = p.fingerprint.as_deref().ok_or_else(|| {
                err(
                    "INVALID_REQUEST",
                    "remove needs the fingerprint of the identity",
                )
            })?;
            let fp = normalize_fingerprint(raw).ok_or_else(|| {
                err(
                    "INVALID_REQUEST",
                    "the fingerprint must be sha256:<64 hex digits>",
                )
            })?;
            let by_fp = ids.iter().find(|i| i.fingerprint == fp);
            let at_scope = ids.iter().find(|i| i.scope == scope);
            match (by_fp, at_scope) {
                (Some(i), _) if i.scope == scope => {}
                (None, None) => {
                    let mut out = cert_base("remove", &scope);
                    out.fingerprint = Some(fp);
                    out.message = format!("no identity exists for {}; nothing to do", scope.url());
                    return Ok(Reply::Done(out));
                }
                _ => {
                    return Err(err(
                        "FINGERPRINT_MISMATCH",
                        format!("no identity {fp} exists for exactly {}", scope.url()),
                    ));
                }
            }
            let q = format!(
                "{name} asks smolweb to delete your client identity {fp} for {}. The capsule \
                 will no longer recognise you, and this cannot be undone. Allow it?",
                scope.url()
            );
            let req = Request::IdentityRemove {
                fingerprint: fp,
                scope: scope.clone(),
            };
            ("remove", req, q)
        }
    };
    let d = digest(&[
        "gemini_client_cert_update",
        action,
        &scope.url(),
        p.fingerprint.as_deref().unwrap_or(""),
    ]);
    let mut out = cert_base(action, &scope);
    match c.consent(request, &d, question).await {
        Consent::NeedInput(r) => return Ok(Reply::NeedInput(r)),
        Consent::Failed(e) => return Err(e),
        Consent::Pending(a) => {
            out.pending = true;
            out.fingerprint = p.fingerprint.as_deref().and_then(normalize_fingerprint);
            out.message = format!("waiting for the user's approval: {}", a.request.describe());
            out.next_step = Some(text::pending_identity_step(&a.id));
            out.approval_id = Some(a.id);
        }
        Consent::Approved(done) => {
            out.changed = true;
            out.message = done.message;
            out.fingerprint = done.fingerprint.clone();
            if action == "create" {
                out.expires = done
                    .fingerprint
                    .and_then(|fp| c.client.identities().get(&fp).ok().flatten())
                    .map(|i| iso(i.not_after));
            }
        }
    }
    Ok(Reply::Done(out))
}

fn host_port(p: &TrustUpdateParams) -> Result<(String, u16), ErrorOut> {
    let host = p
        .host
        .trim()
        .trim_start_matches("gemini://")
        .trim_end_matches('/')
        .to_ascii_lowercase();
    if host.is_empty() || host.contains(['/', ' ', '?', '#', '@']) {
        return Err(err("INVALID_REQUEST", "host must be a bare host name"));
    }
    let port = p.port.unwrap_or(1965);
    let port = u16::try_from(port)
        .ok()
        .filter(|p| *p != 0)
        .ok_or_else(|| err("INVALID_REQUEST", format!("invalid port {port}")))?;
    Ok((host, port))
}

pub async fn trust_update(c: &ConsentCtx<'_>, p: &TrustUpdateParams) -> Reply<TrustUpdateResult> {
    match trust_update_inner(c, p).await {
        Ok(Reply::Done(out)) => Reply::Done(TrustUpdateResult::TrustUpdate(out)),
        Ok(Reply::NeedInput(r)) => Reply::NeedInput(r),
        Err(e) => Reply::Done(TrustUpdateResult::Error(e)),
    }
}

async fn trust_update_inner(
    c: &ConsentCtx<'_>,
    p: &TrustUpdateParams,
) -> Result<Reply<TrustUpdateOut>, ErrorOut> {
    let (host, port) = host_port(p)?;
    let fp = match p.fingerprint.as_deref() {
        Some(raw) => Some(normalize_fingerprint(raw).ok_or_else(|| {
            err(
                "INVALID_REQUEST",
                "the fingerprint must be sha256:<64 hex digits>",
            )
        })?),
        None => None,
    };
    let pin = c
        .client
        .known_hosts()
        .get(&host, port)
        .map_err(|e| store_err(&e))?;
    let name = c.client_name();
    let mut out = TrustUpdateOut {
        host: host.clone(),
        port,
        ..TrustUpdateOut::default()
    };
    let (request, question) = match p.action {
        TrustAction::Pin => {
            out.action = "pin".into();
            let fp = fp.ok_or_else(|| err("INVALID_REQUEST", "pin needs a fingerprint"))?;
            if pin.as_ref().is_some_and(|p| p.fingerprint == fp) {
                out.message = format!("{fp} is already pinned for {host}:{port}");
                return Ok(Reply::Done(out));
            }
            let q = format!(
                "{name} asks smolweb to trust the certificate {fp} for {host}:{port}, replacing \
                 any pinned one. Your smolweb browser will accept it too. Allow it only if you \
                 verified the fingerprint."
            );
            (
                Request::TrustPin {
                    host: host.clone(),
                    port,
                    fingerprint: fp,
                },
                q,
            )
        }
        TrustAction::Remove => {
            out.action = "remove".into();
            let Some(pin) = pin else {
                out.message = format!("no certificate is pinned for {host}:{port}; nothing to do");
                return Ok(Reply::Done(out));
            };
            if fp.as_ref().is_some_and(|f| *f != pin.fingerprint) {
                return Err(err(
                    "FINGERPRINT_MISMATCH",
                    format!(
                        "{host}:{port} is pinned to {}, not the fingerprint given",
                        pin.fingerprint
                    ),
                ));
            }
            let q = format!(
                "{name} asks smolweb to forget the pinned certificate of {host}:{port}. The next \
                 visit will trust whatever certificate the server shows then. Allow it?"
            );
            (
                Request::TrustRemove {
                    host: host.clone(),
                    port,
                },
                q,
            )
        }
    };
    let d = digest(&[
        "gemini_trust_update",
        &out.action,
        &host,
        &port.to_string(),
        p.fingerprint.as_deref().unwrap_or(""),
    ]);
    match c.consent(request, &d, question).await {
        Consent::NeedInput(r) => return Ok(Reply::NeedInput(r)),
        Consent::Failed(e) => return Err(e),
        Consent::Pending(a) => {
            out.pending = true;
            out.message = format!("waiting for the user's approval: {}", a.request.describe());
            out.next_step = Some(text::pending_trust_step(&a.id));
            out.approval_id = Some(a.id);
        }
        Consent::Approved(done) => {
            out.changed = true;
            out.message = done.message;
        }
    }
    Ok(Reply::Done(out))
}
