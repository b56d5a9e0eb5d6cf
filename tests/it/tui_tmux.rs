//! End to end: the real binary in tmux against the in-process test servers. Opens a page,
//! follows a link by number, goes back, answers an input prompt, searches deep inside the
//! 20,000-character line of a big page, saves a binary download, and sees the warning when
//! the server's certificate changes; and follows an https link into the reader view (main
//! content, full page, the external browser that cannot start) and back. Without tmux it prints a loud SKIP and passes, unless
//! SMOLWEB_REQUIRE_TMUX=1.

use crate::tui_tmux_driver;
use smolweb_testkit as support;

use std::sync::Arc;
use support::certs::TestCert;
use support::gemini::{Reply, Routes, Server};
use tui_tmux_driver::{Tmux, tmux_available};

/// A big page: many short lines, then one line of 20,000 characters with a word near its end.
fn big_page() -> String {
    let mut g = String::from("# Big page\n\n");
    for i in 0..2_000 {
        g.push_str(&format!(
            "Line {i}: the quick brown fox jumps over the lazy dog.\n"
        ));
    }
    let mut long = String::new();
    while long.len() < 19_000 {
        long.push_str("lorem ipsum dolor sit amet ");
    }
    long.push_str("zebrafinch sings here ");
    while long.len() < 20_000 {
        long.push_str("tail words ");
    }
    g.push_str(&long);
    g.push_str("\nThe end.\n");
    g
}

fn routes() -> Routes {
    Routes::new()
        .route(
            "/",
            Reply::gemtext(
                "# Test home\n\n=> /next Next page\n=> /ask Ask me\n=> /big.gmi Big page\n=> /file.bin A file\n",
            ),
        )
        .route("/big.gmi", Reply::gemtext(&big_page()))
        .route(
            "/file.bin",
            Reply::ok("application/octet-stream", vec![0u8, 1, 2, 3, 255, 254]),
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
    let downloads = data.path().join("dl");
    std::fs::write(
        data.path().join("config.toml"),
        format!(
            "[politeness]\nper_host_interval_ms = 0\n[tui]\ndownloads_dir = \"{}\"\n",
            downloads.display()
        ),
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

        // Search deep inside the long line: the match's row is on screen, not the line's start.
        t.keys(&["b", "3"]);
        t.wait_for("Line 0: the quick brown fox");
        t.keys(&["/"]);
        t.type_text("zebrafinch");
        t.keys(&["Enter"]);
        let s = t.wait_for("match 1 of 1 for 'zebrafinch'");
        assert!(s.contains("zebrafinch sings here"), "{s}");
        assert!(
            !s.contains("Line 1999"),
            "scrolled past the short lines: {s}"
        );

        // A binary answer asks first, then is saved to the downloads directory.
        t.keys(&["b", "4"]);
        let s = t.wait_for("application/octet-stream");
        assert!(s.contains("file.bin") && s.contains("6 B"), "{s}");
        t.keys(&["s"]);
        t.wait_for("saved to");
        let saved = std::fs::read(downloads.join("file.bin")).unwrap();
        assert_eq!(saved, [0u8, 1, 2, 3, 255, 254]);
        t.wait_for("[2] Ask me");

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

const ARTICLE: &str = r#"<!doctype html><html><head><title>Harbour tides</title></head><body>
<nav><a href="/">Home</a> <a href="/about">About</a></nav>
<article><h1>Harbour tides</h1>
<p>The harbour fills slowly because the channel is long and narrow, and the water needs time to climb the shallow bar at its mouth, so boats wait outside.</p>
<ul><li>first point</li><li>second point</li></ul></article>
<footer>Footer of the whole site</footer></body></html>"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_https_link_opens_in_the_reader_view_and_back() {
    use support::http::{Reply as WebReply, Server as WebServer, TestCa};
    if !tmux_available("tui_tmux") {
        return;
    }
    let ca = TestCa::new();
    let web = WebServer::start_tls(&ca, |r| match r.path() {
        "/tides" => WebReply::html(ARTICLE),
        _ => WebReply::new(404, "text/plain", ""),
    })
    .await;
    let tides = web.url("/tides");
    let home = Server::start(Routes::new().route(
        "/",
        Reply::gemtext(&format!("# Test home\n\n=> {tides} Tides\n")),
    ))
    .await;
    let data = tempfile::tempdir().unwrap();
    let pem = ca.write_pem(data.path());
    std::fs::write(
        data.path().join("config.toml"),
        format!(
            "[politeness]\nper_host_interval_ms = 0\n[tui]\nexternal_command = \"/nonexistent/smolweb-test-browser\"\n[web]\nextra_root_certificates = [\"{}\"]\n",
            pem.display()
        ),
    )
    .unwrap();
    let command = format!(
        "{} --data-dir {} {}; echo SMOLWEB-EXIT=$?; sleep 30",
        env!("CARGO_BIN_EXE_smolweb"),
        data.path().display(),
        home.url("/")
    );
    tokio::task::spawn_blocking(move || {
        let t = Tmux::start("reader", &command, 100, 30);
        t.wait_for("[1] Tides");
        t.keys(&["1"]);
        let s = t.wait_for("web · certificate verified · main");
        assert!(
            s.contains("Harbour tides") && s.contains("• first point"),
            "{s}"
        );
        assert!(!s.contains("Footer of the whole site"), "{s}");

        t.keys(&["v"]);
        let s = t.wait_for("web · certificate verified · full");
        assert!(s.contains("Footer of the whole site"), "{s}");

        t.keys(&["E"]);
        let s = t.wait_for("Copy");
        assert!(
            s.contains("smolweb-test-browser") && s.contains("/tides"),
            "{s}"
        );
        t.keys(&["n"]);

        t.keys(&["b"]);
        let s = t.wait_for("[1] Tides");
        assert!(!s.contains("web · certificate verified"), "{s}");

        t.keys(&["q"]);
        t.wait_for("SMOLWEB-EXIT=0");
    })
    .await
    .unwrap();
}
