//! Asking the human a question through the MCP client, on both protocol generations.
//!
//! Initialize-style sessions: a server-to-client `elicitation/create` request
//! (`Peer::elicit`). 2026-07-28 sessions: no server-to-client requests, so the tool returns an
//! input-required result carrying the question and a sealed state; the client retries the same
//! call with the answer and the state, which we verify (see `seal`). A client without form
//! elicitation gets [`Ask::Unsupported`] and the caller falls back (pending approvals).

use super::seal::Sealer;
use rmcp::RoleServer;
use rmcp::model::{
    ElicitRequest, ElicitRequestParams, ElicitationSchema, InputRequest, InputRequests,
    InputRequiredResult, InputResponses,
};
use rmcp::service::{ElicitationError, ElicitationMode, ElicitationSafe, RequestContext};
use serde::de::DeserializeOwned;

/// The key of our one question in an input-required round.
const KEY: &str = "smolweb";

/// What came of a question.
pub(crate) enum Ask<T> {
    Answer(T),
    Declined,
    /// The client cannot ask its user.
    Unsupported,
    /// The question went unanswered within `mcp.consent_timeout_seconds`.
    TimedOut,
    /// 2026-07-28: return this to the client; the answer comes with its retry.
    NeedInput(InputRequiredResult),
    /// The retry's state or answer is not acceptable (message for INVALID_REQUEST).
    Invalid(String),
}

/// The round-trip parts a tool received on a 2026-07-28 retry.
#[derive(Clone, Debug, Default)]
pub(crate) struct Retry {
    pub state: Option<String>,
    pub(crate) responses: Option<InputResponses>,
}

fn is_modern(ctx: &RequestContext<RoleServer>) -> bool {
    ctx.protocol_version().is_some_and(|v| !v.has_initialize())
}

fn modern_form_supported(ctx: &RequestContext<RoleServer>) -> bool {
    ctx.client_capabilities()
        .and_then(|c| c.elicitation)
        .is_some_and(|e| e.form.is_some() || e.url.is_none())
}

fn now_unix() -> i64 {
    time::OffsetDateTime::now_utc().unix_timestamp()
}

/// Ask `message` with a form of type `T`. `purpose` and `digest` bind a 2026 state to this
/// question and these exact arguments. An initialize-style question unanswered within
/// `timeout` is [`Ask::TimedOut`] (`mcp.consent_timeout_seconds`).
pub(crate) async fn ask<T>(
    ctx: &RequestContext<RoleServer>,
    retry: &Retry,
    (sealer, timeout): (&Sealer, std::time::Duration),
    purpose: &str,
    digest: &str,
    message: String,
) -> Ask<T>
where
    T: ElicitationSafe + DeserializeOwned,
{
    if !is_modern(ctx) {
        return ask_legacy(ctx, message, timeout).await;
    }
    if !modern_form_supported(ctx) {
        return Ask::Unsupported;
    }
    let Some(state) = retry.state.as_deref() else {
        let schema = match ElicitationSchema::from_type::<T>() {
            Ok(s) => s,
            Err(e) => return Ask::Invalid(format!("cannot build the question form: {e}")),
        };
        let mut requests = InputRequests::new();
        requests.insert(
            KEY.to_string(),
            InputRequest::Elicitation(ElicitRequest::new(
                ElicitRequestParams::FormElicitationParams {
                    meta: None,
                    message,
                    requested_schema: schema,
                },
            )),
        );
        let sealed = sealer.seal(purpose, digest, now_unix());
        return Ask::NeedInput(InputRequiredResult::new(Some(requests), Some(sealed)));
    };
    if let Err(e) = sealer.open(state, purpose, digest, now_unix()) {
        return Ask::Invalid(e.to_string());
    }
    let Some(response) = retry.responses.as_ref().and_then(|r| r.get(KEY)) else {
        return Ask::Invalid("the retry carries no answer to smolweb's question".into());
    };
    match response.get("action").and_then(|a| a.as_str()) {
        Some("accept") => match response
            .get("content")
            .cloned()
            .map(serde_json::from_value::<T>)
        {
            Some(Ok(t)) => Ask::Answer(t),
            _ => Ask::Invalid("the answer does not match the question's form".into()),
        },
        Some("decline") | Some("cancel") => Ask::Declined,
        _ => Ask::Invalid("the answer has no valid action".into()),
    }
}

async fn ask_legacy<T>(
    ctx: &RequestContext<RoleServer>,
    message: String,
    timeout: std::time::Duration,
) -> Ask<T>
where
    T: ElicitationSafe + DeserializeOwned,
{
    if !ctx
        .peer
        .supported_elicitation_modes()
        .contains(&ElicitationMode::Form)
    {
        return Ask::Unsupported;
    }
    match ctx
        .peer
        .elicit_with_timeout::<T>(message, Some(timeout))
        .await
    {
        Ok(Some(t)) => Ask::Answer(t),
        Ok(None) | Err(ElicitationError::NoContent) => Ask::Declined,
        Err(ElicitationError::UserDeclined) | Err(ElicitationError::UserCancelled) => Ask::Declined,
        Err(ElicitationError::CapabilityNotSupported) => Ask::Unsupported,
        Err(ElicitationError::ParseError { .. }) => {
            Ask::Invalid("the answer does not match the question's form".into())
        }
        Err(ElicitationError::Service(rmcp::ServiceError::Timeout { .. })) => Ask::TimedOut,
        Err(e) => {
            tracing::warn!("elicitation failed: {e}");
            Ask::Unsupported
        }
    }
}
