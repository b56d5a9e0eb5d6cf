//! Gemini fetches against the in-process TLS server: framing, limits, misbehaviours, guard.

use smolweb_testkit as support;

use smolweb_core::url::Url;
use smolweb_net::{Ending, FetchError, GeminiResponse, NetOptions, TofuState};
use std::time::Duration;
use support::gemini::{Options, Reply, Routes, Server};
use support::{TempStores, loopback_options};

const BUDGET: Duration = Duration::from_secs(2);

async fn fetch(url: &str, opts: &NetOptions) -> Result<GeminiResponse, FetchError> {
    let stores = TempStores::new();
    let url = Url::parse(url).unwrap();
    stores.net(Default::default()).gemini(&url, opts).await
}

fn misbehaving_routes() -> Routes {
    Routes::new()
        .route("/big-header", Reply::oversize_header())
        .route("/no-crlf", Reply::no_crlf())
        .route("/bad-status", Reply::invalid_status())
        .route(
            "/drip",
            Reply::drip(&"x".repeat(200), Duration::from_millis(50)),
        )
        .route("/endless", Reply::endless())
        .route("/silent", Reply::Silent)
        .route("/latin", Reply::invalid_utf8_body())
        .route(
            "/abrupt",
            Reply::close_without_notify(20, "text/gemini", b"# cut short\n"),
        )
}

#[tokio::test]
async fn fetches_a_page_and_reports_tls_facts() {
    let server = Server::start(Routes::new().route("/hello", Reply::gemtext("# Hello\n"))).await;
    let (tx, rx) = tokio::sync::watch::channel(0);
    let opts = NetOptions {
        progress: Some(tx),
        ..loopback_options(BUDGET)
    };
    let resp = fetch(&server.url("/hello?q=1"), &opts).await.unwrap();
    assert_eq!(resp.header.status, 20);
    assert_eq!(resp.header.meta, "text/gemini");
    assert_eq!(resp.body, b"# Hello\n");
    assert_eq!(*rx.borrow(), 8);
    assert_eq!(resp.tls.version, "TLSv1.3");
    assert!(resp.tls.cipher.starts_with("TLS13_"), "{}", resp.tls.cipher);
    assert_eq!(resp.tls.cert_fingerprint, server.fingerprint());
    assert_eq!(resp.tls.tofu, TofuState::FirstUse);
    assert_eq!(resp.tls.client_cert, None);
    assert_eq!(server.request_lines(), vec![server.url("/hello?q=1")]);
}

#[tokio::test]
async fn non_success_answers_have_no_body() {
    let server = Server::start(
        Routes::new().route("/gone", Reply::new(51, "not here", b"ignored".to_vec())),
    )
    .await;
    let resp = fetch(&server.url("/gone"), &loopback_options(BUDGET))
        .await
        .unwrap();
    assert_eq!(
        (resp.header.status, resp.header.meta.as_str()),
        (51, "not here")
    );
    assert!(resp.body.is_empty());
}

#[tokio::test]
async fn broken_headers_are_protocol_errors() {
    let server = Server::start(misbehaving_routes()).await;
    for path in ["/big-header", "/no-crlf", "/bad-status"] {
        let err = fetch(&server.url(path), &loopback_options(BUDGET))
            .await
            .unwrap_err();
        assert_eq!(err.code(), "PROTOCOL_ERROR", "{path}: {err}");
    }
}

#[tokio::test]
async fn slow_silent_and_endless_servers_stop_at_the_limits() {
    let server = Server::start(misbehaving_routes()).await;
    let opts = NetOptions {
        max_body: 64 * 1024,
        ..loopback_options(BUDGET)
    };
    for (path, want) in [
        ("/drip", FetchError::Timeout(BUDGET)),
        ("/silent", FetchError::Timeout(BUDGET)),
        ("/endless", FetchError::TooLarge { limit: 64 * 1024 }),
    ] {
        let err = fetch(&server.url(path), &opts).await.unwrap_err();
        assert_eq!(err.to_string(), want.to_string(), "{path}");
    }
}

#[tokio::test]
async fn raw_bytes_and_abrupt_closes_are_delivered() {
    let server = Server::start(misbehaving_routes()).await;
    let opts = loopback_options(BUDGET);
    let resp = fetch(&server.url("/latin"), &opts).await.unwrap();
    assert_eq!(resp.body, vec![b'o', b'k', 0xff, 0xfe, 0xc3, 0x28, b'\n']);
    assert_eq!(resp.ending, Ending::Clean, "close_notify was sent");
    let resp = fetch(&server.url("/abrupt"), &opts).await.unwrap();
    assert_eq!(resp.body, b"# cut short\n");
    assert_eq!(resp.ending, Ending::NoCloseNotify);
}

#[tokio::test]
async fn tls_garbage_is_a_tls_error() {
    let options = Options {
        tls_garbage: true,
        ..Options::default()
    };
    let server = Server::start_with(Routes::new(), options).await;
    let err = fetch(&server.url("/"), &loopback_options(BUDGET))
        .await
        .unwrap_err();
    assert_eq!(err.code(), "TLS_ERROR", "{err}");
}

/// A plain-TCP server on loopback that reads what arrives (a TLS ClientHello) and answers
/// `answer` in clear text, as a Gopher or web server on a Gemini URL's port would.
async fn plain_text_server(answer: &'static [u8]) -> u16 {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(async move {
        while let Ok((mut tcp, _)) = listener.accept().await {
            let mut hello = [0u8; 512];
            let _ = tcp.read(&mut hello).await;
            let _ = tcp.write_all(answer).await;
            let _ = tcp.shutdown().await;
        }
    });
    port
}

#[tokio::test]
async fn plain_text_on_a_gemini_port_says_what_answered_instead_of_tls() {
    for (answer, says) in [
        (
            &b"HTTP/1.0 400 Bad Request\r\n\r\n"[..],
            "web server (HTTP)",
        ),
        (
            b"3'/' does not exist\terror.host\t1\r\n.\r\n",
            "Gopher server",
        ),
        (b"hello, this is not TLS\r\n", "another protocol"),
    ] {
        let port = plain_text_server(answer).await;
        let err = fetch(
            &format!("gemini://127.0.0.1:{port}/"),
            &loopback_options(BUDGET),
        )
        .await
        .unwrap_err();
        let text = err.to_string();
        assert_eq!(err.code(), "TLS_ERROR", "{text}");
        assert!(text.contains("did not answer with TLS"), "{text}");
        assert!(text.contains(says), "{text}");
        assert!(
            !text.contains("InvalidContentType"),
            "no rustls jargon: {text}"
        );
        let web = format!("http://127.0.0.1:{port}/");
        let gopher = format!("gopher://127.0.0.1:{port}/");
        assert!(text.contains(&web) || text.contains(&gopher), "{text}");
        assert!(
            matches!(err, FetchError::Tls(smolweb_net::TlsError::NotTls { .. })),
            "{err:?}"
        );
    }
}

#[tokio::test]
async fn tls12_servers_are_spoken_to() {
    let options = Options {
        tls12_only: true,
        ..Options::default()
    };
    let server = Server::start_with(Routes::new().route("/", Reply::gemtext("hi")), options).await;
    let resp = fetch(&server.url("/"), &loopback_options(BUDGET))
        .await
        .unwrap();
    assert_eq!(resp.tls.version, "TLSv1.2");
    assert_eq!(resp.body, b"hi");
}

#[tokio::test]
async fn loopback_is_blocked_by_default_and_allowed_by_options() {
    let server = Server::start(Routes::new().route("/", Reply::gemtext("hi"))).await;
    let strict = NetOptions {
        timeout: BUDGET,
        ..NetOptions::default()
    };
    let err = fetch(&server.url("/"), &strict).await.unwrap_err();
    assert_eq!(err.code(), "BLOCKED");
    assert_eq!(server.connections(), 0);
    let listed = NetOptions {
        allowed_hosts: vec!["127.0.0.1".into()],
        ..strict
    };
    assert_eq!(fetch(&server.url("/"), &listed).await.unwrap().body, b"hi");
}

#[tokio::test]
async fn refused_connection_is_a_connection_error() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    drop(listener);
    let url = format!("gemini://127.0.0.1:{port}/");
    let err = fetch(&url, &loopback_options(BUDGET)).await.unwrap_err();
    assert_eq!(err.code(), "CONNECTION_ERROR", "{err}");
}
