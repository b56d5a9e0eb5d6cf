use super::*;
use smolweb_core::follow::{Counts, Memory, Watch};
use time::macros::datetime;

const PAGE: &str = "gemini://wiki.example/index.gmi";

fn copy_with(diff: Diff) -> (PageCopy, StoredChange) {
    let change = StoredChange {
        at: datetime!(2026-07-28 10:15 UTC),
        since: datetime!(2026-07-27 10:15 UTC),
        restless: false,
        cut: false,
        diff,
    };
    let copy = PageCopy {
        url: PAGE.into(),
        fetched: change.at,
        cut: false,
        text: String::new(),
        memory: Memory::first("", Watch::Text),
        changes: vec![change.clone()],
    };
    (copy, change)
}

fn block(kind: BlockKind, text: &str) -> Block {
    Block {
        kind,
        text: text.into(),
    }
}

#[test]
fn a_change_shows_its_links_and_paragraphs_in_the_page_rendering() {
    let diff = Diff {
        links_added: vec![DiffLink {
            url: "gemini://wiki.example/b.gmi".into(),
            label: "Page B".into(),
        }],
        links_removed: vec![DiffLink {
            url: "gemini://wiki.example/old.gmi".into(),
            label: String::new(),
        }],
        added: vec![
            block(BlockKind::Heading, "News"),
            block(BlockKind::Text, "=> not a link\nsecond line"),
            block(BlockKind::Pre, "  art\n```break out"),
        ],
        removed: vec![block(BlockKind::Quote, "old quote")],
        counts: Counts {
            links_added: 1,
            links_removed: 1,
            added: 45,
            removed: 1,
            noise: 2,
        },
    };
    let (copy, change) = copy_with(diff);
    let mut sub = Subscription::new(PAGE.into(), change.since, Some(Watch::Text));
    sub.title = Some("The wiki".into());
    let g = change_page(Some(&sub), &copy, &change);
    assert_eq!(
        g,
        "# Changes: The wiki\n\n\
         => gemini://wiki.example/index.gmi Open the page\n\
         1 link added, 1 removed · 45 paragraphs added, 1 removed · found 2026-07-28 10:15 UTC · \
         compared with the copy of 2026-07-27 10:15 UTC\n\
         \n## Links added\n=> gemini://wiki.example/b.gmi Page B\n\
         \n## Links removed\n=> gemini://wiki.example/old.gmi\n\
         \n## Paragraphs added\n### News\n => not a link second line\n```\n  art\n ```break out\n```\n\
         … and 42 more\n\
         \n## Paragraphs removed\n> old quote\n\
         \n(2 lines changed only in dates or numbers, not shown.)\n\
         \n=> about:changes?page=gemini%3A%2F%2Fwiki.example%2Findex.gmi Every kept change of this page\n\
         => about:feeds Feeds and followed pages\n"
    );
    let doc = smolweb_core::gemtext::parse(&g, None);
    let links: Vec<&str> = doc.links().map(|l| l.url.as_str()).collect();
    assert_eq!(links.len(), 5, "no remote line became a link: {links:?}");
    let lines = diff_lines(&change.diff);
    assert_eq!(lines[0], "+ => gemini://wiki.example/b.gmi Page B");
    assert_eq!(lines[1], "- => gemini://wiki.example/old.gmi");
    assert_eq!(lines.last().unwrap(), "… and 42 more");
}

#[test]
fn the_health_page_lists_the_sick_first_and_offers_adoption_to_the_person() {
    let now = datetime!(2026-07-28 12:00 UTC);
    let mut good = Subscription::new("gemini://good.example/".into(), now, None);
    good.refreshed = Some(now);
    good.entries
        .push(smolweb_store::subscriptions::StoredEntry {
            url: "gemini://good.example/p".into(),
            title: "P".into(),
            published: Some("2026-07-27T00:00:00Z".into()),
            first_seen: now,
            read: false,
        });
    let mut moved = Subscription::new("gemini://old.example/".into(), now, None);
    moved.moved_to = Some("gemini://new.example/".into());
    moved.error = Some("redirects to gemini://new.example/ (another server; not followed)".into());
    moved.failures = 2;
    let subs = [good, moved];
    let g = health_page(&subs, now, true);
    let sick = g.find("## Needs attention").unwrap();
    let healthy = g.find("## Healthy").unwrap();
    assert!(sick < healthy, "{g}");
    assert!(
        g[sick..healthy].contains("* ⚠ moved to gemini://new.example/"),
        "{g}"
    );
    assert!(
        g[sick..healthy].contains("* ⚠ failing: 2 refreshes in a row"),
        "{g}"
    );
    assert!(
        g.contains("=> action:adopt:gemini://old.example/ Follow it"),
        "{g}"
    );
    assert!(
        g[healthy..].contains("* feed · 1 entry · newest 2026-07-27"),
        "{g}"
    );
    assert!(!health_page(&subs, now, false).contains("action:"));
}
