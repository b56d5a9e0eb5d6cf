//! Benchmarks for the core's Gopher menu parsing, body indexing and window slicing.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use criterion::{Criterion, criterion_group, criterion_main};
use smolweb_core::gopher::parse_menu;
use smolweb_core::window::{Body, gemtext_window, text_window};
use std::hint::black_box;

fn menu_text(items: usize) -> String {
    (0..items)
        .map(|i| match i % 3 {
            0 => format!("iInfo line number {i}\t\terror.host\t1\r\n"),
            1 => format!("1Directory {i}\t/dir/{i}\tgopher.example.org\t70\r\n"),
            _ => format!("0Document {i}.txt\t/dir/doc{i}.txt\tgopher.example.org\t7070\r\n"),
        })
        .collect::<String>()
        + ".\r\n"
}

/// About 2 MB of gemtext-ish text with some multi-byte chars, links and fences.
fn big_text() -> String {
    let para = "Lorem ipsum dolor sit amet, café crème — naïve façade 😀 consectetur.\n\
                => gemini://example.org/some/link A link label\n\
                ## A heading\n\
                ```\npre formatted\n```\n\
                * a list item\n\n";
    para.repeat(2_000_000 / para.len() + 1)
}

fn benches(c: &mut Criterion) {
    let menu = menu_text(5_000);
    c.bench_function("gopher parse_menu 5000 items", |b| {
        b.iter(|| parse_menu(black_box(&menu)))
    });

    let text = big_text();
    c.bench_function("Body::new 2 MB", |b| {
        b.iter(|| Body::new(black_box(text.clone())))
    });
    c.bench_function("String clone 2 MB (baseline for Body::new)", |b| {
        b.iter(|| black_box(text.clone()))
    });

    let body = Body::new(text);
    // A late offset at a line start, so the gemtext window is a full 50k-char window.
    let rough = body.total_chars() - 120_000;
    let tail = &body.text()[body.byte_at(rough)..];
    let late = rough + tail.find('\n').map_or(0, |i| tail[..=i].chars().count());
    for (name, offset) in [("offset 0", 0), ("late offset", late)] {
        c.bench_function(&format!("text_window 50k chars {name}"), |b| {
            b.iter(|| text_window(black_box(&body), offset, 50_000))
        });
        // Note: includes the gemtext parse of the window when the real parser is merged.
        c.bench_function(&format!("gemtext_window 50k chars {name}"), |b| {
            b.iter(|| gemtext_window(black_box(&body), None, offset, 50_000))
        });
    }
}

criterion_group!(core_windows, benches);
criterion_main!(core_windows);
