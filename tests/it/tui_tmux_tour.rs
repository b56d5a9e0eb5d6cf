//! End to end: the tour in the real browser, in tmux, over a capsule on 127.0.0.1 and a data
//! directory where an agent already put a link with its reason. `+` puts the selected link on
//! the tour, then (nothing selected) the links named by number; `L` lists them on
//! `about:tour`; `>` goes to the next, saying what is left and which agent added it and why;
//! `d` on `about:tour` takes one off; an agent's link added while `about:tour` is open shows
//! without a key; the file the agents and `smolweb tour` read says the same at each step. Without tmux it prints a loud SKIP and passes, unless
//! SMOLWEB_REQUIRE_TMUX=1.

use crate::tui_tmux_driver;
use smolweb_testkit as support;

use smolweb_store::activity::{Activity, Entry, Event, Limits};
use smolweb_store::tour::Tour;
use support::gemini::{Reply, Routes, Server};
use tui_tmux_driver::{Tmux, tmux_available};

const HOME: &str = "# Reading room\n\n=> /one.gmi First stop\n=> /two.gmi Second stop\n=> mailto:ada@cap.test Write to Ada\n";

fn waiting(tour: &Tour) -> Vec<String> {
    tour.list().unwrap().into_iter().map(|s| s.url).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn links_go_on_the_tour_by_key_and_number_and_next_goes_through_them() {
    if !tmux_available("tui_tmux_tour") {
        return;
    }
    let server = Server::start(
        Routes::new()
            .route("/", Reply::gemtext(HOME))
            .route("/one.gmi", Reply::gemtext("# Page one\n\nThe first.\n"))
            .route("/two.gmi", Reply::gemtext("# Page two\n\nThe second.\n"))
            .route("/three.gmi", Reply::gemtext("# Page three\n\nThe third.\n")),
    )
    .await;
    let data = tempfile::tempdir().unwrap();
    let dir = data.path().to_path_buf();
    std::fs::write(
        dir.join("config.toml"),
        "[politeness]\nper_host_interval_ms = 0\n[network]\ntimeout_seconds = 5\n",
    )
    .unwrap();
    // What an agent's tour_add left before the browser started.
    let tour = Tour::new(dir.join("tour.toml"));
    let (one, two, three) = (
        server.url("/one.gmi"),
        server.url("/two.gmi"),
        server.url("/three.gmi"),
    );
    tour.add_for_agent(
        &three,
        "it answers your question about feeds",
        "tour-bot",
        "5e551011",
        time::OffsetDateTime::now_utc(),
    )
    .unwrap();
    let command = format!(
        "{} --data-dir {} {}; echo SMOLWEB-EXIT=$?; sleep 30",
        env!("CARGO_BIN_EXE_smolweb"),
        dir.display(),
        server.url("/"),
    );
    tokio::task::spawn_blocking(move || {
        let t = Tmux::start("tour", &command, 140, 30);
        t.wait_for("Reading room");

        // The selected link goes on the tour, after the agent's.
        t.keys(&["Tab", "+"]);
        t.wait_for("put 1 link on the tour (2 links waiting)");
        assert_eq!(waiting(&tour), [three.clone(), one.clone()]);

        // Escape clears the selection (and the message); then + asks which links.
        t.keys(&["Escape"]);
        t.wait_gone("put 1 link on the tour");
        t.keys(&["+"]);
        t.wait_for("Tour: add links");
        t.type_text("1-3");
        t.keys(&["Enter"]);
        let s = t.wait_for(
            "put 1 link on the tour, 1 link already on it (3 links waiting); not mailto:ada@cap.test",
        );
        assert_eq!(waiting(&tour), [three.clone(), one.clone(), two.clone()]);
        println!("--- links put on the tour ---\n{s}");

        // The list: the next first, the agent's with who and why.
        t.keys(&["L"]);
        let s = t.wait_for("3 links to read next");
        assert!(
            s.contains("added by the agent tour-bot") && s.contains("it answers your question"),
            "{s}"
        );
        let (at_three, at_one) = (s.find("three.gmi").unwrap(), s.find("First stop").unwrap());
        assert!(at_three < at_one, "the agent's link is first: {s}");
        println!("--- about:tour ---\n{s}");

        // Next: the agent's link, with its reason on arrival.
        t.keys(&[">"]);
        let s = t.wait_for("The third.");
        let s = if s.contains("2 links left") {
            s
        } else {
            t.wait_for("2 links left")
        };
        assert!(s.contains("tour-bot"), "{s}");
        println!("--- the next link, an agent's ---\n{s}");
        assert_eq!(waiting(&tour), [one.clone(), two.clone()]);
        t.keys(&[">"]);
        t.wait_for("The first.");
        t.wait_for("1 link left");
        assert_eq!(waiting(&tour), [two.as_str()]);

        // On about:tour, d takes the selected link off; the page is made again.
        t.keys(&["L"]);
        t.wait_for("One link to read next");
        t.keys(&["Tab", "d"]);
        t.wait_for("taken off the tour");
        t.wait_for("The tour is empty.");
        assert!(waiting(&tour).is_empty());
        t.keys(&[">"]);
        t.wait_for("the tour is empty");

        // An agent's tour_add while the page is open (the link kept, the call logged, as the
        // MCP server does): the page is made again without a key.
        let now = time::OffsetDateTime::now_utc();
        tour.add_for_agent(&two, "a follow-up to page one", "live-bot", "5e551012", now)
            .unwrap();
        Activity::new(dir.join("agent_activity.jsonl"), Limits::default())
            .append(&Entry::new(
                "5e551012",
                now,
                Event::Call {
                    tool: "tour_add".into(),
                    url: Some(two.clone()),
                    urls: None,
                    outcome: "tour_added".into(),
                    error: false,
                    bytes: None,
                    cached: None,
                    ms: 1,
                },
            ))
            .unwrap();
        let s = t.wait_for("One link to read next");
        assert!(s.contains("added by the agent live-bot"), "{s}");

        t.keys(&["q"]);
        t.wait_for("SMOLWEB-EXIT=0");
    })
    .await
    .unwrap();

    // The manual names the keys, where the browser's help page does (both from the keymap).
    let man = std::process::Command::new(env!("CARGO_BIN_EXE_smolweb"))
        .arg("--data-dir")
        .arg(data.path())
        .arg("man")
        .env_remove("SMOLWEB_CONFIG")
        .env_remove("SMOLWEB_HOME")
        .output()
        .unwrap();
    let man = String::from_utf8_lossy(&man.stdout);
    for name in [
        "(tour_add)",
        "(tour_next)",
        "(tour)",
        "(tour_remove)",
        "(tour_clear)",
    ] {
        assert!(man.contains(name), "{name} missing from smolweb man");
    }
    assert!(
        man.contains("On the tour page"),
        "no section for about:tour's keys"
    );
    assert!(
        man.contains("smolweb tour: 0 done"),
        "no exit status of smolweb tour"
    );
}
