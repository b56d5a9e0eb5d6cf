//! https trust roots through the real binary: a test CA trusted only through `SSL_CERT_FILE`
//! (set on the spawned child alone: the tests share one process) verifies the page for
//! `smolweb get` and for `fetch_url`, whose `request_info.tls_root` names that CA and the
//! variable; without the variable the same server is a certificate error. The official Python
//! MCP SDK checks the same through its schema validation (tests/python/roots.py; skips loudly
//! without an interpreter that has `mcp`, unless SMOLWEB_REQUIRE_PYTHON_MCP=1).

use crate::mcp_harness::{python, *};
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use rmcp::{ClientLifecycleMode, ClientServiceExt};
use serde_json::json;
use smolweb_testkit::http::{Reply, Server, TestCa};
use std::path::Path;
use std::process::Output;

const CONFIG: &str = "\
[network]
allowed_hosts = [\"127.0.0.1\"]
timeout_seconds = 5
[politeness]
per_host_interval_ms = 0
";

async fn tls_server(ca: &TestCa) -> Server {
    Server::start_tls(ca, |r| match r.path() {
        "/robots.txt" => Reply::new(404, "text/plain", ""),
        _ => Reply::html("<html><body><p>Rooted in a file.</p></body></html>"),
    })
    .await
}

/// `smolweb get URL` with `SSL_CERT_FILE` set to `cert_file` (or unset) in the child only.
async fn get(data: &Path, url: &str, cert_file: Option<&Path>) -> Output {
    let mut cmd = tokio::process::Command::new(env!("CARGO_BIN_EXE_smolweb"));
    cmd.arg("--data-dir")
        .arg(data)
        .args(["get", url])
        .env_remove("SMOLWEB_HOME")
        .env_remove("SMOLWEB_CONFIG")
        .env_remove("SSL_CERT_FILE")
        .env_remove("SSL_CERT_DIR");
    if let Some(f) = cert_file {
        cmd.env("SSL_CERT_FILE", f);
    }
    cmd.output().await.unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn get_trusts_a_root_from_ssl_cert_file_only_when_it_is_set() {
    let ca = TestCa::new();
    let s = tls_server(&ca).await;
    let dir = tempfile::tempdir().unwrap();
    let pem = ca.write_pem(dir.path());
    let data = dir.path().join("data");

    let o = get(&data, &s.url("/"), None).await;
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(4), "a TLS failure: {stderr}");
    assert!(
        stderr.contains("TLS") && stderr.to_lowercase().contains("certificate"),
        "{stderr}"
    );

    let o = get(&data, &s.url("/"), Some(&pem)).await;
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(String::from_utf8_lossy(&o.stdout).contains("Rooted in a file."));

    // An unreadable SSL_CERT_FILE is not fatal (the bundled roots stay); this server just
    // has no root then.
    let o = get(&data, &s.url("/"), Some(&dir.path().join("missing.pem"))).await;
    assert_eq!(
        o.status.code(),
        Some(4),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fetch_url_names_the_root_that_verified_the_chain() {
    let ca = TestCa::new();
    let s = tls_server(&ca).await;
    let env = Env::new(CONFIG);
    let pem = ca.write_pem(env.dir.path());
    let args = env.args();
    let pem_for_child = pem.clone();
    let cmd = tokio::process::Command::new(env!("CARGO_BIN_EXE_smolweb")).configure(|c| {
        c.arg("--mcp")
            .args(&args)
            .env_remove("SMOLWEB_HOME")
            .env_remove("SMOLWEB_CONFIG")
            .env_remove("SSL_CERT_DIR")
            .env("SSL_CERT_FILE", &pem_for_child);
    });
    let session = TestClient::new(Elicit::Off)
        .serve_with_lifecycle(
            TokioChildProcess::new(cmd).unwrap(),
            ClientLifecycleMode::Initialize,
        )
        .await
        .unwrap();
    let r = call(&session, "fetch_url", json!({"url": s.url("/")})).await;
    let v = sc(&r);
    assert_ne!(r.is_error, Some(true), "{v}");
    assert!(
        v["text"].as_str().unwrap().contains("Rooted in a file."),
        "{v}"
    );
    let info = &v["request_info"];
    assert_eq!(
        info["tls_root"],
        format!("smolweb test CA, from SSL_CERT_FILE ({})", pem.display()),
        "{v}"
    );
    assert_eq!(
        info["cert_fingerprint"],
        smolweb_core::fingerprint::sha256_fingerprint(&ca.leaf),
        "{v}"
    );
    assert!(info["tls_version"].as_str().unwrap().starts_with("TLSv1."));
    // A later window is served from the held copy and still says which root verified it.
    let r = call(
        &session,
        "fetch_url",
        json!({"url": s.url("/"), "max_chars": 5, "start_index": 5}),
    )
    .await;
    let v = sc(&r);
    assert_eq!(v["fromCache"], true, "{v}");
    assert!(
        v["request_info"]["tls_root"]
            .as_str()
            .unwrap()
            .starts_with("smolweb test CA"),
        "{v}"
    );
    session.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn python_sdk_sees_the_root_from_ssl_cert_file() {
    let Some(python) = python::interpreter("web_roots python") else {
        return;
    };
    let ca = TestCa::new();
    let s = tls_server(&ca).await;
    let env = Env::new(CONFIG);
    let pem = ca.write_pem(env.dir.path());
    let out = python::run(
        &python,
        "roots.py",
        Some("auto"),
        &env,
        &[s.url("/"), pem.display().to_string()],
    )
    .await;
    println!("{out}");
}
