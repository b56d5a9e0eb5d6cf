//! `search_local` through the real `smolweb --mcp` binary and the official Python MCP SDK
//! (tests/python/search.py prints the transcript and validates each result against its
//! outputSchema): an agent's fetch is indexed in the background and found; the person's
//! history is hidden (not counted, asking for it is an error naming the setting) unless
//! `[agents] search_history = true`; the policy resource says which.
//! Interpreter lookup and SKIP rules as in tests/mcp_python.rs.

use crate::mcp_harness;
use smolweb_testkit as support;

use mcp_harness::{Env, LOOPBACK_CONFIG, python};
use smolweb_client::config::Config;
use smolweb_client::search::{Doc, Op, Source};
use smolweb_client::{Client, Face};
use support::gemini::{self, Reply, Routes};

/// The person's visit of a private page, indexed as the browser does after a visit.
fn seed_history(env: &Env) {
    let paths =
        smolweb_store::paths::Paths::resolve(Some(env.data_dir()), None, None, None).unwrap();
    let client = Client::new(Config::default(), paths, Face::Human).unwrap();
    let url = "gemini://diary.example/diary.gmi";
    let now = time::OffsetDateTime::now_utc();
    client.record_visit(url, Some("My diary")).unwrap();
    let index = client.search_index().unwrap();
    index.submit(Op::Add(Doc {
        url: url.into(),
        title: Some("My diary".into()),
        text: "Found tardigrades in the moss behind the house; a private diary.".into(),
        source: Source::History,
        feed: None,
        lang: Some("en".into()),
        time: now,
    }));
    let f = index.flush(std::time::Duration::from_secs(20)).unwrap();
    assert_eq!(f.queued, 0, "{f:?}");
}

async fn run(mode: &str) {
    let Some(python) = python::interpreter("mcp_search") else {
        return;
    };
    let gem = gemini::Server::start(Routes::new().route(
        "/moss.gmi",
        Reply::gemtext("# Water bears\n\nTardigrades live in moss and survive drying out.\n"),
    ))
    .await;
    let env = Env::loopback();
    seed_history(&env);
    let with_history = env.dir.path().join("config-history.toml");
    std::fs::write(
        &with_history,
        format!("{LOOPBACK_CONFIG}[agents]\nsearch_history = true\n"),
    )
    .unwrap();
    let extra = [
        with_history.display().to_string(),
        gem.url("").trim_end_matches('/').to_string(),
    ];
    let out = python::run(&python, "search.py", Some(mode), &env, &extra).await;
    println!("{out}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn python_sdk_search_local_scopes() {
    run("legacy").await;
}
