//! Appending one activity entry (what every MCP tool call costs on top of its work; target:
//! under 100 µs at the median), into a log already holding thousands of entries, compaction
//! included when it comes due. Run:
//! `cargo bench -p smolweb-store --bench activity -- --warm-up-time 1 --measurement-time 3`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use criterion::{Criterion, criterion_group, criterion_main};
use smolweb_store::activity::{Activity, Entry, Event, Limits};
use std::hint::black_box;

fn entry(i: u64) -> Entry {
    Entry::new(
        "0a1b2c3d",
        time::OffsetDateTime::now_utc(),
        Event::Call {
            tool: "gemini_fetch".into(),
            url: Some(format!("gemini://capsule.example/gemlog/{i}.gmi?query")),
            urls: None,
            outcome: "gemtext".into(),
            error: false,
            bytes: Some(4096),
            cached: Some(false),
            ms: 42,
        },
    )
}

fn bench(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let log = Activity::new(dir.path().join("agent_activity.jsonl"), Limits::default());
    for i in 0..5_000 {
        log.append(&entry(i)).unwrap();
    }
    let mut i = 5_000;
    c.bench_function("activity_append", |b| {
        b.iter(|| {
            log.append(black_box(&entry(i))).unwrap();
            i += 1;
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
