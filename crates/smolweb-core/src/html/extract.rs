//! The page's main text (`extract = main`): the article without the site around it, or, on a
//! page that is not an article (an index, a forum thread, search results, documentation, a
//! capsule seen through a web proxy), the content region without the site chrome.
//!
//! Steps, on the sanitized page: [`clean::prune`] removes chrome (navigation, headers,
//! footers, sidebars, comment sections, share bars, related links, cookie banners, bylines);
//! [`score::score`] scores the remaining blocks of text and [`score::top`] picks the element
//! holding the main text, which [`score::with_siblings`] completes with its siblings;
//! [`clean::tidy`] drops chrome-like blocks inside it; the page's headline joins it when it
//! stood outside. When no block of text scores (a page of short lines or links), the whole
//! page without its chrome is the content region.
//!
//! [`main`] returns `None` when extraction failed: nothing left, a few words of a page that
//! says much more, or pruning that took most of the page. The caller then gives the whole page
//! and says so (`fallback-full`): what comes back as `main` is never the whole page.

mod clean;
mod credits;
mod jsonld;
mod names;
mod repeats;
pub(super) mod rule;
mod score;
mod stats;

pub(super) use jsonld::values as ld_values;
pub(super) use names::tokens as name_tokens;

use dom_query::{Document, NodeRef};

/// Levels above a headline whose text tells a headline from a repeated title.
const HEADLINE_LEVELS: usize = 3;
/// At most this many blocks between the headline and the content are its lead ...
const LEAD_BLOCKS: usize = 3;
/// ... each of at least this many characters.
const LEAD_MIN_CHARS: u32 = 30;
/// Fewer visible characters than this is "a few words".
const FEW_CHARS: usize = 80;
/// A chosen region under this share of what pruning left is doubted ...
const DOUBT_SHARE: f64 = 0.1;
/// ... when it is also shorter than this many characters; the region left by pruning is used.
const DOUBT_CHARS: u32 = 500;

/// What extraction saw on its way, for [`super::quality`]: sizes in characters of text
/// (whitespace not counted).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct Signals {
    /// The page's text before chrome was pruned.
    pub(super) page_chars: u32,
    /// What pruning left.
    pub(super) pruned_chars: u32,
    /// The chosen region (with its siblings), before tidying; 0 when no block scored.
    pub(super) chosen_chars: u32,
    /// Of it, the text inside links.
    pub(super) chosen_link_chars: u32,
    /// The best candidate's score.
    pub(super) top_score: f64,
    /// No candidate scored, or the chosen one was doubted: the content region is what pruning
    /// left.
    pub(super) region_fallback: bool,
    /// The page's declared article body replaced the chosen region.
    pub(super) declared: bool,
    /// Visible characters of the markdown given.
    pub(super) result_chars: u32,
}

/// The main text of the sanitized `doc` as tidied markdown, or `None` when extraction
/// failed; and what was seen on the way. `title` is the page's own title, to recognise its
/// headline. The document is changed (chrome is removed from it). `capacity` is the room to
/// reserve for the markdown (the page's length: it is not made longer than that, but for
/// absolute links).
pub(super) fn main(
    doc: &Document,
    title: Option<&str>,
    capacity: usize,
    page_type: super::PageType,
) -> (Option<String>, Signals) {
    let mut signals = Signals::default();
    let markdown = main_text(doc, title, capacity, page_type, &mut signals);
    signals.result_chars = markdown
        .as_deref()
        .map(|m| visible_chars(m) as u32)
        .unwrap_or(0);
    (markdown, signals)
}

fn main_text(
    doc: &Document,
    title: Option<&str>,
    capacity: usize,
    page_type: super::PageType,
    signals: &mut Signals,
) -> Option<String> {
    use super::PageType as T;
    let forum = page_type == T::Forum;
    // Pages made of units (cards, rows, posts, sections) often wrap each unit in one link;
    // articles and products keep every link as link text (their teasers are such cards).
    let cards = matches!(
        page_type,
        T::Listing | T::Collection | T::Forum | T::Service | T::Documentation
    );
    let body = doc.body()?;
    let declared = jsonld::article_body(doc);
    // The JSON-LD blocks were read; as text they would score as prose (a sidebar's list of
    // events is thousands of characters with many commas).
    doc.select("script").remove();
    let before = stats::compute(&body, cards);
    signals.page_chars = before.get(&body.id).map(|s| s.chars).unwrap_or(0);
    let anchor = find_headline(&body, title, &before);
    clean::prune(&body, &before, anchor.as_ref(), forum);
    drop(before);
    let stats = stats::compute(&body, cards);
    let pruned_chars = stats.get(&body.id).map(|s| s.chars).unwrap_or(0);
    signals.pruned_chars = pruned_chars;
    let scores = score::score(&body, &stats);
    let nodes = match score::top(&body, &scores, anchor.as_ref()) {
        Some(top) => {
            let mut nodes = score::with_siblings(&top.node, top.score, &scores, &stats);
            if let Some(w) = widen(&top.node, &nodes, &stats, pruned_chars) {
                nodes = w;
            } else if let Some(c) = climb(&top.node, &nodes, &stats) {
                nodes = vec![c];
            }
            let of = |f: fn(&stats::Stats) -> u32| -> u32 {
                nodes
                    .iter()
                    .map(|n| stats.get(&n.id).map(f).unwrap_or(0))
                    .sum()
            };
            let chars = of(|s| s.chars);
            signals.chosen_chars = chars;
            signals.chosen_link_chars = of(|s| s.link_chars);
            signals.top_score = top.score;
            if f64::from(chars) < DOUBT_SHARE * f64::from(pruned_chars) && chars < DOUBT_CHARS {
                signals.region_fallback = true;
                body.children_it(false).filter(|n| n.is_element()).collect()
            } else {
                clean::tidy(&nodes, &scores, &stats, &top.inner, page_type == T::Article);
                for n in &nodes {
                    credits::strip(n);
                }
                nodes
            }
        }
        None => {
            signals.region_fallback = true;
            body.children_it(false).filter(|n| n.is_element()).collect()
        }
    };
    let headline_text = anchor.map(|h| h.text().to_string());
    let headline = anchor.filter(|h| !holds(&nodes, h));
    let lead = headline
        .map(|h| lead(&body, &h, &nodes, &stats))
        .unwrap_or_default();
    // The counts are not needed any more: the page can be large.
    drop(scores);
    drop(stats);
    let mut markdown = render(doc, headline, &lead, &nodes, capacity);
    repeats::drop_repeats_and_pagers(&mut markdown);
    trim_dangling_tail(&mut markdown);
    if let Some(declared) = declared.filter(|d| jsonld::replaces(d, &markdown)) {
        let title = headline_text.as_deref().or(title);
        signals.declared = true;
        return Some(jsonld::markdown(title, &declared));
    }
    if visible_chars(&markdown) < FEW_CHARS.min(pruned_chars as usize / 2).max(1) {
        return None;
    }
    Some(markdown)
}

/// The page's declared main region, tried in this order when no main text was found.
const LANDMARKS: [&str; 4] = [
    "main, [role=main]",
    "article",
    "#content, #main-content",
    "#main",
];
/// A landmark holding more than this share of the page's text is the page itself.
const LANDMARK_MAX_SHARE: f64 = 0.9;

/// When no main text was found: the page's declared main region (`main`, `[role=main]`, a
/// single `article`, `#content`, `#main`) without the chrome inside it (navigation, headers,
/// footers, asides, forms), as markdown, if one holds at least [`FEW_CHARS`] characters and
/// is not most of the page; None otherwise (the whole page is given). `doc` is sanitized;
/// the chrome inside the landmark is taken out of it.
pub(super) fn landmark(doc: &Document, capacity: usize) -> Option<String> {
    let body = doc.body()?;
    let total = text_chars_under(&body);
    let node = LANDMARKS.iter().find_map(|sel| {
        let found = doc.select(sel);
        let nodes = found.nodes();
        (nodes.len() == 1).then(|| nodes[0])
    })?;
    let chars = text_chars_under(&node);
    if chars < FEW_CHARS || chars as f64 > LANDMARK_MAX_SHARE * total as f64 {
        return None;
    }
    let chrome: Vec<NodeRef> = node
        .descendants_it()
        .filter(|n| {
            n.is_element()
                && (["nav", "header", "footer", "aside", "menu", "form"]
                    .iter()
                    .any(|t| n.has_name(t))
                    || n.attr("role").is_some_and(|r| {
                        matches!(r.trim(), "navigation" | "banner" | "contentinfo" | "search")
                    }))
        })
        .collect();
    for c in chrome {
        c.remove_from_parent();
    }
    let md = render(doc, None, &[], &[node], capacity);
    (visible_chars(&md) >= FEW_CHARS).then_some(md)
}

/// Characters of text under `node` that are not whitespace.
pub(super) fn text_chars_under(node: &NodeRef) -> usize {
    node.descendants_it()
        .filter(|n| n.is_text())
        .map(|n| n.text().chars().filter(|c| !c.is_whitespace()).count())
        .sum()
}

/// Chosen blocks holding less than this share of what pruning left ...
const WIDEN_SHARE: f64 = 0.4;
/// ... and fewer characters than this (an article beside other long texts is itself) ...
const WIDEN_MAX_CHARS: u32 = 6000;
/// ... give way to their nearest ancestor holding this share of it ...
const WIDEN_COVER: f64 = 0.5;
/// ... when at most this share of its text is links.
const WIDEN_LINKS: f64 = 0.4;

/// The region the chosen blocks stand in: when they hold little of what pruning left (a
/// short intro under the headline of a page of sections, of entries, of cards), their nearest
/// ancestor that holds most of it, if it is not mostly links.
fn widen<'a>(
    top: &NodeRef<'a>,
    nodes: &[NodeRef<'a>],
    stats: &stats::StatsMap,
    pruned: u32,
) -> Option<Vec<NodeRef<'a>>> {
    let chars: u32 = nodes
        .iter()
        .map(|n| stats.get(&n.id).map(|s| s.chars).unwrap_or(0))
        .sum();
    let pruned = f64::from(pruned);
    if f64::from(chars) >= WIDEN_SHARE * pruned || chars > WIDEN_MAX_CHARS {
        return None;
    }
    let mut child = *top;
    for a in top.ancestors_it(None) {
        if a.has_name("body") {
            return page_sections(&a, &child, stats, pruned);
        }
        child = a;
        if !a.is_element() || a.has_name("html") {
            return None;
        }
        let s = stats.get(&a.id).copied().unwrap_or_default();
        if f64::from(s.chars) >= WIDEN_COVER * pruned {
            return (s.link_density() <= WIDEN_LINKS).then(|| vec![a]);
        }
    }
    None
}

/// A section of the page is at least this many characters ...
const SECTION_CHARS: u32 = 100;
/// ... with at most this share of links.
const SECTION_LINKS: f64 = 0.2;

/// The page's own sections, when the chosen blocks stand in one of the `body`'s children (the
/// `holder`) and no wrapper holds the rest (a service page of `section`s under `body`): the
/// children of the holder's shape (tag and first class) that hold prose, if together they
/// hold [`WIDEN_COVER`] of the page.
fn page_sections<'a>(
    body: &NodeRef<'a>,
    holder: &NodeRef<'a>,
    stats: &stats::StatsMap,
    pruned: f64,
) -> Option<Vec<NodeRef<'a>>> {
    let shape = |n: &NodeRef| {
        let class = n.attr("class");
        let first = class
            .as_deref()
            .and_then(|c| c.split_whitespace().next())
            .map(str::to_owned);
        (n.node_name(), first)
    };
    let holder_shape = shape(holder);
    holder_shape.1.as_ref()?;
    let sections: Vec<NodeRef> = body
        .children_it(false)
        .filter(|c| c.is_element() && shape(c) == holder_shape)
        .filter(|c| {
            let s = stats.get(&c.id).copied().unwrap_or_default();
            s.chars >= SECTION_CHARS && s.link_density() <= SECTION_LINKS
        })
        .collect();
    let chars: u32 = sections
        .iter()
        .map(|n| stats.get(&n.id).map(|s| s.chars).unwrap_or(0))
        .fold(0, u32::saturating_add);
    (sections.len() >= 2 && f64::from(chars) >= WIDEN_COVER * pruned).then_some(sections)
}

/// Text a step up may add without being judged (a wrapper's label, a date).
const CLIMB_FREE_CHARS: u32 = 100;
/// A step up adds prose: under this share of links in what it adds ...
const CLIMB_LINKS: f64 = 0.25;
/// ... and at least this many paragraphs.
const CLIMB_PARAGRAPHS: u16 = 2;
/// ... holding on average at most this many characters each (the text is in paragraphs).
const CLIMB_PARAGRAPH_CHARS: u32 = 600;
/// ... and at least this share of it in siblings of the same shape (tag and class).
const CLIMB_ALIKE: f64 = 0.5;
/// Steps up looked at.
const CLIMB_LEVELS: usize = 6;

/// The region the chosen blocks are a part of, when the blocks around them are more of the same
/// prose: an article cut into sections of their own wrappers (`intro`, then a `div` of
/// sections), a documentation page of sections in sections. Each step up to a parent must add
/// paragraphs (of paragraph length) with few links, mostly in siblings of the same tag and
/// class as the element it comes from; it stops below the page's `body`.
fn climb<'a>(
    top: &NodeRef<'a>,
    nodes: &[NodeRef<'a>],
    stats: &stats::StatsMap,
) -> Option<NodeRef<'a>> {
    let mut chars = 0u32;
    let mut links = 0u32;
    let mut paragraphs = 0u16;
    for n in nodes {
        let s = stats.get(&n.id).copied().unwrap_or_default();
        chars = chars.saturating_add(s.chars);
        links = links.saturating_add(s.link_chars);
        paragraphs = paragraphs.saturating_add(s.p);
    }
    let mut cur = *top;
    let mut found = None;
    for _ in 0..CLIMB_LEVELS {
        let Some(p) = cur.parent().filter(|p| p.is_element()) else {
            break;
        };
        if p.has_name("body") || p.has_name("html") {
            break;
        }
        let s = stats.get(&p.id).copied().unwrap_or_default();
        let added = s.chars.saturating_sub(chars);
        if added > CLIMB_FREE_CHARS {
            let added_links = s.link_chars.saturating_sub(links);
            let added_paragraphs = s.p.saturating_sub(paragraphs);
            if f64::from(added_links) > CLIMB_LINKS * f64::from(added)
                || added_paragraphs < CLIMB_PARAGRAPHS
                || added > CLIMB_PARAGRAPH_CHARS * u32::from(added_paragraphs)
                || f64::from(alike_chars(&p, &cur, stats)) < CLIMB_ALIKE * f64::from(added)
            {
                break;
            }
            found = Some(p);
        }
        chars = s.chars;
        links = s.link_chars;
        paragraphs = s.p;
        cur = p;
    }
    found
}

/// Characters of text in the children of `parent` other than `child` that have its tag and
/// class: the other sections of a page cut into sections.
fn alike_chars(parent: &NodeRef, child: &NodeRef, stats: &stats::StatsMap) -> u32 {
    let name = child.node_name();
    let class = child.attr("class");
    parent
        .children_it(false)
        .filter(|c| c.is_element() && c.id != child.id)
        .filter(|c| c.node_name() == name && c.attr("class") == class)
        .map(|c| stats.get(&c.id).map(|s| s.chars).unwrap_or(0))
        .fold(0u32, u32::saturating_add)
}

/// Markdown of the headline, the lead and `nodes`, block by block: a plain container of blocks
/// is opened and its blocks rendered one at a time (each moved under one wrapper element and
/// out again), so that a long text never exists twice as markdown.
fn render(
    doc: &Document,
    headline: Option<NodeRef>,
    lead: &[NodeRef],
    nodes: &[NodeRef],
    capacity: usize,
) -> String {
    let mut out = super::Tidy::with_capacity(capacity);
    // One wrapper for every block: each new element would grow the document's node array.
    let wrapper = doc.tree.new_element("div");
    let mut stack: Vec<NodeRef> = nodes.iter().rev().copied().collect();
    stack.extend(lead.iter().rev().copied());
    stack.extend(headline);
    while let Some(node) = stack.pop() {
        if is_plain_container(&node) {
            stack.extend(node.children_it(true).filter(|c| c.is_element()));
            continue;
        }
        wrapper.append_child(&node);
        out.push(&wrapper.md(None));
        node.remove_from_parent();
        out.end_block();
    }
    out.finish()
}

/// Longest heading or label (characters) that [`trim_dangling_tail`] takes for one
/// announcing what is not there.
const DANGLING_LABEL_CHARS: usize = 60;

/// Drop what ends the text but leads nowhere: headings with nothing under them ("You might
/// also like", "Authors:" whose list was chrome) and labels ending in `:`. Blocks are taken
/// off the end one by one; a code block stops it.
fn trim_dangling_tail(md: &mut String) {
    loop {
        let body = md.trim_end();
        let start = body.rfind("\n\n").map(|i| i + 2).unwrap_or(0);
        let block = &body[start..];
        if block.is_empty() || start == 0 || block.contains("```") {
            break;
        }
        let one_line = !block.contains('\n');
        // A signpost, not a heading that says something (a pull quote set as a heading).
        let heading = one_line
            && block.starts_with('#')
            && block.chars().count() <= DANGLING_LABEL_CHARS
            && !block.ends_with(['.', '!', '?', '…', '"', '”', '»'])
            && {
                let rest = block.trim_start_matches('#');
                rest.is_empty() || rest.starts_with(' ')
            };
        let label =
            one_line && block.ends_with(':') && block.chars().count() <= DANGLING_LABEL_CHARS;
        if !(heading || label) {
            break;
        }
        md.truncate(start);
        let kept = md.trim_end().len();
        md.truncate(kept);
        md.push('\n');
    }
}

/// A `div`-like element whose children are all elements that start blocks (nothing of its
/// own to render between them).
fn is_plain_container(node: &NodeRef) -> bool {
    matches!(
        node.node_name().as_deref(),
        Some("div" | "section" | "article" | "main" | "body")
    ) && node.children_it(false).all(|c| {
        if c.is_text() {
            c.text().trim().is_empty()
        } else {
            !c.is_element() || stats::is_block(&c)
        }
    })
}

/// The blocks of prose between the headline and the chosen content (a standfirst, a first
/// paragraph set apart): at most [`LEAD_BLOCKS`] blocks of [`LEAD_MIN_CHARS`] or more
/// characters with few links that the content does not repeat, none if more than that
/// stands between them.
fn lead<'a>(
    body: &NodeRef<'a>,
    headline: &NodeRef<'a>,
    nodes: &[NodeRef<'a>],
    stats: &stats::StatsMap,
) -> Vec<NodeRef<'a>> {
    let Some(first) = nodes.first() else {
        return Vec::new();
    };
    let squeeze = |t: &str| t.split_whitespace().collect::<Vec<_>>().join(" ");
    let content: String = squeeze(
        &nodes
            .iter()
            .map(|n| n.text().to_string())
            .collect::<Vec<_>>()
            .join(" "),
    );
    let mut out: Vec<NodeRef> = Vec::new();
    let mut after = false;
    let mut skip_under: Option<NodeRef> = None;
    for node in body.descendants_it().filter(|n| n.is_element()) {
        if node.id == headline.id {
            after = true;
            skip_under = Some(node);
            continue;
        }
        if let Some(s) = &skip_under {
            if node.ancestors_it(None).any(|a| a.id == s.id) {
                continue;
            }
            skip_under = None;
        }
        if !after {
            continue;
        }
        if node.id == first.id || first.ancestors_it(None).any(|a| a.id == node.id) {
            if node.id == first.id {
                break;
            }
            continue;
        }
        let s = stats.get(&node.id).copied().unwrap_or_default();
        let block = node.has_name("p")
            || node.has_name("h2")
            || (node.has_name("div") || node.has_name("section")) && !s.has_blocks;
        if !block {
            continue;
        }
        skip_under = Some(node);
        if s.chars < LEAD_MIN_CHARS || s.link_density() > 0.3 {
            continue;
        }
        // A teaser that repeats the text's beginning is not a lead.
        if content.contains(&squeeze(&node.text())) {
            continue;
        }
        if out.len() == LEAD_BLOCKS {
            return Vec::new();
        }
        out.push(node);
    }
    out
}

/// Does one of `nodes` hold (or is) `h`?
fn holds(nodes: &[NodeRef], h: &NodeRef) -> bool {
    nodes
        .iter()
        .any(|n| n.id == h.id || h.ancestors_it(None).any(|a| a.id == n.id))
}

/// The page's headline: the `h1` or `h2` that shares most words with the page's title, if it
/// shares enough of them (most of its own words, and 40% of the title's) and is not a link to
/// the site's home (a logo); of equals, the one with the most text around it (a title
/// repeated in a sticky header or a breadcrumb has little), then an `h1`. A heading that is
/// exactly one part of a title joined from parts ("Headline - Site") matches when nothing
/// matches the whole title. Without a title, the page's only `h1`.
fn find_headline<'a>(
    body: &NodeRef<'a>,
    title: Option<&str>,
    stats: &stats::StatsMap,
) -> Option<NodeRef<'a>> {
    let title_text = title.unwrap_or_default();
    let Some(title) = title.map(words).filter(|t| !t.is_empty()) else {
        let mut h1s = body.descendants_it().filter(|n| n.has_name("h1"));
        return match (h1s.next(), h1s.next()) {
            (Some(only), None) => Some(only),
            _ => None,
        };
    };
    // The title's parts around a separator ("Headline - Site", "Site | Headline"): a
    // headline that is one part whole matches too, when the whole title is too long for it.
    let parts: Vec<Vec<String>> = title_parts(title_text)
        .into_iter()
        .map(words)
        .filter(|p| !p.is_empty() && p.len() < title.len())
        .collect();
    let need = ((title.len() as f64) * 0.4).ceil().max(1.0) as usize;
    let around = |h: &NodeRef| {
        h.ancestors_it(Some(HEADLINE_LEVELS))
            .last()
            .and_then(|a| stats.get(&a.id))
            .map(|s| s.chars)
            .unwrap_or(0)
    };
    let mut best: Option<((usize, u32, bool), NodeRef)> = None;
    for h in body
        .descendants_it()
        .filter(|n| n.has_name("h1") || n.has_name("h2"))
    {
        let hw = words(&h.text());
        if hw.is_empty() || links_home(&h) {
            continue;
        }
        let common = hw.iter().filter(|w| title.contains(w)).count();
        let whole_part = || {
            parts
                .iter()
                .filter(|p| hw.len() == p.len() && hw.iter().all(|w| p.contains(w)))
                .count()
                > 0
        };
        // A match on a part ranks under every match on the whole title, and among parts
        // by the text around it (the site's name in a banner has little).
        let common = if common >= need && (common as f64) >= 0.6 * hw.len() as f64 {
            common
        } else if whole_part() {
            0
        } else {
            continue;
        };
        let key = (common, around(&h), h.has_name("h1"));
        if best.as_ref().is_none_or(|(k, _)| key > *k) {
            best = Some((key, h));
        }
    }
    best.map(|(_, h)| h)
}

/// The parts of a page title split at a separator set between spaces (`-`, `|`, `–`, `—`,
/// `:`, `·`, `»`, `::`), as sites join a headline and their name.
fn title_parts(title: &str) -> Vec<&str> {
    const SEPARATORS: [&str; 8] = [" - ", " | ", " – ", " — ", " :: ", " · ", " » ", ": "];
    let mut parts = vec![title];
    for sep in SEPARATORS {
        parts = parts.into_iter().flat_map(|p| p.split(sep)).collect();
    }
    parts
        .into_iter()
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect()
}

/// Is `h` a link to a site's home page (a logo or site name set as a heading)?
fn links_home(h: &NodeRef) -> bool {
    let link = std::iter::once(*h)
        .chain(h.ancestors_it(Some(2)))
        .chain(h.descendants_it())
        .find(|n| n.has_name("a"));
    let Some(href) = link.and_then(|a| a.attr("href")) else {
        return false;
    };
    let Ok(url) = url::Url::parse(href.trim()) else {
        return false;
    };
    let path = url.path().trim_end_matches('/');
    let home = path.is_empty()
        || path == "/home"
        || ["/index.html", "/index.htm", "/index.php"]
            .iter()
            .any(|i| path.ends_with(i));
    home && url.query().is_none() && url.fragment().is_none()
}

/// Lowercase words (runs of alphanumeric characters).
fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// Characters that are not whitespace or markdown punctuation.
pub(super) fn visible_chars(md: &str) -> usize {
    md.chars()
        .filter(|c| !c.is_whitespace() && !matches!(c, '#' | '*' | '_' | '`' | '>' | '|' | '-'))
        .count()
}
