//! `notifications/cancelled` stops the work: a cancelled `gemini_fetch`, batch (Gemini and
//! Gopher), `fetch_url` or `feed_fetch` to a server that drips its answer for 20 s closes its
//! upstream connections at once (seen by a relay in front of the server), gets no response,
//! and leaves nothing half-kept: the next fetch of the same URL is a fresh, complete download.
//! The server keeps answering other requests throughout.

use crate::mcp_harness;
use smolweb_testkit as support;

use mcp_harness::Env;
use mcp_harness::raw::Raw;
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};
use support::tap::Tap;
use support::{gemini, gopher, http};

/// How long a slow answer would take to end (100 ms per byte or chunk, 200 of them).
const DRIP: Duration = Duration::from_millis(100);
const DRIPS: usize = 200;
/// The generous bound for "closed at once" (the drip would run 20 s).
const CLOSED_WITHIN: Duration = Duration::from_secs(3);

fn slow_gemtext() -> gemini::Reply {
    gemini::Reply::drip(&"x".repeat(DRIPS), DRIP)
}

/// Poll `cond` every 10 ms for at most `within`.
fn wait_for(within: Duration, mut cond: impl FnMut() -> bool) -> bool {
    let deadline = Instant::now() + within;
    while Instant::now() < deadline {
        if cond() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    cond()
}

fn ping(raw: &mut Raw, id: i64) {
    raw.send(&json!({"jsonrpc":"2.0","id":id,"method":"ping"}));
    let r = raw.reply(id);
    assert!(r["result"].is_object(), "{r}");
}

/// Start `tool(args)` as request `id`, wait until the server got its `slow` requests (`got`
/// counts them) and they are open through `tap`, cancel it, and check the connections close,
/// no response comes, and the server still answers.
fn cancel_and_check(
    raw: &mut Raw,
    (tap, got): (&Tap, &dyn Fn() -> usize),
    id: i64,
    tool: &str,
    args: Value,
    slow: usize,
) {
    let before = got();
    raw.call(id, tool, args.clone());
    assert!(
        wait_for(Duration::from_secs(20), || got() >= before + slow
            && tap.open() >= slow),
        "{tool}: the slow fetches never started ({} open)",
        tap.open()
    );
    raw.send(&json!({"jsonrpc":"2.0","method":"notifications/cancelled",
        "params":{"requestId":id,"reason":"the test changed its mind"}}));
    let cancelled = Instant::now();
    let closed = wait_for(CLOSED_WITHIN, || tap.open() == 0);
    println!(
        "{tool}: {} upstream connection(s) open {:?} after the cancel",
        tap.open(),
        cancelled.elapsed()
    );
    assert!(
        closed,
        "{tool} {args}: {} upstream connection(s) still open {CLOSED_WITHIN:?} after the cancel",
        tap.open()
    );
    // A later request is answered; nothing is ever sent for the cancelled one.
    ping(raw, id + 1000);
    std::thread::sleep(Duration::from_millis(300));
    ping(raw, id + 2000);
    let answered: Vec<&Value> = raw.seen.iter().filter(|v| v["id"] == id).collect();
    assert!(
        answered.is_empty(),
        "{tool}: a reply to the cancelled request: {answered:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cancelled_calls_close_their_connections_and_get_no_reply() {
    // The first request for /page drips; later ones get the whole page at once.
    let page_hits = Arc::new(AtomicUsize::new(0));
    let hits = page_hits.clone();
    let gem = gemini::Server::start(
        gemini::Routes::new()
            .route("/feed", slow_gemtext())
            .handler(move |req| match req.path.as_str() {
                "/page" if hits.fetch_add(1, Ordering::SeqCst) == 0 => slow_gemtext(),
                "/page" => gemini::Reply::gemtext("# Complete page\n"),
                p if p.starts_with("/b") => slow_gemtext(),
                _ => gemini::Reply::status(51, "not found"),
            }),
    )
    .await;
    let hole = gopher::Server::start(gopher::Routes::new().handler(|req| {
        if req.selector.starts_with("/slow") {
            gopher::Reply::Drip {
                bytes: vec![b'x'; DRIPS],
                interval: DRIP,
            }
        } else {
            gopher::Reply::text("3no\r\n.\r\n")
        }
    }))
    .await;
    let web = http::Server::start(|req| {
        if req.path() == "/slow" {
            http::Reply::new(200, "text/plain", Vec::new()).with_body(http::Body::Drip {
                chunk: b"words ".to_vec(),
                interval: DRIP,
                count: DRIPS,
            })
        } else {
            http::Reply::new(404, "text/plain", b"no".to_vec())
        }
    })
    .await;
    let gem_tap = Tap::start(gem.addr()).await;
    let hole_tap = Tap::start(hole.addr()).await;
    let web_addr: SocketAddr = format!("127.0.0.1:{}", web.port()).parse().unwrap();
    let web_tap = Tap::start(web_addr).await;
    let g = |path: &str| format!("gemini://127.0.0.1:{}{path}", gem_tap.port());

    let env = Env::new(
        "[network]\nallow_private_addresses = true\ntimeout_seconds = 60\n\
         [politeness]\nper_host_interval_ms = 0\n",
    );
    let mut raw = Raw::initialized(&env);

    let gem_slow = || {
        let slow = |p: &str| p == "/page" || p == "/feed" || p.starts_with("/b");
        gem.requests().iter().filter(|r| slow(&r.path)).count()
    };
    let hole_slow = || {
        let requests = hole.requests();
        requests
            .iter()
            .filter(|r| r.selector.starts_with("/slow"))
            .count()
    };
    let web_slow = || web.hits("/slow");
    let gem_side = (&gem_tap, &gem_slow as &dyn Fn() -> usize);
    let page = json!({"url": g("/page")});
    cancel_and_check(&mut raw, gem_side, 1, "gemini_fetch", page, 1);
    let urls: Vec<String> = (1..=3).map(|i| g(&format!("/b{i}"))).collect();
    cancel_and_check(
        &mut raw,
        gem_side,
        2,
        "gemini_batch_fetch",
        json!({"urls": urls}),
        3,
    );
    let urls: Vec<String> = (1..=2)
        .map(|i| format!("gopher://127.0.0.1:{}/0/slow{i}", hole_tap.port()))
        .collect();
    let hole_side = (&hole_tap, &hole_slow as &dyn Fn() -> usize);
    cancel_and_check(
        &mut raw,
        hole_side,
        3,
        "gopher_batch_fetch",
        json!({"urls": urls}),
        2,
    );
    let url = format!("http://127.0.0.1:{}/slow", web_tap.port());
    let web_side = (&web_tap, &web_slow as &dyn Fn() -> usize);
    cancel_and_check(&mut raw, web_side, 4, "fetch_url", json!({"url": url}), 1);
    let feed = json!({"url": g("/feed")});
    cancel_and_check(&mut raw, gem_side, 5, "feed_fetch", feed, 1);

    // Nothing half-kept: the cancelled page is downloaded again, whole.
    raw.call(6, "gemini_fetch", json!({"url": g("/page")}));
    let r = raw.reply(6);
    let sc = &r["result"]["structuredContent"];
    assert_eq!(sc["kind"], "gemtext", "{r}");
    assert_eq!(
        sc["cached"], false,
        "not from a copy of the cancelled download: {sc}"
    );
    assert!(sc["document"].to_string().contains("Complete page"), "{sc}");
    assert_eq!(page_hits.load(Ordering::SeqCst), 2);
    // The pin made during the cancelled calls is on disk and readable.
    raw.call(7, "gemini_trust_list", json!({}));
    let r = raw.reply(7);
    let entries = r["result"]["structuredContent"]["entries"]
        .as_array()
        .unwrap();
    assert_eq!(entries.len(), 1, "{r}");
}

/// The same on a 2026-07-28 session, cancelled through rmcp's client (`RequestHandle::cancel`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_discover_session_cancels_too() {
    use mcp_harness::{Elicit, Gen, TestClient, connect};
    use rmcp::model::{CallToolRequestParams, ClientRequest, Request};
    use rmcp::service::PeerRequestOptions;
    let gem = gemini::Server::start(gemini::Routes::new().route("/slow", slow_gemtext())).await;
    let tap = Tap::start(gem.addr()).await;
    let env = Env::new(
        "[network]\nallow_private_addresses = true\ntimeout_seconds = 60\n\
         [politeness]\nper_host_interval_ms = 0\n",
    );
    let s = connect(&env, Gen::Discover, TestClient::new(Elicit::Off)).await;
    let url = format!("gemini://127.0.0.1:{}/slow", tap.port());
    let args = json!({ "url": url }).as_object().cloned().unwrap();
    let handle = s
        .send_cancellable_request(
            ClientRequest::CallToolRequest(Request::new(
                CallToolRequestParams::new("gemini_fetch").with_arguments(args),
            )),
            PeerRequestOptions::no_options(),
        )
        .await
        .unwrap();
    let started = || gem.requests().iter().any(|r| r.path == "/slow") && tap.open() >= 1;
    assert!(wait_for(Duration::from_secs(20), started), "never started");
    handle.cancel(Some("changed my mind".into())).await.unwrap();
    let closed = wait_for(CLOSED_WITHIN, || tap.open() == 0);
    assert!(
        closed,
        "{} connection(s) open {CLOSED_WITHIN:?} after the cancel",
        tap.open()
    );
    // The session goes on.
    let r = mcp_harness::call(&s, "gemini_trust_list", json!({})).await;
    assert_eq!(r.is_error, Some(false));
    s.cancel().await.unwrap();
}
