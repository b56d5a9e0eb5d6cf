//! The `[mcp.http]` section: the MCP server over Streamable HTTP (`smolweb --mcp --http`).
//! Only read in that mode; `--http ADDR` overrides `bind`, `--http-allow-remote` sets
//! `allow_non_loopback`.

use serde::{Deserialize, Serialize};
use std::net::SocketAddr;

#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
/// `[mcp.http]`: where the HTTP server listens and what it accepts.
pub struct McpHttp {
    /// The address and port to listen on (port 0: any free port, printed at start).
    pub bind: SocketAddr,
    /// May `bind` be an address other than loopback? (Off: such a bind is refused.)
    pub allow_non_loopback: bool,
    /// Largest request body, in bytes; a larger one is answered with HTTP 413.
    pub max_body_bytes: usize,
    /// Most sessions open at once; one more `initialize` is answered with HTTP 503.
    pub max_sessions: usize,
    /// A session with no request for this long is closed, in seconds.
    pub idle_timeout_seconds: u64,
    /// Browser origins allowed besides `http://127.0.0.1:PORT`, `http://localhost:PORT` and
    /// `http://[::1]:PORT` (e.g. `"http://localhost:6274"`); a request with any other
    /// `Origin` is answered with HTTP 403.
    pub allowed_origins: Vec<String>,
    /// Host names accepted in the `Host` header besides `localhost` and IP addresses (e.g. a
    /// name of this machine when `allow_non_loopback` is on); any other is answered with 403.
    pub allowed_hosts: Vec<String>,
}

impl Default for McpHttp {
    fn default() -> Self {
        McpHttp {
            bind: SocketAddr::from(([127, 0, 0, 1], 8737)),
            allow_non_loopback: false,
            max_body_bytes: 4 * 1024 * 1024,
            max_sessions: 16,
            idle_timeout_seconds: 1800,
            allowed_origins: Vec::new(),
            allowed_hosts: Vec::new(),
        }
    }
}
