//! The MCP handler: the server is the tool families' routers summed (`tools::router`), and
//! every request goes where it is answered: `tools/call` through `call` (argument check,
//! cancellation, the activity log) to the tool's family, `prompts/*` to `prompts`,
//! `resources/*` to `resources`, `initialize` with the `instructions`.
//!
//! Every tool answers with `structuredContent` (its result kind) plus compact text blocks (one
//! per URL for batches); remote and input problems are `kind: error` results with
//! `isError: true`, never JSON-RPC errors. The router is built once and kept in the server.

use crate::instructions::INSTRUCTIONS;
use crate::resources;
pub(crate) use crate::state::SmolwebServer;
use crate::tools;
use rmcp::model::*;
use rmcp::service::{NotificationContext, RequestContext};
use rmcp::{ErrorData, RoleServer, ServerHandler, tool_handler};
use smolweb_client::Client;
use std::sync::Arc;

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

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _ctx: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        Ok(crate::prompts::list())
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
        _ctx: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        Ok(ListResourcesResult::with_all_items(resources::list(
            self.client(),
        )))
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
        read.answer.map(|c| ReadResourceResult::new(vec![c]).into())
    }
}
