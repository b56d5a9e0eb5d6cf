//! Finding the element that holds the page's main text, by content scores in the manner of
//! Readability: every paragraph-like block of 25 characters or more scores
//! `1 + commas + min(chars / 80, 3)` (halved for list items, scaled by the share of its text
//! outside links; mostly-link blocks score nothing), and passes that score to its parent in full, to its
//! grandparent in half, and to the three levels above in thirds of the level; an ancestor
//! starts from a score for its tag and its names ([`super::names`]), and its total is scaled by
//! `1 - link density`. With a headline, the candidate nearest it wins among the strong ones,
//! unless it is a standfirst that leads into a stronger body ([`continues_into`]). The best
//! candidate moves up to an ancestor that also holds most of the other strong candidates (a
//! page of several posts or results), or to a parent whose score beats it, then through the
//! parents of which it is the only element; then its siblings that score well (judged through
//! the wrappers they are made of), share its class, or read like prose, join it.

use super::names;
use super::stats::{IdMap, Stats, StatsMap};
use dom_query::{NodeId, NodeRef};

/// Blocks of text that score.
const PARAGRAPHS: &[&str] = &[
    "p",
    "pre",
    "td",
    "blockquote",
    "li",
    "dd",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
];
/// Containers whose own text (outside their block children: text in `div`s, `<br>` lines)
/// scores as paragraphs of about [`VIRTUAL_PARAGRAPH_CHARS`] each.
const CONTAINERS: &[&str] = &["div", "section", "article", "main", "body", "form"];
const VIRTUAL_PARAGRAPH_CHARS: u32 = 300;
/// Shortest scoring paragraph, in characters.
const MIN_PARAGRAPH_CHARS: u32 = 25;
/// Levels of ancestors a paragraph's score reaches.
const ANCESTOR_LEVELS: usize = 5;
/// Candidates looked at when moving up to a common ancestor.
const TOP_CANDIDATES: usize = 5;
/// How many strong candidates an ancestor must hold to be taken instead.
const MIN_SHARED: usize = 3;

/// Candidates scoring at least this share of the best compete on closeness to the headline.
const ANCHOR_SHARE: f64 = 0.25;
/// A body that follows the block nearest the headline, scoring this many times as much, is
/// the content ([`continues_into`]).
const LEAD_TO_BODY: f64 = 1.25;
/// ... when the block nearest the headline is no longer than a standfirst (characters).
const LEAD_MAX_CHARS: usize = 500;

/// How deep (from the root) the common ancestor of a node and the headline lies.
struct Closeness {
    chain: Vec<NodeId>,
}

impl Closeness {
    fn new(headline: &NodeRef) -> Self {
        Closeness {
            chain: std::iter::once(headline.id)
                .chain(headline.ancestors_it(None).map(|a| a.id))
                .collect(),
        }
    }

    /// Does `node` hold the headline?
    fn holds(&self, node: &NodeRef) -> bool {
        self.chain.contains(&node.id)
    }

    /// The depth of the common ancestor.
    fn of(&self, node: &NodeRef) -> usize {
        std::iter::once(node.id)
            .chain(node.ancestors_it(None).map(|a| a.id))
            .find_map(|id| {
                self.chain
                    .iter()
                    .position(|c| *c == id)
                    .map(|i| self.chain.len() - i)
            })
            .unwrap_or(0)
    }
}

/// Of the candidates scoring at least `min`, the one whose common ancestor with the headline
/// is deepest (ties: the higher score, as `ranked` is ordered). A box holding the headline
/// (its header, with a standfirst and a byline) competes only when it is the best of all.
fn closest(
    close: &Closeness,
    ranked: &[(NodeId, f64)],
    min: f64,
    tree: &dom_query::Tree,
) -> Option<NodeId> {
    let mut best: Option<(usize, NodeId)> = None;
    for (i, (id, score)) in ranked.iter().take(50).enumerate() {
        if *score < min {
            break;
        }
        let node = NodeRef::new(*id, tree);
        if i > 0 && close.holds(&node) {
            continue;
        }
        let depth = close.of(&node);
        if best.is_none_or(|(d, _)| depth > d) {
            best = Some((depth, *id));
        }
    }
    best.map(|(_, id)| id)
}

/// Does the block `near` the headline (a standfirst, a teaser set under the title: at most
/// [`LEAD_MAX_CHARS`]) lead into the stronger block `best` that follows it with no heading
/// between (the body)? Then the body is the content, and the standfirst joins it as its lead.
/// A next article, or comments, come under a heading of their own.
fn continues_into(root: &NodeRef, near: NodeId, best: NodeId, scores: &Scores) -> bool {
    if near == best || scores.get(best) < LEAD_TO_BODY * scores.get(near) {
        return false;
    }
    let tree = root.tree;
    let near_node = NodeRef::new(near, tree);
    let best_node = NodeRef::new(best, tree);
    let near_chars = near_node
        .text()
        .chars()
        .filter(|c| !c.is_whitespace())
        .count();
    if near_chars > LEAD_MAX_CHARS {
        return false;
    }
    if best_node.ancestors_it(None).any(|a| a.id == near)
        || near_node.ancestors_it(None).any(|a| a.id == best)
    {
        return false;
    }
    // In document order: `near` closes, then no heading opens before `best`.
    let mut after_near = false;
    let mut inside_near = false;
    for node in root.descendants_it().filter(|n| n.is_element()) {
        if node.id == near {
            inside_near = true;
            continue;
        }
        if inside_near {
            if node.ancestors_it(None).any(|a| a.id == near) {
                continue;
            }
            inside_near = false;
            after_near = true;
        }
        if node.id == best {
            return after_near;
        }
        if after_near && matches!(node.node_name().as_deref(), Some("h1" | "h2" | "h3")) {
            return false;
        }
    }
    false
}

/// The scores of the candidates under `root`.
pub(crate) struct Scores {
    pub(crate) of: IdMap<f64>,
}

impl Scores {
    pub(crate) fn get(&self, id: NodeId) -> f64 {
        self.of.get(&id).copied().unwrap_or(0.0)
    }
}

/// The score an element starts from: its tag, what its names say, and semantic markers.
pub(crate) fn base_score(node: &NodeRef) -> f64 {
    let name = node.node_name().unwrap_or_default();
    let tag = match name.as_ref() {
        "div" | "article" | "main" => 5.0,
        "pre" | "td" | "blockquote" => 3.0,
        "address" | "ol" | "ul" | "dl" | "dd" | "dt" | "li" | "form" => -3.0,
        "h1" | "h2" | "h3" | "h4" | "h5" | "h6" | "th" => -5.0,
        _ => 0.0,
    };
    let semantic = if node
        .attr("itemprop")
        .is_some_and(|v| v.contains("articleBody") || v.contains("text"))
    {
        25.0
    } else if name.as_ref() == "article" {
        10.0
    } else {
        0.0
    };
    tag + semantic + name_weight(node)
}

/// +25 for content names, -25 for strong chrome names (weak hints such as `date` or `meta`
/// only matter to pruning small elements).
pub(crate) fn name_weight(node: &NodeRef) -> f64 {
    let class = node.attr("class");
    let id = node.attr("id");
    let tokens = names::tokens(class.as_deref(), id.as_deref());
    let mut w = 0.0;
    if names::is_content(&tokens) {
        w += 25.0;
    }
    if names::chrome_level(&tokens) == 2 {
        w -= 25.0;
    }
    w
}

/// What a paragraph of `chars` characters (`links` of them in links) with `commas` scores, or
/// `None` when it is too short or mostly links (see the module docs).
fn paragraph_value(chars: u32, links: u32, commas: u32, name: &str) -> Option<f64> {
    if chars < MIN_PARAGRAPH_CHARS {
        return None;
    }
    let ld = f64::from(links) / f64::from(chars);
    let listed = matches!(name, "li" | "dd");
    if ld > 0.5 && listed || ld > 0.8 {
        return None;
    }
    let value = (1.0 + f64::from(commas) + (f64::from(chars) / 80.0).min(3.0)) * (1.0 - ld);
    Some(if listed { value * 0.5 } else { value })
}

/// Score every candidate under `root`.
pub(crate) fn score(root: &NodeRef, stats: &StatsMap) -> Scores {
    let mut raw: IdMap<f64> = IdMap::default();
    for node in std::iter::once(*root).chain(root.descendants_it()) {
        let Some(name) = node.node_name() else {
            continue;
        };
        let Some(s) = stats.get(&node.id) else {
            continue;
        };
        let (value, first_level) = if PARAGRAPHS.contains(&name.as_ref()) {
            match paragraph_value(s.chars, s.link_chars, s.commas, &name) {
                Some(v) => (v, 1),
                None => continue,
            }
        } else if CONTAINERS.contains(&name.as_ref()) {
            // The text between its blocks: paragraphs inside it, so it is their parent.
            let n = (s.direct_chars / VIRTUAL_PARAGRAPH_CHARS).max(1);
            match paragraph_value(
                s.direct_chars / n,
                s.direct_link_chars / n,
                s.direct_commas / n,
                &name,
            ) {
                Some(v) => (v * f64::from(n), 0),
                None => continue,
            }
        } else {
            continue;
        };
        // A paragraph inside a paragraph (a `p` in an `li`) is counted once, at the outer one.
        if node
            .ancestors_it(Some(3))
            .any(|a| PARAGRAPHS.contains(&a.node_name().unwrap_or_default().as_ref()))
        {
            continue;
        }
        let targets = std::iter::once(node)
            .filter(|_| first_level == 0)
            .chain(node.ancestors_it(Some(ANCESTOR_LEVELS)));
        for (level, anc) in targets.enumerate() {
            if !anc.is_element() || anc.has_name("html") {
                break;
            }
            let divider = match level {
                0 => 1.0,
                1 => 2.0,
                l => l as f64 * 3.0,
            };
            let entry = raw.entry(anc.id).or_insert_with(|| base_score(&anc));
            *entry += value / divider;
        }
    }
    let of = raw
        .into_iter()
        .map(|(id, s)| {
            let ld = stats.get(&id).map(Stats::link_density).unwrap_or(0.0);
            (id, s * (1.0 - ld))
        })
        .collect();
    Scores { of }
}

/// The element holding the main text, as [`top`] found it.
pub(crate) struct Top<'a> {
    pub(crate) node: NodeRef<'a>,
    /// The candidate's score (before it moved up through single-child wrappers).
    pub(crate) score: f64,
    /// The candidate before it moved up through single-child wrappers (`node` itself, or a
    /// descendant that is the only element of each element between them).
    pub(crate) inner: NodeRef<'a>,
}

/// The best candidate under `root`, moved up as the module docs say. With the page's
/// `headline`, the candidate is the one closest to it (deepest common ancestor) among those
/// scoring at least [`ANCHOR_SHARE`] of the best: the text that follows the title, not a longer
/// one further away (the next article of an endless page, a list of teasers, comments). Then
/// it moves up while it is its parent's only element.
pub(crate) fn top<'a>(
    root: &NodeRef<'a>,
    scores: &Scores,
    headline: Option<&NodeRef>,
) -> Option<Top<'a>> {
    let mut ranked: Vec<(NodeId, f64)> = scores.of.iter().map(|(k, v)| (*k, *v)).collect();
    ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    let (best_id, best) = *ranked.first()?;
    let tree = root.tree;
    let close = headline.map(Closeness::new);
    let best_id = match &close {
        Some(c) => match closest(c, &ranked, best * ANCHOR_SHARE, tree) {
            Some(near) if !continues_into(root, near, best_id, scores) => near,
            _ => best_id,
        },
        None => best_id,
    };
    let best = scores.get(best_id);
    let mut top = NodeRef::new(best_id, tree);
    // Ancestors shared with other strong candidates (as close to the headline as the best).
    let depth = close.as_ref().map(|c| c.of(&top)).unwrap_or(0);
    let alternatives: Vec<NodeRef> = ranked
        .iter()
        .filter(|(id, s)| *id != best_id && *s >= best * 0.75)
        .map(|(id, _)| NodeRef::new(*id, tree))
        .filter(|n| close.as_ref().is_none_or(|c| c.of(n) >= depth))
        .take(TOP_CANDIDATES - 1)
        .collect();
    if alternatives.len() >= MIN_SHARED {
        let ancestors: Vec<NodeRef> = top.ancestors_it(None).collect();
        for anc in ancestors {
            if anc.id == root.id || !anc.is_element() {
                break;
            }
            let held = alternatives
                .iter()
                .filter(|alt| alt.ancestors_it(None).any(|a| a.id == anc.id))
                .count();
            if held >= MIN_SHARED {
                top = anc;
                break;
            }
        }
    }
    // A parent that scores better than the candidate, reached without a steep fall.
    let mut last = scores.get(top.id);
    let threshold = last / 3.0;
    let mut parent = top.parent();
    while let Some(p) = parent {
        if p.id == root.id || !p.is_element() {
            break;
        }
        let ps = scores.get(p.id);
        if ps == 0.0 {
            parent = p.parent();
            continue;
        }
        if ps < threshold {
            break;
        }
        if ps > last {
            top = p;
            break;
        }
        last = ps;
        parent = p.parent();
    }
    // The only element of its parent is the same block: the parent's siblings are where the
    // text may go on (an article cut into sections that each hold one wrapper).
    let score = scores.get(top.id);
    let inner = top;
    while let Some(p) = top.parent() {
        if p.id == root.id || !p.is_element() || !only_child(&p, &top) {
            break;
        }
        top = p;
    }
    Some(Top {
        node: top,
        score,
        inner,
    })
}

/// Is `child` the only element of `parent`, with no text of its own beside it?
fn only_child(parent: &NodeRef, child: &NodeRef) -> bool {
    parent.children_it(false).all(|c| {
        c.id == child.id
            || (c.is_text() && c.text().trim().is_empty())
            || !(c.is_element() || c.is_text())
    })
}

/// The best score of `node` and of the wrappers it is made of (each the only element of the
/// one before): a page builder's row holds its text five or more levels down, where the scores
/// of its paragraphs do not reach the row.
fn wrapped_score(node: &NodeRef, scores: &Scores) -> f64 {
    let mut best = scores.get(node.id);
    let mut cur = *node;
    for _ in 0..ANCESTOR_LEVELS * 2 {
        let mut elements = cur.children_it(false).filter(|c| c.is_element());
        let (Some(only), None) = (elements.next(), elements.next()) else {
            break;
        };
        if !only_child(&cur, &only) {
            break;
        }
        best = best.max(scores.get(only.id));
        cur = only;
    }
    best
}

/// `top` and the siblings that belong with it, in document order.
pub(crate) fn with_siblings<'a>(
    top: &NodeRef<'a>,
    top_score: f64,
    scores: &Scores,
    stats: &StatsMap,
) -> Vec<NodeRef<'a>> {
    let Some(parent) = top.parent() else {
        return vec![*top];
    };
    let top_score = top_score.max(scores.get(top.id));
    let threshold = (top_score * 0.2).max(10.0);
    let top_class = top.attr("class").filter(|c| !c.trim().is_empty());
    parent
        .children_it(false)
        .filter(|s| s.is_element())
        .filter(|s| {
            if s.id == top.id {
                return true;
            }
            // A block of teasers (headings that are links) is not the article's continuation.
            if stats.get(&s.id).is_some_and(|st| st.linked_headings >= 2) {
                return false;
            }
            let bonus = match (&top_class, s.attr("class")) {
                (Some(a), Some(b)) if *a == b => top_score * 0.2,
                _ => 0.0,
            };
            if wrapped_score(s, scores) + bonus >= threshold {
                return true;
            }
            if !s.has_name("p") {
                return false;
            }
            let st = stats.get(&s.id).copied().unwrap_or_default();
            let ld = st.link_density();
            (st.chars > 80 && ld < 0.25)
                || (st.chars > 0 && ld == 0.0 && {
                    let t = s.text();
                    t.contains(". ") || t.trim_end().ends_with('.')
                })
        })
        .collect()
}
