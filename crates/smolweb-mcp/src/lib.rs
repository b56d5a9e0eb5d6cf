//! The agent's face: `smolweb --mcp` over stdio with rmcp. The only module that knows rmcp.
//!
//! `server` holds the tool router and handler; `params` and `results` are the contract's
//! parameter and result types (serde + schemars), `schema` makes their JSON Schemas portable;
//! `outcome` maps a client `Outcome` to a result kind (windows via `core::window`); `render` is
//! the compact text block; `fetch` validates and runs single and batch fetches; `manage` holds
//! the identity and trust tools, `gate` their one consent flow (`ask` elicits on both protocol generations,
//! `seal` protects the 2026-07-28 round-trip state); `text` is what the agent reads.
//! `stdio` is the front end that owns stdin/stdout (bounded lines, JSON-RPC errors for bad
//! messages) and feeds rmcp; `call` is what every `tools/call` passes through (`args` checks
//! its arguments against the tool's schema, answered per protocol generation; a cancelled call
//! is dropped).
//! `http` is the Streamable HTTP front end (`--mcp --http`: bearer token, Host and Origin
//! checks, body and session caps) over the same server; `prompts` are the prompt templates.
//! `agents` is the side-by-side part: the session's activity log, `show_to_user`, and the
//! pages the person shared (tools and resources).
//! Under `--mcp` stdout carries JSON-RPC only; logs go to stderr (tracing).

#![warn(missing_docs)]

pub(crate) mod agents;
mod args;
mod ask;
mod call;
mod feeds;
mod fetch;
mod gate;
mod http;
mod manage;
pub(crate) mod outcome;
mod params;
mod params_feeds;
mod prompts;
pub(crate) mod render;
pub(crate) mod reply;
pub(crate) mod results;
mod schema;
mod seal;
pub(crate) mod server;
mod session;
mod smallnet;
mod state;
mod stdio;
mod text;
mod titan;
mod web;
pub(crate) mod web_out;

pub use http::{HttpError, HttpServer};
pub(crate) use state::SmolwebServer;
/// The fuzz targets' door to the message front end (not an API).
#[doc(hidden)]
pub use stdio::fuzzing;
pub use stdio::run as run_stdio;
