//! `smolweb tour add URL… | list | next | clear`: the tour (links to read next, shared with the
//! browser's tour keys and with agents, who add links with a reason) from a shell.
//!
//! `next` prints the next link's URL on stdout and takes it off the tour, so
//! `smolweb get "$(smolweb tour next)"` reads it; who added it, and why, go to stderr.
//!
//! Exit codes: 0 done; 1 the tour could not be read or written; 2 a link could not go on it;
//! 3 `next` found the tour empty.

use anyhow::Result;
use clap::Subcommand;
use smolweb_client::Client;
use smolweb_core::text::{count, one_line};
use smolweb_store::tour::NewStop;
use std::process::ExitCode;

#[derive(Debug, Subcommand)]
pub(crate) enum TourCommand {
    /// Put links at the end of the tour, in the order given.
    Add {
        /// The links (gemini://, gopher://, https://, ...; a link with a query is refused).
        #[arg(required = true, value_name = "URL")]
        urls: Vec<String>,
    },
    /// List the tour, the next link first (an agent's link with who added it and why).
    List,
    /// Print the next link's URL and take it off the tour.
    Next,
    /// Take every link off the tour.
    Clear,
}

fn failed(e: impl std::fmt::Display) -> Result<ExitCode> {
    eprintln!("smolweb: {e}");
    Ok(ExitCode::from(1))
}

pub(super) fn run(client: &Client, cmd: &TourCommand) -> Result<ExitCode> {
    match cmd {
        TourCommand::Add { urls } => {
            let links: Vec<NewStop> = urls
                .iter()
                .map(|u| NewStop {
                    url: u.clone(),
                    label: None,
                })
                .collect();
            let added = match client.tour_add(&links) {
                Ok(a) => a,
                Err(e) => return failed(e),
            };
            for (url, why) in &added.refused {
                eprintln!("smolweb: not added: {}: {why}", one_line(url, None));
            }
            let already = match added.already {
                0 => String::new(),
                n => format!(", {} already on it", count(n, "link", "links")),
            };
            println!(
                "{} added{already}; {} on the tour",
                count(added.added, "link", "links"),
                count(added.waiting, "link", "links")
            );
            let code = if added.refused.is_empty() { 0 } else { 2 };
            Ok(ExitCode::from(code))
        }
        TourCommand::List => {
            let stops = match client.tour() {
                Ok(s) => s,
                Err(e) => return failed(e),
            };
            if stops.is_empty() {
                eprintln!("the tour is empty: smolweb tour add URL, or the browser's tour key");
            }
            for (i, stop) in stops.iter().enumerate() {
                let label = stop.label.as_deref().map(|l| one_line(l, None));
                match label.filter(|l| !l.is_empty()) {
                    Some(l) => println!("{:>3}. {}  {l}", i + 1, one_line(&stop.url, None)),
                    None => println!("{:>3}. {}", i + 1, one_line(&stop.url, None)),
                }
                if let Some(agent) = &stop.agent {
                    println!(
                        "     added by the agent {}: {}",
                        one_line(&agent.client, None),
                        one_line(&agent.reason, None)
                    );
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        TourCommand::Next => match client.tour_next() {
            Ok(Some((stop, left))) => {
                println!("{}", one_line(&stop.url, None));
                if let Some(agent) = &stop.agent {
                    eprintln!(
                        "added by the agent {}: {}",
                        one_line(&agent.client, None),
                        one_line(&agent.reason, None)
                    );
                }
                eprintln!("{} left on the tour", count(left, "link", "links"));
                Ok(ExitCode::SUCCESS)
            }
            Ok(None) => {
                eprintln!("the tour is empty");
                Ok(ExitCode::from(3))
            }
            Err(e) => failed(e),
        },
        TourCommand::Clear => match client.tour_clear() {
            Ok(n) => {
                println!("{} taken off the tour", count(n, "link", "links"));
                Ok(ExitCode::SUCCESS)
            }
            Err(e) => failed(e),
        },
    }
}
