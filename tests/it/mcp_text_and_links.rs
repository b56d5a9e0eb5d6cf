//! The agent face and text that lies (Hardening II, items 1, 3 and 4), over stdio against the
//! built binary: bidi and invisible characters are kept as sent but flagged (`hints`),
//! bodies in UTF-16 or with an unknown charset label are decoded and the charset used is
//! reported, and links with foreign schemes are kept as text with `refused_scheme`, never a
//! `next_url` or a listed link; a redirect to one is an error.

use crate::mcp_harness;
use smolweb_testkit as support;

use mcp_harness::*;
use serde_json::{Value, json};
use support::gemini::{self, Reply, Routes};
use support::gopher;

const TROJAN: &str = "# Spoof\n\
    => javascript:alert(1) Click \u{202e}me\n\
    => file:///etc/passwd Secrets\n\
    => /next Next\n\
    ```sh\n\
    rm -rf /tmp/x \u{2067}\u{2066}# harmless\u{2069}\u{2069}\n\
    ```\n";

fn utf16le(s: &str, bom: bool) -> Vec<u8> {
    let mut out = if bom { vec![0xFF, 0xFE] } else { Vec::new() };
    out.extend(s.encode_utf16().flat_map(u16::to_le_bytes));
    out
}

fn hints(v: &Value) -> Vec<String> {
    v.get("hints")
        .and_then(Value::as_array)
        .map(|a| a.iter().map(|h| h.as_str().unwrap().to_string()).collect())
        .unwrap_or_default()
}

#[tokio::test]
async fn gemini_text_is_kept_flagged_decoded_and_its_foreign_links_refused() {
    let routes = Routes::new()
        .route("/trojan", Reply::gemtext(TROJAN))
        .route(
            "/clean",
            Reply::gemtext("# Clean\nplain 日本語 👨\u{200d}👩\n"),
        )
        .route(
            "/zw",
            Reply::ok(
                "text/plain",
                "pay\u{200b}pal\u{e0041}\n".as_bytes().to_vec(),
            ),
        )
        .route(
            "/utf16",
            Reply::ok(
                "text/gemini; charset=utf-16",
                utf16le("# Grüße\n=> /a Köln\n", false),
            ),
        )
        .route(
            "/utf16bom",
            Reply::ok(
                "text/gemini; charset=iso-8859-1",
                utf16le("# Grüße\n", true),
            ),
        )
        .route(
            "/klingon",
            Reply::ok(
                "text/gemini; charset=klingon",
                "# Qapla’\n".as_bytes().to_vec(),
            ),
        )
        .route("/redirect", Reply::status(30, "javascript:alert(1)"))
        .route("/mailto", Reply::status(31, "mailto:op@example.org"));
    let server = gemini::Server::start(routes).await;
    let env = Env::loopback();
    let s = connect(&env, Gen::Initialize, TestClient::new(Elicit::Off)).await;

    let r = call(&s, "gemini_fetch", json!({"url": server.url("/trojan")})).await;
    let v = sc(&r);
    assert_eq!(v["kind"], "gemtext", "{v}");
    assert_eq!(hints(&v), ["bidi-controls"], "{v}");
    let lines = v["document"]["lines"].as_array().unwrap();
    // Kept exactly as sent: the agent's text is data.
    assert_eq!(
        lines[1]["content"],
        "=> javascript:alert(1) Click \u{202e}me"
    );
    assert_eq!(
        lines[5]["content"],
        "rm -rf /tmp/x \u{2067}\u{2066}# harmless\u{2069}\u{2069}"
    );
    assert_eq!(lines[1]["link"]["refused_scheme"], "javascript");
    assert_eq!(lines[2]["link"]["refused_scheme"], "file");
    assert!(lines[3]["link"].get("refused_scheme").is_none());
    let links: Vec<&str> = v["document"]["links"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["url"].as_str().unwrap())
        .collect();
    assert_eq!(links, [server.url("/next")], "only destinations are listed");
    let text = texts(&r).join("");
    assert!(text.contains("hints: bidi-controls"), "{text}");
    assert!(
        text.contains("[1] Next <"),
        "the one link is number 1: {text}"
    );
    assert!(
        text.contains("(refused javascript: link, not followed)"),
        "{text}"
    );

    let clean = sc(&call(&s, "gemini_fetch", json!({"url": server.url("/clean")})).await);
    assert!(
        clean.get("hints").is_none(),
        "no hints on clean text: {clean}"
    );
    let zw = sc(&call(&s, "gemini_fetch", json!({"url": server.url("/zw")})).await);
    assert_eq!(zw["kind"], "success");
    assert_eq!(hints(&zw), ["invisible-characters"], "{zw}");
    assert_eq!(zw["content"], "pay\u{200b}pal\u{e0041}\n");

    // Charsets: UTF-16 without a BOM by its label, with a BOM whatever the label says.
    let u = sc(&call(&s, "gemini_fetch", json!({"url": server.url("/utf16")})).await);
    assert_eq!(u["charset"], "utf-16le", "{u}");
    assert_eq!(u["document"]["lines"][0]["content"], "# Grüße");
    assert_eq!(u["document"]["links"][0]["text"], "Köln");
    let b = sc(&call(&s, "gemini_fetch", json!({"url": server.url("/utf16bom")})).await);
    assert_eq!(
        (
            b["charset"].as_str(),
            b["document"]["lines"][0]["content"].as_str()
        ),
        (Some("utf-16le"), Some("# Grüße"))
    );
    let k = sc(&call(&s, "gemini_fetch", json!({"url": server.url("/klingon")})).await);
    assert_eq!(k["charset"], "utf-8");
    assert_eq!(hints(&k), ["unknown-charset-label"], "{k}");
    assert_eq!(k["document"]["lines"][0]["content"], "# Qapla’");

    // A redirect to a foreign scheme (or to mail) is not a destination.
    for path in ["/redirect", "/mailto"] {
        let r = call(&s, "gemini_fetch", json!({"url": server.url(path)})).await;
        assert_eq!(error_code(&r), "PROTOCOL_ERROR", "{path}");
        assert!(
            sc(&r)["error"]["message"]
                .as_str()
                .unwrap()
                .contains("not followed")
        );
    }
    s.cancel().await.unwrap();
}

#[tokio::test]
async fn gopher_items_with_foreign_schemes_lead_nowhere() {
    let menu = "hClick\tURL:javascript:alert(1)\t127.0.0.1\t70\r\n\
                hPasswords\tURL:file:///etc/passwd\t127.0.0.1\t70\r\n\
                hWeb\tURL:https://example.org/\t127.0.0.1\t70\r\n\
                8Chat\t\tbbs.example\t23\r\n\
                0Read\u{200b}me\t/r\t127.0.0.1\t70\r\n.\r\n";
    let routes = gopher::Routes::new()
        .route("", gopher::Reply::text(menu))
        .route(
            "/r",
            gopher::Reply::text("a \u{202e}reversed\u{202c} line\r\n.\r\n"),
        );
    let server = gopher::Server::start(routes).await;
    let env = Env::loopback();
    let s = connect(&env, Gen::Discover, TestClient::new(Elicit::Off)).await;
    let r = call(&s, "gopher_fetch", json!({"url": server.url('1', "")})).await;
    let v = sc(&r);
    assert_eq!(v["kind"], "menu", "{v}");
    let items = v["items"].as_array().unwrap();
    let got: Vec<(&str, &str, Option<&str>)> = items
        .iter()
        .map(|i| {
            (
                i["title"].as_str().unwrap(),
                i["next_url"].as_str().unwrap(),
                i.get("refused_scheme").and_then(Value::as_str),
            )
        })
        .collect();
    assert_eq!(got[0], ("Click", "", Some("javascript")));
    assert_eq!(got[1], ("Passwords", "", Some("file")));
    assert_eq!(got[2], ("Web", "https://example.org/", None));
    assert_eq!(got[3], ("Chat", "", Some("telnet")));
    assert_eq!(hints(&v), ["invisible-characters"], "{v}");
    let text = texts(&r).join("");
    assert!(
        text.contains("Click (refused javascript: link, not followed)"),
        "{text}"
    );
    assert!(!text.contains("<javascript:"), "{text}");

    let t = sc(&call(&s, "gopher_fetch", json!({"url": server.url('0', "/r")})).await);
    assert_eq!(t["kind"], "text");
    assert_eq!(t["text"], "a \u{202e}reversed\u{202c} line\n");
    assert_eq!(hints(&t), ["bidi-controls"]);
    s.cancel().await.unwrap();
}
