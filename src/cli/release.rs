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
        "SMOLWEB_IMAGES",
        "How the browser draws pictures, over [tui] images: auto, kitty, sixel, iterm2, halfblocks or off.",
    ),
    (
        "VISUAL, EDITOR",
        "The editor the browser starts for a long input answer (ctrl-e) and a Titan upload's text (VISUAL first, then EDITOR, else vi).",
    ),
    (
        "BROWSER",
        "Programs (separated by :) that open web links and the page in the external browser (E) when [tui] external_command is empty; xdg-open is tried last.",
    ),
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

/// `smolweb get`'s exit status, as the README's table says it (a test keeps them equal).
const EXIT_STATUS: &[(u8, &str)] = &[
    (super::exit::OK, "page printed"),
    (super::exit::FAILURE, "other failure"),
    (
        super::exit::INVALID,
        "invalid request (bad URL, unfetchable item type, web URL with user@host)",
    ),
    (
        super::exit::NETWORK,
        "network: DNS, connection, timeout, protocol (a redirect whose target is not a URL included), too large, slow down; web: too many redirects, a redirect loop, a broken answer",
    ),
    (
        super::exit::TLS,
        "TLS: handshake failure, changed / expired / not-yet-valid certificate, client certificate refused; web: a certificate no trusted root vouches for",
    ),
    (
        super::exit::REMOTE,
        "the capsule answered 4x or 5x; the web server answered 4xx or 5xx (`HTTP 404`, Retry-After quoted)",
    ),
    (
        super::exit::INPUT,
        "the capsule asks for input (answer with `--input`)",
    ),
    (
        super::exit::CERTIFICATE,
        "the capsule asks for a client certificate (6x)",
    ),
    (
        super::exit::REDIRECT,
        "redirect not followed: to another host or scheme, or refused for where it leads (a `file:` or `javascript:` URL; on the web, anything but http and https)",
    ),
    (
        super::exit::BLOCKED,
        "blocked by policy (address guard or robots.txt), a redirect's target included",
    ),
];

/// The other commands' codes, said after `get`'s.
const OTHER_EXIT_STATUS: &str = "smolweb feeds: 0 done, 1 the subscriptions file could not be read or written, 2 a bad URL or a feed you do not follow, 3 a feed could not be fetched or read. smolweb sync: 0 all done, 1 a store could not be read or written, 2 a bad config or argument, 3 some feeds or pages failed, 4 stopped by --max-time or --max-bytes with work left, 130 stopped by Ctrl-C. smolweb tour: 0 done, 1 the tour could not be read or written, 2 a link could not go on it, 3 next found the tour empty. The browser and the other commands: 0, or 1 with the error on stderr.";

/// The command as the manual pages describe it (no `help` subcommand: `--help` is there).
fn documented() -> clap::Command {
    let mut cmd = Args::command().disable_help_subcommand(true);
    cmd.build();
    cmd
}

/// The main manual page (roff, section 1): clap_mangen's sections, then the browser's keys
/// (from `keymap`, as its help page lists them), the files, the environment and the exit
/// status.
fn main_page(keymap: &smolweb_tui::keymap::Keymap) -> Result<Vec<u8>> {
    let man = clap_mangen::Man::new(documented());
    let mut page = Vec::new();
    man.render_title(&mut page)?;
    man.render_name_section(&mut page)?;
    man.render_synopsis_section(&mut page)?;
    man.render_description_section(&mut page)?;
    man.render_options_section(&mut page)?;
    man.render_subcommands_section(&mut page)?;
    let mut add = |text: String| page.extend_from_slice(text.as_bytes());
    add(keys_section(keymap));
    add(files_section());
    add(".SH ENVIRONMENT\n".into());
    for (name, what) in ENVIRONMENT {
        add(tagged(name, what));
    }
    add(".SH \"EXIT STATUS\"\nsmolweb get:\n".into());
    for (code, what) in EXIT_STATUS {
        add(tagged(&code.to_string(), &what.replace('`', "")));
    }
    add(format!(".PP\n{}\n", roff_text(OTHER_EXIT_STATUS)));
    man.render_version_section(&mut page)?;
    Ok(page)
}

/// KEYS: the browser's keys by place, with their config names.
fn keys_section(keymap: &smolweb_tui::keymap::Keymap) -> String {
    let mut out = String::from(".SH KEYS\n");
    out.push_str(&format!(
        "{}\n",
        roff_text(
            "The browser's keys (smolweb [URL]); [tui.keys] in the config file maps an action \
             name to a list of keys, e.g. quit = [\"q\", \"ctrl-q\"]. ? in the browser lists them too."
        )
    ));
    for (keys, what) in smolweb_tui::keymap::NOT_ACTIONS {
        out.push_str(&tagged(keys, what));
    }
    for (title, rows) in keymap.sections() {
        out.push_str(&format!(".SS \"{}\"\n", roff_text(title)));
        for (keys, help, name) in rows {
            out.push_str(&tagged(&keys, &format!("{help} ({name})")));
        }
    }
    out
}

/// A tagged paragraph: `term` in bold, `text` under it, both made safe for roff.
fn tagged(term: &str, text: &str) -> String {
    format!(".TP\n\\fB{}\\fR\n{}\n", roff_text(term), roff_text(text))
}

/// FILES: the config file, and what the data, cache and downloads directories hold.
fn files_section() -> String {
    use smolweb_store::files;
    let mut out = String::from(".SH FILES\n");
    out.push_str(&tagged(
        "config.toml",
        "The config file (--config, SMOLWEB_CONFIG, else config.toml in the platform config \
         directory, e.g. ~/.config/smolweb): smolweb config path says which one is read and \
         why, smolweb config check validates it, smolweb config default prints the documented \
         example with every key at its default.",
    ));
    out.push_str(&tagged(
        "data directory",
        "--data-dir, SMOLWEB_HOME, else the platform data directory (e.g. \
         ~/.local/share/smolweb), shared by the browser and the MCP server. It holds:",
    ));
    for (name, what) in files::DESCRIBED {
        out.push_str(&tagged(name, what));
    }
    out.push_str(&tagged(
        "cache directory",
        "cache/ in the data directory when one was given, else the platform cache directory \
         (e.g. ~/.cache/smolweb): offline/ holds the offline copies of pages.",
    ));
    out.push_str(&tagged(
        "downloads",
        "[tui] downloads_dir, else downloads/ in a given data directory, else the platform \
         download directory.",
    ));
    out
}

/// `smolweb man`: the main page to stdout; with `dir`, every page (smolweb.1 and one per
/// subcommand, smolweb-get.1, smolweb-feeds-add.1, ...) written there, their paths printed.
pub(crate) fn man(dir: Option<&Path>, keymap: &smolweb_tui::keymap::Keymap) -> Result<ExitCode> {
    let Some(dir) = dir else {
        write_stdout(&main_page(keymap)?)?;
        return Ok(ExitCode::SUCCESS);
    };
    let mut out = std::io::stdout().lock();
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let main = dir.join("smolweb.1");
    std::fs::write(&main, main_page(keymap)?)
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
    use super::{EXIT_STATUS, roff_text};

    /// The manual's exit status is the README's table for `get`, row by row.
    #[test]
    fn the_exit_status_is_the_readmes_table() {
        let readme = include_str!("../../README.md");
        let at = readme
            .find("the exit code says what happened:")
            .expect("the README's get section");
        let rows: Vec<(u8, String)> = readme[at..]
            .lines()
            .skip_while(|l| !l.starts_with("| code |"))
            .skip(2)
            .take_while(|l| l.starts_with('|'))
            .filter_map(|l| {
                let mut cells = l.trim_matches('|').split(" | ");
                let code = cells.next()?.trim().parse().ok()?;
                Some((code, cells.next()?.trim().to_string()))
            })
            .collect();
        let ours: Vec<(u8, String)> = EXIT_STATUS
            .iter()
            .map(|(c, w)| (*c, w.to_string()))
            .collect();
        assert_eq!(rows, ours);
    }

    #[test]
    fn roff_text_escapes_what_roff_would_read_as_markup() {
        assert_eq!(roff_text(".hidden"), "\\&.hidden");
        assert_eq!(roff_text("a\\b --x"), "a\\\\b \\-\\-x");
        assert_eq!(roff_text("plain"), "plain");
    }
}
