//! Batches and their progress: with the default limits a batch of five to one slow host runs
//! in one round (batch concurrency and the per-host in-flight bound agree), and a member that
//! waits (for one of its host's slots, or for its paced turn) says so, with its URL, in the
//! progress notifications a client with a progress token receives. Progress values rise.

use crate::mcp_harness;
use smolweb_testkit as support;

use mcp_harness::*;
use rmcp::model::{CallToolRequestParams, CallToolResult, ClientRequest, Request, ServerResult};
use rmcp::service::PeerRequestOptions;
use serde_json::json;
use support::gemini::{self, Reply, Routes};
use support::gopher;

/// Run a batch with a progress token; the result, the progress values and their messages
/// (waiting, bounded, until the final value `urls.len()` has arrived).
async fn batch_with_progress(
    env: &Env,
    tool: &str,
    urls: &[String],
) -> (CallToolResult, Vec<f64>, Vec<String>) {
    let client = TestClient::new(Elicit::Off);
    let (values, messages) = (client.progress.clone(), client.progress_messages.clone());
    let s = connect(env, Gen::Initialize, client).await;
    let args = json!({ "urls": urls }).as_object().cloned().unwrap();
    let handle = s
        .send_cancellable_request(
            ClientRequest::CallToolRequest(Request::new(
                CallToolRequestParams::new(tool.to_string()).with_arguments(args),
            )),
            PeerRequestOptions::no_options(),
        )
        .await
        .unwrap();
    let ServerResult::CallToolResult(r) = handle.await_response().await.unwrap() else {
        panic!("not a tool result");
    };
    let last = urls.len() as f64;
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while !values.lock().unwrap().contains(&last) && std::time::Instant::now() < deadline {
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    s.cancel().await.unwrap();
    let values = values.lock().unwrap().clone();
    let messages = messages.lock().unwrap().clone();
    println!("progress {values:?}\nmessages {messages:#?}");
    // rmcp's client hands notifications to the handler on tasks of their own, so they may be
    // seen out of order; sent in order, their values are all different (`fetch::Progress`).
    let mut sorted = values.clone();
    sorted.sort_by(f64::total_cmp);
    assert!(
        sorted.windows(2).all(|w| w[0] < w[1]),
        "distinct values: {values:?}"
    );
    assert_eq!(sorted.last(), Some(&last));
    (r, values, messages)
}

fn slow_routes(n: usize) -> Routes {
    (1..=n).fold(Routes::new(), |r, i| {
        let body = format!("# Slow {i}\n{}\n", "x".repeat(12));
        r.route(
            &format!("/s{i}"),
            Reply::drip(&body, std::time::Duration::from_millis(40)),
        )
    })
}

/// With the defaults (batch concurrency 5, 5 in flight per host) and pacing off, five slow
/// pages of one host are fetched in one round: the server sees all five connections at once,
/// and no member had to wait for a slot.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_batch_of_five_to_one_host_runs_in_one_round() {
    let server = gemini::Server::start(slow_routes(5)).await;
    let urls: Vec<String> = (1..=5).map(|i| server.url(&format!("/s{i}"))).collect();
    let (r, _, messages) = batch_with_progress(&Env::loopback(), "gemini_batch_fetch", &urls).await;
    let v = sc(&r);
    let kinds: Vec<&str> = v["result"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["gemtext"; 5]);
    assert_eq!(server.max_open(), 5, "all five at once, not in two rounds");
    assert!(
        messages.iter().all(|m| !m.contains("waits")),
        "{messages:?}"
    );
}

/// A member that has to wait for one of its host's slots says so in the batch's progress,
/// naming its URL and the limit; the bound holds.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_member_waiting_for_a_slot_says_so_in_the_progress() {
    let server = gemini::Server::start(slow_routes(3)).await;
    let urls: Vec<String> = (1..=3).map(|i| server.url(&format!("/s{i}"))).collect();
    let env = Env::new(
        "[network]\nallow_private_addresses = true\ntimeout_seconds = 5\n\
         max_in_flight_per_host = 2\n[politeness]\nper_host_interval_ms = 0\n",
    );
    let (r, _, messages) = batch_with_progress(&env, "gemini_batch_fetch", &urls).await;
    assert_eq!(r.is_error, Some(false));
    assert!(server.max_open() <= 2, "{}", server.max_open());
    let waiting: Vec<&String> = messages
        .iter()
        .filter(|m| {
            m.contains("waits for a slot on its host 127.0.0.1: 2 requests to it are in flight")
        })
        .collect();
    assert!(!waiting.is_empty(), "{messages:?}");
    assert!(
        waiting
            .iter()
            .all(|m| urls.iter().any(|u| m.starts_with(&format!("{u} waits")))),
        "each names its URL: {waiting:?}"
    );
}

/// A member held back by per-host pacing says so too (Gopher here).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_paced_member_says_so_in_the_progress() {
    let hole = gopher::Server::start(
        gopher::Routes::new()
            .route("/a", gopher::Reply::text("a\r\n.\r\n"))
            .route("/b", gopher::Reply::text("b\r\n.\r\n")),
    )
    .await;
    let urls = vec![hole.url('0', "/a"), hole.url('0', "/b")];
    let env = Env::new(
        "[network]\nallow_private_addresses = true\ntimeout_seconds = 5\n\
         [politeness]\nper_host_interval_ms = 300\n",
    );
    let (r, _, messages) = batch_with_progress(&env, "gopher_batch_fetch", &urls).await;
    assert_eq!(r.is_error, Some(false));
    assert!(
        messages
            .iter()
            .any(|m| m.contains("s for its turn on its host 127.0.0.1 (per-host pacing)")),
        "{messages:?}"
    );
}
