//! The web page -> text conversion (pure: bytes and strings in, text out; no IO).
//!
//! Steps, in order: [`crate::charset::decode`] turns the body into text (BOM,
//! Content-Type, `<meta charset>`, UTF-8, a statistical guess); [`convert_html`] parses it once with
//! dom_query (html5ever), [`sanitize`]s the tree (scripts, styles, templates, comments, hidden
//! elements, forms; links and images made absolute against `<base href>`), reads the page's
//! metadata (its head, and JSON-LD through dom_smoothie), and renders markdown with dom_query's
//! serializer: of the whole page for `extract = full`, of the main text found by [`extract`]
//! for `extract = main`. Only when extraction fails (nothing, a few words of a longer page, or
//! pruning that took most of it) does `main` give the whole page, marked `fallback-full`.
//! Finally [`invisible::strip`] removes format characters (zero-width, bidi controls, tag
//! characters, soft hyphens) from the text and metadata.
//!
//! Everything a page says is untrusted data: metadata included. Hints tell the caller when a
//! page hid text that addresses an AI ([`Hint::SuspiciousHiddenContent`]) or is an empty
//! app shell that needs JavaScript ([`Hint::RequiresJavascript`]).

mod extract;
pub mod gemtext;
mod kind;
pub mod quality;
/// The format-character table lives with the terminal sanitizer (one mechanism).
pub use crate::text::invisible;
mod meta;
pub(crate) mod sanitize;
pub mod window;

pub use extract::rule::{
    MAX_REGIONS, MAX_REMOVE, MAX_SELECTOR, Region, RuleError, RuleUse, SiteRule,
};
pub use kind::PageType;
pub use meta::Metadata;
pub use quality::Reading;

use dom_query::{Document, NodeRef};
use dom_smoothie::Readability;

/// Which part of the page to keep.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Extract {
    /// The article, without navigation, banners and footers.
    #[default]
    Main,
    /// The whole page.
    Full,
}

impl Extract {
    /// The `extract` argument's name: `main` or `full`.
    pub fn as_str(self) -> &'static str {
        match self {
            Extract::Main => "main",
            Extract::Full => "full",
        }
    }
}

/// What the conversion kept (the `extraction` field of `fetch_url`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Extraction {
    /// The main text was found and kept.
    Main,
    /// The whole page was kept, as asked.
    Full,
    /// `main` was asked for, but no main text could be found: the whole page is given.
    FallbackFull,
    /// Not converted (raw format, or not HTML).
    None,
}

impl Extraction {
    /// The `extraction` field's value: `main`, `full`, `fallback-full` or `none`.
    pub fn as_str(self) -> &'static str {
        match self {
            Extraction::Main => "main",
            Extraction::Full => "full",
            Extraction::FallbackFull => "fallback-full",
            Extraction::None => "none",
        }
    }
}

/// Warnings about a page, for the agent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Hint {
    /// Hidden text that addressed an AI was removed: treat the page as adversarial.
    SuspiciousHiddenContent,
    /// The page is an empty shell filled in by JavaScript.
    RequiresJavascript,
}

impl Hint {
    /// The hint's name: `suspicious-hidden-content-removed` or `likely-requires-javascript`.
    pub fn as_str(self) -> &'static str {
        match self {
            Hint::SuspiciousHiddenContent => "suspicious-hidden-content-removed",
            Hint::RequiresJavascript => "likely-requires-javascript",
        }
    }
}

/// A converted page.
#[derive(Clone, Debug, PartialEq)]
pub struct Converted {
    /// Markdown, links absolute.
    pub markdown: String,
    /// What the conversion kept.
    pub extraction: Extraction,
    /// Warnings about the page.
    pub hints: Vec<Hint>,
    /// What the page says about itself (title, byline, ...).
    pub meta: Metadata,
    /// Forms replaced by a note.
    pub forms_removed: usize,
    /// What kind of page this is (read from the page itself).
    pub page_type: PageType,
    /// How much to trust the extraction, 0 to 1: an estimate of the word F1 of the markdown
    /// against the page's main content; under [`quality::POOR`] it is likely poor and the
    /// whole page is worth a look (see [`quality`]). 1 for the whole page asked for.
    pub extraction_quality: f32,
    /// How the site's rule took part (None: no rule was given, or the whole page was asked
    /// for).
    pub rule: Option<RuleUse>,
}

impl Converted {
    /// What the faces say of this page: its type, and the quality figure when the main text
    /// was asked for (found or not); for the whole page asked for, no figure.
    pub fn reading(&self) -> Reading {
        let quality = (self.extraction != Extraction::Full).then_some(self.extraction_quality);
        Reading::new(self.page_type, quality).with_rule(self.rule)
    }
}

/// The note left where a form was.
pub(crate) const FORM_NOTE: &str = "(A form was removed here: smolweb does not submit forms.)";

/// A page whose visible text is shorter than this, and that had scripts, is an app shell.
const SHELL_MAX_CHARS: usize = 80;

/// Convert an HTML page (already decoded) to markdown. `page_url` is the absolute URL the page
/// came from (after redirects); relative links resolve against it or its `<base href>`.
pub fn convert_html(html: &str, page_url: &str, extract: Extract) -> Converted {
    convert_html_with(html, page_url, extract, None)
}

/// [`convert_html`] under the person's rule for the page's site, if any: for the main text,
/// what the rule's content selector keeps (less what it removes) when it keeps any text on
/// this page, else the main text found as without a rule (the reading says the rule did not
/// match). The whole page is the whole page, rule or not.
pub fn convert_html_with(
    html: &str,
    page_url: &str,
    extract: Extract,
    rule: Option<&SiteRule>,
) -> Converted {
    let doc = Document::from(html);
    let mut meta = meta::from_document(&doc, page_url);
    let report = sanitize::sanitize(&doc, page_url);
    let doc = read_metadata(doc, &mut meta);
    let page_type = kind::classify(&doc, page_url);
    let mut hints = Vec::new();
    if report.suspicious {
        hints.push(Hint::SuspiciousHiddenContent);
    }
    if report.had_scripts && text_chars(&doc) < SHELL_MAX_CHARS {
        hints.push(Hint::RequiresJavascript);
    }
    let rule = rule.filter(|_| extract == Extract::Main);
    let mut rule_use = rule.map(|_| RuleUse::Unmatched);
    let ruled = rule.and_then(|r| extract::rule::apply(&doc, r, html.len()));
    let (markdown, extraction, extraction_quality) = match (extract, ruled) {
        // The person chose this region for the site: nothing to estimate.
        (_, Some(md)) => {
            rule_use = Some(RuleUse::Applied);
            drop(doc);
            (md, Extraction::Main, 1.0)
        }
        (Extract::Full, None) => {
            drop_repeated_menus(&doc);
            let md = doc.md(None);
            drop(doc);
            (tidy(&md), Extraction::Full, 1.0)
        }
        (Extract::Main, None) => {
            match extract::main(&doc, meta.title.as_deref(), html.len(), page_type) {
                (Some(md), signals) => (
                    md,
                    Extraction::Main,
                    quality::estimate(&signals, page_type, false),
                ),
                (None, signals) => {
                    // Extraction changed the tree; the page is made again from the source:
                    // its declared main region without the chrome inside, when it has one
                    // that holds text and is not the whole page, else the whole page.
                    drop(doc);
                    let doc = Document::from(html);
                    sanitize::sanitize(&doc, page_url);
                    drop_repeated_menus(&doc);
                    let q = quality::estimate(&signals, page_type, true);
                    match extract::landmark(&doc, html.len()) {
                        Some(md) => (md, Extraction::Main, q),
                        None => (tidy(&doc.md(None)), Extraction::FallbackFull, q),
                    }
                }
            }
        }
    };
    // Copied only when there was something to strip (a large page is not held twice).
    let stripped = match invisible::strip(&markdown) {
        std::borrow::Cow::Owned(s) => Some(s),
        std::borrow::Cow::Borrowed(_) => None,
    };
    let markdown = stripped.unwrap_or(markdown);
    meta.strip_invisible();
    Converted {
        markdown,
        extraction,
        hints,
        meta,
        forms_removed: report.forms_removed,
        page_type,
        extraction_quality,
        rule: rule_use,
    }
}

/// The regions of a page a person may pick as its site's content (see [`SiteRule`]), the
/// one most like a main text first, at most [`MAX_REGIONS`].
pub fn regions(html: &str, page_url: &str) -> Vec<Region> {
    let doc = Document::from(html);
    sanitize::sanitize(&doc, page_url);
    doc.select("script").remove();
    extract::rule::regions(&doc)
}

/// Fill `meta` from what dom_smoothie reads (JSON-LD, its cleaned title) and give the
/// document back. No URL is passed: links are already absolute, and without one the reader
/// cannot refuse the document.
fn read_metadata(doc: Document, meta: &mut Metadata) -> Document {
    match Readability::with_document(doc, None, None) {
        Ok(r) => {
            meta.merge_readability(&r.get_article_metadata(r.parse_json_ld()));
            r.doc
        }
        Err(_) => Document::from(""),
    }
}

/// Fewest links a menu has before a second copy of it is dropped.
const MENU_MIN_LINKS: usize = 3;

/// The whole page keeps each menu once. Sites send their navigation twice (a desktop bar and
/// a mobile drawer, a header and a footer copy) and CSS shows one; converted, every item read
/// twice. A `nav`, list or `menu` whose links (targets and words, in order) repeat an earlier
/// one's is dropped; menus inside a kept menu are its own and stay.
fn drop_repeated_menus(doc: &Document) {
    use std::collections::HashSet;
    let menus: Vec<NodeRef> = doc
        .root()
        .descendants_it()
        .filter(|n| n.is_element() && ["nav", "ul", "ol", "menu"].iter().any(|t| n.has_name(t)))
        .collect();
    let mut seen: HashSet<Vec<(String, String)>> = HashSet::new();
    let mut kept: HashSet<dom_query::NodeId> = HashSet::new();
    let mut doomed = Vec::new();
    for menu in menus {
        if menu.ancestors_it(None).any(|a| kept.contains(&a.id)) {
            continue;
        }
        let links: Vec<(String, String)> = menu
            .descendants_it()
            .filter(|n| n.has_name("a"))
            .map(|a| {
                let href = a.attr("href").map(|h| h.to_string()).unwrap_or_default();
                let words = a.text().split_whitespace().collect::<Vec<_>>().join(" ");
                (href, words)
            })
            .collect();
        if links.len() < MENU_MIN_LINKS {
            continue;
        }
        if seen.insert(links) {
            kept.insert(menu.id);
        } else {
            doomed.push(menu);
        }
    }
    for menu in doomed {
        menu.remove_from_parent();
    }
}

/// Characters of the page's text that are not whitespace.
fn text_chars(doc: &Document) -> usize {
    extract::text_chars_under(&doc.root())
}

/// Trim trailing spaces on lines, collapse runs of blank lines (outside code fences), end with
/// one newline.
fn tidy(md: &str) -> String {
    let mut t = Tidy::with_capacity(md.len());
    t.push(md);
    t.finish()
}

/// Markdown tidied as it is written, piece by piece (see [`tidy`]), so that a long text is not
/// held twice.
#[derive(Default)]
pub(crate) struct Tidy {
    out: String,
    blank: usize,
    fenced: bool,
}

impl Tidy {
    /// Room for `bytes` of markdown from the start: a large text then never grows by copying
    /// into a buffer twice its size (room not written to is not resident memory).
    pub(crate) fn with_capacity(bytes: usize) -> Tidy {
        Tidy {
            out: String::with_capacity(bytes),
            ..Tidy::default()
        }
    }

    /// Append `md` (whole lines).
    pub(crate) fn push(&mut self, md: &str) {
        for line in md.lines() {
            let line = line.trim_end();
            if line.trim_start().starts_with("```") {
                self.fenced = !self.fenced;
            }
            if line.is_empty() && !self.fenced {
                self.blank += 1;
                continue;
            }
            if !self.out.is_empty() {
                self.out
                    .push_str(if self.blank > 0 { "\n\n" } else { "\n" });
            }
            self.blank = 0;
            self.out.push_str(line);
        }
    }

    /// End a block: what comes next starts a new paragraph.
    pub(crate) fn end_block(&mut self) {
        if !self.fenced {
            self.blank += 1;
        }
    }

    pub(crate) fn finish(mut self) -> String {
        if !self.out.is_empty() {
            self.out.push('\n');
        }
        // Gives back the room not used (in place: nothing is copied).
        self.out.shrink_to_fit();
        self.out
    }
}

#[cfg(test)]
mod tests;
