//! The official Python MCP SDK against the built binary (tests/python/smoke.py), on both
//! protocol generations, reading the protocol errors (tests/python/strict.py), and seeing
//! argument errors per protocol version with SDK 2.x and 1.x (tests/python/arguments.py).
//! Finding the interpreters, and skipping without one, is `mcp_harness::python`'s.

use crate::mcp_harness;
use smolweb_testkit as support;

use mcp_harness::{Env, python};
use support::gemini::{self, Reply, Routes};
use support::gopher;

fn routes() -> Routes {
    Routes::new()
        .route("/", Reply::gemtext("# Python\n=> /ask Ask\n"))
        // UTF-16, a bidi override and a refused link: hints, charset and refused_scheme must
        // validate against the output schema.
        .route(
            "/spoof",
            Reply::ok(
                "text/gemini; charset=utf-16",
                "# Spoof\n=> javascript:alert(1) Click \u{202e}me\n=> /ask Ask\n"
                    .encode_utf16()
                    .flat_map(u16::to_le_bytes)
                    .collect::<Vec<u8>>(),
            ),
        )
        .handler(
            |req| match (req.path.as_str(), &req.query, &req.client_cert) {
                ("/ask", None, _) => Reply::status(10, "Say something"),
                ("/ask", Some(_), _) => Reply::gemtext("# Thanks\n"),
                ("/secret", None, _) => Reply::status(11, "Password"),
                ("/secret", Some(q), _) if q == "open%20sesame" => Reply::gemtext("# Open\n"),
                ("/club", _, None) => Reply::status(60, "Members only"),
                ("/club", _, Some(_)) => Reply::gemtext("# Member\n"),
                _ => Reply::status(51, "not found"),
            },
        )
}

async fn run(mode: &str) {
    let Some(python) = python::interpreter(&format!("mcp_python ({mode})")) else {
        return;
    };
    let gem = gemini::Server::start(routes()).await;
    let hole = gopher::Server::start(
        // smoke.py asks for gopher://HOST:PORT/1/, the selector "/".
        gopher::Routes::new().route(
            "/",
            gopher::Reply::menu(&[
                ("0", "Readme", "/r"),
                ("h", "Run", "URL:javascript:alert(1)"),
            ]),
        ),
    )
    .await;
    let env = Env::loopback();
    let extra = [
        gem.url("").trim_end_matches('/').to_string(),
        format!("gopher://127.0.0.1:{}", hole.port()),
        crate::mcp_tools_list::published_names().join(","),
    ];
    let stdout = python::run(&python, "smoke.py", Some(mode), &env, &extra).await;
    println!("{stdout}");
    let modern = stdout.contains("protocol 2026-07-28");
    assert_eq!(modern, mode == "auto", "negotiated generation: {stdout}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn python_sdk_legacy_initialize() {
    run("legacy").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn python_sdk_auto_discover() {
    run("auto").await;
}

/// Broken input on the wire (not JSON, an oversized line, mismatched arguments, a malformed
/// request), each reply read with the SDK's own JSON-RPC types (tests/python/strict.py).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn python_sdk_reads_the_protocol_errors() {
    let Some(python) = python::interpreter("python_sdk_reads_the_protocol_errors") else {
        return;
    };
    let env = Env::loopback();
    let stdout = python::run(&python, "strict.py", None, &env, &[]).await;
    assert!(stdout.contains("python strict protocol: OK"), "{stdout}");
    println!("{stdout}");
}

/// Arguments that fail the input schema: a -32602 exception on 2025-06-18, an `isError` result
/// matching the tool's output schema on 2025-11-25 and 2026-07-28 (tests/python/arguments.py).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn python_sdk_argument_errors_per_generation() {
    let Some(python) = python::interpreter("python_sdk_argument_errors_per_generation") else {
        return;
    };
    let stdout = python::run(&python, "arguments.py", None, &Env::loopback(), &[]).await;
    println!("{stdout}");
    assert!(
        stdout.contains("on 2025-06-18, 2025-11-25, 2026-07-28: OK"),
        "{stdout}"
    );
}

/// The same with the SDK's 1.x line (2025-06-18 and 2025-11-25).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn python_sdk1_argument_errors_per_generation() {
    let Some(python) = python::interpreter_mcp1("python_sdk1_argument_errors_per_generation")
    else {
        return;
    };
    let stdout = python::run(&python, "arguments.py", None, &Env::loopback(), &[]).await;
    println!("{stdout}");
    assert!(stdout.contains("on 2025-06-18, 2025-11-25: OK"), "{stdout}");
}
