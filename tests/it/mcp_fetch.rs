//! The fetch tools over stdio against the built binary, with rmcp's client on both protocol
//! generations: tools/list schemas, gemtext, windows, input, redirects, Gopher menus and
//! search, batches with progress.

use crate::mcp_harness;
use smolweb_testkit as support;

use crate::mcp_tools_list::{published, published_names};
use mcp_harness::*;
use rmcp::model::{CallToolRequestParams, ClientRequest, Request, ServerResult};
use rmcp::service::PeerRequestOptions;
use serde_json::{Value, json};
use support::gemini::{self, Reply, Routes};
use support::gopher;

async fn check_tools_list(generation: Gen) {
    let env = Env::loopback();
    let s = connect(&env, generation, TestClient::new(Elicit::Off)).await;
    let info = s
        .peer_info()
        .and_then(|i| i.server_info.clone())
        .expect("server info");
    assert_eq!(info.name, "smolweb");
    assert_eq!(info.version, env!("CARGO_PKG_VERSION"));
    let tools = s.list_all_tools().await.unwrap();
    let names: Vec<String> = tools.iter().map(|t| t.name.to_string()).collect();
    assert_eq!(
        names,
        published_names(),
        "the tools of tests/snapshots/mcp_tools_list.snap, in its order"
    );
    for t in &tools {
        // What this generation is told is what the snapshot holds, annotations included.
        let listed = serde_json::to_value(t).unwrap();
        let expected = published();
        let snap = expected
            .iter()
            .find(|p| p["name"] == listed["name"])
            .unwrap();
        assert_eq!(&listed, snap, "{} as the snapshot has it", t.name);
        let out = t
            .output_schema
            .as_ref()
            .expect("every tool has an outputSchema");
        assert_eq!(out["type"], "object", "{}", t.name);
        assert_eq!(t.input_schema["type"], "object");
        check_annotations(t);
        if t.name == "fetch_url" {
            // safe-fetch-mcp-server's shape: a page or a failure, no `kind` (tests/web_mcp.rs).
            assert!(out["anyOf"].as_array().is_some_and(|a| a.len() == 2));
            continue;
        }
        // A single result is a `oneOf` by kind; a batch's is the same under `result`.
        let out = Value::Object((**out).clone());
        let one_of = out["oneOf"]
            .as_array()
            .or_else(|| out["properties"]["result"]["items"]["oneOf"].as_array())
            .unwrap_or_else(|| panic!("{} has no oneOf by kind", t.name));
        assert!(one_of.len() >= 2, "{}", t.name);
        assert!(
            one_of
                .iter()
                .all(|k| k["properties"]["kind"]["const"].is_string())
        );
    }
    let policy = s
        .read_resource(rmcp::model::ReadResourceRequestParams::new(
            "smolweb://policy",
        ))
        .await
        .unwrap();
    let text = match &policy.contents[0] {
        rmcp::model::ResourceContents::TextResourceContents { text, .. } => text.clone(),
        _ => panic!("policy is text"),
    };
    let v: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["mcp"]["max_rendered_chars"], 50000);
    assert_eq!(v["network"]["allow_private_addresses"], true);
    assert!(!text.contains(&env.data_dir().display().to_string()));
    s.cancel().await.unwrap();
}

/// What every tool's annotations must say, whatever its name: a title, whether it only reads
/// and whether it reaches the network; a tool that changes something says whether the change
/// destroys and whether repeating it changes more (the spec's defaults for those two are the
/// worst case, so they are stated, never left to a client's guess); a read-only tool claims
/// neither.
fn check_annotations(t: &rmcp::model::Tool) {
    let a = t.annotations.as_ref().expect("annotations");
    assert!(
        a.title.as_deref().is_some_and(|x| !x.is_empty()),
        "{}",
        t.name
    );
    let read_only = a.read_only_hint.expect("readOnlyHint is stated");
    assert!(
        a.open_world_hint.is_some(),
        "{}: openWorldHint is stated",
        t.name
    );
    if read_only {
        assert_eq!(a.destructive_hint, None, "{}", t.name);
    } else {
        assert!(
            a.destructive_hint.is_some(),
            "{}: destructiveHint is stated",
            t.name
        );
        assert!(
            a.idempotent_hint.is_some(),
            "{}: idempotentHint is stated",
            t.name
        );
    }
}

#[tokio::test]
async fn tools_list_and_policy_initialize() {
    check_tools_list(Gen::Initialize).await;
}

#[tokio::test]
async fn tools_list_and_policy_discover() {
    check_tools_list(Gen::Discover).await;
}

const PAGE: &str =
    "# Capsule\nWelcome.\n=> /next Next page\n=> gemini://elsewhere.example/ Far\n* one\n";

async fn gemtext_page(generation: Gen) {
    let server = gemini::Server::start(Routes::new().route("/", Reply::gemtext(PAGE))).await;
    let env = Env::loopback();
    let s = connect(&env, generation, TestClient::new(Elicit::Off)).await;
    let r = call(&s, "gemini_fetch", json!({"url": server.url("/")})).await;
    let v = sc(&r);
    assert_eq!(r.is_error, Some(false));
    assert_eq!(v["kind"], "gemtext", "{v}");
    assert_eq!(v["cached"], false);
    let lines = v["document"]["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 5);
    assert_eq!(lines[2]["link"]["url"], server.url("/next"));
    assert_eq!(v["request_info"]["cert_fingerprint"], server.fingerprint());
    assert!(
        v["request_info"]["tls_version"]
            .as_str()
            .unwrap()
            .starts_with("TLSv1.")
    );
    assert_eq!(v["request_info"]["has_query"], false);
    let t = texts(&r);
    assert_eq!(t.len(), 1);
    assert!(t[0].starts_with("gemtext gemini://127.0.0.1:"));
    assert!(t[0].contains(&format!("[1] Next page <{}>", server.url("/next"))));

    let again = sc(&call(&s, "gemini_fetch", json!({"url": server.url("/")})).await);
    assert_eq!(again["cached"], true);
    assert!(again["cache_age_seconds"].is_number());
    let pages = server.requests().iter().filter(|q| q.path == "/").count();
    assert_eq!(pages, 1, "the second fetch came from the cache");
    let fresh = sc(&call(
        &s,
        "gemini_fetch",
        json!({"url": server.url("/"), "refresh": true}),
    )
    .await);
    assert_eq!(fresh["cached"], false);
    s.cancel().await.unwrap();
}

#[tokio::test]
async fn gemtext_page_initialize() {
    gemtext_page(Gen::Initialize).await;
}

#[tokio::test]
async fn gemtext_page_discover() {
    gemtext_page(Gen::Discover).await;
}

#[tokio::test]
async fn window_walk_rebuilds_a_large_body_from_one_download() {
    let body: String = (0..6000)
        .map(|i| match i % 7 {
            0 => format!("## Section {i}\n"),
            1 => format!("=> /p{i} Link number {i}\n"),
            2 => "```\n".to_string(),
            3 => format!("=> not a link inside preformat {i}\n"),
            4 => "```\n".to_string(),
            _ => format!("Line {i}: some ordinary words to fill the page with text.\n"),
        })
        .collect();
    assert!(body.chars().count() > 120_000);
    let server = gemini::Server::start(Routes::new().route("/big", Reply::gemtext(&body))).await;
    let env = Env::loopback();
    let s = connect(&env, Gen::Initialize, TestClient::new(Elicit::Off)).await;
    let (mut offset, mut rebuilt, mut windows) = (0u64, String::new(), 0);
    loop {
        let r = call(
            &s,
            "gemini_fetch",
            json!({"url": server.url("/big"), "offset": offset}),
        )
        .await;
        let v = sc(&r);
        assert_eq!(v["kind"], "gemtext");
        assert_eq!(
            v["cached"],
            windows > 0,
            "later windows come from the held body"
        );
        for l in v["document"]["lines"].as_array().unwrap() {
            if l["content"].as_str().unwrap().starts_with("=> not a link") {
                assert_eq!(l["type"], "preformat", "a cut never invents a link: {l}");
            }
            rebuilt.push_str(l["content"].as_str().unwrap());
            rebuilt.push('\n');
        }
        windows += 1;
        assert!(texts(&r)[0].contains(&format!("chars {offset}-")));
        match v["next_offset"].as_u64() {
            Some(n) => offset = n,
            None => break,
        }
    }
    assert_eq!(rebuilt, body);
    assert!(windows >= 3);
    assert_eq!(
        server
            .requests()
            .iter()
            .filter(|q| q.path == "/big")
            .count(),
        1
    );
    s.cancel().await.unwrap();
}

/// A window read from the held copy after a refresh shows the new text: the parsed document
/// windows are cut from goes with the page it was parsed from.
#[tokio::test]
async fn a_window_after_a_refresh_shows_the_new_text() {
    let page = |version: &str| -> String {
        (0..4000)
            .map(|i| format!("{version} line {i}: words that fill a long page.\n"))
            .collect()
    };
    let (old, new) = (page("old"), page("new"));
    let served = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let routes = {
        let (served, old, new) = (served.clone(), old.clone(), new.clone());
        Routes::new().handler(move |req| {
            if req.path != "/page" {
                return Reply::status(51, "not found");
            }
            let n = served.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            Reply::gemtext(if n == 0 { &old } else { &new })
        })
    };
    let server = gemini::Server::start(routes).await;
    let env = Env::loopback();
    let s = connect(&env, Gen::Initialize, TestClient::new(Elicit::Off)).await;
    let url = server.url("/page");
    let window = |offset: u64, refresh: bool| {
        let args = json!({"url": url, "offset": offset, "refresh": refresh});
        let s = &s;
        async move { sc(&call(s, "gemini_fetch", args).await) }
    };
    let first = window(0, false).await;
    let next = first["next_offset"].as_u64().unwrap();
    let held = window(next, false).await;
    assert_eq!(held["cached"], true);
    let first_line = |v: &Value| {
        v["document"]["lines"][0]["content"]
            .as_str()
            .unwrap()
            .to_string()
    };
    assert!(
        first_line(&held).starts_with("old line"),
        "{}",
        first_line(&held)
    );

    let fresh = window(0, true).await;
    assert_eq!(fresh["cached"], false);
    assert!(first_line(&fresh).starts_with("new line"));
    let (mut offset, mut rebuilt) = (fresh["next_offset"].as_u64(), String::new());
    for l in fresh["document"]["lines"].as_array().unwrap() {
        rebuilt.push_str(l["content"].as_str().unwrap());
        rebuilt.push('\n');
    }
    while let Some(at) = offset {
        let v = window(at, false).await;
        assert_eq!(v["cached"], true, "later windows come from the new copy");
        for l in v["document"]["lines"].as_array().unwrap() {
            rebuilt.push_str(l["content"].as_str().unwrap());
            rebuilt.push('\n');
        }
        offset = v["next_offset"].as_u64();
    }
    assert_eq!(
        rebuilt, new,
        "every window after the refresh is the new text"
    );
    assert_eq!(served.load(std::sync::atomic::Ordering::SeqCst), 2);
    s.cancel().await.unwrap();
}

#[tokio::test]
async fn input_answer_redirects_and_binary() {
    let routes = Routes::new()
        .route("/moved", Reply::status(30, "/target"))
        .route("/gone-away", Reply::status(31, "gemini://other.example/x"))
        .route(
            "/img",
            Reply::ok("image/png", vec![0x89, b'P', b'N', b'G', 0, 1, 2]),
        )
        .handler(|req| match (req.path.as_str(), &req.query) {
            ("/ask", None) => Reply::status(10, "Your name?"),
            ("/ask", Some(q)) => Reply::gemtext(&format!("# Hello\nlength {}\n", q.len())),
            _ => Reply::status(51, "not found"),
        });
    let server = gemini::Server::start(routes).await;
    let env = Env::loopback();
    let s = connect(&env, Gen::Initialize, TestClient::new(Elicit::Off)).await;
    let ask = sc(&call(&s, "gemini_fetch", json!({"url": server.url("/ask")})).await);
    assert_eq!(ask["kind"], "input");
    assert_eq!(ask["prompt"], "Your name?");
    assert_eq!(ask["sensitive"], false);
    let r = call(
        &s,
        "gemini_fetch",
        json!({"url": server.url("/ask"), "input": "Zoë Quux"}),
    )
    .await;
    let v = sc(&r);
    assert_eq!(v["kind"], "gemtext");
    assert_eq!(v["request_info"]["has_query"], true);
    let all = format!("{v}{}", texts(&r).join(""));
    assert!(
        !all.contains("Quux") && !all.contains("Zo%C3%AB"),
        "the answer is never echoed"
    );
    let sent = server
        .requests()
        .into_iter()
        .find(|q| q.query.is_some())
        .unwrap();
    assert_eq!(sent.query.as_deref(), Some("Zo%C3%AB%20Quux"));

    let moved = sc(&call(&s, "gemini_fetch", json!({"url": server.url("/moved")})).await);
    assert_eq!(moved["kind"], "redirect");
    assert_eq!(moved["new_url"], server.url("/target"));
    assert_eq!(moved["permanent"], false);
    assert_eq!(moved["cross_host"], false);
    let far = sc(&call(&s, "gemini_fetch", json!({"url": server.url("/gone-away")})).await);
    assert_eq!(far["permanent"], true);
    assert_eq!(far["cross_host"], true);

    let img = call(&s, "gemini_fetch", json!({"url": server.url("/img")})).await;
    let v = sc(&img);
    assert_eq!(v["kind"], "binary");
    assert_eq!(v["size"], 7);
    assert_eq!(v["mime_type"]["subtype"], "png");
    s.cancel().await.unwrap();
}

#[tokio::test]
async fn gopher_menu_search_and_a_5000_item_menu() {
    let mut big = String::new();
    for i in 0..5000 {
        big.push_str(&format!("0Item {i}\t/item{i}\t127.0.0.1\t70\r\n"));
    }
    big.push_str(".\r\n");
    let routes = gopher::Routes::new()
        .route(
            "",
            gopher::Reply::menu(&[
                ("i", "Welcome", ""),
                ("0", "About", "/about"),
                ("7", "Search", "/s"),
            ]),
        )
        .route("/about", gopher::Reply::text("About this hole.\r\n.\r\n"))
        .route("/big", gopher::Reply::Bytes(big.into_bytes()))
        .handler(|req| match (req.selector.as_str(), &req.search) {
            ("/s", Some(q)) => gopher::Reply::menu(&[("0", &format!("Result for {q}"), "/r")]),
            _ => gopher::Reply::text("3not here\terror.host\t1\r\n.\r\n"),
        });
    let server = gopher::Server::start(routes).await;
    let env = Env::loopback();
    let s = connect(&env, Gen::Discover, TestClient::new(Elicit::Off)).await;
    let menu = call(&s, "gopher_fetch", json!({"url": server.url('1', "")})).await;
    let v = sc(&menu);
    assert_eq!(v["kind"], "menu", "{v}");
    assert_eq!(v["total_items"], 3);
    assert_eq!(v["items"][0]["type"], "i");
    assert_eq!(v["items"][0]["next_url"], "");
    assert_eq!(v["items"][1]["title"], "About");
    assert!(texts(&menu)[0].contains("(text) About <gopher://127.0.0.1/0/about>"));

    let text = sc(&call(
        &s,
        "gopher_fetch",
        json!({"url": server.url('0', "/about")}),
    )
    .await);
    assert_eq!(text["kind"], "text");
    assert!(
        text["text"]
            .as_str()
            .unwrap()
            .starts_with("About this hole.")
    );

    let found = sc(&call(
        &s,
        "gopher_fetch",
        json!({"url": server.url('7', "/s"), "search": "tea pot"}),
    )
    .await);
    assert_eq!(found["kind"], "menu", "{found}");
    assert_eq!(found["items"][0]["title"], "Result for tea pot");

    let (mut offset, mut seen) = (0u64, Vec::new());
    loop {
        let v = sc(&call(
            &s,
            "gopher_fetch",
            json!({"url": server.url('1', "/big"), "offset": offset}),
        )
        .await);
        assert_eq!(v["total_items"], 5000);
        let items = v["items"].as_array().unwrap();
        assert!(items.len() <= 1000);
        seen.extend(
            items
                .iter()
                .map(|i| i["title"].as_str().unwrap().to_string()),
        );
        match v["next_offset"].as_u64() {
            Some(n) => offset = n,
            None => break,
        }
    }
    assert_eq!(seen.len(), 5000);
    assert_eq!(seen[4999], "Item 4999");
    let big_requests = server
        .requests()
        .iter()
        .filter(|r| r.selector == "/big")
        .count();
    assert_eq!(big_requests, 1);
    s.cancel().await.unwrap();
}

#[tokio::test]
async fn batch_keeps_order_and_reports_progress() {
    let routes = Routes::new()
        .route("/a", Reply::gemtext("# A\n"))
        .route("/b", Reply::ok("text/plain", b"bee".to_vec()))
        .route(
            "/slow",
            Reply::drip("# Slow\n", std::time::Duration::from_millis(20)),
        )
        .route("/gone", Reply::status(52, "gone"))
        .route("/ask", Reply::status(11, "Password"));
    let one = gemini::Server::start(routes.clone()).await;
    let two = gemini::Server::start(routes).await;
    let urls = vec![
        one.url("/slow"),
        one.url("/a"),
        two.url("/b"),
        "".to_string(),
        two.url("/gone"),
        "gopher://127.0.0.1/1/".to_string(),
        one.url("/ask"),
        two.url("/a"),
        two.url("/slow"),
        one.url("/b"),
    ];
    let expect = [
        "gemtext", "gemtext", "success", "error", "error", "error", "input", "gemtext", "gemtext",
        "success",
    ];
    let env = Env::loopback();
    let client = TestClient::new(Elicit::Off);
    let progress = client.progress.clone();
    let mut handled = client.progress_count.subscribe();
    let s = connect(&env, Gen::Initialize, client).await;
    let args = json!({"urls": urls}).as_object().cloned().unwrap();
    let handle = s
        .send_cancellable_request(
            ClientRequest::CallToolRequest(Request::new(
                CallToolRequestParams::new("gemini_batch_fetch").with_arguments(args),
            )),
            PeerRequestOptions::no_options(),
        )
        .await
        .unwrap();
    let ServerResult::CallToolResult(r) = handle.await_response().await.unwrap() else {
        panic!("not a tool result");
    };
    let v = sc(&r);
    let result = v["result"].as_array().unwrap();
    let kinds: Vec<&str> = result.iter().map(|e| e["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, expect);
    assert_eq!(result[3]["error"]["code"], "INVALID_REQUEST");
    assert_eq!(result[4]["error"]["code"], "PERMANENT_ERROR");
    assert_eq!(result[5]["error"]["code"], "INVALID_REQUEST");
    assert_eq!(result[6]["sensitive"], true);
    assert_eq!(texts(&r).len(), 10, "one text block per URL");
    assert!(texts(&r)[2].starts_with("success text/plain"));
    assert_eq!(r.is_error, Some(false));
    // The notifications were sent before the result; wait (bounded) until all are handled.
    let all = handled.wait_for(|n| *n >= 10);
    let _ = tokio::time::timeout(std::time::Duration::from_secs(10), all).await;
    let p = progress.lock().unwrap().clone();
    assert_eq!(p.len(), 10, "one progress notification per element: {p:?}");
    assert_eq!(p.last().copied(), Some(10.0));

    // Each element is what the single-fetch tool returns (now from the cache).
    let single = sc(&call(&s, "gemini_fetch", json!({"url": one.url("/a")})).await);
    let mut element = result[1].clone();
    let mut single_cmp = single.clone();
    for x in [&mut element, &mut single_cmp] {
        x.as_object_mut()
            .unwrap()
            .retain(|k, _| !k.starts_with("cache") && k != "request_info");
    }
    assert_eq!(element, single_cmp);

    let many: Vec<String> = (0..51).map(|i| one.url(&format!("/n{i}"))).collect();
    let r = call(&s, "gemini_batch_fetch", json!({"urls": many})).await;
    let v = sc(&r);
    let result = v["result"].as_array().unwrap();
    assert_eq!(result.len(), 51);
    assert!(
        result
            .iter()
            .all(|e| e["error"]["code"] == "INVALID_REQUEST")
    );
    assert_eq!(r.is_error, Some(true));
    assert!(!one.requests().iter().any(|q| q.path.starts_with("/n")));
    s.cancel().await.unwrap();
}

#[tokio::test]
async fn gopher_batch_mixed() {
    let routes = gopher::Routes::new()
        .route("/t", gopher::Reply::text("hello\r\n.\r\n"))
        .route("", gopher::Reply::menu(&[("0", "T", "/t")]));
    let server = gopher::Server::start(routes).await;
    let env = Env::loopback();
    let s = connect(&env, Gen::Discover, TestClient::new(Elicit::Off)).await;
    let urls = [
        server.url('0', "/t"),
        server.url('8', "/telnet"),
        server.url('1', ""),
    ];
    let v = sc(&call(&s, "gopher_batch_fetch", json!({"urls": urls})).await);
    let r = v["result"].as_array().unwrap();
    assert_eq!(r[0]["kind"], "text");
    assert_eq!(r[1]["error"]["code"], "NOT_FETCHABLE");
    assert_eq!(r[2]["kind"], "menu");
    s.cancel().await.unwrap();
}
