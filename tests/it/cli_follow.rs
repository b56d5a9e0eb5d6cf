//! `smolweb feeds add --changes`, `feeds changes`, `feeds health`, `feeds adopt` and the
//! health in `smolweb sync`'s summary, through the real binary against loopback servers.

use smolweb_testkit as support;

use std::path::Path;
use std::process::{Command, Output};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use support::gemini::{Reply, Routes, Server};

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

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
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
async fn a_followed_page_prints_its_changes_with_their_diff() {
    let changed = Arc::new(AtomicBool::new(false));
    let flag = changed.clone();
    let server = Server::start(Routes::new().handler(move |_| {
        let mut page = "# Index\n=> /a.gmi Page A\nHello.\n".to_string();
        if flag.load(Ordering::SeqCst) {
            page.push_str("=> /b.gmi Page B\nA new paragraph.\n");
        }
        Reply::gemtext(&page)
    }))
    .await;
    let data = data_dir();
    let url = server.url("/index.gmi");
    let (out, err) = text(&run(data.path(), &["feeds", "add", &url, "--changes", "links"]).await);
    assert!(
        out.contains("following Index") && out.contains("for its new and removed links"),
        "{out}{err}"
    );
    changed.store(true, Ordering::SeqCst);
    let o = run(data.path(), &["feeds", "refresh"]).await;
    assert!(o.status.success(), "{:?}", text(&o));
    let (out, _) = text(&run(data.path(), &["feeds", "list"]).await);
    assert!(
        out.contains("1 unread") && out.contains("page: links"),
        "{out}"
    );
    let o = run(data.path(), &["feeds", "changes", "--since", "1h"]).await;
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    assert!(out.contains(&format!("== Index ({url})")), "{out}");
    assert!(out.contains("1 link added"), "{out}");
    assert!(
        out.contains(&format!("+ => {} Page B", server.url("/b.gmi"))),
        "{out}"
    );
    assert!(!out.contains("A new paragraph"), "links only: {out}");
    assert!(err.contains("1 new entry or change since"), "{err}");
    let o = run(data.path(), &["feeds", "changes", "--since", "someday"]).await;
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).1.contains("cannot read \"someday\" as a time"));
    // A feed URL is not followed twice as a page.
    let o = run(data.path(), &["feeds", "add", &url]).await;
    assert!(text(&o).0.contains("already subscribed"), "{:?}", text(&o));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn health_names_the_failing_the_moved_and_the_quiet_and_sync_says_so() {
    // Dates from today's, so the test says the same next year: a post six days old, and
    // one 300 days old (quiet for 10 months).
    let day = |ago: i64| {
        let d = (time::OffsetDateTime::now_utc() - time::Duration::days(ago)).date();
        format!("{}-{:02}-{:02}", d.year(), u8::from(d.month()), d.day())
    };
    let recent = day(6);
    let server = Server::start(
        Routes::new()
            .route(
                "/good/",
                Reply::gemtext(&format!("# Good\n=> a.gmi {recent} Recent post\n")),
            )
            .route(
                "/quiet/",
                Reply::gemtext(&format!("# Quiet\n=> a.gmi {} Old post\n", day(300))),
            )
            .route(
                "/page/",
                Reply::gemtext("# A wiki page\n=> /one.gmi One\nSome text.\n"),
            )
            .route(
                "/moved/",
                Reply::status(31, "gemini://new-home.example/log/"),
            ),
    )
    .await;
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let dead = format!(
        "gemini://127.0.0.1:{}/",
        closed.local_addr().unwrap().port()
    );
    drop(closed);
    let data = data_dir();
    for url in [
        server.url("/good/"),
        server.url("/quiet/"),
        server.url("/moved/"),
        dead.clone(),
    ] {
        run(data.path(), &["feeds", "add", &url]).await;
    }
    run(
        data.path(),
        &["feeds", "add", &server.url("/page/"), "--changes", "text"],
    )
    .await;
    let o = run(data.path(), &["sync", "--max-time", "20"]).await;
    let (out, err) = text(&o);
    assert!(
        out.contains("3 subscriptions need attention (1 quiet, 2 failing, 1 moved)"),
        "{out}{err}"
    );
    assert!(
        err.contains("needs attention: moved to gemini://new-home.example/log/"),
        "{err}"
    );
    let o = run(data.path(), &["feeds", "health"]).await;
    let (out, _) = text(&o);
    // The evidence, shown with --nocapture.
    println!("$ smolweb feeds health\n{out}");
    assert_eq!(o.status.code(), Some(3), "some need attention");
    let good = out.find(&server.url("/good/")).unwrap();
    for sick in [server.url("/quiet/"), server.url("/moved/"), dead.clone()] {
        assert!(out.find(&sick).unwrap() < good, "the sick first:\n{out}");
    }
    assert!(out.contains("⚠ quiet for 10 months"), "{out}");
    assert!(
        out.contains("⚠ moved to gemini://new-home.example/log/"),
        "{out}"
    );
    assert!(
        out.contains("⚠ failing: 2 refreshes in a row since"),
        "{out}"
    );
    assert!(
        out.contains("connection refused") || out.contains("cannot connect"),
        "{out}"
    );
    assert!(
        out.contains(&format!("feed · 1 entry · newest {recent} · last success")),
        "{out}"
    );
    assert!(out.contains("5 subscriptions, 3 need attention"), "{out}");
    // The followed page is among the healthy: no change yet, its kind said.
    let page = out.find(&server.url("/page/")).unwrap();
    assert!(page > out.find(&dead).unwrap(), "{out}");
    assert!(
        out[page..].contains("page, any change · 0 changes"),
        "{out}"
    );
    let moved = server.url("/moved/");
    let o = run(data.path(), &["feeds", "adopt", &moved]).await;
    assert!(
        text(&o).0.contains("at gemini://new-home.example/log/"),
        "{:?}",
        text(&o)
    );
    let (out, _) = text(&run(data.path(), &["feeds", "list"]).await);
    assert!(!out.contains(&moved) && out.contains("gemini://new-home.example/log/"));
    let o = run(data.path(), &["feeds", "adopt", &server.url("/good/")]).await;
    assert_eq!(o.status.code(), Some(2), "{:?}", text(&o));
}
