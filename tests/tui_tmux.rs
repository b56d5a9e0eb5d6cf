//! End to end: the real binary in tmux against the in-process test servers. Opens a page,
//! follows a link by number, goes back, answers an input prompt, and sees the warning when the
//! server's certificate changes. Without tmux it prints a loud SKIP and passes, unless
//! SMOLWEB_REQUIRE_TMUX=1.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;
mod tui_tmux_driver;

use std::sync::Arc;
use support::certs::TestCert;
use support::gemini::{Reply, Routes, Server};
use tui_tmux_driver::{Tmux, tmux_available};

fn routes() -> Routes {
    Routes::new()
        .route(
            "/",
            Reply::gemtext("# Test home\n\n=> /next Next page\n=> /ask Ask me\n"),
        )
        .route("/next", Reply::gemtext("# Next page\n\nYou followed it.\n"))
        .handler(|req| match (req.path.as_str(), &req.query) {
            ("/ask", None) => Reply::status(10, "Your name?"),
            ("/ask", Some(q)) => Reply::gemtext(&format!("# Hello {q}\n")),
            _ => Reply::status(51, "not found"),
        })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browse_follow_back_input_and_changed_certificate() {
    if !tmux_available("tui_tmux") {
        return;
    }
    let server = Arc::new(Server::start(routes()).await);
    let data = tempfile::tempdir().unwrap();
    std::fs::write(
        data.path().join("config.toml"),
        "[politeness]\nper_host_interval_ms = 0\n",
    )
    .unwrap();
    let command = format!(
        "{} --data-dir {} {}; echo SMOLWEB-EXIT=$?; sleep 30",
        env!("CARGO_BIN_EXE_smolweb"),
        data.path().display(),
        server.url("/")
    );
    let srv = Arc::clone(&server);
    tokio::task::spawn_blocking(move || {
        let t = Tmux::start("browse", &command, 100, 30);
        let s = t.wait_for("Test home");
        assert!(s.contains("[1] Next page"), "{s}");
        t.wait_for("certificate pinned");

        t.keys(&["1"]);
        t.wait_for("You followed it.");

        t.keys(&["b"]);
        let s = t.wait_for("[2] Ask me");
        assert!(!s.contains("You followed it."), "{s}");

        t.keys(&["2"]);
        t.wait_for("Your name?");
        t.type_text("Ada");
        t.keys(&["Enter"]);
        t.wait_for("Hello Ada");

        srv.set_cert(TestCert::new());
        t.keys(&["b", "r"]);
        let s = t.wait_for("Warning: the certificate");
        assert!(
            s.contains("Trust the new certificate for this session only"),
            "{s}"
        );

        t.keys(&["q"]);
        t.wait_for("SMOLWEB-EXIT=0");
    })
    .await
    .unwrap();
}
