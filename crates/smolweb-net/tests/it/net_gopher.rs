//! Gopher fetches against the in-process server: framing, search, limits, misbehaviours.

use smolweb_testkit as support;

use smolweb_core::url::GopherTarget;
use smolweb_net::{FetchError, NetOptions};
use std::time::Duration;
use support::gopher::{Reply, Routes, Server};
use support::{TempStores, loopback_options};

const BUDGET: Duration = Duration::from_secs(2);

fn target(server: &Server, item_type: char, selector: &str, search: Option<&str>) -> GopherTarget {
    GopherTarget {
        host: server.host().into(),
        port: server.port(),
        item_type,
        selector: selector.into(),
        search: search.map(str::to_string),
        search_ignored: false,
    }
}

async fn fetch(target: &GopherTarget, opts: &NetOptions) -> Result<Vec<u8>, FetchError> {
    let stores = TempStores::new();
    stores.net(Default::default()).gopher(target, opts).await
}

#[tokio::test]
async fn menu_and_text_are_read_to_close() {
    let menu = Reply::menu(&[("0", "About", "/about.txt"), ("1", "Docs", "/docs")]);
    let server = Server::start(
        Routes::new()
            .route("", menu.clone())
            .route("/about.txt", Reply::text("hello gopher\r\n.\r\n")),
    )
    .await;
    let opts = loopback_options(BUDGET);
    let body = fetch(&target(&server, '1', "", None), &opts).await.unwrap();
    let Reply::Bytes(want) = menu else {
        unreachable!()
    };
    assert_eq!(body, want);
    let text = fetch(&target(&server, '0', "/about.txt", None), &opts)
        .await
        .unwrap();
    assert_eq!(text, b"hello gopher\r\n.\r\n");
    let raws: Vec<String> = server.requests().into_iter().map(|r| r.raw).collect();
    assert_eq!(raws, vec!["".to_string(), "/about.txt".to_string()]);
}

#[tokio::test]
async fn search_is_sent_only_for_type_7() {
    let server = Server::start(Routes::new().handler(|_| Reply::text("ok"))).await;
    let opts = loopback_options(BUDGET);
    fetch(&target(&server, '7', "/find", Some("smol web")), &opts)
        .await
        .unwrap();
    fetch(&target(&server, '0', "/doc", Some("secret")), &opts)
        .await
        .unwrap();
    let reqs = server.requests();
    assert_eq!(reqs[0].selector, "/find");
    assert_eq!(reqs[0].search.as_deref(), Some("smol web"));
    assert_eq!(reqs[1].raw, "/doc");
    assert_eq!(reqs[1].search, None);
}

#[tokio::test]
async fn session_types_and_oversized_requests_never_connect() {
    let server = Server::start(Routes::new().handler(|_| Reply::text("ok"))).await;
    let opts = loopback_options(BUDGET);
    for t in ['2', '8', 'T'] {
        let err = fetch(&target(&server, t, "/x", None), &opts)
            .await
            .unwrap_err();
        assert!(
            matches!(err, FetchError::NotFetchable(c) if c == t),
            "{err}"
        );
    }
    let long = "s".repeat(1025);
    let err = fetch(&target(&server, '0', &long, None), &opts)
        .await
        .unwrap_err();
    assert_eq!(err.code(), "INVALID_REQUEST");
    let err = fetch(&target(&server, '7', "/f", Some(&"q".repeat(257))), &opts)
        .await
        .unwrap_err();
    assert_eq!(err.code(), "INVALID_REQUEST");
    let err = fetch(&target(&server, '0', "/a\tb", None), &opts)
        .await
        .unwrap_err();
    assert_eq!(err.code(), "INVALID_REQUEST");
    let err = fetch(&target(&server, '7', "/f", Some("a\r\nb")), &opts)
        .await
        .unwrap_err();
    assert_eq!(err.code(), "INVALID_REQUEST");
    assert!(server.requests().is_empty());
}

#[tokio::test]
async fn misbehaving_servers_end_within_the_budget() {
    let server = Server::start(
        Routes::new()
            .route(
                "/drip",
                Reply::Drip {
                    bytes: vec![b'x'; 1000],
                    interval: Duration::from_millis(100),
                },
            )
            .route("/endless", Reply::Endless)
            .route("/silent", Reply::Silent),
    )
    .await;
    let opts = NetOptions {
        max_body: 64 * 1024,
        ..loopback_options(BUDGET)
    };
    for (selector, code) in [
        ("/drip", "TIMEOUT"),
        ("/silent", "TIMEOUT"),
        ("/endless", "RESPONSE_TOO_LARGE"),
    ] {
        let err = fetch(&target(&server, '0', selector, None), &opts)
            .await
            .unwrap_err();
        assert_eq!(err.code(), code, "{selector}: {err}");
    }
}

#[tokio::test]
async fn loopback_is_blocked_unless_allowed() {
    let server = Server::start(Routes::new().handler(|_| Reply::text("ok"))).await;
    let strict = NetOptions {
        timeout: BUDGET,
        ..NetOptions::default()
    };
    let err = fetch(&target(&server, '0', "/", None), &strict)
        .await
        .unwrap_err();
    assert_eq!(err.code(), "BLOCKED");
    assert!(err.to_string().contains("loopback"), "{err}");
    assert!(server.requests().is_empty());
    let listed = NetOptions {
        allowed_hosts: vec!["127.0.0.1".into()],
        ..strict
    };
    assert_eq!(
        fetch(&target(&server, '0', "/", None), &listed)
            .await
            .unwrap(),
        b"ok"
    );
}

#[tokio::test]
async fn refused_connection_is_a_connection_error() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    drop(listener);
    let t = GopherTarget {
        host: "127.0.0.1".into(),
        port,
        item_type: '1',
        selector: String::new(),
        search: None,
        search_ignored: false,
    };
    let err = fetch(&t, &loopback_options(BUDGET)).await.unwrap_err();
    assert_eq!(err.code(), "CONNECTION_ERROR", "{err}");
    // Plain words, the address once, no operating-system error number.
    assert_eq!(
        err.to_string(),
        format!("cannot connect to 127.0.0.1:{port}: connection refused")
    );
}
