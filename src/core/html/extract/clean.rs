//! Removing site chrome: from the whole page before scoring ([`prune`]), and from the chosen
//! content after it ([`tidy`]).
//!
//! [`prune`] removes navigation (`nav`, `menu`, ARIA navigation, banner, search and dialog
//! roles), `aside` and `footer` (and the complementary and contentinfo roles), `header`s that do
//! not hold the page's heading, and elements whose names say chrome ([`super::names`]): strong
//! names always, weak ones (`ad`, `tags`, `meta`, ...) when the element is small or mostly
//! links, holds no image caption, and is not also named as content. It never removes an element that holds an `h1`, the page's headline, an
//! `articleBody` or the `main` region, nor one that holds more than [`MAX_CHROME_SHARE`] of the page's text as
//! prose (few links, or named as content), unless it is a comment section: a mislabelled
//! wrapper (`sidebar-layout`) must not take the article with it.
//!
//! [`tidy`] removes, inside the content, blocks that read as chrome: a negative score, several
//! images and no text, many list items and few paragraphs, or dense links (over 20% of a
//! non-list block's text, over 50% of one named as content), in the manner of Readability's
//! conditional cleaning. Lists and data tables keep their links: in an article they are
//! content.

use super::names;
use super::score::{Scores, name_weight};
use super::stats::{IdMap, Stats, walk};
use dom_query::{NodeId, NodeRef};
use std::collections::HashSet;

/// An element holding more than this share of the page's text is not removed as chrome.
pub const MAX_CHROME_SHARE: f64 = 0.4;
/// Weakly named chrome is removed only below this many characters (or when mostly links).
const SMALL_CHARS: u32 = 200;

const CHROME_TAGS: &[&str] = &["nav", "aside", "footer", "menu", "dialog", "noscript"];
const CHROME_ROLES: &[&str] = &[
    "navigation",
    "banner",
    "contentinfo",
    "complementary",
    "search",
    "dialog",
    "alertdialog",
    "menu",
    "menubar",
    "toolbar",
];

/// Ids of `root`'s elements that hold the heading, a marked article body or the main region
/// (and so are kept).
fn protected(root: &NodeRef, headline: Option<&NodeRef>) -> HashSet<NodeId> {
    let mut out = HashSet::new();
    for node in root.descendants_it().filter(|n| n.is_element()) {
        let marked = node.has_name("h1")
            || headline.is_some_and(|h| h.id == node.id)
            || node.has_name("main")
            || node.attr("role").is_some_and(|r| r.trim() == "main")
            || node
                .attr("itemprop")
                .is_some_and(|v| v.contains("articleBody"));
        if marked {
            out.insert(node.id);
            for a in node.ancestors_it(None) {
                if !out.insert(a.id) {
                    break;
                }
            }
        }
    }
    out
}

/// Is `node` chrome by its tag, role or names? (2 strong, 1 weak, 0 not; and whether its
/// names say content, or comments.)
fn chrome(node: &NodeRef) -> (u8, bool, bool) {
    let class = node.attr("class");
    let id = node.attr("id");
    let tokens = names::tokens(class.as_deref(), id.as_deref());
    let comments = tokens
        .iter()
        .any(|t| t.starts_with("comment") && !t.starts_with("commentary") || t == "disqus");
    let content = names::is_content(&tokens);
    let name = node.node_name().unwrap_or_default();
    if CHROME_TAGS.contains(&name.as_ref()) || name.as_ref() == "header" {
        return (2, content, comments);
    }
    if node
        .attr("role")
        .is_some_and(|r| CHROME_ROLES.contains(&r.trim().to_ascii_lowercase().as_str()))
    {
        return (2, content, comments);
    }
    let level = names::chrome_level(&tokens);
    if level == 1 && content {
        return (0, content, comments);
    }
    (level, content, comments)
}

/// Remove chrome from the page (see the module docs); returns how many elements went.
pub fn prune(body: &NodeRef, stats: &IdMap<Stats>, headline: Option<&NodeRef>) -> usize {
    let keep = protected(body, headline);
    let total = stats.get(&body.id).map(|s| s.chars).unwrap_or(0);
    let mut doomed: Vec<NodeRef> = Vec::new();
    walk(body, |node| {
        if keep.contains(&node.id) {
            return true;
        }
        let (level, content, comments) = chrome(node);
        if level == 0 {
            return true;
        }
        let s = stats.get(&node.id).copied().unwrap_or_default();
        let weak_ok =
            level == 2 || s.captions == 0 && (s.chars < SMALL_CHARS || s.link_density() > 0.5);
        let big = f64::from(s.chars) > MAX_CHROME_SHARE * f64::from(total);
        let prose = content || s.link_density() < 0.3;
        if weak_ok && (comments || !(big && prose)) {
            doomed.push(*node);
            return false;
        }
        true
    });
    let n = doomed.len();
    for node in doomed {
        node.remove_from_parent();
    }
    n
}

/// Remove chrome-like blocks inside the chosen content `nodes` (see the module docs).
pub fn tidy(nodes: &[NodeRef], scores: &Scores, stats: &IdMap<Stats>) {
    let mut doomed: Vec<NodeRef> = Vec::new();
    for top in nodes {
        walk(top, |node| {
            if should_remove(node, scores, stats) {
                doomed.push(*node);
                return false;
            }
            true
        });
    }
    for node in doomed {
        node.remove_from_parent();
    }
}

fn should_remove(node: &NodeRef, scores: &Scores, stats: &IdMap<Stats>) -> bool {
    let name = node.node_name().unwrap_or_default();
    let is_list = matches!(name.as_ref(), "ul" | "ol" | "dl");
    if !is_list
        && !matches!(
            name.as_ref(),
            "div" | "section" | "table" | "form" | "fieldset"
        )
    {
        return false;
    }
    let weight = name_weight(node);
    // A list starts from a negative score; only its names can condemn it.
    if weight + if is_list { 0.0 } else { scores.get(node.id) } < 0.0 {
        return true;
    }
    let s = stats.get(&node.id).copied().unwrap_or_default();
    if s.commas >= 10 {
        return false;
    }
    let in_figure = node.ancestors_it(Some(8)).any(|a| a.has_name("figure"));
    let ld = s.link_density();
    let data_table = name.as_ref() == "table" && s.tr >= 2;
    if s.img > 1 && f64::from(s.p) < f64::from(s.img) * 0.5 && !in_figure && s.chars < 100 {
        return true;
    }
    if !is_list && s.li > s.p + 100 {
        return true;
    }
    if !is_list && s.chars < 25 && (s.img == 0 || s.img > 2) && ld > 0.0 && !in_figure {
        return true;
    }
    if is_list || data_table {
        return weight >= 25.0 && ld > 0.5;
    }
    (weight < 25.0 && ld > 0.2) || (weight >= 25.0 && ld > 0.5)
}
