//! End to end: the real browser in tmux behind the proxies of issue 33, item 17. With
//! `[network] socks5` a capsule whose name only the proxy knows opens (the name went to the
//! proxy, never to a resolver here) and a capsule's 53 is said in words; with `[web]
//! gemini_proxy` a web link is asked of the Gemini proxy, and its 53 and 43 are said in words.
//! Without tmux it prints a loud SKIP and passes, unless SMOLWEB_REQUIRE_TMUX=1.

use crate::tui_tmux_driver;
use smolweb_testkit as support;

use support::gemini::{Reply, Routes, Server};
use support::gemini_proxy::GeminiProxy;
use support::socks::{Proxy, Target};
use tui_tmux_driver::{Tmux, tmux_available};

/// The browser on `url` with `config` in a fresh data directory, in a tmux session `name`.
fn browser(name: &str, config: &str, url: &str) -> (Tmux, tempfile::TempDir) {
    let data = tempfile::tempdir().unwrap();
    std::fs::write(data.path().join("config.toml"), config).unwrap();
    let command = format!(
        "{} --data-dir {} {url}; echo SMOLWEB-EXIT=$?; sleep 30",
        env!("CARGO_BIN_EXE_smolweb"),
        data.path().display(),
    );
    (Tmux::start(name, &command, 160, 30), data)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_browser_goes_through_the_socks5_proxy_by_name_and_words_a_53() {
    if !tmux_available("tui_tmux_proxy") {
        return;
    }
    let server = Server::start(
        Routes::new()
            .route(
                "/",
                Reply::gemtext("# Behind the proxy\n\n=> /other Another host's page\n"),
            )
            .route(
                "/other",
                Reply::status(53, "this capsule serves hidden.test only"),
            ),
    )
    .await;
    let proxy = Proxy::start(&[("hidden.test", server.addr())]).await;
    let config = format!(
        "[network]\nsocks5 = \"{}\"\ntimeout_seconds = 5\n[politeness]\nper_host_interval_ms = 0\n",
        proxy.addr()
    );
    let url = format!("gemini://hidden.test:{}/", server.port());
    let port = server.port();
    let requests = tokio::task::spawn_blocking(move || {
        let (t, _data) = browser("socks", &config, &url);
        let s = t.wait_for("Another host's page");
        println!("--- through the SOCKS5 proxy ---\n{s}");
        t.keys(&["1"]);
        let s = t.wait_for("(53, proxy request refused)");
        println!("--- a capsule's 53 ---\n{s}");
        t.keys(&["q"]);
        t.wait_for("SMOLWEB-EXIT=0");
    });
    requests.await.unwrap();
    let asked = proxy.requests();
    assert!(!asked.is_empty());
    assert!(
        asked
            .iter()
            .all(|t| *t == Target::Name("hidden.test".into(), port)),
        "every connection went to the proxy by name: {asked:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn web_links_are_asked_of_the_gemini_proxy_and_its_53_and_43_are_worded() {
    if !tmux_available("tui_tmux_proxy") {
        return;
    }
    let proxy = GeminiProxy::start(
        &[(
            "https://news.example/today",
            "# Today's news\n\nAll quiet.\n=> https://refused.example/page A refused site\n=> http://down.example/ A site that is down\n",
        )],
        &["refused.example"],
    )
    .await;
    let config = format!(
        "[web]\ngemini_proxy = \"{}\"\n[network]\ntimeout_seconds = 5\n[politeness]\nper_host_interval_ms = 0\n",
        proxy.url()
    );
    tokio::task::spawn_blocking(move || {
        let (t, _data) = browser("gproxy", &config, "https://news.example/today");
        t.wait_for("All quiet.");
        // The connection and the certificate were the proxy's: the status line says so.
        let s = t.wait_for("web page through the Gemini proxy 127.0.0.1:");
        assert!(s.contains("web · via Gemini proxy · TLS, pinned"), "{s}");
        println!("--- a web page through the Gemini proxy ---\n{s}");
        t.keys(&["1"]);
        let s = t.wait_for("the Gemini proxy refused to fetch this web page for you");
        assert!(s.contains("53, proxy request refused"), "{s}");
        println!("--- the proxy's 53 ---\n{s}");
        t.keys(&["b"]);
        t.wait_for("All quiet.");
        t.keys(&["2"]);
        let s = t.wait_for("could not fetch this web page (43, proxy error)");
        println!("--- the proxy's 43 ---\n{s}");
        t.keys(&["q"]);
        t.wait_for("SMOLWEB-EXIT=0");
    })
    .await
    .unwrap();
    // The page and both links, each one Gemini request to the proxy.
    let lines = proxy.server().request_lines();
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert!(lines[0].contains("https://news.example/today"), "{lines:?}");
}
