//! `smallnet_fetch` through the official Python SDK (tests/python/smallnet.py) against the
//! built binary and the in-process servers of every small protocol: each result validated
//! against the tool's output schema by the SDK, on both protocol generations.

use crate::mcp_harness;
use smolweb_testkit as support;

use mcp_harness::{Env, python};
use std::sync::Arc;
use std::sync::atomic::{AtomicU16, Ordering};
use support::smallnet::{Protocol, Reply, Server};

async fn run(mode: &str) {
    let Some(python) = python::interpreter(&format!("mcp_smallnet ({mode})")) else {
        return;
    };
    let nex = Server::start(Protocol::Nex, |req| match req.line.as_str() {
        "" => Reply::text("A nex directory\n=> about.txt About\n"),
        _ => Reply::text("a nex file\n"),
    })
    .await;
    let finger = Server::start(Protocol::Finger, |req| {
        Reply::text(&format!("Login: {}\r\n", req.line))
    })
    .await;
    let spartan = Server::start(Protocol::Spartan, |req| {
        match req.line.split(' ').nth(1).unwrap_or("") {
            "/" => Reply::text("2 text/gemini\r\n# Spartan\n=: /post Post\n"),
            "/old" => Reply::text("3 /\r\n"),
            "/post" => Reply::text(&format!("2 text/plain\r\ngot {} bytes", req.data.len())),
            _ => Reply::text("4 not found\r\n"),
        }
    })
    .await;
    let scroll = Server::start(Protocol::Scroll, |_| {
        Reply::text("20 text/gemini\r\nAda\r\n2024-01-01\r\n2024-02-01\r\n# Scroll\n")
    })
    .await;
    // The menu names the server's own port, known once it listens.
    let port = Arc::new(AtomicU16::new(0));
    let own = port.clone();
    let gophers = Server::start(Protocol::Gophers, move |req| match req.line.as_str() {
        "" => Reply::text(&format!(
            "0Here\t/here\t127.0.0.1\t{}\r\n0Away\t/x\texample.org\t70\r\n.\r\n",
            own.load(Ordering::SeqCst)
        )),
        "/blob" => Reply::Bytes(vec![0, 1, 2, 3]),
        _ => Reply::text("text\r\n"),
    })
    .await;
    port.store(gophers.port(), Ordering::SeqCst);
    let env = Env::loopback();
    let extra: Vec<String> = [&nex, &finger, &spartan, &scroll, &gophers]
        .iter()
        .map(|s| s.url(""))
        .collect();
    let stdout = python::run(&python, "smallnet.py", Some(mode), &env, &extra).await;
    println!("{stdout}");
    assert!(stdout.contains("python smallnet_fetch"), "{stdout}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn python_sdk_smallnet_fetch_legacy() {
    run("legacy").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn python_sdk_smallnet_fetch_auto() {
    run("auto").await;
}

/// `titan_upload` as a consent event (tests/python/titan.py): the approved upload arrives
/// with its size, type and token; the declined ones never leave.
async fn run_titan(mode: &str) {
    let Some(python) = python::interpreter(&format!("mcp_titan ({mode})")) else {
        return;
    };
    let titan = Server::start(Protocol::Titan, |req| {
        let path = req.line.split(';').next().unwrap_or("").to_string();
        let gemini = path.replacen("titan://", "gemini://", 1);
        Reply::text(&format!("30 {gemini}\r\n"))
    })
    .await;
    let env = Env::loopback();
    let stdout = python::run(&python, "titan.py", Some(mode), &env, &[titan.url("")]).await;
    println!("{stdout}");
    assert!(stdout.contains("python titan_upload"), "{stdout}");
    let lines: Vec<String> = titan.requests().into_iter().map(|r| r.line).collect();
    assert_eq!(
        lines,
        vec![format!(
            "{};size=23;mime=text/gemini;token=tok3n",
            titan.url("/approved.gmi")
        )],
        "only the approved upload was sent"
    );
    assert_eq!(titan.requests()[0].data, b"# Hello\nfrom the agent\n");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn python_sdk_titan_upload_needs_consent_legacy() {
    run_titan("legacy").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn python_sdk_titan_upload_needs_consent_auto() {
    run_titan("auto").await;
}

/// A standing permission (`smolweb titan allow AGENT URL`): that agent's uploads under that
/// scope go without a question (here a client that cannot ask at all), others are still
/// refused, and the permission is in the activity log's consent step.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_standing_permission_lets_that_agent_upload_under_that_scope_only() {
    use mcp_harness::{Elicit, Gen, TestClient, call, connect, sc};
    let titan = Server::start(Protocol::Titan, |_| {
        Reply::text("20 text/gemini\r\n# Saved\n")
    })
    .await;
    let env = Env::loopback();
    let s = connect(&env, Gen::Initialize, TestClient::new(Elicit::Off)).await;
    let args = |path: &str| serde_json::json!({"url": titan.url(path), "text": "# Hi\n"});
    let refused = call(&s, "titan_upload", args("/log/one.gmi")).await;
    assert_eq!(
        sc(&refused)["error"]["code"],
        "USER_DECLINED",
        "{:?}",
        sc(&refused)
    );
    assert!(titan.requests().is_empty(), "nothing sent without a yes");

    let scope = titan.url("/log/").replacen("titan://", "gemini://", 1);
    let (ok, said) = env.run(&["titan", "allow", "smolweb-test", &scope]);
    assert!(ok && said.contains("may upload under"), "{said}");
    let (_, listed) = env.run(&["titan", "list"]);
    assert!(listed.contains("smolweb-test"), "{listed}");

    let sent = call(&s, "titan_upload", args("/log/one.gmi")).await;
    assert_eq!(sc(&sent)["kind"], "gemtext", "{:?}", sc(&sent));
    assert_eq!(titan.requests().len(), 1);
    let outside = call(&s, "titan_upload", args("/other.gmi")).await;
    assert_eq!(
        sc(&outside)["error"]["code"],
        "USER_DECLINED",
        "outside the scope"
    );
    assert_eq!(titan.requests().len(), 1);

    let (ok, said) = env.run(&["titan", "revoke", "smolweb-test", &scope]);
    assert!(ok, "{said}");
    let again = call(&s, "titan_upload", args("/log/two.gmi")).await;
    assert_eq!(sc(&again)["error"]["code"], "USER_DECLINED", "revoked");
    let (ok, _) = env.run(&["titan", "allow", "smolweb-test", "https://example.org/"]);
    assert!(!ok, "a web URL is no upload scope");
}

/// `smallnet_fetch` opens guppy:// through the one pipeline (issue 31's proof): a page in
/// lost and reordered packets, its prompt answered with `input` (never echoed), the cache on a
/// second call, and the agent's guard before any datagram when private addresses are not
/// allowed.
#[tokio::test]
async fn smallnet_fetch_opens_guppy() {
    use mcp_harness::{Elicit, Gen, TestClient, call, connect, sc};
    use serde_json::json;
    use support::guppy::{Knobs, Reply as GuppyReply, Server as GuppyServer};
    let knobs = Knobs {
        chunk: 32,
        reverse: true,
        drop_first_send: vec![2],
        ..Knobs::default()
    };
    let server = GuppyServer::start(knobs, |path| match path {
        "/" => GuppyReply::gemtext("# Guppy home\nSmall documents over UDP.\n=> /ask Ask\n"),
        "/ask" => GuppyReply::Input("Which fish?".into()),
        _ => GuppyReply::gemtext(&format!("You asked for {path}\n")),
    })
    .await;
    let env = Env::loopback();
    let session = connect(&env, Gen::Initialize, TestClient::new(Elicit::Off)).await;
    let r = call(&session, "smallnet_fetch", json!({"url": server.url("/")})).await;
    let v = sc(&r);
    assert_eq!(v["kind"], "gemtext", "{v}");
    let text = mcp_harness::texts(&r).join("\n");
    assert!(text.contains("Small documents over UDP"), "{text}");
    let again = sc(&call(&session, "smallnet_fetch", json!({"url": server.url("/")})).await);
    assert_eq!(again["cached"], true, "{again}");
    let ask = sc(&call(
        &session,
        "smallnet_fetch",
        json!({"url": server.url("/ask")}),
    )
    .await);
    assert_eq!(ask["kind"], "input", "{ask}");
    assert_eq!(ask["prompt"], "Which fish?", "{ask}");
    let answered = call(
        &session,
        "smallnet_fetch",
        json!({"url": server.url("/ask"), "input": "a guppy"}),
    )
    .await;
    let text = mcp_harness::texts(&answered).join("\n");
    assert!(text.contains("You asked for /ask?a%20guppy"), "{text}");
    let info = sc(&answered)["request_info"].clone();
    assert_eq!(info["has_query"], true, "{info}");
    assert!(
        !info.to_string().contains("a%20guppy"),
        "the answer is not echoed: {info}"
    );
    assert_eq!(
        server.requests().len(),
        3,
        "the cached page was not asked again"
    );

    let strict = Env::new("[politeness]\nper_host_interval_ms = 0\n");
    let session = connect(&strict, Gen::Initialize, TestClient::new(Elicit::Off)).await;
    let r = call(&session, "smallnet_fetch", json!({"url": server.url("/")})).await;
    assert_eq!(mcp_harness::error_code(&r), "BLOCKED");
    assert_eq!(
        server.requests().len(),
        3,
        "no datagram left for a refused address"
    );
}
