//! `smolweb --mcp --http` under many clients at once: sessions that each make a stream of
//! mixed calls (Gemini, Gopher and web pages from loopback servers, batches, later windows,
//! consent questions nobody answers), sessions dropped without a word, clients that send
//! their headers byte by byte or never finish their body. Every reply must match its request,
//! abandoned sessions must be reaped, slow clients cut off without taking a session slot, and
//! the server's file descriptors and threads must come back to where they were.
//!
//! The client is a small HTTP/1.1 keep-alive client over tokio (one connection per session,
//! as the SDKs keep one), reading rmcp's SSE answers whole. `cargo test` runs a small load
//! (8 sessions of 30 calls); `benches/mcp_http_load.sh` runs the full one (50 sessions of 200
//! calls, 20 dropped) on a release build and prints the figures: latency p50/p99, peak RSS,
//! RSS, file descriptors and threads before and after. Figures are printed, never asserted.
#![cfg(target_os = "linux")]

use crate::mcp_harness::Env;
use crate::mcp_http::Server;
use serde_json::{Value, json};
use smolweb_testkit::{gemini, gopher, http as web};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader as AsyncBufReader};
use tokio::net::TcpStream;

/// The sizes of one run.
#[derive(Clone, Copy, Debug)]
struct Load {
    sessions: usize,
    calls: usize,
    dropped: usize,
    slow_clients: usize,
}

/// What the server process holds now.
trait Held {
    /// Resident memory now and at its peak (KiB), open file descriptors and threads.
    fn usage(&self) -> Usage;
}

impl Held for Server {
    fn usage(&self) -> Usage {
        let pid = self.child.id();
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
        let kib = |key: &str| {
            status
                .lines()
                .find_map(|l| l.strip_prefix(key))
                .and_then(|v| v.split_whitespace().next())
                .and_then(|v| v.parse().ok())
                .unwrap_or(0)
        };
        let count = |dir: &str| {
            std::fs::read_dir(format!("/proc/{pid}/{dir}"))
                .unwrap()
                .count()
        };
        Usage {
            rss_kib: kib("VmRSS:"),
            peak_kib: kib("VmHWM:"),
            fds: count("fd"),
            threads: count("task"),
        }
    }
}

#[derive(Clone, Copy, Debug)]
struct Usage {
    rss_kib: u64,
    peak_kib: u64,
    fds: usize,
    threads: usize,
}

/// One HTTP/1.1 keep-alive connection to the server.
struct Conn {
    io: AsyncBufReader<TcpStream>,
    port: u16,
    token: String,
}

/// A reply: status, headers, and the JSON-RPC messages of its body (plain JSON or SSE).
#[derive(Debug)]
struct Reply {
    status: u16,
    headers: Vec<(String, String)>,
    messages: Vec<Value>,
}

impl Reply {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
    /// The response to request `id` (a JSON-RPC result or error carrying that id).
    fn answer(&self, id: i64) -> Option<&Value> {
        self.messages.iter().find(|m| {
            m.get("id") == Some(&json!(id))
                && (m.get("result").is_some() || m.get("error").is_some())
        })
    }
}

impl Conn {
    async fn open(port: u16, token: &str) -> std::io::Result<Conn> {
        let stream = TcpStream::connect(("127.0.0.1", port)).await?;
        Ok(Conn {
            io: AsyncBufReader::new(stream),
            port,
            token: token.to_string(),
        })
    }

    async fn request(
        &mut self,
        method: &str,
        session: Option<&str>,
        body: &str,
    ) -> std::io::Result<Reply> {
        let mut head = format!(
            "{method} /mcp HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nAuthorization: Bearer {}\r\n\
             Accept: application/json, text/event-stream\r\nContent-Type: application/json\r\n\
             MCP-Protocol-Version: 2025-06-18\r\nContent-Length: {}\r\n",
            self.port,
            self.token,
            body.len()
        );
        if let Some(s) = session {
            head.push_str(&format!("Mcp-Session-Id: {s}\r\n"));
        }
        head.push_str("\r\n");
        let stream = self.io.get_mut();
        stream.write_all(head.as_bytes()).await?;
        stream.write_all(body.as_bytes()).await?;
        self.read_reply().await
    }

    async fn line(&mut self) -> std::io::Result<String> {
        let mut line = String::new();
        if self.io.read_line(&mut line).await? == 0 {
            return Err(std::io::ErrorKind::UnexpectedEof.into());
        }
        Ok(line.trim_end_matches(['\r', '\n']).to_string())
    }

    async fn read_reply(&mut self) -> std::io::Result<Reply> {
        let status_line = self.line().await?;
        let status = status_line
            .split(' ')
            .nth(1)
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| std::io::Error::other(format!("status line {status_line:?}")))?;
        let mut headers = Vec::new();
        loop {
            let l = self.line().await?;
            if l.is_empty() {
                break;
            }
            if let Some((k, v)) = l.split_once(':') {
                headers.push((k.trim().to_string(), v.trim().to_string()));
            }
        }
        let get = |name: &str| {
            headers
                .iter()
                .find(|(k, _): &&(String, String)| k.eq_ignore_ascii_case(name))
                .map(|(_, v)| v.clone())
        };
        let mut body = Vec::new();
        if get("transfer-encoding").is_some_and(|v| v.contains("chunked")) {
            loop {
                let size = usize::from_str_radix(self.line().await?.trim(), 16)
                    .map_err(std::io::Error::other)?;
                if size == 0 {
                    self.line().await?;
                    break;
                }
                let mut chunk = vec![0u8; size];
                self.io.read_exact(&mut chunk).await?;
                body.extend_from_slice(&chunk);
                self.line().await?;
            }
        } else if let Some(n) = get("content-length").and_then(|v| v.parse::<usize>().ok()) {
            body.resize(n, 0);
            self.io.read_exact(&mut body).await?;
        }
        let text = String::from_utf8_lossy(&body);
        let messages = match serde_json::from_str::<Value>(&text) {
            Ok(v) => vec![v],
            Err(_) => text
                .lines()
                .filter_map(|l| l.strip_prefix("data:"))
                .filter_map(|d| serde_json::from_str(d.trim()).ok())
                .collect(),
        };
        Ok(Reply {
            status,
            headers,
            messages,
        })
    }
}

/// The loopback servers every session fetches from.
struct Sites {
    gem: gemini::Server,
    goph: gopher::Server,
    web: web::Server,
}

/// The page read in windows: about 215,000 characters.
fn long_page() -> String {
    (0..4000)
        .map(|i| format!("line {i} of a page long enough to be read in windows\n"))
        .collect()
}

impl Sites {
    async fn start() -> Sites {
        let long = long_page();
        let gem = gemini::Server::start(gemini::Routes::new().handler(move |req| {
            match req.path.strip_prefix("/page/") {
                Some(n) => gemini::Reply::gemtext(&format!("# Page {n}\n=> /page/{n}/next Next\n")),
                None if req.path == "/long" => gemini::Reply::gemtext(&long),
                None => gemini::Reply::status(51, "not found"),
            }
        }))
        .await;
        let goph =
            gopher::Server::start(gopher::Routes::new().handler(|req| {
                gopher::Reply::text(&format!("gopher text for {}\n", req.selector))
            }))
            .await;
        let web = web::Server::start(|req| {
            let n = req.path().trim_start_matches("/article/");
            web::Reply::html(&format!(
                "<html><head><title>Article {n}</title></head><body><article><h1>Article {n}</h1>\
                 <p>The body of web article {n}, with enough words to be its main text, and a \
                 second sentence so the reader keeps it.</p></article></body></html>"
            ))
        })
        .await;
        Sites { gem, goph, web }
    }
}

/// What one call asks, and how to check its answer.
enum Call {
    Gemini(usize),
    Window(usize),
    Gopher(usize),
    Web(usize),
    Batch(usize),
    Consent(usize),
}

impl Call {
    fn pick(session: usize, i: usize) -> Call {
        let k = session * 1000 + i;
        match i % 20 {
            0..=5 => Call::Gemini(k),
            6..=8 => Call::Window(k),
            9..=12 => Call::Gopher(k),
            13..=16 => Call::Web(k),
            17 | 18 => Call::Batch(k),
            _ => Call::Consent(k),
        }
    }

    fn kind(&self) -> &'static str {
        match self {
            Call::Gemini(_) => "gemini",
            Call::Window(_) => "window",
            Call::Gopher(_) => "gopher",
            Call::Web(_) => "web",
            Call::Batch(_) => "batch",
            Call::Consent(_) => "consent",
        }
    }

    fn params(&self, s: &Sites) -> Value {
        match *self {
            Call::Gemini(k) => json!({"name": "gemini_fetch",
                "arguments": {"url": s.gem.url(&format!("/page/{k}"))}}),
            Call::Window(k) => json!({"name": "gemini_fetch",
                "arguments": {"url": s.gem.url("/long"), "offset": (k % 7) * 20_000}}),
            Call::Gopher(k) => json!({"name": "gopher_fetch",
                "arguments": {"url": s.goph.url('0', &format!("/t/{k}"))}}),
            Call::Web(k) => json!({"name": "fetch_url",
                "arguments": {"url": s.web.url(&format!("/article/{k}"))}}),
            Call::Batch(k) => json!({"name": "gemini_batch_fetch",
                "arguments": {"urls": (0..4).map(|j| s.gem.url(&format!("/page/{k}-{j}")))
                    .collect::<Vec<_>>()}}),
            Call::Consent(k) => json!({"name": "gemini_trust_update",
                "arguments": {"action": "pin", "host": format!("h{k}.example"), "port": 1965,
                    "fingerprint": format!("sha256:{:064x}", k)}}),
        }
    }

    /// Does `result` answer this call (and not another)?
    fn matches(&self, result: &Value, s: &Sites) -> Result<(), String> {
        let sc = &result["structuredContent"];
        let text = |v: &Value| v.to_string();
        let ok = match *self {
            Call::Gemini(k) => {
                sc["kind"] == "gemtext"
                    && sc["request_info"]["url"] == s.gem.url(&format!("/page/{k}"))
                    && text(&sc["document"]).contains(&format!("Page {k}"))
            }
            Call::Window(k) => {
                let offset = (k % 7) * 20_000;
                sc["kind"] == "gemtext"
                    && sc["request_info"]["url"] == s.gem.url("/long")
                    && sc["total_chars"] == long_page().chars().count()
                    && sc["next_offset"]
                        .as_u64()
                        .is_some_and(|n| n as usize > offset)
                    && !sc["document"]["lines"].as_array().is_none_or(Vec::is_empty)
            }
            Call::Gopher(k) => {
                sc["kind"] == "text"
                    && sc["text"]
                        .as_str()
                        .is_some_and(|t| t.contains(&format!("/t/{k}")))
            }
            Call::Web(k) => sc["text"]
                .as_str()
                .is_some_and(|t| t.contains(&format!("web article {k}"))),
            Call::Batch(k) => sc["result"].as_array().is_some_and(|items| {
                items.len() == 4
                    && items.iter().enumerate().all(|(j, item)| {
                        item["request_info"]["url"] == s.gem.url(&format!("/page/{k}-{j}"))
                    })
            }),
            Call::Consent(k) => {
                sc["kind"] == "trust_update"
                    && sc["host"] == format!("h{k}.example")
                    && sc["pending"] == true
            }
        };
        if ok {
            Ok(())
        } else {
            Err(format!(
                "{} call {self_k}: {}",
                self.kind(),
                text(sc),
                self_k = self.k()
            ))
        }
    }

    fn k(&self) -> usize {
        match *self {
            Call::Gemini(k)
            | Call::Window(k)
            | Call::Gopher(k)
            | Call::Web(k)
            | Call::Batch(k)
            | Call::Consent(k) => k,
        }
    }
}

fn initialize(name: &str) -> String {
    json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {"elicitation": {}},
        "clientInfo": {"name": name, "version": "1"}}})
    .to_string()
}

/// Open a session on `conn`: initialize, then the initialized notification. Its id.
async fn open_session(conn: &mut Conn, name: &str) -> Result<String, String> {
    let r = conn
        .request("POST", None, &initialize(name))
        .await
        .map_err(|e| format!("initialize: {e}"))?;
    if r.status != 200 {
        return Err(format!("initialize: HTTP {} {:?}", r.status, r.messages));
    }
    let sid = r
        .header("mcp-session-id")
        .ok_or("no session id")?
        .to_string();
    let note = json!({"jsonrpc": "2.0", "method": "notifications/initialized"}).to_string();
    let r = conn
        .request("POST", Some(&sid), &note)
        .await
        .map_err(|e| format!("initialized: {e}"))?;
    if r.status >= 300 {
        return Err(format!("initialized: HTTP {}", r.status));
    }
    Ok(sid)
}

/// What one session saw: each call's latency, and the replies that did not match.
#[derive(Default)]
struct Outcome {
    latencies: Vec<Duration>,
    mismatches: Vec<String>,
}

async fn session(port: u16, token: String, sites: Arc<Sites>, n: usize, load: Load) -> Outcome {
    let mut out = Outcome::default();
    let mut conn = match Conn::open(port, &token).await {
        Ok(c) => c,
        Err(e) => {
            out.mismatches.push(format!("session {n}: connect: {e}"));
            return out;
        }
    };
    let sid = match open_session(&mut conn, &format!("load-{n}")).await {
        Ok(s) => s,
        Err(e) => {
            out.mismatches.push(format!("session {n}: {e}"));
            return out;
        }
    };
    for i in 0..load.calls {
        let call = Call::pick(n, i);
        let id = i64::try_from(i + 1).unwrap();
        let body = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": call.params(&sites)})
        .to_string();
        let start = Instant::now();
        let reply = match conn.request("POST", Some(&sid), &body).await {
            Ok(r) => r,
            Err(e) => {
                out.mismatches.push(format!("session {n} call {i}: {e}"));
                // The connection is gone: a new one, the same session.
                match Conn::open(port, &token).await {
                    Ok(c) => conn = c,
                    Err(_) => return out,
                }
                continue;
            }
        };
        out.latencies.push(start.elapsed());
        match reply.answer(id) {
            Some(m) if m.get("result").is_some() => {
                if let Err(e) = call.matches(&m["result"], &sites) {
                    out.mismatches.push(format!("session {n} call {i}: {e}"));
                }
            }
            other => out.mismatches.push(format!(
                "session {n} call {i} ({}): HTTP {} {:?}",
                call.kind(),
                reply.status,
                other.or(reply.messages.first())
            )),
        }
    }
    match conn.request("DELETE", Some(&sid), "").await {
        Ok(r) if r.status < 300 => {}
        other => out
            .mismatches
            .push(format!("session {n}: DELETE {other:?}")),
    }
    out
}

/// Sessions opened and then dropped: the connection closed, no DELETE. Their ids.
async fn abandon(port: u16, token: &str, count: usize) -> Vec<String> {
    let mut ids = Vec::new();
    for n in 0..count {
        let mut conn = Conn::open(port, token).await.unwrap();
        ids.push(
            open_session(&mut conn, &format!("dropped-{n}"))
                .await
                .unwrap(),
        );
    }
    ids
}

/// A client that sends its request headers one byte at a time, a byte every 300 ms. Returns
/// when the server closed the connection, and how long that took.
async fn header_trickler(port: u16, token: String) -> Duration {
    let start = Instant::now();
    let mut s = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAuthorization: Bearer {token}\r\n\
         X-Slow: {}\r\n\r\n",
        "x".repeat(400)
    );
    for b in head.bytes() {
        if s.write_all(&[b]).await.is_err() {
            return start.elapsed();
        }
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
    let mut buf = [0u8; 64];
    let _ = s.read(&mut buf).await;
    start.elapsed()
}

/// A client that sends an initialize's headers and half its body, then nothing. The status
/// the server answered with, and when.
async fn body_stall(port: u16, token: String) -> (u16, Duration) {
    let start = Instant::now();
    let mut conn = Conn::open(port, &token).await.unwrap();
    let body = initialize("stalled");
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAuthorization: Bearer {token}\r\n\
         Accept: application/json, text/event-stream\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\n\r\n",
        body.len()
    );
    let stream = conn.io.get_mut();
    stream.write_all(head.as_bytes()).await.unwrap();
    stream
        .write_all(&body.as_bytes()[..body.len() / 2])
        .await
        .unwrap();
    let status = conn.read_reply().await.map_or(0, |r| r.status);
    (status, start.elapsed())
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

/// Wait until `done` holds (checked every 200 ms), at most `within`.
async fn eventually(within: Duration, mut done: impl FnMut() -> bool) -> bool {
    let start = Instant::now();
    while start.elapsed() < within {
        if done() {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    done()
}

async fn run(load: Load) {
    let sites = Arc::new(Sites::start().await);
    let idle = 4;
    let env = Env::new(&format!(
        "[network]\nallow_private_addresses = true\ntimeout_seconds = 30\nmax_in_flight = 64\n\
         max_in_flight_per_host = 64\n[politeness]\nper_host_interval_ms = 0\n\
         [mcp]\nconsent_timeout_seconds = 1\n\
         [mcp.http]\nmax_sessions = {}\nidle_timeout_seconds = {idle}\n",
        load.sessions + load.dropped
    ));
    let srv = Server::start(&env);
    // Warm: one session does one of each call, so the first use of each path is not counted
    // as growth.
    let warm = session(
        srv.port,
        srv.token.clone(),
        sites.clone(),
        999,
        Load { calls: 20, ..load },
    )
    .await;
    assert!(warm.mismatches.is_empty(), "{:?}", warm.mismatches);
    tokio::time::sleep(Duration::from_millis(500)).await;
    let before = srv.usage();

    // The slow clients start first and stay while the load runs.
    let slow_heads: Vec<_> = (0..load.slow_clients)
        .map(|_| tokio::spawn(header_trickler(srv.port, srv.token.clone())))
        .collect();
    let stalls: Vec<_> = (0..load.slow_clients)
        .map(|_| tokio::spawn(body_stall(srv.port, srv.token.clone())))
        .collect();
    let dropped = abandon(srv.port, &srv.token, load.dropped).await;

    let start = Instant::now();
    let peak = Arc::new(std::sync::Mutex::new(before));
    let sampler = {
        let (peak, pid) = (peak.clone(), srv.child.id());
        tokio::spawn(async move {
            loop {
                if let Ok(fds) = std::fs::read_dir(format!("/proc/{pid}/fd")) {
                    let mut p = peak.lock().unwrap();
                    p.fds = p.fds.max(fds.count());
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        })
    };
    let runs: Vec<_> = (0..load.sessions)
        .map(|n| tokio::spawn(session(srv.port, srv.token.clone(), sites.clone(), n, load)))
        .collect();
    let mut latencies = Vec::new();
    let mut mismatches = Vec::new();
    for r in runs {
        let o = r.await.unwrap();
        latencies.extend(o.latencies);
        mismatches.extend(o.mismatches);
    }
    let wall = start.elapsed();
    let during = srv.usage();
    sampler.abort();
    let peak_fds = peak.lock().unwrap().fds;

    // Slow clients: cut off by the header and body timeouts, and never a session.
    let mut cut = Vec::new();
    for h in slow_heads {
        cut.push(h.await.unwrap());
    }
    let mut stalled = Vec::new();
    for s in stalls {
        stalled.push(s.await.unwrap());
    }
    // The dropped sessions are reaped once idle: their ids are unknown (404), and as many
    // new sessions as the cap allows open again.
    tokio::time::sleep(Duration::from_secs(idle + 2)).await;
    let mut conn = Conn::open(srv.port, &srv.token).await.unwrap();
    let ping = json!({"jsonrpc": "2.0", "id": 5, "method": "ping"}).to_string();
    for sid in &dropped {
        let r = conn.request("POST", Some(sid), &ping).await.unwrap();
        assert_eq!(r.status, 404, "dropped session {sid} still known: {r:?}");
    }
    let mut reopened = Vec::new();
    for n in 0..load.sessions + load.dropped {
        let mut c = Conn::open(srv.port, &srv.token).await.unwrap();
        let sid = open_session(&mut c, &format!("again-{n}"))
            .await
            .unwrap_or_else(|e| panic!("session {n} of the cap after the reaping: {e}"));
        reopened.push((c, sid));
    }
    for (mut c, sid) in reopened {
        // A connection left idle past the server's header timeout while the others opened
        // is closed by it (as a slow client's is); the session outlives its connection, so
        // a client connects again, as the SDKs do.
        let r = match c.request("DELETE", Some(&sid), "").await {
            Ok(r) => r,
            Err(_) => {
                let mut again = Conn::open(srv.port, &srv.token).await.unwrap();
                again.request("DELETE", Some(&sid), "").await.unwrap()
            }
        };
        assert!(r.status < 300, "{r:?}");
    }
    drop(conn);
    // Everything closed: descriptors and threads come back.
    let settled = eventually(Duration::from_secs(20), || {
        let u = srv.usage();
        u.fds <= before.fds + 2 && u.threads <= before.threads + 2
    })
    .await;
    let after = srv.usage();

    latencies.sort();
    let calls = latencies.len();
    println!(
        "mcp http load: {} sessions x {} calls ({} dropped, {} slow-header and {} stalled-body \
         clients): {calls} calls in {:.1} s ({:.0} calls/s)",
        load.sessions,
        load.calls,
        load.dropped,
        load.slow_clients,
        load.slow_clients,
        wall.as_secs_f64(),
        calls as f64 / wall.as_secs_f64()
    );
    println!(
        "| latency p50 | p99 | max | peak RSS | RSS idle | RSS under load | RSS after | fds before | \
         fds peak | fds after | threads before | threads under load | threads after |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    println!(
        "| {:.1} ms | {:.1} ms | {:.1} ms | {} MiB | {} MiB | {} MiB | {} MiB | {} | {} | {} | {} | {} | {} |",
        percentile(&latencies, 0.5).as_secs_f64() * 1e3,
        percentile(&latencies, 0.99).as_secs_f64() * 1e3,
        latencies.last().copied().unwrap_or_default().as_secs_f64() * 1e3,
        after.peak_kib / 1024,
        before.rss_kib / 1024,
        during.rss_kib / 1024,
        after.rss_kib / 1024,
        before.fds,
        peak_fds,
        after.fds,
        before.threads,
        during.threads,
        after.threads
    );
    println!(
        "slow headers cut after {:?}; stalled bodies answered {:?}",
        cut.iter().map(|d| d.as_secs()).collect::<Vec<_>>(),
        stalled
            .iter()
            .map(|(s, d)| format!("{s} after {} s", d.as_secs()))
            .collect::<Vec<_>>()
    );
    assert!(
        mismatches.is_empty(),
        "{} replies did not match: {:?}",
        mismatches.len(),
        &mismatches[..mismatches.len().min(10)]
    );
    assert_eq!(calls, load.sessions * load.calls, "every call answered");
    for d in &cut {
        assert!(
            *d < Duration::from_secs(60),
            "a header trickle held on for {d:?}"
        );
    }
    for (status, d) in &stalled {
        assert_eq!(*status, 408, "a stalled body: {status} after {d:?}");
    }
    assert!(
        settled,
        "descriptors or threads grew: before {before:?}, after {after:?}"
    );
}

/// The normal run's size: enough to run sessions side by side, slow clients among them.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn sessions_side_by_side_each_get_their_own_answers() {
    run(Load {
        sessions: 8,
        calls: 30,
        dropped: 4,
        slow_clients: 2,
    })
    .await;
}

/// The full load (`benches/mcp_http_load.sh`, release build).
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[ignore = "a load run: benches/mcp_http_load.sh"]
async fn fifty_sessions_of_two_hundred_calls() {
    run(Load {
        sessions: 50,
        calls: 200,
        dropped: 20,
        slow_clients: 10,
    })
    .await;
}
