//! PDF text extraction (`core::pdf::extract`) of generated documents: 100 pages of 40 kerned
//! lines (Flate-compressed, about 200 KB), and the refusal of a compression bomb (64 MiB of
//! content in a few dozen KiB). Prints criterion medians; run with `cargo bench --bench pdf`.
//! Peak memory is measured by `cargo bench --bench pdf_memory`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use smolweb_testkit::pdf;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use smolweb_core::pdf::{PdfLimits, extract};
use std::hint::black_box;

fn bench(c: &mut Criterion) {
    let lines: Vec<String> = (0..40)
        .map(|i| {
            format!("Line {i}: the harbour fills slowly because the channel is long and narrow.")
        })
        .collect();
    let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
    let pages: Vec<&[&str]> = vec![&lines; 100];
    let doc = pdf::text_pdf("Bench", &pages, pdf::Layout::Kerned, true);
    let bomb = pdf::bomb_pdf(64 << 20);
    let mut g = c.benchmark_group("pdf_extract");
    g.sample_size(20);
    g.throughput(Throughput::Bytes(doc.len() as u64));
    g.bench_function("100_pages", |b| {
        let limits = PdfLimits::for_body(doc.len());
        b.iter(|| extract(black_box(&doc), &limits, &|| true).unwrap())
    });
    g.throughput(Throughput::Bytes(bomb.len() as u64));
    g.bench_function("bomb_refused", |b| {
        let limits = PdfLimits::for_body(bomb.len());
        b.iter(|| extract(black_box(&bomb), &limits, &|| true).unwrap_err())
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
