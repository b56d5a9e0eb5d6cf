//! Whether a body ended cleanly, through the real binary: a Gemini answer cut without TLS
//! close_notify and one that sends it, a Gopher menu with and without its final "." line, and
//! a Gopher text (which has no end marker) say so in `request_info.ended_cleanly` and the text
//! block; an answer from smolweb's copy repeats it.

use crate::mcp_harness;
use smolweb_testkit as support;

use mcp_harness::*;
use serde_json::{Value, json};
use support::gemini::{self, Reply, Routes};
use support::gopher;

const NOTE: &str = "end not confirmed";

async fn fetch(s: &Session, tool: &str, url: &str) -> (Value, String) {
    let r = call(s, tool, json!({"url": url})).await;
    assert_ne!(r.is_error, Some(true), "{url}: {:?}", sc(&r));
    (sc(&r), texts(&r).join("\n"))
}

#[tokio::test]
async fn request_info_says_whether_the_body_ended_cleanly() {
    let body = b"# Notes\nA page of notes.\n";
    let server = gemini::Server::start(
        Routes::new()
            .route("/whole", Reply::gemtext("# Notes\nA page of notes.\n"))
            .route("/cut", Reply::close_without_notify(20, "text/gemini", body))
            .route(
                "/cut.bin",
                Reply::close_without_notify(20, "image/png", b"\x89PNG"),
            )
            .route("/robots.txt", Reply::status(51, "none")),
    )
    .await;
    let hole = gopher::Server::start(
        gopher::Routes::new()
            .route("", gopher::Reply::menu(&[("0", "About", "/about")]))
            .route(
                "/unterminated",
                gopher::Reply::text("0About\t/about\t127.0.0.1\t70\r\n"),
            )
            .route("/about", gopher::Reply::text("About this hole.\r\n")),
    )
    .await;
    let env = Env::loopback();
    let s = connect(&env, Gen::Initialize, TestClient::new(Elicit::Off)).await;
    // The key is in the published output schemas, as a boolean.
    let tools = s.list_all_tools().await.unwrap();
    for name in ["gemini_fetch", "gopher_fetch", "feed_fetch"] {
        let t = tools.iter().find(|t| t.name == name).unwrap();
        let schema = serde_json::to_string(t.output_schema.as_ref().unwrap()).unwrap();
        assert!(schema.contains("\"ended_cleanly\""), "{name}: {schema}");
    }

    let (v, text) = fetch(&s, "gemini_fetch", &server.url("/whole")).await;
    assert_eq!(v["request_info"]["ended_cleanly"], true, "{v}");
    assert!(!text.contains(NOTE), "{text}");
    let (v, text) = fetch(&s, "gemini_fetch", &server.url("/cut")).await;
    assert_eq!(v["kind"], "gemtext");
    assert_eq!(
        v["document"]["lines"][0]["content"], "# Notes",
        "the body is delivered"
    );
    assert_eq!(v["request_info"]["ended_cleanly"], false, "{v}");
    assert!(text.contains(NOTE), "{text}");
    // The flag travels with the held copy.
    let (v, text) = fetch(&s, "gemini_fetch", &server.url("/cut")).await;
    assert_eq!(v["cached"], true);
    assert_eq!(v["request_info"]["ended_cleanly"], false, "{v}");
    assert!(text.contains(NOTE), "{text}");
    let (v, _) = fetch(&s, "gemini_fetch", &server.url("/cut.bin")).await;
    assert_eq!(v["kind"], "binary");
    assert_eq!(v["request_info"]["ended_cleanly"], false, "{v}");

    let (v, text) = fetch(&s, "gopher_fetch", &hole.url('1', "")).await;
    assert_eq!(v["kind"], "menu");
    assert_eq!(v["request_info"]["ended_cleanly"], true, "{v}");
    assert!(!text.contains(NOTE), "{text}");
    let (v, text) = fetch(&s, "gopher_fetch", &hole.url('1', "/unterminated")).await;
    assert_eq!(v["items"].as_array().unwrap().len(), 1, "{v}");
    assert_eq!(v["request_info"]["ended_cleanly"], false, "{v}");
    assert!(text.contains(NOTE), "{text}");
    let (v, _) = fetch(&s, "gopher_fetch", &hole.url('0', "/about")).await;
    assert_eq!(v["kind"], "text");
    assert_eq!(v["request_info"]["ended_cleanly"], true, "{v}");

    // Results that carry no body do not carry the key.
    let r = call(&s, "gemini_fetch", json!({"url": server.url("/missing")})).await;
    assert!(
        sc(&r)["request_info"].get("ended_cleanly").is_none(),
        "{:?}",
        sc(&r)
    );
    s.cancel().await.unwrap();
}
