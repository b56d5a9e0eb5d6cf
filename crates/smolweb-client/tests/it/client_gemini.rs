//! The client facade against the in-process Gemini server: cache, secrets, statuses,
//! redirects, 44, robots, pacing and the agent's address guard.

use smolweb_testkit as support;

use smolweb_client::config::Config;
use smolweb_client::{Client, Face, OpenOptions, Outcome};
use smolweb_net::FetchError;
use smolweb_net::cache::ManualClock;
use smolweb_store::paths::Paths;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;
use support::gemini::{Reply, Routes, Server};

/// A client over a temp data dir; the agent face may reach loopback, pacing off.
fn client_with(face: Face, edit: impl FnOnce(&mut Config)) -> (Client, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let mut config = Config::default();
    config.network.allow_private_addresses = true;
    config.network.timeout_seconds = 5;
    config.politeness.per_host_interval_ms = 0;
    edit(&mut config);
    let paths = Paths::resolve(Some(dir.path().to_path_buf()), None, None, None).unwrap();
    (Client::new(config, paths, face).unwrap(), dir)
}

/// A client over the real network layer with `interval_ms` pacing and a manual clock (so
/// tests can read the pacer's slots).
pub(crate) fn paced_client(
    face: Face,
    interval_ms: u64,
    clock: Arc<ManualClock>,
) -> (Client, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let mut config = Config::default();
    config.network.allow_private_addresses = true;
    config.network.timeout_seconds = 5;
    config.politeness.per_host_interval_ms = interval_ms;
    let paths = Paths::resolve(Some(dir.path().to_path_buf()), None, None, None).unwrap();
    let net = smolweb_net::Net::new(
        smolweb_store::tofu::KnownHosts::new(paths.known_hosts()),
        smolweb_store::identity::Identities::new(paths.identities_dir()),
        config.tofu.policy(),
    );
    let c = Client::with_transport(config, paths, face, Arc::new(net), clock).unwrap();
    (c, dir)
}

fn agent() -> (Client, tempfile::TempDir) {
    client_with(Face::Agent, |_| {})
}

fn hits(server: &Server, path: &str) -> usize {
    server.requests().iter().filter(|r| r.path == path).count()
}

async fn open(c: &Client, url: &str) -> Outcome {
    c.open(url, &OpenOptions::default()).await
}

fn code(o: &Outcome) -> &'static str {
    match o {
        Outcome::Error { error, .. } => error.code().as_str(),
        other => panic!("expected an error, got {other:?}"),
    }
}

fn is_cached(o: &Outcome) -> bool {
    match o {
        Outcome::Page { fetched, .. } => fetched.cached,
        other => panic!("expected a page, got {other:?}"),
    }
}

#[tokio::test]
async fn page_is_cached_until_refreshed() {
    let server = Server::start(Routes::new().route("/page", Reply::gemtext("# Hi\n"))).await;
    let (c, _dir) = agent();
    let url = server.url("/page");
    let first = open(&c, &url).await;
    assert!(!is_cached(&first));
    let info = first.info();
    let tls = info.tls.as_ref().expect("tls facts");
    assert_eq!(tls.cert_fingerprint, server.fingerprint());
    assert_eq!(info.port, server.port());
    assert!(is_cached(&open(&c, &url).await));
    assert_eq!(hits(&server, "/page"), 1, "the capsule saw one request");
    let refresh = OpenOptions {
        refresh: true,
        ..OpenOptions::default()
    };
    assert!(!is_cached(&c.open(&url, &refresh).await));
    assert_eq!(hits(&server, "/page"), 2);
}

#[tokio::test]
async fn a_query_is_never_cached_nor_echoed() {
    let routes = Routes::new().handler(|r| match r.query.as_deref() {
        None => Reply::status(11, "Password"),
        Some(_) => Reply::gemtext("# In\n"),
    });
    let server = Server::start(routes).await;
    let (c, _dir) = agent();
    let url = server.url("/login");
    match open(&c, &url).await {
        Outcome::Input {
            prompt, sensitive, ..
        } => assert_eq!((prompt.as_str(), sensitive), ("Password", true)),
        o => panic!("{o:?}"),
    }
    let answer = OpenOptions {
        input: Some("s3cret word".into()),
        ..OpenOptions::default()
    };
    for _ in 0..2 {
        let o = c.open(&url, &answer).await;
        assert!(!is_cached(&o));
        assert_eq!(o.info().url, url);
        assert!(o.info().has_query);
        assert!(!format!("{:?}", o.info()).contains("s3cret"));
    }
    let sent: Vec<_> = server
        .requests()
        .into_iter()
        .filter_map(|r| r.query)
        .collect();
    assert_eq!(sent, ["s3cret%20word", "s3cret%20word"]);
}

#[tokio::test]
async fn redirects_and_following() {
    let routes = Routes::new()
        .route("/old", Reply::status(31, "new"))
        .route("/new", Reply::status(30, "/final"))
        .route("/final", Reply::gemtext("# Final\n"))
        .route("/away", Reply::status(30, "gemini://example.org/"))
        .route("/ping", Reply::status(30, "/pong"))
        .route("/pong", Reply::status(30, "/ping"));
    let server = Server::start(routes).await;
    let (c, _dir) = agent();
    match open(&c, &server.url("/old")).await {
        Outcome::Redirect {
            target,
            permanent,
            cross_host,
            ..
        } => {
            assert_eq!(target, server.url("/new"));
            assert!(permanent && !cross_host);
        }
        o => panic!("{o:?}"),
    }
    match open(&c, &server.url("/away")).await {
        Outcome::Redirect { cross_host, .. } => assert!(cross_host),
        o => panic!("{o:?}"),
    }
    let opts = OpenOptions::default();
    let (end, chain) = c.open_following(&server.url("/old"), &opts, 5).await;
    assert!(!is_cached(&end));
    assert_eq!(chain, [server.url("/old"), server.url("/new")]);
    let (looped, _) = c.open_following(&server.url("/ping"), &opts, 10).await;
    assert!(matches!(
        looped,
        Outcome::Error {
            error: FetchError::Protocol(_),
            ..
        }
    ));
    assert_eq!(hits(&server, "/ping"), 1);
    assert_eq!(hits(&server, "/pong"), 1);
}

#[tokio::test]
async fn slow_down_waits_once_or_reports() {
    let calls = Arc::new(AtomicUsize::new(0));
    let seen = calls.clone();
    let routes = Routes::new()
        .route("/never", Reply::status(44, "600"))
        .route("/robots.txt", Reply::status(51, "none"))
        .handler(move |_| match seen.fetch_add(1, Ordering::SeqCst) {
            0 => Reply::status(44, "0"),
            _ => Reply::gemtext("# Fine\n"),
        });
    let server = Server::start(routes).await;
    let (c, _dir) = agent();
    assert!(!is_cached(&open(&c, &server.url("/busy")).await));
    assert_eq!(calls.load(Ordering::SeqCst), 2, "retried once after 44");
    let o = open(&c, &server.url("/never")).await;
    assert!(matches!(
        o,
        Outcome::Error {
            error: FetchError::SlowDown {
                retry_after_seconds: 600
            },
            ..
        }
    ));
    assert_eq!(hits(&server, "/never"), 1);

    // The host is now paused for ten minutes: the next request answers SLOW_DOWN at once
    // (within the 5 s budget) instead of sleeping, and sends nothing.
    let next = tokio::time::timeout(Duration::from_secs(4), open(&c, &server.url("/other")))
        .await
        .expect("a paused host must not make the caller wait past its budget");
    match next {
        Outcome::Error {
            error: FetchError::SlowDown {
                retry_after_seconds,
            },
            ..
        } => assert!(
            (590..=600).contains(&retry_after_seconds),
            "{retry_after_seconds}"
        ),
        other => panic!("expected SLOW_DOWN, got {other:?}"),
    }
    assert_eq!(calls.load(Ordering::SeqCst), 2, "nothing sent while paused");
}

#[tokio::test]
async fn a_first_visit_says_the_certificate_was_pinned_even_after_robots() {
    let server = Server::start(Routes::new().route("/", Reply::gemtext("# Hi\n"))).await;
    let (c, _dir) = agent();
    let first = open(&c, &server.url("/")).await;
    assert_eq!(
        hits(&server, "/robots.txt"),
        1,
        "robots.txt was fetched first"
    );
    let tls = first.info().tls.clone().expect("tls facts");
    assert_eq!(tls.tofu, smolweb_net::TofuState::FirstUse);
    assert!(tls.tofu_warning().is_some());
    let again = c
        .open(
            &server.url("/"),
            &OpenOptions {
                refresh: true,
                ..Default::default()
            },
        )
        .await;
    assert_eq!(
        again.info().tls.clone().unwrap().tofu,
        smolweb_net::TofuState::Trusted
    );
}

#[tokio::test]
async fn robots_bind_the_agent_not_the_human() {
    let routes = Routes::new()
        .route(
            "/robots.txt",
            Reply::ok("text/plain", "User-agent: indexer\nDisallow: /no\n"),
        )
        .route("/no/page", Reply::gemtext("# Hidden\n"));
    let server = Server::start(routes).await;
    let url = server.url("/no/page");
    let (agent, _a) = agent();
    let refused = open(&agent, &url).await;
    assert_eq!(code(&refused), "BLOCKED_BY_ROBOTS");
    assert!(refused.info().timestamp.is_none());
    assert_eq!(hits(&server, "/no/page"), 0);
    let (human, _h) = client_with(Face::Human, |_| {});
    assert!(!is_cached(&open(&human, &url).await));
    assert_eq!(hits(&server, "/no/page"), 1);
    assert_eq!(
        hits(&server, "/robots.txt"),
        1,
        "only the agent asked for robots.txt"
    );
}

#[tokio::test]
async fn robots_temporary_failure_is_robots_unavailable() {
    let routes = Routes::new()
        .route("/robots.txt", Reply::status(41, "maintenance"))
        .route("/page", Reply::gemtext("x\n"));
    let server = Server::start(routes).await;
    let (c, _dir) = agent();
    assert_eq!(
        code(&open(&c, &server.url("/page")).await),
        "ROBOTS_UNAVAILABLE"
    );
    assert_eq!(
        code(&open(&c, &server.url("/page")).await),
        "ROBOTS_UNAVAILABLE"
    );
    assert_eq!(hits(&server, "/robots.txt"), 1, "the failure is remembered");
    assert_eq!(hits(&server, "/page"), 0);
}

#[tokio::test]
async fn unreachable_host_is_a_connection_error() {
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let (c, _dir) = agent();
    let o = open(&c, &format!("gemini://127.0.0.1:{port}/")).await;
    assert_eq!(code(&o), "CONNECTION_ERROR");
}

#[tokio::test]
async fn the_agent_is_kept_off_loopback_unless_allowed() {
    let server = Server::start(Routes::new().route("/", Reply::gemtext("x\n"))).await;
    let (strict, _s) = client_with(Face::Agent, |cfg| {
        cfg.network.allow_private_addresses = false
    });
    assert_eq!(code(&open(&strict, &server.url("/")).await), "BLOCKED");
    assert!(server.requests().is_empty());
    let (human, _h) = client_with(Face::Human, |cfg| {
        cfg.network.allow_private_addresses = false
    });
    assert!(!is_cached(&open(&human, &server.url("/")).await));
}

#[tokio::test]
async fn requests_to_one_host_take_consecutive_slots() {
    let server = Server::start(Routes::new().route("/p", Reply::gemtext("x\n"))).await;
    let clock = Arc::new(ManualClock::new());
    let t0 = smolweb_net::cache::Clock::now(clock.as_ref());
    let (c, _dir) = paced_client(Face::Agent, 200, clock);
    let refresh = OpenOptions {
        refresh: true,
        ..OpenOptions::default()
    };
    let url = server.url("/p");
    c.open(&url, &refresh).await;
    c.open(&url, &refresh).await;
    assert_eq!(hits(&server, "/p"), 2);
    assert_eq!(
        c.next_request_slot("127.0.0.1"),
        Some(t0 + Duration::from_millis(400)),
        "the second request was scheduled one interval after the first"
    );
}

#[tokio::test]
async fn forgetting_a_pin_drops_the_capsules_cached_answers() {
    let server = Server::start(
        Routes::new()
            .route("/page", Reply::gemtext("# Hi\n"))
            .route("/other", Reply::gemtext("# Other\n")),
    )
    .await;
    let (c, _dir) = agent();
    let (page, other) = (server.url("/page"), server.url("/other"));
    assert!(!is_cached(&open(&c, &page).await));
    assert!(!is_cached(&open(&c, &other).await));
    assert!(is_cached(&open(&c, &page).await));
    assert!(
        c.forget_pin("127.0.0.1", server.port()).unwrap(),
        "a pin was held"
    );
    // Both answers were read over the forgotten trust: the next visit checks again.
    let again = open(&c, &page).await;
    assert!(
        !is_cached(&again),
        "answered from the cache after the pin was forgotten"
    );
    let tls = again.info().tls.clone().expect("tls facts");
    assert_eq!(tls.tofu, smolweb_net::TofuState::FirstUse, "pinned anew");
    assert!(!is_cached(&open(&c, &other).await));
    assert!(!c.forget_pin("127.0.0.1", 1).unwrap(), "no pin there");
}
