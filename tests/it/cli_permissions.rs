//! Files only their owner reads, through the real binary: under a permissive umask (000)
//! everything smolweb creates in its data directory is 0600 (files) or 0700 (directories); a
//! private key others can read, or a data directory others can write, is refused with a
//! message naming it and the chmod that fixes it; `[data] loose_permissions = "warn"` uses
//! them with a warning instead.
#![cfg(unix)]

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Command, Output};

/// `smolweb --data-dir DATA ARGS` under `umask 000` (a shell sets it, then execs the binary).
fn run(data: &Path, args: &[&str]) -> Output {
    Command::new("sh")
        .arg("-c")
        .arg("umask 000 && exec \"$@\"")
        .arg("sh")
        .arg(env!("CARGO_BIN_EXE_smolweb"))
        .arg("--data-dir")
        .arg(data)
        .args(args)
        .env_remove("SMOLWEB_CONFIG")
        .env_remove("SMOLWEB_HOME")
        .env_remove("SMOLWEB_LOG")
        .output()
        .unwrap()
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn mode(p: &Path) -> u32 {
    std::fs::symlink_metadata(p).unwrap().permissions().mode() & 0o7777
}

fn chmod(p: &Path, m: u32) {
    std::fs::set_permissions(p, std::fs::Permissions::from_mode(m)).unwrap();
}

/// Every file and directory under `dir` (the directory included), iteratively.
fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let (mut out, mut stack) = (vec![dir.to_path_buf()], vec![dir.to_path_buf()]);
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p.clone());
            }
            out.push(p);
        }
    }
    out
}

fn create_identity(data: &Path) -> String {
    let o = run(
        data,
        &[
            "identity",
            "create",
            "gemini://example.org/",
            "--name",
            "me",
        ],
    );
    assert!(o.status.success(), "{}", err(&o));
    String::from_utf8_lossy(&o.stdout)
        .split_whitespace()
        .find(|w| w.starts_with("sha256:"))
        .unwrap()
        .to_string()
}

#[test]
fn what_smolweb_creates_is_private_whatever_the_umask() {
    let tmp = tempfile::tempdir().unwrap();
    chmod(tmp.path(), 0o755);
    let data = tmp.path().join("new/data");
    create_identity(&data);
    for args in [
        &["mcp", "token"][..],
        &["titan", "allow", "bot", "gemini://example.org/wiki/"],
        &["get", "about:bookmarks"],
    ] {
        let o = run(&data, args);
        assert!(o.status.success(), "{args:?}: {}", err(&o));
    }
    let all = walk(&data);
    assert!(
        all.len() >= 8,
        "identities, token, allowances and locks: {all:?}"
    );
    for p in &all {
        let want = if p.is_dir() { 0o700 } else { 0o600 };
        assert_eq!(mode(p), want, "{} is {:o}", p.display(), mode(p));
    }
    // A parent made on the way is private too.
    assert_eq!(mode(&tmp.path().join("new")), 0o700);
}

#[test]
fn a_private_key_others_can_read_is_refused_with_the_chmod_that_fixes_it() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let fp = create_identity(&data);
    let key = data
        .join("identities")
        .join(format!("{}.key", fp.trim_start_matches("sha256:")));
    chmod(&key, 0o644);
    // The listing says so at once (the key is not read to list it), and still lists.
    let o = run(&data, &["identity", "list"]);
    assert!(o.status.success(), "{}", err(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains(&fp));
    assert!(
        err(&o).contains(&format!("run `chmod 600 {}`", key.display())),
        "{}",
        err(&o)
    );
    let export = tmp.path().join("export");
    std::fs::create_dir(&export).unwrap();
    let ex = |data: &Path| run(data, &["identity", "export", &fp, export.to_str().unwrap()]);
    let o = ex(&data);
    assert!(!o.status.success());
    let msg = err(&o);
    assert!(
        msg.contains(&format!("run `chmod 600 {}`", key.display())),
        "{msg}"
    );
    assert!(msg.contains("other users"), "{msg}");
    assert!(!msg.contains("PRIVATE KEY"), "{msg}");
    assert!(!export.join("me.key").exists(), "nothing exported");
    // The data directory others can write.
    chmod(&key, 0o600);
    chmod(&data, 0o777);
    let o = run(&data, &["identity", "list"]);
    assert!(!o.status.success());
    assert!(
        err(&o).contains(&format!("run `chmod 700 {}`", data.display())),
        "{}",
        err(&o)
    );
    // The documented switch: used anyway, with a warning naming the directory.
    std::fs::write(
        data.join("config.toml"),
        "[data]\nloose_permissions = \"warn\"\n",
    )
    .unwrap();
    chmod(&key, 0o644);
    let o = ex(&data);
    assert!(o.status.success(), "{}", err(&o));
    assert!(err(&o).contains(&data.display().to_string()), "{}", err(&o));
    assert!(err(&o).contains("chmod 700"), "{}", err(&o));
    assert!(export.join("me.key").exists());
    chmod(&data, 0o700);
}
