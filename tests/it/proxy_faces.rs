//! The proxies through the real binary (issue 33): `smolweb get` through the SOCKS5 proxy (a
//! name only the proxy knows) and through the Gemini proxy (20, and 53 and 43 in plain words
//! on stderr); the agent's face through the SOCKS5 proxy by default, and a capsule's 53 in the
//! words of `gemini_fetch`'s error.

use crate::mcp_harness;
use smolweb_testkit as support;

use mcp_harness::*;
use serde_json::json;
use std::process::Output;
use support::gemini::{Reply, Routes, Server};
use support::gemini_proxy::GeminiProxy;
use support::socks::{Proxy, Target};

/// `smolweb get URL` with `config` (written into the data directory, where it is read).
async fn get(data: &tempfile::TempDir, config: &str, url: &str) -> Output {
    std::fs::write(data.path().join("config.toml"), config).unwrap();
    crate::cli_get::get(data.path().to_path_buf(), vec![url.to_string()]).await
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn get_goes_through_the_socks5_proxy_by_name() {
    let server =
        Server::start(Routes::new().route("/", Reply::gemtext("# Behind the proxy\n"))).await;
    let proxy = Proxy::start(&[("hidden.test", server.addr())]).await;
    let data = tempfile::tempdir().unwrap();
    let config = format!(
        "[network]\nsocks5 = \"{}\"\ntimeout_seconds = 5\n",
        proxy.addr()
    );
    let url = format!("gemini://hidden.test:{}/", server.port());
    let out = get(&data, &config, &url).await;
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("Behind the proxy"));
    assert_eq!(
        proxy.requests(),
        [Target::Name("hidden.test".into(), server.port())]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn get_asks_the_gemini_proxy_and_words_53_and_43() {
    let proxy = GeminiProxy::start(
        &[("https://news.example/today", "# Today's news\nAll quiet.\n")],
        &["refused.example"],
    )
    .await;
    let data = tempfile::tempdir().unwrap();
    let config = format!(
        "[web]\ngemini_proxy = \"{}\"\n[network]\ntimeout_seconds = 5\n",
        proxy.url()
    );
    let out = get(&data, &config, "https://news.example/today").await;
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("All quiet."));
    // The pin made is the proxy's, and `get` says so.
    let port = proxy.server().port().to_string();
    let said = text(&out.stderr);
    assert!(
        said.contains("first visit") && said.contains(&port),
        "{said}"
    );

    let out = get(&data, &config, "https://refused.example/page").await;
    assert!(!out.status.success());
    let said = text(&out.stderr);
    assert!(
        said.contains("the Gemini proxy refused to fetch this web page for you")
            && said.contains("proxy request refused")
            && said.contains("not allowed here"),
        "{said}"
    );
    let out = get(&data, &config, "http://down.example/").await;
    assert!(!out.status.success());
    let said = text(&out.stderr);
    assert!(
        said.contains("could not fetch this web page (43, proxy error)")
            && said.contains("could not reach down.example"),
        "{said}"
    );
    assert_eq!(proxy.server().request_lines().len(), 3);
}

#[tokio::test]
async fn the_agent_goes_through_the_socks5_proxy_and_reads_a_53_in_words() {
    let server = Server::start(
        Routes::new()
            .route("/", Reply::gemtext("# For the agent\n"))
            .route(
                "/other-host",
                Reply::status(53, "this capsule serves hidden.test only"),
            ),
    )
    .await;
    let proxy = Proxy::start(&[("hidden.test", server.addr())]).await;
    let env = Env::new(&format!(
        "[network]\nsocks5 = \"{}\"\ntimeout_seconds = 5\n[politeness]\nper_host_interval_ms = 0\n",
        proxy.addr()
    ));
    let session = connect(&env, Gen::Initialize, TestClient::new(Elicit::Off)).await;
    let base = format!("gemini://hidden.test:{}", server.port());
    let r = call(&session, "gemini_fetch", json!({"url": format!("{base}/")})).await;
    assert_ne!(r.is_error, Some(true), "{:?}", sc(&r));
    assert!(texts(&r).join("\n").contains("For the agent"));
    // The agent's guard judged the loopback literal without asking the proxy.
    let r = call(&session, "gemini_fetch", json!({"url": server.url("/")})).await;
    assert_eq!(error_code(&r), "BLOCKED", "{:?}", sc(&r));
    let r = call(
        &session,
        "gemini_fetch",
        json!({"url": format!("{base}/other-host")}),
    )
    .await;
    assert_eq!(error_code(&r), "PERMANENT_ERROR", "{:?}", sc(&r));
    let message = sc(&r)["error"]["message"].as_str().unwrap().to_string();
    assert!(
        message.contains("refused to fetch this address for you (53, proxy request refused)"),
        "{message}"
    );
    // robots.txt, the page and the 53: all through the proxy by name, nothing else.
    let requests = proxy.requests();
    assert_eq!(requests.len(), 3, "{requests:?}");
    assert!(
        requests
            .iter()
            .all(|t| *t == Target::Name("hidden.test".into(), server.port()))
    );
    session.cancel().await.unwrap();
}
