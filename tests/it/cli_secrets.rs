//! Secrets never reach a log: `smolweb --mcp` at the most verbose level (`SMOLWEB_LOG=trace`,
//! every target) answers a status-11 prompt with `input` and fetches a URL with a query, and
//! neither the answer nor the query appears in the log file, on stderr, or in any file of the
//! data directory. The same holds for `smolweb get --input` logging to stderr.

use smolweb_testkit as support;

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use support::gemini::{Reply, Routes, Server};

const ANSWER: &str = "hunter2-correct-horse";
const QUERY: &str = "my-private-search-words";
const SEARCH: &str = "my-gopher-search-terms";

fn secret_server_routes() -> Routes {
    Routes::new().handler(|req| match (req.path.as_str(), req.query.as_deref()) {
        ("/login", None) => Reply::status(11, "Password"),
        ("/login", Some(_)) => Reply::gemtext("# Welcome\nyou are in\n"),
        ("/search", _) => Reply::gemtext("# Results\nnothing found\n"),
        _ => Reply::status(51, "not found"),
    })
}

/// Every form a secret could take in a log line: as typed, percent-encoded, JSON-escaped.
fn forms(secret: &str) -> Vec<String> {
    vec![secret.to_string(), secret.replace('-', "%2D")]
}

fn assert_clean(what: &str, text: &str) {
    for secret in [ANSWER, QUERY, SEARCH] {
        for form in forms(secret) {
            assert!(!text.contains(&form), "{what} holds {form:?}:\n{text}");
        }
    }
}

fn scan_dir(dir: &Path) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            scan_dir(&path);
        } else {
            let bytes = std::fs::read(&path).unwrap();
            assert_clean(
                &path.display().to_string(),
                &String::from_utf8_lossy(&bytes),
            );
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn status_11_answers_and_queries_never_reach_logs_or_the_data_dir() {
    let server = Server::start(secret_server_routes()).await;
    let gopher = support::gopher::Server::start(support::gopher::Routes::new().route(
        "/find",
        support::gopher::Reply::menu(&[("i", "found it", "")]),
    ))
    .await;
    let gopher_url = gopher.url('7', "/find");
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let config = dir.path().join("config.toml");
    let log = dir.path().join("smolweb.log");
    std::fs::write(
        &config,
        "[network]\nallow_private_addresses = true\ntimeout_seconds = 5\n\
         [politeness]\nper_host_interval_ms = 0\n",
    )
    .unwrap();
    let login = server.url("/login");
    let search = server.url(&format!("/search?{QUERY}"));
    let (log2, data2) = (log.clone(), data.clone());
    let (stdout, stderr) = tokio::task::spawn_blocking(move || {
        let mut child = Command::new(env!("CARGO_BIN_EXE_smolweb"))
            .args(["--mcp", "--log-file"])
            .arg(&log2)
            .arg("--data-dir")
            .arg(&data2)
            .arg("--config")
            .arg(&config)
            .env("SMOLWEB_LOG", "trace")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let calls = [
            json!({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}),
            json!({"jsonrpc":"2.0","method":"notifications/initialized"}),
            json!({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"gemini_fetch","arguments":{"url": login, "input": ANSWER}}}),
            json!({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"gemini_fetch","arguments":{"url": search}}}),
            json!({"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"gopher_fetch","arguments":{"url": gopher_url, "search": SEARCH}}}),
        ];
        let mut stdout = String::new();
        for call in calls {
            writeln!(stdin, "{call}").unwrap();
            if call.get("id").is_none() {
                continue;
            }
            // Wait for this call's answer (skipping notifications) before the next one.
            loop {
                let line = lines.next().unwrap().unwrap();
                stdout.push_str(&line);
                stdout.push('\n');
                let v: Value = serde_json::from_str(&line).unwrap();
                if v["id"] == call["id"] {
                    break;
                }
            }
        }
        drop(stdin);
        let out = child.wait_with_output().unwrap();
        (stdout, String::from_utf8_lossy(&out.stderr).into_owned())
    })
    .await
    .unwrap();
    assert!(
        stdout.contains("you are in"),
        "the answer was sent: {stdout}"
    );
    assert!(
        stdout.contains("nothing found"),
        "the query was sent: {stdout}"
    );
    assert!(stdout.contains("found it"), "the search was sent: {stdout}");
    let queries: Vec<_> = server
        .requests()
        .into_iter()
        .filter_map(|r| r.query)
        .collect();
    assert!(queries.iter().any(|q| q.contains("hunter2")), "{queries:?}");

    let log_text = std::fs::read_to_string(&log).unwrap();
    assert!(
        log_text.contains("gemini request") && log_text.contains("gopher request"),
        "the log is written at trace level: {log_text}"
    );
    assert_clean("the log file", &log_text);
    assert_clean("stderr", &stderr);
    scan_dir(&data);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn get_with_input_logs_no_secret_to_stderr() {
    let server = Server::start(secret_server_routes()).await;
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().to_path_buf();
    let login = server.url("/login");
    let out = tokio::task::spawn_blocking(move || {
        Command::new(env!("CARGO_BIN_EXE_smolweb"))
            .arg("--data-dir")
            .arg(&data)
            .args(["get", &login, "--input", ANSWER])
            .env("SMOLWEB_LOG", "trace")
            .env_remove("SMOLWEB_CONFIG")
            .output()
            .unwrap()
    })
    .await
    .unwrap();
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("gemini request"), "{stderr}");
    assert_clean("stderr", &stderr);
    scan_dir(dir.path());
}
