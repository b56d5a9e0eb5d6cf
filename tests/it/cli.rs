//! The human's own commands through the real binary: `get` on built-in pages and bad input,
//! `identity` create/list/agent-use/export/remove, `trust` list/remove, and the approval
//! queue an agent fills (approve performs the change, deny drops it).

use smolweb_store::approvals::{Approvals, Request};
use smolweb_store::identity::Scope;
use smolweb_store::tofu::KnownHosts;
use std::path::Path;
use std::process::{Command, Output};

fn run(data: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_smolweb"))
        .arg("--data-dir")
        .arg(data)
        .args(args)
        .env_remove("SMOLWEB_CONFIG")
        .env_remove("SMOLWEB_HOME")
        .output()
        .unwrap()
}

fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn get_prints_the_offline_start_page_with_numbered_links() {
    let dir = tempfile::tempdir().unwrap();
    let o = run(dir.path(), &["get", "about:home"]);
    assert!(o.status.success(), "{}", err(&o));
    assert!(out(&o).starts_with("# smolweb"), "{}", out(&o));
    assert!(out(&o).contains("[1] "), "{}", out(&o));
    let raw = run(dir.path(), &["get", "about:home", "--raw"]);
    assert!(out(&raw).contains("=> about:bookmarks"), "{}", out(&raw));
}

#[test]
fn get_reports_bad_input_on_stderr_with_its_exit_code() {
    let dir = tempfile::tempdir().unwrap();
    for (url, code) in [
        ("ftp://example.org/", 2),
        ("gemini://user@example.org/", 2),
        ("gopher://example.org/8telnet", 2),
        ("not a url at all", 2),
    ] {
        let o = run(dir.path(), &["get", url]);
        assert_eq!(o.status.code(), Some(code), "{url}: {}", err(&o));
        assert!(out(&o).is_empty(), "{url}: stdout should be empty");
        assert!(err(&o).contains("INVALID_REQUEST") || err(&o).contains("NOT_FETCHABLE"));
    }
}

#[test]
fn identity_lifecycle_through_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let o = run(
        d,
        &[
            "identity",
            "create",
            "gemini://example.org/app",
            "--name",
            "me",
            "--days",
            "30",
        ],
    );
    assert!(o.status.success(), "{}", err(&o));
    let fp = out(&o)
        .split_whitespace()
        .find(|w| w.starts_with("sha256:"))
        .unwrap()
        .to_string();

    let list = out(&run(d, &["identity", "list"]));
    assert!(
        list.contains(&fp) && list.contains("gemini://example.org/app"),
        "{list}"
    );
    assert!(list.contains("agents may use it"), "{list}");

    let o = run(d, &["identity", "agent-use", &fp, "false"]);
    assert!(o.status.success(), "{}", err(&o));
    assert!(out(&run(d, &["identity", "list"])).contains("agents may not use it"));

    let export = d.join("export");
    std::fs::create_dir_all(&export).unwrap();
    let o = run(d, &["identity", "export", &fp, export.to_str().unwrap()]);
    assert!(o.status.success(), "{}", err(&o));
    let key = std::fs::read_to_string(export.join("me.key")).unwrap();
    assert!(key.contains("PRIVATE KEY"));

    let o = run(d, &["identity", "remove", &fp]);
    assert!(o.status.success(), "{}", err(&o));
    assert!(out(&run(d, &["identity", "list"])).contains("no identities"));
    let o = run(d, &["identity", "remove", &fp]);
    assert!(!o.status.success(), "removing twice must fail");
}

#[test]
fn approvals_an_agent_queued_are_performed_or_dropped_by_the_human() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let now = time::OffsetDateTime::now_utc();
    let approvals = Approvals::new(d.join("approvals.toml"));
    let scope = Scope {
        host: "capsule.example".into(),
        port: 1965,
        path: "/private".into(),
    };
    let ask = approvals
        .add(
            Request::IdentityCreate {
                scope: scope.clone(),
                name: "agent-login".into(),
            },
            "test-agent",
            now,
        )
        .unwrap();
    let pin = approvals
        .add(
            Request::TrustPin {
                host: "capsule.example".into(),
                port: 1965,
                fingerprint: format!("sha256:{}", "ab".repeat(32)),
            },
            "test-agent",
            now,
        )
        .unwrap();

    let pending = out(&run(d, &["identity", "pending"]));
    assert!(
        pending.contains(&ask.id) && pending.contains("test-agent"),
        "{pending}"
    );
    assert!(
        !pending.contains(&pin.id),
        "trust requests are listed under trust"
    );

    // The wrong command for the kind of request is refused and changes nothing.
    let o = run(d, &["trust", "approve", &ask.id]);
    assert!(!o.status.success());

    let o = run(d, &["identity", "approve", &ask.id]);
    assert!(o.status.success(), "{}", err(&o));
    let list = out(&run(d, &["identity", "list"]));
    assert!(
        list.contains("agent-login") && list.contains("an agent"),
        "{list}"
    );
    assert!(list.contains("gemini://capsule.example/private"), "{list}");

    let o = run(d, &["trust", "deny", &pin.id]);
    assert!(o.status.success(), "{}", err(&o));
    assert!(out(&run(d, &["trust", "pending"])).contains("no pending requests"));
    let pins = KnownHosts::new(d.join("known_hosts.toml")).list().unwrap();
    assert!(pins.is_empty(), "a denied pin must not be written");
}

#[test]
fn trust_remove_forgets_a_pin() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let fp = format!("sha256:{}", "cd".repeat(32));
    let kh = KnownHosts::new(d.join("known_hosts.toml"));
    kh.pin_fingerprint(
        "capsule.example",
        1965,
        &fp,
        time::OffsetDateTime::now_utc(),
    )
    .unwrap();
    assert!(out(&run(d, &["trust", "list"])).contains(&fp));
    let o = run(d, &["trust", "remove", "capsule.example"]);
    assert!(o.status.success(), "{}", err(&o));
    assert!(kh.list().unwrap().is_empty());
    let o = run(d, &["trust", "remove", "capsule.example"]);
    assert_eq!(o.status.code(), Some(1));
}

#[test]
fn an_invalid_config_is_reported_once() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("config.toml");
    std::fs::write(&config, "[network]\nbogus = 1\n").unwrap();
    let config = config.to_string_lossy().into_owned();
    for args in [
        vec!["--config", &config, "get", "about:home"],
        vec!["--config", &config, "feeds", "list"],
    ] {
        let o = run(dir.path(), &args);
        assert!(!o.status.success(), "{args:?}");
        let e = err(&o);
        assert_eq!(e.matches("unknown field `bogus`").count(), 1, "{e}");
        assert_eq!(e.matches("expected one of").count(), 1, "{e}");
        assert_eq!(e.lines().count(), 1, "one line: {e}");
    }
}
