//! End to end: the real binary in tmux against an in-process capsule. Follows a gemlog with
//! `S`, reads `about:feeds`, visits an entry (it becomes read), saves a page for offline
//! reading and sees it on `about:offline`, then stops the server: the failed reload offers
//! the offline copy with its age and `C` shows it. Without tmux it prints a loud SKIP and
//! passes, unless SMOLWEB_REQUIRE_TMUX=1.

use crate::tui_tmux_driver;
use smolweb_testkit as support;

use support::gemini::{Reply, Routes, Server};
use tui_tmux_driver::{Tmux, tmux_available};

fn routes() -> Routes {
    Routes::new()
        .route(
            "/gemlog/",
            Reply::gemtext(
                "# Ada's gemlog\n\n=> frost.gmi 2026-11-30 Frost on the capsule\n=> rain.gmi 2026-11-02 Rain all day\n",
            ),
        )
        .route(
            "/gemlog/frost.gmi",
            Reply::gemtext("# Frost\n\nThe capsule is white this morning.\n"),
        )
        .route("/gemlog/rain.gmi", Reply::gemtext("# Rain\n\nWet.\n"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn follow_read_save_and_read_offline_when_the_server_is_gone() {
    if !tmux_available("tui_tmux_feeds") {
        return;
    }
    let server = Server::start(routes()).await;
    let data = tempfile::tempdir().unwrap();
    std::fs::write(
        data.path().join("config.toml"),
        "[politeness]\nper_host_interval_ms = 0\n[network]\ntimeout_seconds = 5\n",
    )
    .unwrap();
    let gemlog = server.url("/gemlog/");
    let command = format!(
        "{} --data-dir {} {}; echo SMOLWEB-EXIT=$?; sleep 30",
        env!("CARGO_BIN_EXE_smolweb"),
        data.path().display(),
        gemlog
    );
    tokio::task::spawn_blocking(move || {
        let t = Tmux::start("feeds", &command, 110, 30);
        t.wait_for("Ada's gemlog");
        t.wait_for("certificate pinned");

        t.keys(&["S"]);
        t.wait_for("following Ada's gemlog: 2 entries");

        t.keys(&["F"]);
        let s = t.wait_for("## 2026-11-30");
        assert!(s.contains("● Frost on the capsule · Ada's gemlog"), "{s}");

        // Visiting an entry marks it read.
        t.keys(&["1"]);
        t.wait_for("white this morning");
        t.keys(&["b", "r"]);
        let s = t.wait_for("1 unread");
        assert!(
            s.contains("Frost on the capsule") && !s.contains("● Frost"),
            "{s}"
        );

        // Save the entry page for offline reading: it links nowhere, so nothing is asked.
        t.keys(&["1"]);
        t.wait_for("white this morning");
        t.keys(&["o"]);
        t.wait_for("for offline reading");
        t.keys(&["O"]);
        let s = t.wait_for("Offline reading list");
        assert!(s.contains("1 saved page ") && s.contains("Frost"), "{s}");

        // The server goes away: the reload fails and the kept copy is offered.
        drop(server);
        t.keys(&["b", "r"]);
        let s = t.wait_for("Read the offline copy");
        assert!(s.contains("s old, C)"), "{s}");
        t.keys(&["C"]);
        let s = t.wait_for("offline copy, ");
        assert!(s.contains("white this morning"), "{s}");

        t.keys(&["q"]);
        t.wait_for("SMOLWEB-EXIT=0");
    })
    .await
    .unwrap();
}
