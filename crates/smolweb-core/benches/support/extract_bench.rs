//! The extraction bench's data and metric (benches/extract/, see its README.md).
//!
//! Pages come from `benches/extract/manifest.tsv`: one row per page, naming its source, kind
//! (`article` or a kind of non-article page), split (`dev` or `holdout`), URL, HTML file
//! (`.gz` or plain) and expected text (`.txt`, or `.html[.gz]` whose text is used).
//!
//! The metric is shingle F1, as the standard article-extraction benchmarks compute it: tokens
//! are runs of word characters (`\w+`: alphanumeric or `_`, case kept), shingles are the
//! 4-grams of consecutive tokens (a text of fewer than four tokens is one shingle), counted as a
//! multiset, so repeated text is paid for. Per page, precision is the shared shingles over the
//! predicted ones and recall the shared ones over the expected ones; F1 is their harmonic mean;
//! means are taken over pages. Markdown is scored as the text a reader sees: link targets and
//! image sources and alt text are not words of the page.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};

/// One bench page.
pub(crate) struct Page {
    pub(crate) source: String,
    pub(crate) id: String,
    pub(crate) kind: String,
    pub(crate) split: String,
    pub(crate) url: String,
    /// The body as served (bytes; decoded by the caller as `fetch_url` would).
    pub(crate) html: Vec<u8>,
    /// The expected text.
    pub(crate) expected: String,
    /// The expected text was written as text (by hand), not taken from an extractor's HTML.
    pub(crate) expected_path_is_text: bool,
    /// How the page is scored.
    pub(crate) metric: Metric,
}

/// How a page's text is scored against the expected one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Metric {
    /// Shingle F1 (this file's [`score`]): the bench's own sources.
    Shingle,
    /// Word F1 as the WCXB benchmark scores it (`wcxb::word_score`).
    Word,
}

impl Page {
    pub(crate) fn is_article(&self) -> bool {
        self.kind == "article"
    }
}

/// The bench directory: benches/extract in the crate, or `SMOLWEB_EXTRACT_BENCH_DIR` (a folder
/// with a `manifest.tsv` of the same shape, to score pages of your own).
pub(crate) fn bench_dir() -> PathBuf {
    match std::env::var_os("SMOLWEB_EXTRACT_BENCH_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/extract"),
    }
}

fn read_maybe_gz(path: &Path) -> Vec<u8> {
    let raw = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    if path.extension().is_some_and(|e| e == "gz") {
        let mut out = Vec::new();
        flate2::read::GzDecoder::new(raw.as_slice())
            .read_to_end(&mut out)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        out
    } else {
        raw
    }
}

/// All pages of the manifest (in its order).
pub(crate) fn load() -> Vec<Page> {
    let dir = bench_dir();
    let manifest = std::fs::read_to_string(dir.join("manifest.tsv")).expect("manifest.tsv");
    manifest
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|line| {
            let f: Vec<&str> = line.split('\t').collect();
            assert_eq!(f.len(), 7, "manifest row: {line}");
            let expected_path = dir.join(f[6]);
            let expected_raw = String::from_utf8_lossy(&read_maybe_gz(&expected_path)).into_owned();
            let expected = if f[6].ends_with(".txt") {
                expected_raw
            } else {
                html_text(&expected_raw)
            };
            Page {
                source: f[0].into(),
                id: f[1].into(),
                kind: f[2].into(),
                split: f[3].into(),
                url: f[4].into(),
                html: read_maybe_gz(&dir.join(f[5])),
                expected,
                expected_path_is_text: f[6].ends_with(".txt"),
                metric: Metric::Shingle,
            }
        })
        .collect()
}

/// The visible text of an HTML fragment (expected pages given as HTML), blocks on their own
/// lines.
pub(crate) fn html_text(html: &str) -> String {
    let doc = dom_query::Document::from(html);
    let mut out = String::new();
    collect_text(&doc.root(), &mut out);
    out
}

const BLOCKS: &[&str] = &[
    "p",
    "div",
    "li",
    "ul",
    "ol",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "pre",
    "blockquote",
    "tr",
    "td",
    "th",
    "table",
    "br",
    "section",
    "article",
    "figure",
    "figcaption",
    "dd",
    "dt",
    "dl",
];

fn collect_text(node: &dom_query::NodeRef, out: &mut String) {
    for child in node.children_it(false) {
        if child.is_text() {
            out.push_str(&child.text());
        } else if child.is_element() {
            let name = child.node_name().unwrap_or_default();
            if matches!(name.as_ref(), "script" | "style" | "noscript" | "template") {
                continue;
            }
            let block = BLOCKS.contains(&name.as_ref());
            if block {
                out.push('\n');
            }
            collect_text(&child, out);
            if block {
                out.push('\n');
            }
        }
    }
}

/// The text a reader sees in markdown: text and code, without link targets or images.
pub(crate) fn markdown_text(md: &str) -> String {
    use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};
    let mut out = String::with_capacity(md.len());
    let mut in_image = 0usize;
    for event in Parser::new_ext(md, Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH) {
        match event {
            Event::Start(Tag::Image { .. }) => in_image += 1,
            Event::End(TagEnd::Image) => in_image = in_image.saturating_sub(1),
            Event::Text(t) | Event::Code(t) if in_image == 0 => out.push_str(&t),
            Event::SoftBreak | Event::HardBreak => out.push('\n'),
            Event::End(_) => out.push('\n'),
            Event::Start(Tag::TableCell) => out.push(' '),
            _ => {}
        }
    }
    out
}

/// `\w+` tokens.
pub(crate) fn tokens(text: &str) -> Vec<&str> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|t| !t.is_empty())
        .collect()
}

/// Shingles (4-grams of tokens) counted as a multiset.
fn shingles(text: &str) -> HashMap<Vec<&str>, u32> {
    let toks = tokens(text);
    let mut out = HashMap::new();
    if toks.is_empty() {
        return out;
    }
    if toks.len() < 4 {
        *out.entry(toks).or_insert(0) += 1;
        return out;
    }
    for w in toks.windows(4) {
        *out.entry(w.to_vec()).or_insert(0) += 1;
    }
    out
}

/// Precision, recall and F1 of `predicted` against `expected`.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Score {
    pub(crate) p: f64,
    pub(crate) r: f64,
    pub(crate) f1: f64,
}

pub(crate) fn score(predicted: &str, expected: &str) -> Score {
    let pred = shingles(predicted);
    let exp = shingles(expected);
    let n_pred: u32 = pred.values().sum();
    let n_exp: u32 = exp.values().sum();
    if n_pred == 0 && n_exp == 0 {
        return Score {
            p: 1.0,
            r: 1.0,
            f1: 1.0,
        };
    }
    let shared: u32 = pred
        .iter()
        .map(|(k, c)| (*c).min(exp.get(k).copied().unwrap_or(0)))
        .sum();
    let p = if n_pred == 0 {
        0.0
    } else {
        f64::from(shared) / f64::from(n_pred)
    };
    let r = if n_exp == 0 {
        0.0
    } else {
        f64::from(shared) / f64::from(n_exp)
    };
    let f1 = if p + r == 0.0 {
        0.0
    } else {
        2.0 * p * r / (p + r)
    };
    Score { p, r, f1 }
}

/// The median of `xs` (0 when empty).
pub(crate) fn median(xs: &mut [f64]) -> f64 {
    if xs.is_empty() {
        return 0.0;
    }
    xs.sort_by(|a, b| a.total_cmp(b));
    let n = xs.len();
    if n % 2 == 1 {
        xs[n / 2]
    } else {
        (xs[n / 2 - 1] + xs[n / 2]) / 2.0
    }
}
