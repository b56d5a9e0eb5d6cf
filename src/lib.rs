//! smolweb: one core shared by a terminal browser and an MCP server for Geminispace and
//! Gopherspace. See ARCHITECTURE.md for the layering: `core` is pure; `store`, `net`, `policy`,
//! `cache` do the IO; `client` is the single facade that both `tui` and `mcp` call.

pub mod cache;
pub mod client;
pub mod config;
pub mod core;
pub mod mcp;
pub mod net;
pub mod paths;
pub mod policy;
pub mod store;
pub mod tui;
