//! Feeds: refreshing 100 subscriptions against in-process loopback Gemini servers, and
//! building the `about:feeds` gemtext for 10,000 entries (the page only; the frame is the
//! browser's). Run: `cargo bench --bench feeds -- --warm-up-time 1 --measurement-time 3`.
//!
//! Refresh cases (each iteration is one `refresh_all` of 100 feeds of 20 entries, entries
//! merged into the store, with `[feeds] refresh_concurrency` = 4 as configured by default):
//! - `100_hosts`: one feed per server, so pacing never waits (concurrency bound only);
//! - `10_hosts_paced_50ms`: ten feeds per server, `per_host_interval_ms = 50`, so each host
//!   needs at least 9 x 50 ms and hosts run four at a time.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use smolweb_testkit as support;

use criterion::{Criterion, criterion_group, criterion_main};
use smolweb_client::about_feeds::feeds_page;
use smolweb_client::config::Config;
use smolweb_client::{Client, Face, feeds};
use smolweb_store::paths::Paths;
use smolweb_store::subscriptions::{StoredEntry, Subscription};
use std::sync::Arc;
use support::gemini;
use time::macros::datetime;

fn gemlog(n: usize) -> String {
    let mut page = String::from("# Bench log\n");
    for i in 0..n {
        page.push_str(&format!(
            "=> post{i}.gmi 2026-11-{:02} Post number {i}\n",
            1 + i % 28
        ));
    }
    page
}

fn client(dir: &tempfile::TempDir, interval_ms: u64) -> Arc<Client> {
    let mut config = Config::default();
    config.politeness.per_host_interval_ms = interval_ms;
    config.network.timeout_seconds = 10;
    let paths = Paths::resolve(Some(dir.path().to_path_buf()), None, None, None).unwrap();
    Arc::new(Client::new(config, paths, Face::Human).unwrap())
}

fn bench_refresh(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let page = gemini::Reply::gemtext(&gemlog(20));
    let routes = || {
        gemini::Routes::new().handler({
            let page = page.clone();
            move |_| page.clone()
        })
    };
    let many: Vec<_> = (0..100)
        .map(|_| rt.block_on(gemini::Server::start(routes())))
        .collect();
    let few: Vec<_> = (0..10)
        .map(|_| rt.block_on(gemini::Server::start(routes())))
        .collect();

    let mut group = c.benchmark_group("feeds_refresh");
    group.sample_size(10);
    let wide_dir = tempfile::tempdir().unwrap();
    let wide = client(&wide_dir, 1000);
    for s in &many {
        wide.subscribe(&s.url("/log/")).unwrap();
    }
    group.bench_function("100_feeds_100_hosts", |b| {
        b.iter(|| {
            let r = rt
                .block_on(feeds::refresh_all(&wide, |_, _, _| {}))
                .unwrap();
            assert!(r.iter().all(|f| f.error.is_none()), "{r:?}");
        })
    });
    let paced_dir = tempfile::tempdir().unwrap();
    let paced = client(&paced_dir, 50);
    for s in &few {
        for f in 0..10 {
            paced.subscribe(&s.url(&format!("/log{f}/"))).unwrap();
        }
    }
    group.bench_function("100_feeds_10_hosts_paced_50ms", |b| {
        b.iter(|| {
            let r = rt
                .block_on(feeds::refresh_all(&paced, |_, _, _| {}))
                .unwrap();
            assert!(r.iter().all(|f| f.error.is_none()), "{r:?}");
        })
    });
    group.finish();
}

fn bench_about_feeds(c: &mut Criterion) {
    let t = datetime!(2026-11-30 12:00 UTC);
    let subs: Vec<Subscription> = (0..100)
        .map(|s| Subscription {
            url: format!("gemini://capsule{s}.example/gemlog/"),
            title: Some(format!("Capsule {s} gemlog")),
            added: t,
            refreshed: Some(t),
            error: None,
            sync_links: None,
            entries: (0..100)
                .map(|i| StoredEntry {
                    url: format!("gemini://capsule{s}.example/gemlog/{i}.gmi"),
                    title: format!("A post about topic {i} from capsule {s}"),
                    published: Some(format!(
                        "2026-{:02}-{:02}T00:00:00Z",
                        1 + (i + s) % 12,
                        1 + i % 28
                    )),
                    first_seen: t,
                    read: i % 2 == 0,
                })
                .collect(),
            ..Subscription::new(String::new(), t, None)
        })
        .collect();
    c.bench_function("about_feeds_10000_entries", |b| {
        b.iter(|| feeds_page(std::hint::black_box(&subs)))
    });
}

criterion_group!(benches, bench_about_feeds, bench_refresh);
criterion_main!(benches);
