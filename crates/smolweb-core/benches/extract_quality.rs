//! Extraction quality on the bench pages of benches/extract (see its README.md): shingle F1,
//! precision and recall of `convert_html` against hand-made (or reference) expected text, per
//! source and kind of page, with the share of pages that fell back to the whole page, the
//! pages that scored more than 0.1 under the whole page, and the median time per page.
//!
//! `cargo bench --bench extract_quality` prints the table. Flags (after `--`):
//! `--pages` prints a line per page; `--source NAME` keeps one source, `--id ID` one page; `--mode full` scores the
//! whole page instead of `main`; `--pred DIR` scores another extractor's outputs instead
//! (`DIR/SOURCE/ID.txt`, plain text, or markdown with `--pred-markdown`), for comparisons;
//! `--dump DIR` writes smolweb's markdown to `DIR/SOURCE/ID.md`; `--export DIR` writes each page
//! decoded to UTF-8 (`DIR/SOURCE/ID.html`) and `DIR/index.tsv` (source, id, URL), so that other
//! extractors can be run on exactly the same text.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::print_stdout)]

#[path = "support/extract_bench.rs"]
mod extract_bench;

use extract_bench::{Page, Score, markdown_text, median, score};
use smolweb_core::charset::{self, Origin};
use smolweb_core::html::{Extract, Extraction, convert_html};
use std::path::PathBuf;
use std::time::Instant;

struct Args {
    pages: bool,
    source: Option<String>,
    id: Option<String>,
    mode: Extract,
    pred: Option<PathBuf>,
    pred_markdown: bool,
    dump: Option<PathBuf>,
    export: Option<PathBuf>,
}

fn args() -> Args {
    let mut a = Args {
        pages: false,
        source: None,
        id: None,
        mode: Extract::Main,
        pred: None,
        pred_markdown: false,
        dump: None,
        export: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--pages" => a.pages = true,
            "--source" => a.source = it.next(),
            "--id" => a.id = it.next(),
            "--mode" => {
                a.mode = match it.next().as_deref() {
                    Some("full") => Extract::Full,
                    _ => Extract::Main,
                }
            }
            "--pred" => a.pred = it.next().map(PathBuf::from),
            "--pred-markdown" => a.pred_markdown = true,
            "--dump" => a.dump = it.next().map(PathBuf::from),
            "--export" => a.export = it.next().map(PathBuf::from),
            // `cargo bench` passes `--bench`; other flags are not ours.
            _ => {}
        }
    }
    a
}

/// One page's result.
struct Row {
    score: Score,
    /// The whole page's score (only for smolweb's own runs).
    full: Option<Score>,
    fallback: bool,
    ms: Option<f64>,
}

fn run_smolweb(page: &Page, mode: Extract, dump: Option<&PathBuf>) -> Row {
    let text = charset::decode(&page.html, None, Origin::Web { html: true }).text;
    let mut times = Vec::new();
    let mut out = None;
    for _ in 0..3 {
        let started = Instant::now();
        let c = convert_html(&text, &page.url, mode);
        times.push(started.elapsed().as_secs_f64() * 1000.0);
        out = Some(c);
    }
    let c = out.expect("three runs");
    if let Some(dir) = dump {
        let d = dir.join(&page.source);
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(d.join(format!("{}.md", page.id)), &c.markdown).unwrap();
    }
    let full = (mode == Extract::Main).then(|| {
        let f = convert_html(&text, &page.url, Extract::Full);
        score(&markdown_text(&f.markdown), &page.expected)
    });
    Row {
        score: score(&markdown_text(&c.markdown), &page.expected),
        full,
        fallback: c.extraction == Extraction::FallbackFull,
        ms: Some(median(&mut times)),
    }
}

fn run_pred(page: &Page, dir: &std::path::Path, markdown: bool) -> Row {
    let path = dir.join(&page.source).join(format!("{}.txt", page.id));
    let text = std::fs::read_to_string(&path).unwrap_or_default();
    let text = if markdown { markdown_text(&text) } else { text };
    Row {
        score: score(&text, &page.expected),
        full: None,
        fallback: false,
        ms: None,
    }
}

fn export(pages: &[Page], dir: &std::path::Path) {
    let mut index = String::new();
    for p in pages {
        let d = dir.join(&p.source);
        std::fs::create_dir_all(&d).unwrap();
        let text = charset::decode(&p.html, None, Origin::Web { html: true }).text;
        std::fs::write(d.join(format!("{}.html", p.id)), text).unwrap();
        index.push_str(&format!("{}\t{}\t{}\n", p.source, p.id, p.url));
    }
    std::fs::write(dir.join("index.tsv"), index).unwrap();
    println!("exported {} pages to {}", pages.len(), dir.display());
}

fn summary(label: &str, group: &str, rows: &[&Row]) {
    if rows.is_empty() {
        return;
    }
    let n = rows.len() as f64;
    let mean = |f: &dyn Fn(&Row) -> f64| rows.iter().map(|r| f(r)).sum::<f64>() / n;
    let fallback = rows.iter().filter(|r| r.fallback).count();
    let below = rows
        .iter()
        .filter(|r| r.full.is_some_and(|f| r.score.f1 < f.f1 - 0.1))
        .count();
    let mut ms: Vec<f64> = rows.iter().filter_map(|r| r.ms).collect();
    let ms = if ms.is_empty() {
        "-".to_string()
    } else {
        format!("{:.2}", median(&mut ms))
    };
    println!(
        "{label:<13} {group:<13} {:>5} {:>6.3} {:>6.3} {:>6.3} {:>8.1}% {:>9} {:>9}",
        rows.len(),
        mean(&|r| r.score.f1),
        mean(&|r| r.score.p),
        mean(&|r| r.score.r),
        100.0 * fallback as f64 / n,
        below,
        ms
    );
}

fn main() {
    let a = args();
    let pages: Vec<Page> = extract_bench::load()
        .into_iter()
        .filter(|p| a.source.as_ref().is_none_or(|s| &p.source == s))
        .filter(|p| a.id.as_ref().is_none_or(|i| &p.id == i))
        .collect();
    if let Some(dir) = &a.export {
        export(&pages, dir);
        return;
    }
    let rows: Vec<Row> = pages
        .iter()
        .map(|p| match &a.pred {
            Some(dir) => run_pred(p, dir, a.pred_markdown),
            None => run_smolweb(p, a.mode, a.dump.as_ref()),
        })
        .collect();
    if a.pages {
        for (p, r) in pages.iter().zip(&rows) {
            println!(
                "page {:<12} {:<48} {:<8} {:<7} F1 {:.3} P {:.3} R {:.3}{}{}{}",
                p.source,
                p.id,
                p.kind,
                p.split,
                r.score.f1,
                r.score.p,
                r.score.r,
                r.full
                    .map(|f| format!(" full {:.3}", f.f1))
                    .unwrap_or_default(),
                if r.fallback { " FALLBACK" } else { "" },
                r.ms.map(|m| format!(" {m:.2} ms")).unwrap_or_default(),
            );
        }
    }
    let what = match (&a.pred, a.mode) {
        (Some(dir), _) => format!("predictions in {}", dir.display()),
        (None, Extract::Main) => "smolweb extract=main".into(),
        (None, Extract::Full) => "smolweb extract=full".into(),
    };
    println!("extract_quality: {what} (shingle F1, 4-grams of \\w+ tokens, multiset)");
    println!(
        "{:<13} {:<13} {:>5} {:>6} {:>6} {:>6} {:>9} {:>9} {:>9}",
        "source", "pages", "n", "F1", "P", "R", "fallback", "<full-.1", "median ms"
    );
    let mut sources: Vec<&str> = pages.iter().map(|p| p.source.as_str()).collect();
    sources.dedup();
    for source in sources {
        let of = |f: &dyn Fn(&Page) -> bool| -> Vec<&Row> {
            pages
                .iter()
                .zip(&rows)
                .filter(|(p, _)| p.source == source && f(p))
                .map(|(_, r)| r)
                .collect()
        };
        summary(source, "article", &of(&|p| p.is_article()));
        summary(
            source,
            "article/dev",
            &of(&|p| p.is_article() && p.split == "dev"),
        );
        summary(
            source,
            "article/hold",
            &of(&|p| p.is_article() && p.split == "holdout"),
        );
        summary(source, "not article", &of(&|p| !p.is_article()));
    }
}
