//! The browser in tmux following links from a capsule to the small protocols: a nex
//! directory and its file, a scroll document, each page saying its protocol and security on
//! the status line.

use crate::tui_tmux_driver::{Tmux, tmux_available};
use smolweb_testkit as support;

use support::gemini::{Reply, Routes, Server};
use support::smallnet::{self, Protocol};

/// The browser's command line on a fresh data directory, opening `url`.
fn browser(data: &tempfile::TempDir, url: &str) -> String {
    format!(
        "{} --data-dir {} {url}; echo SMOLWEB-EXIT=$?; sleep 30",
        env!("CARGO_BIN_EXE_smolweb"),
        data.path().display(),
    )
}

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
    let command = browser(&data, &home.url("/"));
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
        t.keys(&["Escape"]);
        t.wait_gone("Author");
        t.keys(&["q"]);
        t.wait_for("SMOLWEB-EXIT=0");
    })
    .await
    .unwrap();
}

/// The browser follows a link to guppy:// (issue 31's proof through the browser): the page
/// arrives over UDP in reordered packets and the status line names the protocol and says it
/// is not encrypted, as for every small protocol.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_link_opens_guppy_natively() {
    if !tmux_available("tui_tmux_smallnet (guppy)") {
        return;
    }
    let knobs = support::guppy::Knobs {
        chunk: 24,
        reverse: true,
        ..support::guppy::Knobs::default()
    };
    let guppy = support::guppy::Server::start(knobs, |_| {
        support::guppy::Reply::gemtext("# The guppy side\nSmall documents over UDP.\n")
    })
    .await;
    let home = Server::start(Routes::new().route(
        "/",
        Reply::gemtext(&format!("# Home\n=> {} Guppy side\n", guppy.url("/"))),
    ))
    .await;
    let data = tempfile::tempdir().unwrap();
    let command = browser(&data, &home.url("/"));
    tokio::task::spawn_blocking(move || {
        let t = Tmux::start("guppy", &command, 100, 24);
        t.wait_for("[1] Guppy side");
        t.keys(&["1"]);
        let s = t.wait_for("guppy · not encrypted");
        assert!(
            s.contains("The guppy side") && s.contains("Small documents over UDP."),
            "{s}"
        );
        println!("{s}");
        t.keys(&["q"]);
        t.wait_for("SMOLWEB-EXIT=0");
    })
    .await
    .unwrap();
}
