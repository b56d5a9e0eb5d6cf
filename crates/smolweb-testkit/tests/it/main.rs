//! The testkit's own tests: the crash harness run over every store (`crash`).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stderr
)]

mod crash;
