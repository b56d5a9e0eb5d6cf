//! `smolweb --mcp --http`: the built binary serving MCP over Streamable HTTP on 127.0.0.1.
//! The official Python SDK's Streamable HTTP client drives it (tests/python/http_transport.py);
//! the refusals are raw HTTP/1.1 requests over a std `TcpStream` (no token, a wrong token, a
//! foreign Origin, a foreign Host, an oversized body, too many sessions, a malformed body, an
//! idle session); a `notifications/cancelled` stops a call in flight; and the MCP Inspector
//! CLI lists the tools when it is installed (SMOLWEB_INSPECTOR, or target/inspector;
//! SMOLWEB_REQUIRE_INSPECTOR=1 makes its absence a failure).

use crate::mcp_harness::{Env, LOOPBACK_CONFIG, python};
use serde_json::{Value, json};
use smolweb_testkit::gemini::{self, Reply, Routes};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// A running `smolweb --mcp --http 127.0.0.1:0`, killed on drop.
pub(crate) struct Server {
    pub(crate) child: Child,
    pub(crate) port: u16,
    pub(crate) token: String,
    /// Everything it wrote to stderr up to the address line.
    banner: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn config(extra: &str) -> Env {
    Env::new(&format!("{LOOPBACK_CONFIG}{extra}"))
}

impl Server {
    pub(crate) fn start(env: &Env) -> Server {
        Server::start_with(env, &["--http", "127.0.0.1:0"])
    }

    fn start_with(env: &Env, http_args: &[&str]) -> Server {
        let (ok, token) = env.run(&["mcp", "token"]);
        assert!(ok, "smolweb mcp token");
        let mut child = Command::new(env!("CARGO_BIN_EXE_smolweb"))
            .args(env.args())
            .arg("--mcp")
            .args(http_args)
            .env_remove("SMOLWEB_HOME")
            .env_remove("SMOLWEB_CONFIG")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut err = BufReader::new(child.stderr.take().unwrap());
        let mut banner = String::new();
        let port = loop {
            let mut line = String::new();
            assert!(
                err.read_line(&mut line).unwrap() > 0,
                "the server stopped before saying its address: {banner}"
            );
            banner.push_str(&line);
            if let Some(rest) = line.split("MCP over HTTP at http://").nth(1) {
                let authority = rest.trim().trim_end_matches("/mcp");
                let port = authority.rsplit(':').next().unwrap();
                break port.parse().unwrap();
            }
        };
        // Keep draining stderr so the server never blocks on a full pipe.
        std::thread::spawn(move || {
            let mut sink = Vec::new();
            let _ = err.read_to_end(&mut sink);
        });
        Server {
            child,
            port,
            token: token.trim().to_string(),
            banner,
        }
    }

    fn url(&self) -> String {
        format!("http://127.0.0.1:{}/mcp", self.port)
    }

    /// A POST of `body` to /mcp with the token, the Host the server is at, and `headers`.
    fn post(&self, body: &str, headers: &[(&str, &str)]) -> HttpReply {
        let mut all = vec![
            ("Host".to_string(), format!("127.0.0.1:{}", self.port)),
            ("Authorization".into(), format!("Bearer {}", self.token)),
        ];
        all.extend(headers.iter().map(|(k, v)| (k.to_string(), v.to_string())));
        request(self.port, "POST", "/mcp", &all, body.as_bytes())
    }

    fn initialize(&self, name: &str) -> HttpReply {
        self.post(&initialize(name), &[])
    }

    fn stdout_is_empty(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let mut out = String::new();
        self.child
            .stdout
            .take()
            .unwrap()
            .read_to_string(&mut out)
            .unwrap();
        assert_eq!(out, "", "nothing but nothing on stdout under --mcp --http");
    }
}

fn initialize(name: &str) -> String {
    json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": name, "version": "1"}}})
    .to_string()
}

#[derive(Debug)]
struct HttpReply {
    status: u16,
    headers: Vec<(String, String)>,
    body: String,
}

impl HttpReply {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The JSON-RPC message in the body (plain JSON, or the `data:` line of an SSE event).
    fn message(&self) -> Value {
        if let Ok(v) = serde_json::from_str(&self.body) {
            return v;
        }
        self.body
            .lines()
            .filter_map(|l| l.strip_prefix("data:"))
            .filter_map(|d| serde_json::from_str(d.trim()).ok())
            .find(|v: &Value| v.get("id").is_some())
            .unwrap_or_else(|| panic!("no JSON-RPC message in {self:?}"))
    }
}

/// One HTTP/1.1 request with `Connection: close`; the whole reply (chunked bodies decoded).
fn request(
    port: u16,
    method: &str,
    path: &str,
    headers: &[(String, String)],
    body: &[u8],
) -> HttpReply {
    let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    let mut head = format!("{method} {path} HTTP/1.1\r\n");
    let has = |n: &str| headers.iter().any(|(k, _)| k.eq_ignore_ascii_case(n));
    for (k, v) in headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    if !has("accept") {
        head.push_str("Accept: application/json, text/event-stream\r\n");
    }
    if !has("content-type") && method == "POST" {
        head.push_str("Content-Type: application/json\r\n");
    }
    head.push_str(&format!(
        "Content-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    ));
    s.write_all(head.as_bytes()).unwrap();
    // The server may answer (413) before reading all of a large body; a write error then is fine.
    let _ = s.write_all(body);
    let mut raw = Vec::new();
    let _ = s.read_to_end(&mut raw);
    parse(&raw)
}

fn parse(raw: &[u8]) -> HttpReply {
    let text = String::from_utf8_lossy(raw);
    let (head, body) = text
        .split_once("\r\n\r\n")
        .unwrap_or_else(|| panic!("a reply: {text}"));
    let mut lines = head.lines();
    let status = lines
        .next()
        .unwrap()
        .split(' ')
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
        .collect();
    let chunked = headers
        .iter()
        .any(|(k, v)| k.eq_ignore_ascii_case("transfer-encoding") && v.contains("chunked"));
    let body = if chunked {
        dechunk(body)
    } else {
        body.to_string()
    };
    HttpReply {
        status,
        headers,
        body,
    }
}

fn dechunk(mut s: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = s.split_once("\r\n") {
        let Ok(n) = usize::from_str_radix(size.trim(), 16) else {
            break;
        };
        if n == 0 || rest.len() < n {
            out.push_str(&rest[..n.min(rest.len())]);
            break;
        }
        out.push_str(&rest[..n]);
        s = rest[n..].trim_start_matches("\r\n");
    }
    out
}

#[test]
fn refused_requests_get_their_status_codes() {
    let env = config("[mcp.http]\nmax_body_bytes = 2048\n");
    let mut srv = Server::start(&env);
    let host = ("Host".to_string(), format!("127.0.0.1:{}", srv.port));
    let bearer = |t: &str| ("Authorization".to_string(), format!("Bearer {t}"));
    let init = initialize("raw");

    let none = request(
        srv.port,
        "POST",
        "/mcp",
        std::slice::from_ref(&host),
        init.as_bytes(),
    );
    assert_eq!(none.status, 401, "no token: {none:?}");
    assert!(
        none.header("www-authenticate")
            .unwrap()
            .starts_with("Bearer"),
        "{none:?}"
    );

    let wrong = format!("{}0", &srv.token[1..]);
    let r = request(
        srv.port,
        "POST",
        "/mcp",
        &[host.clone(), bearer(&wrong)],
        init.as_bytes(),
    );
    println!(
        "wrong token: HTTP {} {:?}",
        r.status,
        r.header("www-authenticate")
    );
    assert_eq!(r.status, 401, "wrong token: {r:?}");
    assert!(
        r.header("www-authenticate")
            .unwrap()
            .contains("invalid_token"),
        "{r:?}"
    );

    let r = srv.post(&init, &[("Origin", "https://evil.example")]);
    println!("Origin https://evil.example: HTTP {} {}", r.status, r.body);
    assert_eq!(r.status, 403, "foreign Origin: {r:?}");
    let r = srv.post(&init, &[("Origin", "null")]);
    assert_eq!(r.status, 403, "opaque Origin: {r:?}");

    let token = bearer(&srv.token);
    for foreign in [
        format!("rebind.evil.example:{}", srv.port),
        format!("localhost:{}", srv.port + 1),
        "127.0.0.1".to_string(),
    ] {
        let h = [("Host".to_string(), foreign.clone()), token.clone()];
        let r = request(srv.port, "POST", "/mcp", &h, init.as_bytes());
        println!("Host {foreign}: HTTP {} {}", r.status, r.body);
        assert_eq!(r.status, 403, "foreign Host {foreign}: {r:?}");
    }

    let big = format!(
        r#"{{"jsonrpc":"2.0","id":3,"method":"ping","params":{{"pad":"{}"}}}}"#,
        "x".repeat(4000)
    );
    let r = srv.post(&big, &[]);
    println!("a {}-byte body: HTTP {} {}", big.len(), r.status, r.body);
    assert_eq!(r.status, 413, "oversized body: {r:?}");

    let r = request(
        srv.port,
        "GET",
        "/other",
        &[host.clone(), token.clone()],
        b"",
    );
    assert_eq!(r.status, 404, "another path: {r:?}");

    // What is not JSON-RPC gets the stdio front end's JSON-RPC error, with HTTP 400.
    for (body, code, id) in [
        ("{not json", -32700, Value::Null),
        (
            r#"{"jsonrpc":"1.0","id":7,"method":"ping"}"#,
            -32600,
            json!(7),
        ),
        (
            r#"{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"gemini_fetch","arguments":[]}}"#,
            -32602,
            json!(8),
        ),
    ] {
        let r = srv.post(body, &[]);
        println!("body {body}: HTTP {} {}", r.status, r.body);
        assert_eq!(r.status, 400, "{body}: {r:?}");
        let m = r.message();
        assert_eq!(
            (m["error"]["code"].as_i64(), &m["id"]),
            (Some(code), &id),
            "{body}: {m}"
        );
    }

    // With everything right, and a local browser Origin, a session opens.
    let origin = format!("http://localhost:{}", srv.port);
    let ok = srv.post(&init, &[("Origin", &origin)]);
    assert_eq!(ok.status, 200, "{ok:?}");
    assert!(ok.header("mcp-session-id").is_some(), "{ok:?}");
    assert_eq!(ok.message()["result"]["serverInfo"]["name"], "smolweb");
    for (status, what) in [
        (401, "no token"),
        (403, "Origin"),
        (403, "Host"),
        (413, "body"),
    ] {
        println!("refused ({what}): HTTP {status}");
    }
    srv.stdout_is_empty();
}

#[test]
fn one_session_more_than_the_cap_is_refused_until_one_closes() {
    let env = config("[mcp.http]\nmax_sessions = 2\n");
    let srv = Server::start(&env);
    let a = srv.initialize("a");
    let b = srv.initialize("b");
    assert_eq!((a.status, b.status), (200, 200), "{a:?} {b:?}");
    let c = srv.initialize("c");
    assert_eq!(c.status, 503, "a third session: {c:?}");
    let m = c.message();
    assert_eq!(m["id"], 1, "{m}");
    assert!(
        m["error"]["message"]
            .as_str()
            .unwrap()
            .contains("max_sessions"),
        "{m}"
    );
    assert!(c.header("retry-after").is_some(), "{c:?}");
    println!(
        "too many sessions: HTTP {} {}",
        c.status, m["error"]["message"]
    );

    // A request inside an open session still works while the cap is reached.
    let sid = a.header("mcp-session-id").unwrap().to_string();
    let ping = r#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#;
    let r = srv.post(
        ping,
        &[
            ("Mcp-Session-Id", &sid),
            ("MCP-Protocol-Version", "2025-06-18"),
        ],
    );
    assert_eq!(r.status, 200, "{r:?}");

    // Ending a session (DELETE) makes room.
    let headers = [
        ("Host".to_string(), format!("127.0.0.1:{}", srv.port)),
        ("Authorization".to_string(), format!("Bearer {}", srv.token)),
        ("Mcp-Session-Id".to_string(), sid),
    ];
    let gone = request(srv.port, "DELETE", "/mcp", &headers, b"");
    // 204, not rmcp's 202: the Python SDKs log "Session termination failed" for anything but
    // 200 or 204.
    assert_eq!(gone.status, 204, "{gone:?}");
    let d = srv.initialize("d");
    assert_eq!(d.status, 200, "room after a DELETE: {d:?}");
}

#[test]
fn idle_sessions_are_closed() {
    let env = config("[mcp.http]\nmax_sessions = 1\nidle_timeout_seconds = 1\n");
    let srv = Server::start(&env);
    let a = srv.initialize("a");
    assert_eq!(a.status, 200, "{a:?}");
    let sid = a.header("mcp-session-id").unwrap().to_string();
    // Refused initializes do not touch session a; once it is closed for idleness, one passes.
    let mut opened = None;
    for _ in 0..300 {
        let r = srv.initialize("b");
        if r.status == 200 {
            opened = Some(r);
            break;
        }
        assert_eq!(r.status, 503, "{r:?}");
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(opened.is_some(), "the idle session was never closed");
    let ping = r#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#;
    let r = srv.post(
        ping,
        &[
            ("Mcp-Session-Id", &sid),
            ("MCP-Protocol-Version", "2025-06-18"),
        ],
    );
    assert_eq!(r.status, 404, "the closed session is unknown: {r:?}");
}

#[test]
fn a_non_loopback_address_needs_the_flag_and_warns() {
    let env = Env::loopback();
    let out = Command::new(env!("CARGO_BIN_EXE_smolweb"))
        .args(env.args())
        .args(["--mcp", "--http", "0.0.0.0:0"])
        .env_remove("SMOLWEB_HOME")
        .env_remove("SMOLWEB_CONFIG")
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--http-allow-remote"), "{err}");
    assert!(out.stdout.is_empty());

    let srv = Server::start_with(&env, &["--http", "0.0.0.0:0", "--http-allow-remote"]);
    assert!(srv.banner.contains("WARNING"), "{}", srv.banner);
    assert!(srv.banner.contains("not loopback"), "{}", srv.banner);
    // Reached by an address, it still wants the token.
    let h = [("Host".to_string(), format!("127.0.0.1:{}", srv.port))];
    let r = request(srv.port, "POST", "/mcp", &h, initialize("x").as_bytes());
    assert_eq!(r.status, 401, "{r:?}");
}

#[test]
fn the_token_is_made_once_and_private() {
    let env = Env::loopback();
    let (ok, first) = env.run(&["mcp", "token"]);
    assert!(ok);
    let first = first.trim().to_string();
    assert_eq!(first.len(), 64, "{first}");
    assert!(first.bytes().all(|b| b.is_ascii_hexdigit()));
    let (_, again) = env.run(&["mcp", "token"]);
    assert_eq!(again.trim(), first);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let meta = std::fs::metadata(env.data_dir().join("mcp-token")).unwrap();
        assert_eq!(meta.permissions().mode() & 0o777, 0o600);
    }
}

fn routes() -> Routes {
    Routes::new()
        .route("/", Reply::gemtext("# Over HTTP\n=> /club Club\n"))
        .handler(|req| match (req.path.as_str(), &req.client_cert) {
            ("/club", None) => Reply::status(60, "Members only"),
            ("/club", Some(_)) => Reply::gemtext("# Member\n"),
            _ => Reply::status(51, "not found"),
        })
}

/// The Python SDK's Streamable HTTP client: the same tools, fetches and consent as stdio, and
/// one consent identity per session (its client name in the approval queue).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn python_sdk_over_streamable_http() {
    let Some(py) = python::interpreter("python_sdk_over_streamable_http") else {
        return;
    };
    let gem = gemini::Server::start(routes()).await;
    let env = Env::loopback();
    let srv = Server::start(&env);
    let extra = [
        srv.url(),
        srv.token.clone(),
        gem.url("").trim_end_matches('/').to_string(),
        super::mcp_tools_list::published_names().join(","),
    ];
    let stdout = python::run(&py, "http_transport.py", None, &env, &extra).await;
    println!("{stdout}");
    assert!(stdout.contains("python http: OK"), "{stdout}");
    let (ok, pending) = env.run(&["identity", "pending"]);
    assert!(ok, "{pending}");
    println!("smolweb identity pending:\n{pending}");
    for name in ["agent-a", "agent-b"] {
        assert!(
            pending.contains(name),
            "{name}'s request under its own name: {pending}"
        );
    }
    assert!(
        !srv.token.is_empty() && !stdout.contains(&srv.token),
        "the token is never echoed"
    );
}

/// Closing a session is a success to both Python SDK majors: the DELETE is answered 204, and
/// neither logs "Session termination failed" (rmcp's own answer, 202, made both log it on
/// every clean close).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn python_sdks_close_a_session_cleanly() {
    let sdks = [
        python::interpreter("python_sdks_close_a_session_cleanly (SDK 2.x)"),
        python::interpreter_mcp1("python_sdks_close_a_session_cleanly (SDK 1.x)"),
    ];
    for py in sdks.into_iter().flatten() {
        let env = Env::loopback();
        let srv = Server::start(&env);
        let extra = [srv.url(), srv.token.clone()];
        let stdout = python::run(&py, "http_close.py", None, &env, &extra).await;
        println!("{stdout}");
        assert!(stdout.contains("DELETE answered [204]"), "{stdout}");
    }
}

/// The MCP Inspector CLI, with the token in a header, lists the tools and the prompts.
#[test]
fn inspector_cli_over_streamable_http() {
    let Some(inspector) = inspector() else {
        return;
    };
    let env = Env::loopback();
    let srv = Server::start(&env);
    let home = tempfile::tempdir().unwrap();
    let run = |method: &str, header: Option<String>| {
        let mut cmd = Command::new(&inspector);
        cmd.args([
            "--cli",
            &srv.url(),
            "--transport",
            "http",
            "--method",
            method,
        ]);
        if let Some(h) = header {
            cmd.args(["--header", &h]);
        }
        cmd.env("HOME", home.path())
            .env("MCP_CATALOG_PATH", home.path().join("mcp.json"))
            .stdin(Stdio::null())
            .output()
            .unwrap()
    };
    let auth = format!("Authorization: Bearer {}", srv.token);
    let out = run("tools/list", Some(auth.clone()));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json_end = stdout.rfind("\n}").map_or(stdout.len(), |i| i + 2);
    let listed: Value = serde_json::from_str(&stdout[..json_end]).unwrap();
    let names: Vec<&str> = listed["tools"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    println!("inspector --cli tools/list over HTTP: {names:?}");
    assert_eq!(
        names,
        super::mcp_tools_list::published_names(),
        "the tools of the snapshot, in its order"
    );
    let out = run("prompts/list", Some(auth));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && stdout.contains("explore_capsule"),
        "{stdout}"
    );
    let refused = run("tools/list", None);
    assert!(!refused.status.success(), "no token, no tools");
    println!(
        "inspector --cli without the token (exit {:?}): {} {}",
        refused.status.code(),
        String::from_utf8_lossy(&refused.stdout).trim(),
        String::from_utf8_lossy(&refused.stderr).trim()
    );
}

/// The Inspector's launcher: SMOLWEB_INSPECTOR, else target/inspector (set up with:
/// npm install --prefix target/inspector @modelcontextprotocol/inspector). Without one the
/// test says SKIP, unless SMOLWEB_REQUIRE_INSPECTOR=1 (CI), where it fails.
fn inspector() -> Option<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let found = [
        std::env::var_os("SMOLWEB_INSPECTOR").map(PathBuf::from),
        Some(root.join("target/inspector/node_modules/.bin/mcp-inspector")),
    ]
    .into_iter()
    .flatten()
    .find(|p| p.is_file());
    if found.is_none() {
        let why = "no MCP Inspector (set SMOLWEB_INSPECTOR, or run: npm install --prefix \
                   target/inspector @modelcontextprotocol/inspector)";
        if std::env::var("SMOLWEB_REQUIRE_INSPECTOR").as_deref() == Ok("1") {
            panic!("inspector_cli_over_streamable_http: {why} (SMOLWEB_REQUIRE_INSPECTOR=1)");
        }
        eprintln!("\n*** SKIP inspector_cli_over_streamable_http: {why} ***\n");
    }
    found
}

/// `notifications/cancelled` posted into the session stops a `gemini_fetch` in flight over
/// HTTP as over stdio: its upstream connection closes at once (seen by a relay in front of a
/// server that drips its answer for 20 s) and no result is sent for it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancelled_call_stops_over_http() {
    let gem = gemini::Server::start(Routes::new().route(
        "/slow",
        Reply::drip(&"x".repeat(200), Duration::from_millis(100)),
    ))
    .await;
    let tap = smolweb_testkit::tap::Tap::start(gem.addr()).await;
    // The drip takes 20 s: the fetch's own timeout must not end it first.
    let env = Env::new(&LOOPBACK_CONFIG.replace("timeout_seconds = 5", "timeout_seconds = 60"));
    let srv = Server::start(&env);
    let init = srv.initialize("canceller");
    let sid = init.header("mcp-session-id").unwrap().to_string();
    let session = [
        ("Mcp-Session-Id", sid.as_str()),
        ("MCP-Protocol-Version", "2025-06-18"),
    ];
    let note = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
    assert_eq!(srv.post(note, &session).status, 202);

    let call = json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {
        "name": "gemini_fetch",
        "arguments": {"url": format!("gemini://127.0.0.1:{}/slow", tap.port())}}})
    .to_string();
    let (port, token, sid2) = (srv.port, srv.token.clone(), sid.clone());
    let pending = std::thread::spawn(move || {
        let headers = [
            ("Host".to_string(), format!("127.0.0.1:{port}")),
            ("Authorization".to_string(), format!("Bearer {token}")),
            ("Mcp-Session-Id".to_string(), sid2),
            ("MCP-Protocol-Version".to_string(), "2025-06-18".to_string()),
        ];
        request(port, "POST", "/mcp", &headers, call.as_bytes())
    });
    let wait = |cond: &dyn Fn() -> bool| {
        for _ in 0..200 {
            if cond() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        cond()
    };
    assert!(wait(&|| tap.open() >= 1), "the slow fetch never started");
    let cancel = r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":5,"reason":"changed my mind"}}"#;
    assert_eq!(srv.post(cancel, &session).status, 202);
    let closed = wait(&|| tap.open() == 0);
    println!(
        "after the cancel over HTTP: {} upstream connection(s) open",
        tap.open()
    );
    assert!(closed, "the cancelled fetch's connection is still open");
    let ping = r#"{"jsonrpc":"2.0","id":6,"method":"ping"}"#;
    assert!(srv.post(ping, &session).message()["result"].is_object());
    drop(srv);
    let reply = pending.join().unwrap();
    assert!(
        !reply.body.contains("\"id\":5,\"result\""),
        "a result for the cancelled call: {reply:?}"
    );
}
