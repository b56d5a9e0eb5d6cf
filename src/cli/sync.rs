//! `smolweb sync`: refresh every feed and fetch what is new (and the sync queue) into the
//! offline cache, for cron or a systemd timer (the work is the client's `sync`).
//!
//! Output: on stdout one summary line at the end (none with `--quiet` when all went well);
//! on stderr one line per feed or page that failed, a queued page given up, and, only when
//! stderr is a terminal (and not `--quiet`), a progress line rewritten in place and the pages
//! skipped by the offline rules. Exit codes (`exit`): 0 all done; 1 a store could not be read
//! or written; 2 a bad config or argument; 3 some feeds or pages failed (the others were done,
//! as `smolweb feeds refresh`'s 3); 4 stopped by `--max-time`/`--max-bytes` with work left
//! (a later run goes on); 130 stopped by Ctrl-C.

use anyhow::Result;
use smolweb_client::Client;
use smolweb_client::config::Config;
use smolweb_client::sync::{self, Limits, Origin, Report, Step, Stopped};
use smolweb_core::text::{count, human_bytes, human_duration, one_line, sanitize_line};
use smolweb_store::paths::Paths;
use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// `smolweb sync`'s arguments.
#[derive(Debug, clap::Args)]
pub(crate) struct SyncArgs {
    /// Stop cleanly after this many seconds, saying what was left (default: `[sync]
    /// max_seconds`, 600; 0: no bound).
    #[arg(long, value_name = "SECS")]
    max_time: Option<u64>,
    /// Stop before the next fetch once this many body bytes were downloaded (default:
    /// `[sync] max_bytes`, 50 MiB; 0: no bound).
    #[arg(long, value_name = "N")]
    max_bytes: Option<u64>,
    /// 1: also keep the same-capsule pages entries link to, for subscriptions with links on
    /// (`smolweb feeds sync-links URL on`); 0: entries only.
    #[arg(long, value_name = "0|1", default_value_t = 1,
          value_parser = clap::value_parser!(u8).range(0..=1))]
    depth: u8,
    /// No progress and no summary unless something failed or was left (for cron).
    #[arg(long)]
    quiet: bool,
}

/// Exit codes of `smolweb sync`.
pub(super) mod exit {
    pub(crate) const OK: u8 = 0;
    pub(crate) const STORE: u8 = 1;
    pub(crate) const INVALID: u8 = 2;
    pub(crate) const FAILED: u8 = 3;
    pub(crate) const STOPPED: u8 = 4;
    pub(crate) const INTERRUPTED: u8 = 130;
}

pub(super) fn run(args: &super::Args, sync_args: &SyncArgs) -> Result<ExitCode> {
    let started = Instant::now();
    let client = match client(args) {
        Ok(c) => c,
        Err(code) => return Ok(ExitCode::from(code)),
    };
    let mut limits = Limits::from_config(&client, started);
    if let Some(secs) = sync_args.max_time {
        limits.deadline = (secs > 0).then(|| started + Duration::from_secs(secs));
    }
    if let Some(n) = sync_args.max_bytes {
        limits.max_bytes = (n > 0).then_some(n);
    }
    limits.follow_links = sync_args.depth > 0;
    let progress = !sync_args.quiet && std::io::stderr().is_terminal();
    let rt = super::runtime()?;
    let (stop_tx, stop) = tokio::sync::watch::channel(false);
    let report = rt.block_on(async {
        tokio::spawn(async move {
            if tokio::signal::ctrl_c().await.is_ok() {
                let _ = stop_tx.send(true);
            }
        });
        sync::run(&client, &limits, stop, |step| {
            if progress {
                show_step(step);
            }
        })
        .await
    });
    // What a stop left running (a DNS lookup on a blocking thread) is dropped, not awaited.
    rt.shutdown_timeout(Duration::from_millis(100));
    if progress {
        eprint!("\r\x1b[2K");
    }
    let report = match report {
        Ok(r) => r,
        Err(e) => {
            eprintln!("smolweb: sync: {e}");
            return Ok(ExitCode::from(exit::STORE));
        }
    };
    print_problems(&report, progress);
    let code = code_of(&report);
    if !(sync_args.quiet && code == exit::OK) {
        println!("{}", summary(&report, started.elapsed()));
    }
    Ok(ExitCode::from(code))
}

/// The client, or the exit code of why there is none (a bad config is 2, like a bad argument).
fn client(args: &super::Args) -> Result<Arc<Client>, u8> {
    let paths =
        Paths::resolve(args.data_dir.clone(), args.config.clone(), None, None).map_err(|e| {
            eprintln!("smolweb: {e}");
            exit::INVALID
        })?;
    if args.offline {
        eprintln!(
            "smolweb: sync fetches from the network for offline reading; --offline does not apply to it"
        );
        return Err(exit::INVALID);
    }
    let mut config = Config::load(&paths.config_file).map_err(|e| {
        eprintln!("smolweb: {e}");
        exit::INVALID
    })?;
    // `[offline] work_offline` keeps the browser and agents off the network; the sync is
    // what fills the cache they read meanwhile, so it runs online.
    config.offline.work_offline = false;
    match Client::new(config, paths, smolweb_client::Face::Human) {
        Ok(c) => Ok(Arc::new(c)),
        Err(e) => {
            eprintln!("smolweb: {e}");
            Err(exit::STORE)
        }
    }
}

fn show_step(step: Step) {
    let line = step_line(step);
    let mut err = std::io::stderr().lock();
    let _ = write!(err, "\r\x1b[2K{line}");
    let _ = err.flush();
}

/// The progress line of a step: where the run is, and the feed it waits on.
fn step_line(step: Step) -> String {
    match step {
        Step::Refreshing {
            done,
            total,
            waiting,
        } => {
            let mut line = format!("sync: refreshing feeds {done}/{total}");
            if let Some(url) = waiting {
                // A subscription URL is the person's own, but it may have come from a page.
                line.push_str(&format!(", waiting on {}", one_line(&url, Some(60))));
            }
            line
        }
        Step::Fetching { done, total, bytes } => {
            format!("sync: pages {done}/{total}, {}", human_bytes(bytes))
        }
    }
}

/// The exit code a report ends with (see the module docs).
fn code_of(r: &Report) -> u8 {
    match r.stopped {
        Some(Stopped::Interrupted) => exit::INTERRUPTED,
        Some(Stopped::Time | Stopped::Bytes) => exit::STOPPED,
        None if !r.feeds_failed.is_empty() || !r.failed.is_empty() => exit::FAILED,
        None => exit::OK,
    }
}

fn origin_word(o: Origin) -> &'static str {
    match o {
        Origin::Queued => "queued page",
        Origin::Entry => "entry",
        Origin::Link => "linked page",
    }
}

/// One line per failure on stderr (and the skipped pages too on a terminal). URLs and reasons
/// came from feeds and capsules: put on one safe line.
fn print_problems(r: &Report, terminal: bool) {
    for f in &r.feeds_failed {
        eprintln!(
            "smolweb: sync: feed {} failed: {}",
            sanitize_line(&f.url),
            sanitize_line(&f.why.to_string())
        );
    }
    for p in &r.failed {
        eprintln!(
            "smolweb: sync: {} {} failed: {}",
            origin_word(p.origin),
            sanitize_line(&p.url),
            sanitize_line(&p.why.to_string())
        );
    }
    for url in &r.dropped {
        eprintln!(
            "smolweb: sync: {} taken off the sync queue (it could not be kept)",
            sanitize_line(url)
        );
    }
    if terminal {
        for p in &r.skipped {
            eprintln!(
                "smolweb: sync: {} {} not kept: {}",
                origin_word(p.origin),
                sanitize_line(&p.url),
                sanitize_line(&p.why.to_string())
            );
        }
    }
}

/// The one-line summary: `sync: 2 of 3 feeds refreshed (1 failed), 12 new entries, 14 pages kept
/// (2.1 MiB), 2 queued pages fetched, 1 skipped, 4.2 s`, with the failed pages, the queued
/// pages given up and what a stop left when there are some.
fn summary(r: &Report, elapsed: Duration) -> String {
    let failed = r.feeds_failed.len();
    let mut s = if failed == 0 {
        format!("sync: {} refreshed", count(r.feeds, "feed", "feeds"))
    } else {
        // "1 feed refreshed (1 failed)" would say it was refreshed.
        format!(
            "sync: {} of {} refreshed ({failed} failed)",
            r.feeds - failed.min(r.feeds),
            count(r.feeds, "feed", "feeds")
        )
    };
    s.push_str(&format!(
        ", {}, {} ({}), {} fetched, {} skipped",
        count(r.new_entries, "new entry", "new entries"),
        count(r.kept, "page kept", "pages kept"),
        human_bytes(r.kept_bytes),
        count(r.queued_fetched, "queued page", "queued pages"),
        r.skipped.len()
    ));
    if !r.failed.is_empty() {
        s.push_str(&format!(", {} failed", r.failed.len()));
    }
    if !r.dropped.is_empty() {
        s.push_str(&format!(", {} taken off the queue", r.dropped.len()));
    }
    if let Some(why) = r.stopped {
        let what = match why {
            Stopped::Time => "stopped at the time bound",
            Stopped::Bytes => "stopped at the byte bound",
            Stopped::Interrupted => "interrupted",
        };
        s.push_str(&format!(", {what}"));
        let mut left = Vec::new();
        if r.feeds_left > 0 {
            left.push(count(r.feeds_left, "feed", "feeds"));
        }
        if r.left > 0 {
            left.push(count(r.left, "page", "pages"));
        }
        if !left.is_empty() {
            s.push_str(&format!(" with {} left", left.join(" and ")));
        }
    }
    s.push_str(&format!(", {}", human_duration(elapsed)));
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 33: the progress line said "refreshing feeds 3/4" with no word of the feed a
    /// slow run waits on.
    #[test]
    fn the_progress_names_the_feed_it_waits_on() {
        let step = Step::Refreshing {
            done: 3,
            total: 4,
            waiting: Some("gemini://slow.example/gemlog/\x1b[2J".into()),
        };
        let line = step_line(step);
        assert!(
            line.starts_with(
                "sync: refreshing feeds 3/4, waiting on gemini://slow.example/gemlog/"
            ),
            "{line}"
        );
        assert!(!line.contains('\x1b'), "{line:?}");
        let done = Step::Refreshing {
            done: 4,
            total: 4,
            waiting: None,
        };
        assert_eq!(step_line(done), "sync: refreshing feeds 4/4");
    }

    #[test]
    fn the_summary_says_what_was_done_failed_and_left() {
        let r = Report {
            feeds: 3,
            new_entries: 12,
            kept: 14,
            kept_bytes: 2_202_010,
            queued_fetched: 2,
            ..Report::default()
        };
        assert_eq!(
            summary(&r, Duration::from_millis(4200)),
            "sync: 3 feeds refreshed, 12 new entries, 14 pages kept (2.1 MiB), \
             2 queued pages fetched, 0 skipped, 4.2 s"
        );
        assert_eq!(code_of(&r), exit::OK);
        let r = Report {
            feeds: 1,
            left: 5,
            stopped: Some(Stopped::Bytes),
            ..Report::default()
        };
        assert_eq!(
            summary(&r, Duration::from_secs(12)),
            "sync: 1 feed refreshed, 0 new entries, 0 pages kept (0 B), 0 queued pages fetched, \
             0 skipped, stopped at the byte bound with 5 pages left, 12 s"
        );
        assert_eq!(code_of(&r), exit::STOPPED);
        let r = Report {
            feeds: 1,
            feeds_failed: vec![sync::FeedFailure {
                url: "gemini://example.org/".into(),
                why: smolweb_client::feeds::RefreshError::Stopped,
            }],
            ..Report::default()
        };
        assert!(
            summary(&r, Duration::from_secs(1))
                .starts_with("sync: 0 of 1 feed refreshed (1 failed), "),
            "{}",
            summary(&r, Duration::from_secs(1))
        );
    }
}
