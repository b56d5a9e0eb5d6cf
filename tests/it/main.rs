//! End-to-end tests of the `smolweb` binary, one test binary: the CLI commands, the MCP server
//! over stdio (rmcp's client, raw JSON-RPC lines, the official Python SDK), the browser in tmux,
//! and Debian's real Gemini/Gopher/web servers.

// clippy.toml's allow-*-in-tests covers #[test] functions and #[cfg(test)] modules only; the
// helpers of an integration-test binary (servers, fixtures, waits) may unwrap and panic too.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
// Tests say SKIP or show figures on the terminal they run in.
#![allow(clippy::print_stdout, clippy::print_stderr)]

mod architecture;
mod cli;
mod cli_bookmarks;
mod cli_config;
mod cli_exit_codes;
mod cli_feeds;
mod cli_follow;
mod cli_get;
mod cli_identity_import;
mod cli_permissions;
mod cli_release;
mod cli_search;
mod cli_secrets;
mod cli_sync;
mod layers;
mod mcp_agents;
mod mcp_batch;
mod mcp_bench;
mod mcp_cancel;
mod mcp_consent;
mod mcp_decisions;
mod mcp_ending;
mod mcp_errors;
mod mcp_feeds;
mod mcp_fetch;
mod mcp_guard;
mod mcp_harness;
mod mcp_http;
mod mcp_http_load;
mod mcp_offline;
mod mcp_prompts;
mod mcp_protocol;
mod mcp_python;
mod mcp_schema;
mod mcp_search;
mod mcp_smallnet;
mod mcp_stdio_soak;
mod mcp_text_and_links;
mod mcp_tools_list;
mod mcp_tour;
mod proxy_faces;
mod real_fingerd;
mod real_servers;
mod tui_pty;
mod tui_tmux;
mod tui_tmux_agents;
mod tui_tmux_driver;
mod tui_tmux_editor;
mod tui_tmux_feeds;
mod tui_tmux_follow;
mod tui_tmux_offline;
mod tui_tmux_pictures;
mod tui_tmux_proxy;
mod tui_tmux_rules;
mod tui_tmux_search;
mod tui_tmux_smallnet;
mod tui_tmux_titan;
mod tui_tmux_tour;
mod tui_tmux_walk3;
mod web_get;
mod web_mcp;
mod web_memory;
mod web_reading;
mod web_roots;
mod web_rules;
mod web_types;

/// The built `smolweb` on data directory `data`, with none of the caller's smolweb variables
/// (a test never reads the real home or config).
pub(crate) fn smolweb_command(data: &std::path::Path) -> std::process::Command {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_smolweb"));
    cmd.arg("--data-dir")
        .arg(data)
        .env_remove("SMOLWEB_CONFIG")
        .env_remove("SMOLWEB_HOME")
        .env_remove("SMOLWEB_LOG");
    cmd
}

/// Run the built `smolweb` with `args` on data directory `data` and wait for it.
pub(crate) fn run_smolweb(data: &std::path::Path, args: &[&str]) -> std::process::Output {
    smolweb_command(data).args(args).output().unwrap()
}
