//! What a package manager takes from the binary: the version string (with the commit when
//! built from git, see build.rs), shell completions (clap_complete) and the manual page
//! (clap_mangen), all written to stdout.

use super::Args;
use anyhow::{Context, Result};
use clap::{CommandFactory, ValueEnum};
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

/// `0.3.0 (<commit>[-dirty] <date>)` from a git checkout, else the package version.
pub(crate) const VERSION: &str = env!("SMOLWEB_VERSION");

/// The shells `smolweb completions` writes for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum Shell {
    /// bash (bash-completion).
    Bash,
    /// zsh (a `_smolweb` file for `$fpath`).
    Zsh,
    /// fish (a `smolweb.fish` file).
    Fish,
}

/// Write the completion script for `shell` to stdout.
pub(crate) fn completions(shell: Shell) -> Result<ExitCode> {
    let shell = match shell {
        Shell::Bash => clap_complete::Shell::Bash,
        Shell::Zsh => clap_complete::Shell::Zsh,
        Shell::Fish => clap_complete::Shell::Fish,
    };
    // Into memory first: clap_complete panics when its writer fails (`| head`).
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut Args::command(), "smolweb", &mut script);
    write_stdout(&script)?;
    Ok(ExitCode::SUCCESS)
}

/// Write `bytes` to stdout; a reader that went away (`| head`) is not an error.
pub(crate) fn write_stdout(bytes: &[u8]) -> Result<()> {
    let mut out = std::io::stdout().lock();
    match out.write_all(bytes).and_then(|()| out.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => Ok(other?),
    }
}

/// The environment variables smolweb reads, for the manual page.
const ENVIRONMENT: &[(&str, &str)] = &[
    (
        "SMOLWEB_HOME",
        "The data directory (as --data-dir): pins, identities, approvals, bookmarks, history, feeds.",
    ),
    ("SMOLWEB_CONFIG", "The config file (as --config)."),
    (
        "SMOLWEB_LOG",
        "What is logged, as a tracing filter (e.g. smolweb=debug); dependencies stay capped at warnings.",
    ),
    (
        "SSL_CERT_FILE",
        "A PEM file of trusted roots for https; with SSL_CERT_DIR it replaces the system store (the bundled WebPKI roots and web.extra_root_certificates stay).",
    ),
    (
        "SSL_CERT_DIR",
        "Directories (separated by :) of PEM root certificates for https, as for SSL_CERT_FILE.",
    ),
];

/// The command as the manual pages describe it (no `help` subcommand: `--help` is there).
fn documented() -> clap::Command {
    let mut cmd = Args::command().disable_help_subcommand(true);
    cmd.build();
    cmd
}

/// The main manual page (roff, section 1): clap_mangen's sections plus the environment and
/// the files.
fn main_page() -> Result<Vec<u8>> {
    let man = clap_mangen::Man::new(documented());
    let mut page = Vec::new();
    man.render_title(&mut page)?;
    man.render_name_section(&mut page)?;
    man.render_synopsis_section(&mut page)?;
    man.render_description_section(&mut page)?;
    man.render_options_section(&mut page)?;
    man.render_subcommands_section(&mut page)?;
    page.extend_from_slice(b".SH ENVIRONMENT\n");
    for (name, what) in ENVIRONMENT {
        page.extend_from_slice(format!(".TP\n\\fB{name}\\fR\n{}\n", roff_text(what)).as_bytes());
    }
    page.extend_from_slice(
        format!(
            ".SH FILES\n.TP\n\\fBconfig.toml\\fR\n{}\n",
            roff_text(
                "The config file: smolweb config path says which one is read and why, \
                 smolweb config check validates it, smolweb config default prints the \
                 documented example with every key at its default."
            )
        )
        .as_bytes(),
    );
    man.render_version_section(&mut page)?;
    Ok(page)
}

/// `smolweb man`: the main page to stdout; with `dir`, every page (smolweb.1 and one per
/// subcommand, smolweb-get.1, smolweb-feeds-add.1, ...) written there, their paths printed.
pub(crate) fn man(dir: Option<&Path>) -> Result<ExitCode> {
    let Some(dir) = dir else {
        write_stdout(&main_page()?)?;
        return Ok(ExitCode::SUCCESS);
    };
    let mut out = std::io::stdout().lock();
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let main = dir.join("smolweb.1");
    std::fs::write(&main, main_page()?)
        .with_context(|| format!("cannot write {}", main.display()))?;
    writeln!(out, "{}", main.display())?;
    fn pages(cmd: &clap::Command, dir: &Path, out: &mut impl Write) -> Result<()> {
        for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
            let path = clap_mangen::Man::new(sub.clone())
                .generate_to(dir)
                .with_context(|| format!("cannot write a page into {}", dir.display()))?;
            writeln!(out, "{}", path.display())?;
            pages(sub, dir, out)?;
        }
        Ok(())
    }
    pages(&documented(), dir, &mut out)?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// Text safe inside a roff paragraph: backslashes doubled, a leading `.` or `'` escaped.
fn roff_text(text: &str) -> String {
    let text = text.replace('\\', "\\\\").replace('-', "\\-");
    match text.chars().next() {
        Some('.') | Some('\'') => format!("\\&{text}"),
        _ => text,
    }
}

#[cfg(test)]
mod tests {
    use super::roff_text;

    #[test]
    fn roff_text_escapes_what_roff_would_read_as_markup() {
        assert_eq!(roff_text(".hidden"), "\\&.hidden");
        assert_eq!(roff_text("a\\b --x"), "a\\\\b \\-\\-x");
        assert_eq!(roff_text("plain"), "plain");
    }
}
