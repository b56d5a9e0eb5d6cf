//! Text statistics of every element, computed in one pass from the leaves up (no recursion, so
//! a page of deeply nested elements cannot exhaust the stack): the characters of its text
//! (whitespace not counted), the characters inside links, the commas, the same for the text
//! directly inside it (between its block children), a few element counts, and whether it
//! holds block-level children. Counts are per subtree and saturate instead of overflowing.

use dom_query::{NodeId, NodeRef};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// Elements that start a block of their own.
pub const BLOCK: &[&str] = &[
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

/// One element's counts (its whole subtree).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    pub chars: u32,
    pub link_chars: u32,
    pub commas: u32,
    /// Descendant `p`, `img`, `li`, `tr` and `figcaption` elements.
    pub p: u32,
    pub img: u32,
    pub li: u32,
    pub tr: u32,
    pub captions: u32,
    /// Characters, link characters and commas of the text directly inside (text nodes and
    /// inline children, not block children): what runs between its blocks.
    pub direct_chars: u32,
    pub direct_link_chars: u32,
    pub direct_commas: u32,
    /// A direct child is a block-level element.
    pub has_blocks: bool,
}

impl Stats {
    /// Share of the text that is link text (0 for an empty element).
    pub fn link_density(&self) -> f64 {
        if self.chars == 0 {
            0.0
        } else {
            f64::from(self.link_chars) / f64::from(self.chars)
        }
    }

    fn add(&mut self, other: &Stats) {
        self.chars = self.chars.saturating_add(other.chars);
        self.link_chars = self.link_chars.saturating_add(other.link_chars);
        self.commas = self.commas.saturating_add(other.commas);
        self.p = self.p.saturating_add(other.p);
        self.img = self.img.saturating_add(other.img);
        self.li = self.li.saturating_add(other.li);
        self.tr = self.tr.saturating_add(other.tr);
        self.captions = self.captions.saturating_add(other.captions);
    }
}

/// A hasher for node ids (they are small distinct integers).
#[derive(Default)]
pub struct IdHasher(u64);

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
pub type IdMap<V> = HashMap<NodeId, V, BuildHasherDefault<IdHasher>>;

/// The counts of every element under `root` (and of `root`).
pub fn compute(root: &NodeRef) -> IdMap<Stats> {
    let nodes: Vec<NodeRef> = std::iter::once(*root)
        .chain(root.descendants_it())
        .collect();
    let mut map: IdMap<Stats> = IdMap::default();
    map.reserve(nodes.len() / 2);
    // Reverse document order visits every node after all of its descendants.
    for node in nodes.iter().rev() {
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
            let mut stored = map.get(&node.id).copied().unwrap_or_default();
            let name = node.node_name().unwrap_or_default();
            if name.as_ref() == "a" {
                stored.link_chars = stored.chars;
            }
            map.insert(node.id, stored);
            let mut up = stored;
            match name.as_ref() {
                "p" => up.p = up.p.saturating_add(1),
                "img" => up.img = up.img.saturating_add(1),
                "li" => up.li = up.li.saturating_add(1),
                "tr" => up.tr = up.tr.saturating_add(1),
                "figcaption" => up.captions = up.captions.saturating_add(1),
                _ => {}
            }
            up
        } else {
            continue;
        };
        let Some(parent) = node.parent() else {
            continue;
        };
        let entry = map.entry(parent.id).or_default();
        entry.add(&own);
        if node.is_element() && is_block(node) {
            entry.has_blocks = true;
        } else {
            entry.direct_chars = entry.direct_chars.saturating_add(own.chars);
            entry.direct_link_chars = entry.direct_link_chars.saturating_add(own.link_chars);
            entry.direct_commas = entry.direct_commas.saturating_add(own.commas);
        }
    }
    map
}

/// Visit the elements under `root` in document order; `visit` returns whether to go into the
/// element's children (no recursion).
pub fn walk<'a>(root: &NodeRef<'a>, mut visit: impl FnMut(&NodeRef<'a>) -> bool) {
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
pub fn is_block(node: &NodeRef) -> bool {
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
        let stats = compute(&doc.root());
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
        let stats = compute(&doc.root());
        assert_eq!(stats[&doc.root().id].chars, 4);
    }
}
