//! The `smolweb` command: the terminal browser (`smolweb [URL]`), the MCP server
//! (`smolweb --mcp`), and the human's own commands (`get`, `trust`, `identity`).

mod cli;

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args = cli::Args::parse();
    match cli::run(args) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("smolweb: {e:#}");
            ExitCode::from(1)
        }
    }
}
