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
//!
//! `--wcxb DIR` (or `SMOLWEB_WCXB_DIR=DIR`) adds the WCXB benchmark's development split from a
//! snapshot of its repository (support/wcxb.rs), scored by its own word F1 and reported per
//! page type and per internal split (`tune`, `hold`); `--source wcxb` keeps it alone.
//! `--quick` converts each page once and skips the whole-page score (no `<full-.1` count, a
//! rougher time). `--results FILE` writes the scored text of the WCXB pages as the JSON object that the
//! benchmark's `evaluate.py --results` reads, to check the port of its metric.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::print_stdout)]

#[path = "support/extract_bench.rs"]
mod extract_bench;

#[path = "support/wcxb.rs"]
mod wcxb;

use extract_bench::{Metric, Page, Score, markdown_text, median};
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
    wcxb: Option<PathBuf>,
    results: Option<PathBuf>,
    quick: bool,
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
        wcxb: None,
        results: None,
        quick: false,
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
            "--wcxb" => a.wcxb = it.next().map(PathBuf::from),
            "--results" => a.results = it.next().map(PathBuf::from),
            "--quick" => a.quick = true,
            // `cargo bench` passes `--bench`; other flags are not ours.
            _ => {}
        }
    }
    a
}

/// `predicted` scored against `page`'s expected text by the page's metric.
fn score(page: &Page, predicted: &str) -> Score {
    match page.metric {
        Metric::Shingle => extract_bench::score(predicted, &page.expected),
        Metric::Word => wcxb::word_score(predicted, &page.expected),
    }
}

/// One page's result.
struct Row {
    /// The text that was scored.
    text: String,
    score: Score,
    /// The whole page's score (only for smolweb's own runs).
    full: Option<Score>,
    fallback: bool,
    ms: Option<f64>,
    /// The page type and extraction quality smolweb gave (its own runs only).
    page_type: Option<&'static str>,
    quality: Option<f32>,
}

fn run_smolweb(page: &Page, mode: Extract, dump: Option<&PathBuf>, quick: bool) -> Row {
    let text = charset::decode(&page.html, None, Origin::Web { html: true }).text;
    let mut times = Vec::new();
    let mut out = None;
    for _ in 0..if quick { 1 } else { 3 } {
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
    let full = (mode == Extract::Main && !quick).then(|| {
        let f = convert_html(&text, &page.url, Extract::Full);
        score(page, &markdown_text(&f.markdown))
    });
    let scored = markdown_text(&c.markdown);
    Row {
        score: score(page, &scored),
        text: scored,
        full,
        fallback: c.extraction == Extraction::FallbackFull,
        ms: Some(median(&mut times)),
        page_type: Some(c.page_type.as_str()),
        quality: Some(c.extraction_quality),
    }
}

fn run_pred(page: &Page, dir: &std::path::Path, markdown: bool) -> Row {
    let path = dir.join(&page.source).join(format!("{}.txt", page.id));
    let text = std::fs::read_to_string(&path).unwrap_or_default();
    let text = if markdown { markdown_text(&text) } else { text };
    Row {
        score: score(page, &text),
        text,
        full: None,
        fallback: false,
        ms: None,
        page_type: None,
        quality: None,
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
    let mut all = extract_bench::load();
    if let Some(dir) = wcxb::dir(a.wcxb.as_ref()) {
        all.extend(wcxb::load(&dir));
    }
    let pages: Vec<Page> = all
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
            None => run_smolweb(p, a.mode, a.dump.as_ref(), a.quick),
        })
        .collect();
    if let Some(path) = &a.results {
        let map: serde_json::Map<String, serde_json::Value> = pages
            .iter()
            .zip(&rows)
            .filter(|(p, _)| p.source == "wcxb")
            .map(|(p, r)| (p.id.clone(), serde_json::Value::String(r.text.clone())))
            .collect();
        std::fs::write(path, serde_json::to_string(&map).unwrap()).unwrap();
    }
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
            if let (Some(t), Some(q)) = (r.page_type, r.quality) {
                println!("      type {t} quality {q:.2}");
            }
        }
    }
    let what = match (&a.pred, a.mode) {
        (Some(dir), _) => format!("predictions in {}", dir.display()),
        (None, Extract::Main) => "smolweb extract=main".into(),
        (None, Extract::Full) => "smolweb extract=full".into(),
    };
    println!(
        "extract_quality: {what} (shingle F1, 4-grams of \\w+ tokens, multiset; wcxb: its word F1)"
    );
    println!(
        "{:<13} {:<13} {:>5} {:>6} {:>6} {:>6} {:>9} {:>9} {:>9}",
        "source", "pages", "n", "F1", "P", "R", "fallback", "<full-.1", "median ms"
    );
    let mut sources: Vec<&str> = pages.iter().map(|p| p.source.as_str()).collect();
    sources.dedup();
    for source in sources {
        if source == "wcxb" {
            wcxb_summary(&pages, &rows);
            continue;
        }
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

/// The WCXB rows: all pages, the internal splits, then each page type (all, tune, hold).
fn wcxb_summary(pages: &[Page], rows: &[Row]) {
    let of = |f: &dyn Fn(&Page) -> bool| -> Vec<&Row> {
        pages
            .iter()
            .zip(rows)
            .filter(|(p, _)| p.source == "wcxb" && f(p))
            .map(|(_, r)| r)
            .collect()
    };
    summary("wcxb", "all", &of(&|_| true));
    summary("wcxb", "tune", &of(&|p| p.split == "tune"));
    summary("wcxb", "hold", &of(&|p| p.split == "hold"));
    for split in ["all", "tune", "hold"] {
        let in_split: Vec<(&Page, &Row)> = pages
            .iter()
            .zip(rows)
            .filter(|(p, r)| {
                p.source == "wcxb" && (split == "all" || p.split == split) && r.quality.is_some()
            })
            .collect();
        if in_split.is_empty() {
            continue;
        }
        quality_report(split, &in_split);
    }
    for kind in [
        "article",
        "forum",
        "product",
        "collection",
        "listing",
        "documentation",
        "service",
    ] {
        summary("wcxb", kind, &of(&|p| p.kind == kind));
        summary(
            "wcxb",
            &format!("{kind:.4}/tune"),
            &of(&|p| p.kind == kind && p.split == "tune"),
        );
        summary(
            "wcxb",
            &format!("{kind:.4}/hold"),
            &of(&|p| p.kind == kind && p.split == "hold"),
        );
    }
}

/// How well the page type and the quality figure agree with the WCXB pages: the share of
/// pages whose type was told right; of the pages under word F1 0.5, the share the figure
/// flags (under `quality::POOR` as the faces round it: the flag's recall); of the others,
/// the share it flags falsely; of the flagged pages, the share truly under 0.5 (precision).
fn quality_report(split: &str, rows: &[(&Page, &Row)]) {
    use smolweb_core::html::{PageType, Reading};
    let typed = rows
        .iter()
        .filter(|(p, r)| r.page_type == Some(p.kind.as_str()))
        .count();
    let bad: Vec<&(&Page, &Row)> = rows.iter().filter(|(_, r)| r.score.f1 < 0.5).collect();
    let good: Vec<&(&Page, &Row)> = rows.iter().filter(|(_, r)| r.score.f1 >= 0.5).collect();
    let flagged = |set: &[&(&Page, &Row)]| {
        set.iter()
            .filter(|(_, r)| Reading::new(PageType::Other, r.quality).is_poor())
            .count()
    };
    let share = |a: usize, b: usize| {
        if b == 0 {
            0.0
        } else {
            100.0 * a as f64 / b as f64
        }
    };
    let (hits, false_flags) = (flagged(&bad), flagged(&good));
    println!(
        "wcxb {split}: page type right {typed}/{} ({:.1}%); F1 < 0.5: {} pages, {hits} flagged \
         (recall {:.1}%); F1 >= 0.5: {} pages, {false_flags} flagged falsely ({:.1}%); \
         flagged {}, truly < 0.5 (precision {:.1}%)",
        rows.len(),
        share(typed, rows.len()),
        bad.len(),
        share(hits, bad.len()),
        good.len(),
        share(false_flags, good.len()),
        hits + false_flags,
        share(hits, hits + false_flags),
    );
}
