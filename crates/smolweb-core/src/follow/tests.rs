use super::*;
use crate::page::{Page, mime_of};
use crate::url::Url;
use diff::digest;

fn gemtext_page(url: &str, body: &str) -> Page {
    Page::from_gemini(
        Url::parse(url).unwrap(),
        mime_of("text/gemini"),
        body.as_bytes().to_vec(),
    )
}

fn urls(links: &[DiffLink]) -> Vec<&str> {
    links.iter().map(|l| l.url.as_str()).collect()
}

fn texts(blocks: &[Block]) -> Vec<&str> {
    blocks.iter().map(|b| b.text.as_str()).collect()
}

#[test]
fn a_gemtext_page_keeps_its_lines_with_links_made_absolute() {
    let page = gemtext_page(
        "gemini://cap.test/wiki/",
        "# Wiki\r\n=> page.gmi  A page\n=>   ../up\nText with a \x1b[31mcontrol\n```ascii art\n=> not a link\n```\n",
    );
    let s = snapshot(&page).unwrap();
    assert_eq!(
        s.text,
        "# Wiki\n=> gemini://cap.test/wiki/page.gmi A page\n=> gemini://cap.test/up\n\
         Text with a  [31mcontrol\n```\n=> not a link\n```\n"
    );
    assert_eq!(s.title.as_deref(), Some("Wiki"));
    assert!(!s.cut);
}

#[test]
fn a_menu_is_links_and_info_lines_and_plain_text_one_block() {
    let menu = "iWelcome\tfake\t(NULL)\t0\r\n0About\t/about.txt\tg.test\t70\r\n.\r\n";
    let page = Page::from_gopher(
        Url::parse("gopher://g.test/1/").unwrap(),
        '1',
        menu.as_bytes().to_vec(),
    );
    let s = snapshot(&page).unwrap();
    assert_eq!(s.text, "Welcome\n=> gopher://g.test/0/about.txt About\n");
    let text = Page::from_gopher(
        Url::parse("gopher://g.test/0/t").unwrap(),
        '0',
        b"one\ntwo\n```fence\n\nthree\n".to_vec(),
    );
    let s = snapshot(&text).unwrap();
    assert_eq!(s.text, "```\none\ntwo\n ```fence\n\nthree\n```\n");
    let d = diff(&s.text, &s.text.replace("three", "four"), Watch::Text);
    assert_eq!(texts(&d.added), ["four"]);
    assert_eq!(d.added[0].kind, BlockKind::Pre);
    assert_eq!(texts(&d.removed), ["three"]);
}

#[test]
fn a_binary_answer_has_nothing_to_compare() {
    let page = Page::from_gemini(
        Url::parse("gemini://cap.test/p.png").unwrap(),
        mime_of("image/png"),
        b"\x89PNG\r\n\x1a\n".to_vec(),
    );
    let e = snapshot(&page).unwrap_err();
    assert!(e.to_string().contains("image/png"), "{e}");
    // Bytes called text that are not (a NUL among them); a page with a few odd characters
    // is still text.
    let page = Page::from_gemini(
        Url::parse("gemini://cap.test/f.txt").unwrap(),
        mime_of("text/plain"),
        (0..4096u32)
            .map(|i| (i * 7 % 256) as u8)
            .collect::<Vec<u8>>(),
    );
    let e = snapshot(&page).unwrap_err();
    assert!(
        e.to_string()
            .contains("not text (text/plain with binary bytes)"),
        "{e}"
    );
    let page = gemtext_page(
        "gemini://cap.test/",
        "# Odd\nA bell \x07 and a form feed \x0c.\n",
    );
    assert!(snapshot(&page).is_ok());
}

#[test]
fn a_huge_page_is_cut_at_a_line_end() {
    let body: String = (0..100_000)
        .map(|i| format!("=> /post/{i} Post number {i}\n"))
        .collect();
    let s = snapshot(&gemtext_page("gemini://cap.test/", &body)).unwrap();
    assert!(s.cut);
    assert!(s.text.len() <= MAX_TEXT_BYTES);
    assert!(s.text.ends_with('\n'));
}

#[test]
fn what_is_not_a_change() {
    let cases = [
        (
            "identical",
            "# A\nText\n=> gemini://a/x X\n",
            "# A\nText\n=> gemini://a/x X\n",
            0,
        ),
        (
            "links reordered",
            "=> gemini://a/1 One\n=> gemini://a/2 Two\n",
            "=> gemini://a/2 Two\n=> gemini://a/1 One\n",
            0,
        ),
        ("paragraph moved", "First\nSecond\n", "Second\nFirst\n", 0),
        ("whitespace", "Some   text\n", "Some text  \n", 0),
        (
            "a label changed",
            "=> gemini://a/1 One\n",
            "=> gemini://a/1 Uno\n",
            0,
        ),
        (
            "a date in the chrome",
            "Updated 2026-07-01 12:00\nBody\n",
            "Updated 2026-07-02 09:13\nBody\n",
            1,
        ),
        ("a counter", "Visitors: 1234\n", "Visitors: 1240\n", 1),
        (
            "a weekday and a month",
            "Today is Monday 3 March\n",
            "Today is Tuesday 4 march\n",
            1,
        ),
        (
            "a cache buster",
            "=> https://a/style?v=1690000 Home\n",
            "=> https://a/style?v=1690042 Home\n",
            1,
        ),
    ];
    for (name, old, new, noise) in cases {
        for watch in [Watch::Links, Watch::Text] {
            let d = diff(old, new, watch);
            assert!(!d.counts.any(), "{name} ({watch:?}): {d:?}");
            if watch == Watch::Text || name == "a cache buster" {
                assert_eq!(d.counts.noise, noise, "{name} ({watch:?})");
            }
        }
    }
}

#[test]
fn changes_are_listed_in_page_order() {
    let old = "# Log\n=> /a A\nIntro\n=> /b B\nOld paragraph\n";
    let new = "# Log\n=> /c C\n=> /a A\nIntro\nNew paragraph\n* a list item\n=> /d D\n";
    let d = diff(old, new, Watch::Text);
    assert_eq!(urls(&d.links_added), ["/c", "/d"]);
    assert_eq!(urls(&d.links_removed), ["/b"]);
    assert_eq!(texts(&d.added), ["New paragraph", "a list item"]);
    assert_eq!(d.added[1].kind, BlockKind::List);
    assert_eq!(texts(&d.removed), ["Old paragraph"]);
    assert_eq!(
        d.summary(),
        "2 links added, 1 removed · 2 paragraphs added, 1 removed"
    );
    // Following links only: the paragraphs are not read.
    let d = diff(old, new, Watch::Links);
    assert_eq!(d.counts.added + d.counts.removed, 0);
    assert_eq!(d.summary(), "2 links added, 1 removed");
    // A number that is the content (a post number in a link) is a change.
    let d = diff(
        "=> /post/40 Post 40\n",
        "=> /post/41 Post 41\n",
        Watch::Links,
    );
    assert_eq!(urls(&d.links_added), ["/post/41"]);
}

#[test]
fn repeated_items_count_as_often_as_they_appear() {
    let d = diff("---\nA\n---\n", "---\nA\n---\nB\n---\n", Watch::Text);
    assert_eq!(texts(&d.added), ["B", "---"]);
    assert!(d.removed.is_empty());
}

#[test]
fn a_hundred_thousand_new_links_give_a_bounded_diff_that_says_so() {
    let new: String = (0..100_000).map(|i| format!("=> /p/{i} P{i}\n")).collect();
    let d = diff("", &new, Watch::Links);
    assert_eq!(d.counts.links_added, 100_000);
    assert_eq!(d.links_added.len(), MAX_LISTED);
    assert!(d.cut());
    let long = format!("{}\n", "word ".repeat(10_000));
    let d = diff("", &long, Watch::Text);
    assert!(d.added[0].text.chars().count() <= MAX_ITEM_CHARS + 1);
    assert!(!d.cut());
}

#[test]
fn a_page_whose_every_line_changes_becomes_restless_and_an_ordinary_change_ends_it() {
    let mut pages: Vec<String> = (0..6)
        .map(|v| {
            (0..20)
                .map(|l| format!("{} {}\n", "ab".repeat(v + 1), "cd".repeat(l + 1)))
                .collect()
        })
        .collect();
    let first = pages.remove(0);
    let mut memory = Memory::first(&first, Watch::Text);
    let mut old = first;
    let mut seen = Vec::new();
    for new in &pages[..4] {
        let v = judge(&old, new, Watch::Text, &mut memory);
        seen.push(match v {
            Verdict::Same { .. } => "same",
            Verdict::Changed(_) => "changed",
            Verdict::BecameRestless(_) => "became restless",
            Verdict::Restless(_) => "restless",
        });
        old = new.clone();
    }
    assert_eq!(seen, ["changed", "changed", "became restless", "restless"]);
    assert!(memory.restless);
    // One paragraph added to the last version: an ordinary change, listed again.
    let calm = format!("{old}A new paragraph\n");
    assert!(matches!(
        judge(&old, &calm, Watch::Text, &mut memory),
        Verdict::Changed(_)
    ));
    assert!(!memory.restless);
    assert_eq!(memory.streak, 0);
}

#[test]
fn a_page_alternating_between_two_versions_becomes_restless() {
    let a = format!("{}Only in A\n", "Shared line\n".repeat(30));
    let b = format!("{}Only in B\n", "Shared line\n".repeat(30));
    let mut memory = Memory::first(&a, Watch::Text);
    let mut seen = Vec::new();
    let mut old = a.clone();
    for new in [&b, &a, &b, &a, &b] {
        seen.push(match judge(&old, new, Watch::Text, &mut memory) {
            Verdict::Changed(_) => "changed",
            Verdict::BecameRestless(_) => "became restless",
            Verdict::Restless(_) => "restless",
            Verdict::Same { .. } => "same",
        });
        old = new.clone();
    }
    assert_eq!(
        seen,
        [
            "changed",
            "changed",
            "changed",
            "became restless",
            "restless"
        ]
    );
    // Unchanged at the next refresh: calm again.
    assert!(matches!(
        judge(&old, &old.clone(), Watch::Text, &mut memory),
        Verdict::Same { .. }
    ));
    assert!(!memory.restless);
    assert!(memory.recent.len() <= RECENT);
}

#[test]
fn digests_ignore_order_and_noise_and_are_stable() {
    let a = digest("=> /a A\n=> /b B\nUpdated 2026-01-01\n", Watch::Text);
    let b = digest("Updated 2027-12-31\n=> /b B\n=> /a A\n", Watch::Text);
    assert_eq!(a, b);
    assert_ne!(a, digest("=> /a A\nUpdated 2026-01-01\n", Watch::Text));
    // Kept on disk: the same text must give the same digest in every build.
    assert_eq!(
        format!("{:016x}", digest("=> /a A\nHello\n", Watch::Text)),
        STABLE
    );
}

const STABLE: &str = "a9091cbeed552c7d";
