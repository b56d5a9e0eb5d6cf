//! `smolweb feeds list | add URL | remove URL | refresh | sync-links URL on|off|default`: the
//! subscriptions from a shell.
//!
//! Output goes to stdout (entries, lists); problems to stderr. Remote titles are printed on one
//! line with control characters removed (`core::feed::one_line` made them so when parsed).
//! Exit codes: 0 done; 1 the store could not be read or written; 2 bad URL or not subscribed;
//! 3 at least one feed could not be fetched or read (the others were refreshed, and `add`
//! keeps the new subscription).

use anyhow::Result;
use clap::Subcommand;
use smolweb_client::Client;
use smolweb_client::feeds::{self, FeedRefresh};
use smolweb_store::StoreError;
use smolweb_store::subscriptions::{StoredEntry, Subscription};
use std::process::ExitCode;
use std::sync::Arc;

#[derive(Debug, Subcommand)]
pub(crate) enum FeedsCommand {
    /// List subscriptions with their unread counts and last refresh.
    List,
    /// Follow a feed: a gemlog page, or an Atom, RSS or JSON Feed URL (fetched once to check).
    Add {
        url: String,
        /// `smolweb sync` also keeps the same-capsule pages its entries link to (one level).
        #[arg(long)]
        sync_links: bool,
    },
    /// Stop following a feed (its read state is forgotten).
    Remove { url: String },
    /// Fetch every subscription and print the entries not seen before, with their URLs.
    Refresh,
    /// Whether `smolweb sync` also keeps the same-capsule pages a feed's entries link to (one
    /// level); `default` follows `[sync] follow_links`.
    SyncLinks {
        url: String,
        #[arg(value_enum)]
        state: LinksState,
    },
}

/// `feeds sync-links`' choice.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub(crate) enum LinksState {
    /// Keep the linked pages.
    On,
    /// Keep the entries only.
    Off,
    /// As `[sync] follow_links` says.
    Default,
}

/// Exit codes of `smolweb feeds`.
pub(super) mod exit {
    pub(crate) const OK: u8 = 0;
    pub(crate) const STORE: u8 = 1;
    pub(crate) const INVALID: u8 = 2;
    pub(crate) const FEED_FAILED: u8 = 3;
}

fn store_code(e: &StoreError) -> u8 {
    match e {
        StoreError::Invalid(_) | StoreError::NotFound(_) => exit::INVALID,
        _ => exit::STORE,
    }
}

fn fail(e: &StoreError) -> ExitCode {
    eprintln!("smolweb: {e}");
    ExitCode::from(store_code(e))
}

pub(super) fn run(client: &Arc<Client>, cmd: &FeedsCommand) -> Result<ExitCode> {
    match cmd {
        FeedsCommand::List => Ok(list(client)),
        FeedsCommand::Add { url, sync_links } => add(client, url, *sync_links),
        FeedsCommand::Remove { url } => Ok(match client.subscriptions().remove(url) {
            Ok(s) => {
                println!("unsubscribed from {} ({})", line(s.name()), line(&s.url));
                ExitCode::SUCCESS
            }
            Err(e) => fail(&e),
        }),
        FeedsCommand::Refresh => refresh(client),
        FeedsCommand::SyncLinks { url, state } => Ok(sync_links(client, url, *state)),
    }
}

fn sync_links(client: &Client, url: &str, state: LinksState) -> ExitCode {
    let links = match state {
        LinksState::On => Some(true),
        LinksState::Off => Some(false),
        LinksState::Default => None,
    };
    match client.subscriptions().set_sync_links(url, links) {
        Ok(s) => {
            println!("{}: {}", line(&s.url), links_words(&s, client));
            ExitCode::SUCCESS
        }
        Err(e) => fail(&e),
    }
}

/// What `smolweb sync` keeps of a subscription, in words.
fn links_words(s: &Subscription, client: &Client) -> &'static str {
    match s.sync_links {
        Some(true) => "sync keeps the entries and the same-capsule pages they link to",
        Some(false) => "sync keeps the entries only",
        None if client.config().sync.follow_links => {
            "sync keeps the entries and their same-capsule links ([sync] follow_links)"
        }
        None => "sync keeps the entries only ([sync] follow_links)",
    }
}

fn list(client: &Client) -> ExitCode {
    let subs = match client.subscriptions().list() {
        Ok(s) => s,
        Err(e) => return fail(&e),
    };
    if subs.is_empty() {
        eprintln!("no subscriptions (add one with `smolweb feeds add URL`)");
    }
    for s in subs {
        let when = s.last_try();
        let links = match s.sync_links {
            Some(true) => ", sync keeps linked pages",
            _ => "",
        };
        println!(
            "{}  {}  ({} unread, {when}{links})",
            line(&s.url),
            line(s.name()),
            s.unread()
        );
        if let Some(err) = &s.error {
            println!("    last refresh failed: {}", line(err));
        }
    }
    ExitCode::SUCCESS
}

fn add(client: &Arc<Client>, url: &str, with_links: bool) -> Result<ExitCode> {
    let (url, new) = match client.subscriptions().add(url, client.now()) {
        Ok(r) => r,
        Err(e) => return Ok(fail(&e)),
    };
    if with_links && let Err(e) = client.subscriptions().set_sync_links(&url, Some(true)) {
        return Ok(fail(&e));
    }
    if !new {
        println!("already subscribed to {}", line(&url));
        return Ok(ExitCode::SUCCESS);
    }
    let r = crate::cli::runtime()?.block_on(client.refresh_feed(&url));
    let name = line(r.title.as_deref().unwrap_or(&url));
    let url = line(&url);
    Ok(match &r.error {
        // Nothing dated on the page: perhaps a gemlog with no post yet, more likely not a feed
        // at all. Kept (a new gemlog fills up), but said, and not a success.
        None if r.new_entries.is_empty() => {
            println!("subscribed to {name} ({url}), no entries");
            eprintln!(
                "smolweb: {url} has no entries: it may not be a feed (a gemlog lists links that \
                 start with a date; Atom, RSS and JSON Feed are read too); kept, `smolweb feeds \
                 remove` drops it"
            );
            ExitCode::from(exit::FEED_FAILED)
        }
        None => {
            println!(
                "subscribed to {name} ({url}), {}",
                count(r.new_entries.len(), "entry", "entries")
            );
            ExitCode::SUCCESS
        }
        Some(err) => {
            println!("subscribed to {url}");
            eprintln!(
                "smolweb: the first fetch failed ({}); kept, refresh later",
                line(&err.to_string())
            );
            ExitCode::from(exit::FEED_FAILED)
        }
    })
}

fn refresh(client: &Arc<Client>) -> Result<ExitCode> {
    let results = crate::cli::runtime()?.block_on(feeds::refresh_all(client, |_, _, _| {}));
    let results = match results {
        Ok(r) => r,
        Err(e) => return Ok(fail(&e)),
    };
    let mut failed = 0;
    let mut fresh = 0;
    for r in &results {
        print_new(r);
        fresh += r.new_entries.len();
        if let Some(err) = &r.error {
            failed += 1;
            eprintln!(
                "smolweb: {} failed: {}",
                line(&r.url),
                line(&err.to_string())
            );
        }
    }
    eprintln!(
        "{} from {}{}",
        count(fresh, "new entry", "new entries"),
        count(results.len(), "feed", "feeds"),
        if failed > 0 {
            format!(", {failed} failed")
        } else {
            String::new()
        }
    );
    Ok(ExitCode::from(if failed > 0 {
        exit::FEED_FAILED
    } else {
        exit::OK
    }))
}

fn print_new(r: &FeedRefresh) {
    if r.new_entries.is_empty() {
        return;
    }
    println!(
        "== {} ({})",
        line(r.title.as_deref().unwrap_or(&r.url)),
        line(&r.url)
    );
    for e in &r.new_entries {
        println!("{} {}\n   {}", day(e), line(&e.title), line(&e.url));
    }
}

/// Feed and entry titles, URLs and errors came from feeds: made safe for the terminal.
fn line(s: &str) -> std::borrow::Cow<'_, str> {
    smolweb_core::text::sanitize_line(s)
}

use smolweb_core::text::count;

fn day(e: &StoredEntry) -> String {
    e.published
        .as_deref()
        .and_then(|p| p.get(..10))
        .unwrap_or("(undated)  ")
        .to_string()
}
