//! End to end, the offline walk: the real binary in tmux against an in-process capsule and
//! web server. Pages are visited while the servers are up (a capsule page and a web article
//! in the reader view), the servers stop, `alt-o` turns the work-offline mode on: the status
//! line says `offline`, pages open from the offline cache with their age (the article's whole
//! page too, `v`, from the one kept body), a link to a page that is not kept says so and
//! offers the sync queue, and the queued page is written to the sync queue. A second run
//! with `--offline` starts in the mode. Without tmux it prints a loud SKIP and passes, unless
//! SMOLWEB_REQUIRE_TMUX=1. The screens are printed (run with --nocapture to see them).

use crate::tui_tmux_driver;
use smolweb_testkit as support;

use support::gemini::{Reply, Routes, Server};
use tui_tmux_driver::{Tmux, tmux_available};

const ARTICLE: &str = "<html><head><title>Night trains</title></head><body>\
<nav><a href=\"/\">Home</a></nav><article><h1>Night trains</h1>\
<p>The sleeper leaves at ten and arrives with the morning; nothing loads on the way, so \
what you read is what you kept before you left. This paragraph runs long so that the \
reader view keeps it as the main content of the page.</p>\
<p>A second paragraph of the article, long enough to be counted as its text as well, \
about the dining car and the quiet of the corridor at night.</p></article>\
<footer>Footer that only the whole page shows</footer></body></html>";

fn show(label: &str, screen: &str) {
    println!("----- {label} -----\n{screen}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn offline_walk_with_the_servers_stopped() {
    if !tmux_available("tui_tmux_offline") {
        return;
    }
    let web = support::http::Server::start(|r| match r.path() {
        "/article" => support::http::Reply::html(ARTICLE),
        _ => support::http::Reply::new(404, "text/plain", "no"),
    })
    .await;
    let article = web.url("/article");
    let home = format!(
        "# Station\n\n=> /a Platform A\n=> /b Platform B\n=> {article} Night trains article\n"
    );
    let server = Server::start(
        Routes::new()
            .route("/", Reply::gemtext(&home))
            .route(
                "/a",
                Reply::gemtext("# Platform A\n\nTrains to the north.\n"),
            )
            .route(
                "/b",
                Reply::gemtext("# Platform B\n\nTrains to the south.\n"),
            ),
    )
    .await;
    let data = tempfile::tempdir().unwrap();
    std::fs::write(
        data.path().join("config.toml"),
        "[politeness]\nper_host_interval_ms = 0\n[network]\ntimeout_seconds = 5\n",
    )
    .unwrap();
    let start = server.url("/");
    let bin = env!("CARGO_BIN_EXE_smolweb");
    let command = format!(
        "{bin} --data-dir {} {start}; echo SMOLWEB-EXIT=$?; sleep 30",
        data.path().display(),
    );
    let queue_file = data.path().join("sync_queue.toml");
    let data_path = data.path().to_path_buf();
    let page_b = server.url("/b");
    tokio::task::spawn_blocking(move || {
        let t = Tmux::start("offline", &command, 110, 30);
        t.wait_for("Platform A");
        t.wait_for("certificate pinned");
        // Online: visit Platform A and the article (kept as they are read).
        t.keys(&["1"]);
        t.wait_for("Trains to the north");
        t.keys(&["b", "3"]);
        t.wait_for("sleeper leaves at ten");
        t.keys(&["b"]);
        t.wait_for("Platform B");

        // The servers stop; working offline, nothing is fetched.
        drop(server);
        drop(web);
        t.keys(&["M-o"]);
        let s = t.wait_for("working offline");
        show("alt-o: working offline", &s);
        t.keys(&["r"]);
        let s = t.wait_for("offline · kept");
        show("the start page reloaded from the offline cache", &s);
        t.keys(&["1"]);
        let s = t.wait_for("Trains to the north");
        let s = if s.contains("offline: kept") {
            s
        } else {
            t.wait_for("offline · kept")
        };
        show("Platform A from the offline cache", &s);
        t.keys(&["b", "3"]);
        let s = t.wait_for("sleeper leaves at ten");
        assert!(!s.contains("Footer that only"), "{s}");
        show("the article from the offline cache (main content)", &s);
        t.keys(&["v"]);
        let s = t.wait_for("Footer that only the whole page shows");
        show("v: the whole article from the same kept copy", &s);
        t.keys(&["v", "b"]);
        t.wait_for("Platform B");

        // Platform B was never visited: not kept, offered for the next sync.
        t.keys(&["2"]);
        let s = t.wait_for("Queue it");
        show("a link to a page that is not kept", &s);
        t.keys(&["y"]);
        let s = t.wait_for("queued gemini:");
        show("queued", &s);
        let queued = std::fs::read_to_string(&queue_file).unwrap();
        assert!(queued.contains(&page_b), "{queued}");
        t.keys(&["O"]);
        let s = t.wait_for("about:offline");
        show("about:offline", &s);

        t.keys(&["q"]);
        t.wait_for("SMOLWEB-EXIT=0");
        drop(t);

        // `--offline` starts in the mode; the start page says so and `get` reads the cache.
        let command = format!(
            "{bin} --offline --data-dir {} {start}; echo SMOLWEB-EXIT=$?; sleep 30",
            data_path.display(),
        );
        let t = Tmux::start("offline2", &command, 110, 30);
        let s = t.wait_for("offline · kept");
        show("--offline: the start page from the offline cache", &s);
        t.keys(&[":"]);
        t.type_text("about:home");
        t.keys(&["Enter"]);
        t.wait_for("Welcome. This start page");
        t.keys(&["G"]);
        let s = t.wait_for("Work online again");
        show("about:home while working offline", &s);
        t.keys(&["q"]);
        t.wait_for("SMOLWEB-EXIT=0");
    })
    .await
    .unwrap();

    let out = std::process::Command::new(bin)
        .args(["--offline", "--data-dir"])
        .arg(data.path())
        .args(["get", &article])
        .output()
        .unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(out.status.success(), "{stdout}{stderr}");
    assert!(stdout.contains("sleeper leaves at ten"), "{stdout}");
    assert!(stderr.contains("offline copy, kept"), "{stderr}");
}
