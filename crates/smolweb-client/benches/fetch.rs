//! Loopback fetch latency against the in-process servers of `tests/support`:
//! a Gemini fetch on a new connection that resumes the TLS session, one that does a full
//! handshake, and a Gopher fetch. Run: `cargo bench --bench fetch`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use smolweb_testkit as support;

use criterion::{Criterion, criterion_group, criterion_main};
use smolweb_core::url::{GopherTarget, Url};
use std::time::Duration;
use support::{TempStores, gemini, gopher, loopback_options};

fn bench_fetch(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let stores = TempStores::new();
    let net = stores.net(Default::default());
    let opts = loopback_options(Duration::from_secs(5));
    let page = gemini::Reply::gemtext(&"# smol\n=> /next next\n".repeat(20));
    let gem = rt.block_on(gemini::Server::start(
        gemini::Routes::new().route("/", page),
    ));
    let url = Url::parse(&gem.url("/")).unwrap();
    let text = gopher::Reply::text(&"smol text line\r\n".repeat(40));
    let goph = rt.block_on(gopher::Server::start(
        gopher::Routes::new().route("/t", text),
    ));
    let target = GopherTarget {
        host: goph.host().into(),
        port: goph.port(),
        item_type: '0',
        selector: "/t".into(),
        search: None,
        search_ignored: false,
    };

    let mut group = c.benchmark_group("loopback");
    group.bench_function("gemini_resumed_session", |b| {
        b.iter(|| rt.block_on(net.gemini(&url, &opts)).unwrap())
    });
    group.bench_function("gemini_full_handshake", |b| {
        b.iter(|| {
            net.forget_sessions();
            rt.block_on(net.gemini(&url, &opts)).unwrap()
        })
    });
    group.bench_function("gopher", |b| {
        b.iter(|| rt.block_on(net.gopher(&target, &opts)).unwrap())
    });
    group.finish();

    // The same page through the client facade: a fetch that skips the cache, and a re-read
    // answered from the cache (what back/forward and MCP windows cost).
    let paths = smolweb_store::paths::Paths {
        data_dir: stores.dir.path().join("client"),
        config_file: stores.dir.path().join("none.toml"),
        downloads_dir: stores.dir.path().join("dl"),
        cache_dir: stores.dir.path().join("cache"),
    };
    let client = smolweb_client::Client::new(
        smolweb_client::config::Config::default(),
        paths,
        smolweb_client::Face::Human,
    )
    .unwrap();
    let gem_url = gem.url("/");
    let refresh = smolweb_client::OpenOptions {
        refresh: true,
        ..Default::default()
    };
    let cached = smolweb_client::OpenOptions::default();
    let mut group = c.benchmark_group("client");
    group.bench_function("gemini_fetch_refresh", |b| {
        b.iter(|| rt.block_on(client.open(&gem_url, &refresh)))
    });
    group.bench_function("gemini_cached_reread", |b| {
        b.iter(|| rt.block_on(client.open(&gem_url, &cached)))
    });
    group.finish();
}

criterion_group!(benches, bench_fetch);
criterion_main!(benches);
