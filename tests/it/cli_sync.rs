//! `smolweb sync` through the real binary against in-process Gemini and Gopher servers: the
//! first sync keeps the entries and a second keeps nothing new, a server down fails its feed
//! and not the others, the byte bound stops with work left, the sync queue is consumed (and
//! given up after three failed tries), links are followed one level on the same capsule only,
//! a 44 SLOW DOWN is honoured, and a browser's client sees the new entries.

use smolweb_testkit as support;

use smolweb_client::config::Config;
use smolweb_client::{Client, Face, OpenOptions, Outcome};
use smolweb_store::offline::Offline;
use smolweb_store::paths::Paths;
use smolweb_store::sync_queue::SyncQueue;
use std::path::Path;
use std::process::{Command, Output};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use support::{gemini, gopher};

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

fn code(o: &Output) -> i32 {
    o.status.code().unwrap_or(-1)
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

fn paths(data: &Path) -> Paths {
    Paths::resolve(
        Some(data.to_path_buf()),
        Some(data.join("config.toml")),
        None,
        None,
    )
    .unwrap()
}

/// The URLs with an offline copy in `data`.
fn kept(data: &Path) -> Vec<String> {
    let mut urls: Vec<String> = Offline::new(paths(data).offline_dir(), u64::MAX)
        .list()
        .unwrap()
        .into_iter()
        .map(|e| e.url)
        .collect();
    urls.sort();
    urls
}

fn paths_asked(server: &gemini::Server) -> Vec<String> {
    server.requests().into_iter().map(|r| r.path).collect()
}

fn count_of(list: &[String], item: &str) -> usize {
    list.iter().filter(|p| *p == item).count()
}

/// A gemlog at `/log/` with these posts (file name, date), each post a short page.
fn gemlog(posts: &'static [(&'static str, &'static str)]) -> gemini::Routes {
    gemini::Routes::new().handler(move |req| {
        if req.path == "/log/" {
            let mut page = "# Test log\n".to_string();
            for (name, date) in posts {
                page.push_str(&format!("=> {name} {date} Post {name}\n"));
            }
            return gemini::Reply::gemtext(&page);
        }
        match req.path.strip_prefix("/log/") {
            Some(name) if posts.iter().any(|(n, _)| *n == name) => {
                gemini::Reply::gemtext(&format!("# {name}\n\nThe text of {name}.\n"))
            }
            _ => gemini::Reply::status(51, "not found"),
        }
    })
}

/// A phlog menu at `/phlog` whose entries are text items on this same server, named by
/// `host` (the pacer keys hosts by name: `localhost` is another host than `127.0.0.1`).
async fn phlog_on(host: &'static str) -> gopher::Server {
    let port: Arc<OnceLock<u16>> = Arc::new(OnceLock::new());
    let p = port.clone();
    let server = gopher::Server::start(gopher::Routes::new().handler(move |req| {
        let port = p.get().copied().unwrap_or(70);
        match req.selector.as_str() {
            "/phlog" => gopher::Reply::text(&format!(
                "iMy phlog\t\t{host}\t{port}\r\n\
                 02026-10-10 Gopher post\t/phlog/p1.txt\t{host}\t{port}\r\n.\r\n"
            )),
            "/phlog/p1.txt" => gopher::Reply::text("A post from a hole.\r\n"),
            _ => gopher::Reply::text("3not here\t\terror.host\t1\r\n.\r\n"),
        }
    }))
    .await;
    port.set(server.port()).unwrap();
    server
}

async fn phlog() -> gopher::Server {
    phlog_on("127.0.0.1").await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn first_sync_keeps_the_entries_and_a_second_keeps_nothing_new() {
    static POSTS: &[(&str, &str)] = &[("one.gmi", "2026-11-01"), ("two.gmi", "2026-11-20")];
    let gem = gemini::Server::start(gemlog(POSTS)).await;
    let hole = phlog().await;
    let dir = data_dir();
    let d = dir.path();
    let o = run(d, &["feeds", "add", &gem.url("/log/")]).await;
    assert!(o.status.success(), "{}", err(&o));
    let o = run(d, &["feeds", "add", &hole.url('1', "/phlog")]).await;
    assert!(o.status.success(), "{}", err(&o));

    let o = run(d, &["sync"]).await;
    assert_eq!(code(&o), 0, "{}{}", out(&o), err(&o));
    // Not a terminal: one summary line on stdout, nothing on stderr.
    assert_eq!(err(&o), "", "stderr");
    let stdout = out(&o);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 1, "{}", out(&o));
    assert!(
        lines[0].starts_with(
            "sync: 2 feeds refreshed, 0 new entries, 3 pages kept (", // `feeds add` saw them
        ),
        "{}",
        lines[0]
    );
    assert!(
        lines[0].contains(", 0 queued pages fetched, 0 skipped, "),
        "{}",
        lines[0]
    );
    let gopher_post = format!("gopher://127.0.0.1:{}/0/phlog/p1.txt", hole.port());
    assert_eq!(
        kept(d),
        [
            gem.url("/log/one.gmi"),
            gem.url("/log/two.gmi"),
            gopher_post.clone()
        ]
    );
    let asked = paths_asked(&gem);
    assert_eq!(count_of(&asked, "/log/one.gmi"), 1, "{asked:?}");
    assert_eq!(count_of(&asked, "/log/two.gmi"), 1, "{asked:?}");
    // The newest entry first.
    let first = asked.iter().position(|p| p == "/log/two.gmi").unwrap();
    let second = asked.iter().position(|p| p == "/log/one.gmi").unwrap();
    assert!(first < second, "{asked:?}");

    let o = run(d, &["sync"]).await;
    assert_eq!(code(&o), 0, "{}{}", out(&o), err(&o));
    assert!(
        out(&o).starts_with("sync: 2 feeds refreshed, 0 new entries, 0 pages kept (0 B)"),
        "{}",
        out(&o)
    );
    let asked = paths_asked(&gem);
    assert_eq!(
        count_of(&asked, "/log/one.gmi"),
        1,
        "fetched again: {asked:?}"
    );
    assert_eq!(
        count_of(&asked, "/log/two.gmi"),
        1,
        "fetched again: {asked:?}"
    );
    let hole_asked: Vec<String> = hole.requests().into_iter().map(|r| r.selector).collect();
    assert_eq!(
        count_of(&hole_asked, "/phlog/p1.txt"),
        1,
        "fetched again: {hole_asked:?}"
    );
    // `--quiet` says nothing when all went well.
    let o = run(d, &["sync", "--quiet"]).await;
    assert_eq!(code(&o), 0, "{}", err(&o));
    assert_eq!(out(&o), "");
    assert_eq!(err(&o), "");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_down_fails_its_feed_and_the_others_are_done() {
    static POSTS: &[(&str, &str)] = &[("one.gmi", "2026-11-01")];
    let gem = gemini::Server::start(gemlog(POSTS)).await;
    let dir = data_dir();
    let d = dir.path();
    // A port nothing listens on any more.
    let dead = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let dead_port = dead.local_addr().unwrap().port();
    drop(dead);
    let dead_feed = format!("gemini://127.0.0.1:{dead_port}/log/");
    assert_eq!(code(&run(d, &["feeds", "add", &dead_feed]).await), 3);
    assert!(
        run(d, &["feeds", "add", &gem.url("/log/")])
            .await
            .status
            .success()
    );

    let o = run(d, &["sync"]).await;
    assert_eq!(code(&o), 3, "{}{}", out(&o), err(&o));
    assert!(
        out(&o).starts_with("sync: 1 of 2 feeds refreshed (1 failed), 0 new entries, 1 page kept"),
        "{}",
        out(&o)
    );
    assert_eq!(out(&o).lines().count(), 1, "{}", out(&o));
    assert!(
        err(&o).contains(&format!("sync: feed {dead_feed} failed: cannot connect")),
        "{}",
        err(&o)
    );
    assert_eq!(kept(d), [gem.url("/log/one.gmi")]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_byte_bound_stops_with_work_left_and_the_next_sync_goes_on() {
    static POSTS: &[(&str, &str)] = &[
        ("one.gmi", "2026-11-01"),
        ("two.gmi", "2026-11-02"),
        ("three.gmi", "2026-11-03"),
    ];
    let gem = gemini::Server::start(gemlog(POSTS)).await;
    let dir = data_dir();
    let d = dir.path();
    assert!(
        run(d, &["feeds", "add", &gem.url("/log/")])
            .await
            .status
            .success()
    );
    let o = run(d, &["sync", "--max-bytes", "1"]).await;
    assert_eq!(code(&o), 4, "{}{}", out(&o), err(&o));
    assert!(out(&o).contains(", 1 page kept ("), "{}", out(&o));
    assert!(
        out(&o).contains(", stopped at the byte bound with 2 pages left, "),
        "{}",
        out(&o)
    );
    assert_eq!(kept(d), [gem.url("/log/three.gmi")], "the newest first");
    let o = run(d, &["sync", "--max-bytes", "0"]).await;
    assert_eq!(code(&o), 0, "{}{}", out(&o), err(&o));
    assert!(out(&o).contains(", 2 pages kept ("), "{}", out(&o));
    assert_eq!(kept(d).len(), 3);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_queue_is_consumed_and_a_page_that_keeps_failing_is_given_up() {
    let gem = gemini::Server::start(
        gemini::Routes::new()
            .route("/wanted.gmi", gemini::Reply::gemtext("# Wanted\n"))
            .route("/gone.gmi", gemini::Reply::status(51, "not found")),
    )
    .await;
    let dir = data_dir();
    let d = dir.path();
    let dead = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let dead_url = format!(
        "gemini://127.0.0.1:{}/later.gmi",
        dead.local_addr().unwrap().port()
    );
    drop(dead);
    let queue = SyncQueue::new(paths(d).sync_queue());
    let now = time::OffsetDateTime::now_utc();
    for url in [
        gem.url("/wanted.gmi"),
        gem.url("/gone.gmi"),
        dead_url.clone(),
    ] {
        assert!(queue.add(&url, None, now).unwrap());
    }
    let o = run(d, &["get", "about:offline"]).await;
    assert!(out(&o).contains("Waiting for the next sync"), "{}", out(&o));
    assert!(out(&o).contains(&gem.url("/wanted.gmi")), "{}", out(&o));

    let o = run(d, &["sync"]).await;
    assert_eq!(code(&o), 3, "{}{}", out(&o), err(&o));
    assert!(
        out(&o).contains("1 page kept") && out(&o).contains(", 1 queued page fetched, "),
        "{}",
        out(&o)
    );
    assert!(
        out(&o).contains(", 2 failed, 1 taken off the queue"),
        "{}",
        out(&o)
    );
    assert!(err(&o).contains("status 51"), "{}", err(&o));
    assert_eq!(kept(d), [gem.url("/wanted.gmi")]);
    // Kept: off the queue; 51: given up at once; the network: stays, one try counted.
    let left = queue.list().unwrap();
    assert_eq!(left.len(), 1, "{left:?}");
    assert_eq!(
        (left[0].url.as_str(), left[0].tries),
        (dead_url.as_str(), 1)
    );
    let o = run(d, &["get", "about:offline"]).await;
    assert!(out(&o).contains("1 try failed"), "{}", out(&o));
    assert!(!out(&o).contains("/wanted.gmi"), "{}", out(&o));

    assert_eq!(code(&run(d, &["sync"]).await), 3);
    assert_eq!(queue.list().unwrap()[0].tries, 2);
    let o = run(d, &["sync"]).await;
    assert_eq!(code(&o), 3);
    assert!(
        err(&o).contains(&format!("{dead_url} taken off the sync queue")),
        "{}",
        err(&o)
    );
    assert!(queue.list().unwrap().is_empty());
    let o = run(d, &["get", "about:offline"]).await;
    assert!(
        !out(&o).contains("Waiting for the next sync"),
        "{}",
        out(&o)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn links_are_followed_one_level_on_the_same_capsule_only() {
    let other = gemini::Server::start(
        gemini::Routes::new().route("/x.gmi", gemini::Reply::gemtext("# Elsewhere\n")),
    )
    .await;
    let elsewhere = other.url("/x.gmi");
    let gem = gemini::Server::start(gemini::Routes::new().handler(
        move |req| match req.path.as_str() {
            "/log/" => gemini::Reply::gemtext("# Linky\n=> post.gmi 2026-11-05 A post\n"),
            "/plain/" => gemini::Reply::gemtext("# Plain\n=> entry.gmi 2026-11-04 Entry\n"),
            "/log/post.gmi" => gemini::Reply::gemtext(&format!(
                "# Post\n=> a.gmi Same capsule\n=> /log/q.gmi?secret With a query\n\
                 => {elsewhere} Another capsule\n"
            )),
            "/log/a.gmi" => gemini::Reply::gemtext("# A\n=> deeper.gmi Two levels down\n"),
            "/plain/entry.gmi" => gemini::Reply::gemtext("# Entry\n=> side.gmi Side\n"),
            _ => gemini::Reply::gemtext("# Other\n"),
        },
    ))
    .await;
    let dir = data_dir();
    let d = dir.path();
    let o = run(d, &["feeds", "add", &gem.url("/log/"), "--sync-links"]).await;
    assert!(o.status.success(), "{}", err(&o));
    assert!(
        run(d, &["feeds", "add", &gem.url("/plain/")])
            .await
            .status
            .success()
    );
    let o = run(d, &["feeds", "list"]).await;
    assert!(out(&o).contains("sync keeps linked pages"), "{}", out(&o));

    let o = run(d, &["sync"]).await;
    assert_eq!(code(&o), 0, "{}{}", out(&o), err(&o));
    assert!(out(&o).contains(", 3 pages kept ("), "{}", out(&o));
    assert_eq!(
        kept(d),
        [
            gem.url("/log/a.gmi"),
            gem.url("/log/post.gmi"),
            gem.url("/plain/entry.gmi")
        ]
    );
    let asked = paths_asked(&gem);
    for never in ["/log/deeper.gmi", "/log/q.gmi", "/plain/side.gmi"] {
        assert_eq!(count_of(&asked, never), 0, "{never}: {asked:?}");
    }
    assert!(other.requests().is_empty(), "another capsule was asked");

    // Links on for the plain feed too, but `--depth 0`: the entries only.
    let o = run(d, &["feeds", "sync-links", &gem.url("/plain/"), "on"]).await;
    assert!(o.status.success(), "{}", err(&o));
    std::fs::remove_dir_all(paths(d).offline_dir()).unwrap();
    let o = run(d, &["sync", "--depth", "0"]).await;
    assert_eq!(code(&o), 0, "{}{}", out(&o), err(&o));
    assert_eq!(
        kept(d),
        [gem.url("/log/post.gmi"), gem.url("/plain/entry.gmi")]
    );

    // The next sync with links: the entries are kept already, so their links come from the
    // kept copies, and the entries are not asked for again.
    let before = paths_asked(&gem);
    let o = run(d, &["sync"]).await;
    assert_eq!(code(&o), 0, "{}{}", out(&o), err(&o));
    assert!(out(&o).contains(", 2 pages kept ("), "{}", out(&o));
    assert_eq!(
        kept(d),
        [
            gem.url("/log/a.gmi"),
            gem.url("/log/post.gmi"),
            gem.url("/plain/entry.gmi"),
            gem.url("/plain/side.gmi")
        ]
    );
    let asked = paths_asked(&gem);
    for entry in ["/log/post.gmi", "/plain/entry.gmi"] {
        assert_eq!(
            count_of(&asked, entry),
            count_of(&before, entry),
            "{entry} fetched again"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_down_is_honoured_without_asking_again() {
    let paused = Arc::new(AtomicBool::new(false));
    let flag = paused.clone();
    let gem = gemini::Server::start(gemini::Routes::new().handler(
        move |req| match req.path.as_str() {
            "/log/" => gemini::Reply::gemtext(
                "# Busy\n=> c.gmi 2026-11-03 C\n=> b.gmi 2026-11-02 B\n=> a.gmi 2026-11-01 A\n",
            ),
            "/log/c.gmi" if !flag.swap(true, Ordering::SeqCst) => gemini::Reply::status(44, "3600"),
            _ => gemini::Reply::gemtext("# A post\n"),
        },
    ))
    .await;
    // Another host: a pause asked by one host holds up no other.
    let hole = phlog_on("localhost").await;
    let hole_feed = format!("gopher://localhost:{}/1/phlog", hole.port());
    let dir = data_dir();
    let d = dir.path();
    for feed in [gem.url("/log/"), hole_feed] {
        assert!(run(d, &["feeds", "add", &feed]).await.status.success());
    }
    let o = run(d, &["sync"]).await;
    assert_eq!(code(&o), 3, "{}{}", out(&o), err(&o));
    assert!(err(&o).contains("slow down"), "{}", err(&o));
    // One 44, then the capsule is not asked again in this run; the other host is done.
    let asked = paths_asked(&gem);
    assert_eq!(
        asked,
        ["/log/", "/log/", "/log/c.gmi"],
        "asked while paused: {asked:?}"
    );
    assert!(
        out(&o).contains(", 1 page kept (") && out(&o).contains(", 3 failed"),
        "{}",
        out(&o)
    );
    assert_eq!(
        kept(d),
        [format!("gopher://localhost:{}/0/phlog/p1.txt", hole.port())]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_running_browsers_client_sees_the_new_entries_of_a_sync() {
    let posted = Arc::new(AtomicBool::new(false));
    let flag = posted.clone();
    let gem = gemini::Server::start(gemini::Routes::new().handler(
        move |req| match req.path.as_str() {
            "/log/" => {
                let mut page = "# Log\n=> one.gmi 2026-11-01 First post\n".to_string();
                if flag.load(Ordering::SeqCst) {
                    page.push_str("=> two.gmi 2026-11-30 Second post\n");
                }
                gemini::Reply::gemtext(&page)
            }
            _ => gemini::Reply::gemtext("# A post\n"),
        },
    ))
    .await;
    let dir = data_dir();
    let d = dir.path();
    assert!(
        run(d, &["feeds", "add", &gem.url("/log/")])
            .await
            .status
            .success()
    );
    // The browser's client, open across the sync.
    let p = paths(d);
    let config = Config::load(&p.config_file).unwrap();
    let browser = Client::new(config, p, Face::Human).unwrap();
    let feeds_page =
        async |client: &Client| match client.open("about:feeds", &OpenOptions::default()).await {
            Outcome::Page { fetched, .. } => fetched.page.body.text().to_string(),
            other => panic!("{other:?}"),
        };
    assert!(!feeds_page(&browser).await.contains("Second post"));
    posted.store(true, Ordering::SeqCst);
    let o = run(d, &["sync"]).await;
    assert_eq!(code(&o), 0, "{}{}", out(&o), err(&o));
    assert!(out(&o).contains("1 new entry, 2 pages kept"), "{}", out(&o));
    assert!(feeds_page(&browser).await.contains("Second post"));
    assert!(
        browser
            .offline_copy(&gem.url("/log/two.gmi"))
            .unwrap()
            .is_some()
    );
}

/// A capsule whose gemlog answers at once and whose posts drip a byte at a time (a fetch
/// that is still running when a bound or Ctrl-C comes).
async fn slow_capsule() -> gemini::Server {
    gemini::Server::start(
        gemini::Routes::new().handler(|req| match req.path.as_str() {
            "/log/" => {
                gemini::Reply::gemtext("# Slow\n=> a.gmi 2026-11-01 A\n=> b.gmi 2026-11-02 B\n")
            }
            _ => gemini::Reply::drip(&"x".repeat(2000), std::time::Duration::from_millis(20)),
        }),
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_time_bound_drops_the_fetch_in_flight_and_says_what_was_left() {
    let gem = slow_capsule().await;
    let dir = data_dir();
    let d = dir.path();
    assert!(
        run(d, &["feeds", "add", &gem.url("/log/")])
            .await
            .status
            .success()
    );
    let o = run(d, &["sync", "--max-time", "1"]).await;
    assert_eq!(code(&o), 4, "{}{}", out(&o), err(&o));
    assert!(
        out(&o).contains(", 0 pages kept (0 B), ")
            && out(&o).contains(", stopped at the time bound with 2 pages left, "),
        "{}",
        out(&o)
    );
    assert!(kept(d).is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ctrl_c_stops_cleanly_with_its_own_exit_code() {
    let gem = slow_capsule().await;
    let dir = data_dir();
    let d = dir.path();
    assert!(
        run(d, &["feeds", "add", &gem.url("/log/")])
            .await
            .status
            .success()
    );
    let child = Command::new(env!("CARGO_BIN_EXE_smolweb"))
        .arg("--data-dir")
        .arg(d)
        .args(["sync", "--max-time", "0"])
        .env_remove("SMOLWEB_CONFIG")
        .env_remove("SMOLWEB_HOME")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Once the first post is being sent, the sync is in the middle of a fetch.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while !paths_asked(&gem).iter().any(|p| p.ends_with(".gmi")) {
        assert!(std::time::Instant::now() < deadline, "the sync never asked");
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    let pid = child.id().to_string();
    let sent = tokio::task::spawn_blocking(move || {
        Command::new("kill").args(["-INT", &pid]).status().unwrap()
    })
    .await
    .unwrap();
    assert!(sent.success());
    let o = tokio::task::spawn_blocking(move || child.wait_with_output().unwrap())
        .await
        .unwrap();
    assert_eq!(code(&o), 130, "{}{}", out(&o), err(&o));
    assert!(
        out(&o).contains(", interrupted with 2 pages left, "),
        "{}",
        out(&o)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_web_feed_is_refreshed_and_its_entries_kept_or_skipped_with_the_reason() {
    let port: Arc<OnceLock<u16>> = Arc::new(OnceLock::new());
    let p = port.clone();
    let web = support::http::Server::start(move |req| {
        let port = p.get().copied().unwrap_or(80);
        match req.path() {
            "/atom.xml" => support::http::Reply::new(
                200,
                "application/atom+xml",
                format!(
                    "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n\
                     <feed xmlns=\"http://www.w3.org/2005/Atom\"><title>Web log</title>\
                     <id>urn:test:web</id><updated>2026-11-30T00:00:00Z</updated>\
                     <entry><title>A web post</title><id>urn:test:post</id>\
                     <link href=\"http://127.0.0.1:{port}/post.html\"/>\
                     <updated>2026-11-30T00:00:00Z</updated></entry></feed>"
                ),
            ),
            _ => support::http::Reply::html(
                "<html><head><title>A web post</title></head><body><article><h1>A web \
                 post</h1><p>Some words of the article, enough to read.</p></article></body></html>",
            ),
        }
    })
    .await;
    port.set(web.port()).unwrap();
    let dir = data_dir();
    let d = dir.path();
    let o = run(d, &["feeds", "add", &web.url("/atom.xml")]).await;
    assert!(o.status.success(), "{}", err(&o));
    let o = run(d, &["sync"]).await;
    // Web pages are kept where the client keeps them, else skipped for that reason; never a
    // failure.
    assert_eq!(code(&o), 0, "{}{}", out(&o), err(&o));
    let post = web.url("/post.html");
    let kept_it = kept(d).contains(&post);
    let expected = if kept_it {
        ", 1 page kept ("
    } else {
        ", 0 pages kept (0 B), 0 queued pages fetched, 1 skipped, "
    };
    assert!(out(&o).contains(expected), "{}", out(&o));
    assert_eq!(
        web.requests()
            .iter()
            .filter(|r| r.path() == "/post.html")
            .count(),
        1
    );
}

/// On a terminal (a pty from `script`), the progress line is rewritten in place on stderr and
/// cleared before the summary; skipped pages are named there.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_terminal_gets_a_progress_line() {
    if !Path::new("/usr/bin/script").exists() {
        if std::env::var("SMOLWEB_REQUIRE_SCRIPT").as_deref() == Ok("1") {
            panic!("SMOLWEB_REQUIRE_SCRIPT=1 but /usr/bin/script is missing");
        }
        println!("*** SKIP a_terminal_gets_a_progress_line: no /usr/bin/script (util-linux)");
        return;
    }
    static POSTS: &[(&str, &str)] = &[("one.gmi", "2026-11-01"), ("two.gmi", "2026-11-20")];
    let gem = gemini::Server::start(gemlog(POSTS)).await;
    let dir = data_dir();
    let d = dir.path();
    assert!(
        run(d, &["feeds", "add", &gem.url("/log/")])
            .await
            .status
            .success()
    );
    let line = format!(
        "{} --data-dir {} sync",
        env!("CARGO_BIN_EXE_smolweb"),
        d.display()
    );
    let mut cmd = Command::new("/usr/bin/script");
    cmd.args(["-qefc", &line, "/dev/null"])
        .env_remove("SMOLWEB_CONFIG")
        .env_remove("SMOLWEB_HOME");
    let o = tokio::task::spawn_blocking(move || cmd.output().unwrap())
        .await
        .unwrap();
    assert_eq!(code(&o), 0, "{}", out(&o));
    let screen = out(&o);
    assert!(
        screen.contains("\r\x1b[2Ksync: refreshing feeds 0/1, waiting on gemini://127.0.0.1:"),
        "the feed waited on is named (issue 33): {screen:?}"
    );
    assert!(screen.contains("\r\x1b[2Ksync: pages 2/2, "), "{screen:?}");
    assert!(
        screen.contains("\r\x1b[2Ksync: 1 feed refreshed, 0 new entries, 2 pages kept ("),
        "cleared before the summary: {screen:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_broken_entry_link_is_skipped_not_a_failure() {
    let gem = gemini::Server::start(
        gemini::Routes::new()
            .route(
                "/log/",
                gemini::Reply::gemtext(
                    "# Log\n=> ok.gmi 2026-11-02 Fine\n=> gone.gmi 2026-11-01 Deleted\n",
                ),
            )
            .route("/log/ok.gmi", gemini::Reply::gemtext("# Fine\n")),
    )
    .await;
    let dir = data_dir();
    let d = dir.path();
    assert!(
        run(d, &["feeds", "add", &gem.url("/log/")])
            .await
            .status
            .success()
    );
    let o = run(d, &["sync"]).await;
    assert_eq!(code(&o), 0, "{}{}", out(&o), err(&o));
    assert!(
        out(&o).contains(", 1 page kept (") && out(&o).contains(", 1 skipped, "),
        "{}",
        out(&o)
    );
    assert_eq!(err(&o), "");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sync_runs_online_while_the_config_says_work_offline() {
    static POSTS: &[(&str, &str)] = &[("one.gmi", "2026-11-01")];
    let gem = gemini::Server::start(gemlog(POSTS)).await;
    let dir = data_dir();
    let d = dir.path();
    let o = run(d, &["feeds", "add", &gem.url("/log/")]).await;
    assert!(o.status.success(), "{}", err(&o));
    // The person reads offline: the browser and agents stay off the network ...
    let config = std::fs::read_to_string(d.join("config.toml")).unwrap();
    std::fs::write(
        d.join("config.toml"),
        format!("{config}[offline]\nwork_offline = true\n"),
    )
    .unwrap();
    let o = run(d, &["get", &gem.url("/log/one.gmi")]).await;
    assert_ne!(code(&o), 0, "offline get fetched: {}", out(&o));
    // ... and the sync is what fills the cache they read meanwhile.
    let o = run(d, &["sync"]).await;
    assert_eq!(code(&o), 0, "{}{}", out(&o), err(&o));
    assert_eq!(kept(d), [gem.url("/log/one.gmi")]);
    // Asked to sync offline is a contradiction, said as a usage error.
    let o = run(d, &["--offline", "sync"]).await;
    assert_eq!(code(&o), 2, "{}{}", out(&o), err(&o));
    assert!(err(&o).contains("--offline does not apply"), "{}", err(&o));
}
