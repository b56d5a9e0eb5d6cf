//! The article body a page declares in its JSON-LD (`articleBody` of a schema.org `Article`,
//! `NewsArticle`, `BlogPosting`...): the text of a page that builds its article with
//! JavaScript, so that its HTML holds only the site around an empty slot, and a check on the
//! block the scorer chose. The declared body is used only when it is long and the chosen block
//! holds little of it ([`replaces`]): it is plain text, so the page's own markup (links,
//! headings, lists) is worth keeping whenever the page shows its article.
//!
//! A body whose object says `"isAccessibleForFree": false` is not read: the publisher shows a
//! teaser and sells the rest, and smolweb reads what the page shows.
//!
//! The body is untrusted page text that no reader sees on the page as sent: paragraphs that
//! address an AI are dropped, as in hidden elements ([`super::super::sanitize`]).

use dom_query::Document;
use serde_json::Value;
use std::collections::HashSet;

/// A JSON-LD script larger than this (bytes) is not read.
const MAX_SCRIPT_BYTES: usize = 2 << 20;
/// How deep the JSON is searched for an `articleBody`.
const MAX_DEPTH: usize = 12;
/// A declared body under this many characters is not trusted to be the whole article.
const MIN_BODY_CHARS: usize = 500;
/// The chosen block holding less than this share of the declared body's 4-word shingles
/// has missed the article.
const MIN_COVERAGE: f64 = 0.4;

/// The longest `articleBody` of the page's JSON-LD, as paragraphs of plain text.
pub(super) fn article_body(doc: &Document) -> Option<Vec<String>> {
    let mut best: Option<String> = None;
    for script in doc.select("script[type]").nodes() {
        let is_ld = script
            .attr("type")
            .is_some_and(|t| t.to_ascii_lowercase().contains("ld+json"));
        if !is_ld {
            continue;
        }
        let text = script.text();
        if text.len() > MAX_SCRIPT_BYTES {
            continue;
        }
        let Ok(value) = serde_json::from_str::<Value>(&text) else {
            continue;
        };
        find(&value, 0, &mut best);
    }
    let body = best?;
    let paragraphs: Vec<String> = paragraphs(&body)
        .into_iter()
        .filter(|p| !super::super::sanitize::addresses_ai(p))
        .collect();
    let chars: usize = paragraphs.iter().map(|p| p.chars().count()).sum();
    (chars >= MIN_BODY_CHARS).then_some(paragraphs)
}

/// Keep the longest `articleBody` string found under `value` in `best`.
fn find(value: &Value, depth: usize, best: &mut Option<String>) {
    if depth > MAX_DEPTH {
        return;
    }
    match value {
        Value::Object(map) => {
            // A body the publisher marks as paid for is not read: the page shows a teaser.
            let paid = map.get("isAccessibleForFree").is_some_and(|v| match v {
                Value::Bool(b) => !b,
                Value::String(s) => s.trim().eq_ignore_ascii_case("false"),
                _ => false,
            });
            if paid {
                return;
            }
            for (key, v) in map {
                match v {
                    Value::String(s) if key == "articleBody" => {
                        if best.as_ref().is_none_or(|b| b.len() < s.len()) {
                            *best = Some(s.clone());
                        }
                    }
                    _ => find(v, depth + 1, best),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|v| find(v, depth + 1, best)),
        _ => {}
    }
}

/// The body's paragraphs: lines of text, or, when it is HTML (or holds character references),
/// its blocks' text; whitespace
/// collapsed, empty ones dropped.
fn paragraphs(body: &str) -> Vec<String> {
    let text = if body.contains(['<', '&']) {
        let doc = Document::fragment(body);
        for block in doc
            .select("p, br, div, li, h1, h2, h3, h4, h5, h6, blockquote")
            .nodes()
        {
            block.prepend_html("\n");
            block.append_html("\n");
        }
        doc.root().text().to_string()
    } else {
        body.to_string()
    };
    text.lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|l| !l.is_empty())
        .collect()
}

/// Word tokens (runs of alphanumeric characters), lowercase.
fn tokens(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|t| !t.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// Should the declared body replace `chosen` (the extracted markdown)? When `chosen` holds
/// under [`MIN_COVERAGE`] of the body's 4-word shingles.
pub(super) fn replaces(body: &[String], chosen: &str) -> bool {
    let body_tokens = tokens(&body.join("\n"));
    let shingles: Vec<&[String]> = body_tokens.windows(4).collect();
    if shingles.is_empty() {
        return false;
    }
    let chosen_tokens = tokens(chosen);
    let have: HashSet<&[String]> = chosen_tokens.windows(4).collect();
    let found = shingles.iter().filter(|s| have.contains(*s)).count();
    (found as f64) < MIN_COVERAGE * shingles.len() as f64
}

/// The markdown of the declared body under the page's headline.
pub(super) fn markdown(headline: Option<&str>, body: &[String]) -> String {
    let mut out = String::new();
    if let Some(h) = headline.map(str::trim).filter(|h| !h.is_empty()) {
        out.push_str("# ");
        out.push_str(&h.split_whitespace().collect::<Vec<_>>().join(" "));
        out.push_str("\n\n");
    }
    for p in body {
        out.push_str(&escape(p));
        out.push_str("\n\n");
    }
    out.truncate(out.trim_end().len());
    out.push('\n');
    out
}

/// A line of plain text made safe as a markdown paragraph: a leading marker (`#`, `>`, `-`,
/// `*`, `+`, a number and a dot, a fence) would make it a heading, quote, list or code.
fn escape(line: &str) -> String {
    let starts_marker = line.starts_with(['#', '>', '-', '*', '+', '`', '='])
        || line
            .split_once(['.', ')'])
            .is_some_and(|(n, _)| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()));
    if starts_marker {
        format!("\\{line}")
    } else {
        line.to_string()
    }
}
