//! The MCP handler: the server is the tool families' routers summed (`tools::router`), and
//! every request goes where it is answered: `tools/call` through `call` (argument check,
//! cancellation, the activity log) to the tool's family, `prompts/*` to `prompts`,
//! `resources/*` to `resources` (and `subscriptions/listen` too: the shared pages' changes),
//! `initialize` with the `instructions`.
//!
//! On 2026-07-28 the cacheable results carry caching hints: what is fixed while the server runs
//! (`tools/list`, `prompts/list`, `server/discover`) for `resources::FIXED_TTL_MS` to anyone; the
//! resource list stale at once, and a resource read for as long as its page stays in the
//! cache (the policy: as long as the rest), to this client only.
//!
//! Every tool answers with `structuredContent` (its result kind) plus compact text blocks (one
//! per URL for batches); remote and input problems are `kind: error` results with
//! `isError: true`, never JSON-RPC errors. The router is built once and kept in the server.

use crate::instructions::INSTRUCTIONS;
use crate::resources;
pub(crate) use crate::state::SmolwebServer;
use crate::tools;
use rmcp::model::*;
use rmcp::service::{NotificationContext, RequestContext, SubscriptionContext};
use rmcp::{ErrorData, RoleServer, ServerHandler, tool_handler};
use smolweb_client::Client;
use std::sync::Arc;

/// Does this request's revision carry caching hints (`ttlMs`, `cacheScope`: 2026-07-28 on)?
/// Earlier revisions have no such fields, and their answers stay as they were.
fn hints_for(ctx: &RequestContext<RoleServer>) -> bool {
    ctx.protocol_version()
        .is_some_and(|v| v.as_str() >= ProtocolVersion::V_2026_07_28.as_str())
}

impl SmolwebServer {
    /// A server over `client` with every family's tools.
    pub(crate) fn new(client: Arc<Client>) -> SmolwebServer {
        let router = tools::router(&client);
        SmolwebServer::from_parts(client, router)
    }
}

#[tool_handler(router = self.router())]
impl ServerHandler for SmolwebServer {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        crate::call::call_tool(self, self.router(), request, context).await
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
        .with_instructions(INSTRUCTIONS)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        ctx: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let list = ListToolsResult::with_all_items(self.router().list_all());
        Ok(if hints_for(&ctx) {
            list.with_ttl_ms(resources::FIXED_TTL_MS)
                .with_cache_scope(CacheScope::Public)
        } else {
            list
        })
    }

    async fn discover(
        &self,
        _ctx: RequestContext<RoleServer>,
    ) -> Result<DiscoverResult, ErrorData> {
        Ok(DiscoverResult::from_server_info(
            self.supported_protocol_versions().into_owned(),
            self.get_info(),
        )
        .with_ttl_ms(resources::FIXED_TTL_MS)
        .with_cache_scope(CacheScope::Public))
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        ctx: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        let list = crate::prompts::list();
        Ok(if hints_for(&ctx) {
            list.with_ttl_ms(resources::FIXED_TTL_MS)
                .with_cache_scope(CacheScope::Public)
        } else {
            list
        })
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _ctx: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        crate::prompts::get(&request).map(Into::into)
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        let info = context.peer.peer_info().map(|p| p.client_info.clone());
        self.session_log().start(info);
        if self.session_log().claim_watch() {
            resources::watch_shared(Arc::clone(self.shared_client()), context.peer.clone());
        }
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        ctx: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let list = ListResourcesResult::with_all_items(resources::list(self.client()));
        // The person may share a page at any moment, from another process: stale at once
        // (a listening client hears of changes), and theirs alone.
        Ok(if hints_for(&ctx) {
            list.with_ttl_ms(0).with_cache_scope(CacheScope::Private)
        } else {
            list
        })
    }

    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        Some(requested.intersection(&resources::listen_filter()))
    }

    async fn listen(&self, subscription: SubscriptionContext) -> Result<(), ErrorData> {
        resources::listen(self.client(), &subscription).await;
        Ok(())
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        ctx: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let started = std::time::Instant::now();
        let log = self.session_log();
        log.start(ctx.client_info());
        let read = resources::read(self.client(), &request.uri).await;
        let answer = match (&read.answer, &read.result) {
            (Err(e), _) => Err(e),
            (Ok(_), Some((value, is_error))) => Ok((value, *is_error)),
            (Ok(_), None) => Ok((&serde_json::Value::Null, false)),
        };
        log.read(&read.what, answer, started.elapsed());
        let hints = hints_for(&ctx);
        read.answer.map(|c| {
            let result = ReadResourceResult::new(vec![c]);
            // What the person shared, and the policy they set: theirs alone.
            let result = if hints {
                result
                    .with_ttl_ms(read.fresh_for_ms)
                    .with_cache_scope(CacheScope::Private)
            } else {
                result
            };
            result.into()
        })
    }
}
