//! `smolweb search QUERY`: the local index of what the person and their agents read, from a
//! shell (the person's scope: every source), and `smolweb search --reindex`, which rebuilds it
//! from the stores. The query syntax and filters are the browser's (`about:search`).
//!
//! Output: a block per page (title, URL, where it was seen and when, the snippet with the
//! matched words between « and »), or with `--json` one JSON object. A note on how the query
//! was read, and a rebuild's message, go to stderr.
//! Exit codes: 0 pages found (or the index rebuilt); 1 nothing found; 2 a query or a filter
//! that cannot be read; 3 the index could not be read or written.

use anyhow::Result;
use clap::Args;
use smolweb_client::Client;
use smolweb_client::search::{Request, Results, SearchError, Source, day, parse_since};
use smolweb_core::text::one_line;
use std::process::ExitCode;
use std::time::Duration;

#[derive(Debug, Args)]
pub(crate) struct SearchArgs {
    /// What to look for: words, "exact phrase", prefix*, -excluded, site:host.
    #[arg(required_unless_present = "reindex")]
    pub query: Vec<String>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// Only these sources (repeat or separate with commas): history, offline, feed, bookmark,
    /// shared, agent.
    #[arg(long, value_delimiter = ',', value_name = "SOURCE")]
    pub source: Vec<String>,
    /// Only pages seen since: 12h, 7d, 2w, 6m, 1y, or a date such as 2026-01-31.
    #[arg(long, value_name = "WHEN")]
    pub since: Option<String>,
    /// Skip this many pages.
    #[arg(long, default_value_t = 0)]
    pub offset: usize,
    /// Show at most this many pages (1 to 100).
    #[arg(long, default_value_t = 20)]
    pub limit: usize,
    /// Rebuild the index from the stores (history, offline copies, feeds, bookmarks, shared
    /// pages; pages agents fetched by their URL), then exit.
    #[arg(long, conflicts_with_all = ["json", "source", "since"])]
    pub reindex: bool,
}

fn failed(e: &SearchError) -> ExitCode {
    eprintln!("smolweb: {e}");
    match e {
        SearchError::Query(_) | SearchError::HiddenSource(_) => ExitCode::from(2),
        _ => ExitCode::from(3),
    }
}

pub(super) fn run(client: &Client, args: &SearchArgs) -> Result<ExitCode> {
    if args.reindex {
        return Ok(match client.reindex() {
            Ok(r) => {
                println!("{}", r.message());
                ExitCode::SUCCESS
            }
            Err(e) => failed(&e),
        });
    }
    let mut sources = Vec::new();
    for name in &args.source {
        match Source::parse(name) {
            Some(s) => sources.push(s),
            None => {
                eprintln!(
                    "smolweb: \"{name}\" is not a source: use history, offline, feed, bookmark, shared or agent"
                );
                return Ok(ExitCode::from(2));
            }
        }
    }
    let since = match args.since.as_deref().map(|s| parse_since(s, client.now())) {
        None => None,
        Some(Ok(t)) => Some(t),
        Some(Err(e)) => {
            eprintln!("smolweb: {e}");
            return Ok(ExitCode::from(2));
        }
    };
    // Pages queued by other processes are committed first, when no one else is writing.
    if let Some(index) = client.search_index()
        && let Err(e) = index.flush(Duration::from_millis(500))
    {
        eprintln!("smolweb: {e}");
    }
    let query = args.query.join(" ");
    let req = Request {
        query: &query,
        scope: client.search_scope(),
        sources: (!sources.is_empty()).then_some(sources.as_slice()),
        since,
        offset: args.offset,
        limit: args.limit,
    };
    let r = match client.search_local(&req) {
        Ok(r) => r,
        Err(e) => return Ok(failed(&e)),
    };
    if let Some(rebuilt) = &r.rebuilt {
        eprintln!("smolweb: {}", rebuilt.message());
    }
    for note in &r.notes {
        eprintln!("smolweb: note: {note}");
    }
    if args.json {
        println!("{}", json(&query, &r));
    } else {
        print_text(&r, args.offset);
    }
    Ok(match r.total {
        0 => ExitCode::from(1),
        _ => ExitCode::SUCCESS,
    })
}

fn json(query: &str, r: &Results) -> serde_json::Value {
    let hits: Vec<_> = r
        .hits
        .iter()
        .map(|h| {
            serde_json::json!({
                "url": h.url,
                "title": h.title,
                "snippet": h.snippet.marked("«", "»"),
                "source": h.source.as_str(),
                "also": h.also.iter().map(|s| s.as_str()).collect::<Vec<_>>(),
                "feed": h.feed,
                "time": smolweb_core::text::rfc3339(h.time),
                "score": h.score,
            })
        })
        .collect();
    serde_json::json!({
        "query": query,
        "total": r.total,
        "more": r.more,
        "next_offset": r.next_offset,
        "notes": r.notes,
        "results": hits,
    })
}

fn print_text(r: &Results, offset: usize) {
    if r.total == 0 {
        println!("No page found.");
        return;
    }
    println!(
        "{} page{} found{}; {}-{} shown.",
        r.total,
        if r.total == 1 { "" } else { "s" },
        if r.more { " or more" } else { "" },
        offset + 1,
        offset + r.hits.len()
    );
    for h in &r.hits {
        let url = one_line(&h.url, None);
        println!();
        println!("{}", h.title.as_deref().unwrap_or(&url));
        println!("  {url}");
        let mut seen = h.source.label().to_string();
        for s in &h.also {
            seen.push_str(", ");
            seen.push_str(s.label());
        }
        match &h.feed {
            Some(f) => println!("  {seen} · {} · {f}", day(h.time)),
            None => println!("  {seen} · {}", day(h.time)),
        }
        if !h.snippet.text.is_empty() {
            println!("  {}", h.snippet.marked("«", "»"));
        }
    }
    if let Some(n) = r.next_offset {
        println!("\nMore: --offset {n}");
    }
}
