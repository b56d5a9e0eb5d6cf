//! The official Python MCP SDK against the built binary (tests/python/smoke.py), on both
//! protocol generations. The interpreter comes from SMOLWEB_PYTHON, else a venv under
//! target/pyvenv, else /tmp/mcpvenv, else python3 — the first one that can `import mcp`.
//! Without one the test prints a loud SKIP and passes, unless SMOLWEB_REQUIRE_PYTHON_MCP=1.
//! (Set one up with: python3 -m venv target/pyvenv && target/pyvenv/bin/pip install mcp)
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod mcp_harness;
mod support;

use mcp_harness::Env;
use std::path::PathBuf;
use support::gemini::{self, Reply, Routes};
use support::gopher;

fn python_with_mcp() -> Option<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let candidates = [
        std::env::var_os("SMOLWEB_PYTHON").map(PathBuf::from),
        Some(root.join("target/pyvenv/bin/python")),
        Some(PathBuf::from("/tmp/mcpvenv/bin/python")),
        Some(PathBuf::from("python3")),
    ];
    candidates.into_iter().flatten().find(|p| {
        std::process::Command::new(p)
            .args(["-c", "import mcp, mcp_types"])
            .output()
            .is_ok_and(|o| o.status.success())
    })
}

fn routes() -> Routes {
    Routes::new()
        .route("/", Reply::gemtext("# Python\n=> /ask Ask\n"))
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
    let Some(python) = python_with_mcp() else {
        if std::env::var("SMOLWEB_REQUIRE_PYTHON_MCP").as_deref() == Ok("1") {
            panic!("no Python interpreter with the `mcp` package (SMOLWEB_REQUIRE_PYTHON_MCP=1)");
        }
        eprintln!(
            "\n*** SKIP mcp_python ({mode}): no Python with the `mcp` package. Set \
             SMOLWEB_PYTHON or run: python3 -m venv target/pyvenv && \
             target/pyvenv/bin/pip install mcp ***\n"
        );
        return;
    };
    let gem = gemini::Server::start(routes()).await;
    let hole = gopher::Server::start(
        gopher::Routes::new().route("", gopher::Reply::menu(&[("0", "Readme", "/r")])),
    )
    .await;
    let env = Env::loopback();
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/python/smoke.py");
    let gemini_base = gem.url("").trim_end_matches('/').to_string();
    let gopher_base = format!("gopher://127.0.0.1:{}", hole.port());
    let out = tokio::process::Command::new(&python)
        .arg(&script)
        .arg(mode)
        .arg(env!("CARGO_BIN_EXE_smolweb"))
        .arg(env.data_dir())
        .arg(env.config_file())
        .arg(&gemini_base)
        .arg(&gopher_base)
        .env_remove("SMOLWEB_HOME")
        .env_remove("SMOLWEB_CONFIG")
        .output();
    let out = tokio::time::timeout(std::time::Duration::from_secs(120), out)
        .await
        .expect("the Python client finished within 120 s")
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "python client ({mode}) failed\nstdout:\n{stdout}\nstderr:\n{stderr}"
    );
    assert!(stdout.contains("OK"), "{stdout}");
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
#[test]
fn python_sdk_reads_the_protocol_errors() {
    let Some(python) = python_with_mcp() else {
        eprintln!("*** SKIP python_sdk_reads_the_protocol_errors: no Python with `mcp` ***");
        let required = std::env::var("SMOLWEB_REQUIRE_PYTHON_MCP");
        assert!(required.as_deref() != Ok("1"), "no Python with `mcp`");
        return;
    };
    let env = Env::loopback();
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/python/strict.py");
    let out = std::process::Command::new(&python)
        .arg(&script)
        .arg(env!("CARGO_BIN_EXE_smolweb"))
        .arg(env.data_dir())
        .arg(env.config_file())
        .env_remove("SMOLWEB_HOME")
        .env_remove("SMOLWEB_CONFIG")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "strict.py failed\nstdout:\n{stdout}\nstderr:\n{stderr}"
    );
    assert!(stdout.contains("python strict protocol: OK"), "{stdout}");
    println!("{stdout}");
}
