//! What tools/list publishes about result values: every error `code` is an enum of the
//! contract's codes, and the store tools' `action` is an enum too. Also: a certificate store
//! that cannot be read reaches the agent as CERTIFICATE_STORE_UNAVAILABLE.

use crate::mcp_harness;
use smolweb_core::code::ErrorCode;
use smolweb_testkit as support;

use mcp_harness::*;
use serde_json::{Map, Value, json};
use support::gemini::{self, Reply, Routes};

/// Follow a local `$ref` (`#/$defs/Name`) of `root`; other values are returned as they are.
fn resolve<'a>(root: &'a Value, v: &'a Value) -> &'a Value {
    match v["$ref"].as_str().and_then(|r| r.strip_prefix("#/$defs/")) {
        Some(name) => &root["$defs"][name],
        None => v,
    }
}

/// Every schema object below `v` that describes an error body (has `code` and `retryable`).
fn error_bodies<'a>(v: &'a Value, out: &mut Vec<&'a Map<String, Value>>) {
    match v {
        Value::Object(map) => {
            if let Some(Value::Object(props)) = map.get("properties")
                && props.contains_key("code")
                && props.contains_key("retryable")
            {
                out.push(props);
            }
            map.values().for_each(|x| error_bodies(x, out));
        }
        Value::Array(items) => items.iter().for_each(|x| error_bodies(x, out)),
        _ => {}
    }
}

#[tokio::test]
async fn every_error_code_is_published_as_an_enum_of_all_codes() {
    let env = Env::loopback();
    let s = connect(&env, Gen::Initialize, TestClient::new(Elicit::Off)).await;
    let all: Vec<&str> = ErrorCode::ALL.iter().map(|c| c.as_str()).collect();
    let tools = s.list_all_tools().await.unwrap();
    assert_eq!(tools.len(), crate::mcp_tools_list::published_names().len());
    for t in &tools {
        let schema = Value::Object((**t.output_schema.as_ref().unwrap()).clone());
        let mut bodies = Vec::new();
        error_bodies(&schema, &mut bodies);
        assert!(!bodies.is_empty(), "{} publishes no error body", t.name);
        for props in bodies {
            let code = resolve(&schema, &props["code"]);
            let names: Vec<&str> = code["enum"]
                .as_array()
                .unwrap_or_else(|| panic!("{}: code is not an enum: {code}", t.name))
                .iter()
                .map(|n| n.as_str().unwrap())
                .collect();
            assert_eq!(names, all, "{}", t.name);
            assert_eq!(code["type"], "string", "{}", t.name);
        }
    }
    s.cancel().await.unwrap();
}

#[tokio::test]
async fn update_results_publish_their_action_as_an_enum() {
    let env = Env::loopback();
    let s = connect(&env, Gen::Initialize, TestClient::new(Elicit::Off)).await;
    let tools = s.list_all_tools().await.unwrap();
    for (tool, kind, actions) in [
        (
            "gemini_client_cert_update",
            "client_cert_update",
            json!(["create", "remove"]),
        ),
        (
            "gemini_trust_update",
            "trust_update",
            json!(["pin", "remove"]),
        ),
    ] {
        let t = tools.iter().find(|t| t.name == tool).unwrap();
        let schema = Value::Object((**t.output_schema.as_ref().unwrap()).clone());
        let branch = schema["oneOf"]
            .as_array()
            .unwrap()
            .iter()
            .find(|b| b["properties"]["kind"]["const"] == kind)
            .map(|b| resolve(&schema, b))
            .unwrap_or_else(|| panic!("{tool} has no {kind} kind"));
        let action = resolve(&schema, &branch["properties"]["action"]);
        assert_eq!(action["enum"], actions, "{tool}: {action}");
        assert!(
            branch["required"]
                .as_array()
                .unwrap()
                .contains(&json!("action"))
        );
    }
    s.cancel().await.unwrap();
}

#[tokio::test]
async fn an_unreadable_certificate_store_is_certificate_store_unavailable() {
    let server = gemini::Server::start(Routes::new().route("/", Reply::gemtext("# hi\n"))).await;
    let env = Env::loopback();
    // A directory where the pins file should be: the store cannot be read (even as root).
    std::fs::create_dir_all(env.data_dir().join("known_hosts.toml").join("oops")).unwrap();
    let s = connect(&env, Gen::Initialize, TestClient::new(Elicit::Off)).await;
    let fetched = call(&s, "gemini_fetch", json!({"url": server.url("/")})).await;
    assert_eq!(error_code(&fetched), "CERTIFICATE_STORE_UNAVAILABLE");
    assert_eq!(sc(&fetched)["error"]["retryable"], true);
    let listed = call(&s, "gemini_trust_list", json!({})).await;
    assert_eq!(error_code(&listed), "CERTIFICATE_STORE_UNAVAILABLE");
    s.cancel().await.unwrap();
}

/// The other stores an agent's tool reads (subscriptions, shared pages) say the same code
/// when they cannot be read, never INTERNAL_ERROR: the agent may retry once the person has
/// fixed the file, which the message names.
#[tokio::test]
async fn unreadable_data_stores_are_certificate_store_unavailable_not_internal() {
    let env = Env::loopback();
    for file in [
        smolweb_store::files::SUBSCRIPTIONS,
        smolweb_store::files::SHARED,
    ] {
        std::fs::create_dir_all(env.data_dir().join(file).join("oops")).unwrap();
    }
    let s = connect(&env, Gen::Initialize, TestClient::new(Elicit::Off)).await;
    for (tool, file) in [
        ("subscriptions_list", smolweb_store::files::SUBSCRIPTIONS),
        ("shared_pages_list", smolweb_store::files::SHARED),
    ] {
        let r = call(&s, tool, json!({})).await;
        assert_eq!(error_code(&r), "CERTIFICATE_STORE_UNAVAILABLE", "{tool}");
        let error = &sc(&r)["error"];
        assert_eq!(error["retryable"], true, "{tool}: {error}");
        assert!(
            error["message"].as_str().unwrap().contains(file),
            "{tool}: {error}"
        );
    }
    s.cancel().await.unwrap();
}
