//! The human's face: the terminal browser. The only module that knows ratatui and crossterm.

use crate::client::Client;
use std::sync::Arc;

/// Run the interactive browser on the terminal, starting at `start` (default: the configured
/// home page). Restores the terminal on every exit path.
pub async fn run(client: Arc<Client>, start: Option<String>) -> Result<(), String> {
    let _ = (client, start);
    Err("the terminal browser is not implemented yet".into())
}
