//! Picture credits at the end of a caption ("The harbour at dawn. Photo: A. Brook",
//! "… | © Agency"): the caption is the article's, the credit is not text a reader reads on.
//!
//! A caption is a `figcaption`, or an element named as one (`wp-caption-text`,
//! `image-caption`), of at most [`CAPTION_CHARS`] characters. Its credit starts at the last
//! credit marker ([`MARKERS`]) that leaves at most [`CREDIT_CHARS`] characters after it and some
//! caption before it; a caption that is all credit is a label, which `clean::tidy` removes
//! whole. The text from the marker on is cut, with the separator before it.

use super::names;
use dom_query::NodeRef;

/// Longest caption looked at (characters).
const CAPTION_CHARS: usize = 600;
/// Longest credit (characters from its marker to the end of the caption).
const CREDIT_CHARS: usize = 100;

/// What a credit starts with (lowercase), in the languages of the pages we read most; also
/// what a label standing alone starts with when it is a credit (`clean::tidy`).
pub(crate) const MARKERS: &[&str] = &[
    "photo:",
    "photos:",
    "photograph:",
    "photo credit",
    "picture:",
    "image:",
    "images:",
    "credit:",
    "credits:",
    "source:",
    "copyright",
    "©",
    "(c) ",
    "foto:",
    "fotos:",
    "bild:",
    "bilder:",
    "quelle:",
    "bildquelle:",
    "imagen:",
    "crédito:",
    "créditos:",
    "fuente:",
    "fonte:",
    "crédit:",
    "crédits:",
    "źródło:",
    "fot.",
];

/// Words that may stand before a `©` and name the credit ("Foto © …").
const CREDIT_WORDS: &[&str] = &["foto", "fotos", "photo", "photos", "bild", "image"];

/// `text` without the separators and spaces that end it.
fn trim_separators(text: &str) -> &str {
    text.trim_end_matches(|c: char| {
        c.is_whitespace() || matches!(c, '|' | '/' | '(' | '[' | '–' | '-' | '·' | ',')
    })
}

/// Is `node` a caption (by its tag or its names)?
fn is_caption(node: &NodeRef) -> bool {
    if node.has_name("figcaption") {
        return true;
    }
    let class = node.attr("class");
    let id = node.attr("id");
    names::tokens(class.as_deref(), id.as_deref())
        .iter()
        .any(|t| t.starts_with("caption"))
}

/// Where the credit of `text` starts (a byte offset), if it has one.
fn credit_start(text: &str) -> Option<usize> {
    let lower = text.to_lowercase();
    // Lowercasing keeps byte offsets only where it keeps lengths; otherwise leave it be.
    if lower.len() != text.len() {
        return None;
    }
    let mut best: Option<usize> = None;
    for m in MARKERS {
        let mut from = 0;
        while let Some(i) = lower[from..].find(m) {
            let at = from + i;
            // A credit follows the caption's end: a sentence's end, a bracket or a separator
            // ("… at dawn. Photo: …", "… (Source: …)", "… | © …"); a `©` may follow a word.
            let prev = lower[..at].trim_end().chars().next_back();
            let follows_end = *m == "©"
                || prev.is_some_and(|c| {
                    matches!(
                        c,
                        '.' | '!' | '?' | '(' | '[' | '|' | '/' | '–' | '-' | ',' | ';'
                    )
                });
            let after = text[at..].chars().count();
            let before = text[..at].trim().chars().count();
            if follows_end && after <= CREDIT_CHARS && before > 0 {
                best = Some(best.map_or(at, |b| b.min(at)));
            }
            from = at + m.len();
        }
    }
    best
}

/// Cut the credits at the end of the captions under `root`.
pub(crate) fn strip(root: &NodeRef) {
    let captions: Vec<NodeRef> = std::iter::once(*root)
        .chain(root.descendants_it())
        .filter(|n| n.is_element() && is_caption(n))
        .collect();
    for caption in captions {
        strip_one(&caption);
    }
}

fn strip_one(caption: &NodeRef) {
    let texts: Vec<NodeRef> = caption.descendants_it().filter(|n| n.is_text()).collect();
    let whole: String = texts.iter().map(|t| t.text().to_string()).collect();
    if whole.chars().count() > CAPTION_CHARS {
        return;
    }
    let Some(mut at) = credit_start(&whole) else {
        return;
    };
    // The text node the credit starts in, and the offset in it.
    let mut cut: Option<(NodeRef, usize)> = None;
    for t in &texts {
        let len = t.text().len();
        if at <= len {
            cut = Some((*t, at));
            break;
        }
        at -= len;
    }
    let Some((node, offset)) = cut else {
        return;
    };
    let text = node.text();
    let mut kept = trim_separators(&text[..offset]);
    // "… Foto © Name": the word that names the credit goes with it.
    for word in CREDIT_WORDS {
        let lower = kept.to_lowercase();
        if lower.len() == kept.len()
            && lower.ends_with(word)
            && lower[..lower.len() - word.len()]
                .chars()
                .next_back()
                .is_none_or(char::is_whitespace)
        {
            kept = trim_separators(&kept[..kept.len() - word.len()]);
        }
    }
    node.set_text(kept.to_string());
    // Everything after it in the caption goes.
    let mut cur = node;
    while cur.id != caption.id {
        let mut next = cur.next_sibling();
        while let Some(n) = next {
            next = n.next_sibling();
            n.remove_from_parent();
        }
        match cur.parent() {
            Some(p) => cur = p,
            None => break,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dom_query::Document;

    fn stripped(html: &str) -> String {
        let doc = Document::from(html);
        let body = doc.body().unwrap();
        strip(&body);
        body.text().trim().to_string()
    }

    #[test]
    fn credits_at_the_end_of_captions_go() {
        for (caption, want) in [
            (
                "<figcaption>The harbour at dawn. Photo: Ada Brook</figcaption>",
                "The harbour at dawn.",
            ),
            (
                "<figcaption>Die Starter beim Masters. | &copy; Kevin Cox/Getty Images</figcaption>",
                "Die Starter beim Masters.",
            ),
            (
                "<figcaption>Das FWR reagiert mit Entsetzen. (Quelle: Fleischmann/Unsplash)</figcaption>",
                "Das FWR reagiert mit Entsetzen.",
            ),
            (
                "<div class=\"wp-caption-text\">Puerto de Montevideo. <em>Foto: Archivo</em></div>",
                "Puerto de Montevideo.",
            ),
        ] {
            assert_eq!(
                stripped(&format!("<html><body>{caption}</body></html>")),
                want
            );
        }
    }

    #[test]
    fn captions_without_credits_and_prose_stay() {
        for caption in [
            "<figcaption>The photo: a boat at the quay, waiting for the tide.</figcaption>",
            "<figcaption>Photo: Ada Brook</figcaption>",
            "<p>The source: a letter found in the archive. Photo: none was taken.</p>",
        ] {
            let html = format!("<html><body>{caption}</body></html>");
            let before = Document::from(html.as_str())
                .body()
                .unwrap()
                .text()
                .trim()
                .to_string();
            assert_eq!(stripped(&html), before, "{caption}");
        }
    }
}
