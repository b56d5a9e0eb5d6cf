//! Latency and size figures of `smolweb --mcp` (ignored by default; run through
//! `benches/mcp_bench.sh`, which builds in release mode). Prints medians; asserts nothing about
//! speed. Measures: process start to initialized, a cold local fetch, a cached window, a batch
//! of 20 URLs over 4 servers, and bytes returned (structured + text) per byte of page.

use crate::mcp_harness;
use smolweb_testkit as support;

use mcp_harness::*;
use serde_json::json;
use std::time::{Duration, Instant};
use support::gemini::{self, Reply, Routes};

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn ms(d: Duration) -> String {
    format!("{:.3} ms", d.as_secs_f64() * 1000.0)
}

fn two_kb_page() -> String {
    let mut page = String::from("# A small capsule\n\nSome words about the capsule.\n\n");
    let mut i = 0;
    while page.len() < 2000 {
        page.push_str(&format!("=> /post/{i} Post number {i}: a short title\n"));
        page.push_str("A line of ordinary text between the links of this page.\n");
        if i % 4 == 0 {
            page.push_str(&format!("## Section {i}\n* a list item\n> a quote\n"));
        }
        i += 1;
    }
    page
}

fn big_page() -> String {
    (0..3000)
        .map(|i| format!("Line {i}: plain words filling a long page, with =>-free prose.\n"))
        .collect()
}

fn returned_bytes(r: &rmcp::model::CallToolResult) -> (usize, usize) {
    let structured = serde_json::to_string(&sc(r)).unwrap().len();
    let text: usize = texts(r).iter().map(String::len).sum();
    (structured, text)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "benchmark: run benches/mcp_bench.sh"]
async fn mcp_bench() {
    let small = two_kb_page();
    let big = big_page();
    let routes = Routes::new()
        .route("/small", Reply::gemtext(&small))
        .route("/big", Reply::gemtext(&big))
        .handler(|req| Reply::gemtext(&format!("# {}\nsome text\n", req.path)));
    let servers = [
        gemini::Server::start(routes.clone()).await,
        gemini::Server::start(routes.clone()).await,
        gemini::Server::start(routes.clone()).await,
        gemini::Server::start(routes).await,
    ];
    let env = Env::loopback();

    let mut starts = Vec::new();
    for _ in 0..15 {
        let t = Instant::now();
        let s = connect(&env, Gen::Initialize, TestClient::new(Elicit::Off)).await;
        starts.push(t.elapsed());
        s.cancel().await.unwrap();
    }
    let mut discover_starts = Vec::new();
    for _ in 0..15 {
        let t = Instant::now();
        let s = connect(&env, Gen::Discover, TestClient::new(Elicit::Off)).await;
        discover_starts.push(t.elapsed());
        s.cancel().await.unwrap();
    }

    let s = connect(&env, Gen::Initialize, TestClient::new(Elicit::Off)).await;
    // Warm the robots.txt answers and TLS sessions once per server.
    for server in &servers {
        call(&s, "gemini_fetch", json!({"url": server.url("/warm")})).await;
    }
    let mut cold = Vec::new();
    for i in 0..40 {
        let url = servers[0].url(&format!("/cold/{i}"));
        let t = Instant::now();
        let r = call(&s, "gemini_fetch", json!({"url": url})).await;
        cold.push(t.elapsed());
        assert_eq!(sc(&r)["cached"], false);
    }
    let first = call(&s, "gemini_fetch", json!({"url": servers[0].url("/big")})).await;
    let next = sc(&first)["next_offset"].as_u64().unwrap();
    let mut cached = Vec::new();
    for _ in 0..200 {
        let t = Instant::now();
        let r = call(
            &s,
            "gemini_fetch",
            json!({"url": servers[0].url("/big"), "offset": next}),
        )
        .await;
        cached.push(t.elapsed());
        assert_eq!(sc(&r)["cached"], true);
    }
    call(&s, "gemini_fetch", json!({"url": servers[0].url("/small")})).await;
    let mut cached_small = Vec::new();
    for _ in 0..200 {
        let t = Instant::now();
        let r = call(&s, "gemini_fetch", json!({"url": servers[0].url("/small")})).await;
        cached_small.push(t.elapsed());
        assert_eq!(sc(&r)["cached"], true);
    }
    let mut batches = Vec::new();
    for round in 0..10 {
        let urls: Vec<String> = (0..20)
            .map(|i| servers[i % 4].url(&format!("/batch/{round}/{i}")))
            .collect();
        let t = Instant::now();
        let r = call(&s, "gemini_batch_fetch", json!({"urls": urls})).await;
        batches.push(t.elapsed());
        assert_eq!(sc(&r)["result"].as_array().unwrap().len(), 20);
    }

    let small_r = call(&s, "gemini_fetch", json!({"url": servers[1].url("/small")})).await;
    let (small_sc, small_text) = returned_bytes(&small_r);
    let big_r = call(&s, "gemini_fetch", json!({"url": servers[1].url("/big")})).await;
    let window_chars = sc(&big_r)["next_offset"].as_u64().unwrap() as usize;
    let (big_sc, big_text) = returned_bytes(&big_r);
    s.cancel().await.unwrap();

    println!("smolweb --mcp (median)");
    println!(
        "  start to initialized (initialize):  {}",
        ms(median(starts))
    );
    println!(
        "  start to ready (server/discover):   {}",
        ms(median(discover_starts))
    );
    println!("  cold local gemini fetch:            {}", ms(median(cold)));
    println!(
        "  cached window (offset {next}):      {}",
        ms(median(cached))
    );
    println!(
        "  cached 2 KB page (window 0):        {}",
        ms(median(cached_small))
    );
    println!(
        "  batch of 20 URLs over 4 servers:    {}",
        ms(median(batches))
    );
    let ratio = |b: usize, page: usize| b as f64 / page as f64;
    println!(
        "  {} B gemtext page: structured {} B ({:.2}x) + text {} B ({:.2}x) = {:.2}x",
        small.len(),
        small_sc,
        ratio(small_sc, small.len()),
        small_text,
        ratio(small_text, small.len()),
        ratio(small_sc + small_text, small.len())
    );
    println!(
        "  {window_chars}-char window: structured {} B ({:.2}x) + text {} B ({:.2}x) = {:.2}x",
        big_sc,
        ratio(big_sc, window_chars),
        big_text,
        ratio(big_text, window_chars),
        ratio(big_sc + big_text, window_chars)
    );
}

/// A batch of 5 URLs to one host whose answers take about 1.2 s, pacing off: with 0.2's
/// per-host bound (4) and with the default (5, equal to the batch concurrency). Medians of 3.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "benchmark: run benches/mcp_bench.sh"]
async fn batch_to_one_slow_host() {
    let server = gemini::Server::start(
        Routes::new().handler(|_| Reply::drip("# s\nslow page\n", Duration::from_millis(40))),
    )
    .await;
    let config = |per_host: &str| {
        Env::new(&format!(
            "[network]\nallow_private_addresses = true\n{per_host}\
             [politeness]\nper_host_interval_ms = 0\n"
        ))
    };
    println!("gemini_batch_fetch of 5 URLs to one host answering in ~1.2 s (median of 3)");
    for (label, env) in [
        (
            "max_in_flight_per_host = 4 (0.2)",
            config("max_in_flight_per_host = 4\n"),
        ),
        ("default (5)", config("")),
    ] {
        let s = connect(&env, Gen::Initialize, TestClient::new(Elicit::Off)).await;
        call(&s, "gemini_fetch", json!({"url": server.url("/warm")})).await;
        let mut times = Vec::new();
        for round in 0..3 {
            let urls: Vec<String> = (0..5)
                .map(|i| server.url(&format!("/{label:.1}{round}/{i}")))
                .collect();
            let t = Instant::now();
            let r = call(&s, "gemini_batch_fetch", json!({"urls": urls})).await;
            times.push(t.elapsed());
            assert_eq!(r.is_error, Some(false));
        }
        println!("  {label:34} {}", ms(median(times)));
        s.cancel().await.unwrap();
    }
}
