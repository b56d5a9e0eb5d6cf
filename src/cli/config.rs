//! `smolweb config`: which file is read and why (`path`), is a file valid (`check`), and the
//! documented example with every key at its default (`default`, the very text of
//! assets/config.example.toml).

use super::Args;
use anyhow::Result;
use clap::Subcommand;
use clap::parser::ValueSource;
use smolweb_client::config::{Config, ConfigError};
use smolweb_store::paths::Paths;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The documented example config: every key, each at its default.
pub(crate) const EXAMPLE: &str = include_str!("../../assets/config.example.toml");

#[derive(Debug, Subcommand)]
pub(crate) enum ConfigCommand {
    /// Print the config file smolweb reads and why (--config, SMOLWEB_CONFIG, the default).
    Path,
    /// Check a config file (default: the one `config path` names); exit 0 when valid.
    Check {
        /// The file to check.
        file: Option<PathBuf>,
    },
    /// Print the documented example config (every key, each at its default).
    Default,
}

/// Why this config file is the one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Reason {
    Flag,
    Env,
    DataDir,
    Platform,
}

impl Reason {
    fn words(self) -> &'static str {
        match self {
            Reason::Flag => "given with --config",
            Reason::Env => "given by SMOLWEB_CONFIG",
            Reason::DataDir => "the default in the data directory (--data-dir or SMOLWEB_HOME)",
            Reason::Platform => "the default path",
        }
    }
}

/// Where `--config` (or `--data-dir`) came from: clap knows, from a fresh parse of this
/// process's arguments (the same ones that were parsed into `args`).
fn reason(args: &Args) -> Reason {
    use clap::CommandFactory;
    let matches = Args::command()
        .try_get_matches_from(std::env::args_os())
        .ok();
    let source = |id: &str| matches.as_ref().and_then(|m| sub_source(m, id));
    match (args.config.is_some(), source("config")) {
        (true, Some(ValueSource::EnvVariable)) => Reason::Env,
        (true, _) => Reason::Flag,
        (false, _) if args.data_dir.is_some() => Reason::DataDir,
        (false, _) => Reason::Platform,
    }
}

/// The source of a global argument, looked up where it was given (the innermost subcommand
/// holds the propagated value).
fn sub_source(m: &clap::ArgMatches, id: &str) -> Option<ValueSource> {
    let mut m = m;
    let mut found = m.value_source(id);
    while let Some((_, sub)) = m.subcommand() {
        m = sub;
        if let Some(s) = m.value_source(id) {
            found = Some(s);
        }
    }
    found
}

fn config_file(args: &Args) -> Result<PathBuf> {
    let paths = Paths::resolve(args.data_dir.clone(), args.config.clone(), None, None)?;
    Ok(paths.config_file)
}

/// Run one `smolweb config` command.
pub(crate) fn run(args: &Args, cmd: &ConfigCommand) -> Result<ExitCode> {
    let mut out = std::io::stdout().lock();
    match cmd {
        ConfigCommand::Path => {
            let file = config_file(args)?;
            let why = reason(args).words();
            writeln!(out, "{}", file.display())?;
            if file.exists() {
                writeln!(out, "{why}; this file is read")?;
            } else {
                writeln!(
                    out,
                    "{why}; it does not exist, so none is read: using the defaults"
                )?;
            }
        }
        ConfigCommand::Check { file } => {
            let (path, explicit) = match file {
                Some(f) => (f.clone(), true),
                None => (config_file(args)?, false),
            };
            return check(&mut out, &path, explicit);
        }
        ConfigCommand::Default => {
            drop(out);
            super::release::write_stdout(EXAMPLE.as_bytes())?;
            return Ok(ExitCode::SUCCESS);
        }
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// Check one file: exit 0 and say so when valid; otherwise the error once on stderr and
/// exit 1. A missing file is an error when it was named, and the defaults otherwise.
fn check(out: &mut impl Write, path: &Path, explicit: bool) -> Result<ExitCode> {
    let missing = match std::fs::metadata(path) {
        Ok(_) => None,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Some(e),
        Err(_) => None,
    };
    let result = match missing {
        Some(_) if !explicit => {
            writeln!(
                out,
                "{}: no such file; smolweb uses the defaults",
                path.display()
            )?;
            return Ok(ExitCode::SUCCESS);
        }
        Some(source) => Err(ConfigError::Io {
            path: path.to_path_buf(),
            source,
        }),
        None => Config::load(path).map(|_| ()),
    };
    match result {
        Ok(()) => {
            writeln!(out, "{}: valid", path.display())?;
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            // Once: the error, then its cause (an I/O error's reason), as main prints them.
            eprintln!("smolweb: {:#}", anyhow::Error::from(e));
            Ok(ExitCode::from(super::exit::FAILURE))
        }
    }
}
