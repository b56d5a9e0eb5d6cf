//! The feed tools through the real `smolweb --mcp` binary and the official Python MCP SDK
//! (tests/python/feeds.py validates every result against its outputSchema), on both protocol
//! generations; and the config switch that withdraws `subscriptions_list`.
//! Interpreter lookup and SKIP rules as in tests/mcp_python.rs.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod mcp_harness;
mod support;

use mcp_harness::{Env, LOOPBACK_CONFIG};
use smolweb::core::feed::Entry;
use smolweb::store::subscriptions::{Refreshed, Subscriptions};
use std::path::PathBuf;
use support::gemini::{self, Reply, Routes};
use support::gopher;

const ATOM: &str = include_str!("fixtures/feeds/atom.xml");

fn python_with_mcp() -> Option<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let candidates = [
        std::env::var_os("SMOLWEB_PYTHON").map(PathBuf::from),
        Some(root.join("target/pyvenv/bin/python")),
        Some(PathBuf::from("/tmp/mcpvenv/bin/python")),
        Some(PathBuf::from("python3")),
    ];
    candidates.into_iter().flatten().find(|p| {
        std::process::Command::new(p)
            .args(["-c", "import mcp, mcp_types"])
            .output()
            .is_ok_and(|o| o.status.success())
    })
}

fn entry(url: &str, title: &str, day: &str) -> Entry {
    Entry {
        title: title.into(),
        url: url.into(),
        published: Some(format!("{day}T00:00:00Z")),
    }
}

/// Two subscriptions in the data dir, one entry of the first already read.
fn seed(data: &std::path::Path) {
    let subs = Subscriptions::new(data.join("subscriptions.toml"));
    let now = time::OffsetDateTime::now_utc();
    let (log, _) = subs.add("gemini://log.example/", now).unwrap();
    let (hole, _) = subs.add("gopher://hole.example/1/phlog", now).unwrap();
    let ok = |title: &str, entries| Refreshed::Ok {
        title: Some(title.into()),
        entries,
    };
    subs.record(
        &log,
        &ok(
            "Log",
            vec![
                entry("gemini://log.example/fresh", "Fresh", "2026-11-30"),
                entry("gemini://log.example/seen", "Seen", "2026-11-01"),
            ],
        ),
        now,
    )
    .unwrap();
    subs.record(
        &hole,
        &ok(
            "Holes",
            vec![entry(
                "gopher://hole.example/0/p",
                "Phlog post",
                "2026-10-01",
            )],
        ),
        now,
    )
    .unwrap();
    subs.mark_read("gemini://log.example/seen").unwrap();
}

async fn run(mode: &str) {
    let Some(python) = python_with_mcp() else {
        if std::env::var("SMOLWEB_REQUIRE_PYTHON_MCP").as_deref() == Ok("1") {
            panic!("no Python interpreter with the `mcp` package (SMOLWEB_REQUIRE_PYTHON_MCP=1)");
        }
        eprintln!("\n*** SKIP mcp_feeds ({mode}): no Python with the `mcp` package ***\n");
        return;
    };
    let log = "# Python log\n=> new.gmi 2026-11-30 Newest\n=> mid.gmi 2026-11-15 Middle\n\
               => /about About\n=> old.gmi 2026-01-01 Oldest\n";
    let gem = gemini::Server::start(
        Routes::new()
            .route("/log/", Reply::gemtext(log))
            .route("/atom.xml", Reply::ok("application/atom+xml", ATOM))
            .route("/plain.txt", Reply::ok("text/plain", "just words\n"))
            .route("/gone", Reply::status(51, "gone")),
    )
    .await;
    let hole = gopher::Server::start(gopher::Routes::new().route(
        "/phlog",
        gopher::Reply::menu(&[("i", "Phlog", ""), ("0", "2026-03-04 Post", "/p1")]),
    ))
    .await;
    let env = Env::new(&format!("{LOOPBACK_CONFIG}[mcp]\nmax_menu_items = 2\n"));
    seed(&env.data_dir());
    let no_list = env.dir.path().join("no-list.toml");
    std::fs::write(
        &no_list,
        format!("{LOOPBACK_CONFIG}[feeds]\nagent_can_list_subscriptions = false\n"),
    )
    .unwrap();
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/python/feeds.py");
    let out = tokio::process::Command::new(&python)
        .arg(&script)
        .arg(mode)
        .arg(env!("CARGO_BIN_EXE_smolweb"))
        .arg(env.data_dir())
        .arg(env.config_file())
        .arg(&no_list)
        .arg(gem.url("").trim_end_matches('/'))
        .arg(format!("gopher://127.0.0.1:{}", hole.port()))
        .env_remove("SMOLWEB_HOME")
        .env_remove("SMOLWEB_CONFIG")
        .output();
    let out = tokio::time::timeout(std::time::Duration::from_secs(120), out)
        .await
        .expect("the Python client finished within 120 s")
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "python feeds ({mode}) failed\nstdout:\n{stdout}\nstderr:\n{stderr}"
    );
    assert!(stdout.contains("OK"), "{stdout}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn python_sdk_feed_tools_legacy() {
    run("legacy").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn python_sdk_feed_tools_auto() {
    run("auto").await;
}
