//! Configuration: defaults, every key, rejected input, the example file, and path resolution.

use smolweb_client::config::{Config, ConfigError};
use smolweb_store::identity::KeyAlgorithm;
use smolweb_store::paths::Paths;
use std::path::PathBuf;

const EXAMPLE: &str = include_str!("../../../../assets/config.example.toml");

#[test]
fn empty_text_is_the_defaults() {
    let c = Config::from_toml("").unwrap();
    assert_eq!(c, Config::default());
    assert_eq!(c.network.timeout_seconds, 30);
    assert_eq!(c.network.max_response_bytes, 1024 * 1024);
    assert!(!c.network.allow_private_addresses);
    assert_eq!(c.politeness.per_host_interval_ms, 1000);
    assert!(c.politeness.respect_robots);
    assert_eq!(c.cache.ttl_seconds, 300);
    assert_eq!(c.mcp.max_rendered_chars, 50_000);
    assert_eq!(c.tofu.policy(), smolweb_store::tofu::TofuPolicy::default());
    assert_eq!(c.identity.days, 365);
    assert_eq!(
        KeyAlgorithm::from_name(&c.identity.algorithm),
        Some(KeyAlgorithm::EcdsaP256)
    );
    assert_eq!(c.tui.home, "about:home");
}

#[test]
fn every_key_parses() {
    let text = r##"
[network]
timeout_seconds = 5
max_response_bytes = 10
tui_max_response_bytes = 20
allow_private_addresses = true
allowed_hosts = ["localhost", "lan.example"]
allow_client_cert_over_tls12 = true
[politeness]
per_host_interval_ms = 0
respect_robots = false
tui_respect_robots = true
[cache]
ttl_seconds = 0
max_entries = 7
[mcp]
max_rendered_chars = 100
max_menu_items = 9
batch_concurrency = 2
[tofu]
accept_new_when_expired = false
refuse_not_yet_valid = false
refuse_expired = true
[identity]
days = 30
algorithm = "ed25519"
[tui]
text_width = 60
home = "gemini://example.org/"
external_command = "firefox"
downloads_dir = "/tmp/dl"
[tui.keys]
quit = ["q", "ctrl-c"]
[tui.theme]
link = "#ff8800"
[data]
loose_permissions = "warn"
"##;
    let c = Config::from_toml(text).unwrap();
    assert_eq!(c.network.timeout_seconds, 5);
    assert_eq!(c.network.max_response_bytes, 10);
    assert_eq!(c.network.tui_max_response_bytes, 20);
    assert!(c.network.allow_private_addresses);
    assert_eq!(c.network.allowed_hosts, vec!["localhost", "lan.example"]);
    assert!(c.network.allow_client_cert_over_tls12);
    assert_eq!(c.politeness.per_host_interval_ms, 0);
    assert!(!c.politeness.respect_robots);
    assert!(c.politeness.tui_respect_robots);
    assert_eq!((c.cache.ttl_seconds, c.cache.max_entries), (0, 7));
    assert_eq!(
        (
            c.mcp.max_rendered_chars,
            c.mcp.max_menu_items,
            c.mcp.batch_concurrency
        ),
        (100, 9, 2)
    );
    assert!(
        !c.tofu.accept_new_when_expired && !c.tofu.refuse_not_yet_valid && c.tofu.refuse_expired
    );
    assert_eq!(c.identity.days, 30);
    assert_eq!(
        KeyAlgorithm::from_name(&c.identity.algorithm),
        Some(KeyAlgorithm::Ed25519)
    );
    assert_eq!(c.tui.text_width, 60);
    assert_eq!(c.tui.home, "gemini://example.org/");
    assert_eq!(c.tui.external_command, "firefox");
    assert_eq!(c.tui.downloads_dir, "/tmp/dl");
    assert_eq!(c.tui.keys["quit"], vec!["q", "ctrl-c"]);
    assert_eq!(c.tui.theme.colours["link"], "#ff8800");
    assert_eq!(c.data.loose_permissions, smolweb_store::perms::Loose::Warn);
    assert_eq!(
        c.tui.theme.base, "auto",
        "a table without a base keeps auto"
    );
    // The base alone, as a string, or in the table beside the colours.
    let c = Config::from_toml("[tui]\ntheme = \"light\"\n").unwrap();
    assert_eq!(
        (c.tui.theme.base.as_str(), c.tui.theme.colours.len()),
        ("light", 0)
    );
    let c = Config::from_toml("[tui.theme]\nbase = \"dark\"\nquote = \"red\"\n").unwrap();
    assert_eq!(c.tui.theme.base, "dark");
    assert_eq!(c.tui.theme.colours.len(), 1);
    let c = Config::from_toml("[tui]\nrestore_session = false\n").unwrap();
    assert!(!c.tui.restore_session && !c.tui.restore_private_pages);
    // Anything not mentioned keeps its default.
    let partial = Config::from_toml("[cache]\nttl_seconds = 1\n").unwrap();
    assert_eq!(partial.cache.max_entries, 1000);
    assert_eq!(partial.network, Config::default().network);
}

#[test]
fn unknown_keys_are_rejected_by_name() {
    for (text, name) in [
        ("[network]\ntimeoutt = 3\n", "timeoutt"),
        ("[netwerk]\ntimeout_seconds = 3\n", "netwerk"),
        ("verbose = true\n", "verbose"),
        ("[tofu]\nrefuse_all = true\n", "refuse_all"),
    ] {
        let err = Config::from_toml(text).unwrap_err().to_string();
        assert!(err.contains(name), "{name} not named in: {err}");
    }
}

#[test]
fn wrong_types_are_rejected() {
    for text in [
        "[network]\ntimeout_seconds = \"30\"\n",
        "[network]\nallowed_hosts = \"localhost\"\n",
        "[cache]\nmax_entries = -1\n",
        "[tui]\ntext_width = 70000\n",
        "[tofu]\nrefuse_expired = 1\n",
        "[data]\nloose_permissions = \"ignore\"\n",
        "network = 3\n",
    ] {
        assert!(Config::from_toml(text).is_err(), "accepted: {text}");
    }
}

#[test]
fn load_missing_file_gives_defaults_and_broken_file_names_it() {
    let tmp = tempfile::tempdir().unwrap();
    let missing = tmp.path().join("none.toml");
    assert_eq!(Config::load(&missing).unwrap(), Config::default());
    let broken = tmp.path().join("broken-config.toml");
    std::fs::write(&broken, "[network\n").unwrap();
    let err = Config::load(&broken).unwrap_err();
    assert!(matches!(err, ConfigError::Invalid { .. }));
    assert!(err.to_string().contains("broken-config.toml"), "{err}");
    let good = tmp.path().join("good.toml");
    std::fs::write(&good, "[tui]\ntext_width = 72\n").unwrap();
    assert_eq!(Config::load(&good).unwrap().tui.text_width, 72);
}

#[test]
fn example_file_is_exactly_the_defaults() {
    assert_eq!(Config::from_toml(EXAMPLE).unwrap(), Config::default());
}

#[test]
fn example_file_documents_every_knob() {
    let value = toml::Value::try_from(Config::default()).unwrap();
    let sections = value.as_table().unwrap();
    assert!(!sections.is_empty());
    for (section, fields) in sections {
        let header = format!("[{section}]");
        let start = EXAMPLE.find(&header);
        assert!(start.is_some(), "{header} missing from the example");
        let start = start.unwrap();
        // The section's text runs to the next top-level section header.
        let rest = &EXAMPLE[start + header.len()..];
        let end = sections
            .keys()
            .filter_map(|s| rest.find(&format!("\n[{s}]")))
            .min()
            .unwrap_or(rest.len());
        let body = &rest[..end];
        for key in fields.as_table().unwrap().keys() {
            let documented = body.contains(&format!("\n{key} = "))
                || body.contains(&format!("[{section}.{key}]"));
            assert!(documented, "{section}.{key} missing from the example");
        }
    }
}

fn p(s: &str) -> Option<PathBuf> {
    Some(PathBuf::from(s))
}

#[test]
fn explicit_data_dir_beats_env() {
    let got = Paths::resolve(p("/x/data"), None, p("/env/home"), None).unwrap();
    assert_eq!(got.data_dir, PathBuf::from("/x/data"));
    assert_eq!(got.config_file, PathBuf::from("/x/data/config.toml"));
    assert_eq!(got.downloads_dir, PathBuf::from("/x/data/downloads"));
    assert_eq!(got.known_hosts(), PathBuf::from("/x/data/known_hosts.toml"));
    assert_eq!(got.identities_dir(), PathBuf::from("/x/data/identities"));
    assert_eq!(got.approvals(), PathBuf::from("/x/data/approvals.toml"));
    assert_eq!(got.bookmarks(), PathBuf::from("/x/data/bookmarks.gmi"));
    assert_eq!(got.history(), PathBuf::from("/x/data/history.toml"));
    assert_eq!(
        got.subscriptions(),
        PathBuf::from("/x/data/subscriptions.toml")
    );
    assert_eq!(got.cache_dir, PathBuf::from("/x/data/cache"));
    assert_eq!(got.offline_dir(), PathBuf::from("/x/data/cache/offline"));
}

#[test]
fn env_home_is_used_without_explicit_dir() {
    let got = Paths::resolve(None, None, p("/env/home"), None).unwrap();
    assert_eq!(got.data_dir, PathBuf::from("/env/home"));
    assert_eq!(got.config_file, PathBuf::from("/env/home/config.toml"));
}

#[test]
fn config_precedence_explicit_then_env_then_data_dir() {
    let got = Paths::resolve(p("/d"), p("/c/explicit.toml"), None, p("/c/env.toml")).unwrap();
    assert_eq!(got.config_file, PathBuf::from("/c/explicit.toml"));
    let got = Paths::resolve(p("/d"), None, None, p("/c/env.toml")).unwrap();
    assert_eq!(got.config_file, PathBuf::from("/c/env.toml"));
    assert_eq!(got.data_dir, PathBuf::from("/d"));
}

#[test]
fn platform_dirs_are_used_only_without_overrides() {
    // Only computes paths (no file is touched); where there is no home, it is a clear error.
    match Paths::resolve(None, None, None, None) {
        Ok(got) => {
            assert!(got.data_dir.ends_with("smolweb"), "{:?}", got.data_dir);
            assert!(got.config_file.ends_with("config.toml"));
            assert_ne!(got.data_dir, PathBuf::from("/env/home"));
        }
        Err(e) => assert!(e.to_string().contains("SMOLWEB_HOME"), "{e}"),
    }
}

/// A config that is a link to a file that is not a config (the store's link tests, for the
/// config file): its first line must never be quoted.
#[cfg(unix)]
const SECRET_LINE: &str = "root:x:0:0:SECRET-FIRST-LINE-7f3a:/root:/bin/bash";
#[cfg(unix)]
const TARGET: &str = "root:x:0:0:SECRET-FIRST-LINE-7f3a:/root:/bin/bash\n\
                      => gemini://secret.example/ a bookmark-like line\n";

#[cfg(unix)]
#[test]
fn a_broken_config_names_its_key_and_position_but_never_quotes_a_line() {
    let tmp = tempfile::tempdir().unwrap();
    let target = tmp.path().join("passwd");
    std::fs::write(&target, TARGET).unwrap();
    let config = tmp.path().join("config.toml");
    std::os::unix::fs::symlink(&target, &config).unwrap();
    let err = Config::load(&config).unwrap_err();
    assert!(matches!(err, ConfigError::Invalid { .. }), "{err:?}");
    let text = err.to_string();
    assert!(
        text.contains("config.toml") && text.contains("line 1"),
        "{text}"
    );
    assert!(
        !text.contains(SECRET_LINE) && !text.contains("SECRET"),
        "{text}"
    );
    // A typo in the person's own file is still named.
    std::fs::remove_file(&config).unwrap();
    std::fs::write(&config, "[network]\ntimeoutt = 3\n").unwrap();
    let text = Config::load(&config).unwrap_err().to_string();
    assert!(
        text.contains("`timeoutt`") && text.contains("line 2"),
        "{text}"
    );
    std::fs::write(&config, "[network]\nallowed_hosts = \"hunter2\"\n").unwrap();
    let text = Config::load(&config).unwrap_err().to_string();
    assert!(
        !text.contains("hunter2") && text.contains("line 2"),
        "{text}"
    );
}
