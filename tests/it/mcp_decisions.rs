//! The person's decisions on an agent's queued requests, and the agent's reads of shared
//! pages, reach the activity log under the agent's session: a request queued by a session that
//! cannot ask its user, approved or denied with the CLI (`smolweb identity|trust approve|deny`)
//! or in the browser (the identities screen), shows in `smolweb agents log` and on
//! `about:agents` with when and where the person decided; a `resources/read` of a shared page
//! shows with the page read and what came of it.

use crate::mcp_harness::{Elicit, Env, Gen, TestClient, call, connect, sc};
use crate::tui_tmux_driver::{Tmux, tmux_available};
use rmcp::model::{ReadResourceRequestParams, ResourceContents};
use serde_json::json;
use smolweb_store::shared::SharedPages;
use smolweb_testkit::gemini::{self, Reply, Routes};

fn routes() -> Routes {
    Routes::new()
        .route("/", Reply::gemtext("# Shared capsule\n\nA page.\n"))
        .handler(|req| match (req.path.as_str(), &req.client_cert) {
            ("/club", None) => Reply::status(60, "Members only"),
            ("/club", Some(_)) => Reply::gemtext("# Member\n"),
            _ => Reply::status(51, "not found"),
        })
}

/// Share `url` as the browser's share key does; the resource URI of the share.
fn share(env: &Env, url: &str) -> String {
    let shared = SharedPages::new(env.data_dir().join("shared_pages.toml"))
        .add(
            url,
            Some("Shared capsule"),
            Some("Summarise it"),
            time::OffsetDateTime::now_utc(),
        )
        .unwrap();
    format!("smolweb://shared/{}", shared.id)
}

/// The session id `smolweb agents log` gives the one session that ran.
fn session_of(log: &str) -> String {
    let line = log
        .lines()
        .find(|l| l.contains("session started by smolweb-test"))
        .unwrap_or_else(|| panic!("no session start in {log}"));
    let open = line.find('[').unwrap();
    line[open + 1..open + 9].to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cli_decisions_and_shared_page_reads_are_logged_under_the_session() {
    let server = gemini::Server::start(routes()).await;
    let env = Env::loopback();
    let s = connect(&env, Gen::Initialize, TestClient::new(Elicit::Off)).await;
    let create = json!({"action": "create", "url": server.url("/club")});
    let made = sc(&call(&s, "gemini_client_cert_update", create).await);
    let made_id = made["approval_id"].as_str().unwrap().to_string();
    let other = format!("sha256:{}", "b".repeat(64));
    let pin =
        json!({"action": "pin", "host": "127.0.0.1", "port": server.port(), "fingerprint": other});
    let pinned = sc(&call(&s, "gemini_trust_update", pin).await);
    let pin_id = pinned["approval_id"].as_str().unwrap().to_string();

    let page = server.url("/");
    let uri = share(&env, &page);
    let read = s
        .read_resource(ReadResourceRequestParams::new(uri.clone()))
        .await
        .unwrap();
    let ResourceContents::TextResourceContents { text, .. } = &read.contents[0] else {
        panic!("a text resource")
    };
    assert!(text.contains("Shared capsule"), "{text}");
    let gone = s
        .read_resource(ReadResourceRequestParams::new("smolweb://shared/00000000"))
        .await;
    assert!(gone.is_err(), "{gone:?}");

    let (ok, out) = env.run(&["identity", "approve", &made_id]);
    assert!(ok, "{out}");
    let (ok, out) = env.run(&["trust", "deny", &pin_id]);
    assert!(ok, "{out}");
    s.cancel().await.unwrap();

    let (ok, log) = env.run(&["agents", "log"]);
    assert!(ok, "{log}");
    println!("smolweb agents log:\n{log}");
    let sid = session_of(&log);
    let line = |needle: &str| {
        log.lines()
            .find(|l| l.contains(needle))
            .unwrap_or_else(|| panic!("no line with {needle:?} in:\n{log}"))
            .to_string()
    };
    let identity = line("consent approved with the CLI");
    assert!(
        identity.contains(&format!(
            "[{sid}] gemini_client_cert_update: consent approved with the CLI: create client \
             identity '127.0.0.1-club-"
        )),
        "{identity}"
    );
    let trust = line("consent denied with the CLI");
    assert!(
        trust.contains(&format!(
            "[{sid}] gemini_trust_update: consent denied with the CLI: trust certificate {other}"
        )),
        "{trust}"
    );
    // The queued steps come first, the decisions after, each with its time.
    assert!(log.find("consent queued").unwrap() < log.find(&identity).unwrap());
    let read = line(&format!("[{sid}] resources/read {page}"));
    assert!(read.contains("→ gemtext"), "{read}");
    let missing = line(&format!("[{sid}] resources/read smolweb://shared/00000000"));
    assert!(missing.contains("→ error jsonrpc"), "{missing}");
    // `--session` keeps them: they are that session's.
    let (ok, only) = env.run(&["agents", "log", "--session", &sid]);
    assert!(ok, "{only}");
    for needle in [
        "approved with the CLI",
        "denied with the CLI",
        "resources/read",
    ] {
        assert!(only.contains(needle), "{needle}: {only}");
    }
}

/// The same decision made in the browser: `I`, `y`, `y` on the queued request, then
/// about:agents shows it under the session, beside the agent's read of a shared page.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_decision_in_the_browser_shows_on_about_agents() {
    if !tmux_available("mcp_decisions (browser)") {
        return;
    }
    let server = gemini::Server::start(routes()).await;
    let env = Env::loopback();
    let s = connect(&env, Gen::Initialize, TestClient::new(Elicit::Off)).await;
    let create = json!({"action": "create", "url": server.url("/club")});
    let made = sc(&call(&s, "gemini_client_cert_update", create).await);
    assert_eq!(made["pending"], true, "{made}");
    let uri = share(&env, &server.url("/"));
    s.read_resource(ReadResourceRequestParams::new(uri))
        .await
        .unwrap();
    s.cancel().await.unwrap();

    let command = format!(
        "{} {} {}; echo SMOLWEB-EXIT=$?; sleep 30",
        env!("CARGO_BIN_EXE_smolweb"),
        env.args().join(" "),
        server.url("/"),
    );
    let data = env.data_dir();
    tokio::task::spawn_blocking(move || {
        let t = Tmux::start("decisions", &command, 120, 40);
        t.wait_for("A page.");
        t.keys(&["I"]);
        t.wait_for("create client identity '127.0.0.1-club-");
        t.keys(&["y"]);
        // The dialog clips its last line (the "Approve? (y/n)" of the question) at this
        // size; its frame is enough to know it is up.
        t.wait_for("┌ Confirm");
        t.keys(&["y"]);
        t.wait_for("created identity '127.0.0.1-club-");
        t.keys(&["A"]);
        let screen = t.wait_for("consent approved in the browser");
        println!("--- about:agents ---\n{screen}");
        assert!(screen.contains("resources/read"), "{screen}");
        assert!(screen.contains("consent queued for approval"), "{screen}");
        t.keys(&["q"]);
        t.wait_for("SMOLWEB-EXIT=0");
    })
    .await
    .unwrap();
    let log = smolweb_store::activity::Activity::new(
        data.join("agent_activity.jsonl"),
        smolweb_store::activity::Limits::default(),
    );
    let decided = log
        .read()
        .unwrap()
        .entries
        .into_iter()
        .filter(|e| smolweb_store::activity::describe(e).contains("approved in the browser"))
        .count();
    assert_eq!(decided, 1, "one decision, in the browser");
}
