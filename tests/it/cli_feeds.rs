//! `smolweb feeds` through the real binary against in-process Gemini and Gopher servers:
//! add (with its first fetch), list, refresh printing only new entries, remove, exit codes.

use smolweb_testkit as support;

use std::path::Path;
use std::process::{Command, Output};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use support::{gemini, gopher};

const ATOM: &str = include_str!("../../crates/smolweb-core/tests/fixtures/feeds/atom.xml");

async fn run(data: &Path, args: &[&str]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_smolweb"));
    cmd.arg("--data-dir")
        .arg(data)
        .args(args)
        .env_remove("SMOLWEB_CONFIG")
        .env_remove("SMOLWEB_HOME");
    tokio::task::spawn_blocking(move || cmd.output().unwrap())
        .await
        .unwrap()
}

fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn data_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("config.toml"),
        "[network]\ntimeout_seconds = 5\n[politeness]\nper_host_interval_ms = 0\n",
    )
    .unwrap();
    dir
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn add_list_refresh_remove() {
    let posted = Arc::new(AtomicBool::new(false));
    let flag = posted.clone();
    let gem = gemini::Server::start(
        gemini::Routes::new()
            .route("/atom.xml", gemini::Reply::ok("application/atom+xml", ATOM))
            .handler(move |req| {
                if req.path != "/log/" {
                    return gemini::Reply::status(51, "not found");
                }
                let mut page = "# Test log\n=> one.gmi 2026-11-01 First post\n".to_string();
                if flag.load(Ordering::SeqCst) {
                    page.push_str("=> two.gmi 2026-11-30 Second post\n");
                }
                gemini::Reply::gemtext(&page)
            }),
    )
    .await;
    let phlog = gopher::Server::start(gopher::Routes::new().route(
        "/phlog",
        gopher::Reply::menu(&[
            ("i", "My phlog", ""),
            ("0", "2026-10-10 Gopher post", "/phlog/p1.txt"),
        ]),
    ))
    .await;
    let dir = data_dir();
    let d = dir.path();

    let log = gem.url("/log/");
    let o = run(d, &["feeds", "add", &log]).await;
    assert!(o.status.success(), "{}", err(&o));
    assert!(out(&o).contains("subscribed to Test log"), "{}", out(&o));
    assert!(out(&o).contains(", 1 entry"), "singular: {}", out(&o));
    let o = run(d, &["feeds", "add", &gem.url("/atom.xml")]).await;
    assert!(
        out(&o).contains("Station & Notes"),
        "{}{}",
        out(&o),
        err(&o)
    );
    let o = run(d, &["feeds", "add", &phlog.url('1', "/phlog")]).await;
    assert!(o.status.success(), "{}", err(&o));
    let o = run(d, &["feeds", "add", &log]).await;
    assert!(out(&o).contains("already subscribed"), "{}", out(&o));

    let o = run(d, &["feeds", "list"]).await;
    let listed = out(&o);
    assert_eq!(listed.lines().count(), 3, "{listed}");
    assert!(listed.contains("Test log  (1 unread"), "{listed}");
    // A person reads the refresh time to the minute, not as RFC 3339.
    assert!(
        listed.contains(" UTC)") && !listed.contains("Z)"),
        "{listed}"
    );
    assert!(listed.contains("Station & Notes  (2 unread"), "{listed}");

    // Nothing new yet; then one post appears and only it is printed.
    let o = run(d, &["feeds", "refresh"]).await;
    assert!(o.status.success(), "{}", err(&o));
    assert_eq!(out(&o), "", "nothing new");
    posted.store(true, Ordering::SeqCst);
    let o = run(d, &["feeds", "refresh"]).await;
    assert!(o.status.success(), "{}", err(&o));
    let printed = out(&o);
    assert!(
        printed.contains(&format!("== Test log ({log})")),
        "{printed}"
    );
    assert!(printed.contains("2026-11-30 Second post"), "{printed}");
    assert!(printed.contains(&gem.url("/log/two.gmi")), "{printed}");
    assert!(!printed.contains("First post"), "{printed}");
    assert!(err(&o).contains("1 new entry from 3 feeds"), "{}", err(&o));

    // The browser's about:feeds page reads the same store: newest first, unread marked.
    let o = run(d, &["get", "about:feeds", "--raw"]).await;
    let page = out(&o);
    let second = page
        .find("● Second post · Test log")
        .expect("unread entry listed");
    let first = page
        .find("● First post · Test log")
        .expect("older entry listed");
    assert!(second < first, "newest first: {page}");
    assert!(page.contains("## 2026-11-30\n"), "{page}");

    let o = run(d, &["feeds", "remove", &log]).await;
    assert!(o.status.success(), "{}", err(&o));
    let o = run(d, &["feeds", "remove", &log]).await;
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    let after = out(&run(d, &["feeds", "list"]).await);
    assert_eq!(after.lines().count(), 2, "{after}");
    assert!(!after.contains("Test log"), "{after}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn failures_have_their_exit_codes_and_spare_the_other_feeds() {
    let gem = gemini::Server::start(
        gemini::Routes::new()
            .route(
                "/ok/",
                gemini::Reply::gemtext("# Fine\n=> a 2026-01-01 A\n"),
            )
            .route("/gone/", gemini::Reply::status(51, "gone")),
    )
    .await;
    let dir = data_dir();
    let d = dir.path();
    for (bad, code) in [
        ("about:feeds", 2),
        ("file:///etc/passwd", 2),
        ("nonsense", 2),
    ] {
        let o = run(d, &["feeds", "add", bad]).await;
        assert_eq!(o.status.code(), Some(code), "{bad}: {}", err(&o));
    }
    // A feed that fails on first fetch is kept, with exit code 3.
    let o = run(d, &["feeds", "add", &gem.url("/gone/")]).await;
    assert_eq!(o.status.code(), Some(3), "{}", err(&o));
    assert!(err(&o).contains("status 51"), "{}", err(&o));
    let o = run(d, &["feeds", "add", &gem.url("/ok/")]).await;
    assert!(o.status.success(), "{}", err(&o));
    // A closed port: connection refused, reported per feed.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = closed.local_addr().unwrap().port();
    drop(closed);
    let dead = format!("gemini://127.0.0.1:{port}/");
    run(d, &["feeds", "add", &dead]).await;

    let o = run(d, &["feeds", "refresh"]).await;
    assert_eq!(o.status.code(), Some(3), "{}", err(&o));
    assert!(err(&o).contains(&format!("{dead} failed")), "{}", err(&o));
    assert!(err(&o).contains("2 failed"), "{}", err(&o));
    let listed = out(&run(d, &["feeds", "list"]).await);
    assert!(listed.contains("Fine  (1 unread"), "{listed}");
    assert!(
        listed.contains("last refresh failed: status 51"),
        "{listed}"
    );
    // A failed feed does not also say it was refreshed.
    let failed_row = listed.lines().find(|l| l.contains(&dead)).expect("listed");
    assert!(failed_row.contains("refresh failed 20"), "{failed_row}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn adding_a_page_without_entries_says_it_may_not_be_a_feed() {
    let gem = gemini::Server::start(gemini::Routes::new().route(
        "/about.gmi",
        gemini::Reply::gemtext("# About me\n\nI like tea.\n=> /contact.gmi Contact\n"),
    ))
    .await;
    let dir = data_dir();
    let url = gem.url("/about.gmi");
    let o = run(dir.path(), &["feeds", "add", &url]).await;
    assert_eq!(o.status.code(), Some(3), "{}{}", out(&o), err(&o));
    assert!(out(&o).contains("no entries"), "{}", out(&o));
    assert!(err(&o).contains("it may not be a feed"), "{}", err(&o));
    // Kept, as the message says, so it can be removed.
    let o = run(dir.path(), &["feeds", "remove", &url]).await;
    assert_eq!(o.status.code(), Some(0), "{}{}", out(&o), err(&o));
}
