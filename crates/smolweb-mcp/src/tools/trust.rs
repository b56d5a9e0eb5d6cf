//! The trust tools: `gemini_trust_list` (the server certificates pinned on first use) and
//! `gemini_trust_update` (pin a fingerprint or forget a pin, only with the person's consent,
//! through `gate` as the identity tools do). A pin is stored under the one host normalizer
//! (`core::url::normalize_host`), so the pin stored is the one the next fetch looks up. The host
//! filter, the fingerprint form and `request_info` are the identity tools' (`certs`).

use super::certs::{HostFilter, filter_info, host_matches, normalize_fingerprint, store_info};
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
use smolweb_client::{Approved, Client};
use smolweb_store::approvals::Request;
use std::fmt::Write;

const TRUST_LIST: &str = "\
List the server certificates pinned on first use (TOFU), optionally for one host: fingerprint, \
first/last seen, expiry.";

const TRUST_UPDATE: &str = "\
Pin a server certificate fingerprint for host:port, or remove a pin (the next visit pins \
again). Only at the user's request, e.g. after they verified a changed certificate out of band. \
smolweb asks the user directly or returns pending: true with an approval_id and next_step.";

/// What `gemini_trust_update` does (asked in the call, repeated in its result): `pin` a
/// certificate fingerprint for the host, or `remove` the pin.
// No variant docs, so the schema stays a plain string `enum`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum TrustAction {
    Pin,
    Remove,
}

impl TrustAction {
    /// The serialized name (`pin`, `remove`).
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            TrustAction::Pin => "pin",
            TrustAction::Remove => "remove",
        }
    }
}

impl std::fmt::Display for TrustAction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[derive(Clone, Debug, Deserialize, JsonSchema)]
pub(crate) struct TrustUpdateParams {
    /// `pin` a certificate fingerprint for the host, or `remove` the pin.
    pub action: TrustAction,
    pub host: String,
    /// Default 1965.
    #[serde(default)]
    #[schemars(range(min = 1, max = 65535))]
    pub port: Option<i64>,
    /// `sha256:<hex>`; required for `pin`; for `remove`, checked against the pin when given.
    #[serde(default)]
    pub fingerprint: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub(crate) struct TrustEntry {
    pub host: String,
    pub port: u16,
    pub fingerprint: String,
    pub first_seen: String,
    pub last_seen: String,
    pub expires: Option<String>,
    pub expired: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub(crate) struct TrustListOut {
    pub request_info: Box<RequestInfoOut>,
    pub entries: Vec<TrustEntry>,
}

#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub(crate) struct TrustUpdateOut {
    pub request_info: Box<RequestInfoOut>,
    pub action: TrustAction,
    pub host: String,
    pub port: u16,
    pub changed: bool,
    pub message: String,
    pub pending: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub approval_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_step: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub(crate) enum TrustListResult {
    TrustList(TrustListOut),
    Error(ErrorOut),
}

#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub(crate) enum TrustUpdateResult {
    TrustUpdate(TrustUpdateOut),
    Error(ErrorOut),
}

store_answer!(TrustListResult, TrustList, render_list);
store_answer!(TrustUpdateResult, TrustUpdate, render_update);

/// `next_step` for a pending trust request.
fn pending_trust_step(id: &str) -> String {
    format!(
        "Ask the user to approve request {id}: run `smolweb trust approve {id}` (or approve it in \
         the smolweb browser), or deny it with `smolweb trust deny {id}`. Then fetch again."
    )
}

fn trust_list(client: &Client, host: Option<&str>) -> TrustListResult {
    let pins = match client.pinned_hosts() {
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

impl Gated for TrustUpdateOut {
    fn queued(&mut self, message: String, approval_id: String) {
        self.pending = true;
        self.message = message;
        self.next_step = Some(pending_trust_step(&approval_id));
        self.approval_id = Some(approval_id);
    }

    fn performed(&mut self, _client: &Client, done: Approved) {
        self.changed = true;
        self.message = done.message;
    }
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

async fn trust_update(
    c: &ConsentCtx<'_>,
    p: &TrustUpdateParams,
) -> Reply<TrustUpdateResult> {
    let r = match trust_plan(c, p) {
        Ok(plan) => gate::run(c, plan).await,
        Err(e) => Err(e),
    };
    gate::finish(r, TrustUpdateResult::TrustUpdate, TrustUpdateResult::Error)
}

/// What a pin change comes to: a request and its question, or nothing to do (and why).
enum Change {
    Ask(Request, String),
    Nothing(String),
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
    let pinned = c
        .client
        .pin_for(&host, port)
        .map_err(|e| store_err(&e))?
        .map(|pin| pin.fingerprint);
    let asker = c.client_name();
    let change = match p.action {
        TrustAction::Pin => pin_change(&asker, (&host, port), fp, pinned)?,
        TrustAction::Remove => forget_change(&asker, (&host, port), fp, pinned)?,
    };
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
    let (request, question) = match change {
        Change::Ask(request, question) => (request, question),
        Change::Nothing(message) => {
            out.message = message;
            return Ok(Plan::Nothing(out));
        }
    };
    let digest = digest(&[
        "gemini_trust_update",
        p.action.as_str(),
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

/// Pin `fp` for host:port: nothing to do when it is the pin already.
fn pin_change(
    asker: &str,
    (host, port): (&str, u16),
    fp: Option<String>,
    pinned: Option<String>,
) -> Result<Change, ErrorOut> {
    let fp = fp.ok_or_else(|| err(ErrorCode::InvalidRequest, "pin needs a fingerprint"))?;
    if pinned.as_ref() == Some(&fp) {
        return Ok(Change::Nothing(format!(
            "{fp} is already pinned for {host}:{port}"
        )));
    }
    let question = format!(
        "{asker} asks smolweb to trust the certificate {fp} for {host}:{port}, replacing any \
         pinned one. Your smolweb browser will accept it too. Allow it only if you verified the \
         fingerprint."
    );
    let request = Request::TrustPin {
        host: host.to_string(),
        port,
        fingerprint: fp,
    };
    Ok(Change::Ask(request, question))
}

/// Forget the pin of host:port (checked against `fp` when given): nothing to do without one.
fn forget_change(
    asker: &str,
    (host, port): (&str, u16),
    fp: Option<String>,
    pinned: Option<String>,
) -> Result<Change, ErrorOut> {
    let Some(pinned) = pinned else {
        return Ok(Change::Nothing(format!(
            "no certificate is pinned for {host}:{port}; nothing to do"
        )));
    };
    if fp.as_ref().is_some_and(|f| *f != pinned) {
        return Err(err(
            ErrorCode::FingerprintMismatch,
            format!("{host}:{port} is pinned to {pinned}, not the fingerprint given"),
        ));
    }
    let question = format!(
        "{asker} asks smolweb to forget the pinned certificate of {host}:{port}. The next visit \
         will trust whatever certificate the server shows then. Allow it?"
    );
    let request = Request::TrustRemove {
        host: host.to_string(),
        port,
    };
    Ok(Change::Ask(request, question))
}

fn render_list(l: &TrustListOut) -> String {
    let mut out = format!("trust_list · {} pinned certificates\n", l.entries.len());
    for e in &l.entries {
        let _ = writeln!(
            out,
            "{}:{} {} expires {}{} · first seen {}",
            e.host,
            e.port,
            e.fingerprint,
            e.expires.as_deref().unwrap_or("unknown"),
            if e.expired { " (EXPIRED)" } else { "" },
            e.first_seen
        );
    }
    out
}

fn render_update(u: &TrustUpdateOut) -> String {
    let mut out = format!(
        "trust_update {} {}:{} · changed {}\n{}\n",
        u.action, u.host, u.port, u.changed, u.message
    );
    pending_lines(&mut out, u.approval_id.as_deref(), u.next_step.as_deref());
    out
}

#[tool_router(router = trust_router)]
impl SmolwebServer {
    #[tool(
        name = "gemini_trust_list",
        description = TRUST_LIST,
        input_schema = schema::input::<HostFilter>(),
        output_schema = schema::output::<TrustListResult>(),
        annotations(title = "List pinned server certificates", read_only_hint = true, open_world_hint = false)
    )]
    async fn gemini_trust_list(
        &self,
        Parameters(p): Parameters<HostFilter>,
    ) -> Result<CallToolResult, ErrorData> {
        Ok(trust_list(self.client(), p.host.as_deref()).reply())
    }

    #[tool(
        name = "gemini_trust_update",
        description = TRUST_UPDATE,
        input_schema = schema::input::<TrustUpdateParams>(),
        output_schema = schema::output::<TrustUpdateResult>(),
        annotations(
            title = "Pin or forget a server certificate",
            read_only_hint = false,
            destructive_hint = true,
            idempotent_hint = true,
            open_world_hint = false
        )
    )]
    async fn gemini_trust_update(
        &self,
        Parameters(p): Parameters<TrustUpdateParams>,
        ctx: RequestContext<RoleServer>,
        RequestState(state): RequestState,
        InputResponses(responses): InputResponses,
    ) -> Result<CallToolResponse, ErrorData> {
        let retry = Retry { state, responses };
        let c = self.consent_ctx(&ctx, &retry);
        Ok(match trust_update(&c, &p).await {
            Reply::NeedInput(r) => r.into(),
            Reply::Done(done) => done.reply().into(),
        })
    }
}

/// The trust tools.
pub(crate) fn router(_client: &Client) -> ToolRouter<SmolwebServer> {
    SmolwebServer::trust_router()
}
