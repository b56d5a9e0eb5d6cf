//! The network layer's integration tests, one binary: Gemini and Gopher fetchers, TOFU and client
//! identities against in-process servers on 127.0.0.1.

// clippy.toml's allow-*-in-tests covers #[test] functions and #[cfg(test)] modules only; the
// helpers of an integration-test binary (servers, fixtures, waits) may unwrap and panic too.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
// Tests say SKIP or show figures on the terminal they run in.
#![allow(clippy::print_stdout, clippy::print_stderr)]

mod net_gemini;
mod net_gopher;
mod net_guppy;
mod net_identity;
mod net_tofu;
