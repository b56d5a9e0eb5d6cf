//! The comparison of two follow texts, linear in their size.
//!
//! Each text is read once into *items*: a link (`=> URL label`), or a paragraph (a text,
//! heading, list or quote line; a run of non-blank lines inside a preformatted block). Each
//! item has a key: a 64-bit FNV-1a hash of its normalised text (whitespace runs made one
//! space, trimmed; a link's key is its URL alone). The items of the old text are counted by
//! key; the new text is walked in page order, each item taking one count of its key or being
//! *added*; the old text is walked the same way against the new one's counts for *removed*.
//! So a moved paragraph or reordered identical links are no change, and repeated items count
//! as many times as they appear. Then the items left over on both sides are paired by their
//! *shape* (digits and English month and weekday names blanked; for links, only digits in the
//! query or fragment, with the label): pairs are noise, counted and not listed. Hash maps
//! keyed by those 64-bit hashes keep the work linear; a collision can only hide a change, never
//! invent one. [`Watch::Links`] reads links only.

use super::{MAX_ITEM_CHARS, MAX_LISTED, Watch};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A link listed in a [`Diff`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DiffLink {
    /// The absolute URL.
    pub url: String,
    /// The label (may be empty), cut to [`MAX_ITEM_CHARS`].
    #[serde(default)]
    pub label: String,
}

/// What kind of paragraph a [`Block`] is, as the page showed it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BlockKind {
    /// A text line.
    Text,
    /// A heading (any level).
    Heading,
    /// A list item.
    List,
    /// A quote line.
    Quote,
    /// Lines of a preformatted block (or of a plain-text page), kept as they are.
    Pre,
}

/// A paragraph listed in a [`Diff`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Block {
    /// How the page showed it.
    pub kind: BlockKind,
    /// Its text, marker stripped, cut to [`MAX_ITEM_CHARS`].
    pub text: String,
}

/// How many items of each sort changed (all of them, listed or not).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Counts {
    /// Links added.
    pub links_added: u64,
    /// Links removed.
    pub links_removed: u64,
    /// Paragraphs added.
    pub added: u64,
    /// Paragraphs removed.
    pub removed: u64,
    /// Items that changed only in what is not a change (pairs).
    pub noise: u64,
}

impl Counts {
    /// Did anything that counts change?
    pub fn any(&self) -> bool {
        self.links_added + self.links_removed + self.added + self.removed > 0
    }
}

/// What changed between two follow texts, bounded (see the module docs).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Diff {
    /// Links added, in page order (at most [`MAX_LISTED`]).
    #[serde(default)]
    pub links_added: Vec<DiffLink>,
    /// Links removed, in the old page's order.
    #[serde(default)]
    pub links_removed: Vec<DiffLink>,
    /// Paragraphs added, in page order.
    #[serde(default)]
    pub added: Vec<Block>,
    /// Paragraphs removed, in the old page's order.
    #[serde(default)]
    pub removed: Vec<Block>,
    /// The full counts.
    pub counts: Counts,
}

impl Diff {
    /// Some list holds fewer items than its count: the diff was cut.
    pub fn cut(&self) -> bool {
        let c = &self.counts;
        (self.links_added.len() as u64) < c.links_added
            || (self.links_removed.len() as u64) < c.links_removed
            || (self.added.len() as u64) < c.added
            || (self.removed.len() as u64) < c.removed
    }

    /// One line for people: "2 links added, 1 removed · 3 paragraphs added".
    pub fn summary(&self) -> String {
        use crate::text::count;
        let c = &self.counts;
        let mut parts = Vec::new();
        let pair = |add: u64, rem: u64, one: &str, many: &str| match (add, rem) {
            (0, 0) => None,
            (a, 0) => Some(format!("{} added", count(a as usize, one, many))),
            (0, r) => Some(format!("{} removed", count(r as usize, one, many))),
            (a, r) => Some(format!(
                "{} added, {r} removed",
                count(a as usize, one, many)
            )),
        };
        parts.extend(pair(c.links_added, c.links_removed, "link", "links"));
        parts.extend(pair(c.added, c.removed, "paragraph", "paragraphs"));
        if parts.is_empty() {
            return "no change".to_string();
        }
        parts.join(" · ")
    }
}

/// The diff of two follow texts (see the module docs).
pub fn diff(old: &str, new: &str, watch: Watch) -> Diff {
    compare(old, new, watch).0
}

/// The order-free digest of a text's items, blind to noise (equal for two versions that
/// differ only in noise or order).
pub fn digest(text: &str, watch: Watch) -> u64 {
    items(text, watch)
        .iter()
        .fold(0u64, |sum, i| sum.wrapping_add(mix(i.shape())))
}

/// The diff, the share of items (old and new together) that changed, and the new text's
/// digest.
pub(super) fn compare(old: &str, new: &str, watch: Watch) -> (Diff, f64, u64) {
    let old_items = items(old, watch);
    let new_items = items(new, watch);
    // Each item's key once; the new text's shapes once (the digest needs them all), the old
    // text's only for its leftovers.
    let old_keys: Vec<u64> = old_items.iter().map(Item::key).collect();
    let new_keys: Vec<u64> = new_items.iter().map(Item::key).collect();
    let new_shapes: Vec<u64> = new_items.iter().map(Item::shape).collect();
    let added = unmatched(&new_keys, &old_keys);
    let removed = unmatched(&old_keys, &new_keys);
    let removed_shapes: Vec<u64> = removed.iter().map(|&n| old_items[n].shape()).collect();
    let added_shapes: Vec<u64> = added.iter().map(|&n| new_shapes[n]).collect();
    // Noise: leftovers of one side that pair with leftovers of the other by shape.
    let added_real = unpaired(&added, &added_shapes, &removed_shapes);
    let removed_real = unpaired(&removed, &removed_shapes, &added_shapes);
    let noise = (added.len() - added_real.len()) as u64;
    let mut d = Diff {
        counts: Counts {
            noise,
            ..Counts::default()
        },
        ..Diff::default()
    };
    for &i in &added_real {
        list(
            &new_items[i],
            &mut d.links_added,
            &mut d.added,
            &mut d.counts,
            true,
        );
    }
    for &i in &removed_real {
        list(
            &old_items[i],
            &mut d.links_removed,
            &mut d.removed,
            &mut d.counts,
            false,
        );
    }
    let total = old_items.len() + new_items.len();
    let changed = added_real.len() + removed_real.len();
    let share = if total == 0 {
        0.0
    } else {
        changed as f64 / total as f64
    };
    let digest = new_shapes
        .iter()
        .fold(0u64, |sum, &s| sum.wrapping_add(mix(s)));
    (d, share, digest)
}

/// Count one changed item and list it while its list has room.
fn list(
    item: &Item<'_>,
    links: &mut Vec<DiffLink>,
    blocks: &mut Vec<Block>,
    counts: &mut Counts,
    added: bool,
) {
    match item {
        Item::Link { url, label } => {
            if added {
                counts.links_added += 1;
            } else {
                counts.links_removed += 1;
            }
            if links.len() < MAX_LISTED {
                links.push(DiffLink {
                    url: cut_chars(url, 4 * MAX_ITEM_CHARS),
                    label: cut_chars(label, MAX_ITEM_CHARS),
                });
            }
        }
        Item::Block { kind, text } => {
            if added {
                counts.added += 1;
            } else {
                counts.removed += 1;
            }
            if blocks.len() < MAX_LISTED {
                blocks.push(Block {
                    kind: *kind,
                    text: cut_chars(text, MAX_ITEM_CHARS),
                });
            }
        }
    }
}

fn cut_chars(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}

/// One item of a follow text, borrowed from it.
enum Item<'a> {
    Link { url: &'a str, label: &'a str },
    Block { kind: BlockKind, text: &'a str },
}

impl Item<'_> {
    /// The key items are matched by.
    fn key(&self) -> u64 {
        match self {
            Item::Link { url, .. } => {
                let mut h = Fnv::new(b'L');
                h.bytes(url.as_bytes());
                h.0
            }
            Item::Block { text, .. } => {
                let mut h = Fnv::new(b'P');
                h.normalised(text, false);
                h.0
            }
        }
    }

    /// The key leftovers are paired by (noise blanked).
    fn shape(&self) -> u64 {
        match self {
            Item::Link { url, label } => {
                let mut h = Fnv::new(b'l');
                let split = url.find(['?', '#']).unwrap_or(url.len());
                h.bytes(&url.as_bytes()[..split]);
                h.normalised(&url[split..], true);
                h.bytes(&[0]);
                h.normalised(label, false);
                h.0
            }
            Item::Block { text, .. } => {
                let mut h = Fnv::new(b'p');
                h.normalised(text, true);
                h.0
            }
        }
    }
}

/// The items of a follow text, in order (links only for [`Watch::Links`]).
fn items(text: &str, watch: Watch) -> Vec<Item<'_>> {
    let mut out = Vec::new();
    let mut in_pre = false;
    // The byte range of the preformatted run being gathered.
    let mut run: Option<(usize, usize)> = None;
    let mut start = 0;
    for line in text.split_inclusive('\n') {
        let at = start;
        start += line.len();
        let line = line.trim_end_matches(['\n', '\r']);
        if line.starts_with("```") {
            flush_run(text, watch, &mut run, &mut out);
            in_pre = !in_pre;
            continue;
        }
        if in_pre {
            if line.trim().is_empty() {
                flush_run(text, watch, &mut run, &mut out);
            } else {
                let end = at + line.len();
                run = Some(run.map_or((at, end), |(a, _)| (a, end)));
            }
            continue;
        }
        if let Some(rest) = line.strip_prefix("=>") {
            let rest = rest.trim_start();
            let (url, label) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
            if !url.is_empty() {
                out.push(Item::Link {
                    url,
                    label: label.trim(),
                });
                continue;
            }
        }
        if watch == Watch::Links || line.trim().is_empty() {
            continue;
        }
        let (kind, text) = block_of(line);
        if !text.is_empty() {
            out.push(Item::Block { kind, text });
        }
    }
    flush_run(text, watch, &mut run, &mut out);
    out
}

/// Push the preformatted run gathered so far (none for [`Watch::Links`]).
fn flush_run<'a>(
    text: &'a str,
    watch: Watch,
    run: &mut Option<(usize, usize)>,
    out: &mut Vec<Item<'a>>,
) {
    if let Some((a, b)) = run.take()
        && watch == Watch::Text
    {
        out.push(Item::Block {
            kind: BlockKind::Pre,
            text: &text[a..b],
        });
    }
}

/// A gemtext line's kind and its text without the marker.
fn block_of(line: &str) -> (BlockKind, &str) {
    if line.starts_with('#') {
        (BlockKind::Heading, line.trim_start_matches('#').trim())
    } else if let Some(rest) = line.strip_prefix("* ") {
        (BlockKind::List, rest.trim())
    } else if let Some(rest) = line.strip_prefix('>') {
        (BlockKind::Quote, rest.trim())
    } else {
        (BlockKind::Text, line.trim())
    }
}

/// Counts of keys; the keys are already hashes, so the map does not hash them again.
type Tally = HashMap<u64, u32, BuildHasherDefault<Passthrough>>;

/// The hasher of a [`Tally`]: a key that is already a 64-bit hash is its own hash.
#[derive(Default)]
struct Passthrough(u64);

impl Hasher for Passthrough {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) | u64::from(b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

fn tally(keys: impl Iterator<Item = u64>, size: usize) -> Tally {
    let mut t = Tally::with_capacity_and_hasher(size, BuildHasherDefault::default());
    for k in keys {
        *t.entry(k).or_default() += 1;
    }
    t
}

/// The indexes of the keys of `side` that find no equal key left in `other` (page order).
fn unmatched(side: &[u64], other: &[u64]) -> Vec<usize> {
    let mut left = tally(other.iter().copied(), other.len());
    take_or_keep(side.iter().copied().enumerate(), &mut left)
}

/// Of the leftovers `leftovers` (with their shapes), those that find no leftover of the
/// other side with the same shape.
fn unpaired(leftovers: &[usize], shapes: &[u64], other_shapes: &[u64]) -> Vec<usize> {
    if other_shapes.is_empty() {
        return leftovers.to_vec();
    }
    let mut left = tally(other_shapes.iter().copied(), other_shapes.len());
    take_or_keep(
        leftovers.iter().copied().zip(shapes.iter().copied()),
        &mut left,
    )
}

/// Walk `(index, key)` in order: take one count of the key from `left`, or keep the index.
fn take_or_keep(keys: impl Iterator<Item = (usize, u64)>, left: &mut Tally) -> Vec<usize> {
    let mut kept = Vec::new();
    for (n, key) in keys {
        match left.get_mut(&key) {
            Some(c) if *c > 0 => *c -= 1,
            _ => kept.push(n),
        }
    }
    kept
}

/// Spread a hash before summing (so sums of similar hashes do not cancel out).
fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// FNV-1a, 64 bits: stable across builds and versions (digests are kept on disk).
struct Fnv(u64);

/// Is `word` an English month or weekday name or its usual abbreviation (any case)?
fn month_or_day(word: &[u8]) -> bool {
    let mut low = [0u8; 9];
    let Some(low) = low.get_mut(..word.len()) else {
        return false;
    };
    for (l, w) in low.iter_mut().zip(word) {
        *l = w.to_ascii_lowercase();
    }
    matches!(
        &*low,
        b"jan"
            | b"january"
            | b"feb"
            | b"february"
            | b"mar"
            | b"march"
            | b"apr"
            | b"april"
            | b"may"
            | b"jun"
            | b"june"
            | b"jul"
            | b"july"
            | b"aug"
            | b"august"
            | b"sep"
            | b"sept"
            | b"september"
            | b"oct"
            | b"october"
            | b"nov"
            | b"november"
            | b"dec"
            | b"december"
            | b"mon"
            | b"monday"
            | b"tue"
            | b"tues"
            | b"tuesday"
            | b"wed"
            | b"wednesday"
            | b"thu"
            | b"thur"
            | b"thurs"
            | b"thursday"
            | b"fri"
            | b"friday"
            | b"sat"
            | b"saturday"
            | b"sun"
            | b"sunday"
    )
}

impl Fnv {
    fn new(tag: u8) -> Fnv {
        let mut h = Fnv(0xcbf2_9ce4_8422_2325);
        h.byte(tag);
        h
    }

    fn byte(&mut self, b: u8) {
        self.0 ^= u64::from(b);
        self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
    }

    fn bytes(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.byte(b);
        }
    }

    /// Hash `text` with whitespace runs as one space, trimmed; with `blank`, each run of
    /// digits as `#` and each month or weekday name as `@`.
    fn normalised(&mut self, text: &str, blank: bool) {
        let bytes = text.trim().as_bytes();
        let mut i = 0;
        let mut space = false;
        while i < bytes.len() {
            let b = bytes[i];
            if b.is_ascii_whitespace() {
                space = true;
                i += 1;
                continue;
            }
            if space {
                self.byte(b' ');
                space = false;
            }
            if blank && b.is_ascii_digit() {
                while i < bytes.len() && bytes[i].is_ascii_digit() {
                    i += 1;
                }
                self.byte(b'#');
                continue;
            }
            if blank && b.is_ascii_alphabetic() {
                let end = bytes[i..]
                    .iter()
                    .position(|c| !c.is_ascii_alphabetic())
                    .map_or(bytes.len(), |n| i + n);
                let word = &bytes[i..end];
                if month_or_day(word) {
                    self.byte(b'@');
                } else {
                    self.bytes(word);
                }
                i = end;
                continue;
            }
            self.byte(b);
            i += 1;
        }
    }
}
