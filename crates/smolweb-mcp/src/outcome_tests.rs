use super::*;
use crate::render;
use serde_json::json;
use smolweb_client::{Fetched, Outcome, RequestInfo};
use smolweb_core::page::Page;
use smolweb_core::response::parse_mime;
use smolweb_core::url::Url;
use std::sync::Arc;

const LIMITS: Limits = Limits {
    offline: false,
    held: true,
    chars: 50_000,
    items: 1000,
};

fn now() -> OffsetDateTime {
    OffsetDateTime::from_unix_timestamp(1_800_000_000).unwrap()
}

fn gemini_page(url: &str, mime: &str, body: &str) -> Outcome {
    let u = Url::parse(url).unwrap();
    let page = Page::from_gemini(u, parse_mime(mime), body.as_bytes().to_vec());
    Outcome::Page {
        info: RequestInfo {
            url: url.split('?').next().unwrap().to_string(),
            host: "example.org".into(),
            port: 1965,
            path: Some("/dir/page".into()),
            has_query: url.contains('?'),
            timestamp: Some(now()),
            ..RequestInfo::default()
        },
        fetched: Fetched {
            page: Arc::new(page),
            cached: false,
            cached_at: Some(now()),
        },
    }
}

fn value(r: &FetchResult) -> serde_json::Value {
    serde_json::to_value(r).unwrap()
}

#[test]
fn gemtext_lines_carry_only_what_type_and_content_cannot_say() {
    let body = "# Title\nplain\n=> other Other page\n=> gemini://x.org/\n* item\n> quote\n```rust code\nfn x() {}\n```\n";
    let out = map_outcome(
        Family::Gemini,
        &gemini_page("gemini://example.org/dir/page", "text/gemini", body),
        0,
        LIMITS,
        now(),
    );
    let v = value(&out);
    assert_eq!(v["kind"], "gemtext");
    let lines = v["document"]["lines"].as_array().unwrap();
    assert_eq!(
        lines[0],
        json!({"type": "heading1", "content": "# Title", "text": "Title", "level": 1})
    );
    assert_eq!(lines[1], json!({"type": "text", "content": "plain"}));
    assert_eq!(
        lines[2]["link"],
        json!({"url": "gemini://example.org/dir/other", "text": "Other page"})
    );
    assert_eq!(
        lines[3]["link"],
        json!({"url": "gemini://x.org/", "text": null})
    );
    assert_eq!(lines[4]["text"], "item");
    assert_eq!(lines[5]["text"], "quote");
    assert_eq!(lines[6]["alt_text"], "rust code");
    assert_eq!(lines[6]["language"], "rust");
    assert_eq!(
        lines[7],
        json!({"type": "preformat", "content": "fn x() {}"})
    );
    assert_eq!(lines[8], json!({"type": "preformat", "content": "```"}));
    assert_eq!(v["document"]["links"].as_array().unwrap().len(), 2);
    assert_eq!(v["next_offset"], json!(null));
    assert_eq!(v["truncated"], false);
    assert_eq!(v["cached"], false);
    assert_eq!(v["cache_age_seconds"], json!(null));
    assert_eq!(v["request_info"]["has_query"], false);
    assert!(v["request_info"].get("selector").is_none());

    let text = render::fetch(&out, 0);
    assert!(text.starts_with("gemtext gemini://example.org/dir/page · chars 0-"));
    assert!(text.contains("[1] Other page <gemini://example.org/dir/other>\n"));
    assert!(text.contains("[2] <gemini://x.org/>\n"));
    assert!(!text.contains("\"type\""), "the text block is not JSON");
}

#[test]
fn gemtext_windows_abut_and_rebuild_the_body() {
    let body: String = (0..400)
        .map(|i| format!("line {i} with some words\n"))
        .collect();
    let outcome = gemini_page("gemini://example.org/dir/page", "text/gemini", &body);
    let limits = Limits {
        offline: false,
        held: true,
        chars: 1000,
        items: 10,
    };
    let (mut offset, mut rebuilt, mut windows) = (0u64, String::new(), 0);
    loop {
        let v = value(&map_outcome(
            Family::Gemini,
            &outcome,
            offset as usize,
            limits,
            now(),
        ));
        for l in v["document"]["lines"].as_array().unwrap() {
            rebuilt.push_str(l["content"].as_str().unwrap());
            rebuilt.push('\n');
        }
        windows += 1;
        match v["next_offset"].as_u64() {
            Some(n) => {
                assert_eq!(v["truncated"], true);
                offset = n;
            }
            None => break,
        }
    }
    assert_eq!(rebuilt, body);
    assert!(windows > 5);
    let past = value(&map_outcome(
        Family::Gemini,
        &outcome,
        10_000_000,
        limits,
        now(),
    ));
    assert_eq!(past["document"]["lines"], json!([]));
    assert_eq!(past["next_offset"], json!(null));
}

#[test]
fn plain_text_is_success_with_mime_parts() {
    let out = map_outcome(
        Family::Gemini,
        &gemini_page(
            "gemini://example.org/a.txt",
            "text/plain; charset=utf-8; lang=en",
            "hello\n",
        ),
        0,
        LIMITS,
        now(),
    );
    let v = value(&out);
    assert_eq!(v["kind"], "success");
    assert_eq!(
        v["mime_type"],
        json!({"type": "text", "subtype": "plain", "charset": "utf-8", "lang": "en"})
    );
    assert_eq!(v["content"], "hello\n");
    assert_eq!(v["total_chars"], 6);
}

fn failure(status: u8, meta: &str, retry: Option<u64>) -> serde_json::Value {
    let o = Outcome::Failure {
        info: RequestInfo::default(),
        status,
        meta: meta.into(),
        retry_after_seconds: retry,
    };
    value(&map_outcome(Family::Gemini, &o, 0, LIMITS, now()))
}

#[test]
fn capsule_failures_map_to_codes() {
    let cases = [
        (41, "down", "TEMPORARY_ERROR", true),
        (44, "90", "SLOW_DOWN", true),
        (51, "not here", "PERMANENT_ERROR", false),
        (59, "bad", "PERMANENT_ERROR", false),
    ];
    for (status, meta, code, temporary) in cases {
        let v = failure(status, meta, None);
        assert_eq!(v["kind"], "error");
        assert_eq!(v["error"]["code"], code, "status {status}");
        assert_eq!(v["error"]["status"], status);
        assert_eq!(v["error"]["meta"], meta);
        assert_eq!(v["error"]["temporary"], temporary);
        assert_eq!(v["error"]["retryable"], temporary);
    }
    assert_eq!(failure(44, "90", None)["error"]["retry_after_seconds"], 90);
    assert_eq!(failure(44, "x", Some(7))["error"]["retry_after_seconds"], 7);
    assert!(
        failure(41, "x", None)["error"]
            .get("retry_after_seconds")
            .is_none()
    );
}

#[test]
fn fetch_errors_carry_code_and_retryable() {
    let o = Outcome::Error {
        info: RequestInfo {
            url: "gemini://example.org/".into(),
            ..RequestInfo::default()
        },
        error: FetchError::Timeout(std::time::Duration::from_secs(30)),
    };
    let v = value(&map_outcome(Family::Gemini, &o, 0, LIMITS, now()));
    assert_eq!(v["error"]["code"], "TIMEOUT");
    assert_eq!(v["error"]["retryable"], true);
    assert!(v["request_info"].get("timestamp").is_none());
    let g = value(&map_outcome(Family::Gopher, &o, 0, LIMITS, now()));
    assert_eq!(g["kind"], "error");
    assert!(g["request_info"].get("has_query").is_none());
}

#[test]
fn input_redirect_certificate_kinds() {
    let info = RequestInfo::default();
    let input = Outcome::Input {
        info: info.clone(),
        prompt: "Name?".into(),
        sensitive: true,
    };
    let v = value(&map_outcome(Family::Gemini, &input, 0, LIMITS, now()));
    assert_eq!(
        v,
        json!({"kind": "input", "request_info": {"has_query": false}, "prompt": "Name?", "sensitive": true})
    );
    let redirect = Outcome::Redirect {
        info: info.clone(),
        target: "gemini://other.org/".into(),
        permanent: true,
        cross_host: true,
        scheme: "gemini".into(),
    };
    let v = value(&map_outcome(Family::Gemini, &redirect, 0, LIMITS, now()));
    assert_eq!(v["new_url"], "gemini://other.org/");
    assert_eq!(v["cross_host"], true);
    for (status, required) in [(60, true), (61, false), (62, false)] {
        let c = Outcome::Certificate {
            info: info.clone(),
            status,
            message: "cert please".into(),
        };
        let v = value(&map_outcome(Family::Gemini, &c, 0, LIMITS, now()));
        assert_eq!(v["kind"], "certificate");
        assert_eq!(v["required"], required);
        assert!(!v["next_step"].as_str().unwrap().is_empty());
    }
}

#[test]
fn gopher_menu_windows_by_items() {
    let mut menu = String::new();
    for i in 0..25 {
        menu.push_str(&format!("0File {i}\t/f{i}\texample.org\t70\r\n"));
    }
    menu.push_str("iinfo line\tfake\t(NULL)\t0\r\n.\r\n");
    let u = Url::parse("gopher://example.org/1/").unwrap();
    let page = Page::from_gopher(u, '1', menu.into_bytes());
    let o = Outcome::Page {
        info: RequestInfo {
            url: "gopher://example.org/1/".into(),
            host: "example.org".into(),
            port: 70,
            item_type: Some('1'),
            selector: Some("/".into()),
            ..RequestInfo::default()
        },
        fetched: Fetched {
            page: Arc::new(page),
            cached: true,
            cached_at: Some(now() - time::Duration::seconds(12)),
        },
    };
    let limits = Limits {
        offline: false,
        held: true,
        chars: 100,
        items: 10,
    };
    let first = map_outcome(Family::Gopher, &o, 0, limits, now());
    let v = value(&first);
    assert_eq!(v["kind"], "menu");
    assert_eq!(v["total_items"], 26);
    assert_eq!(v["next_offset"], 10);
    assert_eq!(v["cached"], true);
    assert_eq!(v["cache_age_seconds"], 12.0);
    assert_eq!(v["request_info"]["type"], "1");
    assert!(v["request_info"].get("search_ignored").is_none());
    assert_eq!(v["items"][0]["next_url"], "gopher://example.org/0/f0");
    let last = value(&map_outcome(Family::Gopher, &o, 20, limits, now()));
    assert_eq!(last["items"].as_array().unwrap().len(), 6);
    assert_eq!(last["items"][5]["next_url"], "");
    assert_eq!(last["next_offset"], json!(null));
    let text = render::fetch(&first, 0);
    assert!(text.starts_with(
        "menu gopher://example.org/1/ · items 0-10 of 26 · next offset 10 · cached 12s ago\n"
    ));
    assert!(text.contains("[1] (text) File 0 <gopher://example.org/0/f0>"));
}

#[test]
fn a_61_without_an_identity_points_at_the_token_not_an_identity() {
    let none = certificate_next_step(61, false);
    assert!(
        none.contains("No identity was presented") && none.contains("token"),
        "{none}"
    );
    let sent = certificate_next_step(61, true);
    assert!(sent.contains("The identity that was presented"), "{sent}");
}

#[test]
fn a_search_engine_that_forbids_bots_is_named_as_such() {
    let engine = FetchError::BlockedByRobots {
        host: "kennedy.gemi.dev".into(),
        path: "/search".into(),
    };
    let body = fetch_error_body(&engine);
    assert_eq!(body.code, ErrorCode::BlockedByRobots);
    assert!(
        body.message.contains("search engine forbids bots"),
        "{}",
        body.message
    );
    assert!(body.message.contains("search_local"), "{}", body.message);
    let other = FetchError::BlockedByRobots {
        host: "moss.test".into(),
        path: "/x".into(),
    };
    assert!(!fetch_error_body(&other).message.contains("search engine"));
}
