//! The rmcp server: the Gemini/Gopher tools, `fetch_url` (in `web`) and the feed tools (in
//! `feeds`), one resource (`smolweb://policy`), instructions.
//!
//! Every tool answers with `structuredContent` (its result kind) plus compact text blocks (one
//! per URL for batches); remote and input problems are `kind: error` results with
//! `isError: true`, never JSON-RPC errors. The router is built once and kept in the server.

use super::ask::{Ask, Retry, ask};
use super::fetch;
use super::manage::{self, ConsentCtx, Reply};
use super::outcome::Family;
use super::params::*;
use super::render;
use super::results::*;
use super::schema;
use super::seal::{Sealer, digest};
use super::text;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::tool::{InputResponses, RequestState};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::*;
use rmcp::service::{NotificationContext, RequestContext};
use rmcp::{ErrorData, RoleServer, ServerHandler, tool, tool_handler, tool_router};
use serde::Serialize;
use serde_json::{Value, json};
use smolweb_client::Client;
use smolweb_core::code::ErrorCode;
use std::sync::Arc;

pub(crate) const POLICY_URI: &str = "smolweb://policy";

#[derive(Clone)]
pub(crate) struct SmolwebServer {
    client: Arc<Client>,
    sealer: Arc<Sealer>,
    tool_router: ToolRouter<SmolwebServer>,
    session: Arc<super::agents::SessionLog>,
}

impl SmolwebServer {
    /// The tools this server publishes in `tools/list`, with their input schemas.
    pub(crate) fn published_tools(&self) -> Vec<rmcp::model::Tool> {
        self.tool_router.list_all()
    }
}

/// `structuredContent` + the given text blocks.
pub(super) fn tool_result<T: Serialize>(
    value: &T,
    texts: Vec<String>,
    is_error: bool,
) -> CallToolResult {
    let value = serde_json::to_value(value).unwrap_or_else(|e| {
        json!({"kind": "error", "request_info": {}, "error": {
            "code": ErrorCode::InternalError, "message": e.to_string(), "retryable": false}})
    });
    let mut r = if is_error {
        CallToolResult::structured_error(value)
    } else {
        CallToolResult::structured(value)
    };
    r.content = texts.into_iter().map(ContentBlock::text).collect();
    r
}

/// A store-tool result (identity and trust tools): its text block and error flag.
trait StoreAnswer: Serialize + Sized {
    fn text(&self) -> String;
    fn is_error(&self) -> bool;
    fn reply(&self) -> CallToolResult {
        tool_result(self, vec![self.text()], self.is_error())
    }
}

macro_rules! store_answer {
    ($ty:ident, $ok:ident, $render:path) => {
        impl StoreAnswer for $ty {
            fn text(&self) -> String {
                match self {
                    $ty::$ok(x) => $render(x),
                    $ty::Error(e) => render::store_error(e),
                }
            }
            fn is_error(&self) -> bool {
                matches!(self, $ty::Error(_))
            }
        }
    };
}

store_answer!(CertListResult, ClientCertList, render::cert_list);
store_answer!(CertUpdateResult, ClientCertUpdate, render::cert_update);
store_answer!(TrustListResult, TrustList, render::trust_list);
store_answer!(TrustUpdateResult, TrustUpdate, render::trust_update);

impl SmolwebServer {
    /// What a consent-needing tool call works with: the client, the state sealer, the request
    /// (for elicitation) and any answers the client sent back on a retry.
    pub(super) fn consent_ctx<'a>(
        &'a self,
        ctx: &'a RequestContext<RoleServer>,
        retry: &'a Retry,
    ) -> ConsentCtx<'a> {
        self.consent(ctx, retry)
    }

    fn consent<'a>(
        &'a self,
        ctx: &'a RequestContext<RoleServer>,
        retry: &'a Retry,
    ) -> ConsentCtx<'a> {
        ConsentCtx {
            client: &self.client,
            sealer: &self.sealer,
            ctx,
            retry,
            log: &self.session,
        }
    }
}

fn fetch_reply(r: &FetchResult, offset: i64) -> CallToolResponse {
    let text = render::fetch(r, offset.max(0) as u64);
    tool_result(r, vec![text], r.is_error()).into()
}

fn mark_input_from_user(r: &mut FetchResult) {
    if let FetchResult::Gemini(g) = r {
        match g {
            GeminiResult::Gemtext(x) => x.input_from_user = Some(true),
            GeminiResult::Success(x) => x.input_from_user = Some(true),
            _ => {}
        }
    }
}

fn refused(family: Family, url: &str, code: ErrorCode, message: &str) -> FetchResult {
    let info = RequestInfoOut {
        url: Some(super::outcome::without_query(url)),
        ..RequestInfoOut::default()
    };
    super::outcome::error_result(family, error_out(info, code, message))
}

fn answer_question(url: &str, prompt: &str, sensitive: bool) -> String {
    let mut q = format!(
        "The Gemini capsule {} asks (its own words, unverified): \"{prompt}\". Your answer is \
         sent to the capsule only; the agent will not see it.",
        super::outcome::without_query(url)
    );
    if sensitive {
        q.push_str(" This is a sensitive prompt (status 11, e.g. a password).");
    }
    q
}

impl SmolwebServer {
    pub(super) fn client(&self) -> &Client {
        &self.client
    }

    pub(crate) fn new(client: Arc<Client>) -> SmolwebServer {
        SmolwebServer {
            tool_router: Self::tool_router()
                + Self::feed_tools(&client)
                + Self::smallnet_tools()
                + Self::titan_tools()
                + Self::agent_tools(&client),
            session: Arc::new(super::agents::SessionLog::new(Arc::clone(&client))),
            client,
            sealer: Arc::new(Sealer::new()),
        }
    }

    /// This session's activity log writer.
    pub(crate) fn session_log(&self) -> &Arc<super::agents::SessionLog> {
        &self.session
    }

    /// The effective settings an agent may see (no file paths).
    pub(crate) fn policy(&self) -> Value {
        let c = self.client.config();
        json!({
            "network": {
                "timeout_seconds": c.network.timeout_seconds,
                "max_response_bytes": c.network.max_response_bytes,
                "allow_private_addresses": c.network.allow_private_addresses,
                "allowed_hosts": c.network.allowed_hosts,
                "allow_client_cert_over_tls12": c.network.allow_client_cert_over_tls12,
                "max_in_flight": c.network.max_in_flight,
                "max_in_flight_per_host": c.network.max_in_flight_per_host,
            },
            "politeness": {
                "per_host_interval_ms": c.politeness.per_host_interval_ms,
                "respect_robots": c.politeness.respect_robots,
            },
            "cache": {
                "ttl_seconds": c.cache.ttl_seconds,
                "max_entries": c.cache.max_entries,
                "max_bytes": c.cache.max_bytes,
            },
            "mcp": {
                "max_rendered_chars": c.mcp.max_rendered_chars,
                "max_menu_items": c.mcp.max_menu_items,
                "batch_concurrency": c.mcp.batch_concurrency,
                "max_batch_urls": fetch::MAX_BATCH,
                "max_message_bytes": c.mcp.max_message_bytes,
            },
            "tofu": {
                "accept_new_when_expired": c.tofu.accept_new_when_expired,
                "refuse_not_yet_valid": c.tofu.refuse_not_yet_valid,
                "refuse_expired": c.tofu.refuse_expired,
            },
            "consent": "identity and trust changes need the user's approval \
                        (elicitation, or `smolweb identity|trust approve ID`)",
        })
    }

    async fn batch(
        &self,
        family: Family,
        p: &BatchParams,
        ctx: &RequestContext<RoleServer>,
    ) -> CallToolResult {
        let total = p.urls.len();
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<fetch::BatchEvent>();
        let drain = ctx.meta.get_progress_token().map(|token| {
            let peer = ctx.peer.clone();
            tokio::spawn(async move {
                let mut progress = fetch::Progress::default();
                while let Some(event) = rx.recv().await {
                    let Some(value) = progress.next(&event) else {
                        continue;
                    };
                    let mut param = ProgressNotificationParam::new(token.clone(), value)
                        .with_total(total as f64);
                    if let fetch::BatchEvent::Waiting(m) = event {
                        param = param.with_message(m);
                    }
                    if peer.notify_progress(param).await.is_err() {
                        break;
                    }
                }
            })
        });
        // Every sender is gone once the batch returns, so the drain ends after the last event.
        let results = fetch::batch(&self.client, family, &p.urls, p.refresh, tx).await;
        if let Some(d) = drain {
            let _ = d.await;
        }
        let texts = if results.is_empty() {
            vec!["no URLs were given".to_string()]
        } else {
            results.iter().map(|r| render::fetch(r, 0)).collect()
        };
        let all_failed = results.iter().all(FetchResult::is_error);
        tool_result(&json!({ "result": results }), texts, all_failed)
    }

    /// Re-fetch with the user's answer after an input prompt.
    async fn with_answer(&self, p: &GeminiFetchParams, answer: &Answer) -> FetchResult {
        let answer = Some(answer.answer.as_str());
        let mut r = fetch::gemini(&self.client, &p.url, answer, (p.offset, p.refresh), None).await;
        mark_input_from_user(&mut r);
        r
    }
}

#[tool_router]
impl SmolwebServer {
    #[tool(
        name = "gemini_fetch",
        meta = text::fetch_meta(),
        description = text::GEMINI_FETCH,
        input_schema = schema::input::<GeminiFetchParams>(),
        output_schema = schema::output::<GeminiResult>(),
        annotations(title = "Fetch a Gemini page", read_only_hint = true, open_world_hint = true)
    )]
    async fn gemini_fetch(
        &self,
        Parameters(p): Parameters<GeminiFetchParams>,
        ctx: RequestContext<RoleServer>,
        RequestState(state): RequestState,
        InputResponses(responses): InputResponses,
    ) -> Result<CallToolResponse, ErrorData> {
        let retry = Retry { state, responses };
        let d = digest(&["gemini_fetch", &p.url, &p.offset.to_string()]);
        let (prompt, sensitive) = if p.ask_user && retry.state.is_some() {
            (String::new(), false)
        } else {
            let input = p.input.as_deref();
            let r = fetch::gemini(&self.client, &p.url, input, (p.offset, p.refresh), None).await;
            match &r {
                FetchResult::Gemini(GeminiResult::Input(i)) if p.ask_user && p.input.is_none() => {
                    (i.prompt.clone(), i.sensitive)
                }
                _ => return Ok(fetch_reply(&r, p.offset)),
            }
        };
        let question = answer_question(&p.url, &prompt, sensitive);
        let how = (&*self.sealer, self.client.config().mcp.consent_timeout());
        let asked = ask::<Answer>(&ctx, &retry, how, "answer", &d, question).await;
        let r = match asked {
            Ask::Answer(a) => self.with_answer(&p, &a).await,
            Ask::NeedInput(r) => return Ok(r.into()),
            Ask::Declined => refused(
                Family::Gemini,
                &p.url,
                ErrorCode::UserDeclined,
                "the user declined to answer",
            ),
            Ask::Invalid(m) => refused(Family::Gemini, &p.url, ErrorCode::InvalidRequest, &m),
            Ask::Unsupported | Ask::TimedOut => {
                // No way to reach the user: give the agent the prompt itself.
                fetch::gemini(&self.client, &p.url, None, (p.offset, p.refresh), None).await
            }
        };
        Ok(fetch_reply(&r, p.offset))
    }

    #[tool(
        name = "gemini_batch_fetch",
        meta = text::fetch_meta(),
        description = text::GEMINI_BATCH,
        input_schema = schema::input::<BatchParams>(),
        output_schema = schema::batch_output::<GeminiResult>(),
        annotations(title = "Fetch many Gemini pages", read_only_hint = true, open_world_hint = true)
    )]
    async fn gemini_batch_fetch(
        &self,
        Parameters(p): Parameters<BatchParams>,
        ctx: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        Ok(self.batch(Family::Gemini, &p, &ctx).await)
    }

    #[tool(
        name = "gopher_fetch",
        meta = text::fetch_meta(),
        description = text::GOPHER_FETCH,
        input_schema = schema::input::<GopherFetchParams>(),
        output_schema = schema::output::<GopherResult>(),
        annotations(title = "Fetch a Gopher item", read_only_hint = true, open_world_hint = true)
    )]
    async fn gopher_fetch(
        &self,
        Parameters(p): Parameters<GopherFetchParams>,
    ) -> Result<CallToolResponse, ErrorData> {
        let search = p.search.as_deref();
        let r = fetch::gopher(&self.client, &p.url, search, (p.offset, p.refresh), None).await;
        Ok(fetch_reply(&r, p.offset))
    }

    #[tool(
        name = "gopher_batch_fetch",
        meta = text::fetch_meta(),
        description = text::GOPHER_BATCH,
        input_schema = schema::input::<BatchParams>(),
        output_schema = schema::batch_output::<GopherResult>(),
        annotations(title = "Fetch many Gopher items", read_only_hint = true, open_world_hint = true)
    )]
    async fn gopher_batch_fetch(
        &self,
        Parameters(p): Parameters<BatchParams>,
        ctx: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        Ok(self.batch(Family::Gopher, &p, &ctx).await)
    }

    #[tool(
        name = "fetch_url",
        description = super::web::DESCRIPTION,
        input_schema = schema::input::<super::web_out::FetchUrlParams>(),
        output_schema = schema::output::<super::web_out::FetchUrlOut>(),
        meta = text::fetch_meta(),
        annotations(
            title = "Read a web page",
            read_only_hint = true,
            idempotent_hint = true,
            open_world_hint = true
        )
    )]
    async fn fetch_url(
        &self,
        Parameters(p): Parameters<super::web_out::FetchUrlParams>,
    ) -> Result<CallToolResult, ErrorData> {
        let out = super::web::fetch_url(&self.client, &p).await;
        let text = super::web::render(&out);
        Ok(tool_result(&out, vec![text], out.is_error()))
    }

    #[tool(
        name = "gemini_client_cert_list",
        description = text::CERT_LIST,
        input_schema = schema::input::<HostFilter>(),
        output_schema = schema::output::<CertListResult>(),
        annotations(title = "List client identities", read_only_hint = true, open_world_hint = false)
    )]
    async fn gemini_client_cert_list(
        &self,
        Parameters(p): Parameters<HostFilter>,
    ) -> Result<CallToolResult, ErrorData> {
        Ok(manage::cert_list(&self.client, p.host.as_deref()).reply())
    }

    #[tool(
        name = "gemini_client_cert_update",
        description = text::CERT_UPDATE,
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
        let c = self.consent(&ctx, &retry);
        Ok(match manage::cert_update(&c, &p).await {
            Reply::NeedInput(r) => r.into(),
            Reply::Done(done) => done.reply().into(),
        })
    }

    #[tool(
        name = "gemini_trust_list",
        description = text::TRUST_LIST,
        input_schema = schema::input::<HostFilter>(),
        output_schema = schema::output::<TrustListResult>(),
        annotations(title = "List pinned server certificates", read_only_hint = true, open_world_hint = false)
    )]
    async fn gemini_trust_list(
        &self,
        Parameters(p): Parameters<HostFilter>,
    ) -> Result<CallToolResult, ErrorData> {
        Ok(manage::trust_list(&self.client, p.host.as_deref()).reply())
    }

    #[tool(
        name = "gemini_trust_update",
        description = text::TRUST_UPDATE,
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
        let c = self.consent(&ctx, &retry);
        Ok(match manage::trust_update(&c, &p).await {
            Reply::NeedInput(r) => r.into(),
            Reply::Done(done) => done.reply().into(),
        })
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for SmolwebServer {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        super::call::call_tool(self, &self.tool_router, request, context).await
    }

    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_resources()
                .enable_prompts()
                .enable_resources_list_changed()
                .build(),
        )
        .with_server_info(Implementation::new("smolweb", env!("CARGO_PKG_VERSION")))
        .with_instructions(text::INSTRUCTIONS)
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _ctx: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        Ok(super::prompts::list())
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _ctx: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        super::prompts::get(&request).map(Into::into)
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        let info = context.peer.peer_info().map(|p| p.client_info.clone());
        self.session.start(info);
        if self.session.claim_watch() {
            super::agents::watch_shared(Arc::clone(&self.client), context.peer.clone());
        }
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _ctx: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let resource = Resource::new(POLICY_URI, "policy")
            .with_title("smolweb policy")
            .with_description("The effective limits and settings of this smolweb server")
            .with_mime_type("application/json");
        let mut all = vec![resource];
        all.extend(super::agents::shared_resources(&self.client));
        Ok(ListResourcesResult::with_all_items(all))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _ctx: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        if let Some(r) = super::agents::read_shared(&self.client, &request.uri).await {
            return r.map(|c| ReadResourceResult::new(vec![c]).into());
        }
        if request.uri != POLICY_URI {
            return Err(ErrorData::resource_not_found(
                format!("no resource {}", request.uri),
                None,
            ));
        }
        let text = serde_json::to_string_pretty(&self.policy())
            .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
        let contents = ResourceContents::text(text, POLICY_URI).with_mime_type("application/json");
        Ok(ReadResourceResult::new(vec![contents]).into())
    }
}
