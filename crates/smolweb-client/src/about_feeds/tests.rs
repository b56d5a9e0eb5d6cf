//! Tests of the about:feeds and about:offline pages.

use super::*;
use time::OffsetDateTime;
use time::macros::datetime;

const T: OffsetDateTime = datetime!(2026-11-30 12:00 UTC);

fn entry(url: &str, title: &str, published: Option<&str>, read: bool) -> StoredEntry {
    StoredEntry {
        url: url.into(),
        title: title.into(),
        published: published.map(str::to_string),
        first_seen: T,
        read,
    }
}

fn sub(url: &str, title: &str, entries: Vec<StoredEntry>) -> Subscription {
    Subscription {
        url: url.into(),
        title: Some(title.into()),
        added: T,
        refreshed: Some(T),
        error: None,
        sync_links: None,
        entries,
    }
}

#[test]
fn feeds_page_groups_by_day_newest_first_and_marks_unread() {
    let mut b = sub(
        "gopher://b.example/1/",
        "B hole",
        vec![entry("gopher://b.example/0/x", "Undated", None, false)],
    );
    b.error = Some("connection refused".into());
    let subs = vec![
        sub(
            "gemini://a.example/",
            "A log",
            vec![
                entry(
                    "gemini://a.example/2",
                    "Second",
                    Some("2026-11-29T08:00:00Z"),
                    true,
                ),
                entry(
                    "gemini://a.example/1",
                    "First",
                    Some("2026-11-01T00:00:00Z"),
                    false,
                ),
            ],
        ),
        b,
    ];
    let page = feeds_page(&subs);
    let want = "\
# Feeds

2 subscriptions · 3 entries · 2 unread

## 2026-11-30
=> gopher://b.example/0/x ● Undated · B hole

## 2026-11-29
=> gemini://a.example/2 Second · A log

## 2026-11-01
=> gemini://a.example/1 ● First · A log

## Subscriptions
=> gemini://a.example/ A log (1 unread, refreshed 2026-11-30 12:00 UTC)
=> gopher://b.example/1/ B hole (1 unread, refresh failed 2026-11-30 12:00 UTC)
* last refresh failed: connection refused

## Views
=> about:feeds?by=feed By feed
";
    assert_eq!(page, want);
}

#[test]
fn feeds_page_without_subscriptions_or_entries() {
    assert!(feeds_page(&[]).contains("You follow no feeds yet"));
    let page = feeds_page(&[sub("gemini://a.example/", "A", vec![])]);
    assert!(page.contains("No entries yet"), "{page}");
}

#[test]
fn hand_edited_titles_cannot_add_lines() {
    let subs = vec![sub(
        "gemini://a.example/",
        "A\n# Fake heading",
        vec![entry(
            "gemini://a.example/1",
            "x\n=> evil.example",
            None,
            false,
        )],
    )];
    let page = feeds_page(&subs);
    assert!(!page.contains("\n# Fake"), "{page}");
    assert!(!page.contains("\n=> evil"), "{page}");
}

#[test]
fn offline_page_lists_the_reading_list() {
    let saved = vec![OfflineEntry {
        url: "gemini://a.example/post".into(),
        bytes: 2048,
        fetched: T,
        last_used: T,
        saved: Some(T),
        title: Some("A post".into()),
    }];
    let page = offline_page(&saved, 5 * 1024 * 1024, 200 * 1024 * 1024);
    assert!(
        page.starts_with(
            "# Offline reading list\n\n1 saved page (2.0 KiB) · offline copies use 5.0 MiB of 200.0 MiB\n"
        ),
        "{page}"
    );
    assert!(
        page.contains(
            "=> gemini://a.example/post A post (2.0 KiB, saved 2026-11-30 12:00 UTC, fetched 2026-11-30 12:00 UTC)\n"
        ),
        "{page}"
    );
    assert!(offline_page(&[], 0, 1).contains("Nothing saved yet"));
}

#[test]
fn an_entry_in_two_feeds_is_listed_once_and_read_when_either_copy_is() {
    let post = "gemini://log.example/2026-11-29.gmi";
    let other = "gemini://log.example/2026-11-28.gmi";
    let subs = vec![
        sub(
            "gemini://log.example/",
            "Log",
            vec![
                entry(post, "Post", Some("2026-11-29"), true),
                entry(other, "Other", Some("2026-11-28"), false),
            ],
        ),
        sub(
            "gemini://log.example/atom.xml",
            "Log (Atom)",
            vec![
                entry(post, "Post", Some("2026-11-29T10:00:00Z"), false),
                entry(other, "Other", Some("2026-11-28T10:00:00Z"), false),
            ],
        ),
    ];
    let page = feeds_page(&subs);
    assert_eq!(page.matches(&format!("=> {post} ")).count(), 1, "{page}");
    assert_eq!(page.matches(&format!("=> {other} ")).count(), 1, "{page}");
    assert!(
        page.contains("2 subscriptions · 2 entries · 1 unread"),
        "{page}"
    );
    assert!(
        !page.contains(&format!("=> {post} {UNREAD}")),
        "read on the gemlog: {page}"
    );
}

#[test]
fn feeds_by_feed_and_one_feed_only() {
    let subs = vec![
        sub(
            "gemini://a.example/",
            "A log",
            vec![
                entry("gemini://a.example/1", "A one", Some("2026-11-01"), false),
                entry("gemini://a.example/2", "A two", Some("2026-11-29"), false),
            ],
        ),
        sub(
            "gemini://b.example/",
            "B log",
            vec![entry(
                "gemini://b.example/1",
                "B one",
                Some("2026-11-15"),
                true,
            )],
        ),
    ];
    let by_feed = feeds_page_view(&subs, FeedsView::from_query(Some("by=feed")));
    assert!(by_feed.starts_with("# Feeds by feed\n"), "{by_feed}");
    let (a, b) = (
        by_feed.find("## A log").unwrap(),
        by_feed.find("## B log").unwrap(),
    );
    let (a2, a1) = (
        by_feed.find("A two").unwrap(),
        by_feed.find("A one").unwrap(),
    );
    assert!(
        a < a2 && a2 < a1 && a1 < b,
        "grouped, newest first:\n{by_feed}"
    );
    let only = one_feed_url("gemini://b.example/");
    assert!(
        by_feed.contains(&format!("=> {only} Only this feed")),
        "{by_feed}"
    );
    assert!(by_feed.contains("=> about:feeds By date, all feeds"));

    let query = only.strip_prefix("about:feeds?").unwrap();
    let one = feeds_page_view(&subs, FeedsView::from_query(Some(query)));
    assert!(one.starts_with("# Feeds: B log\n"), "{one}");
    assert!(one.contains("B one") && !one.contains("A one"), "{one}");
    assert!(one.contains("1 subscription · 1 entry · 0 unread"), "{one}");
    let gone = feeds_page_view(
        &subs,
        FeedsView::from_query(Some("feed=gemini%3A%2F%2Fc.example%2F")),
    );
    assert!(gone.contains("You do not follow this feed"), "{gone}");
}
