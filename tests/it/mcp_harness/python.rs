//! The official Python MCP SDK as an outside client: finding an interpreter that has it, and
//! running one of the scripts under tests/python against the built binary.
//!
//! SDK 2.x: SMOLWEB_PYTHON, else a venv under target/pyvenv, else the CI venv, else
//! /tmp/mcpvenv, else python3 — the first that can `import mcp, mcp_types`. SDK 1.x (for the
//! checks that differ per SDK major): SMOLWEB_PYTHON_MCP1, else target/pyvenv-mcp1, else
//! /tmp/mcp1-venv — the first whose `mcp` is 1.x. Without one a test prints a loud SKIP and
//! passes, unless SMOLWEB_REQUIRE_PYTHON_MCP=1 (CI), where it fails.
//! (Set them up with: python3 -m venv target/pyvenv && target/pyvenv/bin/pip install mcp, and
//! python3 -m venv target/pyvenv-mcp1 && target/pyvenv-mcp1/bin/pip install 'mcp<2')

use super::Env;
use std::path::{Path, PathBuf};

/// The SDK 2.x interpreter, or None after saying SKIP for `test` (a failure when required).
pub(crate) fn interpreter(test: &str) -> Option<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let candidates = [
        std::env::var_os("SMOLWEB_PYTHON").map(PathBuf::from),
        Some(root.join("target/pyvenv/bin/python")),
        Some(PathBuf::from("/tmp/smolweb-ci-venv/bin/python")),
        Some(PathBuf::from("/tmp/mcpvenv/bin/python")),
        Some(PathBuf::from("python3")),
    ];
    find(
        test,
        candidates,
        "import mcp, mcp_types",
        "the `mcp` package (2.x). Set SMOLWEB_PYTHON or run: python3 -m venv target/pyvenv && \
         target/pyvenv/bin/pip install mcp",
    )
}

/// The SDK 1.x interpreter, or None after saying SKIP for `test` (a failure when required).
pub(crate) fn interpreter_mcp1(test: &str) -> Option<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let candidates = [
        std::env::var_os("SMOLWEB_PYTHON_MCP1").map(PathBuf::from),
        Some(root.join("target/pyvenv-mcp1/bin/python")),
        Some(PathBuf::from("/tmp/mcp1-venv/bin/python")),
    ];
    find(
        test,
        candidates,
        "import mcp, importlib.metadata as m; assert m.version('mcp').startswith('1.')",
        "the `mcp` package 1.x. Set SMOLWEB_PYTHON_MCP1 or run: python3 -m venv \
         target/pyvenv-mcp1 && target/pyvenv-mcp1/bin/pip install 'mcp<2'",
    )
}

fn find<const N: usize>(
    test: &str,
    candidates: [Option<PathBuf>; N],
    probe: &str,
    wanted: &str,
) -> Option<PathBuf> {
    let found = candidates.into_iter().flatten().find(|p| {
        std::process::Command::new(p)
            .args(["-c", probe])
            .output()
            .is_ok_and(|o| o.status.success())
    });
    if found.is_none() {
        if std::env::var("SMOLWEB_REQUIRE_PYTHON_MCP").as_deref() == Ok("1") {
            panic!("{test}: no Python interpreter with {wanted} (SMOLWEB_REQUIRE_PYTHON_MCP=1)");
        }
        eprintln!("\n*** SKIP {test}: no Python with {wanted} ***\n");
    }
    found
}

/// Run tests/python/`script` with `[mode] smolweb data_dir config extra...`, within 120 s;
/// it must exit 0 and print "OK". Returns its stdout.
pub(crate) async fn run(
    python: &Path,
    script: &str,
    mode: Option<&str>,
    env: &Env,
    extra: &[String],
) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/python")
        .join(script);
    let mut cmd = tokio::process::Command::new(python);
    cmd.arg(&path);
    if let Some(mode) = mode {
        cmd.arg(mode);
    }
    cmd.arg(env!("CARGO_BIN_EXE_smolweb"))
        .arg(env.data_dir())
        .arg(env.config_file())
        .args(extra)
        .env_remove("SMOLWEB_HOME")
        .env_remove("SMOLWEB_CONFIG");
    let out = tokio::time::timeout(std::time::Duration::from_secs(120), cmd.output())
        .await
        .expect("the Python client finished within 120 s")
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() && stdout.contains("OK"),
        "{script} ({mode:?}) failed\nstdout:\n{stdout}\nstderr:\n{stderr}"
    );
    stdout
}
