//! The agent's face: `smolweb --mcp` over stdio with rmcp. The only module that knows rmcp.
//!
//! `server` holds the tool router and handler; `params` and `results` are the contract's
//! parameter and result types (serde + schemars), `schema` makes their JSON Schemas portable;
//! `outcome` maps a client `Outcome` to a result kind (windows via `core::window`); `render` is
//! the compact text block; `fetch` validates and runs single and batch fetches; `manage` holds
//! the identity and trust tools, `gate` their one consent flow (`ask` elicits on both protocol generations,
//! `seal` protects the 2026-07-28 round-trip state); `text` is what the agent reads.
//! `stdio` is the front end that owns stdin/stdout (bounded lines, JSON-RPC errors for bad
//! messages, `args` checks tool arguments against their schemas) and feeds rmcp.
//! Under `--mcp` stdout carries JSON-RPC only; logs go to stderr (tracing).

mod args;
mod ask;
mod feeds;
mod fetch;
mod gate;
mod manage;
pub mod outcome;
mod params;
mod params_feeds;
pub mod render;
pub mod results;
mod schema;
mod seal;
pub mod server;
mod stdio;
mod text;
mod web;
pub mod web_out;

pub use server::SmolwebServer;
#[doc(hidden)]
pub use stdio::fuzzing;
pub use stdio::{ServeError, run as run_stdio, serve};
