//! What every `tools/call` goes through around its tool (the server's `call_tool`).
//!
//! - **Arguments** are checked against the input schema `tools/list` publishes (`args`), before
//!   the tool runs. A mismatch is answered per the session's protocol generation, as rmcp
//!   reports it for the request (`RequestContext::protocol_version`, the negotiated version of
//!   an initialize session or the version a 2026-07-28 request names): from 2025-11-25 on it is
//!   a tool execution error (`isError: true`, `structuredContent` in the tool's own error shape:
//!   `INVALID_INPUT` for `fetch_url`, `INVALID_REQUEST` for the other tools), so the model can
//!   correct itself; up to 2025-06-18 it is a JSON-RPC `-32602` whose `data.field` names the
//!   field. Either way the message names the field and the bound. An unknown tool stays a
//!   JSON-RPC `-32602` (rmcp's router says so).
//! - **Cancellation**: `notifications/cancelled` makes rmcp cancel the request's token and drop
//!   whatever the handler answers later. The call's future is raced against that token, so on
//!   cancel it is dropped at once: its sockets close, a batch's member tasks are aborted (their
//!   `JoinSet` goes with it), a wait for a slot or a pacing turn ends. Nothing is left half
//!   written: the cache takes a page only once its body is complete, and store writes are
//!   synchronous (lock, write, rename) so a dropped future never stops one midway.

use super::args::{self, Mismatch};
use super::reply::tool_result;
use super::results::{ErrorCode, ErrorOut, GeminiResult, RequestInfoOut, error_out};
use super::state::SmolwebServer;
use rmcp::ErrorData;
use rmcp::RoleServer;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::tool::ToolCallContext;
use rmcp::model::{CallToolRequestParams, CallToolResponse, CallToolResult, JsonObject};
use rmcp::model::{ProtocolVersion, Tool};
use rmcp::service::RequestContext;
use serde_json::{Value, json};
use smolweb_net::http::WebError;

/// The first revision where input that fails the schema is a tool execution error.
const TOOL_ERRORS_FROM: ProtocolVersion = ProtocolVersion::V_2025_11_25;

/// Run one `tools/call`: check its arguments, then the tool, until it ends or is cancelled.
pub(super) async fn call_tool(
    server: &SmolwebServer,
    router: &ToolRouter<SmolwebServer>,
    request: CallToolRequestParams,
    ctx: RequestContext<RoleServer>,
) -> Result<CallToolResponse, ErrorData> {
    let log = std::sync::Arc::clone(server.session_log());
    log.start(ctx.client_info());
    let started = std::time::Instant::now();
    let (tool, arguments) = (request.name.to_string(), request.arguments.clone());
    let record = |r: &Result<CallToolResponse, ErrorData>| {
        log.call(&tool, arguments.as_ref(), r, started.elapsed());
    };
    if let Some(t) = router.get(&request.name)
        && let Err(m) = check(t, request.arguments.as_ref())
    {
        let r = refuse(&request.name, m, ctx.protocol_version().as_ref());
        record(&r);
        return r;
    }
    let cancelled = ctx.ct.clone();
    let id = ctx.id.clone();
    let call = router.call(ToolCallContext::new(server, request, ctx));
    tokio::select! {
        biased;
        () = cancelled.cancelled() => {
            tracing::debug!(%id, "the client cancelled a tool call; its work is dropped");
            log.call(&tool, arguments.as_ref(), &Ok(cancelled_result()), started.elapsed());
            // rmcp sends nothing for a cancelled request; this never reaches the client.
            Err(ErrorData::internal_error("the request was cancelled", None))
        }
        r = call => {
            record(&r);
            r
        }
    }
}

/// How a cancelled call reads in the activity log.
fn cancelled_result() -> CallToolResponse {
    CallToolResult::structured_error(json!({"kind": "error", "error": {"code": "CANCELLED"}}))
        .into()
}

fn check(tool: &Tool, arguments: Option<&JsonObject>) -> Result<(), Mismatch> {
    let empty = JsonObject::new();
    args::check(&tool.input_schema, arguments.unwrap_or(&empty))
}

/// Does this session report schema mismatches as tool results?
fn tool_errors(version: Option<&ProtocolVersion>) -> bool {
    version.is_some_and(|v| v.as_str() >= TOOL_ERRORS_FROM.as_str())
}

/// The answer to arguments that do not match `tool`'s input schema.
fn refuse(
    tool: &str,
    m: Mismatch,
    version: Option<&ProtocolVersion>,
) -> Result<CallToolResponse, ErrorData> {
    if !tool_errors(version) {
        let message = format!("Invalid params for {tool}: {}", m.message);
        let data = json!({ "tool": tool, "field": m.field });
        return Err(ErrorData::invalid_params(message, Some(data)));
    }
    let message = format!("invalid arguments for {tool}: {}", m.message);
    Ok(refusal(tool, &message).into())
}

/// An `isError` result in the shape of `tool`'s output schema.
pub(super) fn refusal(tool: &str, message: &str) -> CallToolResult {
    match tool {
        "fetch_url" => {
            let out =
                crate::tools::web::failure(&WebError::InvalidInput(message.to_string()), None);
            tool_result(&out, vec![crate::tools::web::render(&out)], true)
        }
        _ => {
            let out = error_out(
                RequestInfoOut::default(),
                ErrorCode::InvalidRequest,
                message,
            );
            let text = crate::render::store_error(&out);
            let mut value = kind_error(out);
            if tool.ends_with("_batch_fetch")
                && let Some(obj) = value.as_object_mut()
            {
                // No URL was read: the batch's list is empty and the error says why.
                obj.insert("result".into(), json!([]));
            }
            tool_result(&value, vec![text], true)
        }
    }
}

/// `{"kind": "error", "request_info": ..., "error": ...}`, as every kind-tagged result has it.
fn kind_error(out: ErrorOut) -> Value {
    serde_json::to_value(GeminiResult::Error(out)).unwrap_or_else(|_| json!({"kind": "error"}))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_generation_decides_the_shape() {
        let m = || Mismatch {
            field: "offset".into(),
            message: "`offset` must be >= 0 (got -1)".into(),
        };
        for old in [
            None,
            Some(ProtocolVersion::V_2025_06_18),
            Some(ProtocolVersion::V_2024_11_05),
        ] {
            let e = refuse("gemini_fetch", m(), old.as_ref()).unwrap_err();
            assert_eq!(e.code, rmcp::model::ErrorCode::INVALID_PARAMS);
            assert_eq!(e.data.unwrap()["field"], "offset");
        }
        for new in [ProtocolVersion::V_2025_11_25, ProtocolVersion::V_2026_07_28] {
            let Ok(CallToolResponse::Complete(r)) = refuse("gemini_fetch", m(), Some(&new)) else {
                unreachable!("a tool result")
            };
            assert_eq!(r.is_error, Some(true));
            let v = r.structured_content.unwrap();
            assert_eq!(v["kind"], "error");
            assert_eq!(v["error"]["code"], "INVALID_REQUEST");
            assert_eq!(v["error"]["retryable"], false);
            assert!(
                v["error"]["message"]
                    .as_str()
                    .unwrap()
                    .contains("`offset` must be >= 0")
            );
        }
        let v = refusal("fetch_url", "m").structured_content.unwrap();
        assert_eq!(v["error"]["code"], "INVALID_INPUT");
        assert!(v.get("kind").is_none(), "fetch_url's own shape: {v}");
        let v = refusal("gopher_batch_fetch", "m")
            .structured_content
            .unwrap();
        assert_eq!(
            (v["kind"].as_str(), v["result"].clone()),
            (Some("error"), json!([]))
        );
    }
}
