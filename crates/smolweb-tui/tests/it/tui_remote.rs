//! The browser's state machine fed with real answers from the in-process servers (through
//! the client facade, as the shell does): what a page from the network may and may not do.

use crate::tui_helpers;
use smolweb_testkit as support;

use smolweb_client::config::Config;
use smolweb_client::{Client, Face, OpenOptions, Outcome};
use smolweb_store::paths::Paths;
use smolweb_tui::app::{App, Effect, Msg};
use support::gemini::{Reply, Routes, Server};
use tui_helpers::*;

fn client() -> (Client, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let mut config = Config::default();
    config.network.timeout_seconds = 5;
    config.politeness.per_host_interval_ms = 0;
    let paths = Paths::resolve(Some(dir.path().to_path_buf()), None, None, None).unwrap();
    (Client::new(config, paths, Face::Human).unwrap(), dir)
}

/// Carry out the app's fetches with the real client until none is left.
async fn run_fetches(app: &mut App, client: &Client, mut fx: Vec<Effect>) -> Vec<Effect> {
    let mut rest = Vec::new();
    while !fx.is_empty() {
        let mut next = Vec::new();
        for e in fx {
            match e {
                Effect::Fetch { id, url, opts } => {
                    let open = OpenOptions {
                        input: opts.input,
                        search: opts.search,
                        refresh: opts.refresh,
                        identity: opts.identity,
                        trust_once: opts.trust_once,
                        progress: None,
                        web_full: opts.web_full,
                        finger_forward: opts.typed,
                        waits: None,
                    };
                    let outcome: Outcome = client.open(&url, &open).await;
                    next.extend(answer(app, id, outcome));
                }
                other => rest.push(other),
            }
        }
        fx = next;
    }
    rest
}

#[tokio::test]
async fn a_remote_pages_action_links_are_refused_text() {
    let server = Server::start(
        Routes::new()
            .route("/", Reply::gemtext("# Start\n\n=> /evil Onwards\n"))
            .route(
                "/evil",
                Reply::gemtext(
                    "# Evil\n\n=> action:back Go back\n=> action:trust-save Trust\n=> action:identity-use:sha256:beef Use\n",
                ),
            ),
    )
    .await;
    let (client, _dir) = client();
    let mut app = app();
    let fx = app.start(Some(server.url("/")));
    run_fetches(&mut app, &client, fx).await;
    assert_eq!(app.current().unwrap().title, "Start");
    let fx = press(&mut app, &["1"]);
    run_fetches(&mut app, &client, fx).await;
    assert_eq!(app.current().unwrap().title, "Evil");
    let s = screen(&app);
    // On a page from the network `action:` is an unknown scheme: shown as text, unnumbered.
    assert!(
        s.contains("[-] Go back (action: link not followed)"),
        "shown as a refused link: {s}"
    );
    assert!(!s.contains("[1]"), "no numbered link: {s}");
    for n in ["1", "2", "3"] {
        let fx = press(&mut app, &[n]);
        let fx = [fx, press(&mut app, &["enter"])].concat();
        assert!(fetches(&fx).is_empty(), "link {n} must not fetch: {fx:?}");
        assert!(
            !fx.iter()
                .any(|e| matches!(e, Effect::OpenExternal { .. } | Effect::Store(_))),
            "link {n}: nothing opened, nothing pinned: {fx:?}"
        );
        assert!(
            app.dialog().popup.is_none(),
            "nothing asked: {:?}",
            app.dialog().popup
        );
        assert_eq!(
            app.current().unwrap().title,
            "Evil",
            "link {n} must not go back"
        );
    }
    assert_eq!(app.tab().unwrap().back.len(), 1);
    let _ = app.update(Msg::Tick(10_000));
}

const WEB_ARTICLE: &str = r#"<!doctype html><html><head><title>Harbour tides</title></head><body>
<nav><a href="/">Home</a> <a href="/about">About</a></nav>
<article><h1>Harbour tides</h1>
<p>The harbour fills slowly because the channel is long and narrow, and the water needs time to climb the shallow bar at its mouth, so boats wait outside.</p>
<p>Records kept over fifty years show the same delay in every season; read the <a href="GEMINI">capsule</a>.</p>
<ul><li>first point</li><li>second point</li></ul></article>
<footer>Footer of the whole site</footer></body></html>"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_https_link_opens_in_the_reader_view_and_its_links_open_natively() {
    use support::http::{Reply as WebReply, Server as WebServer, TestCa};
    let capsule = Server::start(Routes::new().route("/", Reply::gemtext("# Capsule\n"))).await;
    let ca = TestCa::new();
    let article = WEB_ARTICLE.replace("GEMINI", &capsule.url("/"));
    let web = WebServer::start_tls(&ca, move |r| match r.path() {
        "/tides" => WebReply::html(&article),
        _ => WebReply::new(404, "text/plain", ""),
    })
    .await;
    let tides = web.url("/tides");
    assert!(tides.starts_with("https://"), "{tides}");
    let home = Server::start(Routes::new().route(
        "/",
        Reply::gemtext(&format!("# Start\n\n=> {tides} Tides\n")),
    ))
    .await;

    let dir = tempfile::tempdir().unwrap();
    let mut config = Config::default();
    config.network.timeout_seconds = 5;
    config.politeness.per_host_interval_ms = 0;
    config.web.extra_root_certificates = vec![ca.write_pem(dir.path()).display().to_string()];
    let paths = Paths::resolve(Some(dir.path().to_path_buf()), None, None, None).unwrap();
    let client = Client::new(config, paths, Face::Human).unwrap();

    let mut app = app();
    let fx = app.start(Some(home.url("/")));
    run_fetches(&mut app, &client, fx).await;
    let fx = press(&mut app, &["1"]);
    assert!(app.dialog().popup.is_none(), "{:?}", app.dialog().popup);
    run_fetches(&mut app, &client, fx).await;
    assert_eq!(app.current().unwrap().title, "Harbour tides");
    let s = screen(&app);
    assert!(s.contains("• first point"), "{s}");
    assert!(!s.contains("Footer of the whole site"), "{s}");
    assert!(s.contains("web · certificate verified · main"), "{s}");
    // `i` names the root that verified the chain: the config's test CA.
    press(&mut app, &["i"]);
    let Some(smolweb_tui::app::Popup::Info(rows)) = &app.dialog().popup else {
        panic!("{:?}", app.dialog().popup);
    };
    let trust = rows
        .iter()
        .find(|(k, _)| k == "Trust")
        .map(|(_, v)| v.as_str());
    assert_eq!(
        trust,
        Some("verified by smolweb test CA, from web.extra_root_certificates")
    );
    press(&mut app, &["esc"]);
    assert!(app.dialog().popup.is_none(), "{:?}", app.dialog().popup);

    // The full page, through the client's full conversion.
    let fx = press(&mut app, &["v"]);
    run_fetches(&mut app, &client, fx).await;
    let s = screen(&app);
    assert!(s.contains("Footer of the whole site"), "{s}");
    assert!(s.contains("web · certificate verified · full"), "{s}");

    // The capsule link on the web page opens natively.
    let n = s
        .lines()
        .find(|l| l.contains("] capsule"))
        .and_then(|l| l.split('[').nth(1))
        .and_then(|l| l.split(']').next())
        .unwrap_or_else(|| panic!("a numbered capsule link: {s}"))
        .to_string();
    let fx = press(&mut app, &[&n, "enter"]);
    assert!(app.dialog().popup.is_none(), "{:?}", app.dialog().popup);
    run_fetches(&mut app, &client, fx).await;
    assert_eq!(app.current().unwrap().title, "Capsule");
    press(&mut app, &["b"]);
    assert_eq!(app.current().unwrap().title, "Harbour tides");
    assert!(screen(&app).contains("certificate verified · full"));
    assert_eq!(
        web.hits("/tides"),
        2,
        "main, then full; back answers from memory"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_https_page_whose_certificate_does_not_verify_is_an_error_not_a_reader_view() {
    use support::http::{Reply as WebReply, Server as WebServer, TestCa};
    let ca = TestCa::new();
    let web = WebServer::start_tls(&ca, |_| WebReply::html(WEB_ARTICLE)).await;
    let (client, _dir) = client();
    let mut app = app();
    let fx = app.start(Some(web.url("/tides")));
    run_fetches(&mut app, &client, fx).await;
    let s = screen(&app);
    assert!(!s.contains("Harbour tides"), "{s}");
    assert!(app.web_badge().is_none(), "{s}");
    assert!(app.status().error, "{:?}", app.status());
}
