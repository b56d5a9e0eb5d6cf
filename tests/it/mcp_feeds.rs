//! The feed tools through the real `smolweb --mcp` binary and the official Python MCP SDK
//! (tests/python/feeds.py validates every result against its outputSchema), on both protocol
//! generations; and the config switch that withdraws `subscriptions_list`.
//! Interpreter lookup and SKIP rules as in tests/mcp_python.rs.

use crate::mcp_harness;
use smolweb_testkit as support;

use mcp_harness::{Env, LOOPBACK_CONFIG, python};
use smolweb_core::feed::Entry;
use smolweb_store::subscriptions::{Refreshed, Subscriptions};
use support::gemini::{self, Reply, Routes};
use support::gopher;

const ATOM: &str = include_str!("../../crates/smolweb-core/tests/fixtures/feeds/atom.xml");

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
    let Some(python) = python::interpreter(&format!("mcp_feeds ({mode})")) else {
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
    let extra = [
        no_list.display().to_string(),
        gem.url("").trim_end_matches('/').to_string(),
        format!("gopher://127.0.0.1:{}", hole.port()),
    ];
    python::run(&python, "feeds.py", Some(mode), &env, &extra).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn python_sdk_feed_tools_legacy() {
    run("legacy").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn python_sdk_feed_tools_auto() {
    run("auto").await;
}
