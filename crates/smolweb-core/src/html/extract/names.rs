//! What an element's `class` and `id` say about it: site chrome (comments, share bars, related
//! links, newsletters, cookie banners, sidebars, bylines, ...) or the page's content (article
//! bodies, posts, entries, stories).
//!
//! Names are split into lowercase tokens at every non-alphanumeric character and at
//! lower-to-upper case changes (`articleBody` -> `article`, `body`). A pattern matches a token
//! that starts with it (`comment` matches `comments` and `commentlist`); the short patterns in
//! [`EXACT`] must match a whole token (`ad` must not match `header`). Site-specific names are
//! not listed: only names that many publishing systems share.

/// Chrome that is never the content, whatever else the element is called.
const CHROME: &[&str] = &[
    "comment",
    "disqus",
    "share",
    "sharing",
    "shariff",
    "social",
    "sociable",
    "addthis",
    "related",
    "newsletter",
    "subscribe",
    "subscription",
    "signup",
    "cookie",
    "consent",
    "gdpr",
    "breadcrumb",
    "pagination",
    "pager",
    "paging",
    "sidebar",
    "promo",
    "sponsor",
    "advert",
    "anzeige",
    "outbrain",
    "taboola",
    "zergnet",
    "byline",
    "tagcloud",
    "taglist",
    "keywords",
    "skiplink",
    "sronly",
    "popup",
    "modal",
    "lightbox",
    "recommend",
    "trending",
    "mostread",
    "mostpopular",
    "readmore",
    "jumplink",
    "backtotop",
    "toolbar",
    "navbar",
    "navigation",
    "footer",
    "copyright",
    "masthead",
    "banner",
    "rating",
    "affiliate",
    "navbox",
    "catlinks",
    "editsection",
    "legends",
];

/// Chrome only when small or mostly links: a print button is chrome, but sites also name the
/// article's steps and columns for their print layout (`print-full`, `tip-print-step`).
const WEAK: &[&str] = &["print"];

/// Short names that must match a whole token.
const EXACT: &[&str] = &[
    "ad",
    "ads",
    "adv",
    "tag",
    "tags",
    "nav",
    "menu",
    "meta",
    "more",
    "extra",
    "aside",
    "rss",
    "feed",
    "respond",
    "teaser",
    "author",
    "date",
    "time",
    "topics",
    "categories",
    "label",
    "labels",
    "hidden",
    "login",
    "search",
    "header",
    "top",
    "bottom",
    "foot",
    "links",
    "info",
    "postmetadata",
    "entrymeta",
    "postmeta",
    "nocontent",
    "noprint",
    "hide",
    "avatar",
];

/// Pairs of tokens that together name chrome (`sr only`, `skip link`, `author bio`, ...).
const PAIRS: &[(&str, &str)] = &[
    ("sr", "only"),
    ("screen", "reader"),
    ("visually", "hidden"),
    ("skip", "link"),
    ("skip", "to"),
    ("author", "bio"),
    ("author", "box"),
    ("about", "author"),
    ("author", "info"),
    ("post", "meta"),
    ("entry", "meta"),
    ("article", "meta"),
    ("entry", "footer"),
    ("post", "footer"),
    ("post", "tags"),
    ("more", "stories"),
    ("read", "more"),
    ("also", "read"),
    ("back", "to"),
    ("most", "read"),
    ("most", "popular"),
    // Shown only on paper (Bootstrap's `d-print-block`, `visible-print`, `print-only`).
    ("print", "only"),
    ("print", "block"),
    ("print", "inline"),
    ("visible", "print"),
];

/// Names of the content itself.
const CONTENT: &[&str] = &[
    "article", "body", "content", "entry", "hentry", "main", "post", "text", "story", "blog",
    "prose", "markdown", "document",
];

/// How strongly the names say "chrome": 0 none, 1 weak (an [`EXACT`] token), 2 strong.
pub(crate) fn chrome_level(tokens: &[String]) -> u8 {
    let strong = tokens.iter().any(|t| {
        CHROME
            .iter()
            .any(|p| t.starts_with(p) && !is_content_word(t, p))
    }) || PAIRS
        .iter()
        .any(|(a, b)| tokens.windows(2).any(|w| w[0] == *a && w[1].starts_with(b)));
    if strong {
        return 2;
    }
    u8::from(tokens.iter().any(|t| {
        EXACT.contains(&t.as_str())
            || WEAK
                .iter()
                .any(|p| t.starts_with(p) && !is_content_word(t, p))
    }))
}

/// Words that start like a chrome pattern but are not chrome (`printable`, `commentary`).
fn is_content_word(token: &str, pattern: &str) -> bool {
    match pattern {
        "print" => token.starts_with("printable"),
        "comment" => token.starts_with("commentary"),
        "rating" => token != "rating" && token != "ratings",
        "banner" => token.starts_with("bannerimage"),
        _ => false,
    }
}

/// Do the names say "content"?
pub(crate) fn is_content(tokens: &[String]) -> bool {
    tokens.iter().any(|t| {
        CONTENT
            .iter()
            .any(|c| t == c || t.starts_with(c) && t.len() <= c.len() + 2)
    })
}

/// The lowercase tokens of an element's `class` and `id`. An `id` of more than
/// [`MAX_ID_TOKENS`] tokens is a slug made from text (`sharing-with-a-single-developer`), not a
/// name, and is ignored.
pub(crate) fn tokens(class: Option<&str>, id: Option<&str>) -> Vec<String> {
    let mut out = Vec::new();
    let id = id.filter(|i| split(i).len() <= MAX_ID_TOKENS);
    for name in [class, id].into_iter().flatten() {
        out.extend(split(name));
    }
    out
}

/// Longest `id` (in tokens) read as a name.
const MAX_ID_TOKENS: usize = 3;

/// `name` cut into lowercase tokens (see the module docs).
fn split(name: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut prev_lower = false;
    for c in name.chars() {
        if !c.is_alphanumeric() {
            push(&mut out, &mut cur);
            prev_lower = false;
            continue;
        }
        if c.is_uppercase() && prev_lower {
            push(&mut out, &mut cur);
        }
        prev_lower = c.is_lowercase() || c.is_ascii_digit();
        cur.extend(c.to_lowercase());
    }
    push(&mut out, &mut cur);
    out
}

fn push(out: &mut Vec<String>, cur: &mut String) {
    if !cur.is_empty() {
        out.push(std::mem::take(cur));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn level(class: &str) -> u8 {
        chrome_level(&tokens(Some(class), None))
    }

    #[test]
    fn chrome_names() {
        for c in [
            "comments-area",
            "post-share-buttons",
            "socialShare",
            "related_posts",
            "newsletter-signup",
            "cookie-banner",
            "breadcrumbs",
            "sr-only",
            "author-bio",
            "entry-meta",
            "jp-relatedposts",
        ] {
            assert_eq!(level(c), 2, "{c}");
        }
        for c in ["ad", "tags", "nav", "meta"] {
            assert_eq!(level(c), 1, "{c}");
        }
    }

    #[test]
    fn content_names_are_not_chrome() {
        for c in [
            "entry-content",
            "article-body",
            "post",
            "shadow",
            "thread",
            "download",
            "mw-parser-output",
            "printable",
            "commentary",
            "table-responsive",
        ] {
            assert_eq!(level(c), 0, "{c}");
        }
        // Weak hints only: pruning removes such elements when they are small.
        assert_eq!(level("header-image"), 1);
        assert!(is_content(&tokens(Some("articleBody"), None)));
        assert!(is_content(&tokens(Some("entry-content"), None)));
        assert!(!is_content(&tokens(Some("sidebar"), None)));
    }

    #[test]
    fn slug_ids_are_not_names() {
        assert_eq!(
            chrome_level(&tokens(
                Some("section"),
                Some("sharing-with-a-single-developer")
            )),
            0
        );
        assert_eq!(chrome_level(&tokens(None, Some("share-bar"))), 2);
    }

    #[test]
    fn tokens_split_case_and_punctuation() {
        assert_eq!(
            tokens(Some("articleBody js-x"), Some("main_2")),
            ["article", "body", "js", "x", "main", "2"]
        );
    }
}
