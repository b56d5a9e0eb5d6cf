//! Bookmarks (gemtext) and history (TOML) on disk.

use smolweb_store::StoreError;
use smolweb_store::bookmarks::Bookmarks;
use smolweb_store::history::{History, MAX_HISTORY};
use time::macros::datetime;
use time::{Duration, OffsetDateTime};

const NOW: OffsetDateTime = datetime!(2026-06-01 12:00 UTC);

#[test]
fn bookmarks_add_retitle_remove() {
    let tmp = tempfile::tempdir().unwrap();
    let bm = Bookmarks::new(tmp.path().join("d/bookmarks.gmi"));
    assert!(bm.list().unwrap().is_empty());
    assert!(bm.add("gemini://a.example/", "Alpha").unwrap());
    assert!(bm.add("gopher://b.example/1/", "").unwrap());
    assert!(!bm.add("gemini://a.example/", "Alpha, renamed\n").unwrap());
    let text = std::fs::read_to_string(bm.path()).unwrap();
    assert_eq!(
        text,
        "# Bookmarks\n\n=> gemini://a.example/ Alpha, renamed\n=> gopher://b.example/1/\n"
    );
    assert_eq!(bm.to_gemtext().unwrap(), text);
    assert!(bm.remove("gemini://a.example/").unwrap());
    assert!(!bm.remove("gemini://a.example/").unwrap());
    let list = bm.list().unwrap();
    assert_eq!(list.len(), 1);
    assert_eq!(list[0].url, "gopher://b.example/1/");
    assert!(matches!(
        bm.add("gemini://x/ y", "t"),
        Err(StoreError::Invalid(_))
    ));
}

#[test]
fn bookmarks_read_a_hand_edited_file() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("bookmarks.gmi");
    crate::write_private(&path, "# Mine\nsome text\n=>gemini://x/\tX site\n").unwrap();
    let bm = Bookmarks::new(path);
    let list = bm.list().unwrap();
    assert_eq!(list.len(), 1);
    assert_eq!(
        (list[0].url.as_str(), list[0].title.as_str()),
        ("gemini://x/", "X site")
    );
}

#[test]
fn history_strips_queries_dedups_and_orders() {
    let tmp = tempfile::tempdir().unwrap();
    let h = History::new(tmp.path().join("d/history.toml"));
    h.record("gemini://a/search?secret answer", Some("Search"), NOW)
        .unwrap();
    h.record("gemini://b/", Some("B"), NOW + Duration::seconds(1))
        .unwrap();
    h.record("gemini://a/search?other", None, NOW + Duration::seconds(2))
        .unwrap();
    let list = h.list().unwrap();
    let urls: Vec<_> = list.iter().map(|v| v.url.as_str()).collect();
    assert_eq!(urls, vec!["gemini://a/search", "gemini://b/"]);
    assert_eq!(
        list[0].title.as_deref(),
        Some("Search"),
        "title kept when none given"
    );
    assert_eq!(list[0].at, NOW + Duration::seconds(2));
    let text = std::fs::read_to_string(h.path()).unwrap();
    assert!(!text.contains("secret"), "{text}");
    assert!(text.contains("[[visit]]"), "{text}");
}

#[test]
fn history_is_capped() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("history.toml");
    // Build a full file directly (recording thousands of visits one by one is slow with fsync).
    let mut text = String::new();
    for i in 0..MAX_HISTORY {
        text.push_str(&format!(
            "[[visit]]\nurl = \"gemini://h/{i}\"\nat = \"2026-01-01T00:00:00Z\"\n\n"
        ));
    }
    crate::write_private(&path, text).unwrap();
    let h = History::new(path);
    h.record("gemini://h/new", None, NOW).unwrap();
    let list = h.list().unwrap();
    assert_eq!(list.len(), MAX_HISTORY);
    assert_eq!(list[0].url, "gemini://h/new");
    assert_eq!(
        list[MAX_HISTORY - 1].url,
        format!("gemini://h/{}", MAX_HISTORY - 2)
    );
}

#[test]
fn corrupt_history_is_named_and_kept() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("history.toml");
    crate::write_private(&path, "[[visit]]\nurl = 5\n").unwrap();
    let h = History::new(path.clone());
    let err = h.record("gemini://a/", None, NOW).unwrap_err();
    assert!(err.to_string().contains("history.toml"), "{err}");
    assert!(h.list().is_err());
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "[[visit]]\nurl = 5\n"
    );
}

#[test]
fn history_forgets_one_visit_or_all() {
    let tmp = tempfile::tempdir().unwrap();
    let h = History::new(tmp.path().join("d/history.toml"));
    h.record("gemini://a.example/", Some("A"), NOW).unwrap();
    h.record("gemini://b.example/", Some("B"), NOW).unwrap();
    assert!(h.remove("gemini://a.example/?with-a-query").unwrap());
    assert!(!h.remove("gemini://a.example/").unwrap(), "already gone");
    let left: Vec<String> = h.list().unwrap().into_iter().map(|v| v.url).collect();
    assert_eq!(left, ["gemini://b.example/"]);
    assert_eq!(h.clear().unwrap(), 1);
    assert!(h.list().unwrap().is_empty());
    assert_eq!(h.clear().unwrap(), 0);
}
