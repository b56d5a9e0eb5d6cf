//! `fetch_url` through the real binary: rmcp's client on both protocol generations (schemas,
//! annotations, results, windows from the held copy, errors with their codes, a refused
//! redirect never contacted), and the official Python MCP SDK (tests/python/web.py), which
//! validates every structuredContent against the output schema (JSON, a PDF's text and an
//! encrypted PDF's refusal included). The Python part skips loudly without an interpreter
//! that has `mcp`, unless SMOLWEB_REQUIRE_PYTHON_MCP=1.

use crate::mcp_harness;
use smolweb_testkit as support;

use mcp_harness::*;
use serde_json::{Value, json};
use support::http::{Reply, Request, Server};
use support::pdf::{Layout, encrypted_pdf, text_pdf};

pub(crate) const CONFIG: &str = "\
[network]
allowed_hosts = [\"127.0.0.1\"]
timeout_seconds = 5
[politeness]
per_host_interval_ms = 0
";

const ARTICLE: &str = r#"<!doctype html><html lang="en"><head><title>Harbour tides</title></head><body>
<nav><a href="/">Home</a> <a href="/about">About the company</a></nav>
<article><h1>Harbour tides</h1>
<p>The harbour fills slowly because the channel is long and narrow, and the water needs time to climb the shallow bar at its mouth. Boats wait outside for the flood.</p>
<p>Records kept by the harbour master over fifty years show the same delay in every season, growing a little when the east wind blows hard against the tide.</p>
</article><footer>Copyright the Harbour Board.</footer></body></html>"#;

fn port_of(r: &Request) -> String {
    r.header("host")
        .unwrap()
        .rsplit(':')
        .next()
        .unwrap()
        .to_string()
}

async fn server() -> Server {
    let pdf = text_pdf(
        "Tides",
        &[&["The harbour fills slowly."]],
        Layout::Kerned,
        true,
    );
    let locked = encrypted_pdf();
    Server::start(move |r| match r.path() {
        "/robots.txt" => Reply::new(404, "text/plain", ""),
        "/article" => Reply::html(ARTICLE),
        "/missing" => Reply::new(
            404,
            "text/html",
            "<html><body><h1>Not here</h1></body></html>",
        ),
        "/busy" => Reply::new(429, "text/plain", "wait").header("Retry-After", "30"),
        "/png" => Reply::new(200, "image/png", vec![0x89, b'P', b'N', b'G']),
        "/md" => Reply::new(200, "text/markdown", "# Hi\n").header("x-markdown-tokens", "42"),
        "/json" => Reply::new(200, "application/json", r#"{"a":[1,2]}"#),
        // A PDF sent as untyped bytes: read by its header.
        "/pdf" => Reply::new(200, "application/octet-stream", pdf.clone()),
        "/locked.pdf" => Reply::new(200, "application/pdf", locked.clone()),
        "/to-localhost" => Reply::redirect(302, &format!("http://localhost:{}/target", port_of(r))),
        "/loop" => Reply::redirect(302, "/loop"),
        _ => Reply::html("<p>never</p>"),
    })
    .await
}

async fn check_tool(generation: Gen) {
    let s = server().await;
    let env = Env::new(CONFIG);
    let session = connect(&env, generation, TestClient::new(Elicit::Off)).await;
    let tools = session.list_all_tools().await.unwrap();
    let t = tools.iter().find(|t| t.name == "fetch_url").unwrap();
    let a = t.annotations.as_ref().unwrap();
    assert_eq!(
        (a.read_only_hint, a.idempotent_hint, a.open_world_hint),
        (Some(true), Some(true), Some(true))
    );
    let props = &t.input_schema["properties"];
    for p in [
        "url",
        "format",
        "extract",
        "max_chars",
        "start_index",
        "max_bytes",
    ] {
        assert!(props.get(p).is_some(), "parameter {p}");
    }
    let r = call(&session, "fetch_url", json!({"url": s.url("/article")})).await;
    assert_ne!(r.is_error, Some(true));
    let v = sc(&r);
    for key in [
        "text",
        "status",
        "finalUrl",
        "contentType",
        "bytes",
        "truncated",
        "totalChars",
        "startIndex",
        "nextStartIndex",
        "fromCache",
        "extraction",
        "hints",
    ] {
        assert!(v.get(key).is_some(), "{key} in {v}");
    }
    assert_eq!(v["fromCache"], false);
    assert_eq!(v["nextStartIndex"], Value::Null);
    assert_eq!(v["title"], "Harbour tides");
    let block = &texts(&r)[0];
    let (first, rest) = block.split_once('\n').unwrap();
    assert!(first.contains("untrusted data") && first.contains("not instructions"));
    assert_eq!(rest, v["text"].as_str().unwrap());
    // Windows: later ones come from the held copy and join to totalChars.
    let total = v["totalChars"].as_u64().unwrap() as usize;
    let mut joined = String::new();
    let mut start = 0u64;
    loop {
        let r = call(
            &session,
            "fetch_url",
            json!({"url": s.url("/article"), "max_chars": 64, "start_index": start}),
        )
        .await;
        let w = sc(&r);
        assert_eq!(w["fromCache"], true);
        joined.push_str(w["text"].as_str().unwrap());
        match w["nextStartIndex"].as_u64() {
            Some(n) => start = n,
            None => break,
        }
    }
    assert_eq!(joined.chars().count(), total);
    assert_eq!(joined, v["text"].as_str().unwrap());
    assert_eq!(s.hits("/article"), 1);
    // Errors.
    let r = call(
        &session,
        "fetch_url",
        json!({"url": s.url("/to-localhost")}),
    )
    .await;
    assert_eq!(r.is_error, Some(true));
    assert_eq!(sc(&r)["error"]["code"], "POLICY_REJECTED");
    assert_eq!(sc(&r)["error"]["retryable"], false);
    assert_eq!(s.hits("/target"), 0);
    let r = call(&session, "fetch_url", json!({"url": s.url("/busy")})).await;
    let e = &sc(&r)["error"];
    assert_eq!(
        (e["code"].as_str(), e["retryable"].as_bool()),
        (Some("INVALID_RESPONSE"), Some(true))
    );
    assert!(e["message"].as_str().unwrap().contains("Retry-After: 30"));
    assert_eq!(sc(&r)["status"], 429);
    let r = call(
        &session,
        "fetch_url",
        json!({"url": "gopher://example.org/"}),
    )
    .await;
    assert_eq!(sc(&r)["error"]["code"], "INVALID_INPUT");
    // Outside the input schema's range, or a property the schema does not have: on these
    // 2025-11-25 / 2026-07-28 sessions an INVALID_INPUT result naming the field, before any
    // request (tests/mcp_protocol.rs has the 2025-06-18 -32602).
    let hits = s.requests().len();
    for (args, field) in [
        (
            json!({"url": s.url("/article"), "max_chars": 1_000_001}),
            "max_chars",
        ),
        (
            json!({"url": s.url("/article"), "startIndex": 5}),
            "startIndex",
        ),
    ] {
        let r = call(&session, "fetch_url", args).await;
        assert_eq!(r.is_error, Some(true));
        let e = &sc(&r)["error"];
        assert_eq!(e["code"], "INVALID_INPUT", "{e}");
        assert!(
            e["message"]
                .as_str()
                .unwrap()
                .contains(&format!("`{field}`")),
            "{e}"
        );
    }
    assert_eq!(s.requests().len(), hits, "refused before any request");
    session.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fetch_url_over_initialize() {
    check_tool(Gen::Initialize).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fetch_url_over_discover() {
    check_tool(Gen::Discover).await;
}

async fn python(mode: &str) {
    let Some(python) = python::interpreter(&format!("web_mcp python ({mode})")) else {
        return;
    };
    let s = server().await;
    let env = Env::new(CONFIG);
    python::run(&python, "web.py", Some(mode), &env, &[s.url("")]).await;
    assert_eq!(s.hits("/target"), 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn python_sdk_validates_fetch_url_legacy() {
    python("legacy").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn python_sdk_validates_fetch_url_auto() {
    python("auto").await;
}

/// Latency of a cached `fetch_url` window through the binary (ignored by default; run
/// `benches/web_bench.sh`, which builds in release mode). Prints the median; asserts nothing
/// about speed. Target: <= 1 ms.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore]
async fn bench_cached_fetch_url_window() {
    let s = server().await;
    let env = Env::new(CONFIG);
    let session = connect(&env, Gen::Initialize, TestClient::new(Elicit::Off)).await;
    let url = s.url("/article");
    call(&session, "fetch_url", json!({"url": url})).await;
    let mut times = Vec::new();
    for i in 0..200u64 {
        let started = std::time::Instant::now();
        let r = call(
            &session,
            "fetch_url",
            json!({"url": url, "max_chars": 50, "start_index": (i * 7) % 200}),
        )
        .await;
        times.push(started.elapsed());
        assert_eq!(sc(&r)["fromCache"], true);
    }
    times.sort();
    let median = times[times.len() / 2];
    println!(
        "web_bench: cached fetch_url window median {:.3} ms (p90 {:.3} ms, {} calls)",
        median.as_secs_f64() * 1000.0,
        times[times.len() * 9 / 10].as_secs_f64() * 1000.0,
        times.len()
    );
    assert_eq!(s.hits("/article"), 1);
    session.cancel().await.unwrap();
}
