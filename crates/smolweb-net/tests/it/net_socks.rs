//! Every protocol through the SOCKS5 proxy of `smolweb_testkit::socks` (issue 33): names go to
//! the proxy unresolved (it resolves names no DNS server knows, so a page that arrives shows
//! that nothing was looked up here), IP literals as addresses; the guard's judgement of what it
//! can see without a lookup; Guppy refused; the proxy's refusals and failures in words.

use smolweb_testkit as support;

use smolweb_core::code::ErrorCode;
use smolweb_core::url::{GopherTarget, Url};
use smolweb_net::http::{HttpFetcher, HttpRequest, HttpSetup, SystemRoots, WebError};
use smolweb_net::{BlockReason, FetchError, NetOptions, ProxyError, Request};
use std::time::Duration;
use support::socks::{Proxy, Target};
use support::{TempStores, gemini, gopher, guppy, loopback_options};

const BUDGET: Duration = Duration::from_secs(3);

/// The person's options (private addresses allowed) through `proxy`.
fn person(proxy: &Proxy) -> NetOptions {
    NetOptions {
        socks5: Some(proxy.addr()),
        for_agent: false,
        ..loopback_options(BUDGET)
    }
}

/// The agent's options (private addresses refused) through `proxy`.
fn agent(proxy: &Proxy) -> NetOptions {
    NetOptions {
        socks5: Some(proxy.addr()),
        timeout: BUDGET,
        ..NetOptions::default()
    }
}

async fn gemini_page(url: &str, opts: &NetOptions) -> Result<String, FetchError> {
    let stores = TempStores::new();
    let resp = stores
        .net(Default::default())
        .gemini(&Url::parse(url).unwrap(), opts)
        .await?;
    Ok(String::from_utf8(resp.body).unwrap())
}

#[tokio::test]
async fn a_capsule_name_is_resolved_by_the_proxy_and_never_here() {
    let server =
        gemini::Server::start(gemini::Routes::new().route("/", gemini::Reply::gemtext("# Far\n")))
            .await;
    // `.test` names resolve nowhere (RFC 6761): only the proxy's table knows this one.
    let proxy = Proxy::start(&[("capsule.test", server.addr())]).await;
    let url = format!("gemini://capsule.test:{}/", server.port());
    let stores = TempStores::new();
    let net = stores.net(Default::default());
    let resp = net
        .gemini(&Url::parse(&url).unwrap(), &agent(&proxy))
        .await
        .unwrap();
    assert_eq!(resp.body, b"# Far\n");
    assert_eq!(
        proxy.requests(),
        [Target::Name("capsule.test".into(), server.port())],
        "the name went to the proxy as a name"
    );
    assert_eq!(server.connections(), 1, "one connection, the proxy's");
    assert_eq!(server.request_lines(), std::slice::from_ref(&url));
    // TOFU pins the name the person asked for, whatever the proxy resolved it to.
    let pin = stores
        .known_hosts()
        .get("capsule.test", server.port())
        .unwrap()
        .unwrap();
    assert_eq!(pin.fingerprint, server.fingerprint());
    // Without the proxy the same name does not resolve: the page above came through it.
    let direct = NetOptions {
        timeout: BUDGET,
        ..NetOptions::default()
    };
    let err = net
        .gemini(&Url::parse(&url).unwrap(), &direct)
        .await
        .unwrap_err();
    assert_eq!(err.code(), ErrorCode::DnsError, "{err}");
}

#[tokio::test]
async fn gopher_and_an_ip_literal_go_through_the_proxy_as_an_address() {
    let server = gopher::Server::start(
        gopher::Routes::new().route("/about", gopher::Reply::text("through\r\n")),
    )
    .await;
    let proxy = Proxy::start(&[]).await;
    let target = GopherTarget {
        host: server.host().into(),
        port: server.port(),
        item_type: '0',
        selector: "/about".into(),
        search: None,
        search_ignored: false,
    };
    let stores = TempStores::new();
    let body = stores
        .net(Default::default())
        .gopher(&target, &person(&proxy))
        .await
        .unwrap();
    assert_eq!(body, b"through\r\n");
    let addr = format!("127.0.0.1:{}", server.port()).parse().unwrap();
    assert_eq!(proxy.requests(), [Target::Address(addr)]);
}

#[tokio::test]
async fn the_guard_refuses_what_it_can_see_before_the_proxy_is_asked() {
    let proxy = Proxy::start(&[]).await;
    let opts = agent(&proxy);
    let cases = [
        ("gemini://127.0.0.1:1965/", "loopback"),
        ("gemini://[::1]:1965/", "loopback"),
        ("gemini://10.0.0.7/", "private"),
        ("gemini://169.254.169.254/", "metadata"),
        ("gemini://metadata.google.internal/", "metadata"),
        ("gemini://localhost:1965/", "loopback"),
        ("gemini://capsule.localhost/", "loopback"),
        ("gemini://printer.local/", "private"),
        ("gemini://nas.home.arpa/", "private"),
        ("gemini://wiki.corp.internal/", "private"),
        ("gemini://capsule.test:6379/", "port"),
    ];
    for (url, why) in cases {
        let err = gemini_page(url, &opts).await.unwrap_err();
        let FetchError::Blocked { reason, .. } = &err else {
            panic!("{url}: {err}");
        };
        let text = reason.to_string();
        match why {
            "port" => assert!(matches!(reason, BlockReason::Port(6379)), "{url}: {text}"),
            "metadata" => assert!(text.contains("metadata"), "{url}: {text}"),
            class => assert!(text.contains(class), "{url}: {text}"),
        }
    }
    assert_eq!(proxy.greetings(), 0, "nothing refused reached the proxy");
    // The person's browser reaches local names and addresses through the proxy (its
    // answer, host unreachable, comes from the proxy, so the guard let it through).
    let err = gemini_page("gemini://printer.local/", &person(&proxy))
        .await
        .unwrap_err();
    assert!(
        matches!(reason(&err), ProxyError::Refused { reply: 4, .. }),
        "{err}"
    );
    // A name in allowed_hosts opens a local name for the agent too.
    let listed = NetOptions {
        allowed_hosts: vec!["printer.local".into()],
        ..agent(&proxy)
    };
    let err = gemini_page("gemini://printer.local/", &listed)
        .await
        .unwrap_err();
    assert!(matches!(err, FetchError::Proxy { .. }), "{err}");
    assert_eq!(proxy.greetings(), 2);
}

#[tokio::test]
async fn guppy_is_refused_under_the_proxy_and_sends_no_datagram() {
    let server =
        guppy::Server::start(guppy::Knobs::default(), |_| guppy::Reply::gemtext("hi")).await;
    let proxy = Proxy::start(&[]).await;
    let stores = TempStores::new();
    let url = Url::parse(&server.url("/")).unwrap();
    let err = stores
        .net(Default::default())
        .send(&Request::Guppy(url), &person(&proxy))
        .await
        .unwrap_err();
    assert!(
        matches!(
            &err,
            FetchError::Blocked {
                reason: BlockReason::UdpThroughProxy,
                ..
            }
        ),
        "{err}"
    );
    assert_eq!(err.code(), ErrorCode::Blocked);
    assert!(err.to_string().contains("UDP"), "{err}");
    assert!(server.requests().is_empty());
    assert_eq!(proxy.greetings(), 0);
}

#[tokio::test]
async fn the_proxys_refusals_and_failures_are_said_in_words() {
    let proxy = Proxy::start(&[]).await;
    let opts = agent(&proxy);
    // A name the proxy cannot resolve: Tor's answer, host unreachable.
    let err = gemini_page("gemini://nowhere.test/", &opts)
        .await
        .unwrap_err();
    assert_eq!(err.code(), ErrorCode::ConnectionError);
    assert!(err.to_string().contains("nowhere.test"), "{err}");
    assert!(
        err.to_string().contains("unreachable from the proxy"),
        "{err}"
    );
    assert!(err.network_failed());
    // The proxy's rules refuse: a policy answer, not a network failure.
    proxy.refuse_with(Some(2));
    let err = gemini_page("gemini://nowhere.test/", &opts)
        .await
        .unwrap_err();
    assert_eq!(err.code(), ErrorCode::Blocked, "{err}");
    assert!(err.to_string().contains("rules"), "{err}");
    assert!(!err.network_failed());
    // A proxy that wants a password.
    let auth = Proxy::start_with_auth().await;
    let err = gemini_page("gemini://nowhere.test/", &agent(&auth))
        .await
        .unwrap_err();
    assert!(matches!(reason(&err), ProxyError::AuthRequired), "{err}");
    // No proxy listening at all.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let none = agent_at(closed.local_addr().unwrap());
    drop(closed);
    let err = gemini_page("gemini://nowhere.test/", &none)
        .await
        .unwrap_err();
    assert!(matches!(reason(&err), ProxyError::Unreachable(_)), "{err}");
    assert!(err.to_string().contains("cannot be reached"), "{err}");
}

/// The proxy's part of a failure through it.
fn reason(err: &FetchError) -> &ProxyError {
    match err {
        FetchError::Proxy { reason, .. } => reason,
        other => panic!("not the proxy's failure: {other}"),
    }
}

fn agent_at(proxy: std::net::SocketAddr) -> NetOptions {
    NetOptions {
        socks5: Some(proxy),
        timeout: BUDGET,
        ..NetOptions::default()
    }
}

fn fetcher(
    proxy: &Proxy,
    for_agent: bool,
    extra: Vec<rustls::pki_types::CertificateDer<'static>>,
) -> HttpFetcher {
    HttpFetcher::new(&HttpSetup {
        extra_roots: extra,
        system_roots: SystemRoots::default(),
        allow_private: !for_agent,
        allowed_hosts: Vec::new(),
        for_agent,
        socks5: Some(proxy.addr()),
    })
    .unwrap()
}

fn request(url: &str) -> HttpRequest {
    HttpRequest {
        url: url.into(),
        max_bytes: 1 << 20,
        timeout: BUDGET,
        accept: smolweb_net::http::ACCEPT,
        validators: Default::default(),
    }
}

#[tokio::test]
async fn the_web_goes_through_the_proxy_with_names_unresolved() {
    let server =
        support::http::Server::start(|_| support::http::Reply::html("<p>far web</p>")).await;
    let addr = format!("127.0.0.1:{}", server.port()).parse().unwrap();
    let proxy = Proxy::start(&[("site.test", addr)]).await;
    let url = format!("http://site.test:{}/page", server.port());
    let resp = fetcher(&proxy, true, Vec::new())
        .fetch(&request(&url))
        .await
        .unwrap();
    assert_eq!(resp.status, 200);
    assert!(String::from_utf8_lossy(&resp.body).contains("far web"));
    assert_eq!(
        proxy.requests(),
        [Target::Name("site.test".into(), server.port())]
    );
    assert_eq!(server.requests().len(), 1);
    // The agent's guard still judges what it sees: a loopback literal and a local name.
    for refused in [
        server.url("/"),
        format!("http://localhost:{}/", server.port()),
    ] {
        let err = fetcher(&proxy, true, Vec::new())
            .fetch(&request(&refused))
            .await
            .unwrap_err();
        assert!(
            matches!(err, WebError::PolicyRejected { .. }),
            "{refused}: {err}"
        );
    }
    assert_eq!(
        proxy.requests().len(),
        1,
        "refused hops never reached the proxy"
    );
    // A name the proxy cannot resolve, in the proxy's words.
    let err = fetcher(&proxy, true, Vec::new())
        .fetch(&request("http://nowhere.test/"))
        .await
        .unwrap_err();
    let text = err.to_string();
    assert!(
        text.contains("SOCKS5 proxy") && text.contains("unreachable"),
        "{text}"
    );
}

#[tokio::test]
async fn https_through_the_proxy_still_names_its_certificate() {
    let ca = support::http::TestCa::new();
    let server =
        support::http::Server::start_tls(&ca, |_| support::http::Reply::html("<p>sealed</p>"))
            .await;
    let addr = format!("127.0.0.1:{}", server.port()).parse().unwrap();
    let proxy = Proxy::start(&[("localhost", addr)]).await;
    let roots = smolweb_net::http::tls::roots_from_pem(ca.ca_pem.as_bytes()).unwrap();
    let url = format!("https://localhost:{}/", server.port());
    let resp = fetcher(&proxy, false, roots)
        .fetch(&request(&url))
        .await
        .unwrap();
    assert!(String::from_utf8_lossy(&resp.body).contains("sealed"));
    assert_eq!(
        proxy.requests(),
        [Target::Name("localhost".into(), server.port())]
    );
    let tls = resp
        .tls
        .expect("the certificate is named through the proxy too");
    assert_eq!(
        tls.cert_fingerprint,
        smolweb_core::fingerprint::sha256_fingerprint(&ca.leaf)
    );
    let root = tls.root.expect("the root that verified it");
    assert!(root.to_string().contains("smolweb test CA"), "{root}");
}
