//! The browser's integration tests, one binary: the app driven by key sequences, render snapshots
//! on a TestBackend, transfers and the reader against loopback servers.

// clippy.toml's allow-*-in-tests covers #[test] functions and #[cfg(test)] modules only; the
// helpers of an integration-test binary (servers, fixtures, waits) may unwrap and panic too.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
// Tests say SKIP or show figures on the terminal they run in.
#![allow(clippy::print_stdout, clippy::print_stderr)]

mod tui_agents;
mod tui_app;
mod tui_editor;
mod tui_feeds;
mod tui_helpers;
mod tui_offline;
mod tui_pictures;
mod tui_reader;
mod tui_remote;
mod tui_render;
mod tui_transfer;
mod tui_upload;
mod tui_walk;
mod tui_walk2;
mod tui_walk3;
