//! End to end, finding a page again in the browser: the real binary in tmux against an
//! in-process capsule that is also the configured search engine. Words typed in the address
//! bar go to the engine as its input; a visited page is indexed in the background; ctrl-k
//! asks for words and opens `about:search` with the page ranked, its source, date and a
//! snippet with the matched word marked; the result's number opens it. Without tmux it
//! prints a loud SKIP and passes, unless SMOLWEB_REQUIRE_TMUX=1. The screens are printed
//! (run with --nocapture to see them).

use crate::tui_tmux_driver;
use smolweb_testkit as support;

use support::gemini::{Reply, Routes, Server};
use tui_tmux_driver::{Tmux, link_number, tmux_available};

fn show(label: &str, screen: &str) {
    println!("----- {label} -----\n{screen}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn about_search_finds_a_visited_page_and_words_go_to_the_engine() {
    if !tmux_available("tui_tmux_search") {
        return;
    }
    let server = Server::start(
        Routes::new()
            .route(
                "/",
                Reply::gemtext("# Field notes\n\n=> /bears.gmi Water bears\n"),
            )
            .route(
                "/bears.gmi",
                Reply::gemtext(
                    "# Water bears\n\nTardigrades live in the moss on the north wall and \
                     survive drying out for years.\n",
                ),
            )
            .handler(|req| match (req.path.as_str(), req.query.as_deref()) {
                ("/search", None) => Reply::status(10, "Search for"),
                ("/search", Some(q)) => {
                    Reply::gemtext(&format!("# Engine results for {q}\n\n=> / Field notes\n"))
                }
                _ => Reply::status(51, "not found"),
            }),
    )
    .await;
    let data = tempfile::tempdir().unwrap();
    std::fs::write(
        data.path().join("config.toml"),
        format!(
            "[politeness]\nper_host_interval_ms = 0\n[network]\ntimeout_seconds = 5\n\
             [search]\nengine = \"{}\"\n",
            server.url("/search")
        ),
    )
    .unwrap();
    let start = server.url("/");
    let bin = env!("CARGO_BIN_EXE_smolweb");
    let command = format!(
        "{bin} --data-dir {} {start}; echo SMOLWEB-EXIT=$?; sleep 30",
        data.path().display(),
    );
    tokio::task::spawn_blocking(move || {
        let t = Tmux::start("search", &command, 110, 40);
        t.wait_for("Field notes");
        t.keys(&["1"]);
        t.wait_for("north wall");

        // Words in the address bar go to the engine as its input.
        t.keys(&[":", "C-u"]);
        t.type_text("tardigrades in moss");
        t.keys(&["Enter"]);
        let s = t.wait_for("Engine results for tardigrades%20in%20moss");
        show("words typed in the address bar, answered by the engine", &s);

        // ctrl-k: the visited page is found (indexed in the background: reload until it is).
        t.keys(&["C-k"]);
        t.wait_for("Search what you read");
        t.type_text("tardigrades");
        t.keys(&["Enter"]);
        let mut s = t.wait_for("Search: tardigrades");
        for _ in 0..50 {
            if s.contains("1 page found") {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(200));
            t.keys(&["r"]);
            s = t.wait_for("Search: tardigrades");
        }
        let s = t.wait_for("«Tardigrades»");
        show("ctrl-k tardigrades: about:search", &s);
        assert!(s.contains("1 page found"), "{s}");
        assert!(s.contains("Water bears") && s.contains("visited"), "{s}");
        assert!(
            !s.contains("Engine results"),
            "an engine's answer is never indexed: {s}"
        );

        // The result's number opens the page.
        let n = link_number(&s, "Water bears");
        for d in n.chars() {
            t.keys(&[&d.to_string()]);
        }
        let s = t.wait_for("north wall");
        show("the result opened", &s);
    })
    .await
    .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_engine_key_picks_the_engine_words_go_to_for_the_session() {
    if !tmux_available("tui_tmux_search") {
        return;
    }
    let server = Server::start(
        Routes::new()
            .route("/", Reply::gemtext("# Start\n"))
            .handler(|req| match (req.path.as_str(), req.query.as_deref()) {
                ("/find", Some(q)) => Reply::gemtext(&format!("# Local engine found {q}\n")),
                _ => Reply::status(51, "not found"),
            }),
    )
    .await;
    let data = tempfile::tempdir().unwrap();
    let engine = server.url("/find");
    std::fs::write(
        data.path().join("config.toml"),
        format!(
            "[politeness]\nper_host_interval_ms = 0\n[network]\ntimeout_seconds = 5\n\
             [search]\nengine = \"{engine}\"\n"
        ),
    )
    .unwrap();
    let config = std::fs::read(data.path().join("config.toml")).unwrap();
    let start = server.url("/");
    let bin = env!("CARGO_BIN_EXE_smolweb");
    let command = format!(
        "{bin} --data-dir {} {start}; echo SMOLWEB-EXIT=$?; sleep 30",
        data.path().display(),
    );
    let dir = data.path().to_path_buf();
    tokio::task::spawn_blocking(move || {
        let t = Tmux::start("engines", &command, 120, 30);
        t.wait_for("Start");

        // K: the three engines and the configured URL, the one in use marked.
        t.keys(&["K"]);
        let s = t.wait_for("Search engine for words");
        show("K: the engines to choose from", &s);
        for name in ["1. kennedy", "2. tlgs", "3. geminispace", "*4. custom"] {
            assert!(s.contains(name), "{name}: {s}");
        }
        assert!(s.contains(&engine), "{s}");

        // A line's number picks it; the status line says it holds for this session.
        t.keys(&["1"]);
        let s = t.wait_for("this session's search engine: kennedy");
        show("1: kennedy picked", &s);
        t.keys(&["K"]);
        let s = t.wait_for("Search engine for words");
        assert!(s.contains("*1. kennedy") && s.contains(" 4. custom"), "{s}");

        // The arrows and Enter pick the configured engine back; words go to it.
        t.keys(&["Down", "Down", "Down", "Enter"]);
        t.wait_for("this session's search engine: custom");
        t.keys(&[":", "C-u"]);
        t.type_text("water bears");
        t.keys(&["Enter"]);
        let s = t.wait_for("Local engine found water%20bears");
        show("words typed after the pick", &s);

        // Esc closes the list and changes nothing; the help page names the key.
        t.keys(&["K"]);
        t.wait_for("Search engine for words");
        t.keys(&["Escape"]);
        t.wait_gone("Search engine for words");
        t.keys(&["?"]);
        t.wait_for("# Keys");
        t.keys(&["/"]);
        t.type_text("pick the Geminispace");
        t.keys(&["Enter"]);
        let s = t.wait_for("K: pick the Geminispace search engine");
        show("the help page names the key", &s);
        // The choice is the session's: the config file is as it was.
        assert_eq!(std::fs::read(dir.join("config.toml")).unwrap(), config);
    })
    .await
    .unwrap();
}
