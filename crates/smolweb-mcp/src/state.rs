//! The server's state, which every tool reads through `self`: the client of the agent face,
//! the sealer of 2026-07-28 round-trip state, this session's activity log and the tool router
//! the families summed (`tools`). The type is here, apart from the handler (`server`), so that
//! the tool families depend on it without depending on the module that sums them.

use crate::ask::Retry;
use crate::gate::ConsentCtx;
use crate::seal::Sealer;
use crate::session::SessionLog;
use rmcp::RoleServer;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::service::RequestContext;
use smolweb_client::Client;
use std::sync::Arc;

/// The MCP server (one per stdio process, cloned per HTTP session).
#[derive(Clone)]
pub(crate) struct SmolwebServer {
    client: Arc<Client>,
    sealer: Arc<Sealer>,
    tool_router: ToolRouter<SmolwebServer>,
    session: Arc<SessionLog>,
}

impl SmolwebServer {
    /// A server over `client` publishing `tool_router`, with a new session log and sealer.
    pub(crate) fn from_parts(
        client: Arc<Client>,
        tool_router: ToolRouter<SmolwebServer>,
    ) -> SmolwebServer {
        SmolwebServer {
            session: Arc::new(SessionLog::new(Arc::clone(&client))),
            sealer: Arc::new(Sealer::new()),
            client,
            tool_router,
        }
    }

    /// The client of the agent face.
    pub(crate) fn client(&self) -> &Client {
        &self.client
    }

    /// The client, shared (for work that outlives the call: batches, watchers).
    pub(crate) fn shared_client(&self) -> &Arc<Client> {
        &self.client
    }

    /// The router of every published tool.
    pub(crate) fn router(&self) -> &ToolRouter<SmolwebServer> {
        &self.tool_router
    }

    /// The tools this server publishes in `tools/list`, with their input schemas.
    pub(crate) fn published_tools(&self) -> Vec<rmcp::model::Tool> {
        self.tool_router.list_all()
    }

    /// The sealer of 2026-07-28 round-trip state.
    pub(crate) fn sealer(&self) -> &Sealer {
        &self.sealer
    }

    /// This session's activity log writer.
    pub(crate) fn session_log(&self) -> &Arc<SessionLog> {
        &self.session
    }

    /// What a consent-needing tool call works with: the client, the state sealer, the request
    /// (for elicitation), any answers the client sent back on a retry, and the session's log.
    pub(crate) fn consent_ctx<'a>(
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
