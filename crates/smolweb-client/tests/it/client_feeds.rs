//! The feeds client layer against in-process servers: fetching a feed by kind, refreshing all
//! subscriptions with progress and per-feed failures, and what the subscribe key offers.

use smolweb_testkit as support;

use smolweb_client::config::Config;
use smolweb_client::feeds::{self, Candidate, FeedOutcome, candidates};
use smolweb_client::{Client, Face, OpenOptions};
use smolweb_core::feed::FeedKind;
use smolweb_core::page::{Page, mime_of};
use smolweb_core::url::Url;
use smolweb_store::paths::Paths;
use std::sync::Arc;
use support::gemini::{Reply, Routes, Server};

const RSS: &str = include_str!("../../../smolweb-core/tests/fixtures/feeds/rss.xml");
const JSON: &str = include_str!("../../../smolweb-core/tests/fixtures/feeds/feed.json");

fn client(dir: &tempfile::TempDir, face: Face) -> Arc<Client> {
    let mut config = Config::default();
    config.network.allow_private_addresses = true;
    config.network.timeout_seconds = 5;
    config.politeness.per_host_interval_ms = 0;
    let paths = Paths::resolve(Some(dir.path().to_path_buf()), None, None, None).unwrap();
    Arc::new(Client::new(config, paths, face).unwrap())
}

fn routes() -> Routes {
    Routes::new()
        .route(
            "/log/",
            Reply::gemtext("# Log\n=> a.gmi 2026-11-30 A\n=> rss.xml RSS feed\n"),
        )
        .route("/rss.xml", Reply::ok("application/rss+xml", RSS))
        .route("/feed.json", Reply::ok("application/feed+json", JSON))
        .route("/json-as-text", Reply::ok("text/plain", JSON))
        .route(
            "/broken.xml",
            Reply::ok("application/xml", "<rss><channel><item>"),
        )
        .route("/pic", Reply::ok("image/png", &b"\x89PNG\r\n\x1a\n"[..]))
        .route(
            "/moved",
            Reply::status(31, "gemini://elsewhere.example/feed"),
        )
}

#[tokio::test]
async fn each_kind_of_feed_is_read_and_non_feeds_say_why() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(routes()).await;
    let c = client(&dir, Face::Agent);
    let opts = OpenOptions::default();
    for (path, kind, entries) in [
        ("/log/", FeedKind::Gemlog, 1),
        ("/rss.xml", FeedKind::Rss, 2),
        ("/feed.json", FeedKind::JsonFeed, 2),
        ("/json-as-text", FeedKind::JsonFeed, 2),
    ] {
        match c.fetch_feed(&server.url(path), &opts).await {
            FeedOutcome::Feed { feed, .. } => {
                assert_eq!((feed.kind, feed.entries.len()), (kind, entries), "{path}");
            }
            other => panic!("{path}: {other:?}"),
        }
    }
    for (path, why) in [
        ("/broken.xml", "not a feed"),
        ("/pic", "not a feed"),
        ("/moved", "another server"),
        ("/missing", "status 51"),
    ] {
        let o = c.fetch_feed(&server.url(path), &opts).await;
        let failure = o
            .failure()
            .unwrap_or_else(|| panic!("{path} is not a feed"));
        assert!(failure.to_string().contains(why), "{path}: {failure}");
    }
}

#[tokio::test]
async fn refresh_all_reports_every_feed_in_order_with_progress() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(routes()).await;
    let c = client(&dir, Face::Human);
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let dead = format!(
        "gemini://127.0.0.1:{}/",
        closed.local_addr().unwrap().port()
    );
    drop(closed);
    let urls = [
        server.url("/log/"),
        dead.clone(),
        server.url("/rss.xml"),
        server.url("/missing"),
        server.url("/feed.json"),
    ];
    for u in &urls {
        c.subscribe(u).unwrap();
    }
    assert!(c.feeds_due().unwrap(), "never refreshed");
    let mut progress = Vec::new();
    let results = feeds::refresh_all(&c, |done, total, _| progress.push((done, total)))
        .await
        .unwrap();
    assert_eq!(progress, (1..=5).map(|d| (d, 5)).collect::<Vec<_>>());
    let got: Vec<_> = results
        .iter()
        .map(|r| (r.url.as_str(), r.new_entries.len(), r.error.is_some()))
        .collect();
    assert_eq!(
        got,
        [
            (urls[0].as_str(), 1, false),
            (dead.as_str(), 0, true),
            (urls[2].as_str(), 2, false),
            (urls[3].as_str(), 0, true),
            (urls[4].as_str(), 2, false),
        ]
    );
    assert!(!c.feeds_due().unwrap(), "just refreshed");
    // A second refresh finds nothing new, and the failures are on record.
    let again = feeds::refresh_all(&c, |_, _, _| {}).await.unwrap();
    assert!(again.iter().all(|r| r.new_entries.is_empty()));
    let subs = c.subscriptions_list().unwrap();
    assert!(subs[1].error.is_some() && subs[3].error.as_deref().unwrap().contains("51"));
    assert_eq!(subs[0].title.as_deref(), Some("Log"));
}

fn page(url: &str, mime: &str, body: &str) -> Page {
    Page::from_gemini(
        Url::parse(url).unwrap(),
        mime_of(mime),
        body.as_bytes().to_vec(),
    )
}

#[test]
fn subscribe_candidates() {
    let log = page(
        "gemini://a.example/log/",
        "text/gemini",
        "# Log\n=> p.gmi 2026-01-01 Post\n=> atom.xml Atom feed\n=> /other.gmi Other\n",
    );
    let got = candidates(&log);
    assert_eq!(
        got,
        [
            Candidate {
                url: "gemini://a.example/log/".into(),
                kind: Some(FeedKind::Gemlog),
                title: Some("Log".into()),
            },
            Candidate {
                url: "gemini://a.example/log/atom.xml".into(),
                kind: None,
                title: Some("Atom feed".into()),
            },
        ]
    );
    let plain = page(
        "gemini://a.example/",
        "text/gemini",
        "# Home\n=> /about About\n",
    );
    assert!(candidates(&plain).is_empty());
    let html = page(
        "gemini://a.example/index.html",
        "text/html",
        r#"<html><head><link rel="alternate" type="application/rss+xml" href="/rss"></head></html>"#,
    );
    let got = candidates(&html);
    assert_eq!(got.len(), 1);
    assert_eq!(got[0].url, "gemini://a.example/rss");
    assert_eq!(got[0].kind, Some(FeedKind::Rss));
}

/// A feed served over http(s) goes through the web fetch path (guard, limits) and is read from
/// the body as sent, not from the reader view's conversion.
#[tokio::test]
async fn a_feed_over_http_is_read_like_any_other() {
    let dir = tempfile::tempdir().unwrap();
    let server = support::http::Server::start(|r: &support::http::Request| match r.path() {
        "/rss.xml" => support::http::Reply::new(200, "application/rss+xml", RSS),
        _ => support::http::Reply::new(404, "text/plain", "no"),
    })
    .await;
    let c = client(&dir, Face::Human);
    let url = server.url("/rss.xml");
    match c.fetch_feed(&url, &OpenOptions::default()).await {
        FeedOutcome::Feed { feed, .. } => {
            assert_eq!(feed.kind, FeedKind::Rss);
            assert_eq!(feed.entries.len(), 2, "{:?}", feed.entries);
        }
        FeedOutcome::NotAFeed { reason, .. } => panic!("not a feed: {reason}"),
        FeedOutcome::Other(o) => panic!("{o:?}"),
    }
}

/// A web page that announces its feed with `<link rel="alternate">` offers that feed to the
/// subscribe key (the announcement is in the HTML as sent, not in the reader view).
#[tokio::test]
async fn a_web_page_offers_the_feed_it_announces() {
    let dir = tempfile::tempdir().unwrap();
    let server = support::http::Server::start(|r: &support::http::Request| match r.path() {
        "/blog" => support::http::Reply::html(
            "<html><head><title>Blog</title>\
             <link rel=\"alternate\" type=\"application/rss+xml\" href=\"/rss.xml\"></head>\
             <body><article><h1>Blog</h1><p>Words and more words about things.</p></article>\
             </body></html>",
        ),
        "/rss.xml" => support::http::Reply::new(200, "application/rss+xml", RSS),
        _ => support::http::Reply::new(404, "text/plain", "no"),
    })
    .await;
    let c = client(&dir, Face::Human);
    let outcome = c.open(&server.url("/blog"), &OpenOptions::default()).await;
    let smolweb_client::Outcome::Page { fetched, .. } = outcome else {
        panic!("{outcome:?}");
    };
    let offered: Vec<String> = candidates(&fetched.page)
        .into_iter()
        .map(|c| c.url)
        .collect();
    assert!(offered.contains(&server.url("/rss.xml")), "{offered:?}");
}

#[tokio::test]
async fn a_refresh_paces_the_feeds_of_one_host_on_the_human_face_too() {
    use smolweb_net::cache::{Clock, ManualClock};
    use std::time::{Duration, Instant};
    let server = Server::start(routes()).await;
    let clock = Arc::new(ManualClock::new());
    let t0 = clock.now();
    let (c, _dir) = crate::client_gemini::paced_client(Face::Human, 300, clock);
    let c = Arc::new(c);
    // A click is not paced on the human face.
    c.open(&server.url("/log/"), &OpenOptions::default()).await;
    assert_eq!(c.next_request_slot("127.0.0.1"), None);
    for path in ["/rss.xml", "/feed.json"] {
        c.subscribe(&server.url(path)).unwrap();
    }
    let started = Instant::now();
    let results = feeds::refresh_all(&c, |_, _, _| {}).await.unwrap();
    assert!(results.iter().all(|r| r.error.is_none()), "{results:?}");
    let requests = server.requests();
    let fetched: Vec<&str> = requests.iter().map(|r| r.path.as_str()).collect();
    assert_eq!(fetched, ["/log/", "/rss.xml", "/feed.json"]);
    assert!(
        started.elapsed() >= Duration::from_millis(300),
        "the second fetch to the host waited its turn ({:?})",
        started.elapsed()
    );
    assert_eq!(
        c.next_request_slot("127.0.0.1"),
        Some(t0 + Duration::from_millis(600)),
        "each feed of the host took the next slot of the one pacer"
    );
}

#[tokio::test]
async fn a_post_visited_before_its_gemlog_was_followed_starts_read() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(routes()).await;
    let c = client(&dir, Face::Human);
    let log = server.url("/log/");
    let post = server.url("/log/a.gmi");
    c.record_visit(&post, Some("A")).unwrap();
    c.subscribe(&log).unwrap();
    let results = feeds::refresh_all(&c, |_, _, _| {}).await.unwrap();
    assert_eq!(results.len(), 1);
    let sub = c.subscription(&log).unwrap().unwrap();
    let e = sub
        .entries
        .iter()
        .find(|e| e.url == post)
        .expect("the post is listed");
    assert!(e.read, "visited before: {:?}", sub.entries);
    assert_eq!(sub.unread(), 0);
}
