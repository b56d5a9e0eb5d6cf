//! The identity tools: `gemini_client_cert_list` (the person's client identities, never a key
//! or a file path) and `gemini_client_cert_update` (create or remove one, only with the
//! person's consent).
//!
//! An update is never done on the agent's word alone: with elicitation the user is asked a
//! yes/no question naming the scope and the consequence; accepting records the request in the
//! approval queue and approves it at once through `Client::approve` (so the change is the one
//! the CLI makes); declining gives `USER_DECLINED`. Without elicitation the request stays in the
//! queue and the result says `pending: true` with the `approval_id` and a `next_step`. The
//! ask-queue-perform flow is `gate`'s; this file plans the change (checks against the store,
//! the question, the request) and says how its result reads. Every result carries
//! `request_info` (what was asked about; no `timestamp`, as nothing is sent over the network).
//! The host filter, the fingerprint form and the store tools' `request_info` are shared with
//! the trust tools (`trust`).

use crate::ask::Retry;
use crate::gate::{self, ConsentCtx, Gated, Plan, Reply};
use crate::outcome::iso;
use crate::render::pending_lines;
use crate::reply::{StoreAnswer, store_answer};
use crate::results::{ErrorCode, ErrorOut, RequestInfoOut, err, store_err};
use crate::schema;
use crate::seal::digest;
use crate::state::SmolwebServer;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::tool::{InputResponses, RequestState};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResponse, CallToolResult};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, tool, tool_router};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use smolweb_client::{Approved, Client, agent_identity_name};
use smolweb_core::url::{Scheme, Url};
use smolweb_store::approvals::Request;
use smolweb_store::identity::{CreatedBy, Identity, Scope};
use std::fmt::Write;

const CERT_LIST: &str = "\
List the client identities (Gemini client certificates) the user has, optionally for one host: \
scope url, fingerprint, validity, who created it and whether agents may use it. Never keys or \
file paths.";

const CERT_UPDATE: &str = "\
Create or remove a client identity for a capsule scope (gemini://host[:port]/path). This \
changes the user's own browser too, so smolweb never does it on your word alone: it asks the \
user directly when your client supports it (declining gives USER_DECLINED), otherwise it returns \
pending: true with an approval_id and a next_step for the user. Ask the user before calling. \
`create` refuses a fingerprint; `remove` requires the fingerprint of the identity.";

#[derive(Clone, Debug, Deserialize, JsonSchema)]
pub(crate) struct HostFilter {
    /// Only entries for this host.
    #[serde(default)]
    pub host: Option<String>,
}

/// What `gemini_client_cert_update` does (asked in the call, repeated in its result):
/// `create` a new identity for the scope, or `remove` one.
// No variant docs, so the schema stays a plain string `enum`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum CertAction {
    Create,
    Remove,
}

impl CertAction {
    /// The serialized name (`create`, `remove`).
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            CertAction::Create => "create",
            CertAction::Remove => "remove",
        }
    }
}

impl std::fmt::Display for CertAction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[derive(Clone, Debug, Deserialize, JsonSchema)]
pub(crate) struct CertUpdateParams {
    /// `create` a new identity for the scope, or `remove` one.
    pub action: CertAction,
    /// The scope: gemini://host[:port]/path (the identity covers that path and below).
    pub url: String,
    /// `sha256:<hex>` of the identity to remove; required for `remove`, refused for `create`.
    #[serde(default)]
    pub fingerprint: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub(crate) struct CertEntry {
    pub url: String,
    pub host: String,
    pub port: u16,
    pub path: String,
    pub fingerprint: String,
    pub not_before: String,
    pub not_after: String,
    pub expired: bool,
    pub name: String,
    /// "human" or "agent".
    pub created_by: String,
    /// May an agent's request present this identity?
    pub agent_use: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub(crate) struct CertListOut {
    pub request_info: Box<RequestInfoOut>,
    pub entries: Vec<CertEntry>,
    /// Identity files that could not be read (named by file name; left untouched, the other
    /// identities still work). Absent when there are none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub(crate) struct CertUpdateOut {
    pub request_info: Box<RequestInfoOut>,
    pub action: CertAction,
    pub host: String,
    pub port: u16,
    pub path: String,
    pub fingerprint: Option<String>,
    /// Expiry of the identity created (ISO-8601), or null.
    pub expires: Option<String>,
    pub changed: bool,
    pub message: String,
    /// True when the change waits for the user's approval in smolweb.
    pub pending: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub approval_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_step: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub(crate) enum CertListResult {
    ClientCertList(CertListOut),
    Error(ErrorOut),
}

#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub(crate) enum CertUpdateResult {
    ClientCertUpdate(CertUpdateOut),
    Error(ErrorOut),
}

store_answer!(CertListResult, ClientCertList, render_list);
store_answer!(CertUpdateResult, ClientCertUpdate, render_update);

/// `next_step` for a pending identity request.
fn pending_identity_step(id: &str) -> String {
    format!(
        "Ask the user to approve request {id}: run `smolweb identity approve {id}` (or approve it \
         in the smolweb browser's identity screen), or deny it with `smolweb identity deny {id}`. \
         Then fetch the page again."
    )
}

/// `sha256:<64 hex>` in lowercase, from that or bare hex.
pub(crate) fn normalize_fingerprint(s: &str) -> Option<String> {
    let s = s.trim().to_ascii_lowercase();
    let hex = s.strip_prefix("sha256:").unwrap_or(&s);
    (hex.len() == 64 && hex.bytes().all(|b| b.is_ascii_hexdigit())).then(|| format!("sha256:{hex}"))
}

/// Does `host` pass the filter (none or empty: every host passes)?
pub(crate) fn host_matches(filter: Option<&str>, host: &str) -> bool {
    filter
        .map(|f| {
            f.trim()
                .trim_start_matches("gemini://")
                .trim_end_matches('/')
        })
        .is_none_or(|f| f.is_empty() || f.eq_ignore_ascii_case(host))
}

/// `request_info` of a store tool: what it was asked about (no network request was sent, so
/// no `timestamp`).
pub(crate) fn store_info(url: Option<String>, host: Option<&str>, port: Option<u16>) -> RequestInfoOut {
    RequestInfoOut {
        url,
        host: host.map(str::to_string),
        port,
        ..RequestInfoOut::default()
    }
}

/// `request_info` of a list filtered by `host`.
pub(crate) fn filter_info(host: Option<&str>) -> RequestInfoOut {
    store_info(None, host.map(str::trim).filter(|h| !h.is_empty()), None)
}

fn cert_list(client: &Client, host: Option<&str>) -> CertListResult {
    // A corrupt identity file is skipped and named (by file name, never its path), so one bad
    // file does not hide the rest.
    let scan = match client.scan_identities() {
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

impl Gated for CertUpdateOut {
    fn queued(&mut self, message: String, approval_id: String) {
        self.pending = true;
        self.message = message;
        self.next_step = Some(pending_identity_step(&approval_id));
        self.approval_id = Some(approval_id);
    }

    fn performed(&mut self, client: &Client, done: Approved) {
        self.changed = true;
        self.message = done.message;
        self.fingerprint = done.fingerprint.clone();
        if self.action == CertAction::Create {
            self.expires = done
                .fingerprint
                .and_then(|fp| client.identity(&fp).ok().flatten())
                .map(|i| iso(i.not_after));
        }
    }
}

async fn cert_update(
    c: &ConsentCtx<'_>,
    p: &CertUpdateParams,
) -> Reply<CertUpdateResult> {
    let r = match cert_plan(c, p) {
        Ok(plan) => gate::run(c, plan).await,
        Err(e) => Err(e),
    };
    gate::finish(
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
        .scan_identities()
        .map_err(|e| store_err(&e))?
        .identities;
    let asker = c.client_name();
    let mut out = cert_base(p.action, &scope);
    // Reported while the change waits (replaced by the store's answer once performed).
    out.fingerprint = p.fingerprint.as_deref().and_then(normalize_fingerprint);
    let asked = match p.action {
        CertAction::Create => Some(create_question(&asker, &scope, &ids, p)?),
        CertAction::Remove => remove_question(&asker, &scope, &ids, p)?,
    };
    let Some((request, question)) = asked else {
        out.message = format!("no identity exists for {}; nothing to do", scope.url());
        return Ok(Plan::Nothing(out));
    };
    let digest = digest(&[
        "gemini_client_cert_update",
        p.action.as_str(),
        &scope.url(),
        p.fingerprint.as_deref().unwrap_or(""),
    ]);
    Ok(Plan::Ask {
        out,
        request,
        question,
        digest,
    })
}

/// The request and question of a create: refused with a fingerprint, or when the scope has an
/// identity already. The question names the identity by the name it will have.
fn create_question(
    asker: &str,
    scope: &Scope,
    ids: &[Identity],
    p: &CertUpdateParams,
) -> Result<(Request, String), ErrorOut> {
    if p.fingerprint.is_some() {
        return Err(err(
            ErrorCode::InvalidRequest,
            "create makes a new identity: do not pass a fingerprint",
        ));
    }
    if let Some(i) = ids.iter().find(|i| i.scope == *scope) {
        return Err(err(
            ErrorCode::CertificateExists,
            format!(
                "an identity already exists for {}: {}",
                scope.url(),
                i.fingerprint
            ),
        ));
    }
    let identity = agent_identity_name(scope);
    let question = format!(
        "{asker} asks smolweb to create a client certificate (a lasting identity) named \
         '{identity}' for {}. The capsule will recognise you by it on every visit, in your \
         smolweb browser too. Allow it?",
        scope.url()
    );
    let request = Request::IdentityCreate {
        scope: scope.clone(),
        name: identity,
    };
    Ok((request, question))
}

/// The request and question of a remove, or None when the scope has no identity at all. The
/// fingerprint must name the identity of exactly that scope.
fn remove_question(
    asker: &str,
    scope: &Scope,
    ids: &[Identity],
    p: &CertUpdateParams,
) -> Result<Option<(Request, String)>, ErrorOut> {
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
    let at_scope = ids.iter().find(|i| i.scope == *scope);
    match (by_fp, at_scope) {
        (Some(i), _) if i.scope == *scope => {}
        (None, None) => return Ok(None),
        _ => {
            return Err(err(
                ErrorCode::FingerprintMismatch,
                format!("no identity {fp} exists for exactly {}", scope.url()),
            ));
        }
    }
    let question = format!(
        "{asker} asks smolweb to delete your client identity {fp} for {}. The capsule will no \
         longer recognise you, and this cannot be undone. Allow it?",
        scope.url()
    );
    let request = Request::IdentityRemove {
        fingerprint: fp,
        scope: scope.clone(),
    };
    Ok(Some((request, question)))
}

fn render_list(l: &CertListOut) -> String {
    let mut out = format!("client_cert_list · {} identities\n", l.entries.len());
    for e in &l.entries {
        let _ = writeln!(
            out,
            "{} {} '{}' until {}{} · made by {} · agent use {}",
            e.url,
            e.fingerprint,
            e.name,
            e.not_after,
            if e.expired { " (EXPIRED)" } else { "" },
            e.created_by,
            if e.agent_use { "allowed" } else { "refused" }
        );
    }
    for w in &l.warnings {
        let _ = writeln!(out, "warning: {w}");
    }
    out
}

fn render_update(u: &CertUpdateOut) -> String {
    let mut out = format!(
        "client_cert_update {} gemini://{}:{}{} · changed {}\n{}\n",
        u.action, u.host, u.port, u.path, u.changed, u.message
    );
    pending_lines(&mut out, u.approval_id.as_deref(), u.next_step.as_deref());
    out
}

#[tool_router(router = certs_router)]
impl SmolwebServer {
    #[tool(
        name = "gemini_client_cert_list",
        description = CERT_LIST,
        input_schema = schema::input::<HostFilter>(),
        output_schema = schema::output::<CertListResult>(),
        annotations(title = "List client identities", read_only_hint = true, open_world_hint = false)
    )]
    async fn gemini_client_cert_list(
        &self,
        Parameters(p): Parameters<HostFilter>,
    ) -> Result<CallToolResult, ErrorData> {
        Ok(cert_list(self.client(), p.host.as_deref()).reply())
    }

    #[tool(
        name = "gemini_client_cert_update",
        description = CERT_UPDATE,
        input_schema = schema::input::<CertUpdateParams>(),
        output_schema = schema::output::<CertUpdateResult>(),
        annotations(
            title = "Create or remove a client identity",
            read_only_hint = false,
            destructive_hint = true,
            idempotent_hint = false,
            open_world_hint = false
        )
    )]
    async fn gemini_client_cert_update(
        &self,
        Parameters(p): Parameters<CertUpdateParams>,
        ctx: RequestContext<RoleServer>,
        RequestState(state): RequestState,
        InputResponses(responses): InputResponses,
    ) -> Result<CallToolResponse, ErrorData> {
        let retry = Retry { state, responses };
        let c = self.consent_ctx(&ctx, &retry);
        Ok(match cert_update(&c, &p).await {
            Reply::NeedInput(r) => r.into(),
            Reply::Done(done) => done.reply().into(),
        })
    }
}

/// The identity tools.
pub(crate) fn router(_client: &Client) -> ToolRouter<SmolwebServer> {
    SmolwebServer::certs_router()
}
