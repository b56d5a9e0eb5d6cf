//! The third walk (issue 33) in a real terminal: tmux answers no graphics question, so the
//! browser's answer is read in the background while the page is already drawn, and a key
//! pressed at once still works; the outline; a session that comes back after a quit, with the
//! tabs and the place on the page; the light theme's colours; an identity imported on the
//! identities screen. Without tmux: a loud SKIP, unless SMOLWEB_REQUIRE_TMUX=1.

use crate::tui_tmux_driver::{Tmux, tmux_available};
use smolweb_testkit::gemini::{Reply, Routes, Server};
use std::path::Path;

fn long_page() -> String {
    let mut body = String::from("# The long read\nIntroduction.\n```\npreformatted art\n```\n");
    for part in ["Part one", "Part two", "Part three"] {
        body.push_str(&format!("## {part}\n"));
        for i in 0..40 {
            body.push_str(&format!("{part}, line {i}.\n"));
        }
    }
    body
}

fn routes() -> Routes {
    Routes::new()
        .route(
            "/",
            Reply::gemtext("# Start\n=> /long.gmi The long read\n=> /b.gmi Page B\n"),
        )
        .route("/long.gmi", Reply::gemtext(&long_page()))
        .route("/b.gmi", Reply::gemtext("# Page B\nAll about B.\n"))
}

fn browser(data: &Path, url: &str) -> String {
    format!(
        "env -u SMOLWEB_IMAGES {} --data-dir {} {url}; echo SMOLWEB-EXIT=$?; sleep 30",
        env!("CARGO_BIN_EXE_smolweb"),
        data.display()
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_key_at_once_works_and_the_outline_jumps() {
    if !tmux_available("tui_tmux_walk3") {
        return;
    }
    let server = Server::start(routes()).await;
    let data = tempfile::tempdir().unwrap();
    let command = browser(data.path(), &server.url("/long.gmi"));
    tokio::task::spawn_blocking(move || {
        let t = Tmux::start("walk3-outline", &command, 100, 30);
        // The page shows while tmux leaves the graphics question unanswered (half a second):
        // the outline key, sent the moment it shows, is read with the answer and works.
        t.wait_for("The long read");
        t.keys(&["#"]);
        let s = t.wait_for("Outline");
        println!("{s}");
        assert!(
            s.contains("  Part two") && s.contains("The long read"),
            "{s}"
        );
        t.keys(&["j", "j", "Enter"]);
        let s = t.wait_for("Part two, line 0.");
        assert!(!s.contains("Introduction."), "{s}");
        t.keys(&["C-d"]);
        let s = t.wait_for("§ Part two");
        println!("{s}");
        t.keys(&["q"]);
        t.wait_for("SMOLWEB-EXIT=0");
    })
    .await
    .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_tabs_come_back_after_a_quit() {
    if !tmux_available("tui_tmux_walk3") {
        return;
    }
    let server = Server::start(routes()).await;
    let data = tempfile::tempdir().unwrap();
    let first = browser(data.path(), &server.url("/"));
    let again = browser(data.path(), "");
    let session = data.path().join("session.toml");
    tokio::task::spawn_blocking(move || {
        let t = Tmux::start("walk3-session", &first, 100, 30);
        t.wait_for("[1] The long read");
        t.keys(&["1"]);
        t.wait_for("Introduction.");
        t.keys(&["#", "j", "j", "Enter"]);
        t.wait_for("Part two, line 0.");
        // Page B in a tab behind this one.
        t.keys(&["b"]);
        t.wait_for("[2] Page B");
        t.keys(&["Tab", "Tab", "M-t"]);
        t.wait_for("in tab 2");
        t.keys(&["f"]);
        t.wait_for("Part two, line 0.");
        t.keys(&["q"]);
        t.wait_for("SMOLWEB-EXIT=0");
        drop(t);
        let kept = std::fs::read_to_string(&session).unwrap();
        assert!(
            kept.contains("long.gmi") && kept.contains("b.gmi"),
            "{kept}"
        );
        // Started again without a URL: both tabs, the long read where it was.
        let t = Tmux::start("walk3-session2", &again, 100, 30);
        let s = t.wait_for("Part two, line 0.");
        println!("{s}");
        assert!(!s.contains("Introduction."), "the place came back: {s}");
        assert!(s.contains("tab 1/2"), "{s}");
        t.keys(&["b"]);
        t.wait_for("[1] The long read");
        t.keys(&["C-n"]);
        t.wait_for("All about B.");
        t.keys(&["q"]);
        t.wait_for("SMOLWEB-EXIT=0");
    })
    .await
    .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_light_theme_draws_dark_colours() {
    if !tmux_available("tui_tmux_walk3") {
        return;
    }
    let server = Server::start(routes()).await;
    let data = tempfile::tempdir().unwrap();
    std::fs::write(
        data.path().join("config.toml"),
        "[tui]\ntheme = \"light\"\n",
    )
    .unwrap();
    let command = browser(data.path(), &server.url("/long.gmi"));
    tokio::task::spawn_blocking(move || {
        let t = Tmux::start("walk3-light", &command, 100, 30);
        t.wait_for("preformatted art");
        let s = t.screen_with_colours();
        // Preformatted text in colour 94 (brown), not the dark theme's yellow (33).
        let line = s
            .lines()
            .find(|l| l.contains("preformatted art"))
            .unwrap()
            .to_string();
        println!("{line:?}");
        assert!(line.contains("38;5;94"), "{line:?}");
        assert!(!line.contains("[33m"), "{line:?}");
        t.keys(&["q"]);
        t.wait_for("SMOLWEB-EXIT=0");
    })
    .await
    .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_identity_is_imported_on_the_identities_screen() {
    if !tmux_available("tui_tmux_walk3") {
        return;
    }
    let server = Server::start(routes()).await;
    let data = tempfile::tempdir().unwrap();
    // A certificate and key as another browser made them (PKCS#8, P-256).
    let key = rcgen::KeyPair::generate().unwrap();
    let mut params = rcgen::CertificateParams::default();
    let mut dn = rcgen::DistinguishedName::new();
    dn.push(rcgen::DnType::CommonName, "from-lagrange");
    params.distinguished_name = dn;
    let cert = params.self_signed(&key).unwrap();
    let files = tempfile::tempdir().unwrap();
    let (crt, pem) = (files.path().join("me.crt"), files.path().join("me.key"));
    std::fs::write(&crt, cert.pem()).unwrap();
    std::fs::write(&pem, key.serialize_pem()).unwrap();
    let secret = key.serialize_pem().lines().nth(1).unwrap().to_string();
    let command = browser(data.path(), &server.url("/"));
    let scope = server.url("/club/");
    tokio::task::spawn_blocking(move || {
        let t = Tmux::start("walk3-import", &command, 110, 30);
        t.wait_for("[1] The long read");
        t.keys(&["I"]);
        let s = t.wait_for("import");
        assert!(s.contains("i import"), "{s}");
        t.keys(&["i"]);
        t.wait_for("certificate file");
        t.type_text(crt.to_str().unwrap());
        t.keys(&["Enter"]);
        t.wait_for("private key file");
        t.type_text(pem.to_str().unwrap());
        t.keys(&["Enter"]);
        t.wait_for("present it at");
        t.keys(&["C-u"]);
        t.type_text(&scope);
        t.keys(&["Enter"]);
        let s = t.wait_for("imported identity 'from-lagrange'");
        println!("{s}");
        assert!(s.contains("from-lagrange  gemini://127.0.0.1:"), "{s}");
        assert!(!s.contains(&secret), "{s}");
        t.keys(&["q"]);
        t.wait_for("SMOLWEB-EXIT=0");
    })
    .await
    .unwrap();
}
