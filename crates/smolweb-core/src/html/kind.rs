//! What a page is ([`PageType`]): an article, a forum thread, a product, a collection of
//! products, a listing, documentation, a service page, or none of these. Read from what the
//! page declares (schema.org types in its JSON-LD, `og:type`), then from its URL's path, then
//! from its shape (code blocks, prices, repeated posts); the first that speaks decides.
//!
//! The guess is cheap (one pass over the elements, JSON-LD of bounded size) and never decisive
//! for extraction: it tells the reader and the agent what kind of text to expect, and feeds
//! [`super::quality`].

use dom_query::Document;
use serde_json::Value;

/// What kind of page this is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PageType {
    /// A news story, a blog post, an essay, a recipe, a how-to.
    Article,
    /// A thread of posts: a forum topic, a Q&A page, a discussion.
    Forum,
    /// One product for sale.
    Product,
    /// A category of products or things (a shop's grid).
    Collection,
    /// A list of entries that lead elsewhere: a blog or news index, search results, a chart.
    Listing,
    /// Documentation: a manual's page, an API reference, a tutorial of a tool.
    Documentation,
    /// A page about an offer of a business or an institution (a service, a course, pricing).
    Service,
    /// None of the above could be told.
    #[default]
    Other,
}

impl PageType {
    /// Every page type, in the order the faces list them.
    pub const ALL: [PageType; 8] = [
        PageType::Article,
        PageType::Forum,
        PageType::Product,
        PageType::Collection,
        PageType::Listing,
        PageType::Documentation,
        PageType::Service,
        PageType::Other,
    ];

    /// The type's name: `article`, `forum`, `product`, `collection`, `listing`,
    /// `documentation`, `service` or `other`.
    pub fn as_str(self) -> &'static str {
        match self {
            PageType::Article => "article",
            PageType::Forum => "forum",
            PageType::Product => "product",
            PageType::Collection => "collection",
            PageType::Listing => "listing",
            PageType::Documentation => "documentation",
            PageType::Service => "service",
            PageType::Other => "other",
        }
    }
}

/// How deep JSON-LD is searched for `@type`s.
const MAX_DEPTH: usize = 8;

/// The page's type, from the sanitized `doc` (its JSON-LD scripts still in it) and its URL.
pub(super) fn classify(doc: &Document, page_url: &str) -> PageType {
    let mut types = Vec::new();
    for value in super::extract::ld_values(doc) {
        collect_types(&value, 0, &mut types);
    }
    if let Some(t) = from_declared(&types) {
        return t;
    }
    let og = doc
        .select("meta[property='og:type']")
        .attr("content")
        .map(|c| c.trim().to_ascii_lowercase());
    if og.as_deref() == Some("product") || og.as_deref().is_some_and(|o| o.starts_with("product."))
    {
        return PageType::Product;
    }
    if let Some(t) = from_path(page_url) {
        return t;
    }
    let shape = Shape::of(doc);
    if let Some(t) = shape.verdict() {
        return t;
    }
    if og.as_deref() == Some("article") || types.iter().any(|t| t.ends_with("article")) {
        return PageType::Article;
    }
    PageType::Other
}

/// Every `@type` under `value`, lowercased.
fn collect_types(value: &Value, depth: usize, out: &mut Vec<String>) {
    if depth > MAX_DEPTH || out.len() > 64 {
        return;
    }
    match value {
        Value::Array(items) => {
            for v in items {
                collect_types(v, depth + 1, out);
            }
        }
        Value::Object(map) => {
            match map.get("@type") {
                Some(Value::String(t)) => out.push(t.to_ascii_lowercase()),
                Some(Value::Array(ts)) => out.extend(
                    ts.iter()
                        .filter_map(Value::as_str)
                        .map(str::to_ascii_lowercase),
                ),
                _ => {}
            }
            for (k, v) in map {
                if k != "@type" && (v.is_object() || v.is_array()) {
                    collect_types(v, depth + 1, out);
                }
            }
        }
        _ => {}
    }
}

/// What the declared schema.org types say, strongest first.
fn from_declared(types: &[String]) -> Option<PageType> {
    let has = |names: &[&str]| types.iter().any(|t| names.contains(&t.as_str()));
    if has(&[
        "discussionforumposting",
        "qapage",
        "socialmediaposting",
        "question",
    ]) {
        return Some(PageType::Forum);
    }
    if has(&["product", "productgroup", "individualproduct"]) && !has(&["itemlist"]) {
        return Some(PageType::Product);
    }
    if has(&["techarticle", "apireference", "softwaresourcecode"]) {
        return Some(PageType::Documentation);
    }
    if has(&[
        "newsarticle",
        "blogposting",
        "reportagenewsarticle",
        "recipe",
    ]) {
        return Some(PageType::Article);
    }
    if has(&["searchresultspage"]) {
        return Some(PageType::Listing);
    }
    if has(&["collectionpage", "offercatalog"]) && has(&["product", "offer"]) {
        return Some(PageType::Collection);
    }
    None
}

/// Path segments that name a kind of page, for the segment itself (`/forum/...`) or the
/// start of one (`/threads/...`).
const PATH_WORDS: &[(&str, PageType)] = &[
    ("threads", PageType::Forum),
    ("thread", PageType::Forum),
    ("forum", PageType::Forum),
    ("forums", PageType::Forum),
    ("t", PageType::Forum),
    ("topic", PageType::Forum),
    ("viewtopic.php", PageType::Forum),
    ("showthread.php", PageType::Forum),
    ("questions", PageType::Forum),
    ("discussion", PageType::Forum),
    ("comments", PageType::Forum),
    ("docs", PageType::Documentation),
    ("doc", PageType::Documentation),
    ("documentation", PageType::Documentation),
    ("manual", PageType::Documentation),
    ("reference", PageType::Documentation),
    ("library", PageType::Documentation),
    ("userguide", PageType::Documentation),
    ("usersguide", PageType::Documentation),
    ("tutorial", PageType::Documentation),
    ("wiki", PageType::Documentation),
    ("product", PageType::Product),
    ("products", PageType::Product),
    ("p", PageType::Product),
    ("dp", PageType::Product),
    ("itm", PageType::Product),
    ("ip", PageType::Product),
    ("collections", PageType::Collection),
    ("collection", PageType::Collection),
    ("category", PageType::Collection),
    ("c", PageType::Collection),
    ("cat", PageType::Collection),
    ("b", PageType::Collection),
    ("services", PageType::Service),
    ("service", PageType::Service),
    ("solutions", PageType::Service),
    ("pricing", PageType::Service),
    ("features", PageType::Service),
    ("feature", PageType::Service),
    ("programs", PageType::Service),
    ("courses", PageType::Service),
    ("blog", PageType::Article),
    ("news", PageType::Article),
    ("post", PageType::Article),
    ("articles", PageType::Article),
    ("article", PageType::Article),
];

/// What the URL's path says. The last segment of an index (`/news`, `/blog/`, `/`) is a
/// listing; a word followed by more segments names the page under it.
fn from_path(page_url: &str) -> Option<PageType> {
    let url = url::Url::parse(page_url).ok()?;
    let segments: Vec<String> = url
        .path_segments()
        .map(|s| {
            s.filter(|x| !x.is_empty())
                .map(|x| x.to_ascii_lowercase())
                .collect()
        })
        .unwrap_or_default();
    if segments.is_empty() {
        return Some(PageType::Listing);
    }
    // A dated path (`/2025/09/04/slug`) is a story.
    let year = |s: &String| s.len() == 4 && s.starts_with("20") && s.parse::<u32>().is_ok();
    if segments.iter().take(3).any(year) && segments.len() >= 2 {
        return Some(PageType::Article);
    }
    let last = segments.len() - 1;
    for (i, seg) in segments.iter().enumerate() {
        let Some((_, t)) = PATH_WORDS.iter().find(|(w, _)| w == seg) else {
            continue;
        };
        return Some(match (t, i == last) {
            // `/blog`, `/news`, `/category/x` with nothing under: an index.
            (PageType::Article, true) => PageType::Listing,
            (PageType::Forum, true) if seg.ends_with(".php") => PageType::Forum,
            (PageType::Forum, true) => PageType::Listing,
            (t, _) => *t,
        });
    }
    None
}

/// Counts that tell page types apart by their shape.
#[derive(Default)]
struct Shape {
    chars: usize,
    pre: usize,
    code: usize,
    prices: usize,
    cart: bool,
    articles: usize,
    posts: usize,
}

impl Shape {
    fn of(doc: &Document) -> Shape {
        let mut s = Shape::default();
        let Some(body) = doc.body() else {
            return s;
        };
        for node in body.descendants_it() {
            if node.is_text() {
                let t = node.text();
                s.chars += t.len();
                s.prices += prices(&t);
                continue;
            }
            if !node.is_element() {
                continue;
            }
            match node.node_name().as_deref() {
                Some("pre") => s.pre += 1,
                Some("code") => s.code += 1,
                Some("article") => s.articles += 1,
                Some("button" | "input") if !s.cart => {
                    let label = node
                        .attr("value")
                        .map(|v| v.to_string())
                        .unwrap_or_else(|| node.text().to_string())
                        .to_lowercase();
                    s.cart = ["add to cart", "add to bag", "add to basket", "buy now"]
                        .iter()
                        .any(|w| label.contains(w));
                }
                _ => {}
            }
            let class = node.attr("class");
            let id = node.attr("id");
            let tokens = super::extract::name_tokens(class.as_deref(), id.as_deref());
            if tokens
                .iter()
                .any(|t| matches!(t.as_str(), "message" | "answer"))
            {
                s.posts += 1;
            }
        }
        s
    }

    fn verdict(&self) -> Option<PageType> {
        if self.cart && self.prices >= 1 && self.prices <= 6 {
            return Some(PageType::Product);
        }
        if self.prices >= 8 {
            return Some(PageType::Collection);
        }
        if self.posts >= 4 {
            return Some(PageType::Forum);
        }
        if self.pre >= 2 || self.code >= 8 {
            return Some(PageType::Documentation);
        }
        if self.articles >= 4 {
            return Some(PageType::Listing);
        }
        None
    }
}

/// Prices in `text`: a currency sign next to a digit.
fn prices(text: &str) -> usize {
    let chars: Vec<char> = text.chars().collect();
    chars
        .windows(2)
        .filter(|w| matches!(w[0], '$' | '€' | '£' | '¥') && w[1].is_ascii_digit())
        .count()
}
