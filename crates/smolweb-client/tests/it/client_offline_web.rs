//! Web pages offline and the work-offline mode, against the in-process HTTP and Gemini
//! servers: a visited article is kept under its final URL and read back as the reader view
//! shows it (main content and whole page from the one body), a query URL is never kept,
//! "save with its links" follows the same site, and under the work-offline mode no request
//! reaches any server (every fetch path refused with the typed error, kept pages answered).

use smolweb_testkit as support;

use smolweb_client::config::Config;
use smolweb_client::offline::same_site_links;
use smolweb_client::smallnet::Upload;
use smolweb_client::web::WebQuery;
use smolweb_client::{Client, Face, OpenOptions, Outcome};
use smolweb_core::code::ErrorCode;
use smolweb_core::html::{Extract, Extraction};
use smolweb_core::url::Url;
use smolweb_net::FetchError;
use smolweb_net::http::WebError;
use smolweb_store::paths::Paths;
use support::http::{Reply, Server};

const ARTICLE: &str = "<html><head><title>Trains</title></head><body>\
<nav><a href=\"/\">Home</a> <a href=\"/about\">About the site nav</a></nav>\
<article><h1>Reading on trains</h1>\
<p>The small web is best read offline, on a train, with nothing to load. \
This paragraph is long enough to be the main content of the page by any measure, \
and it goes on a little more so that the extraction keeps it and drops the rest. \
See <a href=\"/next\">the next article</a> and <a href=\"/search?q=x\">a search</a> \
and <a href=\"https://elsewhere.example/\">another site</a>, then read on: the train \
is long and so is this paragraph, which keeps going for the sake of the extraction.</p>\
<p>A second paragraph of the article, with enough words in it to count as text that a \
reader wants to keep when the menus and the footer are dropped from the page.</p></article>\
<footer>Footer words only the full page shows</footer></body></html>";

fn client(dir: &tempfile::TempDir, face: Face, edit: impl FnOnce(&mut Config)) -> Client {
    let mut config = Config::default();
    config.network.allow_private_addresses = true;
    config.network.allowed_hosts = vec!["127.0.0.1".into()];
    config.network.timeout_seconds = 5;
    config.politeness.per_host_interval_ms = 0;
    config.politeness.respect_robots = false;
    edit(&mut config);
    let paths = Paths::resolve(Some(dir.path().to_path_buf()), None, None, None).unwrap();
    Client::new(config, paths, face).unwrap()
}

async fn site() -> Server {
    Server::start(|r| match r.path() {
        "/robots.txt" => Reply::new(404, "text/plain", "none"),
        "/old" => Reply::redirect(301, "/article"),
        "/article" | "/search" => Reply::html(ARTICLE),
        "/next" => Reply::html(
            "<html><head><title>Next</title></head><body><p>Next one.</p></body></html>",
        ),
        "/about" => Reply::html("<p>About.</p>"),
        _ => Reply::new(404, "text/plain", "no"),
    })
    .await
}

async fn visit(c: &Client, url: &str, opts: &OpenOptions) -> (Outcome, bool) {
    let o = c.open(url, opts).await;
    let kept = c.keep_offline(opts, &o).unwrap();
    (o, kept)
}

fn text(o: &Outcome) -> String {
    match o {
        Outcome::Page { fetched, .. } => fetched.page.body.text().to_string(),
        other => panic!("not a page: {other:?}"),
    }
}

#[tokio::test]
async fn a_visited_article_is_kept_under_its_final_url_and_read_as_the_reader_shows_it() {
    let dir = tempfile::tempdir().unwrap();
    let server = site().await;
    let c = client(&dir, Face::Human, |_| {});
    let (fresh, kept) = visit(&c, &server.url("/old"), &OpenOptions::default()).await;
    assert!(kept, "a web page is kept: {fresh:?}");
    let final_url = server.url("/article");
    assert_eq!(fresh.info().url, final_url);
    let fresh_text = text(&fresh);
    let full_opts = OpenOptions {
        web_full: true,
        ..OpenOptions::default()
    };
    let fresh_full = text(&c.open(&server.url("/article"), &full_opts).await);
    assert!(fresh_full.contains("Footer words"), "{fresh_full}");
    assert!(!fresh_text.contains("Footer words"), "{fresh_text}");
    let row = c.offline().entry(&final_url).unwrap().expect("kept row");
    assert_eq!(row.title.as_deref(), Some("Reading on trains"));
    drop(server);

    // A new process, the server gone: the copy is offered after the network failure, and
    // reads exactly as the reader view showed it, both conversions from the one body.
    let c = client(&dir, Face::Human, |_| {});
    let failed = c.open(&final_url, &OpenOptions::default()).await;
    let copy = c
        .offline_fallback(&final_url, &failed)
        .unwrap()
        .expect("offered copy");
    assert_eq!(copy.fetched.page.body.text(), fresh_text);
    let full = c
        .offline_copy_as(&final_url, Extract::Full)
        .unwrap()
        .unwrap();
    assert_eq!(full.fetched.page.body.text(), fresh_full);
    assert!(copy.fetched_at <= c.now());

    c.set_work_offline(true);
    let o = c.open(&final_url, &OpenOptions::default()).await;
    let Outcome::Page { info, fetched } = &o else {
        panic!("kept page: {o:?}");
    };
    assert!(fetched.cached && fetched.cached_at == Some(copy.fetched_at));
    assert_eq!(fetched.page.body.text(), fresh_text);
    assert_eq!(info.web.map(|s| s.extraction), Some(Extraction::Main));
    let o = c.open(&final_url, &full_opts).await;
    assert_eq!(text(&o), fresh_full);
    assert_eq!(
        o.info().web.map(|s| s.extraction),
        Some(Extraction::Full),
        "v toggles from the kept copy"
    );
}

#[tokio::test]
async fn a_query_url_is_never_kept_and_never_answered_offline() {
    let dir = tempfile::tempdir().unwrap();
    let server = site().await;
    let c = client(&dir, Face::Human, |_| {});
    let url = server.url("/search?q=secret");
    let (o, kept) = visit(&c, &url, &OpenOptions::default()).await;
    assert!(matches!(o, Outcome::Page { .. }), "{o:?}");
    assert!(!kept);
    assert!(
        c.offline_refusal(&OpenOptions::default(), &o, true)
            .is_some_and(|why| why.contains("query"))
    );
    assert!(c.offline().list().unwrap().is_empty());
    c.set_work_offline(true);
    let o = c.open(&url, &OpenOptions::default()).await;
    let Outcome::Error { error, info } = &o else {
        panic!("{o:?}");
    };
    assert!(matches!(error, FetchError::Offline { .. }), "{error}");
    assert!(!error.to_string().contains("secret") && !info.url.contains("secret"));
}

#[tokio::test]
async fn save_with_links_follows_the_same_site_only() {
    let dir = tempfile::tempdir().unwrap();
    let server = site().await;
    let c = client(&dir, Face::Human, |_| {});
    let o = c
        .open(&server.url("/article"), &OpenOptions::default())
        .await;
    let Outcome::Page { fetched, .. } = &o else {
        panic!("{o:?}");
    };
    let links = same_site_links(&fetched.page);
    assert_eq!(
        links,
        vec![server.url("/next")],
        "main content's same-site links"
    );
    let report = c
        .save_for_offline(&server.url("/article"), true)
        .await
        .unwrap();
    assert_eq!(
        report.saved,
        vec![server.url("/article"), server.url("/next")]
    );
    let list: Vec<String> = c
        .reading_list()
        .unwrap()
        .into_iter()
        .map(|e| e.url)
        .collect();
    assert!(list.contains(&server.url("/next")) && list.contains(&server.url("/article")));
    // A page without links has nothing to offer.
    let next = c.offline_copy(&server.url("/next")).unwrap().unwrap();
    assert!(same_site_links(&next.fetched.page).is_empty());
}

#[tokio::test]
async fn working_offline_no_request_reaches_any_server() {
    let dir = tempfile::tempdir().unwrap();
    let web = site().await;
    let gemini = support::gemini::Server::start(
        support::gemini::Routes::new().route("/", support::gemini::Reply::gemtext("# Cap\n")),
    )
    .await;
    // Keep one web page and one capsule page while online.
    let online = client(&dir, Face::Human, |_| {});
    visit(&online, &web.url("/article"), &OpenOptions::default()).await;
    visit(&online, &gemini.url("/"), &OpenOptions::default()).await;
    let (web_before, gemini_before) = (web.requests().len(), gemini.connections());
    drop(online);

    // Raw TCP listeners stand for Gopher and the small protocols: nothing may connect.
    let tcp = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    tcp.set_nonblocking(true).unwrap();
    let port = tcp.local_addr().unwrap().port();

    let c = client(&dir, Face::Human, |cfg| cfg.offline.work_offline = true);
    assert!(
        c.working_offline(),
        "[offline] work_offline starts the mode"
    );
    let kept = c.open(&gemini.url("/"), &OpenOptions::default()).await;
    assert!(
        matches!(&kept, Outcome::Page { fetched, .. } if fetched.cached),
        "{kept:?}"
    );
    assert!(text(&c.open(&web.url("/article"), &OpenOptions::default()).await).contains("trains"));
    let refused = [
        gemini.url("/other"),
        web.url("/next"),
        format!("gopher://127.0.0.1:{port}/1/"),
        format!("nex://127.0.0.1:{port}/"),
        format!("finger://127.0.0.1:{port}/who"),
        format!("spartan://127.0.0.1:{port}/"),
    ];
    for url in &refused {
        let o = c.open(url, &OpenOptions::default()).await;
        let Outcome::Error { error, .. } = &o else {
            panic!("{url}: {o:?}");
        };
        assert!(
            matches!(error, FetchError::Offline { .. }),
            "{url}: {error}"
        );
        assert_eq!(error.code(), ErrorCode::ConnectionError);
        assert!(!error.retryable());
    }
    let feed = c
        .fetch_feed(&web.url("/feed.xml"), &OpenOptions::default())
        .await;
    assert!(format!("{feed:?}").contains("Offline"), "{feed:?}");
    let bytes = c.fetch_web_bytes(&web.url("/feed.xml"), None, "*/*").await;
    assert!(matches!(bytes, Err(WebError::Offline { .. })), "{bytes:?}");
    let up = c
        .titan_upload(&Upload {
            url: format!("titan://127.0.0.1:{}/up;size=2", gemini.port()),
            body: b"hi".to_vec(),
            mime: None,
            token: None,
        })
        .await;
    assert!(
        matches!(
            &up,
            Outcome::Error {
                error: FetchError::Offline { .. },
                ..
            }
        ),
        "{up:?}"
    );
    let dest = c
        .check_destination(&Url::parse(&web.url("/")).unwrap())
        .await;
    assert!(matches!(dest, Err(FetchError::Offline { .. })), "{dest:?}");
    // The agent face's fetch_url reads the person's kept copy, and refuses the rest.
    let agent = client(&dir, Face::Agent, |cfg| cfg.offline.work_offline = true);
    let q = |path: &str| WebQuery {
        url: web.url(path),
        ..WebQuery::default()
    };
    let hit = agent.fetch_web(&q("/article")).await.unwrap();
    assert!(hit.from_cache && hit.page.body.text().contains("trains"));
    let miss = agent.fetch_web(&q("/next")).await.unwrap_err();
    assert!(matches!(miss, WebError::Offline { .. }));
    assert_eq!(miss.code(), ErrorCode::ConnectionFailed);

    assert_eq!(
        web.requests().len(),
        web_before,
        "no HTTP request while offline"
    );
    assert_eq!(gemini.connections(), gemini_before, "no Gemini connection");
    assert!(
        matches!(tcp.accept(), Err(e) if e.kind() == std::io::ErrorKind::WouldBlock),
        "no TCP connection"
    );

    // Back online, the network is used again.
    c.set_work_offline(false);
    let o = c.open(&gemini.url("/other"), &OpenOptions::default()).await;
    assert!(!matches!(o, Outcome::Error { .. }), "{o:?}");
    assert_eq!(gemini.connections(), gemini_before + 1);
}

#[tokio::test]
async fn working_offline_an_agent_never_reads_a_copy_under_an_identity() {
    use smolweb_store::identity::{CreatedBy, KeyAlgorithm, NewIdentity, Scope};
    let dir = tempfile::tempdir().unwrap();
    let gemini = support::gemini::Server::start(
        support::gemini::Routes::new()
            .route("/members", support::gemini::Reply::gemtext("# Members\n"))
            .route("/public", support::gemini::Reply::gemtext("# Public\n")),
    )
    .await;
    let keep_identity = |cfg: &mut Config| cfg.offline.keep_identity_pages = true;
    let human = client(&dir, Face::Human, keep_identity);
    let scope = Scope {
        host: "127.0.0.1".into(),
        port: gemini.port(),
        path: "/members".into(),
    };
    let new = NewIdentity {
        name: "me".into(),
        scope,
        days: 30,
        algorithm: KeyAlgorithm::EcdsaP256,
        created_by: CreatedBy::Human,
        agent_use: false,
    };
    human.create_identity(new).unwrap();
    for path in ["/members", "/public"] {
        let (o, kept) = visit(&human, &gemini.url(path), &OpenOptions::default()).await;
        assert!(kept, "{path}: {o:?}");
    }
    let agent = client(&dir, Face::Agent, |cfg| {
        keep_identity(cfg);
        cfg.offline.work_offline = true;
    });
    let o = agent
        .open(&gemini.url("/public"), &OpenOptions::default())
        .await;
    assert!(matches!(o, Outcome::Page { .. }), "{o:?}");
    let o = agent
        .open(&gemini.url("/members"), &OpenOptions::default())
        .await;
    assert!(
        matches!(
            &o,
            Outcome::Error {
                error: FetchError::Offline { .. },
                ..
            }
        ),
        "a copy that may have been fetched with the person's identity: {o:?}"
    );
    // The person still reads it.
    human.set_work_offline(true);
    let o = human
        .open(&gemini.url("/members"), &OpenOptions::default())
        .await;
    assert!(matches!(o, Outcome::Page { .. }), "{o:?}");
}
