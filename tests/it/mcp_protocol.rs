//! The agent face speaks JSON-RPC strictly, as a client sees it on the wire: a line that is not
//! JSON gets `-32700`, an oversized line gets an error with its id and costs bounded memory,
//! arguments that do not match the input schema get `-32602` naming the field up to 2025-06-18
//! and an `isError` result naming it from 2025-11-25, a `-32600` carries the request's id; the
//! server keeps serving after each. Closing stdin mid-batch ends the process
//! at once. The fetch tools declare their result size in `_meta`.

use crate::mcp_harness;
use smolweb_testkit as support;

use mcp_harness::raw::Raw;
use mcp_harness::*;
use serde_json::{Value, json};
use std::time::{Duration, Instant};
use support::gemini::{self, Reply, Routes};

fn ping(raw: &mut Raw, id: i64) {
    raw.send(&json!({"jsonrpc":"2.0","id":id,"method":"ping"}));
    let r = raw.reply(id);
    assert!(r["result"].is_object(), "the server still serves: {r}");
}

fn error_of(v: &Value) -> (i64, String) {
    let e = &v["error"];
    (
        e["code"]
            .as_i64()
            .unwrap_or_else(|| panic!("not an error: {v}")),
        e["message"].as_str().unwrap().to_string(),
    )
}

#[test]
fn invalid_json_gets_a_parse_error_and_the_server_keeps_serving() {
    let env = Env::loopback();
    let mut raw = Raw::initialized(&env);
    for bad in [
        &b"{\"jsonrpc\":\"2.0\",\"id\":1,"[..],
        b"not json at all",
        b"\xff\xfe",
    ] {
        raw.send_line(bad);
        let r = raw.next(Duration::from_secs(10));
        println!("reply to {:?}: {r}", String::from_utf8_lossy(bad));
        assert_eq!(r["id"], Value::Null, "{r}");
        assert_eq!(error_of(&r).0, -32700, "{r}");
    }
    ping(&mut raw, 2);
}

#[test]
fn an_oversized_line_gets_an_error_with_bounded_memory() {
    let env = Env::new(&format!(
        "{LOOPBACK_CONFIG}[mcp]\nmax_message_bytes = 1048576\n"
    ));
    let mut raw = Raw::initialized(&env);
    ping(&mut raw, 1);
    let before = raw.peak_rss_kib().unwrap();
    // 50 MB of a request that never ends its string, then the newline.
    let mut line = br#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"x","arguments":{"url":""#.to_vec();
    let chunk = vec![b'a'; 1024 * 1024];
    raw.send_bytes(&line);
    for _ in 0..50 {
        raw.send_bytes(&chunk);
    }
    line.clear();
    raw.send_line(b"\"}}}");
    let r = raw.next(Duration::from_secs(30));
    println!("reply to a 50 MB line: {r}");
    let (code, message) = error_of(&r);
    assert_eq!(code, -32600, "{r}");
    assert_eq!(r["id"], 3, "the reply carries the request's id: {r}");
    assert!(message.contains("1048576"), "{message}");
    assert_eq!(r["error"]["data"]["limit_bytes"], 1_048_576);
    assert!(r["error"]["data"]["message_bytes"].as_u64().unwrap() > 50_000_000);
    ping(&mut raw, 4);
    let after = raw.peak_rss_kib().unwrap();
    assert!(
        after < before + 16 * 1024,
        "peak RSS grew from {before} KiB to {after} KiB for a 50 MB line"
    );
}

/// The id of an oversized request is found in its first bytes, wherever it sits among the
/// members before the long part; only an id after the long part is lost (`id: null`).
#[test]
fn an_oversized_line_is_answered_with_its_id() {
    let env = Env::new(&format!(
        "{LOOPBACK_CONFIG}[mcp]\nmax_message_bytes = 65536\n"
    ));
    let mut raw = Raw::initialized(&env);
    let long = "a".repeat(200_000);
    let cases = [
        (
            format!(r#"{{"jsonrpc":"2.0", "id" : 41 ,"method":"ping","params":{{"x":"{long}"}}}}"#),
            json!(41),
        ),
        (
            format!(
                r#"{{"jsonrpc":"2.0","method":"tools/call","params":{{"name":"gemini_fetch","arguments":{{"id":1}}}},"id":"q\"\u00e9-42","x":"{long}"}}"#
            ),
            json!("q\"\u{e9}-42"),
        ),
        (
            format!(r#"{{"jsonrpc":"2.0","method":"ping","params":{{"x":"{long}"}},"id":43}}"#),
            Value::Null,
        ),
    ];
    for (line, id) in cases {
        raw.send_line(line.as_bytes());
        let r = raw.next(Duration::from_secs(30));
        println!("reply to a {} byte line: {r}", line.len());
        assert_eq!(error_of(&r).0, -32600, "{r}");
        assert_eq!(r["id"], id, "{r}");
    }
    ping(&mut raw, 44);
}

/// Calls whose arguments do not match the tool's input schema: (tool, arguments, field).
fn mismatched_calls() -> Vec<(&'static str, Value, &'static str)> {
    vec![
        ("gemini_fetch", json!({"url": 5}), "url"),
        (
            "gemini_fetch",
            json!({"url": "gemini://127.0.0.1/", "offset": "x"}),
            "offset",
        ),
        (
            "gemini_fetch",
            json!({"url": "gemini://127.0.0.1/", "offset": -1}),
            "offset",
        ),
        ("gemini_fetch", json!({}), "url"),
        // Past what the parameter types read (i64): refused like any range.
        (
            "gemini_fetch",
            json!({"url": "gemini://127.0.0.1/", "offset": u64::MAX}),
            "offset",
        ),
        (
            "gopher_fetch",
            json!({"url": "gopher://127.0.0.1/", "offset": -5}),
            "offset",
        ),
        ("gemini_batch_fetch", json!({"urls": "gemini://a/"}), "urls"),
        (
            "gemini_trust_update",
            json!({"action": "trust", "host": "a"}),
            "action",
        ),
        (
            "feed_fetch",
            json!({"url": "gemini://127.0.0.1/", "offset": -1}),
            "offset",
        ),
        (
            "fetch_url",
            json!({"url": "http://127.0.0.1:9/", "max_chars": 1_000_001}),
            "max_chars",
        ),
        // fetch_url's schema forbids unknown properties.
        (
            "fetch_url",
            json!({"url": "http://127.0.0.1:9/", "maxChars": 5}),
            "maxChars",
        ),
    ]
}

/// What stays a JSON-RPC error in every generation: an unknown tool, malformed requests.
fn malformed_requests_stay_protocol_errors(raw: &mut Raw) {
    raw.call(30, "no_such_tool", json!({}));
    let r = raw.reply(30);
    println!("unknown tool: {r}");
    assert_eq!(error_of(&r).0, -32602, "{r}");
    raw.send(&json!({"jsonrpc":"2.0","id":33,"method":"tools/call",
        "params":{"name":"gemini_fetch","arguments":[1]}}));
    let r = raw.reply(33);
    println!("arguments [1]: {r}");
    assert_eq!(error_of(&r).0, -32602, "{r}");
    assert_eq!(r["error"]["data"]["field"], "arguments");
    raw.send(&json!({"jsonrpc":"2.0","id":31,"method":7}));
    let r = raw.reply(31);
    println!("method 7: {r}");
    assert_eq!(error_of(&r).0, -32600);
    raw.send(&json!({"jsonrpc":"1.0","id":"x-32","method":"ping"}));
    let r = raw.reply("x-32");
    println!("jsonrpc 1.0: {r}");
    assert_eq!(error_of(&r).0, -32600);
    ping(raw, 40);
}

/// Up to 2025-06-18: a JSON-RPC `-32602` whose message and `data.field` name the field.
#[test]
fn arguments_that_do_not_match_the_schema_are_invalid_params_up_to_2025_06_18() {
    let env = Env::loopback();
    let mut raw = Raw::initialized(&env);
    for (i, (tool, args, field)) in mismatched_calls().into_iter().enumerate() {
        let id = 10 + i as i64;
        raw.call(id, tool, args.clone());
        let r = raw.reply(id);
        println!("{tool} {args}: {r}");
        let (code, message) = error_of(&r);
        assert_eq!(code, -32602, "{tool} {args}: {r}");
        assert!(message.contains(&format!("`{field}`")), "{message}");
        assert_eq!(r["error"]["data"]["field"], field);
        assert!(r.get("result").is_none());
    }
    malformed_requests_stay_protocol_errors(&mut raw);
}

/// From 2025-11-25 on: a tool execution error (`isError`) in the tool's own error shape, whose
/// message names the field; `fetch_url` says `INVALID_INPUT`, the others `INVALID_REQUEST`.
#[test]
fn arguments_that_do_not_match_the_schema_are_tool_errors_from_2025_11_25() {
    let env = Env::loopback();
    let mut raw = Raw::initialized_with(&env, "2025-11-25");
    for (i, (tool, args, field)) in mismatched_calls().into_iter().enumerate() {
        let id = 10 + i as i64;
        raw.call(id, tool, args.clone());
        let r = raw.reply(id);
        println!("{tool} {args}: {r}");
        assert!(r.get("error").is_none(), "{tool} {args}: {r}");
        let result = &r["result"];
        assert_eq!(result["isError"], true, "{r}");
        let sc = &result["structuredContent"];
        let error = &sc["error"];
        let code = if tool == "fetch_url" {
            assert!(sc.get("kind").is_none(), "fetch_url has no kind: {sc}");
            "INVALID_INPUT"
        } else {
            assert_eq!(sc["kind"], "error", "{sc}");
            "INVALID_REQUEST"
        };
        assert_eq!(error["code"], code, "{sc}");
        assert_eq!(error["retryable"], false, "{sc}");
        let message = error["message"].as_str().unwrap();
        assert!(message.contains(&format!("`{field}`")), "{message}");
        if tool.ends_with("_batch_fetch") {
            assert_eq!(sc["result"], json!([]), "{sc}");
        }
        let text = result["content"][0]["text"].as_str().unwrap();
        assert!(
            text.contains(&format!("`{field}`")),
            "the text block says it too: {text}"
        );
    }
    malformed_requests_stay_protocol_errors(&mut raw);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn closing_stdin_mid_batch_exits_at_once() {
    let server = gemini::Server::start(Routes::new().route("/hang", Reply::Silent)).await;
    let env = Env::new(
        "[network]\nallow_private_addresses = true\ntimeout_seconds = 30\n\
         [politeness]\nper_host_interval_ms = 0\n",
    );
    let mut raw = Raw::initialized(&env);
    let urls: Vec<String> = (0..10).map(|_| server.url("/hang")).collect();
    raw.call(5, "gemini_batch_fetch", json!({ "urls": urls }));
    let deadline = Instant::now() + Duration::from_secs(10);
    while server
        .requests()
        .iter()
        .filter(|r| r.path == "/hang")
        .count()
        < 3
    {
        assert!(Instant::now() < deadline, "the batch never started");
        std::thread::sleep(Duration::from_millis(10));
    }
    let closed = Instant::now();
    raw.close_stdin();
    assert!(
        raw.exited_within(Duration::from_secs(1)),
        "still running 1 s after stdin closed"
    );
    println!("exited {:?} after stdin closed", closed.elapsed());
    assert!(raw.child.wait().unwrap().success());
}

#[test]
fn fetch_tools_declare_their_result_size() {
    let env = Env::loopback();
    let mut raw = Raw::initialized(&env);
    raw.send(&json!({"jsonrpc":"2.0","id":2,"method":"tools/list"}));
    let r = raw.reply(2);
    let tools = r["result"]["tools"].as_array().unwrap();
    assert!(tools.len() >= 8, "{tools:?}");
    for t in tools {
        let name = t["name"].as_str().unwrap();
        let declared = &t["_meta"]["anthropic/maxResultSizeChars"];
        if name.ends_with("_fetch") || name == "fetch_url" {
            assert_eq!(declared, 200_000, "{name}: {t}");
        } else {
            assert!(declared.is_null(), "{name}");
        }
    }
}
