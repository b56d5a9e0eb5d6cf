//! `titan_upload`: an agent publishing to a capsule with Titan, a consent event. Every upload
//! is put to the person first through the one consent flow ([`crate::gate::confirm`]: an
//! elicitation on either protocol generation) with what would be sent: the URL (without its
//! query), the size, the MIME type and the first lines of a text; `size=0` says it deletes.
//! Nothing leaves before the person says yes: a decline is `USER_DECLINED`, and a client
//! that cannot ask its user gets an error saying so (an upload never waits in the approval
//! queue: its body and its token would have to be stored).
//!
//! The upload goes through `Client::titan_upload` (the agent face's guard, pacing, in-flight
//! limits and one timeout; the TLS, TOFU pin and identity of the matching gemini:// page) and
//! its answer is mapped like `gemini_fetch`'s (a success page, a redirect to the new resource,
//! a failure). The token is sent and never echoed, logged or kept. An agent's upload is at
//! most `network.max_response_bytes`.

use crate::gate::{Confirmed, confirm};
use crate::outcome::{Family, error_result, map_outcome, refused};
use crate::reply::tool_result;
use crate::results::*;
use crate::schema;
use crate::seal::digest;
use crate::state::SmolwebServer;
use base64::Engine;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::tool::{InputResponses, RequestState};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::CallToolResponse;
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, tool, tool_router};
use schemars::JsonSchema;
use serde::Deserialize;
use smolweb_client::Client;
use smolweb_client::smallnet::{TITAN_DEFAULT_MIME, Upload};
use smolweb_core::code::ErrorCode;
use smolweb_core::text::sanitize_line;
use smolweb_core::url::{Scheme, Url};

const DESCRIPTION: &str = "\
Upload to a capsule with Titan: `url` is the titan:// address (no ;size/;mime parameters: \
they are added), the content is `text` (UTF-8) or `base64` (bytes), `mime` defaults to \
text/gemini, `token` only when the capsule asks for one. An empty content deletes the \
resource. Every upload is shown to the user first (URL, size, type, first lines) and sent \
only if they approve, unless the user has allowed you to upload under that capsule scope \
(`smolweb titan allow`); a decline is USER_DECLINED: do not retry unless they ask. The \
capsule's answer comes back as gemini_fetch's kinds (a page, a redirect to the new \
resource, or an error).";

#[derive(Clone, Debug, Deserialize, JsonSchema)]
pub(crate) struct TitanUploadParams {
    /// The titan:// URL to upload to (the capsule's page address with titan:// as scheme).
    pub url: String,
    /// The content as text (UTF-8). Give `text` or `base64`, not both.
    #[serde(default)]
    pub text: Option<String>,
    /// The content as base64 bytes. Give `text` or `base64`, not both.
    #[serde(default)]
    pub base64: Option<String>,
    /// The MIME type sent (default text/gemini).
    #[serde(default)]
    pub mime: Option<String>,
    /// The capsule's upload token, if it asks for one. Sent, never echoed or kept.
    #[serde(default)]
    pub token: Option<String>,
}

/// Lines of a text shown in the question, and their width.
const PREVIEW_LINES: usize = 6;
const PREVIEW_WIDTH: usize = 100;

/// What the person is asked: who, where, how much, what type, the first lines.
fn question(agent: &str, url: &Url, body: &[u8], mime: &str, token: bool) -> String {
    let target = sanitize_line(&url.without_query()).into_owned();
    let mut q = if body.is_empty() {
        format!("{agent} asks to DELETE {target} with a Titan upload of 0 bytes. Allow it?")
    } else {
        format!(
            "{agent} asks to upload {} bytes of {} to {target}. Allow it?",
            body.len(),
            sanitize_line(mime)
        )
    };
    if token {
        q.push_str(" (It sends an upload token the agent gave.)");
    }
    let text = mime
        .starts_with("text/")
        .then(|| std::str::from_utf8(body).ok())
        .flatten();
    match text {
        Some(t) if !t.is_empty() => {
            q.push_str("\nFirst lines:");
            let lines: Vec<&str> = t.lines().collect();
            for line in lines.iter().take(PREVIEW_LINES) {
                let shown: String = sanitize_line(line).chars().take(PREVIEW_WIDTH).collect();
                q.push_str("\n| ");
                q.push_str(&shown);
            }
            if lines.len() > PREVIEW_LINES {
                q.push_str(&format!("\n({} more lines)", lines.len() - PREVIEW_LINES));
            }
        }
        _ if !body.is_empty() => q.push_str("\n(Not text: no preview.)"),
        _ => {}
    }
    q
}

#[tool_router(router = titan_router)]
impl SmolwebServer {
    #[tool(
        name = "titan_upload",
        description = DESCRIPTION,
        input_schema = schema::input::<TitanUploadParams>(),
        output_schema = schema::output::<GeminiResult>(),
        annotations(
            title = "Upload to a capsule (Titan), with the user's consent",
            read_only_hint = false,
            destructive_hint = true,
            idempotent_hint = false,
            open_world_hint = true
        )
    )]
    async fn titan_upload(
        &self,
        Parameters(p): Parameters<TitanUploadParams>,
        ctx: RequestContext<RoleServer>,
        RequestState(state): RequestState,
        InputResponses(responses): InputResponses,
    ) -> Result<CallToolResponse, ErrorData> {
        let retry = crate::ask::Retry { state, responses };
        let r = self.upload(&p, &ctx, &retry).await;
        Ok(match r {
            Ok(r) => tool_result(&r, vec![crate::render::fetch(&r, 0)], r.is_error()).into(),
            Err(input) => input.into(),
        })
    }
}

/// The titan:// URL and the body to send, within `cap` bytes; or why not.
fn checked(p: &TitanUploadParams, cap: u64) -> Result<(Url, Vec<u8>), String> {
    let url = match Url::parse(p.url.trim()) {
        Ok(u) if u.scheme() == Scheme::Titan => u,
        Ok(u) => return Err(format!("a titan:// URL is needed, not {}", u.without_query())),
        Err(e) => return Err(e.to_string()),
    };
    let body = match (&p.text, &p.base64) {
        (Some(t), None) => t.as_bytes().to_vec(),
        (None, Some(b)) => base64::engine::general_purpose::STANDARD
            .decode(b.trim())
            .map_err(|e| format!("base64 does not decode: {e}"))?,
        (Some(_), Some(_)) => return Err("give `text` or `base64`, not both".into()),
        (None, None) => return Err("give the content as `text` or `base64` (empty deletes)".into()),
    };
    if body.len() as u64 > cap {
        return Err(format!(
            "the upload is {} bytes; an agent's upload is at most {cap} \
             (network.max_response_bytes)",
            body.len()
        ));
    }
    Ok((url, body))
}

impl SmolwebServer {
    async fn upload(
        &self,
        p: &TitanUploadParams,
        ctx: &RequestContext<RoleServer>,
        retry: &crate::ask::Retry,
    ) -> Result<FetchResult, rmcp::model::InputRequiredResult> {
        let client = self.client();
        let cap = client.config().network.max_response_bytes;
        let (url, body) = match checked(p, cap) {
            Ok(checked) => checked,
            Err(m) => return Ok(refused(&p.url, ErrorCode::InvalidRequest, m)),
        };
        let mime = p
            .mime
            .clone()
            .unwrap_or_else(|| TITAN_DEFAULT_MIME.to_string());
        let c = self.consent_ctx(ctx, retry);
        let q = question(&c.client_name(), &url, &body, &mime, p.token.is_some());
        let size = body.len().to_string();
        let content = p.text.as_deref().or(p.base64.as_deref()).unwrap_or("");
        let d = digest(&["titan_upload", &p.url, &size, &mime, content]);
        let what = format!(
            "upload {} bytes of {mime} to {}",
            body.len(),
            url.without_query()
        );
        let standing = client
            .upload_permit(&c.client_name(), &p.url)
            .ok()
            .flatten();
        let answer = match standing {
            Some(a) => {
                // The person allowed this agent under this scope: no question, but the
                // activity log still says the upload was made on that standing permission.
                let why = format!("{what} (allowed for {} under {})", a.agent, a.scope);
                c.log.consent(
                    "titan_upload",
                    smolweb_store::activity::ConsentStep::Approved,
                    &why,
                );
                Confirmed::Yes
            }
            None => confirm(&c, &d, q, &what).await,
        };
        match answer {
            Confirmed::Yes => {}
            Confirmed::NeedInput(r) => return Err(r),
            Confirmed::No(mut e) => {
                e.request_info.url = Some(url.without_query());
                return Ok(error_result(Family::Gemini, e));
            }
        }
        let upload = Upload {
            url: url.to_string(),
            body,
            mime: Some(mime),
            token: p.token.clone(),
        };
        let outcome = client.titan_upload(&upload).await;
        let limits = crate::fetch::limits(client);
        Ok(map_outcome(
            Family::Gemini,
            &outcome,
            0,
            limits,
            client.now(),
        ))
    }
}

/// The upload tool.
pub(crate) fn router(_client: &Client) -> ToolRouter<SmolwebServer> {
    SmolwebServer::titan_router()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_question_says_size_type_and_first_lines() {
        let url = Url::parse("titan://example.org/log/new.gmi?x=secret").unwrap();
        let body = b"# Title\nline two\n\x1b[31mred\n4\n5\n6\n7\n8\n";
        let q = question("agent", &url, body, "text/gemini", true);
        let want = format!(
            "upload {} bytes of text/gemini to titan://example.org/log/new.gmi",
            body.len()
        );
        assert!(q.contains(&want), "{q}");
        assert!(!q.contains("secret"), "{q}");
        assert!(
            q.contains("| # Title") && q.contains("(2 more lines)"),
            "{q}"
        );
        assert!(!q.contains('\u{1b}'), "sanitized: {q}");
        assert!(q.contains("upload token"));
        let del = question("agent", &url, b"", "text/gemini", false);
        assert!(del.contains("DELETE"), "{del}");
        let bin = question("agent", &url, &[0, 1, 2], "image/png", false);
        assert!(bin.contains("no preview"), "{bin}");
    }
}
