//! Side by side: two real `smolweb --mcp` processes (driven by the official Python SDK) and
//! the browser's side on one data directory. Activity from two concurrent sessions shows in
//! `smolweb agents log` (and `--session`) and on `about:agents`; `show_to_user` sees the
//! browser's heartbeat and queues a suggestion the browser lists; a page shared through the
//! store API (as the browser's share key does) reaches the SDK as `list_changed` and reads
//! back; and no query, input answer or status-11 answer ever reaches the activity file.

use crate::mcp_harness;
use smolweb_testkit as support;

use mcp_harness::{Env, python};
use smolweb_store::activity::{Activity, Limits, sessions};
use smolweb_store::shared::SharedPages;
use smolweb_store::suggestions::{Browsers, Suggestions};
use std::time::Duration;
use support::gemini::{self, Reply, Routes};

fn routes() -> Routes {
    Routes::new()
        .route("/", Reply::gemtext("# Python\n\nThe intro.\n=> /ask Ask\n"))
        .handler(|req| match (req.path.as_str(), &req.query) {
            ("/ask", None) => Reply::status(10, "Say something"),
            ("/ask", Some(_)) => Reply::gemtext("# Thanks\n"),
            ("/secret", None) => Reply::status(11, "Password"),
            ("/secret", Some(_)) => Reply::gemtext("# Open\n"),
            ("/", Some(_)) => Reply::gemtext("# Python\n"),
            _ => Reply::status(51, "not found"),
        })
}

fn now() -> time::OffsetDateTime {
    time::OffsetDateTime::now_utc()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_sessions_a_suggestion_and_a_shared_page_side_by_side() {
    let Some(python) = python::interpreter("mcp_agents") else {
        return;
    };
    let gem = gemini::Server::start(routes()).await;
    let env = Env::loopback();
    let data = env.data_dir();
    let base = gem.url("").trim_end_matches('/').to_string();
    let ready = env.dir.path().join("ready");

    // The browser's side: its heartbeat while it runs, and its share once the SDK listens.
    let browser = {
        let (data, ready, page) = (data.clone(), ready.clone(), format!("{base}/"));
        tokio::spawn(async move {
            let browsers = Browsers::new(data.join("browsers.toml"));
            let shared = SharedPages::new(data.join("shared_pages.toml"));
            let mut shared_once = false;
            loop {
                browsers.heartbeat(4242, now()).unwrap();
                if !shared_once && ready.exists() {
                    shared
                        .add(&page, Some("Python"), Some("Summarise this for me"), now())
                        .unwrap();
                    shared_once = true;
                }
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
        })
    };
    let extra = [base.clone(), ready.display().to_string()];
    let stdout = python::run(&python, "agents.py", Some("legacy"), &env, &extra).await;
    browser.abort();
    println!("{stdout}");

    // Nothing secret reached the activity file.
    let file = std::fs::read_to_string(data.join("agent_activity.jsonl")).unwrap();
    for secret in [
        "secret-query",
        "hunter2",
        "open sesame",
        "open%20sesame",
        "q=x",
    ] {
        assert!(
            !file.contains(secret),
            "{secret} in the activity log:\n{file}"
        );
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let meta = std::fs::metadata(data.join("agent_activity.jsonl")).unwrap();
        assert_eq!(meta.permissions().mode() & 0o777, 0o600);
    }

    // The CLI, for a second terminal.
    let (ok, log) = env.run(&["agents", "log"]);
    assert!(ok, "{log}");
    println!("smolweb agents log:\n{log}");
    for want in [
        "session started by agent-a 0.9",
        "session started by agent-b 0.9",
        "session started by agent-c 1.0",
        "gemini_fetch gemini://127.0.0.1",
        "show_to_user",
        "→ error BLOCKED",
        "session ended",
    ] {
        assert!(log.contains(want), "{want} missing:\n{log}");
    }
    let line = log
        .lines()
        .find(|l| l.contains("session started by agent-a"))
        .unwrap();
    let id = &line[line.find('[').unwrap() + 1..line.find(']').unwrap()];
    let (ok, only) = env.run(&["agents", "log", "--session", id]);
    assert!(ok);
    assert_eq!(only.lines().count(), 5, "start, three calls, end:\n{only}");
    assert!(
        only.lines().all(|l| l.contains(&format!("[{id}]"))),
        "{only}"
    );

    // The browser's about:agents, from the same files.
    let activity = Activity::new(data.join("agent_activity.jsonl"), Limits::default());
    let read = activity.read().unwrap();
    assert_eq!(read.skipped, 0);
    let all = sessions(&read.entries);
    assert_eq!(all.len(), 3, "{all:?}");
    let suggestions = Suggestions::new(data.join("suggestions.toml"))
        .pending()
        .unwrap();
    assert_eq!(suggestions.len(), 1);
    assert_eq!(suggestions[0].client, "agent-c");
    assert_eq!(
        suggestions[0].note.as_deref(),
        Some("Please read the intro")
    );
    let shared = SharedPages::new(data.join("shared_pages.toml"))
        .list()
        .unwrap();
    let page = smolweb_client::about_browser::agents_page(&all, &suggestions, &shared, now());
    println!("about:agents:\n{page}");
    for want in [
        "agent-a 0.9",
        "agent-b 0.9",
        "agent-c 1.0",
        "Please read the intro",
        "Summarise this for me",
    ] {
        assert!(
            page.contains(want),
            "{want} missing on about:agents:\n{page}"
        );
    }
    assert!(
        page.contains(&format!("=> {base}/ ")),
        "the URLs are links:\n{page}"
    );
}

/// The switches and the bounds, through rmcp's client: `show_to_user` per-session rate limit,
/// `browser_running: false` without a heartbeat (on both protocol generations), and with
/// `activity_log = false` and `show_to_user = false` no file and no tool.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn show_to_user_is_rate_limited_and_the_switches_turn_things_off() {
    use mcp_harness::{Elicit, Gen, TestClient, call, connect, error_code, sc};
    let gem = gemini::Server::start(routes()).await;
    for generation in [Gen::Initialize, Gen::Discover] {
        let env = Env::new(&format!(
            "{}[agents]\nshow_to_user_per_minute = 1\n",
            mcp_harness::LOOPBACK_CONFIG
        ));
        let s = connect(&env, generation, TestClient::new(Elicit::Off)).await;
        let r = call(&s, "show_to_user", serde_json::json!({"url": gem.url("/")})).await;
        let v = sc(&r);
        assert_eq!(v["kind"], "suggestion_queued", "{v}");
        assert_eq!(v["browser_running"], false, "no heartbeat: {v}");
        let r = call(
            &s,
            "show_to_user",
            serde_json::json!({"url": gem.url("/ask")}),
        )
        .await;
        assert_eq!(error_code(&r), "SLOW_DOWN");
        let r = call(
            &s,
            "show_to_user",
            serde_json::json!({"url": "about:agents"}),
        )
        .await;
        assert_eq!(error_code(&r), "INVALID_REQUEST");
        s.cancel().await.unwrap();
        let pending = Suggestions::new(env.data_dir().join("suggestions.toml"))
            .pending()
            .unwrap();
        assert_eq!(pending.len(), 1);
        let file = std::fs::read_to_string(env.data_dir().join("agent_activity.jsonl")).unwrap();
        assert!(file.contains("SLOW_DOWN"), "{file}");
    }

    let env = Env::new(&format!(
        "{}[agents]\nactivity_log = false\nshow_to_user = false\n",
        mcp_harness::LOOPBACK_CONFIG
    ));
    let s = connect(&env, Gen::Initialize, TestClient::new(Elicit::Off)).await;
    let names: Vec<String> = s
        .list_all_tools()
        .await
        .unwrap()
        .iter()
        .map(|t| t.name.to_string())
        .collect();
    assert!(!names.contains(&"show_to_user".to_string()), "{names:?}");
    assert!(
        names.contains(&"shared_pages_list".to_string()),
        "{names:?}"
    );
    let r = call(&s, "gemini_fetch", serde_json::json!({"url": gem.url("/")})).await;
    assert_eq!(sc(&r)["kind"], "gemtext");
    s.cancel().await.unwrap();
    assert!(!env.data_dir().join("agent_activity.jsonl").exists());
}

/// Consent steps reach the log: asked and approved for an identity the person accepts by
/// elicitation, asked and denied when they decline, only queued when the client cannot ask.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_consent_step_is_in_the_activity_log() {
    use mcp_harness::{Elicit, Gen, TestClient, call, connect};
    use smolweb_store::activity::{ConsentStep, Event};
    let gem = gemini::Server::start(routes()).await;
    let env = Env::loopback();
    let club = gem.url("/club");
    let create = serde_json::json!({"action": "create", "url": club});
    for elicit in [
        Elicit::Accept(serde_json::json!({"approve": true})),
        Elicit::Decline,
        Elicit::Off,
    ] {
        let s = connect(&env, Gen::Initialize, TestClient::new(elicit)).await;
        call(&s, "gemini_client_cert_update", create.clone()).await;
        if let Some(fp) =
            smolweb_store::identity::Identities::new(env.data_dir().join("identities"))
                .scan()
                .unwrap()
                .identities
                .first()
                .map(|i| i.fingerprint.clone())
        {
            // Remove it again (asked and approved), so the next round asks to create anew.
            let remove = serde_json::json!({"action": "remove", "url": club, "fingerprint": fp});
            call(&s, "gemini_client_cert_update", remove).await;
        }
        s.cancel().await.unwrap();
    }
    let log = Activity::new(
        env.data_dir().join("agent_activity.jsonl"),
        Limits::default(),
    );
    let steps: Vec<ConsentStep> = log
        .read()
        .unwrap()
        .entries
        .iter()
        .filter_map(|e| match &e.event {
            Event::Consent { step, what, .. } => {
                assert!(what.contains("client identity"), "{what}");
                Some(*step)
            }
            _ => None,
        })
        .collect();
    use ConsentStep::*;
    assert_eq!(
        steps,
        [Asked, Approved, Asked, Approved, Asked, Denied, Queued],
        "create+remove approved, create declined, create queued"
    );
}

/// The activity log is written off the reply path, yet never loses a call: every call a
/// server answered is in the file even when the server is killed (SIGKILL) the moment the
/// reply arrives, and a server that exits cleanly has written every call and its end.
#[test]
fn an_answered_call_is_in_the_activity_log_even_when_the_server_is_killed() {
    use mcp_harness::raw::Raw;
    use smolweb_store::activity::Event;
    let env = Env::loopback();
    let log = Activity::new(
        env.data_dir().join("agent_activity.jsonl"),
        Limits::default(),
    );
    let calls = |log: &Activity| {
        let read = log.read().unwrap();
        assert_eq!(read.skipped, 0, "no torn line");
        read.entries
            .iter()
            .filter(|e| matches!(e.event, Event::Call { .. }))
            .count()
    };
    for round in 1..=12 {
        let mut raw = Raw::initialized(&env);
        raw.call(1, "gemini_client_cert_list", serde_json::json!({}));
        let reply = raw.reply(1);
        assert!(reply["result"]["structuredContent"].is_object(), "{reply}");
        raw.child.kill().unwrap();
        raw.child.wait().unwrap();
        assert_eq!(
            calls(&log),
            round,
            "round {round}: the answered call was lost"
        );
    }
    let ends = |log: &Activity| {
        let read = log.read().unwrap();
        read.entries
            .iter()
            .filter(|e| matches!(e.event, Event::End))
            .count()
    };
    assert_eq!(ends(&log), 0, "killed sessions never ended");
    // A clean exit: three calls answered, stdin closed, everything written before exit.
    let mut raw = Raw::initialized(&env);
    for id in 1..=3 {
        raw.call(id, "gemini_client_cert_list", serde_json::json!({}));
    }
    for id in 1..=3 {
        raw.reply(id);
    }
    raw.close_stdin();
    assert!(raw.exited_within(Duration::from_secs(10)));
    assert_eq!(calls(&log), 15);
    assert_eq!(ends(&log), 1, "the clean session's end is written");
}
