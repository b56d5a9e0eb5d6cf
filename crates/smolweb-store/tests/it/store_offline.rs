//! The offline page cache on disk: size bound with LRU eviction, saved pages kept out of
//! eviction, 0600 files, unreadable files treated as missing, and crash safety (a writer
//! killed mid-write leaves the old copy whole).

use smolweb_store::offline::{NewPage, Offline};
use time::macros::datetime;
use time::{Duration, OffsetDateTime};

const T0: OffsetDateTime = datetime!(2026-11-30 12:00 UTC);

fn page<'a>(url: &'a str, body: &'a [u8], save: bool) -> NewPage<'a> {
    NewPage {
        url,
        media_type: "text/gemini; charset=utf-8",
        title: Some("A page"),
        body,
        fetched: T0,
        save,
    }
}

fn urls(o: &Offline) -> Vec<String> {
    let mut v: Vec<_> = o.list().unwrap().into_iter().map(|e| e.url).collect();
    v.sort();
    v
}

#[test]
fn size_bound_evicts_least_recently_used_first() {
    let tmp = tempfile::tempdir().unwrap();
    let o = Offline::new(tmp.path().join("offline"), 3_500);
    let body = vec![b'x'; 1000];
    for (i, u) in ["gemini://a/1", "gemini://a/2", "gemini://a/3"]
        .iter()
        .enumerate()
    {
        assert!(
            o.put(&page(u, &body, false), T0 + Duration::minutes(i as i64))
                .unwrap()
        );
    }
    // Reading 1 makes it recent; storing 4 must then evict 2 (the least recently used).
    assert!(
        o.get("gemini://a/1", T0 + Duration::minutes(10))
            .unwrap()
            .is_some()
    );
    o.put(
        &page("gemini://a/4", &body, false),
        T0 + Duration::minutes(11),
    )
    .unwrap();
    assert_eq!(urls(&o), ["gemini://a/1", "gemini://a/3", "gemini://a/4"]);
    assert!(o.get("gemini://a/2", T0).unwrap().is_none());
    assert!(
        !o.page_path("gemini://a/2").exists(),
        "evicted file is deleted"
    );
    assert!(o.total_bytes().unwrap() <= 3_500);
    // A page bigger than the whole bound is not kept (unless saved).
    assert!(
        !o.put(&page("gemini://a/big", &vec![b'y'; 4_000], false), T0)
            .unwrap()
    );
    assert!(
        o.put(&page("gemini://a/big", &vec![b'y'; 4_000], true), T0)
            .unwrap()
    );
}

#[test]
fn saved_pages_are_never_evicted_until_unsaved() {
    let tmp = tempfile::tempdir().unwrap();
    let o = Offline::new(tmp.path().join("offline"), 2_500);
    let body = vec![b'x'; 1000];
    o.put(&page("gemini://a/keep", &body, true), T0).unwrap();
    for i in 0..5 {
        let u = format!("gemini://a/visit{i}");
        o.put(&page(&u, &body, false), T0 + Duration::minutes(i + 1))
            .unwrap();
    }
    let list = urls(&o);
    assert!(list.contains(&"gemini://a/keep".to_string()), "{list:?}");
    assert_eq!(list.len(), 2, "{list:?}");
    // Visiting a saved page again keeps it saved.
    o.put(
        &page("gemini://a/keep", &body, false),
        T0 + Duration::hours(1),
    )
    .unwrap();
    let saved = o.saved().unwrap();
    assert_eq!(saved.len(), 1);
    assert_eq!(saved[0].saved, Some(T0));
    assert_eq!(saved[0].bytes, 1000);
    assert_eq!(saved[0].title.as_deref(), Some("A page"));
    assert!(o.unsave("gemini://a/keep").unwrap());
    assert!(!o.unsave("gemini://a/keep").unwrap());
    assert!(o.saved().unwrap().is_empty());
    assert!(o.remove("gemini://a/keep").unwrap());
    assert!(o.get("gemini://a/keep", T0).unwrap().is_none());
}

#[cfg(unix)]
#[test]
fn files_are_private() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = tempfile::tempdir().unwrap();
    let o = Offline::new(tmp.path().join("offline"), 1 << 20);
    o.put(&page("gemini://a/x", b"# hi\n", false), T0).unwrap();
    let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    let file = o.page_path("gemini://a/x");
    assert_eq!(mode(&file), 0o600);
    assert_eq!(mode(file.parent().unwrap()), 0o700);
    assert_eq!(mode(&o.dir().join("index.toml")), 0o600);
}

#[test]
fn a_damaged_or_foreign_file_reads_as_missing() {
    let tmp = tempfile::tempdir().unwrap();
    let o = Offline::new(tmp.path().join("offline"), 1 << 20);
    o.put(&page("gemini://a/x", b"# hi\n", false), T0).unwrap();
    crate::write_private(o.page_path("gemini://a/x"), b"half a head").unwrap();
    assert!(o.get("gemini://a/x", T0).unwrap().is_none());
    // A file naming another URL (as if hashes collided) is not shown either.
    o.put(&page("gemini://a/y", b"# y\n", false), T0).unwrap();
    std::fs::copy(o.page_path("gemini://a/y"), o.page_path("gemini://a/x")).unwrap();
    assert!(o.get("gemini://a/x", T0).unwrap().is_none());
}

const BIG: usize = 16 * 1024 * 1024;

/// Child half of the crash test: rewrites the page with 'B' bodies until killed.
#[test]
#[ignore = "spawned by a_killed_write_leaves_the_old_copy"]
fn child_keep_writing() {
    let Ok(dir) = std::env::var("SMOLWEB_TEST_OFFLINE") else {
        return;
    };
    let o = Offline::new(dir.into(), 1 << 30);
    let body = vec![b'B'; BIG];
    loop {
        o.put(&page("gemini://a/big", &body, false), T0).unwrap();
    }
}

#[test]
fn a_killed_write_leaves_the_old_copy() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("offline");
    let o = Offline::new(dir.clone(), 1 << 30);
    o.put(&page("gemini://a/big", &vec![b'A'; BIG], false), T0)
        .unwrap();
    let pages = o
        .page_path("gemini://a/big")
        .parent()
        .unwrap()
        .to_path_buf();
    let temp_exists = || {
        std::fs::read_dir(&pages)
            .unwrap()
            .flatten()
            .any(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
    };
    let mut child = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "store_offline::child_keep_writing",
            "--ignored",
            "--nocapture",
        ])
        .env("SMOLWEB_TEST_OFFLINE", &dir)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Kill it while a temp file is being written (give up waiting after 20 s).
    let start = std::time::Instant::now();
    while !temp_exists() && start.elapsed() < std::time::Duration::from_secs(20) {
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    assert!(temp_exists(), "the child was caught writing");
    child.kill().unwrap();
    child.wait().unwrap();
    let copy = o.get("gemini://a/big", T0).unwrap().expect("a whole copy");
    assert_eq!(copy.body.len(), BIG, "never half a body");
    let first = copy.body[0];
    assert!(first == b'A' || first == b'B');
    assert!(
        copy.body.iter().all(|&b| b == first),
        "one version, not a mix"
    );
    // The killed writer's temp file is swept once stale; nothing else is touched.
    o.sweep(std::time::Duration::ZERO);
    assert!(!temp_exists());
    assert!(o.get("gemini://a/big", T0).unwrap().is_some());
}

#[test]
fn leftovers_of_killed_writers_are_removed_by_the_next_store() {
    // A writer killed between its page file and the index leaves a page no row names, or a
    // temp file; neither counts toward the bound, so neither may stay forever.
    let tmp = tempfile::tempdir().unwrap();
    let o = Offline::new(tmp.path().join("offline"), 1 << 20);
    o.put(&page("gemini://a/kept", b"kept", false), T0).unwrap();
    let orphan = o.page_path("gemini://a/orphan");
    crate::write_private(
        &orphan,
        b"smolweb-offline 1\nurl: gemini://a/orphan\n\nhalf",
    )
    .unwrap();
    let pages = orphan.parent().unwrap().to_path_buf();
    let temp = pages.join(format!(
        ".{}.99999.0.tmp",
        o.page_path("gemini://a/x")
            .file_name()
            .unwrap()
            .to_string_lossy()
    ));
    crate::write_private(&temp, b"half a page").unwrap();
    o.put(&page("gemini://a/new", b"new", false), T0).unwrap();
    assert!(!orphan.exists(), "a page no row names is removed");
    assert!(!temp.exists(), "a killed writer's temp file is removed");
    assert_eq!(urls(&o), ["gemini://a/kept", "gemini://a/new"]);
    assert_eq!(o.get("gemini://a/kept", T0).unwrap().unwrap().body, b"kept");
}

/// A copy's stamp stays while its file is untouched, changes when the copy is stored again
/// (even with the same bytes, in the same second) and is gone with the copy; a fresh file's
/// stamp does not vouch for it alone until its times are a few seconds old.
#[test]
fn a_copy_stamp_follows_its_file() {
    let tmp = tempfile::tempdir().unwrap();
    let o = Offline::new(tmp.path().join("offline"), 1 << 20);
    let url = "gemini://a/stamped";
    assert_eq!(o.stamp(url), None);
    o.put(&page(url, b"# one\n", false), T0).unwrap();
    let first = o.stamp(url).expect("a stamp");
    assert_eq!(o.stamp(url), Some(first));
    assert!(o.get(url, T0).unwrap().is_some());
    assert_eq!(o.stamp(url), Some(first), "reading does not change it");
    let now = std::time::SystemTime::now();
    assert!(!first.settled_since(now), "just written");
    assert!(first.settled_since(now + std::time::Duration::from_secs(60)));
    o.put(&page(url, b"# one\n", false), T0).unwrap();
    assert_ne!(o.stamp(url), Some(first), "stored again");
    assert!(o.remove(url).unwrap());
    assert_eq!(o.stamp(url), None);
}
