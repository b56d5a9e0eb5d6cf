//! Content types through the real binary, each read both ways: `fetch_url` (over MCP, rmcp's
//! client) and `smolweb get`. The Accept header smolweb sends; markdown and plain text given
//! as sent (charset-decoded only); JSON pretty-printed (invalid JSON as it came); XML and
//! feeds as text; PDFs read as text with page markers, recognised by their bytes whatever
//! their type; encrypted and image-only PDFs refused saying why.

use crate::mcp_harness;
use smolweb_testkit as support;

use mcp_harness::*;
use serde_json::{Value, json};
use std::process::Output;
use support::http::{Reply, Server};
use support::pdf::{Layout, encrypted_pdf, image_only_pdf, text_pdf};

const CONFIG: &str = "\
[network]
allowed_hosts = [\"127.0.0.1\"]
timeout_seconds = 10
[politeness]
per_host_interval_ms = 0
";

const ACCEPT: &str = "text/markdown, text/html;q=0.9, text/plain;q=0.8, */*;q=0.1";

/// A server that answers every path but /robots.txt with `reply`.
async fn serving(reply: Reply) -> Server {
    Server::start(move |r| match r.path() {
        "/robots.txt" => Reply::new(404, "text/plain", ""),
        _ => reply.clone(),
    })
    .await
}

/// `fetch_url` on `url`, through a fresh `smolweb --mcp`.
async fn fetch_url(env: &Env, url: &str) -> (Value, String) {
    fetch_url_with(env, json!({ "url": url })).await
}

async fn fetch_url_with(env: &Env, args: Value) -> (Value, String) {
    let session = connect(env, Gen::Initialize, TestClient::new(Elicit::Off)).await;
    let r = call(&session, "fetch_url", args).await;
    session.cancel().await.unwrap();
    (sc(&r), texts(&r).join("\n"))
}

/// `smolweb get URL` (and extra arguments) against the same environment.
async fn get(env: &Env, url: &str, extra: &[&str]) -> Output {
    tokio::process::Command::new(env!("CARGO_BIN_EXE_smolweb"))
        .args(env.args())
        .arg("get")
        .args(extra)
        .arg(url)
        .env_remove("SMOLWEB_HOME")
        .env_remove("SMOLWEB_CONFIG")
        .output()
        .await
        .unwrap()
}

fn stdout(o: &Output) -> String {
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout.clone()).unwrap()
}

/// A successful `fetch_url` page: not an error, extraction `none`, the type as sent.
fn page<'v>(v: &'v Value, content_type: &str) -> &'v str {
    assert!(v.get("error").is_none(), "{v}");
    assert_eq!(v["extraction"], "none", "{v}");
    assert_eq!(v["contentType"], content_type, "{v}");
    v["text"].as_str().unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_request_asks_for_markdown_first() {
    let s = serving(Reply::new(200, "text/plain", "hello\n")).await;
    let env = Env::new(CONFIG);
    fetch_url(&env, &s.url("/a")).await;
    stdout(&get(&env, &s.url("/b"), &[]).await);
    let seen: Vec<_> = s
        .requests()
        .into_iter()
        .filter(|r| r.path() != "/robots.txt")
        .map(|r| (r.path().to_string(), r.header("accept").map(str::to_string)))
        .collect();
    assert_eq!(
        seen,
        [
            ("/a".to_string(), Some(ACCEPT.to_string())),
            ("/b".to_string(), Some(ACCEPT.to_string()))
        ]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn markdown_is_given_as_sent_and_read_as_markdown() {
    // Latin-1 bytes, declared: decoded, otherwise untouched (no HTML conversion, no escaping).
    let body =
        b"# Caf\xe9 notes\n\n* one <b>point</b>\n* [two](https://example.org/two)\n".to_vec();
    let s = serving(Reply::new(200, "text/markdown; charset=iso-8859-1", body)).await;
    let env = Env::new(CONFIG);
    let (v, _) = fetch_url(&env, &s.url("/notes.md")).await;
    assert_eq!(
        page(&v, "text/markdown; charset=iso-8859-1"),
        "# Café notes\n\n* one <b>point</b>\n* [two](https://example.org/two)\n"
    );
    // The browser's reader (and so `get`) renders markdown like a converted article.
    let out = stdout(&get(&env, &s.url("/notes.md"), &[]).await);
    assert!(out.starts_with("# Café notes\n"), "{out}");
    assert!(out.contains("• one point"), "{out}");
    assert!(out.contains("[1] two <https://example.org/two>"), "{out}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn plain_text_is_given_as_sent() {
    let body = "# not a heading\n=> not a link\n<p>not html</p>\n  indented\n";
    let s = serving(Reply::new(200, "text/plain; charset=utf-8", body)).await;
    let env = Env::new(CONFIG);
    let (v, _) = fetch_url(&env, &s.url("/notes.txt")).await;
    assert_eq!(page(&v, "text/plain; charset=utf-8"), body);
    assert_eq!(stdout(&get(&env, &s.url("/notes.txt"), &[]).await), body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn json_is_pretty_printed_and_invalid_json_is_shown_as_it_came() {
    let s = Server::start(|r| match r.path() {
        "/api" => Reply::new(
            200,
            "application/problem+json; charset=utf-8",
            r#"{"title":"Out of stock","detail":{"sku":"A-1","left":0},"tags":["x"]}"#,
        ),
        "/broken" => Reply::new(200, "application/json", r#"{"title": "cut off"#),
        _ => Reply::new(404, "text/plain", ""),
    })
    .await;
    let env = Env::new(CONFIG);
    let pretty = "{\n  \"title\": \"Out of stock\",\n  \"detail\": {\n    \"sku\": \"A-1\",\n    \"left\": 0\n  },\n  \"tags\": [\n    \"x\"\n  ]\n}\n";
    let (v, _) = fetch_url(&env, &s.url("/api")).await;
    assert_eq!(page(&v, "application/problem+json; charset=utf-8"), pretty);
    let (v, _) = fetch_url(&env, &s.url("/broken")).await;
    assert_eq!(page(&v, "application/json"), r#"{"title": "cut off"#);
    assert_eq!(stdout(&get(&env, &s.url("/api"), &[]).await), pretty);
    // `--raw` is the body as sent.
    let raw = get(&env, &s.url("/api"), &["--raw"]).await;
    assert!(String::from_utf8_lossy(&raw.stdout).starts_with(r#"{"title":"Out"#));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn xml_and_feeds_are_text() {
    let atom = "<?xml version=\"1.0\"?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\"><title>Log</title></feed>\n";
    let s = serving(Reply::new(200, "application/atom+xml; charset=utf-8", atom)).await;
    let env = Env::new(CONFIG);
    let (v, _) = fetch_url(&env, &s.url("/atom.xml")).await;
    assert_eq!(page(&v, "application/atom+xml; charset=utf-8"), atom);
    assert_eq!(stdout(&get(&env, &s.url("/atom.xml"), &[]).await), atom);
}

const LINES: &[&str] = &[
    "The harbour fills slowly because the channel is long.",
    "Boats wait outside for the flood.",
];

fn report() -> Vec<u8> {
    text_pdf(
        "Harbour report",
        &[LINES, &["Records kept over fifty years."]],
        Layout::Kerned,
        true,
    )
}

const REPORT_TEXT: &str = "--- page 1 of 2 ---\n\nThe harbour fills slowly because the channel is long.\nBoats wait outside for the flood.\n\n--- page 2 of 2 ---\n\nRecords kept over fifty years.\n";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pdf_is_read_as_text_with_page_markers() {
    let pdf = report();
    let s = serving(Reply::new(200, "application/pdf", pdf.clone())).await;
    let env = Env::new(CONFIG);
    let (v, block) = fetch_url(&env, &s.url("/report.pdf")).await;
    assert_eq!(page(&v, "application/pdf"), REPORT_TEXT);
    assert_eq!(v["title"], "Harbour report");
    assert_eq!(v["byline"], "A. Writer");
    assert_eq!(v["bytes"], pdf.len());
    assert!(block.contains("untrusted data"), "{block}");
    assert_eq!(
        stdout(&get(&env, &s.url("/report.pdf"), &[]).await),
        REPORT_TEXT
    );
    let raw = get(&env, &s.url("/report.pdf"), &["--raw"]).await;
    assert_eq!(raw.stdout, pdf, "--raw writes the PDF itself");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pdf_cut_by_the_body_cap_is_read_as_far_as_it_goes() {
    let pages: Vec<&[&str]> = vec![LINES; 6];
    let pdf = text_pdf("Long report", &pages, Layout::Lines, false);
    let cap = pdf.len() * 2 / 3;
    let s = serving(Reply::new(200, "application/pdf", pdf)).await;
    let env = Env::new(CONFIG);
    let (v, _) = fetch_url_with(&env, json!({"url": s.url("/long.pdf"), "max_bytes": cap})).await;
    let text = page(&v, "application/pdf");
    assert_eq!(v["truncated"], true, "{v}");
    assert_eq!(v["bytes"], cap, "{v}");
    assert!(
        text.starts_with("--- page 1 of 6 ---\n\nThe harbour fills slowly"),
        "{text}"
    );
    assert!(
        text.contains("--- page 4 of 6 ---\n\nThe harbour"),
        "{text}"
    );
    // The pages past the cut are named, with nothing in them.
    assert!(
        text.ends_with("--- page 6 of 6 ---\n\n(no text on this page)\n"),
        "{text}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pdf_is_recognised_by_its_bytes_whatever_its_type_says() {
    let pdf = report();
    let s = Server::start(move |r| {
        let ct = match r.path() {
            "/octet" => "application/octet-stream",
            "/html" => "text/html; charset=utf-8",
            _ => return Reply::new(404, "text/plain", ""),
        };
        Reply::new(200, ct, pdf.clone())
    })
    .await;
    let env = Env::new(CONFIG);
    for (path, ct) in [
        ("/octet", "application/octet-stream"),
        ("/html", "text/html; charset=utf-8"),
    ] {
        let (v, _) = fetch_url(&env, &s.url(path)).await;
        assert_eq!(page(&v, ct), REPORT_TEXT, "{path}");
        assert_eq!(stdout(&get(&env, &s.url(path), &[]).await), REPORT_TEXT);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn encrypted_and_image_only_pdfs_are_refused_saying_why() {
    let locked = encrypted_pdf();
    let scan = image_only_pdf(3);
    let (locked_len, scan_len) = (locked.len(), scan.len());
    let s = Server::start(move |r| match r.path() {
        "/locked.pdf" => Reply::new(200, "application/pdf", locked.clone()),
        "/scan.pdf" => Reply::new(200, "application/pdf", scan.clone()),
        _ => Reply::new(404, "text/plain", ""),
    })
    .await;
    let env = Env::new(CONFIG);
    for (path, len, why) in [
        (
            "/locked.pdf",
            locked_len,
            "has no text smolweb can read: it is encrypted and cannot be read without its password",
        ),
        (
            "/scan.pdf",
            scan_len,
            "it has no text layer, only images on its 3 pages",
        ),
    ] {
        let (v, block) = fetch_url(&env, &s.url(path)).await;
        assert_eq!(v["error"]["code"], "UNSUPPORTED_CONTENT_TYPE", "{v}");
        assert_eq!(v["error"]["retryable"], false, "{v}");
        let message = v["error"]["message"].as_str().unwrap();
        assert!(message.contains(why), "{path}: {message}");
        assert!(
            message.starts_with(&format!("this PDF ({len} bytes)")),
            "{message}"
        );
        assert!(block.contains("UNSUPPORTED_CONTENT_TYPE"), "{block}");
        // The person's face keeps it to be opened elsewhere, typed by what it is.
        let out = stdout(&get(&env, &s.url(path), &[]).await);
        assert_eq!(
            out,
            format!("[{len} bytes of application/pdf; use --raw to write them]\n")
        );
    }
}
