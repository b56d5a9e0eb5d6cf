//! The client facade against the in-process Gopher server: menus, search, cache, robots.

use smolweb_testkit as support;

use smolweb_client::config::Config;
use smolweb_client::{Client, Face, OpenOptions, Outcome};
use smolweb_core::page::Content;
use smolweb_store::paths::Paths;
use support::gopher::{Reply, Routes, Server};

fn agent() -> (Client, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let mut config = Config::default();
    config.network.allow_private_addresses = true;
    config.network.timeout_seconds = 5;
    config.politeness.per_host_interval_ms = 0;
    let paths = Paths::resolve(Some(dir.path().to_path_buf()), None, None, None).unwrap();
    (Client::new(config, paths, Face::Agent).unwrap(), dir)
}

fn hits(server: &Server, selector: &str) -> Vec<Option<String>> {
    server
        .requests()
        .into_iter()
        .filter(|r| r.selector == selector)
        .map(|r| r.search)
        .collect()
}

fn page(o: &Outcome) -> &smolweb_client::Fetched {
    match o {
        Outcome::Page { fetched, .. } => fetched,
        other => panic!("expected a page, got {other:?}"),
    }
}

#[tokio::test]
async fn menu_is_fetched_once_then_cached() {
    let menu = Reply::menu(&[("0", "About", "/about.txt"), ("i", "hello", "")]);
    let server = Server::start(Routes::new().route("/", menu)).await;
    let (c, _dir) = agent();
    let url = server.url('1', "/");
    let o = c.open(&url, &OpenOptions::default()).await;
    let fetched = page(&o);
    assert!(!fetched.cached);
    assert!(matches!(&fetched.page.content, Content::Menu(items) if items.len() == 2));
    assert_eq!(o.info().item_type, Some('1'));
    assert_eq!(o.info().selector.as_deref(), Some("/"));
    assert!(page(&c.open(&url, &OpenOptions::default()).await).cached);
    assert_eq!(hits(&server, "/").len(), 1);
}

#[tokio::test]
async fn search_is_sent_for_type_7_only() {
    let routes = Routes::new()
        .route("/find", Reply::menu(&[("i", "found", "")]))
        .route("/doc", Reply::text("plain\r\n"));
    let server = Server::start(routes).await;
    let (c, _dir) = agent();
    let opts = OpenOptions {
        search: Some("tea cups".into()),
        ..OpenOptions::default()
    };
    let o = c.open(&server.url('7', "/find"), &opts).await;
    assert!(!o.info().search_ignored);
    assert!(page(&c.open(&server.url('7', "/find"), &opts).await).cached);
    assert_eq!(hits(&server, "/find"), [Some("tea cups".to_string())]);

    let text = c.open(&server.url('0', "/doc"), &opts).await;
    assert!(text.info().search_ignored);
    assert_eq!(
        hits(&server, "/doc"),
        [None],
        "no search sent for a text item"
    );
}

#[tokio::test]
async fn robots_star_group_applies_to_selectors() {
    let routes = Routes::new()
        .route(
            "robots.txt",
            Reply::text("User-agent: *\nDisallow: /private\n"),
        )
        .route("/private/x", Reply::text("hidden"))
        .route("/open", Reply::text("fine"));
    let server = Server::start(routes).await;
    let (c, _dir) = agent();
    let blocked = c
        .open(&server.url('0', "/private/x"), &OpenOptions::default())
        .await;
    assert!(matches!(
        &blocked,
        Outcome::Error { error, .. } if error.code() == "BLOCKED_BY_ROBOTS"
    ));
    assert!(hits(&server, "/private/x").is_empty());
    assert!(
        !page(
            &c.open(&server.url('0', "/open"), &OpenOptions::default())
                .await
        )
        .cached
    );
    assert_eq!(hits(&server, "robots.txt").len(), 1);
}
