//! The pure core stays pure where Cargo cannot see: this crate depends on no IO, async, TLS,
//! terminal or MCP crate (its Cargo.toml, checked by the root's `layers` test), but `std` is
//! always there, so no file under `src/` may name std's files, sockets or clocks. Comment lines
//! are skipped (docs may describe what the core does not do); code, `use` lines and strings
//! are checked.

use std::path::{Path, PathBuf};

/// Forbidden words, matched at identifier boundaries.
const FORBIDDEN: &[&str] = &["std::fs", "std::net", "std::time", "SystemTime", "Instant"];

/// Modules that are forbidden when imported as a group: `use std::{fs, net, time}`.
const FORBIDDEN_STD_GROUP: &[&str] = &["fs", "net", "time"];

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

fn contains_word(line: &str, word: &str) -> bool {
    line.match_indices(word).any(|(i, _)| {
        let before = line[..i].chars().next_back();
        let after = line[i + word.len()..].chars().next();
        !before.is_some_and(is_ident) && !after.is_some_and(is_ident)
    })
}

/// The std modules named inside a `std::{...}` group on this line.
fn std_group_members(line: &str) -> Vec<&str> {
    let Some(start) = line.find("std::{") else {
        return Vec::new();
    };
    let inner = &line[start + 6..];
    let inner = &inner[..inner.find('}').unwrap_or(inner.len())];
    inner
        .split(',')
        .map(|m| m.trim().split("::").next().unwrap_or("").trim())
        .collect()
}

/// Forbidden words found in `source`, with 1-based line numbers.
fn violations(source: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    for (n, line) in source.lines().enumerate() {
        if line.trim_start().starts_with("//") {
            continue;
        }
        for word in FORBIDDEN {
            if contains_word(line, word) {
                found.push((n + 1, (*word).to_string()));
            }
        }
        for member in std_group_members(line) {
            if FORBIDDEN_STD_GROUP.contains(&member) {
                found.push((n + 1, format!("std::{{{member}}}")));
            }
        }
    }
    found
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("read src") {
        let path = entry.expect("dir entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn core_names_no_file_socket_or_clock_of_std() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    assert!(
        files.len() > 5,
        "expected the core modules, found {files:?}"
    );
    let mut report = Vec::new();
    for file in &files {
        let source = std::fs::read_to_string(file).expect("read a core file");
        for (line, word) in violations(&source) {
            report.push(format!("{}:{line}: mentions `{word}`", file.display()));
        }
    }
    assert!(
        report.is_empty(),
        "smolweb-core must stay pure:\n{}",
        report.join("\n")
    );
}

#[test]
fn the_checker_catches_what_it_should() {
    let cases: [(&str, &[&str]); 8] = [
        ("use std::fs::File;", &["std::fs"]),
        ("let s = std::net::TcpStream::connect(a);", &["std::net"]),
        ("use std::{fmt, fs};", &["std::{fs}"]),
        ("use std::{time::Instant};", &["Instant", "std::{time}"]),
        ("let t = SystemTime::now();", &["SystemTime"]),
        ("let d = std::time::Duration::ZERO;", &["std::time"]),
        ("// std::fs is not used here", &[]),
        ("let instant_ok = system_time_free();", &[]),
    ];
    for (source, want) in cases {
        let got: Vec<String> = violations(source).into_iter().map(|(_, w)| w).collect();
        assert_eq!(got, want, "{source}");
    }
}
