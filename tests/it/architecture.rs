//! ARCHITECTURE.md stays true to the tree: every crate it names is a crate of the workspace and
//! every crate of the workspace is named; each module its crate table lists exists in that
//! crate, and each module that exists is listed (every crate's top-level modules; for the crates
//! in [`NAMED_WHOLE`], nested ones too); every file or folder it points to exists; and every
//! `layer::name` it cites (such as `core::text` or `smolweb_store::fuzzing`) names a module or
//! an item of that crate. A rename or a new module that forgets the map fails here instead of
//! misleading the next reader.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn doc() -> String {
    fs::read_to_string(root().join("ARCHITECTURE.md")).expect("ARCHITECTURE.md is readable")
}

/// The text between backticks, in order.
fn code_spans(text: &str) -> Vec<String> {
    let mut spans = Vec::new();
    let mut in_fence = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
            continue;
        }
        if in_fence {
            continue;
        }
        let parts: Vec<&str> = line.split('`').collect();
        for (i, part) in parts.iter().enumerate() {
            if i % 2 == 1 && i + 1 < parts.len() {
                spans.push((*part).to_string());
            }
        }
    }
    spans
}

/// The workspace's crates: folder names under crates/, plus the root package.
fn workspace_crates() -> BTreeSet<String> {
    let mut crates: BTreeSet<String> = fs::read_dir(root().join("crates"))
        .expect("crates/ is readable")
        .filter_map(|e| e.ok())
        .filter(|e| e.path().join("Cargo.toml").is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    crates.insert("smolweb".to_string());
    crates
}

fn crate_dir(name: &str) -> PathBuf {
    if name == "smolweb" {
        root()
    } else {
        root().join("crates").join(name)
    }
}

/// Words of the form `smolweb-xxx` anywhere in the text (fences included: the diagram counts).
fn named_crates(text: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    let bytes: Vec<char> = text.chars().collect();
    let word = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
    let mut i = 0;
    while i < bytes.len() {
        if word(bytes[i]) && (i == 0 || !word(bytes[i - 1])) {
            let start = i;
            while i < bytes.len() && word(bytes[i]) {
                i += 1;
            }
            let w: String = bytes[start..i].iter().collect();
            let w = w.trim_end_matches('-').to_string();
            // After `::` it is a module path (`bin::smolweb-store-writer`), not a crate.
            let in_path = start >= 1 && bytes[start - 1] == ':';
            if let Some(rest) = w.strip_prefix("smolweb-")
                && !rest.is_empty()
                && !in_path
            {
                names.insert(w);
            }
        } else {
            i += 1;
        }
    }
    names
}

/// Does `module` exist in the crate at `dir`, as a file or a folder module (nested with `/`)?
fn has_module(dir: &Path, module: &str) -> bool {
    if module == "main.rs" {
        return dir.join("src/main.rs").is_file();
    }
    let rel = module.replace("::", "/");
    let src = dir.join("src");
    src.join(format!("{rel}.rs")).is_file() || src.join(&rel).join("mod.rs").is_file()
}

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// Is `name` a module of the crate or an item its sources define or re-export?
fn crate_knows(dir: &Path, name: &str) -> bool {
    if has_module(dir, name) {
        return true;
    }
    let mut files = Vec::new();
    rust_files(&dir.join("src"), &mut files);
    let defs = [
        "fn", "struct", "enum", "mod", "type", "trait", "const", "static",
    ];
    files.iter().any(|f| {
        let Ok(text) = fs::read_to_string(f) else {
            return false;
        };
        text.lines().any(|line| {
            let line = line.trim_start();
            let line = line
                .strip_prefix("pub(crate) ")
                .or_else(|| line.strip_prefix("pub "))
                .unwrap_or(line);
            defs.iter().any(|d| {
                line.strip_prefix(d)
                    .and_then(|r| r.strip_prefix(' '))
                    .is_some_and(|r| {
                        r.starts_with(name)
                            && !r[name.len()..]
                                .starts_with(|c: char| c.is_alphanumeric() || c == '_')
                    })
            }) || (line.starts_with("use ") && line.contains(name))
        })
    })
}

/// The crate a short layer name stands for in the text (`core::text` is smolweb-core's text).
fn layer_crate(prefix: &str) -> Option<String> {
    let short = prefix.strip_prefix("smolweb_").unwrap_or(prefix);
    let name = format!("smolweb-{short}");
    workspace_crates().contains(&name).then_some(name)
}

#[test]
fn every_crate_named_exists_and_every_crate_is_named() {
    let text = doc();
    let named = named_crates(&text);
    let crates = workspace_crates();
    let unknown: Vec<_> = named.difference(&crates).collect();
    assert!(
        unknown.is_empty(),
        "ARCHITECTURE.md names crates the workspace does not have: {unknown:?}"
    );
    let missing: Vec<_> = crates
        .iter()
        .filter(|c| *c != "smolweb" && !named.contains(*c))
        .collect();
    assert!(
        missing.is_empty(),
        "ARCHITECTURE.md does not describe these crates: {missing:?}"
    );
}

#[test]
fn every_module_in_the_crate_table_exists() {
    let text = doc();
    let mut rows = 0;
    let mut wrong = Vec::new();
    for line in text.lines().filter(|l| l.starts_with("| `")) {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        // | `crate` | folder | owns (modules) |
        let Some(krate) = cells.get(1).map(|c| c.trim_matches('`')) else {
            continue;
        };
        let Some(owns) = cells.get(3) else { continue };
        rows += 1;
        let dir = crate_dir(krate);
        for module in code_spans(owns) {
            if !has_module(&dir, &module) {
                wrong.push(format!("{krate}: {module}"));
            }
        }
    }
    assert!(
        rows >= 7,
        "the crate table was not found ({rows} rows): the test reads rows that start with \"| `\""
    );
    assert!(
        wrong.is_empty(),
        "ARCHITECTURE.md's crate table lists modules that do not exist: {wrong:?}"
    );
}

/// The crates whose row in the crate table names every module they have, nested ones included
/// (`parent::child`); every other crate's row names at least each of its top-level modules.
const NAMED_WHOLE: &[&str] = &[
    "smolweb",
    "smolweb-store",
    "smolweb-net",
    "smolweb-client",
    "smolweb-mcp",
    "smolweb-testkit",
];

/// The modules of a crate: one per `.rs` file under `src/` (not `lib.rs`, `main.rs`, a unit-test
/// module `tests.rs`, or a `*_tests.rs` file a `#[path]` test module reads), as `a::b` for
/// `src/a/b.rs`.
fn crate_modules(dir: &Path) -> BTreeSet<String> {
    let src = dir.join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files
        .iter()
        .filter_map(|f| {
            let rel = f.strip_prefix(&src).ok()?.with_extension("");
            let name = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect::<Vec<_>>()
                .join("::");
            let name = name.strip_suffix("::mod").unwrap_or(&name).to_string();
            let leaf = name.rsplit("::").next().unwrap_or(&name);
            let skip = ["lib", "main"].contains(&name.as_str())
                || leaf == "tests"
                || name.ends_with("_tests");
            (!skip).then_some(name)
        })
        .collect()
}

/// The modules the map must name for `krate`: all of them for [`NAMED_WHOLE`], else the
/// top-level ones.
fn required_modules(krate: &str) -> BTreeSet<String> {
    let whole = NAMED_WHOLE.contains(&krate);
    crate_modules(&crate_dir(krate))
        .into_iter()
        .filter(|m| whole || !m.contains("::"))
        .collect()
}

/// The modules the crate table's row of `krate` lists.
fn table_modules(text: &str, krate: &str) -> Option<BTreeSet<String>> {
    let row = text
        .lines()
        .find(|l| l.starts_with(&format!("| `{krate}` |")))?;
    let owns = row.split('|').map(str::trim).nth(3)?;
    Some(code_spans(owns).into_iter().collect())
}

/// The modules of `krate` that exist and that its row does not list.
fn unnamed_modules(text: &str, krate: &str) -> Vec<String> {
    let named = table_modules(text, krate)
        .unwrap_or_else(|| panic!("ARCHITECTURE.md's crate table has no row for {krate}"));
    required_modules(krate)
        .into_iter()
        .filter(|m| !named.contains(m))
        .collect()
}

#[test]
fn every_module_of_every_crate_is_named() {
    let text = doc();
    let crates = workspace_crates();
    assert!(crates.len() >= 8, "only {crates:?} found");
    let mut unnamed = Vec::new();
    for krate in &crates {
        let modules = required_modules(krate);
        assert!(
            !modules.is_empty() || krate == "smolweb",
            "{krate}: no module found under src/"
        );
        unnamed.extend(
            unnamed_modules(&text, krate)
                .into_iter()
                .map(|m| format!("{krate}: {m}")),
        );
    }
    assert!(
        unnamed.is_empty(),
        "ARCHITECTURE.md's crate table does not name these modules: {unnamed:?} (add each to its \
         crate's row and say in the crate's paragraph what it owns)"
    );
}

/// The check catches a module left out of a row: the same table without one module fails on
/// exactly that module, for a nested module of a crate read whole and a top-level module of the
/// others.
#[test]
fn a_module_left_out_of_the_row_is_caught() {
    let text = doc();
    let cases = [
        ("smolweb-mcp", "tools::titan"),
        ("smolweb-mcp", "state"),
        ("smolweb-mcp", "stdio::head"),
        ("smolweb-core", "fingerprint"),
        ("smolweb-store", "uploads"),
        ("smolweb-net", "guppy"),
        ("smolweb-net", "http::roots"),
        ("smolweb-store", "identity::files"),
        ("smolweb", "cli::release"),
        ("smolweb-client", "politeness"),
        ("smolweb-tui", "probe"),
        ("smolweb-testkit", "gopher"),
    ];
    for (krate, left_out) in cases {
        let row = text
            .lines()
            .find(|l| l.starts_with(&format!("| `{krate}` |")))
            .unwrap_or_else(|| panic!("the {krate} row"));
        let before: BTreeSet<String> = unnamed_modules(&text, krate).into_iter().collect();
        let spans = [format!("`{left_out}`, "), format!(", `{left_out}`")];
        let shorter = spans
            .iter()
            .map(|s| row.replacen(s.as_str(), "", 1))
            .find(|r| r != row)
            .unwrap_or_else(|| panic!("{left_out} is in the {krate} row"));
        let edited = text.replace(row, &shorter);
        let after: BTreeSet<String> = unnamed_modules(&edited, krate).into_iter().collect();
        let caught: Vec<&String> = after.difference(&before).collect();
        assert_eq!(
            caught,
            [left_out],
            "leaving {krate}'s {left_out} out is caught, and only it"
        );
    }
}

#[test]
fn every_path_it_points_to_exists() {
    let mut wrong = Vec::new();
    let mut checked = 0;
    for span in code_spans(&doc()) {
        let looks_like_path = span.contains('/')
            && !span.contains(' ')
            && !span.contains(':')
            && !span.starts_with('-')
            && span
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "/._-*".contains(c));
        // A path starts at a top-level entry of the repository (`src/`, `crates/`, `tests/`...)
        // or names a file by its extension; `tools/call` and the like are not paths.
        let first = span.split('/').next().unwrap_or("");
        let top_level = !first.is_empty() && root().join(first).exists();
        let file_like = [".rs", ".md", ".toml", ".sh", ".py"]
            .iter()
            .any(|x| span.ends_with(x));
        if !looks_like_path || !(top_level || file_like) {
            continue;
        }
        checked += 1;
        let exists = match span.split_once('*') {
            None => root().join(&span).exists(),
            Some((before, after)) => {
                let (dir, stem) = before.rsplit_once('/').unwrap_or(("", before));
                fs::read_dir(root().join(dir)).is_ok_and(|entries| {
                    entries.flatten().any(|e| {
                        let n = e.file_name().to_string_lossy().into_owned();
                        n.starts_with(stem) && n.ends_with(after)
                    })
                })
            }
        };
        if !exists {
            wrong.push(span);
        }
    }
    assert!(
        checked >= 10,
        "only {checked} paths found in ARCHITECTURE.md"
    );
    assert!(
        wrong.is_empty(),
        "ARCHITECTURE.md points to paths that do not exist: {wrong:?}"
    );
}

#[test]
fn every_layer_path_it_cites_names_a_module_or_item() {
    let mut wrong = Vec::new();
    let mut checked = 0;
    // The crate table's rows name each crate's own modules (checked above), where `search::page`
    // is the client's module, not the search crate's `page`.
    let prose: String = doc()
        .lines()
        .filter(|l| !l.starts_with("| `"))
        .collect::<Vec<_>>()
        .join("\n");
    for span in code_spans(&prose) {
        let mut segs = span.split("::");
        let (Some(first), Some(second)) = (segs.next(), segs.next()) else {
            continue;
        };
        let Some(krate) = layer_crate(first) else {
            continue;
        };
        let second: String = second
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if second.is_empty() {
            continue;
        }
        checked += 1;
        let dir = crate_dir(&krate);
        let mut ok = crate_knows(&dir, &second);
        // A third segment is an item or module inside the second: check it is defined somewhere.
        if let Some(third) = segs.next() {
            let third: String = third
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            ok = ok && (third.is_empty() || crate_knows(&dir, &third));
        }
        if !ok {
            wrong.push(span);
        }
    }
    assert!(
        checked >= 5,
        "only {checked} layer paths found in ARCHITECTURE.md"
    );
    assert!(
        wrong.is_empty(),
        "ARCHITECTURE.md cites names its crates do not have: {wrong:?}"
    );
}
