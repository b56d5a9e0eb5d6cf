//! The workspace's arrows, as Cargo sees them: each crate's normal dependencies on our crates
//! are the ones the layering allows (core depends on none of ours, the faces on the client and
//! never on each other, only the binary on both faces, the testkit on nothing but dev-deps),
//! and the pure core depends on no IO, async, TLS, terminal or MCP crate. Every crate is a
//! default member, so plain `cargo test` at the root (the README's command, and CI's) runs
//! them all. Reads `cargo metadata --no-deps --offline`, so it needs no network.

use serde_json::Value;
use std::collections::BTreeMap;

/// Our crates each crate may depend on (normal dependencies; dev-dependencies are free).
const ALLOWED: &[(&str, &[&str])] = &[
    ("smolweb-core", &[]),
    ("smolweb-store", &["smolweb-core"]),
    ("smolweb-net", &["smolweb-core", "smolweb-store"]),
    // The local full-text index: the engine, below the client, beside the network.
    ("smolweb-search", &["smolweb-core", "smolweb-store"]),
    (
        "smolweb-client",
        &[
            "smolweb-core",
            "smolweb-store",
            "smolweb-net",
            "smolweb-search",
        ],
    ),
    (
        "smolweb-tui",
        &[
            "smolweb-core",
            "smolweb-store",
            "smolweb-net",
            "smolweb-client",
        ],
    ),
    (
        "smolweb-mcp",
        &[
            "smolweb-core",
            "smolweb-store",
            "smolweb-net",
            "smolweb-client",
        ],
    ),
    // The testkit computes fingerprints with the core's one helper, as the stores do, and its
    // crash harness drives every store's writer, the search index's included.
    (
        "smolweb-testkit",
        &[
            "smolweb-core",
            "smolweb-store",
            "smolweb-net",
            "smolweb-search",
        ],
    ),
    (
        "smolweb",
        &[
            "smolweb-core",
            "smolweb-store",
            "smolweb-net",
            "smolweb-client",
            "smolweb-tui",
            "smolweb-mcp",
        ],
    ),
];

/// Crates the core must never depend on: they do IO, run async, speak TLS, or belong to a face.
const NOT_IN_CORE: &[&str] = &[
    "tokio",
    "tokio-rustls",
    "rustls",
    "reqwest",
    "directories",
    "libc",
    "rcgen",
    "ratatui",
    "crossterm",
    "rmcp",
];

/// Third-party crates only one of ours may name: the search engine stays behind
/// `smolweb-search` (the faces reach it through the client).
const ONLY_IN: &[(&str, &str)] = &[("tantivy", "smolweb-search")];

/// `cargo metadata --no-deps` of the workspace.
fn metadata() -> Value {
    let out = std::process::Command::new(env!("CARGO"))
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--offline",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "cargo metadata: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Each workspace package's normal (not dev, not build) dependencies, by name.
fn normal_deps() -> BTreeMap<String, Vec<String>> {
    let meta = metadata();
    let mut deps = BTreeMap::new();
    for package in meta["packages"].as_array().unwrap() {
        let names = package["dependencies"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| d["kind"].is_null())
            .map(|d| d["name"].as_str().unwrap().to_string())
            .collect();
        deps.insert(package["name"].as_str().unwrap().to_string(), names);
    }
    deps
}

/// The arrows that break the rules, one line each.
fn violations(deps: &BTreeMap<String, Vec<String>>) -> Vec<String> {
    let mut found = Vec::new();
    for (name, list) in deps {
        let Some((_, allowed)) = ALLOWED.iter().find(|(n, _)| n == name) else {
            found.push(format!(
                "{name}: a workspace crate the layering does not know"
            ));
            continue;
        };
        for dep in list.iter().filter(|d| d.starts_with("smolweb")) {
            if !allowed.contains(&dep.as_str()) {
                found.push(format!("{name} -> {dep}"));
            }
        }
    }
    for dep in deps.get("smolweb-core").into_iter().flatten() {
        if NOT_IN_CORE.contains(&dep.as_str()) {
            found.push(format!("smolweb-core -> {dep} (the core does no IO)"));
        }
    }
    for (name, list) in deps {
        for (only, owner) in ONLY_IN {
            if name != owner && list.iter().any(|d| d == only) {
                found.push(format!("{name} -> {only} (only {owner} may)"));
            }
        }
    }
    found
}

#[test]
fn every_crate_depends_only_along_the_allowed_arrows() {
    let deps = normal_deps();
    for (name, _) in ALLOWED {
        assert!(deps.contains_key(*name), "{name} missing from {deps:?}");
    }
    let found = violations(&deps);
    assert!(
        found.is_empty(),
        "arrows against the layering:\n{}",
        found.join("\n")
    );
}

#[test]
fn plain_cargo_test_covers_every_crate() {
    let meta = metadata();
    let ids = |key: &str| -> Vec<String> {
        let mut v: Vec<String> = meta[key]
            .as_array()
            .unwrap()
            .iter()
            .map(|id| id.as_str().unwrap().to_string())
            .collect();
        v.sort();
        v
    };
    let members = ids("workspace_members");
    assert_eq!(members.len(), ALLOWED.len(), "{members:?}");
    assert_eq!(ids("workspace_default_members"), members);
}

#[test]
fn the_checker_catches_an_arrow_up_a_face_to_face_arrow_and_io_in_core() {
    let mut deps = normal_deps();
    deps.get_mut("smolweb-core")
        .unwrap()
        .extend(["smolweb-store".to_string(), "tokio".to_string()]);
    deps.get_mut("smolweb-tui")
        .unwrap()
        .push("smolweb-mcp".to_string());
    deps.get_mut("smolweb-client")
        .unwrap()
        .push("smolweb-testkit".to_string());
    deps.get_mut("smolweb-mcp")
        .unwrap()
        .push("tantivy".to_string());
    let found = violations(&deps);
    assert_eq!(
        found,
        [
            "smolweb-client -> smolweb-testkit",
            "smolweb-core -> smolweb-store",
            "smolweb-tui -> smolweb-mcp",
            "smolweb-core -> tokio (the core does no IO)",
            "smolweb-mcp -> tantivy (only smolweb-search may)",
        ],
        "{found:?}"
    );
}
