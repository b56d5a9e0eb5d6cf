//! Site rules through the real binary (issue 30, item 4): the person makes a rule with
//! `smolweb rules add` (after `smolweb rules regions` listed the page's regions), and
//! `smolweb get` and an agent's `fetch_url` read the site's pages by it; a rule that no
//! longer matches falls back to the normal extraction and says so; a held copy converted
//! before the rule was made is not served under it; `rules list` and `rules remove` show and
//! undo it; a bad selector and a corrupt rules file are refused with the file named. Pages
//! are served on loopback.

use crate::mcp_harness;
use smolweb_testkit as support;

use crate::web_mcp::CONFIG;
use mcp_harness::*;
use serde_json::{Value, json};
use std::process::Output;
use support::http::{Reply, Server};

/// A thread beside a long "about the board" box set as a sidebar: without a rule the box is
/// left out as site chrome; this person wants it with the posts.
fn thread(class: &str, box_class: &str) -> String {
    let posts: String = (1..=4)
        .map(|n| {
            format!(
                "<div class=\"{class}\"><p>Post {n}: the moss stays wet.</p>\
                 <div class=\"share\">Share post {n}</div></div>"
            )
        })
        .collect();
    let about = "<p>About this board: it has gathered people who watch small animals since \
                 the early days of the web, with long threads on every kind of water bear, \
                 their habits and their homes, and on the microscopes that show them. </p>"
        .repeat(8);
    format!(
        "<!doctype html><html><head><title>North wall moss</title></head><body>\
         <nav><a href=\"/\">Home</a></nav><div id=\"thread\">{posts}</div>\
         <aside class=\"{box_class}\">{about}</aside></body></html>"
    )
}

async fn server() -> Server {
    let (old, new) = (thread("post", "about"), thread("message", "board-info"));
    Server::start(move |r| match r.path() {
        "/robots.txt" => Reply::new(404, "text/plain", ""),
        "/t/1" => Reply::html(&old),
        "/t/2" => Reply::html(&new),
        _ => Reply::new(404, "text/plain", ""),
    })
    .await
}

fn run(env: &Env, args: &[&str]) -> Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_smolweb"))
        .args(env.args())
        .args(args)
        .env_remove("SMOLWEB_HOME")
        .env_remove("SMOLWEB_CONFIG")
        .output()
        .unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rule_the_person_makes_is_how_get_and_agents_read_the_site() {
    let s = server().await;
    let env = Env::new(CONFIG);
    let page = s.url("/t/1");

    // No rule yet: the box is left out, and the regions show where it and the posts are.
    let o = run(&env, &["get", &page]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let before = text(&o.stdout);
    assert!(!before.contains("About this board"), "{before}");
    let o = run(&env, &["rules", "regions", &page]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let regions = text(&o.stdout);
    assert!(regions.contains("aside.about"), "{regions}");
    assert!(
        regions.contains("About this board: it has"),
        "previews: {regions}"
    );
    assert!(text(&o.stderr).contains("smolweb rules add 127.0.0.1 --content"));

    let o = run(
        &env,
        &[
            "rules",
            "add",
            "127.0.0.1",
            "--content",
            "div.post, aside.about",
            "--remove",
            ".share",
        ],
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    let o = run(&env, &["rules", "list"]);
    let list = text(&o.stdout);
    assert!(
        list.contains("127.0.0.1")
            && list.contains("content  div.post, aside.about")
            && list.contains("remove   .share"),
        "{list}"
    );

    // get: every post and the box, no share bar; stderr says a rule chose the text.
    let o = run(&env, &["get", &page]);
    let out = text(&o.stdout);
    for n in 1..=4 {
        assert!(out.contains(&format!("Post {n}: the moss stays")), "{out}");
    }
    assert!(
        !out.contains("Share post") && out.contains("About this board"),
        "{out}"
    );
    assert!(
        text(&o.stderr).contains("· site rule"),
        "{}",
        text(&o.stderr)
    );

    // The agent reads by it too, and is told which rule and that it matched.
    let session = connect(&env, Gen::Initialize, TestClient::new(Elicit::Off)).await;
    let fetch = |url: String| {
        let session = &session;
        async move {
            let r = call(session, "fetch_url", json!({"url": url})).await;
            assert_ne!(r.is_error, Some(true), "{:?}", texts(&r));
            sc(&r)
        }
    };
    let v: Value = fetch(page.clone()).await;
    assert_eq!(v["site_rule"]["site"], "127.0.0.1", "{v}");
    assert_eq!(v["site_rule"]["content"], "div.post, aside.about");
    assert_eq!(v["site_rule"]["status"], "applied");
    assert_eq!(v["extraction"], "main");
    let t = v["text"].as_str().unwrap();
    assert!(
        t.contains("Post 4: the moss stays") && t.contains("About this board"),
        "{t}"
    );

    // The site changed its markup on another page: the rule matches nothing, the usual
    // extraction answers, and says so.
    let v = fetch(s.url("/t/2")).await;
    assert_eq!(v["site_rule"]["status"], "unmatched", "{v}");
    let o = run(&env, &["get", &s.url("/t/2")]);
    assert!(
        text(&o.stderr).contains("site rule unmatched"),
        "{}",
        text(&o.stderr)
    );

    // Removed: the held copy made under the rule is not served any more.
    let o = run(&env, &["rules", "remove", "127.0.0.1"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let v = fetch(page.clone()).await;
    assert!(v.get("site_rule").is_none(), "{v}");
    assert!(
        !v["text"].as_str().unwrap().contains("About this board"),
        "{v}"
    );
    assert_eq!(
        run(&env, &["rules", "remove", "127.0.0.1"]).status.code(),
        Some(3)
    );
    session.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rule_made_while_a_page_is_held_applies_at_the_next_read() {
    let s = server().await;
    let env = Env::new(CONFIG);
    let page = s.url("/t/1");
    let session = connect(&env, Gen::Initialize, TestClient::new(Elicit::Off)).await;
    let r = call(&session, "fetch_url", json!({"url": page})).await;
    assert!(sc(&r).get("site_rule").is_none());
    // The person makes a rule while the agent's server holds the page.
    let o = run(&env, &["rules", "add", "127.0.0.1", "--content", "aside"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let r = call(&session, "fetch_url", json!({"url": page})).await;
    let v = sc(&r);
    assert_eq!(v["site_rule"]["status"], "applied", "{v}");
    assert!(
        v["text"].as_str().unwrap().contains("About this board"),
        "{v}"
    );
    session.cancel().await.unwrap();
}

#[test]
fn bad_rules_and_a_corrupt_file_are_refused_and_nothing_is_lost() {
    let env = Env::new(CONFIG);
    let o = run(&env, &["rules", "add", "a.example", "--content", "div["]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("not a CSS selector"),
        "{}",
        text(&o.stderr)
    );
    let o = run(&env, &["rules", "add", "not a host", "--content", "main"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(
        run(&env, &["rules", "add", "a.example", "--content", "main"])
            .status
            .success()
    );
    let file = env.data_dir().join("site_rules.toml");
    let good = std::fs::read_to_string(&file).unwrap();
    let corrupt = format!("{good}\n[[rule]]\nsite = 7\n");
    std::fs::write(&file, &corrupt).unwrap();
    let o = run(&env, &["rules", "list"]);
    assert_eq!(o.status.code(), Some(1));
    let err = text(&o.stderr);
    assert!(
        err.contains("site_rules.toml") && err.contains("corrupt"),
        "{err}"
    );
    let o = run(&env, &["rules", "add", "b.example", "--content", "main"]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        corrupt,
        "left as it was"
    );
}
