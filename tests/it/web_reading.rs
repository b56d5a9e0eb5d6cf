//! What a web page is, said to both faces through the real binary (issue 30, item 3):
//! `fetch_url`'s `page_type` and `extraction_quality` for a forum thread, an article and a
//! page with almost no text (over stdio, the answer held in the cache saying the same), and
//! `smolweb get`'s line on stderr. The pages are served on loopback.

use crate::mcp_harness;
use smolweb_testkit as support;

use crate::web_mcp::CONFIG;
use mcp_harness::*;
use serde_json::{Value, json};
use std::path::Path;
use std::process::Output;
use support::http::{Reply, Server};

const ARTICLE: &str = r#"<!doctype html><html lang="en"><head><title>Harbour tides</title></head><body>
<nav><a href="/">Home</a> <a href="/about">About the company</a> <a href="/contact">Contact</a></nav>
<article><h1>Harbour tides</h1>
<p>The harbour fills slowly because the channel is long and narrow, and the water needs time to climb the shallow bar at its mouth. Boats wait outside for the flood.</p>
<p>Records kept by the harbour master over fifty years show the same delay in every season, growing a little when the east wind blows hard against the tide.</p>
<p>Pilots learn the delay early: a boat that enters on the clock instead of on the water touches the bar, and the bar is sand over rock, so a touch is rarely gentle.</p>
</article><footer>Copyright the Harbour Board.</footer></body></html>"#;

/// A forum thread: several posts of the same shape, named as comments as forum software does.
fn thread() -> String {
    let posts: String = (0..5)
        .map(|i| {
            format!(
                "<article class=\"post comment\"><div class=\"author\">member{i}</div>\
                 <div class=\"post-body\"><p>Reply {i}: after the update the boat's chart \
                 plotter takes a minute to find its position, and switching the antenna \
                 cable did not change anything for me either.</p></div></article>"
            )
        })
        .collect();
    format!(
        "<!doctype html><html><head><title>Plotter slow after update - Electronics</title></head>\
         <body><nav><a href=\"/\">Forum home</a> <a href=\"/forums/electronics\">Electronics</a>\
         </nav><h1>Plotter slow after update</h1><div id=\"posts\">{posts}</div></body></html>"
    )
}

async fn server() -> Server {
    let (thread, empty) = (thread(), support::http::chrome_only_page());
    Server::start(move |r| match r.path() {
        "/robots.txt" => Reply::new(404, "text/plain", ""),
        "/articles/harbour-tides" => Reply::html(ARTICLE),
        "/topic/1234-plotter-slow/" => Reply::html(&thread),
        "/welcome" => Reply::html(&empty),
        "/json" => Reply::new(200, "application/json", r#"{"a":[1,2]}"#),
        _ => Reply::new(404, "text/plain", ""),
    })
    .await
}

fn quality(v: &Value) -> f64 {
    let q = v["extraction_quality"]
        .as_f64()
        .unwrap_or_else(|| panic!("a quality figure in {v}"));
    assert!((0.0..=1.0).contains(&q), "{q}");
    assert_eq!((q * 100.0).round() / 100.0, q, "two decimals: {q}");
    q
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fetch_url_says_what_the_page_is_and_how_far_to_trust_its_main_text() {
    let s = server().await;
    let env = Env::new(CONFIG);
    let session = connect(&env, Gen::Initialize, TestClient::new(Elicit::Off)).await;
    let fetch = |url: String, extract: &'static str| {
        let session = &session;
        async move {
            let r = call(
                session,
                "fetch_url",
                json!({"url": url, "extract": extract}),
            )
            .await;
            assert_ne!(r.is_error, Some(true), "{:?}", texts(&r));
            sc(&r)
        }
    };

    let article = fetch(s.url("/articles/harbour-tides"), "main").await;
    assert_eq!(article["page_type"], "article", "{article}");
    assert!(quality(&article) >= 0.5, "{article}");

    let forum = fetch(s.url("/topic/1234-plotter-slow/"), "main").await;
    assert_eq!(forum["page_type"], "forum", "{forum}");
    let q = quality(&forum);
    assert!(
        forum["text"].as_str().unwrap().contains("Reply 4: after"),
        "{forum}"
    );
    // Served again from the held copy: the same reading, no new request.
    let again = fetch(s.url("/topic/1234-plotter-slow/"), "main").await;
    assert_eq!(again["fromCache"], true);
    assert_eq!(
        (&again["page_type"], quality(&again)),
        (&forum["page_type"], q)
    );
    assert_eq!(s.hits("/topic/1234-plotter-slow/"), 1);

    let empty = fetch(s.url("/welcome"), "main").await;
    assert!(quality(&empty) < 0.5, "a page with almost no text: {empty}");
    assert!(
        quality(&empty) < quality(&article),
        "{empty} against {article}"
    );

    // The whole page asked for: the type, and no figure (nothing was left out).
    let full = fetch(s.url("/articles/harbour-tides"), "full").await;
    assert_eq!(full["extraction"], "full");
    assert_eq!(full["page_type"], "article");
    assert!(full.get("extraction_quality").is_none(), "{full}");
    // Not HTML: neither.
    let json = fetch(s.url("/json"), "main").await;
    assert!(
        json.get("page_type").is_none() && json.get("extraction_quality").is_none(),
        "{json}"
    );
    session.cancel().await.unwrap();
}

async fn get(data: &Path, url: String) -> Output {
    tokio::process::Command::new(env!("CARGO_BIN_EXE_smolweb"))
        .arg("--data-dir")
        .arg(data)
        .args(["get", &url])
        .env_remove("SMOLWEB_HOME")
        .env_remove("SMOLWEB_CONFIG")
        .output()
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn get_says_the_page_type_and_quality_on_stderr() {
    let s = server().await;
    let dir = tempfile::tempdir().unwrap();
    let o = get(dir.path(), s.url("/articles/harbour-tides")).await;
    assert!(o.status.success());
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(
        stdout.contains("Harbour tides") && !stdout.contains("quality"),
        "stdout is the page only: {stdout}"
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.starts_with("smolweb: article · quality 0."), "{err}");
    assert!(!err.contains("likely poor"), "{err}");
    let o = get(dir.path(), s.url("/welcome")).await;
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("· quality 0."), "{err}");
    assert!(
        err.contains("likely poor; --full gives the whole page")
            || err.contains("no main text found: the whole page follows"),
        "{err}"
    );
}
