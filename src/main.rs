//! The `smolweb` command: the terminal browser (`smolweb [URL]`), the MCP server
//! (`smolweb --mcp`), and the human's own commands (`get`, `trust`, `identity`).

// The binary is the one place that prints: its commands write to the terminal (under `--mcp`
// the MCP crate owns stdout, and no library crate may print: the workspace lints deny it).
#![allow(clippy::print_stdout, clippy::print_stderr)]

mod cli;

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args = cli::Args::parse();
    // Under --mcp the log (stderr or --log-file) has the warnings as they happen.
    let logged = args.mcp;
    let code = match cli::run(args) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("smolweb: {e:#}");
            ExitCode::from(1)
        }
    };
    // Store files used although others can read them (`[data] loose_permissions = "warn"`).
    for warning in smolweb_store::perms::take_warnings() {
        if !logged {
            eprintln!("smolweb: warning: {warning}");
        }
    }
    code
}
