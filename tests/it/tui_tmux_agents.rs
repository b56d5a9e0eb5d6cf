//! End to end: the real browser in tmux beside an agent's files. A suggestion waiting in the
//! data directory shows as a badge; `A` opens `about:agents` with the sessions; a call an
//! agent makes while it is open appears live; the suggestion opens from the page; `P` shares
//! the page with a note, which lands in the shared-pages store. Without tmux it prints a loud
//! SKIP and passes, unless SMOLWEB_REQUIRE_TMUX=1.

use crate::tui_tmux_driver;
use smolweb_testkit as support;

use smolweb_store::activity::{Activity, Entry, Event, Limits};
use smolweb_store::shared::SharedPages;
use smolweb_store::suggestions::Suggestions;
use support::gemini::{Reply, Routes, Server};
use tui_tmux_driver::{Tmux, tmux_available};

fn call(log: &Activity, session: &str, url: &str) {
    log.append(&Entry::new(
        session,
        time::OffsetDateTime::now_utc(),
        Event::Call {
            tool: "gemini_fetch".into(),
            url: Some(url.into()),
            urls: None,
            outcome: "gemtext".into(),
            error: false,
            bytes: Some(120),
            cached: Some(false),
            ms: 5,
        },
    ))
    .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_badge_about_agents_live_a_suggestion_opened_and_a_share() {
    if !tmux_available("tui_tmux_agents") {
        return;
    }
    let server = Server::start(
        Routes::new()
            .route("/", Reply::gemtext("# Home capsule\n\nHello.\n"))
            .route(
                "/look.gmi",
                Reply::gemtext("# The suggested page\n\nRead me.\n"),
            ),
    )
    .await;
    let data = tempfile::tempdir().unwrap();
    let dir = data.path().to_path_buf();
    std::fs::write(
        dir.join("config.toml"),
        "[politeness]\nper_host_interval_ms = 0\n[network]\ntimeout_seconds = 5\n",
    )
    .unwrap();
    let log = Activity::new(dir.join("agent_activity.jsonl"), Limits::default());
    log.append(&Entry::new(
        "c1a0de01",
        time::OffsetDateTime::now_utc(),
        Event::Start {
            client: "claude-code".into(),
            version: "2.0".into(),
            pid: 1,
        },
    ))
    .unwrap();
    call(&log, "c1a0de01", &server.url("/notes.gmi"));
    Suggestions::new(dir.join("suggestions.toml"))
        .add(
            &server.url("/look.gmi"),
            Some("The form you asked about"),
            "claude-code",
            "c1a0de01",
            time::OffsetDateTime::now_utc(),
        )
        .unwrap();
    let home = server.url("/");
    let command = format!(
        "{} --data-dir {} {home}; echo SMOLWEB-EXIT=$?; sleep 30",
        env!("CARGO_BIN_EXE_smolweb"),
        dir.display(),
    );
    let live = server.url("/live-entry.gmi");
    let look = server.url("/look.gmi");
    tokio::task::spawn_blocking(move || {
        let t = Tmux::start("agents", &command, 110, 30);
        t.wait_for("Home capsule");
        let s = t.wait_for("an agent suggests a page");
        assert!(s.contains("agent active: claude-code 2.0"), "{s}");
        println!("--- the badge ---\n{s}");

        t.keys(&["A"]);
        let s = t.wait_for("Suggested by agents");
        assert!(s.contains("The form you asked about"), "{s}");
        assert!(s.contains("claude-code 2.0 · active"), "{s}");
        // A call made while the page is open appears without a key.
        call(&log, "c1a0de01", &live);
        let s = t.wait_for("live-entry.gmi");
        println!("--- about:agents ---\n{s}");

        // Link 1 is the suggested page, 2 opens it (and takes it off the list).
        t.keys(&["2"]);
        t.wait_for("Read me.");
        let pending = Suggestions::new(dir.join("suggestions.toml"))
            .pending()
            .unwrap();
        assert!(pending.is_empty(), "{pending:?}");

        t.keys(&["P"]);
        t.wait_for("note (optional");
        t.type_text("check the dates");
        t.keys(&["Enter"]);
        t.wait_for("shared with agents as smolweb://shared/");
        let shared = SharedPages::new(dir.join("shared_pages.toml"))
            .list()
            .unwrap();
        assert_eq!(shared.len(), 1);
        assert_eq!(shared[0].url, look);
        assert_eq!(shared[0].note.as_deref(), Some("check the dates"));
        assert_eq!(shared[0].title.as_deref(), Some("The suggested page"));
        t.keys(&["q"]);
        t.wait_for("SMOLWEB-EXIT=0");
    })
    .await
    .unwrap();
}
