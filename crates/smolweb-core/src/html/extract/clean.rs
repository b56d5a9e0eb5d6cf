//! Removing site chrome: from the whole page before scoring ([`prune`]), and from the chosen
//! content after it ([`tidy`]).
//!
//! [`prune`] removes navigation (`nav`, `menu`, ARIA navigation, banner, search and dialog
//! roles), `aside` and `footer` (and the complementary and contentinfo roles), `header`s that do
//! not hold the page's heading (unless one holds much of the page as prose: a page builder's
//! section around the post), and elements whose names say chrome ([`super::names`]): strong
//! names always, weak ones (`ad`, `tags`, `meta`, ...) when the element is small or mostly
//! links, holds no image caption, is not a list of titles (links of more than a few words) and
//! is not also named as content. A `header` inside an `article` that holds a heading is an
//! item's header (a post's title on a listing), not the site's. It never removes an element that holds an `h1`, the page's headline, an
//! `articleBody` or the `main` region, nor one that holds more than [`MAX_CHROME_SHARE`] of the page's text as
//! prose (few links, or named as content), unless it is a comment section: a mislabelled
//! wrapper (`sidebar-layout`) must not take the article with it; nor, by its names, one that
//! holds more than [`PAGE_WRAPPER_SHARE`] of the text however many links it has (the page's
//! own wrapper, `searchPage` around a grid of products). On a forum page whose
//! elements named as comments hold half of its text, those names say nothing: the posts are
//! the thread, which forum software names comments. Formulas (MathML `math`,
//! MathJax's `mjx-*` elements) are never chrome by their names (MathJax names its containers
//! after its context menu).
//!
//! [`tidy`] removes, inside the content, blocks that read as chrome: labels standing alone (an
//! advertisement's marker, a picture credit), short paragraphs that are mostly a link ("Read
//! more: ...", breadcrumbs), teaser blocks (two or more headings that are links to other
//! pages, with short texts; unless they are most of the content of a page that is not an
//! article, as on a listing under its intro), slideshows (items that
//! each repeat the gallery's heading, under the same condition), lists of short links
//! (pagination), and, in the manner of
//! Readability's conditional cleaning, blocks with a negative score, several images and no
//! text, many list items and few paragraphs, or dense links (over 20% of a non-list block's
//! text, over 50% of one named as content). Other lists and data tables keep their links: in
//! an article they are content. A heading that announces links elsewhere ("Related articles",
//! "Lesen Sie auch") goes with the link-dense blocks under it, and one that opens the readers'
//! comments ("12 Comments", "Kommentare") goes with everything after it in its block.

use super::names;
use super::score::{Scores, name_weight};
use super::stats::{Stats, StatsMap, walk};
use dom_query::{NodeId, NodeRef};
use std::collections::HashSet;

/// An element holding more than this share of the page's text is not removed as chrome.
pub(crate) const MAX_CHROME_SHARE: f64 = 0.4;
/// An element holding more than this share of the page's text is the page's wrapper: its
/// names never remove it, even when most of its text is links (a grid of products).
const PAGE_WRAPPER_SHARE: f64 = 0.8;
/// Elements named as comments that hold this share of the page's text are its posts.
const THREAD_SHARE: f64 = 0.5;
/// A teaser's text (title and excerpt) is shorter than this on average.
const TEASER_CHARS: u32 = 400;
/// Teaser blocks are removed when at least this many characters of other text remain.
const ARTICLE_BESIDE_TEASERS: u32 = 250;
/// The average characters of a list item above which a list of links is one of titles.
const TITLE_CHARS: u32 = 25;
/// Weakly named chrome is removed only below this many characters (or when mostly links).
const SMALL_CHARS: u32 = 200;
/// An element named both chrome and content (`article-content sticky-sidebar-relative`) is
/// kept when it holds at least this many characters of prose ...
const NAMED_CONTENT_CHARS: u32 = 400;
/// ... that is, text under this share of links.
const NAMED_CONTENT_LINKS: f64 = 0.35;
/// A `header` holding more than [`MAX_CHROME_SHARE`] of the page's text, with links under this
/// share of it, is content.
const PROSE_HEADER_LINKS: f64 = 0.2;

const CHROME_TAGS: &[&str] = &[
    "nav",
    "aside",
    "footer",
    "menu",
    "dialog",
    "noscript",
    "amp-lightbox",
];
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
        // With a headline found, other `h1`s (a site's name in its header) protect nothing.
        let marked = node.has_name("h1") && headline.is_none()
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

/// Is this name token a comment section's (`comments`, `commentlist`, `disqus`)?
fn comment_token(t: &str) -> bool {
    t.starts_with("comment") && !t.starts_with("commentary") || t == "disqus"
}

/// Do `node`'s names say it is (in) a comment section?
fn comment_named(node: &NodeRef) -> bool {
    let class = node.attr("class");
    let id = node.attr("id");
    names::tokens(class.as_deref(), id.as_deref())
        .iter()
        .any(|t| comment_token(t))
}

/// Is the page a thread: do the outermost elements named as comments hold at least
/// [`THREAD_SHARE`] of its text? Then the posts, however named, are the content.
fn is_thread(body: &NodeRef, stats: &StatsMap, total: u32) -> bool {
    let mut held = 0u32;
    walk(body, |node| {
        if comment_named(node) {
            held = held.saturating_add(stats.get(&node.id).map(|s| s.chars).unwrap_or(0));
            return false;
        }
        true
    });
    total > 0 && f64::from(held) >= THREAD_SHARE * f64::from(total)
}

/// Is `node` chrome by its tag, role or names? (2 strong, 1 weak, 0 not; and whether its
/// names say content, or comments.) On a `thread`, names of comments say nothing.
fn chrome(node: &NodeRef, thread: bool) -> (u8, bool, bool) {
    let class = node.attr("class");
    let id = node.attr("id");
    let mut tokens = names::tokens(class.as_deref(), id.as_deref());
    if thread {
        tokens.retain(|t| !comment_token(t));
    }
    let comments = tokens.iter().any(|t| comment_token(t));
    let content = names::is_content(&tokens);
    let name = node.node_name().unwrap_or_default();
    if name.as_ref() == "math" || name.starts_with("mjx-") {
        return (0, content, comments);
    }
    if CHROME_TAGS.contains(&name.as_ref()) || name.as_ref() == "header" && !item_header(node) {
        return (2, content, comments);
    }
    if node
        .attr("role")
        .is_some_and(|r| CHROME_ROLES.contains(&r.trim().to_ascii_lowercase().as_str()))
    {
        return (2, content, comments);
    }
    let level = names::chrome_level(&tokens);
    // A data table's weak names are its styling (`table-header`, `meta`): its rows are data.
    if level == 1 && (content || name.as_ref() == "table") {
        return (0, content, comments);
    }
    (level, content, comments)
}

/// Does `node` hold an element named as content (`entry-content`, `articleBody`) with a long
/// run of prose? Then a chrome name on `node` (`socialicons-sticky` around the post) is a
/// layout wrapper's, not the article's.
fn holds_named_content(node: &NodeRef, stats: &StatsMap) -> bool {
    node.descendants_it().filter(|d| d.is_element()).any(|d| {
        let s = stats.get(&d.id).copied().unwrap_or_default();
        s.chars >= NAMED_CONTENT_CHARS
            && s.link_density() < NAMED_CONTENT_LINKS
            && names::is_content(&names::tokens(
                d.attr("class").as_deref(),
                d.attr("id").as_deref(),
            ))
    })
}

/// Is `node` chrome by its tag or ARIA role (not only by its names)? A `noscript` is not: it
/// is what a reader without scripts sees, so a long run of prose in one (a blog engine's copy
/// of the post) is the article, and only short ones ("enable JavaScript", a counter) go.
fn chrome_by_tag_or_role(node: &NodeRef) -> bool {
    let name = node.node_name().unwrap_or_default();
    name.as_ref() != "noscript" && CHROME_TAGS.contains(&name.as_ref())
        || name.as_ref() == "header" && !item_header(node)
        || node
            .attr("role")
            .is_some_and(|r| CHROME_ROLES.contains(&r.trim().to_ascii_lowercase().as_str()))
}

/// A `header` of one item (inside an `article`) that holds its heading: the title of a post
/// on a listing, not the site's header.
fn item_header(node: &NodeRef) -> bool {
    node.ancestors_it(None).any(|a| a.has_name("article"))
        && node.descendants_it().any(|d| {
            matches!(
                d.node_name().as_deref(),
                Some("h2" | "h3" | "h4" | "h5" | "h6")
            )
        })
}

/// A list of links with titles for text (more than [`TITLE_CHARS`] characters an item on
/// average): a capsule's or a listing's links, not a menu.
fn titles_list(node: &NodeRef, s: &Stats) -> bool {
    matches!(node.node_name().as_deref(), Some("ul" | "ol"))
        && s.li > 0
        && s.chars / u32::from(s.li) >= TITLE_CHARS
}

/// Remove chrome from the page (see the module docs); returns how many elements went.
pub(crate) fn prune(
    body: &NodeRef,
    stats: &StatsMap,
    headline: Option<&NodeRef>,
    forum: bool,
) -> usize {
    let keep = protected(body, headline);
    let total = stats.get(&body.id).map(|s| s.chars).unwrap_or(0);
    let thread = forum && is_thread(body, stats, total);
    let mut doomed: Vec<NodeRef> = Vec::new();
    walk(body, |node| {
        if keep.contains(&node.id) {
            return true;
        }
        let (level, content, comments) = chrome(node, thread);
        let by_name = level > 0 && !chrome_by_tag_or_role(node);
        if level == 0 {
            return true;
        }
        let s = stats.get(&node.id).copied().unwrap_or_default();
        let weak_ok = level == 2
            || s.captions == 0
                && (s.chars < SMALL_CHARS || s.link_density() > 0.5)
                && !titles_list(node, &s);
        let big = f64::from(s.chars) > MAX_CHROME_SHARE * f64::from(total);
        let prose = content || s.link_density() < 0.3;
        // Strong names beside content names on a long run of prose: a layout class
        // (`sticky-sidebar-relative`) on the article's own container.
        let named_article = by_name
            && !comments
            && s.chars >= NAMED_CONTENT_CHARS
            && s.link_density() < NAMED_CONTENT_LINKS
            && (content || holds_named_content(node, stats));
        // A wrapper is protected by its share of the text only against its names: an `aside`
        // or a navigation role says what the element is.
        // One that holds nearly all of it is the page's own wrapper (`searchPage`,
        // `sidebar-layout`), whatever its share of links.
        let wrapper = f64::from(s.chars) > PAGE_WRAPPER_SHARE * f64::from(total);
        let shielded = by_name && (big && prose || wrapper);
        // A `header` that holds much of the page as prose is a page builder's section around
        // the post (`<header class="section_blog-post">`), not the site's header.
        let prose_header = node.has_name("header") && big && s.link_density() < PROSE_HEADER_LINKS;
        if weak_ok && (comments || !shielded && !named_article && !prose_header) {
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

/// Remove chrome-like blocks inside the chosen content `nodes` (see the module docs). The
/// chosen candidate `inner` and the wrappers around it are not judged as blocks (their
/// contents are).
pub(crate) fn tidy(
    nodes: &[NodeRef],
    scores: &Scores,
    stats: &StatsMap,
    inner: &NodeRef,
    article: bool,
) {
    let chain: HashSet<NodeId> = std::iter::once(*inner)
        .chain(inner.ancestors_it(None))
        .map(|n| n.id)
        .collect();
    let total: u32 = nodes
        .iter()
        .map(|n| stats.get(&n.id).map(|s| s.chars).unwrap_or(0))
        .sum();
    let mut doomed: Vec<NodeRef> = Vec::new();
    let mut teasers: Vec<NodeRef> = Vec::new();
    for top in nodes {
        walk(top, |node| {
            if chain.contains(&node.id) {
                return true;
            }
            if is_teasers(node, stats) || is_slideshow(node) {
                teasers.push(*node);
                return false;
            }
            if should_remove(node, scores, stats) {
                doomed.push(*node);
                return false;
            }
            true
        });
    }
    let teaser_chars: u32 = teasers
        .iter()
        .map(|n| stats.get(&n.id).map(|s| s.chars).unwrap_or(0))
        .sum();
    // Teasers beside an article go; on another page, when they are most of the content (a
    // listing under its intro, a grid of cards), they are the content.
    let rest = total.saturating_sub(teaser_chars);
    if rest >= ARTICLE_BESIDE_TEASERS && (article || rest >= teaser_chars) {
        doomed.extend(teasers);
    }
    for top in nodes {
        doomed.extend(signposted_links(top, stats));
    }
    for node in doomed {
        node.remove_from_parent();
    }
}

/// A block of teasers: two or more headings that are links to other pages, each with a short
/// text (under [`TEASER_CHARS`] on average).
fn is_teasers(node: &NodeRef, stats: &StatsMap) -> bool {
    matches!(
        node.node_name().as_deref(),
        Some("div" | "section" | "ul" | "ol" | "aside")
    ) && stats.get(&node.id).is_some_and(|s| {
        s.linked_headings >= 2 && s.chars / u32::from(s.linked_headings) < TEASER_CHARS
    })
}

/// Fewest slides that carry the same heading for a block to be a slideshow.
const SLIDES_MIN: usize = 3;

/// A slideshow or gallery: a list or container whose items (three or more, and at least half
/// of them) each repeat the same heading, the gallery's title over every picture.
fn is_slideshow(node: &NodeRef) -> bool {
    if !matches!(
        node.node_name().as_deref(),
        Some("ul" | "ol" | "div" | "section")
    ) {
        return false;
    }
    let items: Vec<NodeRef> = node.children_it(false).filter(|c| c.is_element()).collect();
    if items.len() < SLIDES_MIN {
        return false;
    }
    let mut counts: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for item in &items {
        let heading = item.descendants_it().find(|d| {
            matches!(
                d.node_name().as_deref(),
                Some("h1" | "h2" | "h3" | "h4" | "h5" | "h6")
            )
        });
        if let Some(h) = heading {
            let text = h.text().split_whitespace().collect::<Vec<_>>().join(" ");
            if !text.is_empty() {
                *counts.entry(text.to_lowercase()).or_default() += 1;
            }
        }
    }
    counts
        .values()
        .max()
        .is_some_and(|&n| n >= SLIDES_MIN && n * 2 >= items.len())
}

/// Headings that announce links to other pages ("Related articles", "Lesen Sie auch"), in
/// lowercase without their final punctuation.
const SIGNPOSTS: &[&str] = &[
    "related",
    "related articles",
    "related stories",
    "related posts",
    "related content",
    "related coverage",
    "related news",
    "related reading",
    "you might also like",
    "you may also like",
    "you might be interested in",
    "you may be interested in",
    "more from",
    "more stories",
    "more on this",
    "more on this story",
    "more on this topic",
    "read more",
    "read next",
    "recommended",
    "recommended for you",
    "recommended stories",
    "most popular",
    "most read",
    "trending",
    "trending now",
    "also read",
    "further reading",
    "auch interessant",
    "das könnte sie auch interessieren",
    "das könnte dich auch interessieren",
    "lesen sie auch",
    "mehr zum thema",
    "weitere artikel",
    "schon gelesen",
    "à lire aussi",
    "lire aussi",
    "sur le même sujet",
    "te puede interesar",
    "lee también",
    "leia também",
    "potrebbe interessarti",
];
/// Headings that open the readers' comments; everything after one, in its block, is comments.
const COMMENT_SIGNPOSTS: &[&str] = &[
    "comments",
    "comment",
    "reader comments",
    "leave a comment",
    "leave a reply",
    "post a comment",
    "add a comment",
    "join the discussion",
    "join the conversation",
    "kommentare",
    "kommentar schreiben",
    "kommentieren",
    "schreibe einen kommentar",
    "commentaires",
    "laisser un commentaire",
    "comentarios",
    "deja un comentario",
    "commenti",
    "lascia un commento",
    "comentários",
    "reacties",
];

/// Is `label` a comment section's heading ("Comments", "12 Kommentare", "Comments (3)")?
fn comment_signpost(label: &str) -> bool {
    let words: String = label
        .split(|c: char| c.is_ascii_digit() || matches!(c, '(' | ')' | '[' | ']'))
        .collect::<Vec<_>>()
        .join(" ");
    let words = words.split_whitespace().collect::<Vec<_>>().join(" ");
    COMMENT_SIGNPOSTS.contains(&words.as_str())
}

/// Blocks after a signpost whose text is at least this share of links are its links.
const SIGNPOSTED_LINKS: f64 = 0.5;

/// A heading (or a short bold line) that announces links elsewhere, with the link-dense blocks
/// that follow it, up to the next block of prose or heading: "Related articles" and its list.
fn signposted_links<'a>(top: &NodeRef<'a>, stats: &StatsMap) -> Vec<NodeRef<'a>> {
    let mut out = Vec::new();
    for h in top.descendants_it().filter(|n| {
        matches!(
            n.node_name().as_deref(),
            Some("h2" | "h3" | "h4" | "h5" | "h6" | "strong" | "b" | "p")
        ) || is_title_bar(n)
    }) {
        let text = h.text().to_lowercase();
        let label = text
            .trim()
            .trim_end_matches([':', '?', '!', '.', '…', ' '])
            .trim();
        if label.chars().count() > 40 {
            continue;
        }
        let comments = comment_signpost(label);
        if !comments && !SIGNPOSTS.contains(&label) {
            continue;
        }
        // The block the signpost heads: the heading itself, or the paragraph its bold is.
        let head = if matches!(h.node_name().as_deref(), Some("strong" | "b")) {
            match h.parent().filter(|p| p.text().trim() == h.text().trim()) {
                Some(p) => p,
                None => continue,
            }
        } else {
            h
        };
        if comments {
            // The comments run to the end of the block that holds their heading.
            let mut next = head.next_element_sibling();
            out.push(head);
            while let Some(block) = next {
                next = block.next_element_sibling();
                out.push(block);
            }
            continue;
        }
        let mut links = Vec::new();
        let mut next = head.next_element_sibling();
        while let Some(block) = next {
            let s = stats.get(&block.id).copied().unwrap_or_default();
            let heading = matches!(
                block.node_name().as_deref(),
                Some("h1" | "h2" | "h3" | "h4" | "h5" | "h6")
            );
            next = block.next_element_sibling();
            if s.chars == 0 && !heading {
                continue;
            }
            if heading || s.link_density() < SIGNPOSTED_LINKS {
                break;
            }
            links.push(block);
        }
        if !links.is_empty() {
            out.push(head);
            out.extend(links);
        }
    }
    out
}

/// A `div` of text alone (no element inside): a title bar set without a heading tag.
fn is_title_bar(node: &NodeRef) -> bool {
    node.has_name("div") && node.children_it(false).all(|c| c.is_text())
}

/// Words that open a label standing alone: an advertisement's marker, or a picture credit
/// (these and [`super::credits::MARKERS`], the one list of what a credit starts with).
const LABELS: &[&str] = &[
    "advertisement",
    "advertising",
    "anzeige",
    "werbung",
    "publicité",
    "publicidad",
    "pubblicità",
    "sponsored",
    "crédits",
];
/// A label is shorter than this many characters.
const LABEL_CHARS: u32 = 80;

fn is_label(node: &NodeRef, s: &Stats) -> bool {
    if s.chars == 0 || s.chars >= LABEL_CHARS || s.has_blocks && s.p > 0 {
        return false;
    }
    let text = node.text().to_lowercase();
    let text = text.trim_start_matches(|c: char| c.is_whitespace() || matches!(c, '(' | '*' | '['));
    LABELS
        .iter()
        .chain(super::credits::MARKERS)
        .any(|l| text.starts_with(l))
}

fn should_remove(node: &NodeRef, scores: &Scores, stats: &StatsMap) -> bool {
    let name = node.node_name().unwrap_or_default();
    let s = stats.get(&node.id).copied().unwrap_or_default();
    let ld = s.link_density();
    if matches!(name.as_ref(), "p" | "div" | "span" | "figcaption" | "small") && is_label(node, &s)
    {
        return true;
    }
    // A short paragraph that is mostly a link with a title: "Read more: ...", a breadcrumb trail.
    if name.as_ref() == "p" {
        return ld > 0.6 && s.chars < 300 && s.link_chars >= 30;
    }
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
    // A list of short links is navigation (pages, "back", "next"), not content.
    if is_list && s.li > 0 && ld > 0.8 && !titles_list(node, &s) {
        return true;
    }
    if s.commas >= 10 {
        return false;
    }
    let in_figure = node.ancestors_it(Some(8)).any(|a| a.has_name("figure"));
    let data_table = name.as_ref() == "table" && s.tr >= 2;
    if s.img > 1 && f64::from(s.p) < f64::from(s.img) * 0.5 && !in_figure && s.chars < 100 {
        return true;
    }
    if !is_list && s.li > s.p.saturating_add(100) {
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
