//! The offline cache with 10,000 pages: filling it past its bound (`[offline] max_bytes`)
//! keeps it under the bound (least recently used pages evicted, saved pages kept), and what
//! one more page costs when it is full. Run:
//! `cargo bench -p smolweb-store --bench offline -- --warm-up-time 1 --measurement-time 5`.
//! Before the timing it prints the fill: pages put, pages kept, bytes on disk against the bound.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::print_stdout)]

use criterion::{Criterion, criterion_group, criterion_main};
use smolweb_store::offline::{NewPage, Offline};
use std::hint::black_box;
use std::time::Instant;
use time::OffsetDateTime;

const PAGES: usize = 10_000;
const PAGE_BYTES: usize = 6_000;
const BOUND: u64 = 16 * 1024 * 1024;

fn body(i: usize) -> Vec<u8> {
    let line = format!("Line of page {i}: the tide was late again at the harbour.\n");
    line.repeat(PAGE_BYTES / line.len()).into_bytes()
}

fn put(cache: &Offline, i: usize, save: bool) {
    let url = format!("gemini://capsule{}.example/gemlog/{i}.gmi", i % 50);
    let body = body(i);
    cache
        .put(
            &NewPage {
                url: &url,
                media_type: "text/gemini; charset=utf-8",
                title: Some("A post"),
                body: &body,
                fetched: OffsetDateTime::now_utc(),
                save,
            },
            OffsetDateTime::now_utc(),
        )
        .unwrap();
}

fn bench(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let cache = Offline::new(dir.path().join("offline"), BOUND);
    let started = Instant::now();
    for i in 0..PAGES {
        // One page in a hundred is on the reading list: never evicted.
        put(&cache, i, i % 100 == 0);
    }
    let fill = started.elapsed();
    let total = cache.total_bytes().unwrap();
    let kept = cache.list().unwrap().len();
    let saved = cache.saved().unwrap().len();
    let on_disk: u64 = walk(&dir.path().join("offline"));
    println!(
        "offline fill: {PAGES} pages of {PAGE_BYTES} B put in {:.1} s ({:.2} ms a page); \
         {kept} kept ({saved} saved), {total} B counted, {on_disk} B on disk, bound {BOUND} B: {}",
        fill.as_secs_f64(),
        fill.as_secs_f64() * 1000.0 / PAGES as f64,
        if total <= BOUND && on_disk <= BOUND + BOUND / 10 {
            "holds"
        } else {
            "EXCEEDED"
        }
    );
    assert!(total <= BOUND, "{total} > {BOUND}");
    assert_eq!(saved, PAGES / 100, "a saved page was evicted");
    let mut i = PAGES;
    c.bench_function("offline_put_full_10k", |b| {
        b.iter(|| {
            put(black_box(&cache), i, false);
            i += 1;
        })
    });
    c.bench_function("offline_get_full_10k", |b| {
        // The newest pages of the fill, still kept.
        let mut j = 0;
        b.iter(|| {
            let n = PAGES - 1 - j % 500;
            let url = format!("gemini://capsule{}.example/gemlog/{n}.gmi", n % 50);
            assert!(black_box(cache.get(&url, OffsetDateTime::now_utc()).unwrap()).is_some());
            j += 1;
        })
    });
}

fn walk(dir: &std::path::Path) -> u64 {
    let mut n = 0;
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let m = e.metadata().unwrap();
        n += if m.is_dir() { walk(&e.path()) } else { m.len() };
    }
    n
}

criterion_group!(benches, bench);
criterion_main!(benches);
