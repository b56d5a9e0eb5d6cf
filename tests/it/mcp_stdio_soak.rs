//! `smolweb --mcp` over stdio through 6,000 calls in one session: pages that churn the cache
//! past its entry bound, later windows of a long page, Gopher texts, errors. The server's
//! resident memory and file descriptors are read every 500 calls; once warm they must stay
//! flat (printed as a table; `benches/mcp_stdio_soak.sh` runs it on a release build). Ignored
//! in the ordinary run: it is a measurement.
#![cfg(target_os = "linux")]

use crate::mcp_harness::raw::Raw;
use crate::mcp_harness::{Env, LOOPBACK_CONFIG};
use serde_json::json;
use smolweb_testkit::{gemini, gopher};

const CALLS: i64 = 6000;

fn usage(raw: &Raw) -> (u64, usize) {
    let pid = raw.child.id();
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let rss = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let fds = std::fs::read_dir(format!("/proc/{pid}/fd"))
        .unwrap()
        .count();
    (rss, fds)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a soak: benches/mcp_stdio_soak.sh"]
async fn six_thousand_calls_stay_flat() {
    let long: String = (0..3000)
        .map(|i| format!("line {i} of the long page, read in windows\n"))
        .collect();
    let gem = gemini::Server::start(gemini::Routes::new().handler(move |req| {
        match req.path.strip_prefix("/page/") {
            Some(n) => gemini::Reply::gemtext(&format!("# Page {n}\n=> /page/{n}/x Next\n")),
            None if req.path == "/long" => gemini::Reply::gemtext(&long),
            None => gemini::Reply::status(51, "not found"),
        }
    }))
    .await;
    let goph = gopher::Server::start(
        gopher::Routes::new()
            .handler(|req| gopher::Reply::text(&format!("text of {}\n", req.selector))),
    )
    .await;
    let env = Env::new(&format!("{LOOPBACK_CONFIG}[cache]\nmax_entries = 500\n"));
    let gem_url = gem.url("/");
    let goph_url = goph.url('0', "/t/");
    let rows = tokio::task::spawn_blocking(move || {
        let mut raw = Raw::initialized(&env);
        let mut rows = vec![(0, usage(&raw))];
        for id in 1..=CALLS {
            let (tool, args) = match id % 10 {
                0..=5 => (
                    "gemini_fetch",
                    json!({"url": format!("{gem_url}page/{id}")}),
                ),
                6 | 7 => (
                    "gemini_fetch",
                    json!({"url": format!("{gem_url}long"),
                    "offset": (id % 5) * 30_000}),
                ),
                8 => ("gopher_fetch", json!({"url": format!("{goph_url}{id}")})),
                _ => (
                    "gemini_fetch",
                    json!({"url": format!("{gem_url}missing/{id}")}),
                ),
            };
            raw.call(id, tool, args);
            let reply = raw.reply(id);
            let sc = &reply["result"]["structuredContent"];
            let ok = match id % 10 {
                0..=5 => sc["document"].to_string().contains(&format!("Page {id}")),
                6 | 7 => sc["kind"] == "gemtext",
                8 => sc["text"]
                    .as_str()
                    .is_some_and(|t| t.contains(&format!("/t/{id}"))),
                _ => sc["kind"] == "error",
            };
            assert!(ok, "call {id}: {reply}");
            raw.seen.clear();
            if id % 500 == 0 {
                rows.push((id, usage(&raw)));
            }
        }
        rows
    })
    .await
    .unwrap();
    println!("| calls | RSS MiB | fds |\n|---|---|---|");
    for (n, (rss, fds)) in &rows {
        println!("| {n} | {:.1} | {fds} |", *rss as f64 / 1024.0);
    }
    // Flat once warm: the last descriptors as at 1,000 calls; memory is printed.
    let at_1000 = rows.iter().find(|(n, _)| *n == 1000).unwrap().1;
    let last = rows.last().unwrap().1;
    assert!(last.1 <= at_1000.1 + 2, "descriptors grew: {rows:?}");
}
