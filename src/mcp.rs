//! The agent's face: `smolweb --mcp` over stdio with rmcp. The only module that knows rmcp.
//!
//! `server` holds the tool router and handler; `params` and `results` are the contract's
//! parameter and result types (serde + schemars), `schema` makes their JSON Schemas portable;
//! `outcome` maps a client `Outcome` to a result kind (windows via `core::window`); `render` is
//! the compact text block; `fetch` validates and runs single and batch fetches; `manage` holds
//! the identity and trust tools with consent (`ask` elicits on both protocol generations,
//! `seal` protects the 2026-07-28 round-trip state); `text` is what the agent reads.
//! Under `--mcp` stdout carries JSON-RPC only; logs go to stderr (tracing).

mod ask;
mod fetch;
mod manage;
pub mod outcome;
mod params;
pub mod render;
pub mod results;
mod schema;
mod seal;
pub mod server;
mod text;
mod web;
pub mod web_out;

use crate::client::Client;
use rmcp::service::ServerInitializeError;
use std::sync::Arc;

pub use server::SmolwebServer;

/// Serve MCP over stdin/stdout until the client disconnects. Logs go to stderr or a file,
/// never stdout. A client that closes stdin before the handshake is a normal exit.
pub async fn run_stdio(client: Arc<Client>) -> Result<(), String> {
    let server = SmolwebServer::new(client);
    let running = match rmcp::serve_server(server, rmcp::transport::io::stdio_pipes()).await {
        Ok(r) => r,
        Err(ServerInitializeError::ConnectionClosed(_))
        | Err(ServerInitializeError::ExpectedInitializeRequest(None))
        | Err(ServerInitializeError::Cancelled) => {
            tracing::debug!("the client left before the handshake");
            return Ok(());
        }
        Err(e) => return Err(format!("MCP handshake failed: {e}")),
    };
    match running.waiting().await {
        Ok(reason) => {
            tracing::debug!("MCP session ended: {reason:?}");
            Ok(())
        }
        Err(e) => Err(format!("MCP session failed: {e}")),
    }
}
