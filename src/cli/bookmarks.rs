//! `smolweb bookmarks list | import FILE`: the bookmarks (shared with the browser) from a
//! shell, and bookmarks brought over from amfora (`bookmarks.xml`, or the older
//! `bookmarks.toml`) and Lagrange (`bookmarks.ini`), folders kept.
//!
//! Exit codes: 0 done; 1 the store or the file could not be read or written; 2 the file is
//! not a bookmarks file smolweb knows.

use anyhow::Result;
use clap::Subcommand;
use smolweb_client::Client;
use smolweb_core::text::{count, one_line};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Debug, Subcommand)]
pub(crate) enum BookmarksCommand {
    /// List the bookmarks, folder by folder.
    List,
    /// Add the bookmarks of amfora's bookmarks.xml / bookmarks.toml or Lagrange's
    /// bookmarks.ini (URLs already bookmarked are skipped).
    Import { file: PathBuf },
}

pub(super) fn run(client: &Client, cmd: &BookmarksCommand) -> Result<ExitCode> {
    match cmd {
        BookmarksCommand::List => {
            let list = match client.bookmarks_list() {
                Ok(l) => l,
                Err(e) => {
                    eprintln!("smolweb: {e}");
                    return Ok(ExitCode::from(1));
                }
            };
            for folder in smolweb_store::bookmarks::folders(&list) {
                let marks: Vec<_> = list.iter().filter(|b| b.folder == folder).collect();
                if marks.is_empty() {
                    continue;
                }
                if !folder.is_empty() {
                    println!("{}:", one_line(folder, None));
                }
                for b in marks {
                    let indent = if folder.is_empty() { "" } else { "  " };
                    match one_line(&b.title, None) {
                        t if t.is_empty() => println!("{indent}{}", one_line(&b.url, None)),
                        t => println!("{indent}{t}  {}", one_line(&b.url, None)),
                    }
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        BookmarksCommand::Import { file } => {
            let text = match std::fs::read(file) {
                Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
                Err(e) => {
                    eprintln!("smolweb: cannot read {}: {e}", file.display());
                    return Ok(ExitCode::from(1));
                }
            };
            let (kind, found) = match smolweb_store::bookmarks::import(&text) {
                Ok(r) => r,
                Err(e) => {
                    eprintln!("smolweb: {}: {e}", file.display());
                    return Ok(ExitCode::from(2));
                }
            };
            match client.import_bookmarks(&found) {
                Ok((added, skipped)) => {
                    println!(
                        "{} from {} ({kind}); {} already bookmarked or unusable",
                        count(added, "bookmark added", "bookmarks added"),
                        file.display(),
                        skipped
                    );
                    Ok(ExitCode::SUCCESS)
                }
                Err(e) => {
                    eprintln!("smolweb: {e}");
                    Ok(ExitCode::from(1))
                }
            }
        }
    }
}
