//! `smolweb --mcp --http [ADDR]` (the MCP server over Streamable HTTP) and `smolweb mcp token`.
//! Under `--mcp --http` stdout stays empty: the address and any warning go to stderr.

use super::{Args, runtime};
use anyhow::{Result, anyhow};
use clap::Subcommand;
use smolweb_client::Client;
use smolweb_mcp::HttpServer;
use smolweb_store::mcp_token;
use std::process::ExitCode;
use std::sync::Arc;

#[derive(Debug, Subcommand)]
pub(crate) enum McpCommand {
    /// Print the bearer token HTTP clients send (made on first use, kept in the data directory).
    Token,
}

pub(crate) fn command(client: &Client, cmd: &McpCommand) -> Result<ExitCode> {
    match cmd {
        McpCommand::Token => {
            let token = mcp_token::load_or_create(&client.paths().mcp_token())?;
            println!("{}", token.expose());
            Ok(ExitCode::SUCCESS)
        }
    }
}

pub(crate) fn serve(client: Arc<Client>, args: &Args) -> Result<ExitCode> {
    let settings = client.config().mcp.http.clone();
    let addr = args.http.flatten().unwrap_or(settings.bind);
    let allow_remote = args.http_allow_remote || settings.allow_non_loopback;
    let token = mcp_token::load_or_create(&client.paths().mcp_token())?;
    let rt = runtime()?;
    let served = rt.block_on(async {
        let server = HttpServer::bind(client, addr, allow_remote, &token).await?;
        let local = server.local_addr();
        if !local.ip().is_loopback() {
            eprintln!(
                "smolweb: WARNING: MCP over HTTP listens on {local}, which is not loopback: any \
                 machine that reaches it and has the token can fetch as you, with your \
                 identities and pins"
            );
        }
        eprintln!("smolweb: MCP over HTTP at {}", server.url());
        eprintln!(
            "smolweb: clients send Authorization: Bearer TOKEN (`smolweb mcp token` prints it)"
        );
        server.serve().await
    });
    rt.shutdown_timeout(std::time::Duration::from_millis(100));
    served.map_err(|e| anyhow!(e))?;
    Ok(ExitCode::SUCCESS)
}
