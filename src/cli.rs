//! Command-line parsing and the non-interactive commands. Output for a terminal or a pipe is
//! printed here (and only here); in `--mcp` mode nothing is printed to stdout.

use anyhow::{Context, Result, anyhow};
use clap::{Parser, Subcommand};
use smolweb_client::config::Config;
use smolweb_client::{Client, Face, OpenOptions, Outcome};
use smolweb_core::code::ErrorCode;
use smolweb_store::paths::Paths;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

mod agents;
mod bookmarks;
mod config;
mod feeds;
mod get;
mod manage;
mod mcp_http;
mod release;
mod rules;
mod search;
mod sync;
mod titan;
mod tour;

/// A terminal browser for Geminispace and Gopherspace, and an MCP server for agents.
#[derive(Debug, Parser)]
#[command(name = "smolweb", version = release::VERSION, about, long_about = None)]
pub(crate) struct Args {
    /// Run the MCP server on stdin/stdout (for AI agents).
    #[arg(long)]
    pub mcp: bool,
    /// With --mcp: serve MCP over Streamable HTTP at http://ADDR/mcp instead of stdio
    /// (default ADDR: mcp.http.bind, 127.0.0.1:8737; port 0 picks a free one).
    #[arg(long, value_name = "ADDR", requires = "mcp", num_args = 0..=1)]
    pub http: Option<Option<std::net::SocketAddr>>,
    /// With --http: allow an address other than loopback (other machines can connect).
    #[arg(long, requires = "http")]
    pub http_allow_remote: bool,
    /// The data directory shared by the browser and the MCP server (pins, identities, approvals).
    #[arg(long, global = true, env = "SMOLWEB_HOME", value_name = "DIR")]
    pub data_dir: Option<PathBuf>,
    /// The TOML config file.
    #[arg(long, global = true, env = "SMOLWEB_CONFIG", value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Work offline: fetch nothing, read only the pages kept offline (the browser, `get` and
    /// `--mcp`; the same as `[offline] work_offline = true`).
    #[arg(long, global = true)]
    pub offline: bool,
    /// Write logs to this file (default: stderr, warnings only).
    #[arg(long, global = true, value_name = "FILE")]
    pub log_file: Option<PathBuf>,
    /// The page to open in the browser (default: the configured home page).
    pub url: Option<String>,
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Print a page as readable text with numbered links (errors go to stderr).
    Get {
        url: String,
        /// Start at this character offset of the decoded body.
        #[arg(long, default_value_t = 0)]
        offset: usize,
        /// Answer to an input prompt (sent as the query).
        #[arg(long)]
        input: Option<String>,
        /// Search string for a Gopher search (type 7) item.
        #[arg(long)]
        search: Option<String>,
        /// Print the body bytes exactly as received.
        #[arg(long)]
        raw: bool,
        /// Web pages: print the whole page converted, not only its main content.
        #[arg(long)]
        full: bool,
        /// Do not follow redirects (by default same-host redirects are followed, up to 5).
        #[arg(long)]
        no_follow: bool,
        /// Wrap text to this many columns (preformatted text is left as it is).
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(20..))]
        width: Option<u16>,
    },
    /// Server certificates pinned on first use (shared with the MCP server).
    #[command(subcommand)]
    Trust(manage::TrustCommand),
    /// Client identities (certificates you present to capsules).
    #[command(subcommand)]
    Identity(manage::IdentityCommand),
    /// Subscriptions: gemlogs, Atom, RSS and JSON Feed (shared with the browser).
    #[command(subcommand)]
    Feeds(feeds::FeedsCommand),
    /// Refresh every feed and fetch the new entries and the queued pages into the offline
    /// cache (for cron or a systemd timer; safe while the browser runs).
    Sync(sync::SyncArgs),
    /// Standing permissions for agents to upload (Titan) under a capsule scope without asking.
    #[command(subcommand)]
    Titan(titan::TitanCommand),
    /// Bookmarks (shared with the browser): list them, or import amfora's or Lagrange's.
    #[command(subcommand)]
    Bookmarks(bookmarks::BookmarksCommand),
    /// The MCP server's settings (`smolweb --mcp` runs it).
    #[command(subcommand)]
    Mcp(mcp_http::McpCommand),
    /// The config file: which one is read and why, check one, print the documented default.
    #[command(subcommand)]
    Config(config::ConfigCommand),
    /// Print a shell completion script to stdout.
    Completions {
        /// The shell to complete for.
        #[arg(value_enum)]
        shell: release::Shell,
    },
    /// Print the manual page (roff) to stdout, or write every page into a directory.
    Man {
        /// Write smolweb.1 and a page per subcommand (smolweb-get.1, ...) into DIR.
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
    },
    /// What agents did in smolweb (`agents log`), for a terminal beside them.
    #[command(subcommand)]
    Agents(agents::AgentsCommand),
    /// The tour: links to read next, in order (shared with the browser and with agents).
    #[command(subcommand)]
    Tour(tour::TourCommand),
    /// Search what you and your agents read (the local index), or rebuild it (--reindex).
    Search(search::SearchArgs),
    /// Site rules: which part of a site's web pages the reader, `get` and agents keep.
    #[command(subcommand)]
    Rules(rules::RulesCommand),
}

/// Exit codes of `smolweb get`, one per class of outcome.
pub(crate) mod exit {
    pub(crate) const OK: u8 = 0;
    pub(crate) const FAILURE: u8 = 1;
    pub(crate) const INVALID: u8 = 2;
    pub(crate) const NETWORK: u8 = 3;
    pub(crate) const TLS: u8 = 4;
    pub(crate) const REMOTE: u8 = 5;
    pub(crate) const INPUT: u8 = 6;
    pub(crate) const CERTIFICATE: u8 = 7;
    pub(crate) const REDIRECT: u8 = 8;
    pub(crate) const BLOCKED: u8 = 9;
}

/// Install the log subscriber: `SMOLWEB_LOG` (an `EnvFilter`) or `default_level` chooses what
/// is recorded, under a cap that no setting lifts (see [`dependency_cap`]).
fn init_logging(log_file: Option<&PathBuf>, default_level: &str) -> Result<()> {
    use tracing_subscriber::filter::FilterExt;
    use tracing_subscriber::layer::SubscriberExt;
    use tracing_subscriber::util::SubscriberInitExt;
    let filter = tracing_subscriber::EnvFilter::try_from_env("SMOLWEB_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(default_level));
    let filter = filter.and(dependency_cap());
    let layer = tracing_subscriber::fmt::layer().with_ansi(false);
    match log_file {
        Some(path) => {
            let file = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .with_context(|| format!("cannot open log file {}", path.display()))?;
            let layer = layer.with_writer(std::sync::Mutex::new(file));
            tracing_subscriber::registry()
                .with(tracing_subscriber::Layer::with_filter(layer, filter))
                .try_init()?;
        }
        None => {
            let layer = layer.with_writer(std::io::stderr);
            tracing_subscriber::registry()
                .with(tracing_subscriber::Layer::with_filter(layer, filter))
                .try_init()?;
        }
    }
    Ok(())
}

/// The ceiling on what other crates may log, whatever `SMOLWEB_LOG` says. Dependencies print
/// whole protocol messages at debug/trace (rmcp: every JSON-RPC request, with a status-11
/// answer or a query in it; rustls: handshake and record details), and rmcp's info/warn lines
/// carry notifications and rejected requests. Only our own code (target `smolweb`), which
/// never logs an input, a query or key material, may log below `warn`; rmcp is held to
/// `error` (transport failures only). lopdf is silent: it logs a line per damaged object of a
/// PDF, so a hostile file could flood the log, and what matters reaches the caller as the
/// error of the fetch.
fn dependency_cap() -> tracing_subscriber::filter::Targets {
    use tracing_subscriber::filter::LevelFilter;
    tracing_subscriber::filter::Targets::new()
        .with_default(LevelFilter::WARN)
        .with_target("smolweb", LevelFilter::TRACE)
        .with_target("rmcp", LevelFilter::ERROR)
        .with_target("lopdf", LevelFilter::OFF)
}

fn make_client(args: &Args, face: Face) -> Result<Arc<Client>> {
    let paths = Paths::resolve(args.data_dir.clone(), args.config.clone(), None, None)?;
    let mut config = Config::load(&paths.config_file)?;
    if args.offline {
        config.offline.work_offline = true;
    }
    Ok(Arc::new(Client::new(config, paths, face)?))
}

/// The browser's keymap as the config sets it (the manual lists the keys the person has);
/// a config that cannot be read gives the default keys, said on stderr.
fn live_keymap(args: &Args) -> smolweb_tui::keymap::Keymap {
    let keys = Paths::resolve(args.data_dir.clone(), args.config.clone(), None, None)
        .map_err(anyhow::Error::from)
        .and_then(|p| Ok(Config::load(&p.config_file)?))
        .map_err(|e| e.to_string())
        .and_then(|c| {
            smolweb_tui::keymap::Keymap::from_config(&c.tui.keys).map_err(|e| e.to_string())
        });
    keys.unwrap_or_else(|e| {
        eprintln!("smolweb: the manual lists the default keys: {e}");
        smolweb_tui::keymap::Keymap::default()
    })
}

fn runtime() -> Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")
}

pub(crate) fn run(args: Args) -> Result<ExitCode> {
    if args.mcp && args.http.is_some() {
        init_logging(args.log_file.as_ref(), "warn")?;
        let client = make_client(&args, Face::Agent)?;
        return mcp_http::serve(client, &args);
    }
    if args.mcp {
        init_logging(args.log_file.as_ref(), "warn")?;
        let client = make_client(&args, Face::Agent)?;
        let rt = runtime()?;
        let served = rt.block_on(smolweb_mcp::run_stdio(client));
        // The client is gone: drop what is still running (a DNS lookup on a blocking thread
        // included) instead of waiting for it.
        rt.shutdown_timeout(std::time::Duration::from_millis(100));
        served.map_err(|e| anyhow!(e))?;
        return Ok(ExitCode::SUCCESS);
    }
    match &args.command {
        Some(Command::Get {
            url,
            offset,
            input,
            search,
            raw,
            full,
            no_follow,
            width,
        }) => {
            init_logging(args.log_file.as_ref(), "error")?;
            let client = make_client(&args, Face::Human)?;
            // "?words" goes to the configured search engine as its input. Bare words do not: on
            // a command line a mistyped address must fail as one, not become a query sent to a
            // public engine (the browser's address bar takes bare words).
            let asked = url.trim_start().starts_with('?');
            let (url, input) = match smolweb_client::search::engine_query(url) {
                Some(words) if asked && input.is_none() => (client.search_engine()?, Some(words)),
                _ => (url.clone(), input.clone()),
            };
            let url = &url;
            let opts = OpenOptions {
                input,
                search: search.clone(),
                web_full: *full,
                // The person typed this URL: a finger forward (user@host@host) is theirs.
                finger_forward: true,
                ..OpenOptions::default()
            };
            let outcome = runtime()?.block_on(async {
                if *no_follow {
                    client.open(url, &opts).await
                } else {
                    client.open_following(url, &opts, 5).await.0
                }
            });
            if let Outcome::Page { fetched, .. } = &outcome
                && client.working_offline()
                && let Some(at) = fetched.cached_at
            {
                let age = (client.now() - at).whole_seconds().max(0) as u64;
                eprintln!(
                    "offline copy, kept {} ago (downloaded {})",
                    smolweb_core::text::human_age(age),
                    smolweb_core::text::readable_time(at)
                );
            }
            Ok(ExitCode::from(get::print_outcome(
                &outcome,
                *offset,
                *raw,
                width.map(usize::from),
            )?))
        }
        Some(Command::Trust(cmd)) => {
            let client = make_client(&args, Face::Human)?;
            manage::trust(&client, cmd)
        }
        Some(Command::Identity(cmd)) => {
            let client = make_client(&args, Face::Human)?;
            manage::identity(&client, cmd)
        }
        Some(Command::Mcp(cmd)) => {
            let client = make_client(&args, Face::Human)?;
            mcp_http::command(&client, cmd)
        }
        Some(Command::Feeds(cmd)) => {
            init_logging(args.log_file.as_ref(), "error")?;
            let client = make_client(&args, Face::Human)?;
            feeds::run(&client, cmd)
        }
        Some(Command::Sync(sync_args)) => {
            init_logging(args.log_file.as_ref(), "error")?;
            sync::run(&args, sync_args)
        }
        Some(Command::Titan(cmd)) => {
            let client = make_client(&args, Face::Human)?;
            titan::run(&client, cmd)
        }
        Some(Command::Bookmarks(cmd)) => {
            init_logging(args.log_file.as_ref(), "error")?;
            let client = make_client(&args, Face::Human)?;
            bookmarks::run(&client, cmd)
        }
        Some(Command::Config(cmd)) => config::run(&args, cmd),
        Some(Command::Completions { shell }) => release::completions(*shell),
        Some(Command::Man { dir }) => release::man(dir.as_deref(), &live_keymap(&args)),
        Some(Command::Agents(cmd)) => {
            init_logging(args.log_file.as_ref(), "error")?;
            let client = make_client(&args, Face::Human)?;
            agents::run(&client, cmd)
        }
        Some(Command::Tour(cmd)) => {
            init_logging(args.log_file.as_ref(), "error")?;
            let client = make_client(&args, Face::Human)?;
            tour::run(&client, cmd)
        }
        Some(Command::Rules(cmd)) => {
            init_logging(args.log_file.as_ref(), "error")?;
            let client = make_client(&args, Face::Human)?;
            rules::run(&client, cmd)
        }
        Some(Command::Search(search_args)) => {
            init_logging(args.log_file.as_ref(), "error")?;
            let client = make_client(&args, Face::Human)?;
            search::run(&client, search_args)
        }
        None => {
            // Logs would corrupt the screen: only to a file, if asked.
            if args.log_file.is_some() {
                init_logging(args.log_file.as_ref(), "info")?;
            }
            let client = make_client(&args, Face::Human)?;
            runtime()?
                .block_on(smolweb_tui::run(client, args.url.clone()))
                .map_err(|e| anyhow!(e))?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// Used by `get` to say which outcome class ended the command.
pub(crate) fn outcome_code(outcome: &Outcome) -> u8 {
    match outcome {
        Outcome::Page { .. } => exit::OK,
        Outcome::Input { .. } => exit::INPUT,
        Outcome::Redirect { .. } => exit::REDIRECT,
        Outcome::Certificate { .. } => exit::CERTIFICATE,
        Outcome::Failure { .. } => exit::REMOTE,
        Outcome::Error { error, .. } if error.refused_redirect() => exit::REDIRECT,
        Outcome::Error { error, .. } => match error.code() {
            ErrorCode::InvalidRequest | ErrorCode::NotFetchable => exit::INVALID,
            ErrorCode::DnsError
            | ErrorCode::ConnectionError
            | ErrorCode::Timeout
            | ErrorCode::ProtocolError
            | ErrorCode::ResponseTooLarge
            | ErrorCode::SlowDown => exit::NETWORK,
            ErrorCode::TlsError
            | ErrorCode::CertificateChanged
            | ErrorCode::CertificateExpired
            | ErrorCode::CertificateNotYetValid
            | ErrorCode::ClientCertRefused => exit::TLS,
            ErrorCode::Blocked | ErrorCode::BlockedByRobots | ErrorCode::RobotsUnavailable => {
                exit::BLOCKED
            }
            _ => exit::FAILURE,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::Args;
    use clap::CommandFactory;

    #[test]
    fn command_line_definition_is_consistent() {
        Args::command().debug_assert();
    }
}
