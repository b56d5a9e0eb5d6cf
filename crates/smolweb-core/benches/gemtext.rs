//! Gemtext parse throughput on a generated 2 MB page of mixed lines, many of them links,
//! parsed without a base (links kept as written) and with one (every link resolved).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use smolweb_core::gemtext::parse;
use smolweb_core::url::Url;
use std::hint::black_box;

const TARGET_BYTES: usize = 2 * 1024 * 1024;

/// A deterministic page: headings, prose, links (relative and absolute), lists, quotes and
/// preformatted blocks, in a repeating pattern with varying numbers.
fn page() -> String {
    let mut out = String::with_capacity(TARGET_BYTES + 256);
    let mut i = 0usize;
    while out.len() < TARGET_BYTES {
        let line = match i % 16 {
            0 => format!("# Section {i}\n"),
            1 | 7 => format!("Some prose about topic number {i}, with a few more words to read.\n"),
            2 | 3 | 8 | 9 => format!("=> /posts/{i}.gmi Post number {i}: a link label\n"),
            4 => format!("=> gemini://capsule{}.example/log/ Capsule {i}\n", i % 97),
            5 => format!("=> ../up/{i}.txt\n"),
            6 => format!("* list item {i}\n"),
            10 => format!("> a quoted line {i}\n"),
            11 => "```rust example\n".to_string(),
            12 => format!("fn f{i}() -> u32 {{ {i} }}\n"),
            13 => "```\n".to_string(),
            14 => format!("## Subsection {i}\n"),
            _ => format!("=> https://web.example/{i} Web link {i}\n"),
        };
        out.push_str(&line);
        i += 1;
    }
    out
}

fn bench(c: &mut Criterion) {
    let body = page();
    let base = Url::parse("gemini://bench.example/dir/index.gmi").unwrap();
    let mut group = c.benchmark_group("gemtext");
    group.throughput(Throughput::Bytes(body.len() as u64));
    group.sample_size(30);
    group.bench_function("parse_2mb_no_base", |b| {
        b.iter(|| parse(black_box(&body), None))
    });
    group.bench_function("parse_2mb_with_base", |b| {
        b.iter(|| parse(black_box(&body), Some(&base)))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
