//! The core's integration tests, one binary: PDF extraction on generated files, the extraction
//! bench's scorer and data, and the purity rule Cargo cannot check (no clock, file or socket
//! from std).

// clippy.toml's allow-*-in-tests covers #[test] functions and #[cfg(test)] modules only; the
// helpers of an integration-test binary (servers, fixtures, waits) may unwrap and panic too.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
// Tests say SKIP or show figures on the terminal they run in.
#![allow(clippy::print_stdout, clippy::print_stderr)]

mod extract_metric;
mod purity;
mod web_pdf;
