//! The proxies through the facade (issue 33): `[network] socks5` for both faces (the agent's
//! only while `socks5_for_agent`), and `[web] gemini_proxy` for the person's http(s) URLs,
//! with its 20, 53 and 43 answers; the config refuses a proxy it cannot use.

use smolweb_testkit as support;

use smolweb_client::config::Config;
use smolweb_client::web::{WebQuery, failure_words};
use smolweb_client::{Client, Face, OpenOptions, Outcome};
use smolweb_core::code::ErrorCode;
use smolweb_core::page::Content;
use smolweb_net::TofuState;
use smolweb_store::paths::Paths;
use support::gemini::{Reply, Routes, Server};
use support::gemini_proxy::GeminiProxy;
use support::socks::{Proxy, Target};

fn client_with(face: Face, edit: impl FnOnce(&mut Config)) -> (Client, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let mut config = Config::default();
    config.network.timeout_seconds = 5;
    config.politeness.per_host_interval_ms = 0;
    edit(&mut config);
    let paths = Paths::resolve(Some(dir.path().to_path_buf()), None, None, None).unwrap();
    (Client::new(config, paths, face).unwrap(), dir)
}

async fn open(c: &Client, url: &str) -> Outcome {
    c.open(url, &OpenOptions::default()).await
}

fn page_text(outcome: &Outcome) -> String {
    match outcome {
        Outcome::Page { fetched, .. } => fetched.page.body.text().to_string(),
        other => panic!("not a page: {other:?}"),
    }
}

#[tokio::test]
async fn both_faces_go_through_the_socks5_proxy_unless_the_agent_is_let_out() {
    let server = Server::start(Routes::new().route("/", Reply::gemtext("# Hidden\n"))).await;
    let proxy = Proxy::start(&[("hidden.test", server.addr())]).await;
    let url = format!("gemini://hidden.test:{}/", server.port());
    let socks = proxy.addr().to_string();
    for face in [Face::Human, Face::Agent] {
        let (c, _dir) = client_with(face, |cfg| cfg.network.socks5 = socks.clone());
        assert_eq!(c.socks5(), Some(proxy.addr()));
        assert_eq!(page_text(&open(&c, &url).await), "# Hidden\n", "{face:?}");
        // The agent's guard still refuses what it sees: a loopback literal, a local name.
        if face == Face::Agent {
            for refused in [server.url("/"), "gemini://localhost/".to_string()] {
                let parsed = smolweb_core::url::Url::parse(&refused).unwrap();
                let err = c.check_destination(&parsed).await.unwrap_err();
                assert_eq!(err.code(), ErrorCode::Blocked, "{refused}: {err}");
            }
            // Judged without a lookup: a name no DNS knows passes the guard.
            let parsed = smolweb_core::url::Url::parse(&url).unwrap();
            c.check_destination(&parsed).await.unwrap();
        }
    }
    // The person's page; the agent's robots.txt and page: all through the proxy, by name.
    let name = Target::Name("hidden.test".into(), server.port());
    assert_eq!(proxy.requests(), [name.clone(), name.clone(), name]);
    // `socks5_for_agent = false`: the agent connects directly, and the name does not resolve.
    let (c, _dir) = client_with(Face::Agent, |cfg| {
        cfg.network.socks5 = socks.clone();
        cfg.network.socks5_for_agent = false;
    });
    assert_eq!(c.socks5(), None);
    let Outcome::Error { error, .. } = open(&c, &url).await else {
        panic!("a page without the proxy");
    };
    assert_eq!(error.code(), ErrorCode::DnsError, "{error}");
    assert_eq!(proxy.requests().len(), 3, "the agent did not use the proxy");
}

#[tokio::test]
async fn the_persons_web_links_are_asked_of_the_gemini_proxy() {
    let proxy = GeminiProxy::start(
        &[(
            "https://news.example/today",
            "# Today\n=> /yesterday Yesterday\n=> gemini://cap.example/ A capsule\n",
        )],
        &["refused.example"],
    )
    .await;
    let (c, _dir) = client_with(Face::Human, |cfg| cfg.web.gemini_proxy = proxy.url());
    let outcome = open(&c, "https://news.example/today").await;
    let Outcome::Page { info, fetched } = &outcome else {
        panic!("{outcome:?}");
    };
    assert_eq!(fetched.page.body.text().lines().next(), Some("# Today"));
    assert_eq!(info.url, "https://news.example/today");
    // The connection and its certificate are the proxy's, pinned on first use.
    assert_eq!(info.port, proxy.server().port());
    let tls = info.tls.as_ref().unwrap();
    assert_eq!(tls.cert_fingerprint, proxy.server().fingerprint());
    assert_eq!(tls.tofu, TofuState::FirstUse);
    // Relative links stay on the web page's site.
    let Content::Gemtext(doc) = &fetched.page.content else {
        panic!("the proxy's page is gemtext");
    };
    let links: Vec<String> = doc.links().map(|l| l.url.clone()).collect();
    assert_eq!(
        links,
        ["https://news.example/yesterday", "gemini://cap.example/"]
    );
    assert_eq!(
        proxy.server().request_lines(),
        ["https://news.example/today"]
    );
    // Held like a capsule's page: the same URL again is the cache's.
    assert!(c.cached("https://news.example/today").is_some());
    assert_eq!(proxy.server().request_lines().len(), 1);

    // 53: the proxy refuses that site; 43: it could not fetch it.
    for (url, status, words) in [
        (
            "https://refused.example/",
            53,
            "refused to fetch this web page",
        ),
        ("http://down.example/x", 43, "could not fetch this web page"),
    ] {
        let Outcome::Failure {
            info,
            status: s,
            meta,
            ..
        } = open(&c, url).await
        else {
            panic!("{url}: not a failure");
        };
        assert_eq!(s, status);
        let said = failure_words(&info.url, s, &meta);
        assert!(said.contains(words) && said.contains(&meta), "{said}");
    }
    assert_eq!(proxy.server().request_lines().len(), 3);
}

#[tokio::test]
async fn the_agent_fetches_the_web_itself_whatever_the_gemini_proxy() {
    let proxy = GeminiProxy::start(&[], &[]).await;
    let web = support::http::Server::start(|_| support::http::Reply::html("<p>direct</p>")).await;
    let (c, _dir) = client_with(Face::Agent, |cfg| {
        cfg.web.gemini_proxy = proxy.url();
        cfg.network.allowed_hosts = vec!["127.0.0.1".into()];
        cfg.politeness.respect_robots = false;
    });
    let q = WebQuery {
        url: web.url("/a"),
        ..WebQuery::default()
    };
    let page = c.fetch_web(&q).await.unwrap();
    assert!(page.page.body.text().contains("direct"));
    assert_eq!(web.requests().len(), 1);
    // And `open` on the agent face reads the web too, never the proxy.
    let _ = open(&c, &web.url("/b")).await;
    assert!(proxy.server().request_lines().is_empty());
}

#[test]
fn the_config_refuses_a_proxy_it_cannot_use() {
    for (text, key) in [
        ("[network]\nsocks5 = \"localhost:9050\"\n", "socks5"),
        ("[network]\nsocks5 = \"127.0.0.1\"\n", "socks5"),
        (
            "[web]\ngemini_proxy = \"https://proxy.example/\"\n",
            "gemini_proxy",
        ),
        (
            "[web]\ngemini_proxy = \"proxy.example:1965\"\n",
            "gemini_proxy",
        ),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.toml");
        std::fs::write(&path, text).unwrap();
        let err = Config::load(&path).unwrap_err().to_string();
        assert!(
            err.contains(key) && err.contains("expected"),
            "{text}: {err}"
        );
    }
    let ok = Config::from_toml(
        "[network]\nsocks5 = \"[::1]:9050\"\n[web]\ngemini_proxy = \"gemini://127.0.0.1:1965/\"\n",
    )
    .unwrap();
    assert_eq!(ok.network.socks5, "[::1]:9050");
    assert!(
        ok.network.socks5_for_agent,
        "the agent uses the proxy by default"
    );
}
