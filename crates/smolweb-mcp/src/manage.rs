//! Identity and trust tools: lists, and updates that need the human's consent.
//!
//! An update is never done on the agent's word alone: with elicitation the user is asked a
//! yes/no question naming the scope and the consequence; accepting records the request in the
//! approval queue and approves it at once through `Client::approve` (so the change is the one
//! the CLI makes); declining gives `USER_DECLINED`. Without elicitation the request stays in the
//! queue and the result says `pending: true` with the `approval_id` and a `next_step`.
//! The shared ask-queue-perform flow is `gate`; this module plans each change (checks against
//! the stores, the question, the request) and says how its result reads.
//! Every result carries `request_info` (what was asked about; no `timestamp`, as nothing is
//! sent over the network). Results never contain a private key or a file path.

use super::gate::{self, Gated, Plan};
pub(crate) use super::gate::{ConsentCtx, Reply};
use super::outcome::iso;
use super::params::{CertAction, CertUpdateParams, TrustAction, TrustUpdateParams};
use super::results::*;
use super::seal::digest;
use super::text;
use smolweb_client::{Approved, Client};
use smolweb_core::url::{Scheme, Url};
use smolweb_store::StoreError;
use smolweb_store::approvals::Request;
use smolweb_store::identity::{CreatedBy, Scope};

/// An error as the store tools return it (retryable as the code says).
pub(crate) fn err(code: ErrorCode, message: impl Into<String>) -> ErrorOut {
    error_out(RequestInfoOut::default(), code, message)
}

/// The contract code of a store failure.
pub(crate) fn store_code(e: &StoreError) -> ErrorCode {
    match e {
        StoreError::Exists(_) => ErrorCode::CertificateExists,
        StoreError::NotFound(_) | StoreError::Invalid(_) => ErrorCode::InvalidRequest,
        StoreError::Io { .. }
        | StoreError::Corrupt { .. }
        | StoreError::NotRegular { .. }
        | StoreError::Exposed { .. } => ErrorCode::CertificateStoreUnavailable,
        StoreError::Crypto(_) => ErrorCode::InternalError,
    }
}

pub(crate) fn store_err(e: &StoreError) -> ErrorOut {
    err(store_code(e), e.to_string())
}

/// `sha256:<64 hex>` in lowercase, from that or bare hex.
pub(crate) fn normalize_fingerprint(s: &str) -> Option<String> {
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

pub(crate) fn cert_list(client: &Client, host: Option<&str>) -> CertListResult {
    // A corrupt identity file is skipped and named (by file name, never its path), so one bad
    // file does not hide the rest.
    let scan = match client.identities().scan() {
        Ok(s) => s,
        Err(e) => return CertListResult::Error(store_err(&e)),
    };
    let warnings = scan
        .unreadable
        .iter()
        .map(|u| {
            let name = u.path.file_name().map_or_else(
                || "an identity file".to_string(),
                |n| n.to_string_lossy().into_owned(),
            );
            format!("{name} could not be read and was skipped: {}", u.reason)
        })
        .collect();
    let list = scan.identities;
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
    CertListResult::ClientCertList(CertListOut {
        request_info: Box::new(filter_info(host)),
        entries,
        warnings,
    })
}

pub(crate) fn trust_list(client: &Client, host: Option<&str>) -> TrustListResult {
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
    TrustListResult::TrustList(TrustListOut {
        request_info: Box::new(filter_info(host)),
        entries,
    })
}

fn scope_of(url: &str) -> Result<Scope, ErrorOut> {
    let u = Url::parse(url.trim()).map_err(|e| err(ErrorCode::InvalidRequest, e.to_string()))?;
    if u.scheme() != Scheme::Gemini {
        return Err(err(
            ErrorCode::InvalidRequest,
            "an identity scope is a gemini:// URL",
        ));
    }
    Ok(Scope {
        host: u.host().to_string(),
        port: u.port(),
        path: u.path().to_string(),
    })
}

/// `request_info` of a store tool: what it was asked about (no network request was sent, so
/// no `timestamp`).
fn store_info(url: Option<String>, host: Option<&str>, port: Option<u16>) -> RequestInfoOut {
    RequestInfoOut {
        url,
        host: host.map(str::to_string),
        port,
        ..RequestInfoOut::default()
    }
}

fn filter_info(host: Option<&str>) -> RequestInfoOut {
    store_info(None, host.map(str::trim).filter(|h| !h.is_empty()), None)
}

fn cert_base(action: CertAction, scope: &Scope) -> CertUpdateOut {
    let mut request_info = store_info(Some(scope.url()), Some(&scope.host), Some(scope.port));
    request_info.path = Some(scope.path.clone());
    CertUpdateOut {
        request_info: Box::new(request_info),
        action,
        host: scope.host.clone(),
        port: scope.port,
        path: scope.path.clone(),
        fingerprint: None,
        expires: None,
        changed: false,
        message: String::new(),
        pending: false,
        approval_id: None,
        next_step: None,
    }
}

/// Wrap a gated flow's outcome in a tool's result enum.
fn finish<O, R>(
    r: Result<Reply<O>, ErrorOut>,
    ok: fn(O) -> R,
    error: fn(ErrorOut) -> R,
) -> Reply<R> {
    match r {
        Ok(Reply::Done(out)) => Reply::Done(ok(out)),
        Ok(Reply::NeedInput(r)) => Reply::NeedInput(r),
        Err(e) => Reply::Done(error(e)),
    }
}

impl Gated for CertUpdateOut {
    fn queued(&mut self, message: String, approval_id: String) {
        self.pending = true;
        self.message = message;
        self.next_step = Some(text::pending_identity_step(&approval_id));
        self.approval_id = Some(approval_id);
    }

    fn performed(&mut self, client: &Client, done: Approved) {
        self.changed = true;
        self.message = done.message;
        self.fingerprint = done.fingerprint.clone();
        if self.action == CertAction::Create {
            self.expires = done
                .fingerprint
                .and_then(|fp| client.identities().get(&fp).ok().flatten())
                .map(|i| iso(i.not_after));
        }
    }
}

impl Gated for TrustUpdateOut {
    fn queued(&mut self, message: String, approval_id: String) {
        self.pending = true;
        self.message = message;
        self.next_step = Some(text::pending_trust_step(&approval_id));
        self.approval_id = Some(approval_id);
    }

    fn performed(&mut self, _client: &Client, done: Approved) {
        self.changed = true;
        self.message = done.message;
    }
}

pub(crate) async fn cert_update(
    c: &ConsentCtx<'_>,
    p: &CertUpdateParams,
) -> Reply<CertUpdateResult> {
    let r = match cert_plan(c, p) {
        Ok(plan) => gate::run(c, plan).await,
        Err(e) => Err(e),
    };
    finish(
        r,
        CertUpdateResult::ClientCertUpdate,
        CertUpdateResult::Error,
    )
}

/// Check an identity change against the store and say what to ask.
fn cert_plan(c: &ConsentCtx<'_>, p: &CertUpdateParams) -> Result<Plan<CertUpdateOut>, ErrorOut> {
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
                    ErrorCode::InvalidRequest,
                    "create makes a new identity: do not pass a fingerprint",
                ));
            }
            if let Some(i) = ids.iter().find(|i| i.scope == scope) {
                return Err(err(
                    ErrorCode::CertificateExists,
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
            (CertAction::Create, req, q)
        }
        CertAction::Remove => {
            let raw = p.fingerprint.as_deref().ok_or_else(|| {
                err(
                    ErrorCode::InvalidRequest,
                    "remove needs the fingerprint of the identity",
                )
            })?;
            let fp = normalize_fingerprint(raw).ok_or_else(|| {
                err(
                    ErrorCode::InvalidRequest,
                    "the fingerprint must be sha256:<64 hex digits>",
                )
            })?;
            let by_fp = ids.iter().find(|i| i.fingerprint == fp);
            let at_scope = ids.iter().find(|i| i.scope == scope);
            match (by_fp, at_scope) {
                (Some(i), _) if i.scope == scope => {}
                (None, None) => {
                    let mut out = cert_base(CertAction::Remove, &scope);
                    out.fingerprint = Some(fp);
                    out.message = format!("no identity exists for {}; nothing to do", scope.url());
                    return Ok(Plan::Nothing(out));
                }
                _ => {
                    return Err(err(
                        ErrorCode::FingerprintMismatch,
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
            (CertAction::Remove, req, q)
        }
    };
    let digest = digest(&[
        "gemini_client_cert_update",
        action.as_str(),
        &scope.url(),
        p.fingerprint.as_deref().unwrap_or(""),
    ]);
    let mut out = cert_base(action, &scope);
    // Reported while the change waits (replaced by the store's answer once performed).
    out.fingerprint = p.fingerprint.as_deref().and_then(normalize_fingerprint);
    Ok(Plan::Ask {
        out,
        request,
        question,
        digest,
    })
}

fn host_port(p: &TrustUpdateParams) -> Result<(String, u16), ErrorOut> {
    // The one host normalizer: the pin stored is the one the next fetch looks up.
    let host = smolweb_core::url::normalize_host(&p.host)
        .map_err(|e| err(ErrorCode::InvalidRequest, format!("host: {e}")))?;
    let port = p.port.unwrap_or(1965);
    let port = u16::try_from(port)
        .ok()
        .filter(|p| *p != 0)
        .ok_or_else(|| err(ErrorCode::InvalidRequest, format!("invalid port {port}")))?;
    Ok((host, port))
}

pub(crate) async fn trust_update(
    c: &ConsentCtx<'_>,
    p: &TrustUpdateParams,
) -> Reply<TrustUpdateResult> {
    let r = match trust_plan(c, p) {
        Ok(plan) => gate::run(c, plan).await,
        Err(e) => Err(e),
    };
    finish(r, TrustUpdateResult::TrustUpdate, TrustUpdateResult::Error)
}

/// Check a pin change against the store and say what to ask.
fn trust_plan(c: &ConsentCtx<'_>, p: &TrustUpdateParams) -> Result<Plan<TrustUpdateOut>, ErrorOut> {
    let (host, port) = host_port(p)?;
    let fp = match p.fingerprint.as_deref() {
        Some(raw) => Some(normalize_fingerprint(raw).ok_or_else(|| {
            err(
                ErrorCode::InvalidRequest,
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
        request_info: Box::new(store_info(None, Some(&host), Some(port))),
        action: p.action,
        host: host.clone(),
        port,
        changed: false,
        message: String::new(),
        pending: false,
        approval_id: None,
        next_step: None,
    };
    let (request, question) = match p.action {
        TrustAction::Pin => {
            let fp = fp.ok_or_else(|| err(ErrorCode::InvalidRequest, "pin needs a fingerprint"))?;
            if pin.as_ref().is_some_and(|p| p.fingerprint == fp) {
                out.message = format!("{fp} is already pinned for {host}:{port}");
                return Ok(Plan::Nothing(out));
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
            let Some(pin) = pin else {
                out.message = format!("no certificate is pinned for {host}:{port}; nothing to do");
                return Ok(Plan::Nothing(out));
            };
            if fp.as_ref().is_some_and(|f| *f != pin.fingerprint) {
                return Err(err(
                    ErrorCode::FingerprintMismatch,
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
    let digest = digest(&[
        "gemini_trust_update",
        out.action.as_str(),
        &host,
        &port.to_string(),
        p.fingerprint.as_deref().unwrap_or(""),
    ]);
    Ok(Plan::Ask {
        out,
        request,
        question,
        digest,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_failures_are_typed_codes_with_their_retryability() {
        let corrupt = StoreError::Corrupt {
            path: "known_hosts.toml".into(),
            reason: "bad".into(),
        };
        let cases = [
            (corrupt, ErrorCode::CertificateStoreUnavailable, true),
            (
                StoreError::Exists("x".into()),
                ErrorCode::CertificateExists,
                false,
            ),
            (
                StoreError::NotFound("x".into()),
                ErrorCode::InvalidRequest,
                false,
            ),
            (
                StoreError::Crypto("x".into()),
                ErrorCode::InternalError,
                false,
            ),
        ];
        for (e, code, retryable) in cases {
            let out = store_err(&e);
            assert_eq!(
                (out.error.code, out.error.retryable),
                (code, retryable),
                "{e}"
            );
            let v = serde_json::to_value(&out).unwrap();
            assert_eq!(v["error"]["code"], code.as_str());
        }
    }
}
