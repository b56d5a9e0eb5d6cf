//! Offline reading through the client against the in-process Gemini server: a visited page is
//! kept, the server goes away, and the copy is offered with its date; what is never kept
//! (queries, input answers, identity pages, binaries, the agent face); save for offline with
//! same-capsule links; the size bound on visits.

use smolweb_testkit as support;

use smolweb_client::config::Config;
use smolweb_client::offline::is_network_failure;
use smolweb_client::{Client, Face, OpenOptions, Outcome};
use smolweb_core::page::Content;
use smolweb_store::identity::{CreatedBy, KeyAlgorithm, NewIdentity, Scope};
use smolweb_store::paths::Paths;
use support::gemini::{Reply, Routes, Server};

fn client(dir: &tempfile::TempDir, face: Face, edit: impl FnOnce(&mut Config)) -> Client {
    let mut config = Config::default();
    config.network.allow_private_addresses = true;
    config.network.timeout_seconds = 5;
    config.politeness.per_host_interval_ms = 0;
    edit(&mut config);
    let paths = Paths::resolve(Some(dir.path().to_path_buf()), None, None, None).unwrap();
    Client::new(config, paths, face).unwrap()
}

fn routes() -> Routes {
    Routes::new()
        .route(
            "/",
            Reply::gemtext(
                "# Home\n=> /a A\n=> b.gmi B\n=> gemini://elsewhere.example/ Away\n=> /q?x Query\n",
            ),
        )
        .route("/a", Reply::gemtext("# Page A\n"))
        .route("/b.gmi", Reply::gemtext("# Page B\n"))
        .route("/c", Reply::gemtext("# Page C\n"))
        .route(
            "/img",
            Reply::ok("image/png", &b"\x89PNG\r\n\x1a\nrest"[..]),
        )
        .route("/secret", Reply::gemtext("# Members\n"))
        .handler(|req| match (req.path.as_str(), &req.query) {
            ("/search", Some(_)) => Reply::gemtext("# Results\n"),
            ("/search", None) => Reply::status(11, "Password"),
            _ => Reply::status(51, "not found"),
        })
}

async fn visit(c: &Client, url: &str, opts: &OpenOptions) -> (Outcome, bool) {
    let o = c.open(url, opts).await;
    let kept = c.keep_offline(opts, &o).unwrap();
    (o, kept)
}

#[tokio::test]
async fn a_visited_page_is_read_offline_with_its_date() {
    let dir = tempfile::tempdir().unwrap();
    let c = client(&dir, Face::Human, |_| {});
    let server = Server::start(routes()).await;
    let url = server.url("/a");
    let before = c.now();
    let (o, kept) = visit(&c, &url, &OpenOptions::default()).await;
    assert!(matches!(o, Outcome::Page { .. }) && kept);
    // A second visit answered from memory is not rewritten.
    let (_, again) = visit(&c, &url, &OpenOptions::default()).await;
    assert!(!again);
    drop(server);

    let c = client(&dir, Face::Human, |_| {}); // a new process: nothing in memory
    let failed = c.open(&url, &OpenOptions::default()).await;
    let Outcome::Error { error, .. } = &failed else {
        panic!("the server is gone: {failed:?}");
    };
    assert!(is_network_failure(error), "{error}");
    let copy = c
        .offline_fallback(&url, &failed)
        .unwrap()
        .expect("offline copy");
    assert_eq!(copy.fetched.page.title(), Some("Page A"));
    assert!(matches!(copy.fetched.page.content, Content::Gemtext(_)));
    assert!(copy.fetched.cached);
    let age = copy.age_seconds(c.now());
    assert!(
        copy.fetched_at >= before.replace_nanosecond(0).unwrap() && age < 60,
        "age {age}"
    );
    assert!(!copy.saved);
    // Not offered for a capsule's own answer.
    let not_found = Outcome::Failure {
        info: failed.info().clone(),
        status: 51,
        meta: "not found".into(),
        retry_after_seconds: None,
    };
    assert!(c.offline_fallback(&url, &not_found).unwrap().is_none());
}

#[tokio::test]
async fn what_is_never_kept() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(routes()).await;
    let human = client(&dir, Face::Human, |_| {});
    // A query, an input answer (status-11 flow), a binary, a built-in page.
    assert!(
        !visit(&human, &server.url("/search?abc"), &OpenOptions::default())
            .await
            .1
    );
    let answer = OpenOptions {
        input: Some("hunter2".into()),
        ..OpenOptions::default()
    };
    assert!(!visit(&human, &server.url("/search"), &answer).await.1);
    assert!(
        !visit(&human, &server.url("/img"), &OpenOptions::default())
            .await
            .1
    );
    assert!(!visit(&human, "about:home", &OpenOptions::default()).await.1);
    // The agent face never keeps anything.
    let agent = client(&dir, Face::Agent, |_| {});
    assert!(
        !visit(&agent, &server.url("/a"), &OpenOptions::default())
            .await
            .1
    );
    // A page fetched with a client identity, unless the config allows it.
    let scope = Scope {
        host: "127.0.0.1".into(),
        port: server.port(),
        path: "/secret".into(),
    };
    human
        .create_identity(NewIdentity {
            name: "me".into(),
            scope,
            days: 30,
            algorithm: KeyAlgorithm::EcdsaP256,
            created_by: CreatedBy::Human,
            agent_use: false,
        })
        .unwrap();
    assert!(
        !visit(&human, &server.url("/secret"), &OpenOptions::default())
            .await
            .1
    );
    let allowing = client(&dir, Face::Human, |c| c.offline.keep_identity_pages = true);
    assert!(
        visit(&allowing, &server.url("/secret"), &OpenOptions::default())
            .await
            .1
    );

    let kept: Vec<String> = human
        .offline()
        .list()
        .unwrap()
        .into_iter()
        .map(|e| e.url)
        .collect();
    assert_eq!(kept, [server.url("/secret")]);
    let on_disk = std::fs::read_dir(human.offline().dir().join("pages"))
        .unwrap()
        .count();
    assert_eq!(on_disk, 1, "nothing else reached the disk");
    let index = std::fs::read_to_string(human.offline().dir().join("index.toml")).unwrap();
    assert!(
        !index.contains("hunter2") && !index.contains("abc"),
        "{index}"
    );
}

#[tokio::test]
async fn save_for_offline_keeps_the_page_and_its_capsule_links() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(routes()).await;
    let c = client(&dir, Face::Human, |c| c.offline.max_bytes = 60);
    let report = c.save_for_offline(&server.url("/"), true).await.unwrap();
    assert_eq!(
        report.saved,
        [server.url("/"), server.url("/a"), server.url("/b.gmi")]
    );
    assert!(report.failed.is_empty(), "{:?}", report.failed);
    // A binary may be saved on purpose.
    c.save_for_offline(&server.url("/img"), false)
        .await
        .unwrap();
    let list = c.reading_list().unwrap();
    assert_eq!(list.len(), 4);
    // about:offline shows the reading list with sizes and dates.
    let Outcome::Page { fetched, .. } = c.open("about:offline", &OpenOptions::default()).await
    else {
        panic!("about:offline is a page");
    };
    let text = fetched.page.body.text().to_string();
    assert!(text.contains("4 saved pages"), "{text}");
    let line = format!("=> {} Page A (", server.url("/a"));
    assert!(text.contains(&line), "{text}");
    assert!(
        text.contains(&format!("saved {}", c.now().date())),
        "{text}"
    );
    // The reading list already fills the small bound: a visited page is evicted at once,
    // and the saved pages stay.
    assert!(c.offline().total_bytes().unwrap() > 60);
    visit(&c, &server.url("/c"), &OpenOptions::default()).await;
    assert!(c.offline_copy(&server.url("/c")).unwrap().is_none());
    assert_eq!(c.reading_list().unwrap().len(), 4);
    assert!(c.offline_copy(&server.url("/a")).unwrap().unwrap().saved);
    assert!(c.unsave_offline(&server.url("/img")).unwrap());
    assert_eq!(c.reading_list().unwrap().len(), 3);
    // Saving a page that fails says why.
    let err = c
        .save_for_offline(&server.url("/missing"), false)
        .await
        .unwrap_err();
    assert!(err.to_string().contains("51"), "{err}");
}

#[tokio::test]
async fn an_answer_cut_without_close_notify_is_never_kept_as_complete() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let dir = tempfile::tempdir().unwrap();
    let c = client(&dir, Face::Human, |_| {});
    let visits = std::sync::Arc::new(AtomicUsize::new(0));
    let seen = visits.clone();
    let server = Server::start(Routes::new().handler(move |req| match req.path.as_str() {
        "/cut" => Reply::close_without_notify(20, "text/gemini", b"# Cut short\n"),
        // Whole on the first visit, cut on the later ones.
        "/flip" if seen.fetch_add(1, Ordering::SeqCst) == 0 => {
            Reply::gemtext("# Version 1, whole\n")
        }
        "/flip" => Reply::close_without_notify(20, "text/gemini", b"# Version 2, cut\n"),
        _ => Reply::status(51, "not found"),
    }))
    .await;
    let url = server.url("/cut");
    let opts = OpenOptions::default();
    let (o, kept) = visit(&c, &url, &opts).await;
    let Outcome::Page { fetched, .. } = &o else {
        panic!("the cut body is still shown: {o:?}");
    };
    assert_eq!(fetched.page.title(), Some("Cut short"));
    assert!(!kept, "a body without close_notify was kept offline");
    let why = c.offline_refusal(&opts, &o, true).expect("refused");
    assert!(why.contains("close_notify"), "{why}");
    assert!(c.offline_copy(&url).unwrap().is_none());
    // Saving it on purpose is refused too, with the reason.
    let err = c.save_for_offline(&url, false).await.unwrap_err();
    assert!(err.to_string().contains("close_notify"), "{err}");
    assert!(c.reading_list().unwrap().is_empty());
    // A complete copy is not replaced by a later cut answer.
    let flip = server.url("/flip");
    assert!(visit(&c, &flip, &opts).await.1);
    let refresh = OpenOptions {
        refresh: true,
        ..OpenOptions::default()
    };
    let (o, kept) = visit(&c, &flip, &refresh).await;
    assert!(matches!(&o, Outcome::Page { fetched, .. }
        if fetched.page.title() == Some("Version 2, cut")));
    assert!(!kept);
    assert_eq!(visits.load(Ordering::SeqCst), 2);
    let copy = c
        .offline_copy(&flip)
        .unwrap()
        .expect("the whole copy stays");
    assert_eq!(copy.fetched.page.title(), Some("Version 1, whole"));
}

/// The page of an open answered from a kept copy while working offline.
async fn kept_page(
    c: &Client,
    url: &str,
    opts: &OpenOptions,
) -> std::sync::Arc<smolweb_core::page::Page> {
    match c.open(url, opts).await {
        Outcome::Page { fetched, .. } => {
            assert!(fetched.cached, "a kept copy says it was not downloaded now");
            fetched.page
        }
        other => panic!("{url}: {other:?}"),
    }
}

/// Working offline, a kept copy read once is held: the next open of it answers the same page
/// (its parsed document with it), not the file read and rebuilt again. The copy stored again
/// with other bytes, or removed, is seen at the next open; `refresh` reads it again; going
/// online and back drops what was held.
#[tokio::test]
async fn working_offline_a_kept_copy_is_held_while_its_file_is_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    let version = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let routes = {
        let version = version.clone();
        Routes::new().handler(move |_| {
            let v = version.load(std::sync::atomic::Ordering::SeqCst);
            Reply::gemtext(&format!("# Version {v}\n=> /next Next\n"))
        })
    };
    let server = Server::start(routes).await;
    let url = server.url("/held");
    let browser = client(&dir, Face::Human, |c| c.cache.ttl_seconds = 0);
    assert!(visit(&browser, &url, &OpenOptions::default()).await.1);

    let agent = client(&dir, Face::Agent, |c| c.offline.work_offline = true);
    let plain = OpenOptions::default();
    let first = kept_page(&agent, &url, &plain).await;
    assert_eq!(first.title(), Some("Version 0"));
    let Content::Gemtext(doc) = &first.content else {
        panic!("gemtext");
    };
    assert_eq!(doc.links().count(), 1, "parsed once, on the held page");
    let again = kept_page(&agent, &url, &plain).await;
    assert!(std::sync::Arc::ptr_eq(&first, &again), "the held page");

    // The person's browser keeps a newer copy: the agent's next open reads it.
    version.store(1, std::sync::atomic::Ordering::SeqCst);
    assert!(visit(&browser, &url, &OpenOptions::default()).await.1);
    let newer = kept_page(&agent, &url, &plain).await;
    assert_eq!(newer.title(), Some("Version 1"));
    assert!(std::sync::Arc::ptr_eq(
        &newer,
        &kept_page(&agent, &url, &plain).await
    ));

    // A refresh reads the copy again.
    let refresh = OpenOptions {
        refresh: true,
        ..OpenOptions::default()
    };
    let reread = kept_page(&agent, &url, &refresh).await;
    assert!(!std::sync::Arc::ptr_eq(&newer, &reread));
    assert_eq!(reread.title(), Some("Version 1"));

    // Online and back: nothing held is served.
    agent.set_work_offline(false);
    agent.set_work_offline(true);
    assert!(!std::sync::Arc::ptr_eq(
        &reread,
        &kept_page(&agent, &url, &plain).await
    ));

    // The copy removed: not kept any more.
    assert!(browser.offline().remove(&url).unwrap());
    let gone = agent.open(&url, &plain).await;
    assert!(
        matches!(&gone, Outcome::Error { error, .. } if matches!(error, smolweb_net::FetchError::Offline { .. })),
        "{gone:?}"
    );
}
