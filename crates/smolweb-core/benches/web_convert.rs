//! The web conversion (sanitize, metadata, main text, markdown): a generated 500 KB article
//! page, main content and full page (target: <= 25 ms for main content); and the article pages
//! of the extraction bench (benches/extract, trafilatura's real pages): all of them per
//! iteration (the time per page is the time shown divided by their number, printed first), and
//! the page of median size alone. Target: a median under 15 ms per page. Site rules on the
//! 500 KB page: the main text kept by a rule (`main_with_rule`), and the candidate regions a
//! person picks from (`regions`).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::print_stdout)]

#[path = "support/web_page.rs"]
mod web_page;

#[path = "support/extract_bench.rs"]
mod extract_bench;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use smolweb_core::charset::{self, Origin};
use smolweb_core::html::{Extract, SiteRule, convert_html, convert_html_with, regions};
use std::hint::black_box;

fn bench(c: &mut Criterion) {
    let page = web_page::article(500 * 1024);
    let mut g = c.benchmark_group("web_convert_500k");
    g.throughput(Throughput::Bytes(page.len() as u64));
    g.sample_size(20);
    g.bench_function("main", |b| {
        b.iter(|| convert_html(black_box(&page), "https://bench.example/a", Extract::Main))
    });
    g.bench_function("full", |b| {
        b.iter(|| convert_html(black_box(&page), "https://bench.example/a", Extract::Full))
    });
    let rule = regions(&page, "https://bench.example/a")
        .first()
        .map(|r| SiteRule::content(&r.selector))
        .unwrap_or_else(|| SiteRule::content("article"));
    println!("web_convert_500k: the rule keeps {}", rule.content);
    g.bench_function("main_with_rule", |b| {
        b.iter(|| {
            let url = "https://bench.example/a";
            convert_html_with(black_box(&page), url, Extract::Main, Some(&rule))
        })
    });
    g.bench_function("regions", |b| {
        b.iter(|| regions(black_box(&page), "https://bench.example/a"))
    });
    g.finish();
}

fn bench_pages(c: &mut Criterion) {
    let mut pages: Vec<(String, String)> = extract_bench::load()
        .into_iter()
        .filter(|p| p.source == "trafilatura" && p.is_article())
        .map(|p| {
            (
                charset::decode(&p.html, None, Origin::Web { html: true }).text,
                p.url,
            )
        })
        .collect();
    pages.sort_by_key(|(html, _)| html.len());
    let (median_html, median_url) = pages[pages.len() / 2].clone();
    println!(
        "web_convert_pages: {} article pages; the median page is {} bytes",
        pages.len(),
        median_html.len()
    );
    let mut g = c.benchmark_group("web_convert_pages");
    g.sample_size(10);
    g.throughput(Throughput::Elements(pages.len() as u64));
    g.bench_function("main_all_articles", |b| {
        b.iter(|| {
            for (html, url) in &pages {
                black_box(convert_html(black_box(html), url, Extract::Main));
            }
        })
    });
    g.finish();
    let mut g = c.benchmark_group("web_convert_median_page");
    g.sample_size(50);
    g.bench_function("main", |b| {
        b.iter(|| convert_html(black_box(&median_html), &median_url, Extract::Main))
    });
    g.finish();
}

criterion_group!(benches, bench, bench_pages);
criterion_main!(benches);
