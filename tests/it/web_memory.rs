//! Peak memory of the server converting a 5 MB page: `smolweb --mcp` (the release build when
//! run by benches/web_memory_mcp.sh) reads a generated 5 MB article page (smolweb-core's
//! benches/support/web_page.rs) from a loopback server with `fetch_url`, and the test prints
//! the server's peak resident set (VmHWM) before and after the call. Ignored by default;
//! asserts what came back, nothing about the figure. Target: under 50 MiB.

use crate::mcp_harness;
use smolweb_testkit as support;

#[path = "../../crates/smolweb-core/benches/support/web_page.rs"]
mod web_page;

use mcp_harness::Env;
use mcp_harness::raw::Raw;
use serde_json::json;
use std::time::Duration;
use support::http::{Reply, Server};

const CONFIG: &str = "\
[network]
allowed_hosts = [\"127.0.0.1\"]
timeout_seconds = 30
[politeness]
per_host_interval_ms = 0
";

/// Under the default body cap of `fetch_url` (5 MiB), so the whole page is converted.
const PAGE_BYTES: usize = 5_000_000;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore]
async fn bench_fetch_url_5mb_peak_rss() {
    let page = web_page::article(PAGE_BYTES - 4096);
    let bytes = page.len();
    let s = Server::start(move |r| match r.path() {
        "/robots.txt" => Reply::new(404, "text/plain", ""),
        _ => Reply::html(&page),
    })
    .await;
    let url = s.url("/big");
    let (before, after, reply) = tokio::task::spawn_blocking(move || {
        let env = Env::new(CONFIG);
        let mut raw = Raw::initialized(&env);
        let before = raw.peak_rss_kib().unwrap_or(0);
        raw.call(2, "fetch_url", json!({"url": url, "max_chars": 2000}));
        let reply = raw.next(Duration::from_secs(60));
        let after = raw.peak_rss_kib().unwrap_or(0);
        (before, after, reply)
    })
    .await
    .unwrap();
    let sc = &reply["result"]["structuredContent"];
    assert_eq!(sc["extraction"], "main", "{reply}");
    assert_eq!(sc["truncated"], false, "{reply}");
    assert!(sc["totalChars"].as_u64().unwrap() > 1_000_000, "{reply}");
    println!(
        "web_memory_mcp: page {bytes} bytes, {} chars of main text; server peak RSS {:.1} MiB \
         after fetch_url ({:.1} MiB before the call)",
        sc["totalChars"],
        after as f64 / 1024.0,
        before as f64 / 1024.0
    );
}
