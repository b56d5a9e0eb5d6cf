//! Killed at any moment, nothing half-written: every store's writer is killed with SIGKILL at
//! random moments, on a roomy disk and on a nearly full tmpfs, and after each kill the store
//! opens, holds only whole records, and has lost at most the write in flight.
//!
//! `cargo test` runs a few kills per store (`SMOLWEB_CRASH_KILLS`, default 12; full disk
//! `SMOLWEB_CRASH_FULL_KILLS`, default 6); `benches/crash_stores.sh` runs 1,000 of each and
//! prints the tables. The full-disk run mounts a tmpfs: without the permission it prints
//! `*** SKIP`, and fails instead when `SMOLWEB_REQUIRE_TMPFS` is set (CI sets it).

use smolweb_testkit::crash::Store;
use smolweb_testkit::crash::driver::{self, Figures, Options, Rng, Tmpfs};
use std::time::Duration;

fn count(var: &str, default: usize) -> usize {
    std::env::var(var)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The writer binary: `SMOLWEB_CRASH_WRITER` when set (the bench script runs a copy, so a build
/// during a long run does not replace it under the driver), else the one cargo built.
fn writer() -> std::path::PathBuf {
    std::env::var_os("SMOLWEB_CRASH_WRITER")
        .map(Into::into)
        .unwrap_or_else(|| env!("CARGO_BIN_EXE_smolweb-store-writer").into())
}

/// The stores to run: `SMOLWEB_CRASH_STORES` (names, comma-separated) when set, else all.
fn stores() -> Vec<Store> {
    let Ok(names) = std::env::var("SMOLWEB_CRASH_STORES") else {
        return Store::ALL.to_vec();
    };
    names
        .split(',')
        .map(|n| Store::from_name(n.trim()).unwrap_or_else(|| panic!("no store named {n:?}")))
        .collect()
}

fn run_all(opts: &Options, root: &std::path::Path, title: &str) -> Vec<Figures> {
    let mut rng = Rng::from_env();
    let seed = rng.seed();
    let rows: Vec<Figures> = stores()
        .into_iter()
        .map(|store| driver::run(opts, store, root, &mut rng))
        .collect();
    eprintln!("{}(seed {seed})", driver::table(&rows, title));
    rows
}

fn assert_clean(rows: &[Figures], kills: usize) {
    assert!(!rows.is_empty(), "no store ran");
    for r in rows {
        assert_eq!(r.kills, kills, "{}: {:?}", r.store, r.notes);
        assert!(r.clean(), "{}: {r:?}", r.store);
    }
}

#[test]
fn killed_writers_leave_whole_stores() {
    let kills = count("SMOLWEB_CRASH_KILLS", 12);
    let root = tempfile::tempdir().unwrap();
    let opts = Options {
        writer: writer(),
        kills,
        max_delay: Duration::from_millis(40),
        free_at_most: None,
    };
    let rows = run_all(&opts, root.path(), "SIGKILL at random moments");
    assert_clean(&rows, kills);
    // The kills land inside writes, not only between them.
    let mid: usize = rows.iter().map(|r| r.in_flight).sum();
    assert!(mid > 0, "no kill landed during a write");
}

#[test]
fn a_full_disk_leaves_whole_stores() {
    let kills = count("SMOLWEB_CRASH_FULL_KILLS", 6);
    let root = tempfile::tempdir().unwrap();
    let tmpfs = match Tmpfs::mount(&root.path().join("fs"), 4 * 1024 * 1024) {
        Ok(t) => t,
        Err(why) => {
            let msg =
                format!("*** SKIP a_full_disk_leaves_whole_stores: cannot mount a tmpfs ({why})");
            assert!(std::env::var_os("SMOLWEB_REQUIRE_TMPFS").is_none(), "{msg}");
            eprintln!("{msg}");
            return;
        }
    };
    let opts = Options {
        writer: writer(),
        kills,
        max_delay: Duration::from_millis(40),
        free_at_most: Some(96 * 1024),
    };
    let rows = run_all(&opts, tmpfs.dir(), "SIGKILL on a nearly full tmpfs");
    assert_clean(&rows, kills);
    // The disk did fill: some writes failed for want of space.
    let failed: u64 = rows.iter().map(|r| r.failed_writes).sum();
    assert!(failed > 0, "no write met a full disk");
}
