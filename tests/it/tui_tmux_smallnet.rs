//! The browser in tmux following links from a capsule to the small protocols: a nex
//! directory and its file, a scroll document, each page saying its protocol and security on
//! the status line.

use crate::tui_tmux_driver::{Tmux, tmux_available};
use smolweb_testkit as support;

use support::gemini::{Reply, Routes, Server};
use support::smallnet::{self, Protocol};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn links_open_nex_and_scroll_natively_with_their_security_on_the_status_line() {
    if !tmux_available("tui_tmux_smallnet") {
        return;
    }
    let nex = smallnet::Server::start(Protocol::Nex, |req| match req.line.as_str() {
        "" => smallnet::Reply::text("The nex side\n=> notes.txt Some notes\n"),
        _ => smallnet::Reply::text("plain notes from nex\n"),
    })
    .await;
    let scroll = smallnet::Server::start(Protocol::Scroll, |_| {
        smallnet::Reply::text("20 text/gemini\r\nAda\r\n2024-03-25\r\n2024-08-03\r\n# A scroll\n")
    })
    .await;
    let home = Server::start(Routes::new().route(
        "/",
        Reply::gemtext(&format!(
            "# Home\n=> {} Nex side\n=> {} Scroll side\n",
            nex.url("/"),
            scroll.url("/doc")
        )),
    ))
    .await;
    let data = tempfile::tempdir().unwrap();
    let command = format!(
        "{} --data-dir {} {}; echo SMOLWEB-EXIT=$?; sleep 30",
        env!("CARGO_BIN_EXE_smolweb"),
        data.path().display(),
        home.url("/")
    );
    tokio::task::spawn_blocking(move || {
        let t = Tmux::start("smallnet", &command, 100, 24);
        t.wait_for("[2] Scroll side");
        t.keys(&["1"]);
        let s = t.wait_for("nex · not encrypted");
        assert!(
            s.contains("The nex side") && s.contains("Some notes"),
            "{s}"
        );
        t.keys(&["1"]);
        let s = t.wait_for("plain notes from nex");
        assert!(s.contains("nex · not encrypted"), "{s}");
        t.keys(&["b", "b"]);
        t.wait_for("[2] Scroll side");
        t.keys(&["2"]);
        let s = t.wait_for("scroll · TLS, pinned");
        assert!(s.contains("A scroll"), "{s}");
        t.keys(&["i"]);
        let s = t.wait_for("Author");
        assert!(s.contains("Ada") && s.contains("2024-08-03"), "{s}");
        println!("{s}");
        t.keys(&["Escape", "q"]);
        t.wait_for("SMOLWEB-EXIT=0");
    })
    .await
    .unwrap();
}
