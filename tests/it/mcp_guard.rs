//! The address guard through the real binary, with `allow_private_addresses = true` (a person
//! on a LAN capsule): cloud metadata endpoints and the unspecified "this host" addresses stay
//! refused for every protocol (Gemini, Gopher, the web and each of its redirect hops), before
//! any connection. The "this host" cases aim at a real listener on 127.0.0.1, which a connect
//! to 0.0.0.0 would reach, and check that it never saw a connection.

use crate::mcp_harness;
use smolweb_testkit as support;

use mcp_harness::*;
use serde_json::json;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use support::http::{Reply, Server};

const CONFIG: &str = "\
[network]
allow_private_addresses = true
allowed_hosts = [\"metadata.google.internal\", \"0.0.0.0\"]
timeout_seconds = 5
[politeness]
per_host_interval_ms = 0
";

/// A TCP listener on 127.0.0.1 that counts the connections it accepts.
struct Listener {
    port: u16,
    accepted: Arc<AtomicUsize>,
    task: tokio::task::JoinHandle<()>,
}

impl Listener {
    async fn start() -> Listener {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let accepted = Arc::new(AtomicUsize::new(0));
        let count = accepted.clone();
        let task = tokio::spawn(async move {
            while let Ok((_conn, _)) = listener.accept().await {
                count.fetch_add(1, Ordering::SeqCst);
            }
        });
        Listener {
            port,
            accepted,
            task,
        }
    }
    fn accepted(&self) -> usize {
        self.accepted.load(Ordering::SeqCst)
    }
}

impl Drop for Listener {
    fn drop(&mut self) {
        self.task.abort();
    }
}

#[tokio::test]
async fn metadata_and_this_host_are_refused_for_every_protocol_with_private_addresses_allowed() {
    let listener = Listener::start().await;
    let port = listener.port;
    let web = Server::start(move |r| match r.path() {
        "/robots.txt" => Reply::new(404, "text/plain", ""),
        "/to-metadata" => Reply::redirect(302, "http://169.254.169.254/latest/meta-data/"),
        "/to-metadata-v6" => Reply::redirect(302, "http://[fd00:ec2::254]/latest/meta-data/"),
        "/to-metadata-name" => Reply::redirect(302, "http://metadata.google.internal/"),
        "/to-this-host" => Reply::redirect(302, &format!("http://0.0.0.0:{port}/")),
        "/fine" => Reply::html("<p>a private address is fine when allowed</p>"),
        _ => Reply::new(404, "text/plain", "no"),
    })
    .await;
    let env = Env::new(CONFIG);
    let session = connect(&env, Gen::Initialize, TestClient::new(Elicit::Off)).await;

    // The allowance still opens loopback: the same server answers a direct fetch.
    let r = call(&session, "fetch_url", json!({"url": web.url("/fine")})).await;
    assert_ne!(r.is_error, Some(true), "{:?}", sc(&r));

    let web_cases = [
        web.url("/to-metadata"),
        web.url("/to-metadata-v6"),
        web.url("/to-metadata-name"),
        web.url("/to-this-host"),
        format!("http://0.0.0.0:{port}/"),
        format!("http://[::]:{port}/"),
        format!("http://[::ffff:169.254.169.254]:{port}/"),
        "http://metadata.google.internal/computeMetadata/v1/".to_string(),
        "http://100.100.100.200/latest/meta-data/".to_string(),
    ];
    for url in &web_cases {
        let r = call(&session, "fetch_url", json!({"url": url})).await;
        assert_eq!(r.is_error, Some(true), "{url}: {:?}", sc(&r));
        assert_eq!(
            sc(&r)["error"]["code"],
            "POLICY_REJECTED",
            "{url}: {:?}",
            sc(&r)
        );
    }
    let gemini_cases = [
        format!("gemini://0.0.0.0:{port}/"),
        format!("gemini://[::]:{port}/"),
        format!("gemini://[::ffff:0.0.0.0]:{port}/"),
        "gemini://169.254.169.254/".to_string(),
        "gemini://[::ffff:169.254.169.254]/".to_string(),
        "gemini://metadata.google.internal/".to_string(),
        "gemini://metadata/".to_string(),
    ];
    for url in &gemini_cases {
        let r = call(&session, "gemini_fetch", json!({"url": url})).await;
        assert_eq!(error_code(&r), "BLOCKED", "{url}: {:?}", sc(&r));
    }
    let gopher_cases = [
        format!("gopher://0.0.0.0:{port}/1/"),
        "gopher://[fd00:ec2::254]/0/latest".to_string(),
        "gopher://metadata./1/".to_string(),
    ];
    for url in &gopher_cases {
        let r = call(&session, "gopher_fetch", json!({"url": url})).await;
        assert_eq!(error_code(&r), "BLOCKED", "{url}: {:?}", sc(&r));
    }
    assert_eq!(
        listener.accepted(),
        0,
        "a refused \"this host\" destination was connected to"
    );
    session.cancel().await.unwrap();
}
