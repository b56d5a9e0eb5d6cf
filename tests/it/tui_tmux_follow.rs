//! End to end: the real binary in tmux follows a capsule's page that is not a feed (`S`, then
//! "any change of its text"), the page changes on the loopback server, `alt-r` refreshes:
//! the change is an unread entry on `about:feeds`, its number opens `about:changes` with the
//! links and paragraphs added and removed in the page's own rendering, and
//! `about:feeds?health` lists the sick subscriptions first (one failing, one moved, with the
//! link that adopts it) and the followed page among the healthy. Each screen is printed (run
//! with `--nocapture` to keep them). Without tmux it prints a loud SKIP and passes, unless
//! SMOLWEB_REQUIRE_TMUX=1.

use crate::tui_tmux_driver;
use smolweb_testkit as support;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use support::gemini::{Reply, Routes, Server};
use tui_tmux_driver::{Tmux, link_number, tmux_available};

fn show(label: &str, screen: &str) {
    println!("----- {label} -----\n{screen}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn follow_a_page_see_its_change_its_diff_and_the_health_view() {
    if !tmux_available("tui_tmux_follow") {
        return;
    }
    let changed = Arc::new(AtomicBool::new(false));
    let flag = changed.clone();
    let routes = Routes::new().handler(move |r| match r.path.as_str() {
        "/wiki/" => {
            let mut page = String::from(
                "# Tardigrade wiki\n\nWater bears live in moss and survive drying out.\n\
                 => /moss.gmi Moss\n",
            );
            if flag.load(Ordering::SeqCst) {
                page.push_str(
                    "They were found in Antarctic lichen as well.\n=> /lichen.gmi Lichen\n",
                );
            } else {
                page.push_str("=> /old-news.gmi Old news\n");
            }
            Reply::gemtext(&page)
        }
        "/log/" => Reply::gemtext("# Moss log\n=> a.gmi 2026-11-30 Moss in winter\n"),
        "/old-log/" => Reply::status(31, "/log/"),
        _ => Reply::status(51, "not found"),
    });
    let server = Server::start(routes).await;
    let data = tempfile::tempdir().unwrap();
    std::fs::write(
        data.path().join("config.toml"),
        "[politeness]\nper_host_interval_ms = 0\n[network]\ntimeout_seconds = 5\n",
    )
    .unwrap();
    let bin = env!("CARGO_BIN_EXE_smolweb");
    // A feed that moved for good and one that is gone, followed with the CLI.
    for path in ["/old-log/", "/gone/"] {
        let o = std::process::Command::new(bin)
            .arg("--data-dir")
            .arg(data.path())
            .args(["feeds", "add", &server.url(path)])
            .env_remove("SMOLWEB_CONFIG")
            .env_remove("SMOLWEB_HOME")
            .output()
            .unwrap();
        assert!(o.status.code().is_some(), "{o:?}");
    }
    let wiki = server.url("/wiki/");
    let command = format!(
        "{bin} --data-dir {} {wiki}; echo SMOLWEB-EXIT=$?; sleep 30",
        data.path().display(),
    );
    tokio::task::spawn_blocking(move || {
        let t = Tmux::start("follow", &command, 100, 34);
        t.wait_for("Water bears live in moss");

        t.keys(&["S"]);
        let s = t.wait_for("For any change of its text");
        show("S on a page without a feed", &s);
        let n = link_number(&s, "For any change of its text");
        t.keys(&[&n]);
        let s = t.wait_for("its first copy is kept");
        show("following the page", &s);

        // The page changes on the server: a paragraph and a link added, a link removed.
        changed.store(true, Ordering::SeqCst);
        t.keys(&["F"]);
        t.wait_for("# Feeds");
        t.keys(&["M-r"]);
        let s = t.wait_for("1 link added, 1 removed · 1 paragraph added");
        show("about:feeds after the refresh: the change entry", &s);
        assert!(
            s.contains("● 1 link added, 1 removed · 1 paragraph added · Tardigrade wiki"),
            "{s}"
        );
        assert!(s.contains("need attention"), "{s}");

        let n = link_number(&s, "1 paragraph added · Tardigrade wiki");
        t.keys(&[&n]);
        let s = t.wait_for("Changes: Tardigrade wiki");
        show("about:changes: the change's diff", &s);
        for want in [
            "Links added",
            "Lichen",
            "Links removed",
            "Old news",
            "Antarctic lichen",
        ] {
            assert!(s.contains(want), "{want}: {s}");
        }
        assert!(!s.contains("Moss\n"), "an unchanged link is no change: {s}");

        t.keys(&[":", "C-u"]);
        t.type_text("about:feeds?health");
        t.keys(&["Enter"]);
        let s = t.wait_for("Health of your subscriptions");
        let s = if s.contains("Healthy") {
            s
        } else {
            t.wait_for("Healthy")
        };
        show("about:feeds?health", &s);
        assert!(s.contains("3 subscriptions · 2 need attention"), "{s}");
        assert!(s.contains("Needs attention"), "{s}");
        assert!(s.contains("failing: ") && s.contains("in a row"), "{s}");
        assert!(
            s.contains(&format!("moved to {}", server.url("/log/"))),
            "{s}"
        );
        assert!(s.contains("Follow it at its new address"), "{s}");
        let attention = s.find("Needs attention").unwrap();
        let healthy = s.find("Healthy").unwrap();
        let wiki_at = s.find("Tardigrade wiki").unwrap();
        assert!(attention < healthy && healthy < wiki_at, "{s}");

        t.keys(&["q"]);
        t.wait_for("SMOLWEB-EXIT=0");
    })
    .await
    .unwrap();
}
