//! The diff of a followed page's two versions (`smolweb_core::follow`): byte 0 chooses what
//! is watched (links, or links and text), the rest is the old version and the new one split
//! at the first NUL byte. Checked, for both the diff and what `judge` decides:
//! - bounded: at most `MAX_LISTED` items per list and never more than its count, each item
//!   cut to its length (a link's URL to four times `MAX_ITEM_CHARS`);
//! - true: every added item is in the new version, every removed one in the old version;
//!   watching links lists no paragraph;
//! - consistent: a version compared with itself is no change, and comparing the other way
//!   round swaps added and removed (the noise is the same);
//! - the page's memory stays bounded, and `judge` calls a change what `diff` calls one.
#![no_main]
use libfuzzer_sys::fuzz_target;
use smolweb_core::follow::{
    self, Diff, MAX_ITEM_CHARS, MAX_LISTED, Memory, RECENT, Verdict, Watch,
};
use smolweb_fuzz::{split_byte, text};

fuzz_target!(|data: &[u8]| {
    let (which, rest) = split_byte(data);
    let watch = if which & 1 == 0 { Watch::Links } else { Watch::Text };
    let (old, new) = match rest.iter().position(|&b| b == 0) {
        Some(i) => (text(&rest[..i]), text(&rest[i + 1..])),
        None => (String::new(), text(rest)),
    };
    let d = follow::diff(&old, &new, watch);
    check(&d, &old, &new, watch);
    let back = follow::diff(&new, &old, watch);
    let c = &d.counts;
    let b = &back.counts;
    assert_eq!(
        (c.links_added, c.links_removed, c.added, c.removed, c.noise),
        (b.links_removed, b.links_added, b.removed, b.added, b.noise),
        "the diff the other way round is not the mirror image"
    );
    for version in [&old, &new] {
        let same = follow::diff(version, version, watch);
        assert_eq!(same, Diff::default(), "a version compared with itself changed");
    }
    let mut memory = Memory::first(&old, watch);
    for _ in 0..4 {
        let verdict = follow::judge(&old, &new, watch, &mut memory);
        assert!(memory.recent.len() <= RECENT, "memory grows: {memory:?}");
        match verdict {
            Verdict::Same { noise } => {
                assert!(!d.counts.any(), "judge saw no change in {d:?}");
                assert_eq!(noise, d.counts.noise);
            }
            Verdict::Changed(j) | Verdict::BecameRestless(j) | Verdict::Restless(j) => {
                assert_eq!(j, d, "judge and diff disagree");
            }
        }
        let verdict = follow::judge(&new, &old, watch, &mut memory);
        assert!(memory.recent.len() <= RECENT, "memory grows: {memory:?}");
        if let Verdict::Changed(j) | Verdict::BecameRestless(j) | Verdict::Restless(j) = verdict {
            assert_eq!(j, back, "judge and diff disagree the other way round");
        }
    }
});

/// The text of an item as listed, without the ellipsis a cut item ends with.
fn uncut(s: &str, max: usize) -> &str {
    if s.chars().count() > max {
        s.strip_suffix('…').unwrap_or_else(|| panic!("an item over {max} chars: {s:?}"))
    } else {
        s
    }
}

/// `needle` occurs in `hay` once both have their whitespace runs made one space.
fn within(hay: &str, needle: &str) -> bool {
    let norm = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    norm(hay).contains(&norm(needle))
}

fn check(d: &Diff, old: &str, new: &str, watch: Watch) {
    let c = &d.counts;
    for (len, count) in [
        (d.links_added.len(), c.links_added),
        (d.links_removed.len(), c.links_removed),
        (d.added.len(), c.added),
        (d.removed.len(), c.removed),
    ] {
        assert!(len <= MAX_LISTED, "{len} items listed");
        assert!(len as u64 <= count, "{len} items listed for a count of {count}");
    }
    if watch == Watch::Links {
        assert!(c.added + c.removed == 0, "paragraphs counted when watching links");
    }
    for (links, version) in [(&d.links_added, new), (&d.links_removed, old)] {
        for l in links {
            let url = uncut(&l.url, 4 * MAX_ITEM_CHARS);
            let label = uncut(&l.label, MAX_ITEM_CHARS);
            assert!(version.contains(url), "link {url:?} is not in its version");
            assert!(within(version, label), "label {label:?} is not in its version");
        }
    }
    for (blocks, version) in [(&d.added, new), (&d.removed, old)] {
        for b in blocks {
            let t = uncut(&b.text, MAX_ITEM_CHARS);
            assert!(!t.trim().is_empty(), "an empty paragraph listed");
            assert!(within(version, t), "paragraph {t:?} is not in its version");
        }
    }
}
