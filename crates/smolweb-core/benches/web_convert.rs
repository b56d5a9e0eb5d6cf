//! The web conversion (sanitize, readability, markdown) of a generated 500 KB article page,
//! main content and full page. Target: <= 25 ms for main content.

#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "support/web_page.rs"]
mod web_page;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use smolweb_core::html::{Extract, convert_html};
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
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
