//! Site rules: the person's own answer to "which part of this site's pages is the text".
//!
//! A [`SiteRule`] is a CSS selector for the content (every element it matches is kept, in
//! page order, so `div.post` keeps every post of a thread) and selectors for what to remove
//! inside it (a share bar, a newsletter box). It is applied to the sanitized page in place of
//! the main-text search ([`apply`]); when its content selector matches nothing with text on a
//! page (the site changed), the normal extraction runs and the faces say the rule did not
//! match ([`RuleUse::Unmatched`]).
//!
//! [`regions`] offers the candidates a person picks from: the page's landmark regions and the
//! named blocks that hold a fair share of its text, each with a selector that names it, its
//! size and the start of its text, the region most like a main text first. Selectors are
//! made from ids and classes that look stable (no long digit runs, as generated names have).
//!
//! Pure: the caller reads and writes the rule file. Walks are iterative; a selector is
//! parsed once ([`SiteRule::check`] refuses one that does not parse, or is longer than
//! [`MAX_SELECTOR`]).

use super::stats;
use dom_query::{Document, Matcher, NodeRef};

/// The longest selector a rule may hold (bytes).
pub const MAX_SELECTOR: usize = 512;
/// At most this many removal selectors in a rule.
pub const MAX_REMOVE: usize = 32;
/// At most this many regions are offered.
pub const MAX_REGIONS: usize = 12;
/// A region holds at least this many characters of text (whitespace not counted) ...
const REGION_MIN_CHARS: u32 = 200;
/// ... and at most this share of it is link text.
const REGION_MAX_LINKS: f64 = 0.6;
/// A region whose text is nearly all of one inner region's (this share or more) stands
/// aside for the inner one.
const NESTED_SAME: f64 = 0.9;
/// Characters of a region's text shown as its preview.
const PREVIEW_CHARS: usize = 160;

/// Which part of a site's pages to read (see the module docs).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SiteRule {
    /// The content: a CSS selector; every element it matches is kept, in page order.
    pub content: String,
    /// Removed inside the content before it is rendered: CSS selectors.
    pub remove: Vec<String>,
}

/// Why a rule cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
    /// The content selector is empty.
    #[error("the content selector is empty")]
    Empty,
    /// A selector is longer than [`MAX_SELECTOR`] bytes.
    #[error("a selector is longer than {MAX_SELECTOR} bytes")]
    TooLong,
    /// More than [`MAX_REMOVE`] removal selectors.
    #[error("more than {MAX_REMOVE} selectors to remove")]
    TooManyRemovals,
    /// A selector is not CSS that smolweb can match.
    #[error("'{0}' is not a CSS selector smolweb can match")]
    Selector(String),
}

impl SiteRule {
    /// A rule keeping what `content` matches, removing nothing.
    pub fn content(content: &str) -> SiteRule {
        SiteRule {
            content: content.trim().to_string(),
            remove: Vec::new(),
        }
    }

    /// Is every selector usable?
    pub fn check(&self) -> Result<(), RuleError> {
        if self.content.trim().is_empty() {
            return Err(RuleError::Empty);
        }
        if self.remove.len() > MAX_REMOVE {
            return Err(RuleError::TooManyRemovals);
        }
        for sel in std::iter::once(&self.content).chain(&self.remove) {
            matcher(sel)?;
        }
        Ok(())
    }
}

/// How a site rule took part in a conversion (in [`super::super::Reading`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RuleUse {
    /// The rule's content was found: the text is what it selects.
    Applied,
    /// The rule's content selector matched nothing with text: the main text was found as
    /// without a rule.
    Unmatched,
}

impl RuleUse {
    /// `applied` or `unmatched` (the `siteRule` field's `status`).
    pub fn as_str(self) -> &'static str {
        match self {
            RuleUse::Applied => "applied",
            RuleUse::Unmatched => "unmatched",
        }
    }
}

/// A part of a page a rule could keep.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Region {
    /// The selector that keeps it.
    pub selector: String,
    /// How many elements the selector matches on this page.
    pub matches: usize,
    /// Characters of text (whitespace not counted) of what it keeps.
    pub chars: u32,
    /// The start of its text, whitespace squeezed.
    pub preview: String,
}

fn matcher(sel: &str) -> Result<Matcher, RuleError> {
    let sel = sel.trim();
    if sel.len() > MAX_SELECTOR {
        return Err(RuleError::TooLong);
    }
    if sel.is_empty() {
        return Err(RuleError::Empty);
    }
    Matcher::new(sel).map_err(|_| RuleError::Selector(sel.chars().take(80).collect()))
}

/// The elements `m` matches under `doc`, outermost only (one inside another is part of it).
fn outermost<'a>(doc: &'a Document, m: &Matcher) -> Vec<NodeRef<'a>> {
    let found = doc.select_matcher(m);
    let ids: std::collections::HashSet<_> = found.nodes().iter().map(|n| n.id).collect();
    found
        .nodes()
        .iter()
        .filter(|n| !n.ancestors_it(None).any(|a| ids.contains(&a.id)))
        .copied()
        .collect()
}

/// The markdown of what `rule` selects on the sanitized `doc`, or None when it selects
/// nothing with text or does not [`check`](SiteRule::check) (the document is then unchanged). `capacity`: room to reserve.
pub(crate) fn apply(doc: &Document, rule: &SiteRule, capacity: usize) -> Option<String> {
    // A rule spoiled by hand (any selector that does not parse) is not used at all: half a
    // rule would keep what the person meant to remove.
    rule.check().ok()?;
    let content = matcher(&rule.content).ok()?;
    let nodes = outermost(doc, &content);
    let has_text = |n: &NodeRef| n.text().chars().any(|c| !c.is_whitespace());
    if !nodes.iter().any(has_text) {
        return None;
    }
    for sel in &rule.remove {
        if let Ok(m) = matcher(sel) {
            doc.select_matcher(&m).remove();
        }
    }
    let mut out = super::super::Tidy::with_capacity(capacity);
    let wrapper = doc.tree.new_element("div");
    for node in nodes {
        wrapper.append_child(&node);
        out.push(&wrapper.md(None));
        node.remove_from_parent();
        out.end_block();
    }
    let md = out.finish();
    md.chars().any(|c| !c.is_whitespace()).then_some(md)
}

/// The regions of the sanitized `doc` a person may pick (see the module docs).
pub(crate) fn regions(doc: &Document) -> Vec<Region> {
    let Some(body) = doc.body() else {
        return Vec::new();
    };
    let counts = stats::compute(&body, true);
    let total = counts.get(&body.id).map(|s| s.chars).unwrap_or(0);
    // Candidates in document order, with their text and link shares.
    let mut found: Vec<(NodeRef, u32, f64)> = Vec::new();
    stats::walk(&body, |n| {
        let s = counts.get(&n.id).copied().unwrap_or_default();
        if s.chars < REGION_MIN_CHARS {
            return false;
        }
        if s.link_density() <= REGION_MAX_LINKS && selector_of(n).is_some() {
            found.push((*n, s.chars, s.link_density()));
        }
        true
    });
    // An element whose text is nearly all one candidate's inside it stands aside for it:
    // the most text of a candidate inside each, children before parents (reverse order).
    let index: std::collections::HashMap<_, usize> = found
        .iter()
        .enumerate()
        .map(|(i, (n, ..))| (n.id, i))
        .collect();
    let mut inner = vec![0u32; found.len()];
    for i in (0..found.len()).rev() {
        let (node, chars, _) = &found[i];
        let most = (*chars).max(inner[i]);
        if let Some(p) = node
            .ancestors_it(None)
            .find_map(|a| index.get(&a.id).copied())
        {
            inner[p] = inner[p].max(most);
        }
    }
    let mut named: Vec<(f64, String)> = Vec::new();
    for (i, (node, chars, links)) in found.iter().enumerate() {
        if f64::from(inner[i]) >= NESTED_SAME * f64::from(*chars) {
            continue;
        }
        let Some(selector) = selector_of(node) else {
            continue;
        };
        if named.iter().any(|(_, s)| *s == selector) {
            continue;
        }
        named.push((f64::from(*chars) * (1.0 - links), selector));
    }
    named.sort_by(|a, b| b.0.total_cmp(&a.0));
    named.truncate(MAX_REGIONS * 3);
    let mut kept: Vec<(f64, Region)> = Vec::new();
    for (_, selector) in named {
        let Ok(m) = Matcher::new(&selector) else {
            continue;
        };
        let nodes = outermost(doc, &m);
        let of = |f: fn(&stats::Stats) -> u32| -> u32 {
            nodes
                .iter()
                .map(|n| counts.get(&n.id).map(f).unwrap_or(0))
                .sum()
        };
        let (chars_all, links_all) = (of(|s| s.chars), of(|s| s.link_chars));
        let mut preview = String::new();
        'fill: for t in nodes
            .iter()
            .flat_map(|n| n.descendants_it())
            .filter(|d| d.is_text())
        {
            for w in t.text().split_whitespace() {
                if preview.chars().count() >= PREVIEW_CHARS {
                    break 'fill;
                }
                if !preview.is_empty() {
                    preview.push(' ');
                }
                preview.push_str(w);
            }
        }
        let preview: String = preview.chars().take(PREVIEW_CHARS).collect();
        // Most like a main text: much text, few links, not the whole page.
        let links = f64::from(links_all) / f64::from(chars_all.max(1));
        let share = f64::from(chars_all) / f64::from(total.max(1));
        let whole = if share > 0.95 { 0.5 } else { 1.0 };
        let rank = f64::from(chars_all) * (1.0 - links.min(1.0)) * whole;
        kept.push((
            rank,
            Region {
                selector,
                matches: nodes.len(),
                chars: chars_all,
                preview,
            },
        ));
    }
    kept.sort_by(|a, b| b.0.total_cmp(&a.0));
    kept.truncate(MAX_REGIONS);
    kept.into_iter().map(|(_, r)| r).collect()
}

/// A name that looks chosen by a person, not generated: a letter first, letters, digits,
/// `-` and `_` after, at most 40 characters, no run of three digits.
fn stable_name(name: &str) -> bool {
    let mut digits = 0;
    let mut chars = name.chars();
    if !chars.next().is_some_and(|c| c.is_ascii_alphabetic()) || name.len() > 40 {
        return false;
    }
    for c in name.chars() {
        if !(c.is_ascii_alphanumeric() || c == '-' || c == '_') {
            return false;
        }
        digits = if c.is_ascii_digit() { digits + 1 } else { 0 };
        if digits >= 3 {
            return false;
        }
    }
    true
}

/// A selector naming `n`: `tag#id`, `tag.class.class` (at most two stable classes), or the
/// landmark `main` / `article` / `[role=main]`; None for an element with no such name.
fn selector_of(n: &NodeRef) -> Option<String> {
    let tag = n.node_name()?.to_ascii_lowercase();
    // An element name a selector can say (the parser keeps odd names such as `a.b`).
    let nameable = tag.starts_with(|c: char| c.is_ascii_alphabetic())
        && tag.chars().all(|c| c.is_ascii_alphanumeric() || c == '-');
    if !nameable {
        return None;
    }
    if let Some(id) = n.attr("id").filter(|id| stable_name(id.trim())) {
        return Some(format!("{tag}#{}", id.trim()));
    }
    let classes: Vec<String> = n
        .attr("class")
        .map(|c| {
            c.split_whitespace()
                .filter(|c| stable_name(c))
                .take(2)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default();
    if !classes.is_empty() {
        return Some(format!("{tag}.{}", classes.join(".")));
    }
    if n.attr("role").is_some_and(|r| r.trim() == "main") {
        return Some(format!("{tag}[role=main]"));
    }
    matches!(tag.as_str(), "main" | "article").then_some(tag)
}

#[cfg(test)]
mod tests;
