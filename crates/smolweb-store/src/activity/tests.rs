use super::*;
use std::io::Write;
use std::sync::Arc;

fn at(s: i64) -> OffsetDateTime {
    OffsetDateTime::from_unix_timestamp(1_700_000_000 + s).unwrap()
}

fn call(session: &str, s: i64, url: &str) -> Entry {
    Entry::new(
        session,
        at(s),
        Event::Call {
            tool: "gemini_fetch".into(),
            url: Some(url.into()),
            urls: None,
            outcome: "gemtext".into(),
            error: false,
            bytes: Some(120),
            cached: Some(false),
            ms: 3,
        },
    )
}

fn log_in(dir: &tempfile::TempDir, limits: Limits) -> Activity {
    Activity::new(dir.path().join("agent_activity.jsonl"), limits)
}

#[test]
fn urls_lose_query_fragment_userinfo_and_gopher_search() {
    assert_eq!(
        clean_url("gemini://user:pw@cap.test:1965/a?secret#frag"),
        "gemini://cap.test:1965/a"
    );
    assert_eq!(
        clean_url("gopher://h.test/7/search%09hunter2"),
        "gopher://h.test/7/search"
    );
    assert_eq!(clean_url("gopher://h.test/7/s\tq"), "gopher://h.test/7/s");
    assert_eq!(clean_url("https://h.test/p#x"), "https://h.test/p");
    assert_eq!(
        clean_url("gemini://h\u{1b}[31m.test/"),
        "gemini://h[31m.test/"
    );
    assert_eq!(
        clean_url(&format!("gemini://h/{}", "a".repeat(900)))
            .chars()
            .count(),
        MAX_URL_CHARS
    );
    assert_eq!(
        clean_text("evil\u{1b}]0;x\u{7}\nname", 100),
        "evil]0;x name"
    );
    assert_eq!(clean_text(&"n".repeat(300), 10).chars().count(), 10);
}

#[test]
fn appends_read_back_and_the_file_is_private() {
    let dir = tempfile::tempdir().unwrap();
    let log = log_in(&dir, Limits::default());
    log.append(&Entry::new(
        "s1",
        at(0),
        Event::Start {
            client: "claude\u{1b}[2J".into(),
            version: "1.0".into(),
            pid: 7,
        },
    ))
    .unwrap();
    log.append(&call("s1", 1, "gemini://cap.test/?q=secret"))
        .unwrap();
    log.append(&Entry::new("s1", at(2), Event::End)).unwrap();
    let read = log.read().unwrap();
    assert_eq!(read.entries.len(), 3);
    assert_eq!(read.skipped, 0);
    let text = std::fs::read_to_string(log.path()).unwrap();
    assert!(
        !text.contains("secret") && !text.contains('\u{1b}'),
        "{text}"
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(log.path()).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
    }
    let s = sessions(&read.entries);
    assert_eq!(s.len(), 1);
    assert_eq!(s[0].client, "claude[2J");
    assert_eq!(s[0].events.len(), 1);
    assert!(s[0].ended.is_some());
    assert!(!s[0].active(at(3)));
}

#[test]
fn a_corrupt_line_is_skipped_not_fatal() {
    let dir = tempfile::tempdir().unwrap();
    let log = log_in(&dir, Limits::default());
    log.append(&call("a", 1, "gemini://x/")).unwrap();
    let mut f = OpenOptions::new().append(true).open(log.path()).unwrap();
    f.write_all(b"{not json\n\x00\xff garbage\n").unwrap();
    log.append(&call("a", 2, "gemini://y/")).unwrap();
    let read = log.read().unwrap();
    assert_eq!(read.entries.len(), 2);
    assert_eq!(read.skipped, 2);
}

#[test]
fn the_bounds_hold_and_the_newest_stay() {
    let dir = tempfile::tempdir().unwrap();
    let log = log_in(
        &dir,
        Limits {
            max_entries: 100,
            max_bytes: 1 << 20,
        },
    );
    for i in 0..1000 {
        log.append(&call("b", i, &format!("gemini://h/{i}")))
            .unwrap();
        let n = count_lines(&std::fs::read(log.path()).unwrap());
        assert!(n <= 100, "{n} lines after {i}");
    }
    let read = log.read().unwrap();
    let last = read.entries.last().unwrap();
    assert_eq!(last.at, at(999));
    assert!(read.entries.len() >= 50);
    // By bytes too.
    let dir = tempfile::tempdir().unwrap();
    let log = log_in(
        &dir,
        Limits {
            max_entries: 1_000_000,
            max_bytes: 8 * 1024,
        },
    );
    for i in 0..500 {
        log.append(&call("b", i, &format!("gemini://h/{i}")))
            .unwrap();
        assert!(std::fs::metadata(log.path()).unwrap().len() <= 8 * 1024);
    }
    assert_eq!(log.read().unwrap().entries.last().unwrap().at, at(499));
}

#[test]
fn two_writers_at_once_lose_nothing_and_keep_the_bound() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("agent_activity.jsonl");
    // Unbounded: every line arrives whole.
    let writers: Vec<_> = (0..2)
        .map(|w| {
            let path = path.clone();
            std::thread::spawn(move || {
                // Each thread has its own Activity, as each MCP process does.
                let log = Activity::new(
                    path,
                    Limits {
                        max_entries: 1_000_000,
                        max_bytes: 1 << 30,
                    },
                );
                for i in 0..500 {
                    log.append(&call(&format!("w{w}"), i, &format!("gemini://h/{w}/{i}")))
                        .unwrap();
                }
            })
        })
        .collect();
    for w in writers {
        w.join().unwrap();
    }
    let log = Activity::new(path.clone(), Limits::default());
    let read = log.read().unwrap();
    assert_eq!(read.skipped, 0);
    assert_eq!(read.entries.len(), 1000);
    for w in 0..2 {
        let n = read
            .entries
            .iter()
            .filter(|e| e.session == format!("w{w}"))
            .count();
        assert_eq!(n, 500);
    }
    // Bounded, with compaction racing appends: never over, never a torn line.
    std::fs::remove_file(&path).unwrap();
    let limits = Limits {
        max_entries: 64,
        max_bytes: 1 << 20,
    };
    let logs: Vec<Arc<Activity>> = (0..2)
        .map(|_| Arc::new(Activity::new(path.clone(), limits)))
        .collect();
    let writers: Vec<_> = logs
        .iter()
        .enumerate()
        .map(|(w, log)| {
            let log = Arc::clone(log);
            std::thread::spawn(move || {
                for i in 0..400 {
                    log.append(&call(&format!("w{w}"), i, "gemini://h/"))
                        .unwrap();
                }
            })
        })
        .collect();
    for w in writers {
        w.join().unwrap();
    }
    let read = logs[0].read().unwrap();
    assert_eq!(read.skipped, 0);
    // Another writer may have appended after the last check by one: the bound holds once the
    // next append of either looks.
    assert!(read.entries.len() <= 64 + 1, "{}", read.entries.len());
    logs[0].append(&call("w0", 1000, "gemini://h/")).unwrap();
    assert!(logs[0].read().unwrap().entries.len() <= 64);
}

#[test]
fn a_follower_reads_only_what_is_new_and_starts_over_after_compaction() {
    let dir = tempfile::tempdir().unwrap();
    let log = log_in(
        &dir,
        Limits {
            max_entries: 10,
            max_bytes: 1 << 20,
        },
    );
    let mut cursor = Cursor::default();
    let (got, reset) = log.read_since(&mut cursor).unwrap();
    assert!(got.entries.is_empty() && !reset);
    for i in 0..3 {
        log.append(&call("f", i, "gemini://h/")).unwrap();
    }
    let (got, reset) = log.read_since(&mut cursor).unwrap();
    assert_eq!((got.entries.len(), reset), (3, false));
    log.append(&call("f", 3, "gemini://h/")).unwrap();
    let (got, _) = log.read_since(&mut cursor).unwrap();
    assert_eq!(got.entries.len(), 1);
    for i in 4..20 {
        log.append(&call("f", i, "gemini://h/")).unwrap();
    }
    let (got, reset) = log.read_since(&mut cursor).unwrap();
    assert!(reset, "the file was compacted");
    assert_eq!(got.entries.last().unwrap().at, at(19));
}

#[test]
fn a_link_in_place_of_the_log_is_refused() {
    #[cfg(unix)]
    {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("elsewhere");
        crate::perms::write_private(&target, "").unwrap();
        let path = dir.path().join("agent_activity.jsonl");
        std::os::unix::fs::symlink(&target, &path).unwrap();
        let log = Activity::new(path, Limits::default());
        let e = log.append(&call("l", 0, "gemini://h/")).unwrap_err();
        assert!(matches!(e, StoreError::NotRegular { .. }), "{e}");
        assert_eq!(std::fs::read(&target).unwrap(), b"");
    }
}

#[test]
fn a_snapshot_parses_each_line_once_and_follows_compaction() {
    let dir = tempfile::tempdir().unwrap();
    let log = log_in(
        &dir,
        Limits {
            max_entries: 10,
            max_bytes: 1 << 20,
        },
    );
    assert!(log.snapshot().unwrap().is_empty());
    for i in 0..4 {
        log.append(&call("s", i, "gemini://h/")).unwrap();
    }
    // Another process's appends are seen too.
    let other = log_in(&dir, Limits::default());
    other.append(&call("t", 4, "gemini://h/")).unwrap();
    let snap = log.snapshot().unwrap();
    assert_eq!(snap.len(), 5);
    assert_eq!(*snap, log.read().unwrap().entries);
    for i in 5..30 {
        log.append(&call("s", i, "gemini://h/")).unwrap();
    }
    let snap = log.snapshot().unwrap();
    assert_eq!(*snap, log.read().unwrap().entries, "compacted: read again");
    assert_eq!(snap.last().unwrap().at, at(29));
}

#[test]
fn a_line_torn_by_a_full_disk_is_cut_off_before_the_next_append() {
    let dir = tempfile::tempdir().unwrap();
    let log = log_in(&dir, Limits::default());
    log.append(&call("a", 1, "gemini://x/1")).unwrap();
    // What a write stopped part way by a full disk leaves: half a line, no newline.
    let mut f = OpenOptions::new().append(true).open(log.path()).unwrap();
    f.write_all(br#"{"at":"2023-11-14T22:13:21Z","session":"a","ev"#)
        .unwrap();
    let read = log.read().unwrap();
    assert_eq!(
        (read.entries.len(), read.skipped),
        (1, 0),
        "the torn tail is not read"
    );
    log.append(&call("a", 2, "gemini://x/2")).unwrap();
    let read = log.read().unwrap();
    assert_eq!(
        read.skipped, 0,
        "the torn tail did not swallow the next entry"
    );
    let urls: Vec<_> = read
        .entries
        .iter()
        .map(|e| match &e.event {
            Event::Call { url, .. } => url.clone().unwrap(),
            _ => String::new(),
        })
        .collect();
    assert_eq!(urls, ["gemini://x/1", "gemini://x/2"]);
    // A tail longer than any entry is not ours: it is ended, not cut.
    crate::perms::write_private(log.path(), vec![b'x'; MAX_LINE + 10]).unwrap();
    log.append(&call("a", 3, "gemini://x/3")).unwrap();
    let bytes = std::fs::read(log.path()).unwrap();
    assert!(bytes.starts_with(&vec![b'x'; MAX_LINE + 10]));
    let read = log.read().unwrap();
    assert_eq!((read.entries.len(), read.skipped), (1, 1));
}

#[test]
fn a_decision_on_a_queued_request_reads_back_under_its_session() {
    let dir = tempfile::tempdir().unwrap();
    let log = log_in(&dir, Limits::default());
    let consent = |step, by| Event::Consent {
        tool: "gemini_trust_update".into(),
        step,
        what: "forget the pinned certificate of cap.test:1965".into(),
        approval: Some("ab12cd34".into()),
        by,
    };
    log.append(&Entry::new("s1", at(0), consent(ConsentStep::Queued, None)))
        .unwrap();
    log.append(&Entry::new(
        "s1",
        at(9),
        consent(ConsentStep::Approved, Some(Decider::Browser)),
    ))
    .unwrap();
    // A line written before decisions were recorded still reads.
    let old = r#"{"at":"2026-01-01T00:00:00Z","session":"s0","event":"consent","tool":"t","step":"asked","what":"w"}"#;
    std::fs::OpenOptions::new()
        .append(true)
        .open(log.path())
        .unwrap()
        .write_all(format!("{old}\n").as_bytes())
        .unwrap();
    let read = log.read().unwrap();
    assert_eq!((read.entries.len(), read.skipped), (3, 0));
    let lines: Vec<String> = read.entries.iter().map(describe).collect();
    assert!(lines[0].ends_with("[s1] gemini_trust_update: consent queued for approval: forget the pinned certificate of cap.test:1965"), "{lines:?}");
    assert!(
        lines[1].contains("[s1] gemini_trust_update: consent approved in the browser: forget"),
        "{lines:?}"
    );
    assert!(lines[2].contains("[s0] t: consent asked: w"), "{lines:?}");
    let s = sessions(&read.entries);
    let s1 = s.iter().find(|s| s.id == "s1").unwrap();
    assert_eq!(
        s1.events.len(),
        2,
        "the decision is under the session that queued it"
    );
}
