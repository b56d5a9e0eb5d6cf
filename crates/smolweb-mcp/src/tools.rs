//! The agent's tools, one file per family. Each family's file holds everything of its tools:
//! the descriptions the agent reads, the parameter types (their JSON Schemas are the published
//! input schemas), the `kind`-tagged result enum (its schema, a `oneOf` by `kind`, is the output
//! schema), the text block, the work, and its router (`#[tool_router]` on `SmolwebServer`, with
//! a `router(client)` that leaves out what the config switches off).
//!
//! What families share is below them, never in a sibling: the server's state (`state`), the
//! answer of a call (`reply`), the page kinds of Gemini and Gopher with `request_info` and the
//! error bodies (`results`, shared by four families and the outcome mapping), the fetch work
//! (`fetch`, `outcome`), the page text block (`render`) and the consent flow (`gate`). The one
//! exception is `trust`, which takes the host filter and fingerprint form of `certs`.
//!
//! A new tool: a `#[tool]` in its family's file (or a new file here, and its name in the list
//! below), a test through the binary, and the `tools/list` snapshot updated on purpose
//! (`tests/snapshots/mcp_tools_list.snap`).

use crate::state::SmolwebServer;
use rmcp::handler::server::router::tool::ToolRouter;
use smolweb_client::Client;

/// Declares the families and sums their routers into the server's one router.
macro_rules! families {
    ($($family:ident),+ $(,)?) => {
        $(pub(crate) mod $family;)+

        /// Every family's tools, as the server publishes them (`tools/list` sorts them by name).
        pub(crate) fn router(client: &Client) -> ToolRouter<SmolwebServer> {
            let mut all = ToolRouter::new();
            $(all += $family::router(client);)+
            all
        }
    };
}

families![
    agents, certs, feeds, gemini, gopher, smallnet, titan, trust, web
];
