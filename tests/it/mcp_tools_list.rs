//! The whole `tools/list` answer of the built binary is a reviewed snapshot
//! (`tests/snapshots/mcp_tools_list.snap`): every tool's name, title, description, input and
//! output schemas, annotations and `_meta`, in the order published. Any change to what an agent
//! sees of the tools fails here until the snapshot is updated on purpose
//! (`INSTA_UPDATE=always cargo test -p smolweb --test it mcp_tools_list`, then read the diff).
//!
//! The other MCP tests take the tool list and each tool's annotations from this snapshot
//! ([`published`]), so a new tool is one snapshot update, not a hand-kept list in each test.

use crate::mcp_harness::{self, Env, Gen, TestClient, raw::Raw};
use serde_json::{Value, json};
use std::path::PathBuf;

const SNAPSHOT: &str = "mcp_tools_list";

fn snapshot_file() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("tests/snapshots/{SNAPSHOT}.snap"))
}

/// The tools as the snapshot has them, in the published order.
pub(crate) fn published() -> Vec<Value> {
    let text = std::fs::read_to_string(snapshot_file()).expect("the tools/list snapshot exists");
    // An insta file: a `---` header, then the snapshot's text.
    let body = text
        .splitn(3, "---\n")
        .nth(2)
        .expect("an insta snapshot header");
    let answer: Value = serde_json::from_str(body).expect("the snapshot is JSON");
    answer["tools"].as_array().expect("a tools array").clone()
}

/// The names of the published tools, in the published order.
pub(crate) fn published_names() -> Vec<String> {
    published()
        .iter()
        .map(|t| t["name"].as_str().expect("a name").to_string())
        .collect()
}

/// `tools/list` over a raw 2025-11-25 session, exactly as sent.
fn raw_tools_list(env: &Env) -> Value {
    let mut raw = Raw::initialized_with(env, "2025-11-25");
    raw.send(&json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}));
    let reply = raw.reply(1);
    assert!(reply.get("error").is_none(), "{reply}");
    reply["result"].clone()
}

#[test]
fn the_tools_list_answer_is_the_reviewed_snapshot() {
    let answer = raw_tools_list(&Env::loopback());
    assert!(
        answer.get("nextCursor").is_none(),
        "one page holds every tool"
    );
    let text = serde_json::to_string_pretty(&answer).unwrap() + "\n";
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/snapshots"));
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    settings.bind(|| insta::assert_snapshot!(SNAPSHOT, text));
}

/// The order is part of the contract (issue 32: clients cache and compare the list): by
/// name, the same in every process and on both protocol generations.
#[tokio::test]
async fn the_tools_come_in_one_order_by_name_on_both_generations() {
    let names = published_names();
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(names, sorted, "published by name");
    let env = Env::loopback();
    let again: Vec<String> = raw_tools_list(&env)["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        again, names,
        "a second process lists them in the same order"
    );
    let s = mcp_harness::connect(
        &env,
        Gen::Discover,
        TestClient::new(mcp_harness::Elicit::Off),
    )
    .await;
    let modern = s.list_all_tools().await.unwrap();
    let modern: Vec<Value> = modern
        .iter()
        .map(|t| serde_json::to_value(t).unwrap())
        .collect();
    assert_eq!(
        modern,
        published(),
        "a 2026-07-28 session is published the same tools, in the same order"
    );
    s.cancel().await.unwrap();
}

/// The most used client cuts the server instructions and each tool description at 2 KB: the
/// instructions stay under 2,000 characters and every description under 2,048 bytes, as the
/// binary sends them.
#[test]
fn the_instructions_and_every_description_fit_before_the_cut() {
    let mut raw = Raw::initialized_with(&Env::loopback(), "2025-11-25");
    let init = raw.reply("init");
    let instructions = init["result"]["instructions"].as_str().unwrap();
    let chars = instructions.chars().count();
    println!(
        "instructions: {chars} characters, {} bytes",
        instructions.len()
    );
    assert!(
        chars < 2000 && instructions.len() < 2048,
        "{chars} characters"
    );
    assert!(
        instructions.find("untrusted data") < instructions.find("Branch on"),
        "the rule about untrusted text comes before the result kinds"
    );
    for tool in published() {
        let description = tool["description"].as_str().unwrap();
        println!("{}: {} bytes", tool["name"], description.len());
        assert!(description.len() < 2048, "{}", tool["name"]);
    }
}
