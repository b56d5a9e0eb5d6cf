//! The client facade's integration tests, one binary: `Client::open` over Gemini, Gopher and the
//! web against loopback servers, about: pages, approvals, feeds, offline copies, limits, config.

// clippy.toml's allow-*-in-tests covers #[test] functions and #[cfg(test)] modules only; the
// helpers of an integration-test binary (servers, fixtures, waits) may unwrap and panic too.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
// Tests say SKIP or show figures on the terminal they run in.
#![allow(clippy::print_stdout, clippy::print_stderr)]

mod client_about;
mod client_approvals;
mod client_feeds;
mod client_gemini;
mod client_gopher;
mod client_guppy;
mod client_limits;
mod client_offline;
mod client_offline_web;
mod client_smallnet;
mod config;
mod web_fetch;
