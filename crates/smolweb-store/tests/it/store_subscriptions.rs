//! Subscriptions on disk: add/remove, merging refreshes, read state, corrupt files, and two
//! processes refreshing the same and different feeds at once.

use smolweb_core::feed::Entry;
use smolweb_store::StoreError;
use smolweb_store::subscriptions::{MAX_ENTRIES, Refreshed, Subscriptions};
use time::macros::datetime;
use time::{Duration, OffsetDateTime};

const NOW: OffsetDateTime = datetime!(2026-11-30 12:00 UTC);

fn store() -> (tempfile::TempDir, Subscriptions) {
    let tmp = tempfile::tempdir().unwrap();
    let s = Subscriptions::new(tmp.path().join("data/subscriptions.toml"));
    (tmp, s)
}

fn entry(url: &str, title: &str, date: Option<&str>) -> Entry {
    Entry {
        title: title.into(),
        url: url.into(),
        published: date.map(|d| format!("{d}T00:00:00Z")),
    }
}

fn ok(title: &str, entries: Vec<Entry>) -> Refreshed {
    Refreshed::Ok {
        title: Some(title.into()),
        entries,
    }
}

#[test]
fn add_normalizes_dedups_and_remove_reports_missing() {
    let (_t, s) = store();
    let (url, new) = s.add("gemini://LOG.example:1965/g/", NOW).unwrap();
    assert_eq!((url.as_str(), new), ("gemini://log.example/g/", true));
    assert!(!s.add("gemini://log.example/g/", NOW).unwrap().1);
    assert!(matches!(
        s.add("about:feeds", NOW),
        Err(StoreError::Invalid(_))
    ));
    assert_eq!(s.list().unwrap().len(), 1);
    assert_eq!(s.remove("gemini://log.example/g/").unwrap().url, url);
    assert!(matches!(s.remove(&url), Err(StoreError::NotFound(_))));
    assert!(s.list().unwrap().is_empty());
}

#[test]
fn refresh_merges_keeps_read_state_and_reports_only_new() {
    let (_t, s) = store();
    let (url, _) = s.add("gemini://log.example/", NOW).unwrap();
    let first = vec![
        entry("gemini://log.example/a", "A", Some("2026-11-01")),
        entry("gemini://log.example/b", "B", Some("2026-11-02")),
    ];
    let fresh = s.record(&url, &ok("Log", first), NOW).unwrap();
    assert_eq!(fresh.len(), 2);
    assert!(s.mark_read("gemini://log.example/a").unwrap());
    assert!(
        !s.mark_read("gemini://log.example/a").unwrap(),
        "already read"
    );

    // The feed now drops A, retitles B and adds C: A is remembered, B keeps its state.
    let later = NOW + Duration::hours(1);
    let second = vec![
        entry("gemini://log.example/b", "B (edited)", Some("2026-11-02")),
        entry("gemini://log.example/c", "C", None),
    ];
    let fresh = s.record(&url, &ok("Log", second), later).unwrap();
    assert_eq!(
        fresh.iter().map(|e| e.url.as_str()).collect::<Vec<_>>(),
        ["gemini://log.example/c"]
    );
    let sub = s.get(&url).unwrap().unwrap();
    assert_eq!(sub.title.as_deref(), Some("Log"));
    assert_eq!(sub.refreshed, Some(later));
    let rows: Vec<_> = sub
        .entries
        .iter()
        .map(|e| (e.title.as_str(), e.read))
        .collect();
    // Newest first: C (undated, first seen today), B, A.
    assert_eq!(rows, [("C", false), ("B (edited)", false), ("A", true)]);
    assert_eq!(sub.unread(), 2);
}

#[test]
fn a_failed_refresh_keeps_entries_and_records_why() {
    let (_t, s) = store();
    let (url, _) = s.add("gopher://g.example/1/phlog", NOW).unwrap();
    s.record(
        &url,
        &ok("Phlog", vec![entry("gopher://g.example/0/p", "P", None)]),
        NOW,
    )
    .unwrap();
    // A failure moments after a success is taken for two processes colliding: not recorded.
    let failed = Refreshed::Failed("connection refused\nby host".into());
    s.record(&url, &failed, NOW + Duration::seconds(30))
        .unwrap();
    let sub = s.get(&url).unwrap().unwrap();
    assert_eq!(sub.error, None, "the other process's success stands");
    assert_eq!(sub.refreshed, Some(NOW));
    // Later, a failure is the feed's state.
    let fresh = s.record(&url, &failed, NOW + Duration::minutes(3)).unwrap();
    assert!(fresh.is_empty());
    let sub = s.get(&url).unwrap().unwrap();
    assert_eq!(sub.error.as_deref(), Some("connection refused by host"));
    assert_eq!(sub.entries.len(), 1);
    assert_eq!(sub.title.as_deref(), Some("Phlog"));
    assert_eq!(sub.refreshed, Some(NOW + Duration::minutes(3)));
    s.record(&url, &ok("Phlog", vec![]), NOW + Duration::minutes(4))
        .unwrap();
    assert_eq!(s.get(&url).unwrap().unwrap().error, None);
}

#[test]
fn refresh_of_a_removed_subscription_does_not_bring_it_back() {
    let (_t, s) = store();
    let (url, _) = s.add("gemini://log.example/", NOW).unwrap();
    s.remove(&url).unwrap();
    let fresh = s.record(
        &url,
        &ok("Log", vec![entry("gemini://log.example/a", "A", None)]),
        NOW,
    );
    assert!(fresh.unwrap().is_empty());
    assert!(s.list().unwrap().is_empty());
}

#[test]
fn entries_are_capped_newest_kept() {
    let (_t, s) = store();
    let (url, _) = s.add("gemini://log.example/", NOW).unwrap();
    let many: Vec<_> = (0..MAX_ENTRIES + 50)
        .map(|i| {
            let day = NOW - Duration::days(i as i64);
            let d = format!("{}-{:02}-{:02}", day.year(), day.month() as u8, day.day());
            entry(
                &format!("gemini://log.example/{i}"),
                &format!("post {i}"),
                Some(&d),
            )
        })
        .collect();
    let fresh = s.record(&url, &ok("Log", many), NOW).unwrap();
    assert_eq!(fresh.len(), MAX_ENTRIES);
    let sub = s.get(&url).unwrap().unwrap();
    assert_eq!(sub.entries.len(), MAX_ENTRIES);
    assert_eq!(sub.entries[0].title, "post 0");
}

#[test]
fn mark_all_read_per_feed_and_everywhere() {
    let (_t, s) = store();
    let (a, _) = s.add("gemini://a.example/", NOW).unwrap();
    let (b, _) = s.add("gemini://b.example/", NOW).unwrap();
    s.record(
        &a,
        &ok("A", vec![entry("gemini://a.example/1", "1", None)]),
        NOW,
    )
    .unwrap();
    s.record(
        &b,
        &ok("B", vec![entry("gemini://b.example/1", "1", None)]),
        NOW,
    )
    .unwrap();
    assert_eq!(s.mark_all_read(Some(&a)).unwrap(), 1);
    assert_eq!(s.get(&b).unwrap().unwrap().unread(), 1);
    assert_eq!(s.mark_all_read(None).unwrap(), 1);
    assert_eq!(s.mark_all_read(None).unwrap(), 0);
}

#[test]
fn corrupt_file_is_named_and_kept() {
    let (_t, s) = store();
    std::fs::create_dir_all(s.path().parent().unwrap()).unwrap();
    crate::write_private(s.path(), "[[subscription]]\nurl = 3\n").unwrap();
    let err = s.add("gemini://a.example/", NOW).unwrap_err();
    assert!(err.to_string().contains("subscriptions.toml"), "{err}");
    assert_eq!(
        std::fs::read_to_string(s.path()).unwrap(),
        "[[subscription]]\nurl = 3\n"
    );
}

#[test]
fn a_change_by_another_process_is_seen_at_the_next_read() {
    let (_t, mine) = store();
    let (url, _) = mine.add("gemini://log.example/", NOW).unwrap();
    // What a second process holds: its own store (and its own parsed copy) of the same file.
    let theirs = Subscriptions::new(mine.path().to_path_buf());
    let titled = |t: &str| ok("Log", vec![entry("gemini://log.example/1", t, None)]);
    mine.record(&url, &titled("aaaa"), NOW).unwrap();
    let copy = mine.shared().unwrap();
    assert_eq!(copy[0].entries[0].title, "aaaa");
    assert!(
        std::sync::Arc::ptr_eq(&copy, &mine.shared().unwrap()),
        "an unchanged file is not parsed again"
    );
    let before = std::fs::metadata(mine.path()).unwrap();
    theirs.record(&url, &titled("bbbb"), NOW).unwrap();
    // The same size and the very same modification time: only the file's identity and
    // its bytes tell the two apart.
    let f = std::fs::File::options()
        .write(true)
        .open(mine.path())
        .unwrap();
    f.set_modified(before.modified().unwrap()).unwrap();
    assert_eq!(std::fs::metadata(mine.path()).unwrap().len(), before.len());
    assert_eq!(mine.shared().unwrap()[0].entries[0].title, "bbbb");
    // Read state set there is seen here, and kept by this process's next write.
    assert!(theirs.mark_read("gemini://log.example/1").unwrap());
    assert_eq!(mine.list().unwrap()[0].unread(), 0);
    mine.set_sync_links(&url, Some(true)).unwrap();
    assert_eq!(theirs.list().unwrap()[0].unread(), 0);
    assert_eq!(theirs.list().unwrap()[0].sync_links, Some(true));
    // A file spoiled after it was read is reported, never answered from the old copy.
    crate::write_private(mine.path(), "[[subscription]]\nurl = 3\n").unwrap();
    let err = mine.list().unwrap_err();
    assert!(matches!(err, StoreError::Corrupt { .. }), "{err:?}");
    assert!(mine.mark_read("gemini://log.example/1").is_err());
    assert_eq!(
        std::fs::read_to_string(mine.path()).unwrap(),
        "[[subscription]]\nurl = 3\n"
    );
}

/// Child half of the two-process test: refreshes every feed 30 times with entries named after
/// this process, and marks its own first entries read. Run only when spawned.
#[test]
#[ignore = "spawned by two_processes_refreshing_lose_nothing"]
fn child_refresh() {
    let (Ok(path), Ok(id)) = (
        std::env::var("SMOLWEB_TEST_SUBS"),
        std::env::var("SMOLWEB_TEST_ID"),
    ) else {
        return;
    };
    let s = Subscriptions::new(path.into());
    for round in 0..30 {
        for feed in ["a", "b", "c"] {
            let url = format!("gemini://{feed}.example/");
            let e = entry(
                &format!("gemini://{feed}.example/{id}/{round}"),
                &round.to_string(),
                None,
            );
            s.record(&url, &ok(feed, vec![e]), NOW).unwrap();
        }
        s.mark_read(&format!("gemini://a.example/{id}/{round}"))
            .unwrap();
    }
}

#[test]
fn two_processes_refreshing_lose_nothing() {
    let (_t, s) = store();
    for feed in ["a", "b", "c"] {
        s.add(&format!("gemini://{feed}.example/"), NOW).unwrap();
    }
    let exe = std::env::current_exe().unwrap();
    let children: Vec<_> = ["one", "two"]
        .iter()
        .map(|id| {
            std::process::Command::new(&exe)
                .args([
                    "--exact",
                    "store_subscriptions::child_refresh",
                    "--ignored",
                    "--nocapture",
                ])
                .env("SMOLWEB_TEST_SUBS", s.path())
                .env("SMOLWEB_TEST_ID", id)
                .stdout(std::process::Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    for mut c in children {
        assert!(c.wait().unwrap().success());
    }
    let subs = s.list().unwrap();
    assert_eq!(subs.len(), 3);
    for sub in &subs {
        assert_eq!(
            sub.entries.len(),
            60,
            "{}: both processes' entries kept",
            sub.url
        );
    }
    let a = subs
        .iter()
        .find(|x| x.url == "gemini://a.example/")
        .unwrap();
    assert_eq!(
        a.unread(),
        0,
        "every mark_read survived the other process's refreshes"
    );
    assert_eq!(subs[1].unread(), 60);
}

#[test]
fn record_many_merges_several_feeds_in_one_write() {
    let (_t, s) = store();
    let (a, _) = s.add("gemini://a.example/", NOW).unwrap();
    let (b, _) = s.add("gemini://b.example/", NOW).unwrap();
    let ra = ok("A", vec![entry("gemini://a.example/1", "1", None)]);
    let rb = Refreshed::Failed("timeout".into());
    let gone = ok("Gone", vec![entry("gemini://gone.example/1", "1", None)]);
    let lists = s
        .record_many(
            &[
                (a.clone(), &ra),
                ("gemini://gone.example/".into(), &gone),
                (b.clone(), &rb),
            ],
            NOW,
        )
        .unwrap();
    assert_eq!(lists.iter().map(Vec::len).collect::<Vec<_>>(), [1, 0, 0]);
    let subs = s.list().unwrap();
    assert_eq!(subs.len(), 2, "an unknown feed is not added");
    assert_eq!(subs[0].entries.len(), 1);
    assert_eq!(subs[1].error.as_deref(), Some("timeout"));
}

#[test]
fn a_new_entry_starts_read_when_visited_before_or_read_in_another_feed() {
    let (_t, s) = store();
    let (log, _) = s.add("gemini://log.example/", NOW).unwrap();
    let (atom, _) = s.add("gemini://log.example/atom.xml", NOW).unwrap();
    let posts = || {
        vec![
            entry("gemini://log.example/a", "A", Some("2026-11-01")),
            entry("gemini://log.example/b", "B", Some("2026-11-02")),
        ]
    };
    // The person read /a before following the gemlog: history says so.
    let visited: std::collections::HashSet<String> = ["gemini://log.example/a".to_string()].into();
    let fresh = s
        .record_visited(&log, &ok("Log", posts()), NOW, &visited)
        .unwrap();
    assert_eq!(fresh.len(), 2, "still new, but...");
    let read = |sub: &str, url: &str| {
        s.get(sub)
            .unwrap()
            .unwrap()
            .entries
            .iter()
            .find(|e| e.url == url)
            .unwrap()
            .read
    };
    assert!(read(&log, "gemini://log.example/a"), "visited before: read");
    assert!(!read(&log, "gemini://log.example/b"));
    // /b is read on the gemlog; then its own Atom feed is followed: /b starts read there.
    assert!(s.mark_read("gemini://log.example/b").unwrap());
    s.record(&atom, &ok("Log (Atom)", posts()), NOW).unwrap();
    assert!(read(&atom, "gemini://log.example/a"));
    assert!(read(&atom, "gemini://log.example/b"));
}

#[test]
fn sync_links_is_set_per_subscription_and_survives_refreshes() {
    let (_t, s) = store();
    let (url, _) = s.add("gemini://log.example/g/", NOW).unwrap();
    assert_eq!(s.get(&url).unwrap().unwrap().sync_links, None);
    let text = std::fs::read_to_string(s.path()).unwrap();
    assert!(!text.contains("sync_links"), "unset is not written: {text}");
    assert_eq!(
        s.set_sync_links("gemini://LOG.example/g/", Some(true))
            .unwrap()
            .sync_links,
        Some(true)
    );
    s.record(
        &url,
        &ok("Log", vec![entry("gemini://log.example/g/1", "One", None)]),
        NOW,
    )
    .unwrap();
    let sub = s.get(&url).unwrap().unwrap();
    assert_eq!((sub.sync_links, sub.entries.len()), (Some(true), 1));
    assert!(
        std::fs::read_to_string(s.path())
            .unwrap()
            .contains("sync_links = true")
    );
    s.set_sync_links(&url, None).unwrap();
    assert_eq!(s.get(&url).unwrap().unwrap().sync_links, None);
    assert!(matches!(
        s.set_sync_links("gemini://other.example/", Some(false)),
        Err(StoreError::NotFound(_))
    ));
}
