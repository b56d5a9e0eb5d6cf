//! `smolweb get http(s)://…` through the real binary: the converted page with numbered links,
//! `--raw` bytes, binary bodies, and the exit codes of the web's outcomes.

use smolweb_testkit as support;

use std::path::Path;
use std::process::Output;
use support::http::{Reply, Server, TestCa};

const PAGE: &str = r#"<!doctype html><html><head><title>Tides</title></head><body>
<nav><a href="/">Home</a></nav><article><h1>Harbour tides</h1>
<p>The harbour fills slowly because the channel is long and narrow, and the water needs time to climb the shallow bar at its mouth, so boats wait outside.</p>
<p>Records kept over fifty years show the same delay in every season; read the <a href="/records">records</a> or the <a href="gemini://capsule.example/">capsule</a>.</p>
<ul><li>first point</li><li>second point</li></ul></article></body></html>"#;

async fn run(data: &Path, args: &[String]) -> Output {
    tokio::process::Command::new(env!("CARGO_BIN_EXE_smolweb"))
        .arg("--data-dir")
        .arg(data)
        .args(args)
        .env_remove("SMOLWEB_HOME")
        .env_remove("SMOLWEB_CONFIG")
        .output()
        .await
        .unwrap()
}

async fn server() -> Server {
    Server::start(|r| match r.path() {
        "/" => Reply::html(PAGE),
        "/png" => Reply::new(200, "image/png", vec![0x89, b'P', b'N', b'G', 1, 2, 3]),
        "/gone" => Reply::new(404, "text/html", "<p>not here</p>"),
        "/moved" => Reply::redirect(301, "/"),
        "/self" => Reply::redirect(302, "/self"),
        _ => Reply::new(404, "text/plain", ""),
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn get_prints_a_web_page_with_numbered_links() {
    let s = server().await;
    let dir = tempfile::tempdir().unwrap();
    let o = run(dir.path(), &["get".into(), s.url("/moved")]).await;
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{stdout}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(stdout.contains("# Harbour tides"), "{stdout}");
    assert!(stdout.contains("• first point"), "{stdout}");
    assert!(
        stdout.contains(&format!("[1] records <{}>", s.url("/records"))),
        "{stdout}"
    );
    assert!(
        stdout.contains("[2] capsule <gemini://capsule.example/>"),
        "{stdout}"
    );
    assert!(
        !stdout.contains("<nav>") && !stdout.contains("Home"),
        "{stdout}"
    );
    // --full: the whole page, its navigation too.
    let full = run(dir.path(), &["get".into(), "--full".into(), s.url("/")]).await;
    let full = String::from_utf8_lossy(&full.stdout);
    assert!(
        full.contains("Home") && full.contains("# Harbour tides"),
        "{full}"
    );
    let raw = run(dir.path(), &["get".into(), "--raw".into(), s.url("/")]).await;
    assert_eq!(raw.stdout, PAGE.as_bytes());
    let png = run(dir.path(), &["get".into(), "--raw".into(), s.url("/png")]).await;
    assert_eq!(png.stdout, [0x89, b'P', b'N', b'G', 1, 2, 3]);
    let png = run(dir.path(), &["get".into(), s.url("/png")]).await;
    assert!(String::from_utf8_lossy(&png.stdout).contains("7 bytes of image/png"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn web_outcomes_have_their_exit_codes() {
    let s = server().await;
    let dir = tempfile::tempdir().unwrap();
    let o = run(dir.path(), &["get".into(), s.url("/gone")]).await;
    assert_eq!(o.status.code(), Some(5));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        stderr.contains("the server answered 404 Not Found") && !stderr.contains("capsule"),
        "a web answer speaks HTTP: {stderr}"
    );
    let o = run(dir.path(), &["get".into(), s.url("/self")]).await;
    assert_eq!(
        o.status.code(),
        Some(3),
        "a redirect loop is a protocol failure"
    );
    let o = run(dir.path(), &["get".into(), "http://user@127.0.0.1/".into()]).await;
    assert_eq!(
        o.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // An https server whose certificate no trusted root vouches for: a TLS failure.
    let ca = TestCa::new();
    let tls = Server::start_tls(&ca, |_| Reply::html("<p>hi</p>")).await;
    let o = run(dir.path(), &["get".into(), tls.url("/")]).await;
    assert_eq!(
        o.status.code(),
        Some(4),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // With the test CA named in the config it verifies.
    let pem = ca.write_pem(dir.path());
    let cfg = dir.path().join("config.toml");
    std::fs::write(
        &cfg,
        format!(
            "[web]\nextra_root_certificates = [{:?}]\n",
            pem.display().to_string()
        ),
    )
    .unwrap();
    let o = run(
        dir.path(),
        &[
            "--config".into(),
            cfg.display().to_string(),
            "get".into(),
            tls.url("/"),
        ],
    )
    .await;
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(String::from_utf8_lossy(&o.stdout).contains("hi"));
}
