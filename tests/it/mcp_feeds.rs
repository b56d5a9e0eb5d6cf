//! The feed tools through the real `smolweb --mcp` binary and the official Python MCP SDK
//! (tests/python/feeds.py validates every result against its outputSchema), on both protocol
//! generations (`changes_since` with a followed page's change among them); and the config
//! switch that withdraws `subscriptions_list` and `changes_since`.
//! Interpreter lookup and SKIP rules as in tests/mcp_python.rs.

use crate::mcp_harness;
use smolweb_testkit as support;

use mcp_harness::{Env, LOOPBACK_CONFIG, python};
use smolweb_core::feed::Entry;
use smolweb_store::subscriptions::{Refreshed, Subscriptions};
use support::gemini::{self, Reply, Routes};
use support::gopher;

const ATOM: &str = include_str!("../../crates/smolweb-core/tests/fixtures/feeds/atom.xml");

fn entry(url: &str, title: &str, day: &str) -> Entry {
    Entry {
        title: title.into(),
        url: url.into(),
        published: Some(format!("{day}T00:00:00Z")),
    }
}

/// Two subscriptions in the data dir, one entry of the first already read.
fn seed(data: &std::path::Path) {
    let subs = Subscriptions::new(data.join("subscriptions.toml"));
    let now = time::OffsetDateTime::now_utc();
    let (log, _) = subs.add("gemini://log.example/", now).unwrap();
    let (hole, _) = subs.add("gopher://hole.example/1/phlog", now).unwrap();
    let ok = |title: &str, entries| Refreshed::Ok {
        title: Some(title.into()),
        entries,
    };
    subs.record(
        &log,
        &ok(
            "Log",
            vec![
                entry("gemini://log.example/fresh", "Fresh", "2026-11-30"),
                entry("gemini://log.example/seen", "Seen", "2026-11-01"),
            ],
        ),
        now,
    )
    .unwrap();
    subs.record(
        &hole,
        &ok(
            "Holes",
            vec![entry(
                "gopher://hole.example/0/p",
                "Phlog post",
                "2026-10-01",
            )],
        ),
        now,
    )
    .unwrap();
    subs.mark_read("gemini://log.example/seen").unwrap();
}

async fn run(mode: &str) {
    let Some(python) = python::interpreter(&format!("mcp_feeds ({mode})")) else {
        return;
    };
    let log = "# Python log\n=> new.gmi 2026-11-30 Newest\n=> mid.gmi 2026-11-15 Middle\n\
               => /about About\n=> old.gmi 2026-01-01 Oldest\n";
    let changed = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let flag = changed.clone();
    let gem = gemini::Server::start(
        Routes::new()
            .route("/log/", Reply::gemtext(log))
            .route("/atom.xml", Reply::ok("application/atom+xml", ATOM))
            .route("/plain.txt", Reply::ok("text/plain", "just words\n"))
            .route("/gone", Reply::status(51, "gone"))
            .handler(move |req| match req.path.as_str() {
                "/page/" if flag.load(std::sync::atomic::Ordering::SeqCst) => {
                    Reply::gemtext("# Garden\n=> /roses.gmi Roses\n=> /tulips.gmi Tulips\n")
                }
                "/page/" => Reply::gemtext("# Garden\n=> /roses.gmi Roses\n"),
                _ => Reply::status(51, "not found"),
            }),
    )
    .await;
    let hole = gopher::Server::start(gopher::Routes::new().route(
        "/phlog",
        gopher::Reply::menu(&[("i", "Phlog", ""), ("0", "2026-03-04 Post", "/p1")]),
    ))
    .await;
    let env = Env::new(&format!("{LOOPBACK_CONFIG}[mcp]\nmax_menu_items = 2\n"));
    // A page followed for its new links, which gains one before the refresh.
    let page = gem.url("/page/");
    let (ok, out) = env.run(&["feeds", "add", &page, "--changes", "links"]);
    assert!(ok, "{out}");
    changed.store(true, std::sync::atomic::Ordering::SeqCst);
    let (ok, out) = env.run(&["feeds", "refresh"]);
    assert!(ok && out.contains("1 link added"), "{out}");
    seed(&env.data_dir());
    let no_list = env.dir.path().join("no-list.toml");
    std::fs::write(
        &no_list,
        format!("{LOOPBACK_CONFIG}[feeds]\nagent_can_list_subscriptions = false\n"),
    )
    .unwrap();
    let extra = [
        no_list.display().to_string(),
        gem.url("").trim_end_matches('/').to_string(),
        format!("gopher://127.0.0.1:{}", hole.port()),
        page,
    ];
    // The transcript (changes_since's answer as the SDK got it), shown with --nocapture.
    println!(
        "{}",
        python::run(&python, "feeds.py", Some(mode), &env, &extra).await
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn python_sdk_feed_tools_legacy() {
    run("legacy").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn python_sdk_feed_tools_auto() {
    run("auto").await;
}

/// A page whose second version adds three links and a paragraph, drops one, and whose visit
/// counter (chrome noise) changes at every fetch; a gemlog.
fn follow_server(changed: std::sync::Arc<std::sync::atomic::AtomicBool>) -> Routes {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let visits = AtomicUsize::new(0);
    Routes::new()
        .route(
            "/log/",
            Reply::gemtext("# Log\n=> new.gmi 2026-11-30 Newest\n=> old.gmi 2026-11-01 Older\n"),
        )
        .handler(move |req| {
            let now = changed.load(Ordering::SeqCst);
            match req.path.as_str() {
                "/page/" => {
                    let n = visits.fetch_add(1, Ordering::SeqCst) + 7;
                    let mut page = format!("# Index\n=> /a.gmi Page A\nVisits so far: {n}\n");
                    if now {
                        page.push_str(
                            "=> /b.gmi Page B\n=> /c.gmi Page C\n=> /d.gmi Page D\n\
                             A new paragraph about the garden.\n",
                        );
                    } else {
                        page.push_str("Hello from the old index.\n");
                    }
                    Reply::gemtext(&page)
                }
                _ => Reply::status(51, "not found"),
            }
        })
}

/// `changes_since` through the built binary with rmcp's client: a followed page's change
/// with its diff (absolute links, lists cut to `diff_items`, chrome noise left out) beside the
/// new entries of a feed, windowed by items; the same answer on both protocol generations and
/// from a fresh process (no session state); `subscriptions_list` shows the followed page
/// with the page's URL and a failing feed's attention.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn changes_since_gives_page_changes_with_their_diff_and_new_entries() {
    use mcp_harness::{Elicit, Gen, TestClient, call, connect, error_code, sc, texts};
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    let changed = Arc::new(AtomicBool::new(false));
    let gem = gemini::Server::start(follow_server(changed.clone())).await;
    let env = Env::loopback();
    let before = time::OffsetDateTime::now_utc() - time::Duration::minutes(5);
    let page = gem.url("/page/");
    for args in [
        vec!["feeds", "add", page.as_str(), "--changes", "text"],
        vec!["feeds", "add", &gem.url("/log/")],
    ] {
        let (ok, out) = env.run(&args);
        assert!(ok, "{args:?}: {out}");
    }
    changed.store(true, Ordering::SeqCst);
    let (_, out) = env.run(&["feeds", "refresh"]);
    assert!(out.contains("Index"), "the refresh found the change: {out}");
    // A feed whose last refresh failed (recorded as a refresh records it).
    let subs = Subscriptions::new(env.data_dir().join("subscriptions.toml"));
    let (dead, _) = subs
        .add("gemini://dead.example/", time::OffsetDateTime::now_utc())
        .unwrap();
    let failed = Refreshed::Failed("cannot connect: connection refused".into());
    subs.record(&dead, &failed, time::OffsetDateTime::now_utc())
        .unwrap();

    let since = before
        .format(&time::format_description::well_known::Rfc3339)
        .unwrap();
    let mut answers = Vec::new();
    for generation in [Gen::Initialize, Gen::Discover] {
        let s = connect(&env, generation, TestClient::new(Elicit::Off)).await;
        let r = call(
            &s,
            "changes_since",
            serde_json::json!({"since": since, "diff_items": 2}),
        )
        .await;
        assert_ne!(r.is_error, Some(true), "{:?}", sc(&r));
        answers.push((sc(&r), texts(&r)));
        s.cancel().await.unwrap();
    }
    assert_eq!(
        answers[0], answers[1],
        "a 2026-07-28 session and a fresh process get the same answer"
    );
    let (v, text) = &answers[0];
    assert_eq!(v["kind"], "changes_since", "{v}");
    let items = v["items"].as_array().unwrap();
    let changes: Vec<&serde_json::Value> = items
        .iter()
        .filter(|i| i["type"] == "page_change")
        .collect();
    assert_eq!(changes.len(), 1, "one change, the counter is not one: {v}");
    let c = changes[0];
    assert_eq!(c["subscription"], page.as_str());
    assert_eq!(c["url"], page.as_str(), "the page, not a browser-only URL");
    assert_eq!(c["unread"], true);
    let d = &c["diff"];
    assert_eq!(d["counts"]["links_added"], 3, "{d}");
    assert_eq!(d["counts"]["paragraphs_added"], 1, "{d}");
    assert_eq!(d["counts"]["paragraphs_removed"], 1, "{d}");
    assert_eq!(
        d["links_added"].as_array().unwrap().len(),
        2,
        "cut to diff_items"
    );
    assert_eq!(d["truncated"], true);
    for l in d["links_added"].as_array().unwrap() {
        let url = l["url"].as_str().unwrap();
        assert!(url.starts_with(&gem.url("/")), "absolute: {url}");
        assert!(l["label"].as_str().unwrap().starts_with("Page "), "{l}");
    }
    assert!(
        d["paragraphs_added"][0]["text"]
            .as_str()
            .unwrap()
            .contains("garden"),
        "{d}"
    );
    assert!(
        d["paragraphs_removed"][0]["text"]
            .as_str()
            .unwrap()
            .contains("old index"),
        "{d}"
    );
    assert!(
        !d.to_string().contains("Visits"),
        "a counter is not a change: {d}"
    );
    let entries: Vec<&str> = items
        .iter()
        .filter(|i| i["type"] == "entry")
        .map(|i| i["url"].as_str().unwrap())
        .collect();
    for post in ["/log/new.gmi", "/log/old.gmi"] {
        assert!(entries.contains(&gem.url(post).as_str()), "{post}: {v}");
    }
    assert_eq!(v["total_items"], items.len());
    assert!(
        text[0].contains(&format!("+ => {}", gem.url("/b.gmi"))),
        "{text:?}"
    );

    let s = connect(&env, Gen::Discover, TestClient::new(Elicit::Off)).await;
    let first = sc(&call(
        &s,
        "changes_since",
        serde_json::json!({"since": since, "max_items": 1}),
    )
    .await);
    assert_eq!(first["items"].as_array().unwrap().len(), 1);
    assert_eq!(first["next_offset"], 1);
    let rest = sc(&call(
        &s,
        "changes_since",
        serde_json::json!({"since": since, "offset": 1, "max_items": 100}),
    )
    .await);
    assert_eq!(rest["next_offset"], serde_json::Value::Null);
    assert_eq!(rest["items"].as_array().unwrap().len(), items.len() - 1);
    let only_page = sc(&call(
        &s,
        "changes_since",
        serde_json::json!({"since": since, "filter": "/PAGE/"}),
    )
    .await);
    assert_eq!(only_page["total_items"], 1, "{only_page}");
    let later = sc(&call(
        &s,
        "changes_since",
        serde_json::json!({"since": "2099-01-01"}),
    )
    .await);
    assert_eq!(later["total_items"], 0, "{later}");
    let bad = call(
        &s,
        "changes_since",
        serde_json::json!({"since": "last tuesday-ish"}),
    )
    .await;
    assert_eq!(error_code(&bad), "INVALID_REQUEST");
    assert!(
        sc(&bad)["error"]["message"]
            .as_str()
            .unwrap()
            .contains("cannot read")
    );

    let subs = sc(&call(&s, "subscriptions_list", serde_json::json!({})).await);
    let list = subs["subscriptions"].as_array().unwrap();
    let followed = list.iter().find(|x| x["url"] == page.as_str()).unwrap();
    assert_eq!(followed["follows"], "text", "{followed}");
    assert!(
        followed["entries"]
            .as_array()
            .unwrap()
            .iter()
            .all(|e| e["url"] == page.as_str()),
        "no about: URL reaches an agent: {followed}"
    );
    let sick = list
        .iter()
        .find(|x| x["url"] == "gemini://dead.example/")
        .unwrap();
    assert_eq!(sick["attention"][0]["sign"], "failing", "{sick}");
    let words = sick["attention"][0]["words"].as_str().unwrap();
    assert!(
        words.starts_with("failing: 1 refresh in a row") && words.contains("connection refused"),
        "{words}"
    );
    let log = list
        .iter()
        .find(|x| x["url"] == gem.url("/log/").as_str())
        .unwrap();
    assert_eq!(log["follows"], serde_json::Value::Null);
    assert_eq!(log["attention"], serde_json::json!([]), "{log}");
    s.cancel().await.unwrap();
}
