//! What a package manager takes from the binary: `--version` with the commit when built from
//! git, `completions bash|zsh|fish` naming every subcommand, and `man`, a roff page naming the
//! commands and the environment.

use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    let dir = tempfile::tempdir().unwrap();
    Command::new(env!("CARGO_BIN_EXE_smolweb"))
        .arg("--data-dir")
        .arg(dir.path())
        .args(args)
        .env_remove("SMOLWEB_CONFIG")
        .env_remove("SMOLWEB_HOME")
        .output()
        .unwrap()
}

fn stdout(o: &Output) -> String {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout.clone()).unwrap()
}

/// The subcommands every generated file must name.
const SUBCOMMANDS: &[&str] = &[
    "get",
    "trust",
    "identity",
    "feeds",
    "config",
    "completions",
    "man",
];

fn git(args: &[&str]) -> Option<String> {
    let o = Command::new("git")
        .arg("-C")
        .arg(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .output()
        .ok()?;
    o.status
        .success()
        .then(|| String::from_utf8_lossy(&o.stdout).trim().to_string())
}

#[test]
fn version_names_the_release_and_the_commit_it_was_built_from() {
    let line = stdout(&run(&["--version"]));
    let line = line.trim_end();
    let version = env!("CARGO_PKG_VERSION");
    assert_eq!(version, "0.3.0");
    let in_git = git(&["rev-parse", "--show-toplevel"]).is_some_and(|top| {
        std::fs::canonicalize(top).ok() == std::fs::canonicalize(env!("CARGO_MANIFEST_DIR")).ok()
    });
    if !in_git {
        assert_eq!(line, format!("smolweb {version}"));
        return;
    }
    // smolweb 0.3.0 (0123456789[-dirty] 2026-12-02)
    let rest = line
        .strip_prefix(&format!("smolweb {version} ("))
        .and_then(|r| r.strip_suffix(')'))
        .unwrap_or_else(|| panic!("{line:?}"));
    let (commit, date) = rest.split_once(' ').unwrap_or_else(|| panic!("{line:?}"));
    let commit = commit.strip_suffix("-dirty").unwrap_or(commit);
    assert!(
        commit.len() >= 7 && commit.chars().all(|c| c.is_ascii_hexdigit()),
        "{line:?}"
    );
    let head = git(&["rev-parse", "HEAD"]).unwrap();
    assert!(head.starts_with(commit), "{line:?} is not HEAD {head}");
    let expected_date = git(&["log", "-1", "--format=%cs", "HEAD"]).unwrap();
    assert_eq!(date, expected_date, "{line:?}");
}

#[test]
fn completions_for_each_shell_name_every_subcommand() {
    for (shell, marker) in [
        ("bash", "complete -F _smolweb"),
        ("zsh", "#compdef smolweb"),
        ("fish", "complete -c smolweb"),
    ] {
        let text = stdout(&run(&["completions", shell]));
        assert!(text.contains(marker), "{shell}: {text}");
        for sub in SUBCOMMANDS {
            assert!(text.contains(sub), "{shell} lacks {sub}");
        }
        // Deeper levels too: `feeds add`, `config check`.
        assert!(text.contains("add") && text.contains("check"), "{shell}");
    }
    let o = run(&["completions", "powershell-of-the-future"]);
    assert_eq!(o.status.code(), Some(2), "clap refuses an unknown shell");
}

#[test]
fn man_page_is_roff_and_names_the_commands() {
    let page = stdout(&run(&["man"]));
    assert!(page.contains(".TH smolweb 1"), "{page}");
    for section in [
        ".SH NAME",
        ".SH SYNOPSIS",
        ".SH OPTIONS",
        ".SH SUBCOMMANDS",
        ".SH ENVIRONMENT",
        ".SH FILES",
        ".SH KEYS",
        ".SH \"EXIT STATUS\"",
        ".SH VERSION",
    ] {
        assert!(page.contains(section), "{section} missing: {page}");
    }
    for sub in SUBCOMMANDS {
        assert!(
            page.contains(&format!("smolweb\\-{sub}(1)")),
            "{sub} missing: {page}"
        );
    }
    for var in [
        "SMOLWEB_HOME",
        "SMOLWEB_CONFIG",
        "SMOLWEB_IMAGES",
        "SMOLWEB_LOG",
        "VISUAL, EDITOR",
        "BROWSER",
        "SSL_CERT_FILE",
        "SSL_CERT_DIR",
    ] {
        assert!(page.contains(&format!("\\fB{var}\\fR")), "{var} missing");
    }
    // Issue 33: the keys (as `?` lists them), the files, the exit status.
    assert!(page.contains(".SS \"Everywhere\""), "{page}");
    assert!(
        page.contains(".TP\n\\fBq, ctrl\\-c\\fR\nquit (quit)\n"),
        "{page}"
    );
    for file in [
        "known_hosts.toml",
        "history.toml",
        "session.toml",
        "identities",
    ] {
        assert!(page.contains(&format!("\\fB{file}\\fR")), "{file} missing");
    }
    assert!(
        page.contains(".TP\n\\fB6\\fR\nthe capsule asks for input (answer with \\-\\-input)\n"),
        "{page}"
    );
    // Every line is roff: a request, an escape or text that does not start with a quote.
    assert!(page.lines().all(|l| !l.starts_with('\'')), "{page}");
}

#[test]
fn man_lists_the_keys_the_config_sets() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("config.toml"),
        "[tui.keys]\nquit = [\"ctrl-q\"]\n",
    )
    .unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_smolweb"))
        .arg("--data-dir")
        .arg(dir.path())
        .arg("man")
        .env_remove("SMOLWEB_CONFIG")
        .env_remove("SMOLWEB_HOME")
        .output()
        .unwrap();
    let page = stdout(&o);
    assert!(
        page.contains(".TP\n\\fBctrl\\-q\\fR\nquit (quit)\n"),
        "{page}"
    );
    assert!(
        o.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn man_dir_writes_a_page_per_command() {
    let dir = tempfile::tempdir().unwrap();
    let pages = dir.path().join("man1");
    let listed = stdout(&run(&["man", "--dir", pages.to_str().unwrap()]));
    for name in [
        "smolweb.1",
        "smolweb-get.1",
        "smolweb-config.1",
        "smolweb-config-check.1",
        "smolweb-feeds-add.1",
        "smolweb-completions.1",
    ] {
        let path = pages.join(name);
        assert!(
            listed.contains(&path.display().to_string()),
            "{name}: {listed}"
        );
        let page = std::fs::read_to_string(&path).unwrap();
        assert!(page.contains(".TH "), "{name}: {page}");
    }
    assert!(!pages.join("smolweb-help.1").exists());
    // The main page is the one `smolweb man` prints.
    assert_eq!(
        std::fs::read_to_string(pages.join("smolweb.1")).unwrap(),
        stdout(&run(&["man"]))
    );
}

#[test]
fn a_reader_that_stops_early_is_not_a_crash() {
    use std::io::Read;
    for args in [
        &["completions", "bash"][..],
        &["completions", "fish"][..],
        &["man"][..],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_smolweb"))
            .args(args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        // Read one byte, then close the pipe: the rest of the write meets EPIPE.
        let mut stdout = child.stdout.take().unwrap();
        let mut first = [0u8; 1];
        stdout.read_exact(&mut first).unwrap();
        drop(stdout);
        let o = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert_eq!(o.status.code(), Some(0), "{args:?}: {stderr}");
    }
}

/// The CHANGELOG's newest release is the version the binary says it is: cutting a release
/// moves "Unreleased" under a version heading and bumps Cargo.toml together.
#[test]
fn the_newest_changelog_release_is_the_crate_version() {
    let log = include_str!("../../CHANGELOG.md");
    let newest = log
        .lines()
        .filter_map(|l| l.strip_prefix("## ["))
        .find(|l| !l.starts_with("Unreleased"))
        .and_then(|l| l.split(']').next())
        .expect("a release heading");
    assert_eq!(newest, env!("CARGO_PKG_VERSION"));
    assert!(
        log.contains("## [Unreleased]"),
        "an Unreleased section stays on top"
    );
}
