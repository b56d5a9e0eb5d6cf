//! The page's own description of itself: title, byline, site name, language, description,
//! publication date, canonical URL. All of it is untrusted text from the page; it is trimmed,
//! cut to [`MAX_FIELD_CHARS`], and cleaned of invisible characters.

use super::invisible;
use dom_query::Document;

/// Longest metadata value kept, in characters.
pub(super) const MAX_FIELD_CHARS: usize = 500;

/// What a page says about itself; every field is trimmed, cut and cleaned untrusted text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Metadata {
    /// The `<title>` (else `og:title`), or the title the readability pass found.
    pub title: Option<String>,
    /// The author (`author` or `article:author` meta), else the readability byline.
    pub byline: Option<String>,
    /// The site's name (`og:site_name`), else the readability pass's.
    pub site_name: Option<String>,
    /// The language of `<html lang>`, else the readability pass's.
    pub lang: Option<String>,
    /// The description (`description`, `og:description` or `twitter:description` meta), else
    /// the readability excerpt.
    pub description: Option<String>,
    /// The publication date as the page writes it (`article:published_time`, `date` or
    /// `datePublished` meta), else the readability pass's.
    pub published_at: Option<String>,
    /// Absolute.
    pub canonical_url: Option<String>,
}

fn clean(v: Option<impl AsRef<str>>) -> Option<String> {
    let v = v?;
    let v: Vec<&str> = v.as_ref().split_whitespace().collect();
    let v = invisible::strip(&v.join(" "))
        .chars()
        .take(MAX_FIELD_CHARS)
        .collect::<String>();
    (!v.is_empty()).then_some(v)
}

fn meta_content(doc: &Document, selectors: &[&str]) -> Option<String> {
    selectors
        .iter()
        .find_map(|s| clean(doc.select(s).attr("content")))
}

/// What the `<head>` (and `<html lang>`) says, read before the page is cleaned.
pub(super) fn from_document(doc: &Document, page_url: &str) -> Metadata {
    let canonical = doc.select("link[rel~='canonical'][href]").attr("href");
    let canonical_url = canonical.and_then(|href| {
        let base = url::Url::parse(page_url).ok()?;
        let abs = crate::url::join_web(&base, &href)?;
        matches!(abs.scheme(), "http" | "https").then(|| abs.to_string())
    });
    Metadata {
        title: clean(Some(doc.select("head title").text()))
            .or_else(|| meta_content(doc, &["meta[property='og:title']"])),
        byline: meta_content(
            doc,
            &["meta[name='author']", "meta[property='article:author']"],
        ),
        site_name: meta_content(doc, &["meta[property='og:site_name']"]),
        lang: clean(doc.select("html").attr("lang")),
        description: meta_content(
            doc,
            &[
                "meta[name='description']",
                "meta[property='og:description']",
                "meta[name='twitter:description']",
            ],
        ),
        published_at: meta_content(
            doc,
            &[
                "meta[property='article:published_time']",
                "meta[name='date']",
                "meta[itemprop='datePublished']",
            ],
        ),
        canonical_url,
    }
}

impl Metadata {
    /// The metadata of a document that is not HTML (a PDF's own title and author), cleaned
    /// like a page's.
    pub fn of_document(title: Option<&str>, byline: Option<&str>) -> Metadata {
        Metadata {
            title: clean(title),
            byline: clean(byline),
            ..Metadata::default()
        }
    }

    /// Fill what is missing from what the readability pass found (its title is preferred:
    /// it drops the " | Site" tails).
    pub(crate) fn merge_readability(&mut self, r: &dom_smoothie::Metadata) {
        if let Some(t) = clean(Some(&r.title)) {
            self.title = Some(t);
        }
        fill(&mut self.byline, r.byline.as_deref());
        fill(&mut self.site_name, r.site_name.as_deref());
        fill(&mut self.lang, r.lang.as_deref());
        fill(&mut self.description, r.excerpt.as_deref());
        fill(&mut self.published_at, r.published_time.as_deref());
    }

    /// Remove invisible characters from every field (they are cleaned on the way in too; this
    /// is the last word).
    pub(crate) fn strip_invisible(&mut self) {
        for f in [
            &mut self.title,
            &mut self.byline,
            &mut self.site_name,
            &mut self.lang,
            &mut self.description,
            &mut self.published_at,
            &mut self.canonical_url,
        ] {
            if let Some(v) = f.as_mut() {
                *v = invisible::strip(v).into_owned();
            }
        }
    }
}

fn fill(slot: &mut Option<String>, value: Option<&str>) {
    if slot.is_none() {
        *slot = clean(value);
    }
}
