//! `smolweb agents log [--follow] [--session ID]`: what agents did, from the activity log
//! `smolweb --mcp` writes, for a second terminal beside an agent.
//!
//! One line per entry, oldest first (`activity::describe`: time, session, what happened). The
//! log holds only what the store let in (URLs without query, names without control
//! characters); the text is cleaned once more here before it reaches the terminal. With
//! `--follow` new entries are printed as they come (the file is looked at every 500 ms; a
//! compaction starts the reading over, without printing twice what was printed). Lines that
//! do not parse are skipped and counted on stderr. Exit codes: 0 done; 1 the log could not be
//! read.

use anyhow::Result;
use clap::Subcommand;
use smolweb_client::Client;
use smolweb_store::activity::{Cursor, Entry, describe};
use std::io::Write;
use std::process::ExitCode;
use std::time::Duration;

#[derive(Debug, Subcommand)]
pub(crate) enum AgentsCommand {
    /// Print the agents' activity: sessions, calls (URLs without query), consent steps.
    Log {
        /// Keep printing new entries as agents work (Ctrl-C ends).
        #[arg(long)]
        follow: bool,
        /// Only this session (its 8-digit id, as printed in brackets).
        #[arg(long, value_name = "ID")]
        session: Option<String>,
    },
}

fn line(e: &Entry) -> String {
    describe(e)
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

/// Run `smolweb agents ...`.
pub(crate) fn run(client: &Client, cmd: &AgentsCommand) -> Result<ExitCode> {
    let AgentsCommand::Log { follow, session } = cmd;
    let keep = |e: &Entry| session.as_deref().is_none_or(|s| e.session == s);
    let mut cursor = Cursor::default();
    let mut last_printed: Option<Entry> = None;
    let mut out = std::io::stdout().lock();
    loop {
        let (got, reset) = match client.read_activity_since(&mut cursor) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("smolweb: cannot read the activity log: {e}");
                return Ok(ExitCode::from(1));
            }
        };
        if got.skipped > 0 {
            eprintln!(
                "smolweb: skipped {} unreadable line(s) of {}",
                got.skipped,
                client.paths().activity().display()
            );
        }
        let mut entries = got.entries.iter().filter(|e| keep(e)).peekable();
        if reset && let Some(last) = &last_printed {
            // Compacted: skip what was printed already (entries are in time order).
            while entries.peek().is_some_and(|e| e.at <= last.at) {
                entries.next();
            }
        }
        for e in entries {
            if writeln!(out, "{}", line(e)).is_err() {
                return Ok(ExitCode::SUCCESS);
            }
            last_printed = Some(e.clone());
        }
        let _ = out.flush();
        if !follow {
            return Ok(ExitCode::SUCCESS);
        }
        std::thread::sleep(Duration::from_millis(500));
    }
}
