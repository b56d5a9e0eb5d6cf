//! `smolweb feeds list | add URL [--changes links|text] | remove URL | refresh | health |
//! changes [--since T] | adopt URL | sync-links URL on|off|default`: the subscriptions (feeds
//! and pages followed for their changes) from a shell.
//!
//! Output goes to stdout (entries, lists, health, changes); problems to stderr. Remote titles
//! are printed on one line with control characters removed (`core::feed::one_line` made them
//! so when parsed). Exit codes: 0 done; 1 the store could not be read or written; 2 bad URL,
//! time or not subscribed; 3 at least one feed could not be fetched or read (the others were
//! refreshed, and `add` keeps the new subscription), or, for `health`, at least one
//! subscription needs attention.

use anyhow::Result;
use clap::Subcommand;
use smolweb_client::Client;
use smolweb_client::feeds::{self, FeedRefresh};
use smolweb_core::follow::Watch;
use smolweb_store::StoreError;
use smolweb_store::subscriptions::{StoredEntry, Subscription};
use std::process::ExitCode;
use std::sync::Arc;

#[derive(Debug, Subcommand)]
pub(crate) enum FeedsCommand {
    /// List subscriptions with their unread counts and last refresh.
    List,
    /// Follow a feed: a gemlog page, or an Atom, RSS or JSON Feed URL (fetched once to check);
    /// with --changes, any page (of any scheme smolweb opens) for its changes.
    Add {
        url: String,
        /// `smolweb sync` also keeps the same-capsule pages its entries link to (one level).
        #[arg(long)]
        sync_links: bool,
        /// Follow the page for its changes instead of as a feed: `links` (new and removed
        /// links only) or `text` (any change of its text); its first copy is kept now.
        #[arg(long, value_enum, value_name = "links|text")]
        changes: Option<ChangesArg>,
    },
    /// Stop following a feed (its read state is forgotten).
    Remove { url: String },
    /// Fetch every subscription and print the entries not seen before, with their URLs.
    Refresh,
    /// The health of every subscription: last success, failures in a row with the last
    /// error, entries, newest entry, moved, empty, quiet, changes at every refresh.
    Health,
    /// The entries and page changes first seen since a time, page changes with their diff.
    Changes {
        /// From when: an RFC 3339 time, a date (midnight UTC) or an age (12h, 3d, 2w).
        #[arg(long, default_value = "7d", value_name = "TIME")]
        since: String,
        /// Only subscriptions whose URL or title contains this.
        #[arg(long)]
        filter: Option<String>,
    },
    /// Follow a subscription that moved (a permanent redirect) at its new address, keeping
    /// its entries and read state.
    Adopt { url: String },
    /// Whether `smolweb sync` also keeps the same-capsule pages a feed's entries link to (one
    /// level); `default` follows `[sync] follow_links`.
    SyncLinks {
        url: String,
        #[arg(value_enum)]
        state: LinksState,
    },
}

/// What counts as a change of a followed page.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub(crate) enum ChangesArg {
    /// Links added or removed.
    Links,
    /// Any change of its text.
    Text,
}

impl ChangesArg {
    fn watch(self) -> Watch {
        match self {
            ChangesArg::Links => Watch::Links,
            ChangesArg::Text => Watch::Text,
        }
    }
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
        FeedsCommand::Add {
            url,
            sync_links,
            changes: None,
        } => add(client, url, *sync_links),
        FeedsCommand::Add {
            url,
            sync_links,
            changes: Some(watch),
        } => follow_page(client, url, *sync_links, watch.watch()),
        FeedsCommand::Remove { url } => Ok(match client.unsubscribe(url) {
            Ok(s) => {
                println!("unsubscribed from {} ({})", line(s.name()), line(&s.url));
                ExitCode::SUCCESS
            }
            Err(e) => fail(&e),
        }),
        FeedsCommand::Refresh => refresh(client),
        FeedsCommand::Health => Ok(health(client)),
        FeedsCommand::Changes { since, filter } => Ok(changes(client, since, filter.as_deref())),
        FeedsCommand::Adopt { url } => Ok(match client.adopt(url) {
            Ok(s) => {
                println!("following {} at {}", line(s.name()), line(&s.url));
                ExitCode::SUCCESS
            }
            Err(e) => fail(&e),
        }),
        FeedsCommand::SyncLinks { url, state } => Ok(sync_links(client, url, *state)),
    }
}

fn sync_links(client: &Client, url: &str, state: LinksState) -> ExitCode {
    let links = match state {
        LinksState::On => Some(true),
        LinksState::Off => Some(false),
        LinksState::Default => None,
    };
    match client.set_sync_links(url, links) {
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
    let subs = match client.subscriptions_list() {
        Ok(s) => s,
        Err(e) => return fail(&e),
    };
    if subs.is_empty() {
        eprintln!("no subscriptions (add one with `smolweb feeds add URL`)");
    }
    for s in subs.iter() {
        let when = s.last_try();
        let links = match s.sync_links {
            Some(true) => ", sync keeps linked pages",
            _ => "",
        };
        let kind = match s.changes {
            Some(w) => format!(", page: {}", w.as_str()),
            None => String::new(),
        };
        println!(
            "{}  {}  ({} unread, {when}{links}{kind})",
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
    let (url, new) = match client.subscribe(url) {
        Ok(r) => r,
        Err(e) => return Ok(fail(&e)),
    };
    if with_links && let Err(e) = client.set_sync_links(&url, Some(true)) {
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

use smolweb_client::{about_follow, follow, health};
use smolweb_core::text::{count, readable_time};

fn day(e: &StoredEntry) -> String {
    e.published
        .as_deref()
        .and_then(|p| p.get(..10))
        .unwrap_or("(undated)  ")
        .to_string()
}

/// `feeds add URL --changes links|text`: follow the page and keep its first copy.
fn follow_page(
    client: &Arc<Client>,
    url: &str,
    with_links: bool,
    watch: Watch,
) -> Result<ExitCode> {
    let (url, new) = match client.follow_page(url, watch) {
        Ok(r) => r,
        Err(e) => return Ok(fail(&e)),
    };
    if with_links && let Err(e) = client.set_sync_links(&url, Some(true)) {
        return Ok(fail(&e));
    }
    let what = match watch {
        Watch::Links => "its new and removed links",
        Watch::Text => "any change of its text",
    };
    if !new {
        println!("following {} for {what}", line(&url));
        return Ok(ExitCode::SUCCESS);
    }
    let r = crate::cli::runtime()?.block_on(client.refresh_feed(&url));
    let name = line(r.title.as_deref().unwrap_or(&url));
    Ok(match &r.error {
        None => {
            println!(
                "following {name} ({}) for {what}; its first copy is kept",
                line(&url)
            );
            ExitCode::SUCCESS
        }
        Some(err) => {
            println!("following {} for {what}", line(&url));
            eprintln!(
                "smolweb: the first fetch failed ({}); kept, refresh later",
                line(&err.to_string())
            );
            ExitCode::from(exit::FEED_FAILED)
        }
    })
}

/// `feeds health`: every subscription, the ones that need attention first.
fn health(client: &Client) -> ExitCode {
    let subs = match client.subscriptions_list() {
        Ok(s) => s,
        Err(e) => return fail(&e),
    };
    if subs.is_empty() {
        eprintln!("no subscriptions (add one with `smolweb feeds add URL`)");
        return ExitCode::SUCCESS;
    }
    let now = client.now();
    let mut rows: Vec<_> = subs.iter().map(|s| (s, health::health(s, now))).collect();
    rows.sort_by_key(|(_, h)| !h.sick());
    let sick = rows.iter().filter(|(_, h)| h.sick()).count();
    for (s, h) in &rows {
        println!("{}  {}", line(&s.url), line(s.name()));
        println!("    {}", line(&about_follow::facts(s, h)));
        for sign in &h.signs {
            println!("    ⚠ {}", line(&sign.words()));
        }
        if s.moved_to.is_some() {
            println!(
                "    (smolweb feeds adopt {} follows it there)",
                line(&s.url)
            );
        }
    }
    println!(
        "{}, {sick} need attention",
        count(rows.len(), "subscription", "subscriptions")
    );
    ExitCode::from(if sick > 0 {
        exit::FEED_FAILED
    } else {
        exit::OK
    })
}

/// `feeds changes --since T`: what each subscription brought since then, newest first.
fn changes(client: &Client, since: &str, filter: Option<&str>) -> ExitCode {
    let since = match follow::parse_since(since, client.now()) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("smolweb: {e}");
            return ExitCode::from(exit::INVALID);
        }
    };
    let found = match client.changes_since(since, filter) {
        Ok(f) => f,
        Err(e) => return fail(&e),
    };
    let mut shown: Option<&str> = None;
    for s in &found {
        if shown != Some(s.subscription.as_str()) {
            let name = s.subscription_title.as_deref().unwrap_or(&s.subscription);
            println!("== {} ({})", line(name), line(&s.subscription));
            shown = Some(&s.subscription);
        }
        let mark = if s.entry.read { " " } else { "*" };
        match &s.change {
            Some((page, change)) => {
                println!(
                    "{mark} {}  {}\n   {}",
                    readable_time(change.at),
                    line(&s.entry.title),
                    line(page)
                );
                for l in about_follow::diff_lines(&change.diff) {
                    println!("     {}", line(&l));
                }
            }
            None => println!(
                "{mark} {}  {}\n   {}",
                day(&s.entry),
                line(&s.entry.title),
                line(&s.entry.url)
            ),
        }
    }
    eprintln!(
        "{} since {}",
        count(
            found.len(),
            "new entry or change",
            "new entries and changes"
        ),
        readable_time(since)
    );
    ExitCode::SUCCESS
}
