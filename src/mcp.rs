//! The agent's face: `smolweb --mcp` over stdio with rmcp. The only module that knows rmcp.

use crate::client::Client;
use std::sync::Arc;

/// Serve MCP over stdin/stdout until the client disconnects. Logs go to stderr or a file,
/// never stdout.
pub async fn run_stdio(client: Arc<Client>) -> Result<(), String> {
    let _ = client;
    Err("the MCP server is not implemented yet".into())
}
