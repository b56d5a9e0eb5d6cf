//! The WCXB benchmark's development split (Foley 2026, CC-BY-4.0; 1,497 pages of seven page
//! types with their main text), read from a snapshot of its repository that the user gives
//! (`--wcxb DIR` or `SMOLWEB_WCXB_DIR`): `DIR/dev/html/NNNN.html.gz` and
//! `DIR/dev/ground-truth/NNNN.json`. Only the `dev` folder is read: the benchmark's other split
//! is kept for acceptance and is never opened here. Nothing of the benchmark is in the
//! repository.
//!
//! Inside dev, every fourth page by number (`NNNN % 4 == 0`) is the internal holdout
//! (`hold`), never looked at page by page while tuning; the others are `tune`.
//!
//! The metric is the benchmark's own word F1 (its `evaluate.py`): the text is lowercased and
//! cut into `\w+` tokens, counted as bags; precision is the shared tokens over the predicted
//! ones, recall over the expected ones. An empty expected text scores 1 against an empty
//! prediction, 0 otherwise.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use super::extract_bench::{Metric, Page, Score};
use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};

/// The snapshot folder: `--wcxb DIR` (passed in) or `SMOLWEB_WCXB_DIR`.
pub(crate) fn dir(arg: Option<&PathBuf>) -> Option<PathBuf> {
    arg.cloned()
        .or_else(|| std::env::var_os("SMOLWEB_WCXB_DIR").map(PathBuf::from))
}

/// The page type as the benchmark's scorer reads it (`category` is `collection`).
fn page_type(doc: &serde_json::Value) -> String {
    let pt = &doc["_internal"]["page_type"];
    let name = match pt {
        serde_json::Value::Object(_) => pt["primary"].as_str().unwrap_or("article"),
        serde_json::Value::String(s) => s.as_str(),
        _ => "article",
    };
    if name == "category" {
        "collection".into()
    } else {
        name.into()
    }
}

/// The dev split's pages, in number order.
pub(crate) fn load(dir: &Path) -> Vec<Page> {
    let truth = dir.join("dev").join("ground-truth");
    let html = dir.join("dev").join("html");
    let mut names: Vec<PathBuf> = std::fs::read_dir(&truth)
        .unwrap_or_else(|e| panic!("{}: {e}", truth.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    names.sort();
    let mut pages = Vec::new();
    for path in names {
        let id = path.file_stem().unwrap().to_string_lossy().into_owned();
        let doc: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let gt = &doc["ground_truth"];
        if !gt.is_object() {
            continue;
        }
        let gz = std::fs::read(html.join(format!("{id}.html.gz")))
            .unwrap_or_else(|e| panic!("{id}: {e}"));
        let mut body = Vec::new();
        flate2::read::GzDecoder::new(gz.as_slice())
            .read_to_end(&mut body)
            .unwrap_or_else(|e| panic!("{id}: {e}"));
        let number: u32 = id.parse().unwrap_or(1);
        pages.push(Page {
            source: "wcxb".into(),
            kind: page_type(&doc),
            split: if number.is_multiple_of(4) {
                "hold"
            } else {
                "tune"
            }
            .into(),
            url: doc["url"].as_str().unwrap_or("https://example.com/").into(),
            html: body,
            expected: gt["main_content"].as_str().unwrap_or_default().into(),
            expected_path_is_text: true,
            metric: Metric::Word,
            id,
        });
    }
    pages
}

/// Lowercase `\w+` tokens.
fn tokens(text: &str) -> Vec<String> {
    text.to_lowercase()
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|t| !t.is_empty())
        .map(str::to_owned)
        .collect()
}

/// Word precision, recall and F1 of `predicted` against `expected` (see the module docs).
pub(crate) fn word_score(predicted: &str, expected: &str) -> Score {
    let pred = tokens(predicted);
    let exp = tokens(expected);
    if exp.is_empty() {
        let v = if pred.is_empty() { 1.0 } else { 0.0 };
        return Score { p: v, r: v, f1: v };
    }
    if pred.is_empty() {
        return Score::default();
    }
    let mut bag: HashMap<&str, u32> = HashMap::new();
    for t in &exp {
        *bag.entry(t).or_insert(0) += 1;
    }
    let mut shared = 0u32;
    for t in &pred {
        if let Some(c) = bag.get_mut(t.as_str()).filter(|c| **c > 0) {
            *c -= 1;
            shared += 1;
        }
    }
    let p = f64::from(shared) / pred.len() as f64;
    let r = f64::from(shared) / exp.len() as f64;
    let f1 = if p + r > 0.0 {
        2.0 * p * r / (p + r)
    } else {
        0.0
    };
    Score { p, r, f1 }
}
