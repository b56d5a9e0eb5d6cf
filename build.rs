//! Build script of the `smolweb` binary: the version string `smolweb --version` prints.
//!
//! Built from a git checkout: `0.3.0 (<short commit>[-dirty] <commit date>)`; otherwise (a
//! packaged crate, no git, git failing) the plain package version. Every failure is soft:
//! the build never stops for lack of git. The script reruns only when HEAD or the branch it
//! points to moves, and watches only files that exist, so a build with nothing changed is a
//! no-op (no relink) whatever `.git` holds.

// A build script talks to cargo on stdout.
#![allow(clippy::print_stdout)]

use std::path::{Path, PathBuf};
use std::process::Command;

fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let text = String::from_utf8(out.stdout).ok()?;
    Some(text.trim().to_string())
}

/// The version with its commit, when `dir` is the top of a git work tree (and not, say, a
/// packaged copy of the crate inside some other repository's target directory).
fn described(dir: &Path, version: &str) -> Option<String> {
    let top = PathBuf::from(git(dir, &["rev-parse", "--show-toplevel"])?);
    if top.canonicalize().ok()? != dir.canonicalize().ok()? {
        return None;
    }
    let commit = git(dir, &["rev-parse", "--short=10", "HEAD"]).filter(|c| !c.is_empty())?;
    let date = git(dir, &["log", "-1", "--format=%cs", "HEAD"]).filter(|d| !d.is_empty())?;
    let dirty = match git(dir, &["status", "--porcelain", "--untracked-files=no"]) {
        Some(s) if !s.is_empty() => "-dirty",
        _ => "",
    };
    // Watch only files that exist: cargo reruns a script on every build while a watched path
    // is missing, which relinks the binary each time. The index is not watched either (any
    // `git status` may rewrite it): `-dirty` says how the tree was when the commit last moved.
    let watch = |file: &str| {
        let p = dir.join(git(dir, &["rev-parse", "--git-path", file])?);
        p.is_file()
            .then(|| println!("cargo:rerun-if-changed={}", p.display()))
    };
    watch("HEAD");
    if let Some(branch) = git(dir, &["symbolic-ref", "-q", "HEAD"]) {
        // A branch's commit is in its loose ref file, or only in packed-refs when packed.
        if watch(&branch).is_none() {
            watch("packed-refs");
        }
    }
    Some(format!("{version} ({commit}{dirty} {date})"))
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let version = std::env::var("CARGO_PKG_VERSION").unwrap_or_default();
    let dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    let long = described(&dir, &version).unwrap_or(version);
    println!("cargo:rustc-env=SMOLWEB_VERSION={long}");
}
