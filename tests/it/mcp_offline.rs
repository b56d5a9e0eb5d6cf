//! `smolweb --mcp` working offline (`[offline] work_offline = true`): pages the person kept
//! (a capsule page and a web article, kept by the browser's client) are answered from the
//! offline cache with `offline: true` and their age, a page not kept is a typed error
//! (`CONNECTION_ERROR` for Gemini, `CONNECTION_FAILED` for `fetch_url`) saying so, and no
//! request reaches either server.

use crate::mcp_harness;
use smolweb_testkit as support;

use mcp_harness::*;
use serde_json::json;
use smolweb_client::config::Config;
use smolweb_client::{Client, Face, OpenOptions};
use smolweb_store::paths::Paths;

const ARTICLE: &str = r#"<!doctype html><html lang="en"><head><title>Harbour tides</title></head><body>
<nav><a href="/">Home</a></nav><article><h1>Harbour tides</h1>
<p>The harbour fills slowly because the channel is long and narrow, and the water needs time to climb the shallow bar at its mouth. Boats wait outside for the flood.</p>
<p>Records kept by the harbour master over fifty years show the same delay in every season.</p>
</article></body></html>"#;

const OFFLINE_CONFIG: &str = "\
[network]
allow_private_addresses = true
allowed_hosts = [\"127.0.0.1\"]
timeout_seconds = 5
[politeness]
per_host_interval_ms = 0
[offline]
work_offline = true
";

/// The person's browser keeps `urls` (the human face's client on the same data directory).
async fn keep(env: &Env, urls: &[String]) {
    let paths = Paths::resolve(Some(env.data_dir()), Some(env.config_file()), None, None).unwrap();
    let mut config = Config::load(&paths.config_file).unwrap();
    config.offline.work_offline = false;
    let c = Client::new(config, paths, Face::Human).unwrap();
    for url in urls {
        let opts = OpenOptions::default();
        let o = c.open(url, &opts).await;
        assert!(c.keep_offline(&opts, &o).unwrap(), "{url} kept: {o:?}");
    }
}

#[tokio::test]
async fn mcp_working_offline_reads_only_the_offline_cache() {
    let gemini = support::gemini::Server::start(support::gemini::Routes::new().route(
        "/",
        support::gemini::Reply::gemtext("# Kept capsule\n=> /more More\n"),
    ))
    .await;
    let web = support::http::Server::start(|r| match r.path() {
        "/article" => support::http::Reply::html(ARTICLE),
        _ => support::http::Reply::new(404, "text/plain", "no"),
    })
    .await;
    let env = Env::new(OFFLINE_CONFIG);
    keep(&env, &[gemini.url("/"), web.url("/article")]).await;
    let (gemini_before, web_before) = (gemini.connections(), web.requests().len());

    let session = connect(&env, Gen::Initialize, TestClient::new(Elicit::Off)).await;
    // The output schemas publish the new fields (optional: absent when online).
    let tools = session.list_all_tools().await.unwrap();
    for (name, field) in [
        ("gemini_fetch", "\"offline\""),
        ("fetch_url", "\"offlineAgeSeconds\""),
    ] {
        let t = tools.iter().find(|t| t.name == name).unwrap();
        let schema = serde_json::to_string(t.output_schema.as_ref().unwrap()).unwrap();
        assert!(schema.contains(field), "{name}: {schema}");
    }
    let r = call(&session, "gemini_fetch", json!({"url": gemini.url("/")})).await;
    let v = sc(&r);
    assert_eq!(v["kind"], "gemtext", "{v}");
    assert_eq!(v["offline"], true, "{v}");
    assert_eq!(v["cached"], true);
    assert!(
        v["cached_at"].is_string() && v["cache_age_seconds"].is_number(),
        "{v}"
    );

    let r = call(
        &session,
        "gemini_fetch",
        json!({"url": gemini.url("/more")}),
    )
    .await;
    assert_eq!(error_code(&r), "CONNECTION_ERROR");
    let v = sc(&r);
    let message = v["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("working offline") && message.contains("not kept"),
        "{v}"
    );
    assert_eq!(v["error"]["retryable"], false);

    let r = call(&session, "fetch_url", json!({"url": web.url("/article")})).await;
    let v = sc(&r);
    assert_ne!(r.is_error, Some(true), "{v}");
    assert_eq!(v["offline"], true, "{v}");
    assert_eq!(v["fromCache"], true);
    assert!(
        v["offlineAgeSeconds"].is_number() && v["offlineFetchedAt"].is_string(),
        "{v}"
    );
    assert!(
        v["text"].as_str().unwrap().contains("harbour fills slowly"),
        "{v}"
    );

    let r = call(&session, "fetch_url", json!({"url": web.url("/other")})).await;
    assert_eq!(r.is_error, Some(true));
    assert_eq!(sc(&r)["error"]["code"], "CONNECTION_FAILED", "{}", sc(&r));
    assert_eq!(sc(&r)["error"]["retryable"], false);
    session.cancel().await.unwrap();

    assert_eq!(gemini.connections(), gemini_before, "no Gemini connection");
    assert_eq!(web.requests().len(), web_before, "no HTTP request");
}

/// Working offline, the windows of a long kept page come from the copy read once and held
/// (`cached` and `offline` on each) and join to the page; when the person's browser keeps a
/// newer copy meanwhile, the next window is cut from it, not from the held one.
#[tokio::test]
async fn mcp_offline_windows_of_a_kept_page_come_from_the_held_copy() {
    let page = |version: &str| -> String {
        (0..4000)
            .map(|i| match i % 5 {
                0 => format!("## {version} part {i}\n"),
                1 => format!("=> /p{i} {version} link {i}\n"),
                _ => format!("{version} line {i}: words that fill a long kept page.\n"),
            })
            .collect()
    };
    let (old, new) = (page("old"), page("new"));
    let served = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let routes = {
        let (served, old, new) = (served.clone(), old.clone(), new.clone());
        support::gemini::Routes::new().handler(move |_| {
            let n = served.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            support::gemini::Reply::gemtext(if n == 0 { &old } else { &new })
        })
    };
    let gemini = support::gemini::Server::start(routes).await;
    let env = Env::new(OFFLINE_CONFIG);
    let url = gemini.url("/long");
    keep(&env, std::slice::from_ref(&url)).await;

    let session = connect(&env, Gen::Initialize, TestClient::new(Elicit::Off)).await;
    let window = |offset: u64| {
        let args = json!({"url": url, "offset": offset});
        let s = &session;
        async move { sc(&call(s, "gemini_fetch", args).await) }
    };
    let (mut offset, mut rebuilt, mut windows) = (Some(0), String::new(), 0);
    while let Some(at) = offset {
        let v = window(at).await;
        assert_eq!(v["kind"], "gemtext", "{v}");
        assert_eq!(
            (v["cached"].clone(), v["offline"].clone()),
            (json!(true), json!(true))
        );
        for l in v["document"]["lines"].as_array().unwrap() {
            rebuilt.push_str(l["content"].as_str().unwrap());
            rebuilt.push('\n');
        }
        offset = v["next_offset"].as_u64();
        windows += 1;
    }
    assert!(windows >= 3, "{windows} windows");
    assert_eq!(rebuilt, old);

    keep(&env, std::slice::from_ref(&url)).await;
    let v = window(0).await;
    let first = v["document"]["lines"][0]["content"].as_str().unwrap();
    assert!(first.starts_with("## new part"), "{first}");
    session.cancel().await.unwrap();
}
