//! The client facade's integration tests, one binary: `Client::open` over Gemini, Gopher and the
//! web against loopback servers, about: pages, approvals, feeds, offline copies, limits, config.

mod client_about;
mod client_approvals;
mod client_feeds;
mod client_gemini;
mod client_gopher;
mod client_limits;
mod client_offline;
mod config;
mod web_fetch;
