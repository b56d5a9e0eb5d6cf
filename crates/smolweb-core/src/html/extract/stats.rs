//! Text statistics of every element, computed in one pass from the leaves up (no recursion, so
//! a page of deeply nested elements cannot exhaust the stack): the characters of its text
//! (whitespace not counted), the characters inside links, the commas, the same for the text
//! directly inside it (between its block children), a few element counts (paragraphs, images,
//! list items, table rows, captions, headings that are links), and whether it holds
//! block-level children. Counts are per subtree and saturate instead of overflowing.

use dom_query::{NodeId, NodeRef};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// Elements that start a block of their own.
pub(crate) const BLOCK: &[&str] = &[
    "address",
    "article",
    "aside",
    "blockquote",
    "dd",
    "details",
    "div",
    "dl",
    "dt",
    "fieldset",
    "figcaption",
    "figure",
    "footer",
    "form",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "header",
    "hr",
    "li",
    "main",
    "nav",
    "ol",
    "p",
    "pre",
    "section",
    "table",
    "tbody",
    "thead",
    "tfoot",
    "tr",
    "td",
    "th",
    "ul",
    "menu",
];

/// One element's counts (its whole subtree). Kept small: there is one for every element of
/// the page.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Stats {
    pub(crate) chars: u32,
    pub(crate) link_chars: u32,
    /// Characters inside links to a fragment (`#...`), usually of the same page.
    pub(crate) fragment_link_chars: u32,
    pub(crate) commas: u32,
    /// Descendant `p`, `img`, `li`, `tr` and `figcaption` elements.
    pub(crate) p: u16,
    pub(crate) img: u16,
    pub(crate) li: u16,
    pub(crate) tr: u16,
    pub(crate) captions: u16,
    /// Descendant headings (`h2`-`h6`) that are mostly a link to another page: teaser titles.
    pub(crate) linked_headings: u16,
    /// Characters, link characters and commas of the text directly inside (text nodes and
    /// inline children, not block children): what runs between its blocks.
    pub(crate) direct_chars: u32,
    pub(crate) direct_link_chars: u32,
    pub(crate) direct_commas: u32,
    /// A direct child is a block-level element.
    pub(crate) has_blocks: bool,
}

impl Stats {
    /// Share of the text that is link text (0 for an empty element).
    pub(crate) fn link_density(&self) -> f64 {
        if self.chars == 0 {
            0.0
        } else {
            f64::from(self.link_chars) / f64::from(self.chars)
        }
    }

    fn add(&mut self, other: &Stats) {
        self.chars = self.chars.saturating_add(other.chars);
        self.link_chars = self.link_chars.saturating_add(other.link_chars);
        self.fragment_link_chars = self
            .fragment_link_chars
            .saturating_add(other.fragment_link_chars);
        self.commas = self.commas.saturating_add(other.commas);
        self.p = self.p.saturating_add(other.p);
        self.img = self.img.saturating_add(other.img);
        self.li = self.li.saturating_add(other.li);
        self.tr = self.tr.saturating_add(other.tr);
        self.captions = self.captions.saturating_add(other.captions);
        self.linked_headings = self.linked_headings.saturating_add(other.linked_headings);
    }
}

/// A hasher for node ids (they are small distinct integers).
#[derive(Default)]
pub(crate) struct IdHasher(u64);

impl Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = (self.0 ^ u64::from(*b)).wrapping_mul(0x100_0000_01b3);
        }
    }

    fn write_u32(&mut self, n: u32) {
        self.0 = u64::from(n).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

/// Maps keyed by node id.
pub(crate) type IdMap<V> = HashMap<NodeId, V, BuildHasherDefault<IdHasher>>;

/// The counts of every element of a page: a slot per element, found by node id.
pub(crate) struct StatsMap {
    slot: IdMap<u32>,
    stats: Vec<Stats>,
}

impl StatsMap {
    pub(crate) fn get(&self, id: &NodeId) -> Option<&Stats> {
        let i = *self.slot.get(id)?;
        self.stats.get(usize::try_from(i).ok()?)
    }

    fn entry(&mut self, id: NodeId) -> &mut Stats {
        let next = u32::try_from(self.stats.len()).unwrap_or(u32::MAX);
        let i = *self.slot.entry(id).or_insert(next);
        if i == next {
            self.stats.push(Stats::default());
        }
        let last = self.stats.len() - 1;
        let i = usize::try_from(i).unwrap_or(last).min(last);
        &mut self.stats[i]
    }
}

impl std::ops::Index<&NodeId> for StatsMap {
    type Output = Stats;

    fn index(&self, id: &NodeId) -> &Stats {
        const NONE: Stats = Stats {
            chars: 0,
            link_chars: 0,
            fragment_link_chars: 0,
            commas: 0,
            p: 0,
            img: 0,
            li: 0,
            tr: 0,
            captions: 0,
            linked_headings: 0,
            direct_chars: 0,
            direct_link_chars: 0,
            direct_commas: 0,
            has_blocks: false,
        };
        self.get(id).unwrap_or(&NONE)
    }
}

/// The counts of every element under `root` (and of `root`). With `cards`, a link holding
/// blocks is not link text (on pages whose content is a set of units: a listing, a
/// collection, a thread, a service or documentation page).
pub(crate) fn compute(root: &NodeRef, cards: bool) -> StatsMap {
    let ids: Vec<NodeId> = std::iter::once(root.id)
        .chain(root.descendants_it().map(|n| n.id))
        .collect();
    // Sized once: growing large tables would hold the old ones and the new ones at once.
    let elements = ids
        .iter()
        .filter(|id| NodeRef::new(**id, root.tree).is_element())
        .count();
    let mut map = StatsMap {
        slot: IdMap::with_capacity_and_hasher(elements, Default::default()),
        stats: Vec::with_capacity(elements),
    };
    // Reverse document order visits every node after all of its descendants.
    for id in ids.iter().rev() {
        let node = &NodeRef::new(*id, root.tree);
        let own = if node.is_text() {
            let text = node.text();
            Stats {
                chars: count(text.chars().filter(|c| !c.is_whitespace())),
                commas: count(
                    text.chars()
                        .filter(|c| matches!(c, ',' | '，' | '、' | '،')),
                ),
                ..Stats::default()
            }
        } else if node.is_element() {
            // Stored: the descendants' counts (an `a` is all link text); passed up: plus itself.
            let name = node.node_name().unwrap_or_default();
            let entry = map.entry(node.id);
            // A link that shows its own address is a reference given in the text (a
            // petition, a source), not a way around the site: its text is not link text.
            // With `cards`, a link wrapped around blocks (a card: a title, a summary, a price)
            // is a unit of the content made clickable, not a way around the site: only the
            // links inside it count.
            let card = cards && entry.has_blocks;
            if name.as_ref() == "a" && !card && !shows_address(node) {
                entry.link_chars = entry.chars;
                if node.attr("href").is_some_and(|h| h.contains('#')) {
                    entry.fragment_link_chars = entry.chars;
                }
            }
            let stored = *entry;
            let mut up = stored;
            match name.as_ref() {
                "p" => up.p = up.p.saturating_add(1),
                "img" => up.img = up.img.saturating_add(1),
                "li" => up.li = up.li.saturating_add(1),
                "tr" => up.tr = up.tr.saturating_add(1),
                "figcaption" => up.captions = up.captions.saturating_add(1),
                "h2" | "h3" | "h4" | "h5" | "h6"
                    if stored.chars > 0
                        && (stored.link_chars
                            - stored.fragment_link_chars.min(stored.link_chars))
                            * 5
                            >= stored.chars * 4 =>
                {
                    up.linked_headings = up.linked_headings.saturating_add(1);
                }
                _ => {}
            }
            up
        } else {
            continue;
        };
        let Some(parent) = node.parent() else {
            continue;
        };
        let block = node.is_element() && is_block(node);
        let entry = map.entry(parent.id);
        entry.add(&own);
        if block {
            entry.has_blocks = true;
        } else {
            entry.direct_chars = entry.direct_chars.saturating_add(own.chars);
            entry.direct_link_chars = entry.direct_link_chars.saturating_add(own.link_chars);
            entry.direct_commas = entry.direct_commas.saturating_add(own.commas);
        }
    }
    map
}

/// Is the text of the link `a` a web address (`https://…`, `www.…`)?
fn shows_address(a: &NodeRef) -> bool {
    let text = a.text();
    let t = text.trim_start();
    ["http://", "https://", "www."].iter().any(|p| {
        t.len() > p.len() + 3 && t.get(..p.len()).is_some_and(|h| h.eq_ignore_ascii_case(p))
    })
}

/// Visit the elements under `root` in document order; `visit` returns whether to go into the
/// element's children (no recursion).
pub(crate) fn walk<'a>(root: &NodeRef<'a>, mut visit: impl FnMut(&NodeRef<'a>) -> bool) {
    let mut stack: Vec<NodeRef<'a>> = root.children_it(true).collect();
    while let Some(node) = stack.pop() {
        if node.is_element() && visit(&node) {
            stack.extend(node.children_it(true));
        }
    }
}

fn count(it: impl Iterator<Item = char>) -> u32 {
    u32::try_from(it.count()).unwrap_or(u32::MAX)
}

/// Is `node` a block-level element?
pub(crate) fn is_block(node: &NodeRef) -> bool {
    node.node_name()
        .is_some_and(|n| BLOCK.contains(&n.as_ref()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use dom_query::Document;

    #[test]
    fn counts_text_links_and_commas_per_subtree() {
        let doc = Document::from(
            "<html><body><div id=d><p>One, two, three.</p><p>See <a href=/x>the notes</a></p></div></body></html>",
        );
        let stats = compute(&doc.root(), false);
        let div = doc.select("#d").nodes()[0];
        let s = stats[&div.id];
        assert_eq!(s.chars, "One,two,three.Seethenotes".len() as u32);
        assert_eq!(s.link_chars, "thenotes".len() as u32);
        assert_eq!(s.commas, 2);
        assert!(s.has_blocks);
        let p = doc.select("p").nodes()[0];
        assert!(!stats[&p.id].has_blocks);
    }

    #[test]
    fn deep_nesting_does_not_recurse() {
        let html = format!("{}text{}", "<div>".repeat(20_000), "</div>".repeat(20_000));
        let doc = Document::from(html);
        let stats = compute(&doc.root(), false);
        assert_eq!(stats[&doc.root().id].chars, 4);
    }
}
