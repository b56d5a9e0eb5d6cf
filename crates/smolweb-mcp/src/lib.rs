//! The agent's face: `smolweb --mcp` over stdio with rmcp. The only crate that knows rmcp.
//!
//! `tools` holds the tools, one file per family (gemini, gopher, web, certs, trust, feeds,
//! smallnet, titan, agents), each with its descriptions, parameters, `kind`-tagged results,
//! text block and router; `server` sums the routers and answers the requests. What families
//! share sits below them: `state` (the server type every tool reads), `reply` (building a
//! tool's answer), `results` (`request_info`, the error bodies and the Gemini and Gopher page
//! kinds), `outcome` (a client `Outcome` mapped to those kinds, windows via `core::window`),
//! `fetch` (single and batch fetches), `render` (the page text block), `schema` (portable JSON
//! Schemas), `gate` (the one consent flow: `ask` elicits on both protocol generations, `seal`
//! protects the 2026-07-28 round-trip state) and `session` (the session's activity log).
//! `call` is what every `tools/call` passes through (`args` checks its arguments against the
//! tool's schema, answered per protocol generation; a cancelled call is dropped).
//! `resources` are the policy and the shared pages, `prompts` the prompt templates,
//! `instructions` what the agent reads first. `stdio` is the front end that owns stdin/stdout
//! (bounded lines, JSON-RPC errors for bad messages) and feeds rmcp; `http` is the Streamable
//! HTTP front end (`--mcp --http`: bearer token, Host and Origin checks, body and session caps)
//! over the same server. Under `--mcp` stdout carries JSON-RPC only; logs go to stderr.

#![warn(missing_docs)]

mod args;
mod ask;
mod call;
mod fetch;
mod gate;
mod http;
mod instructions;
mod outcome;
mod prompts;
mod render;
mod reply;
mod resources;
mod results;
mod schema;
mod seal;
mod server;
mod session;
mod state;
mod stdio;
mod tools;

pub use http::{HttpError, HttpServer};
pub(crate) use state::SmolwebServer;
/// The fuzz targets' door to the message front end (not an API).
#[doc(hidden)]
pub use stdio::fuzzing;
pub use stdio::run as run_stdio;
