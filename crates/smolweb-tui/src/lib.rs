//! The human's face: the terminal browser. The only module that knows ratatui and crossterm.
//!
//! `app` holds the state and turns messages into effects without touching the terminal;
//! `keymap` names every action and reads `[tui.keys]`; `theme` reads `[tui] theme` (a light
//! and a dark base); `probe` asks the terminal what it draws and its background, without
//! delaying the first frame; `layout` wraps only what is visible; `view` paints the state
//! (pure); `term` runs the event loop, performs effects (fetches in tasks, store changes) and
//! restores the terminal on every exit path (quit, error, panic, SIGTERM).

#![warn(missing_docs)]

pub mod app;
pub mod keymap;
pub(crate) mod layout;
pub mod picture;
pub mod probe;
pub(crate) mod term;
pub mod theme;
pub mod view;

use smolweb_client::Client;
use std::sync::Arc;

/// Run the interactive browser on the terminal, starting at `start` (default: the configured
/// home page). Restores the terminal on every exit path.
pub async fn run(client: Arc<Client>, start: Option<String>) -> Result<(), term::TermError> {
    term::run(client, start).await
}
