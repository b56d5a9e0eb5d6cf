//! Every error code that can be provoked on loopback, and the server's robustness: stdout holds
//! JSON-RPC only, closing stdin early is a clean exit, a burst of 200 calls survives, and a
//! dripping capsule ends at the time budget while other calls complete.

use crate::mcp_harness;
use smolweb_testkit as support;

use mcp_harness::*;
use serde_json::{Value, json};
use std::io::Write;
use std::time::Duration;
use support::certs::TestCert;
use support::gemini::{self, Options, Reply, Routes};
use support::gopher;

async fn code_of(s: &Session, tool: &str, args: Value) -> String {
    error_code(&call(s, tool, args).await)
}

#[tokio::test]
async fn input_errors_are_results_not_protocol_errors() {
    let env = Env::loopback();
    let s = connect(&env, Gen::Initialize, TestClient::new(Elicit::Off)).await;
    let g = "gemini_fetch";
    let long = format!("gemini://example.org/{}", "a".repeat(1100));
    for args in [
        json!({"url": ""}),
        json!({"url": "https://example.org/"}),
        json!({"url": "gopher://127.0.0.1/"}),
        json!({"url": long}),
        json!({"url": "gemini://user@example.org/"}),
    ] {
        assert_eq!(
            code_of(&s, g, args.clone()).await,
            "INVALID_REQUEST",
            "{args}"
        );
    }
    for args in [
        json!({"url": "gopher://127.0.0.1/7/s", "search": "a\r\nb"}),
        json!({"url": "gopher://127.0.0.1/7/s", "search": "a\tb"}),
        json!({"url": "gopher://127.0.0.1/0/a%0d%0ab"}),
        json!({"url": "gemini://127.0.0.1/"}),
    ] {
        assert_eq!(
            code_of(&s, "gopher_fetch", args.clone()).await,
            "INVALID_REQUEST",
            "{args}"
        );
    }
    let r = call(
        &s,
        g,
        json!({"url": "gemini://user@example.org/?topsecret"}),
    )
    .await;
    assert!(!format!("{}{:?}", sc(&r), texts(&r)).contains("topsecret"));
    assert_eq!(
        code_of(
            &s,
            "gopher_fetch",
            json!({"url": "gopher://127.0.0.1/8/telnet"})
        )
        .await,
        "NOT_FETCHABLE"
    );
    // Arguments that do not match the input schema: on this 2025-11-25 session, results
    // naming the field (tests/mcp_protocol.rs has the wire-level cases of both generations).
    for (args, field) in [
        (json!({"url": 5}), "url"),
        (
            json!({"url": "gemini://127.0.0.1/", "offset": -1}),
            "offset",
        ),
    ] {
        let r = call(&s, g, args.clone()).await;
        assert_eq!(error_code(&r), "INVALID_REQUEST", "{args}");
        let message = sc(&r)["error"]["message"].as_str().unwrap().to_string();
        assert!(message.contains(&format!("`{field}`")), "{message}");
    }
    s.cancel().await.unwrap();
}

/// An rmcp client that asks for 2025-06-18 gets JSON-RPC `-32602` for the same arguments, and
/// one on 2025-11-25 or 2026-07-28 a result; rmcp hands each to its caller as shown.
#[tokio::test]
async fn schema_mismatches_follow_the_session_generation() {
    let env = Env::loopback();
    let args = json!({"url": "gemini://127.0.0.1/", "offset": -1});
    let old = TestClient::new(Elicit::Off).speaking(rmcp::model::ProtocolVersion::V_2025_06_18);
    let s = connect(&env, Gen::Initialize, old).await;
    let bad = s
        .call_tool(
            rmcp::model::CallToolRequestParams::new("gemini_fetch")
                .with_arguments(args.as_object().cloned().unwrap()),
        )
        .await;
    println!("rmcp client on 2025-06-18 sees: {bad:?}");
    match bad {
        Err(rmcp::ServiceError::McpError(e)) => {
            assert_eq!(e.code, rmcp::model::ErrorCode::INVALID_PARAMS, "{e:?}");
            assert_eq!(e.data.unwrap()["field"], "offset");
        }
        other => panic!("expected -32602, got {other:?}"),
    }
    s.cancel().await.unwrap();
    for generation in [Gen::Initialize, Gen::Discover] {
        let s = connect(&env, generation, TestClient::new(Elicit::Off)).await;
        let r = call(&s, "gemini_fetch", args.clone()).await;
        println!("rmcp client ({generation:?}) sees: {r:?}");
        assert_eq!(error_code(&r), "INVALID_REQUEST", "{generation:?}");
        s.cancel().await.unwrap();
    }
}

#[tokio::test]
async fn default_config_blocks_loopback() {
    let server = gemini::Server::start(Routes::new().route("/", Reply::gemtext("hi"))).await;
    let env = Env::new("");
    let s = connect(&env, Gen::Discover, TestClient::new(Elicit::Off)).await;
    let r = call(&s, "gemini_fetch", json!({"url": server.url("/")})).await;
    assert_eq!(error_code(&r), "BLOCKED");
    assert!(sc(&r)["request_info"].get("timestamp").is_none());
    assert!(server.requests().is_empty());
    s.cancel().await.unwrap();
}

#[tokio::test]
async fn remote_failures_map_to_codes() {
    let routes = Routes::new()
        .route(
            "/robots.txt",
            Reply::ok(
                "text/plain",
                b"User-agent: *\nDisallow: /private\n".to_vec(),
            ),
        )
        .route("/private/x", Reply::gemtext("no"))
        .route("/temp", Reply::status(41, "maintenance"))
        .route("/perm", Reply::status(51, "nothing here"))
        .route("/nocrlf", Reply::no_crlf())
        .route("/badstatus", Reply::invalid_status())
        .route("/endless", Reply::endless())
        .route("/silent", Reply::Silent);
    let server = gemini::Server::start(routes).await;
    let closed = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let env = Env::new(
        "[network]\nallow_private_addresses = true\ntimeout_seconds = 2\nmax_response_bytes = 65536\n\
         [politeness]\nper_host_interval_ms = 0\n",
    );
    let s = connect(&env, Gen::Initialize, TestClient::new(Elicit::Off)).await;
    let cases = [
        ("/private/x", "BLOCKED_BY_ROBOTS"),
        ("/temp", "TEMPORARY_ERROR"),
        ("/perm", "PERMANENT_ERROR"),
        ("/nocrlf", "PROTOCOL_ERROR"),
        ("/badstatus", "PROTOCOL_ERROR"),
        ("/endless", "RESPONSE_TOO_LARGE"),
        ("/silent", "TIMEOUT"),
    ];
    for (path, code) in cases {
        let r = call(&s, "gemini_fetch", json!({"url": server.url(path)})).await;
        assert_eq!(error_code(&r), code, "{path}");
        let e = &sc(&r)["error"];
        if code.ends_with("_ERROR") && path.len() < 6 {
            assert!(
                e["status"].is_number() && e["meta"].is_string(),
                "{path}: {e}"
            );
        }
    }
    let r = call(
        &s,
        "gemini_fetch",
        json!({"url": format!("gemini://127.0.0.1:{closed}/")}),
    )
    .await;
    assert_eq!(error_code(&r), "CONNECTION_ERROR");
    assert_eq!(sc(&r)["error"]["retryable"], true);

    let garbage = gemini::Server::start_with(
        Routes::new(),
        Options {
            tls_garbage: true,
            ..Options::default()
        },
    )
    .await;
    let r = call(&s, "gemini_fetch", json!({"url": garbage.url("/")})).await;
    assert_eq!(error_code(&r), "TLS_ERROR");

    let ok = gemini::Server::start(Routes::new().route("/", Reply::gemtext("# ok\n"))).await;
    let first = sc(&call(&s, "gemini_fetch", json!({"url": ok.url("/")})).await);
    assert_eq!(first["kind"], "gemtext");
    ok.set_cert(TestCert::new());
    let r = call(
        &s,
        "gemini_fetch",
        json!({"url": ok.url("/"), "refresh": true}),
    )
    .await;
    assert_eq!(error_code(&r), "CERTIFICATE_CHANGED");

    let future = gemini::Server::start_with(
        Routes::new().route("/", Reply::gemtext("x")),
        Options {
            cert: Some(TestCert::not_yet_valid()),
            ..Options::default()
        },
    )
    .await;
    let r = call(&s, "gemini_fetch", json!({"url": future.url("/")})).await;
    assert_eq!(error_code(&r), "CERTIFICATE_NOT_YET_VALID");

    let hole =
        gopher::Server::start(gopher::Routes::new().route("/slow", gopher::Reply::Silent)).await;
    let r = call(&s, "gopher_fetch", json!({"url": hole.url('0', "/slow")})).await;
    assert_eq!(error_code(&r), "TIMEOUT");

    // Last: a 44 pauses the whole host (127.0.0.1) for the client's pacing.
    let slow = gemini::Server::start(Routes::new().route("/", Reply::status(44, "3600"))).await;
    let r = call(&s, "gemini_fetch", json!({"url": slow.url("/")})).await;
    assert_eq!(error_code(&r), "SLOW_DOWN");
    let e = &sc(&r)["error"];
    assert_eq!(e["retry_after_seconds"], 3600);
    assert_eq!(e["retryable"], true);
    s.cancel().await.unwrap();
}

#[tokio::test]
async fn dripping_capsule_ends_at_the_budget_while_others_complete() {
    let body = "x".repeat(10_000);
    let routes = Routes::new()
        .route("/drip", Reply::drip(&body, Duration::from_millis(50)))
        .route("/fast", Reply::gemtext("# fast\n"));
    let server = gemini::Server::start(routes).await;
    let env = Env::new(
        "[network]\nallow_private_addresses = true\ntimeout_seconds = 2\n[politeness]\nper_host_interval_ms = 0\n",
    );
    let s = connect(&env, Gen::Initialize, TestClient::new(Elicit::Off)).await;
    let peer = s.peer().clone();
    let drip_url = server.url("/drip");
    let drip = tokio::spawn(async move {
        let args = json!({"url": drip_url}).as_object().cloned().unwrap();
        peer.call_tool(rmcp::model::CallToolRequestParams::new("gemini_fetch").with_arguments(args))
            .await
            .unwrap()
    });
    for i in 0..10 {
        let r = sc(&call(
            &s,
            "gemini_fetch",
            json!({"url": server.url("/fast"), "refresh": i > 0}),
        )
        .await);
        assert_eq!(r["kind"], "gemtext");
    }
    assert!(
        !drip.is_finished(),
        "fast calls finished while the drip was still going"
    );
    let r = drip.await.unwrap();
    assert_eq!(error_code(&r), "TIMEOUT");
    s.cancel().await.unwrap();
}

#[tokio::test]
async fn burst_of_200_concurrent_calls() {
    let server = gemini::Server::start(
        Routes::new().handler(|req| Reply::gemtext(&format!("# {}\n", req.path))),
    )
    .await;
    let env = Env::loopback();
    let s = connect(&env, Gen::Initialize, TestClient::new(Elicit::Off)).await;
    let mut tasks = Vec::new();
    for i in 0..200 {
        let peer = s.peer().clone();
        let url = server.url(&format!("/p{}", i % 40));
        tasks.push(tokio::spawn(async move {
            let args = json!({"url": url}).as_object().cloned().unwrap();
            peer.call_tool(
                rmcp::model::CallToolRequestParams::new("gemini_fetch").with_arguments(args),
            )
            .await
            .unwrap()
        }));
    }
    for (i, t) in tasks.into_iter().enumerate() {
        let r = sc(&t.await.unwrap());
        assert_eq!(r["kind"], "gemtext", "call {i}: {r}");
        assert_eq!(r["document"]["lines"][0]["text"], format!("/p{}", i % 40));
    }
    s.cancel().await.unwrap();
}

fn spawn_raw(env: &Env) -> std::process::Child {
    std::process::Command::new(env!("CARGO_BIN_EXE_smolweb"))
        .arg("--mcp")
        .args(env.args())
        .env_remove("SMOLWEB_HOME")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap()
}

#[test]
fn stdout_carries_json_rpc_only_and_early_close_is_clean() {
    let env = Env::loopback();
    let mut child = spawn_raw(&env);
    drop(child.stdin.take());
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "closing stdin before the handshake is a normal exit"
    );
    assert!(out.stdout.is_empty(), "nothing on stdout: {:?}", out.stdout);

    let mut child = spawn_raw(&env);
    let mut stdin = child.stdin.take().unwrap();
    let lines = [
        json!({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}),
        json!({"jsonrpc":"2.0","method":"notifications/initialized"}),
        json!({"jsonrpc":"2.0","id":2,"method":"tools/list"}),
        json!({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"gemini_fetch","arguments":{"url":"gemini://127.0.0.1:1/"}}}),
        json!({"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"no_such_tool","arguments":{}}}),
    ];
    for l in lines {
        writeln!(stdin, "{l}").unwrap();
    }
    stdin.flush().unwrap();
    // Read until the four replies are in (each line must be JSON-RPC), then close stdin.
    let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut ids = Vec::new();
    while ids.len() < 4 {
        let mut line = String::new();
        let n = std::io::BufRead::read_line(&mut stdout, &mut line).unwrap();
        assert!(n > 0, "stdout closed after replies {ids:?}");
        let v: Value =
            serde_json::from_str(&line).unwrap_or_else(|_| panic!("not JSON-RPC: {line}"));
        assert_eq!(v["jsonrpc"], "2.0");
        ids.push(v["id"].as_i64().unwrap());
        if v["id"] == 1 {
            assert!(v["result"]["capabilities"].get("logging").is_none());
        }
        if v["id"] == 3 {
            assert_eq!(v["result"]["isError"], true);
        }
        if v["id"] == 4 {
            assert!(v["error"].is_object(), "unknown tool is a JSON-RPC error");
        }
    }
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut stdout, &mut rest).unwrap();
    assert!(rest.is_empty(), "nothing after the replies: {rest}");
    assert!(out.stdout.is_empty());
    ids.sort();
    assert_eq!(ids, [1, 2, 3, 4]);
}
