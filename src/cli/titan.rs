//! `smolweb titan allow|revoke|list`: the person's standing permissions for an agent to upload
//! with Titan under a capsule scope without being asked each time (`titan_upload`). Exit
//! codes: 0 done; 1 the store could not be read or written; 2 a bad scope or name.

use anyhow::Result;
use clap::Subcommand;
use smolweb_client::Client;
use smolweb_core::text::one_line;
use smolweb_store::StoreError;
use std::process::ExitCode;

#[derive(Debug, Subcommand)]
pub(crate) enum TitanCommand {
    /// Let AGENT (its client name, as the consent question shows it) upload under the scope
    /// of URL (gemini:// or titan://; the path and everything below it) without asking.
    Allow { agent: String, url: String },
    /// Take a permission back (every upload is asked again).
    Revoke { agent: String, url: String },
    /// List the permissions.
    List,
}

fn code(e: &StoreError) -> u8 {
    match e {
        StoreError::Invalid(_) | StoreError::NotFound(_) => 2,
        _ => 1,
    }
}

pub(super) fn run(client: &Client, cmd: &TitanCommand) -> Result<ExitCode> {
    let said = match cmd {
        TitanCommand::Allow { agent, url } => client.allow_uploads(agent, url).map(|new| {
            let scope = smolweb_store::uploads::scope_of(url).unwrap_or_default();
            if new {
                format!("{agent} may upload under {scope} without asking")
            } else {
                format!("{agent} already may upload under {scope}")
            }
        }),
        TitanCommand::Revoke { agent, url } => client.revoke_uploads(agent, url).map(|gone| {
            if gone {
                format!("{agent}'s uploads under {url} are asked again")
            } else {
                format!("{agent} had no permission for {url}")
            }
        }),
        TitanCommand::List => client.upload_allowances().map(|list| {
            if list.is_empty() {
                return "no agent may upload without asking".to_string();
            }
            list.iter()
                .map(|a| {
                    format!(
                        "{}  {}  (since {})",
                        one_line(&a.agent, None),
                        a.scope,
                        smolweb_core::text::readable_time(a.added)
                    )
                })
                .collect::<Vec<_>>()
                .join("\n")
        }),
    };
    match said {
        Ok(text) => {
            println!("{text}");
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            eprintln!("smolweb: {e}");
            Ok(ExitCode::from(code(&e)))
        }
    }
}
