//! `smolweb config`: `path` says which file is read and why, `check` validates one (exit
//! code, the error once), `default` prints assets/config.example.toml byte for byte, and that
//! text parses to the defaults. An invalid config stops other commands with its error once.

use smolweb_client::config::Config;
use std::path::Path;
use std::process::{Command, Output};

const EXAMPLE: &str = include_str!("../../assets/config.example.toml");

/// The binary with a clean environment: HOME in `home` (so the platform default path is
/// under it, never the real one), no SMOLWEB_* and no XDG config directory.
fn smolweb(home: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_smolweb"));
    c.env_remove("SMOLWEB_CONFIG")
        .env_remove("SMOLWEB_HOME")
        .env_remove("XDG_CONFIG_HOME")
        .env_remove("XDG_DATA_HOME")
        .env("HOME", home);
    c
}

fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn default_prints_the_example_file_which_is_the_defaults() {
    let dir = tempfile::tempdir().unwrap();
    let o = smolweb(dir.path())
        .args(["config", "default"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", err(&o));
    assert_eq!(
        out(&o),
        EXAMPLE,
        "config default is assets/config.example.toml"
    );
    assert_eq!(Config::from_toml(&out(&o)).unwrap(), Config::default());
    // Every key is a real key: the parse refuses unknown ones, so a key that is not one
    // would have failed above; and the example sets some in every section.
    assert!(EXAMPLE.lines().filter(|l| l.starts_with('[')).count() >= 5);
}

#[test]
fn check_says_valid_or_gives_the_error_once() {
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("good.toml");
    std::fs::write(&good, EXAMPLE).unwrap();
    let o = smolweb(dir.path())
        .args(["config", "check"])
        .arg(&good)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(out(&o), format!("{}: valid\n", good.display()));

    let bad = dir.path().join("bad.toml");
    std::fs::write(&bad, "[network]\ntimeout_secondz = 3\n").unwrap();
    let o = smolweb(dir.path())
        .args(["config", "check"])
        .arg(&bad)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", err(&o));
    assert!(out(&o).is_empty(), "{}", out(&o));
    let e = err(&o);
    assert_eq!(e.matches("invalid config").count(), 1, "{e}");
    assert_eq!(e.matches("timeout_secondz").count(), 1, "{e}");
    assert_eq!(e.lines().count(), 1, "{e}");

    let missing = dir.path().join("missing.toml");
    let o = smolweb(dir.path())
        .args(["config", "check"])
        .arg(&missing)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    let e = err(&o);
    assert!(e.contains("missing.toml"), "{e}");
    assert_eq!(e.lines().count(), 1, "{e}");

    // Without FILE: the file `config path` names; none there is the defaults, valid.
    let data = dir.path().join("data");
    let o = smolweb(dir.path())
        .arg("--data-dir")
        .arg(&data)
        .args(["config", "check"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(out(&o).contains("uses the defaults"), "{}", out(&o));
    let o = smolweb(dir.path())
        .env("SMOLWEB_CONFIG", &bad)
        .args(["config", "check"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", out(&o));
}

#[test]
fn path_says_which_file_and_why() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("given.toml");
    std::fs::write(&file, "").unwrap();
    let path = |cmd: &mut Command| {
        let o = cmd.args(["config", "path"]).output().unwrap();
        assert!(o.status.success(), "{}", err(&o));
        let text = out(&o);
        let mut lines = text.lines();
        let (a, b) = (lines.next().unwrap(), lines.next().unwrap());
        (a.to_string(), b.to_string())
    };
    let (p, why) = path(smolweb(dir.path()).arg("--config").arg(&file));
    assert_eq!(p, file.display().to_string());
    assert_eq!(why, "given with --config; this file is read");
    let (p, why) = path(smolweb(dir.path()).env("SMOLWEB_CONFIG", &file));
    assert_eq!(p, file.display().to_string());
    assert_eq!(why, "given by SMOLWEB_CONFIG; this file is read");
    // The flag wins over the variable, and says so.
    let other = dir.path().join("other.toml");
    let (p, why) = path(
        smolweb(dir.path())
            .env("SMOLWEB_CONFIG", &file)
            .arg("--config")
            .arg(&other),
    );
    assert_eq!(p, other.display().to_string());
    assert!(why.starts_with("given with --config;") && why.contains("using the defaults"));
    let data = dir.path().join("data");
    let (p, why) = path(smolweb(dir.path()).arg("--data-dir").arg(&data));
    assert_eq!(p, data.join("config.toml").display().to_string());
    assert!(
        why.contains("data directory") && why.ends_with("using the defaults"),
        "{why}"
    );
    let (p, why) = path(&mut smolweb(dir.path()));
    assert_eq!(
        p,
        dir.path()
            .join(".config/smolweb/config.toml")
            .display()
            .to_string()
    );
    assert_eq!(
        why,
        "the default path; it does not exist, so none is read: using the defaults"
    );
}

#[test]
fn an_invalid_config_stops_a_command_with_its_error_once() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.toml");
    std::fs::write(&bad, "[tui]\nhome = 3\n").unwrap();
    let o = smolweb(dir.path())
        .arg("--data-dir")
        .arg(dir.path().join("data"))
        .arg("--config")
        .arg(&bad)
        .args(["get", "about:home"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    let e = err(&o);
    assert_eq!(e.matches("invalid config").count(), 1, "{e}");
    assert_eq!(e.lines().count(), 1, "{e}");

    // A config that cannot be read (here a directory): its reason once, for a command and
    // for `config check`.
    let unreadable = dir.path().join("a-directory");
    std::fs::create_dir(&unreadable).unwrap();
    for args in [vec!["get", "about:home"], vec!["config", "check"]] {
        let o = smolweb(dir.path())
            .arg("--data-dir")
            .arg(dir.path().join("data"))
            .arg("--config")
            .arg(&unreadable)
            .args(&args)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        let e = err(&o);
        assert_eq!(e.matches("cannot read config").count(), 1, "{args:?}: {e}");
        assert_eq!(e.matches("Is a directory").count(), 1, "{args:?}: {e}");
        assert_eq!(e.lines().count(), 1, "{args:?}: {e}");
    }
}
