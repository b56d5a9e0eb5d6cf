//! The browser's integration tests, one binary: the app driven by key sequences, render snapshots
//! on a TestBackend, transfers and the reader against loopback servers.

mod tui_app;
mod tui_feeds;
mod tui_helpers;
mod tui_reader;
mod tui_remote;
mod tui_render;
mod tui_transfer;
mod tui_walk;
