//! The tour shared with agents (issue 33, item 19), through the real binary: the person puts a
//! link on it with `smolweb tour add`, an agent reads it (`tour_list`) and adds its own with a
//! reason (`tour_add`), which `smolweb tour list` and `about:tour` show beside the link; the
//! guard refuses for `tour_add` what it refuses for every agent URL; the adds are in the
//! activity log; `[agents] tour = false` withdraws both tools.

use crate::mcp_harness;

use mcp_harness::*;
use serde_json::json;

#[tokio::test]
async fn an_agent_reads_the_tour_and_adds_to_it_with_a_reason() {
    let env = Env::loopback();
    let (ok, said) = env.run(&["tour", "add", "gemini://127.0.0.1:1965/mine"]);
    assert!(ok, "{said}");
    assert!(said.contains("1 link added"), "{said}");

    let s = connect(&env, Gen::Initialize, TestClient::new(Elicit::Off)).await;
    let r = call(&s, "tour_list", json!({})).await;
    assert_ne!(r.is_error, Some(true), "{:?}", sc(&r));
    let stops = sc(&r)["stops"].as_array().unwrap().clone();
    assert_eq!(stops.len(), 1);
    assert_eq!(stops[0]["url"], "gemini://127.0.0.1:1965/mine");
    assert!(stops[0]["agent"].is_null(), "the person's link: {stops:?}");

    let url = "gemini://127.0.0.1:1965/worth-it#intro";
    let reason = "The clearest account of the Gemini proxy statuses I found.";
    let r = call(&s, "tour_add", json!({"url": url, "reason": reason})).await;
    assert_ne!(r.is_error, Some(true), "{:?}", sc(&r));
    assert_eq!(sc(&r)["kind"], "tour_added");
    assert_eq!(sc(&r)["url"], "gemini://127.0.0.1:1965/worth-it");
    assert_eq!(sc(&r)["waiting"], 2);
    assert_eq!(sc(&r)["already"], false);
    let again = call(&s, "tour_add", json!({"url": url, "reason": "again"})).await;
    assert_eq!(sc(&again)["already"], true, "{:?}", sc(&again));

    // Refused before anything is kept: what the guard refuses agents, and what the tour does
    // not take.
    for (bad, code) in [
        ("http://169.254.169.254/latest/meta-data/", "BLOCKED"),
        ("gemini://127.0.0.1:6379/", "BLOCKED"),
        ("about:home", "INVALID_REQUEST"),
        ("gemini://127.0.0.1:1965/search?q=secret", "INVALID_REQUEST"),
        ("javascript:alert(1)", "INVALID_REQUEST"),
    ] {
        let r = call(&s, "tour_add", json!({"url": bad, "reason": "no"})).await;
        assert_eq!(r.is_error, Some(true), "{bad}: {:?}", sc(&r));
        assert_eq!(error_code(&r), code, "{bad}: {:?}", sc(&r));
    }
    let r = call(
        &s,
        "tour_add",
        json!({"url": "gemini://127.0.0.1/x", "reason": " "}),
    )
    .await;
    assert_eq!(error_code(&r), "INVALID_REQUEST", "a reason is needed");

    let r = call(&s, "tour_list", json!({})).await;
    let stops = sc(&r)["stops"].as_array().unwrap().clone();
    assert_eq!(stops.len(), 2, "{stops:?}");
    assert_eq!(stops[1]["reason"], reason);
    assert!(stops[1]["agent"].as_str().is_some_and(|a| !a.is_empty()));
    s.cancel().await.unwrap();

    // The person's side shows who added it and why.
    let (ok, list) = env.run(&["tour", "list"]);
    assert!(ok, "{list}");
    assert!(list.contains("worth-it") && list.contains(reason), "{list}");
    // The agent's adds are in the activity log (the URL, never more).
    let (ok, log) = env.run(&["agents", "log"]);
    assert!(ok, "{log}");
    assert!(
        log.contains("tour_add gemini://127.0.0.1:1965/worth-it"),
        "{log}"
    );
    assert!(log.contains("→ error BLOCKED"), "{log}");
    assert!(!log.contains("secret"), "{log}");
    // `next` hands the links out in order.
    let (ok, next) = env.run(&["tour", "next"]);
    assert!(ok);
    assert_eq!(next.trim(), "gemini://127.0.0.1:1965/mine");
}

#[tokio::test]
async fn the_tour_tools_can_be_withdrawn() {
    let env = Env::new(&format!("{LOOPBACK_CONFIG}[agents]\ntour = false\n"));
    let s = connect(&env, Gen::Initialize, TestClient::new(Elicit::Off)).await;
    let names: Vec<String> = s
        .list_all_tools()
        .await
        .unwrap()
        .into_iter()
        .map(|t| t.name.to_string())
        .collect();
    assert!(!names.iter().any(|n| n.starts_with("tour_")), "{names:?}");
    assert!(names.contains(&"show_to_user".to_string()));
    s.cancel().await.unwrap();
}

#[tokio::test]
async fn a_corrupt_tour_is_named_to_the_agent_and_left_alone() {
    let env = Env::loopback();
    let file = env.data_dir().join(smolweb_store::files::TOUR);
    std::fs::write(&file, "[[stop]]\nurl = [\n").unwrap();
    let s = connect(&env, Gen::Initialize, TestClient::new(Elicit::Off)).await;
    let listed = call(&s, "tour_list", json!({})).await;
    let added = call(
        &s,
        "tour_add",
        json!({"url": "gemini://127.0.0.1/", "reason": "why not"}),
    )
    .await;
    for r in [listed, added] {
        assert_eq!(
            error_code(&r),
            "CERTIFICATE_STORE_UNAVAILABLE",
            "{:?}",
            sc(&r)
        );
        let message = sc(&r)["error"]["message"].as_str().unwrap().to_string();
        assert!(message.contains("tour.toml"), "{message}");
    }
    s.cancel().await.unwrap();
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        "[[stop]]\nurl = [\n"
    );
    let (ok, _) = env.run(&["tour", "list"]);
    assert!(!ok, "the CLI says so too");
}
