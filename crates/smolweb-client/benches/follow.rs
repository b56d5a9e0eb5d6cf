//! Following pages (issue 35's targets). Run:
//! `cargo bench -p smolweb-client --bench follow -- --warm-up-time 1 --measurement-time 3`.
//!
//! - `follow_refresh/200_pages_*`: one `refresh_all` of 200 followed pages of about 20 KB,
//!   pacing off (`per_host_interval_ms = 0`), `[feeds] refresh_concurrency` as configured by
//!   default. Every page changes at every request (one link and one paragraph of its 20 KB,
//!   the rest the same), so each iteration fetches, makes the follow text, compares it with
//!   the kept copy, writes the copy and its change, and records the entries: the whole work
//!   of a refresh where every page changed. `gemini` is 20 loopback Gemini servers (TLS, TOFU)
//!   of 10 pages each; `web` is 20 loopback HTTP servers of 10 HTML pages each (the reader
//!   view's extraction first). Target: under 10 s.
//! - `follow_diff/2mb`: `follow::diff` of two follow texts of 2 MB (links, headings,
//!   paragraphs, a preformatted block; one item in ten changed, a dated line in each hundred as
//!   noise). Target: under 50 ms. `follow_judge/2mb` is the same through `judge` (the diff,
//!   the share and the digest a refresh computes).
//! - `about_feeds_open/200_subs_10000_entries`: opening `about:feeds` through the client as
//!   every face does (`Client::open`: the subscriptions file read and parsed, the health of
//!   each, the page built, the page parsed as gemtext), with 200 subscriptions of 50 entries
//!   (150 feeds, 50 followed pages whose entries are changes; some failing, moved, quiet or
//!   restless). Target: under 10 ms. The client keeps the parsed file while it is unchanged,
//!   so this is every open after the first; `about_feeds_open_changed/…` is the open right
//!   after another process changed the file (parsed again). `about_feeds_page/…` is the page
//!   builder alone.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stderr
)]

use smolweb_testkit as support;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use smolweb_client::about_feeds::feeds_page;
use smolweb_client::config::Config;
use smolweb_client::{Client, Face, OpenOptions, Outcome, feeds};
use smolweb_core::follow::{self, Memory, Watch};
use smolweb_store::paths::Paths;
use smolweb_store::subscriptions::{StoredEntry, Subscription};
use std::hint::black_box;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use time::macros::datetime;

/// About 20 KB of gemtext whose last link and paragraph change with `n`.
fn page_20kb(path: &str, n: usize) -> String {
    let mut page = format!("# Page {path}\n\n");
    let mut i = 0;
    while page.len() < 20 * 1024 {
        page.push_str(&format!(
            "=> /{path}/item{i}.gmi Item {i} of the page {path}\nA paragraph about item {i}, \
             long enough to read like one: it says what the item is and why it is there.\n"
        ));
        i += 1;
    }
    page.push_str(&format!(
        "=> /{path}/new{n}.gmi What is new ({n})\nThe note of refresh {n}.\n"
    ));
    page
}

/// The same as HTML, in an article the reader view keeps whole.
fn html_20kb(path: &str, n: usize) -> String {
    let mut body = String::new();
    let mut i = 0;
    while body.len() < 20 * 1024 {
        body.push_str(&format!(
            "<p>A paragraph about <a href=\"/{path}/item{i}.html\">item {i}</a>, long enough \
             to read like one: it says what the item is and why it is there.</p>\n"
        ));
        i += 1;
    }
    format!(
        "<!doctype html><html><head><title>Page {path}</title></head><body><article>\
         <h1>Page {path}</h1>\n{body}<p>The note of refresh {n}: \
         <a href=\"/{path}/new{n}.html\">what is new</a>.</p></article></body></html>"
    )
}

fn client(dir: &tempfile::TempDir) -> Arc<Client> {
    let mut config = Config::default();
    config.politeness.per_host_interval_ms = 0;
    config.network.timeout_seconds = 30;
    let paths = Paths::resolve(Some(dir.path().to_path_buf()), None, None, None).unwrap();
    Arc::new(Client::new(config, paths, Face::Human).unwrap())
}

fn refresh_once(rt: &tokio::runtime::Runtime, c: &Arc<Client>) {
    let r = rt.block_on(feeds::refresh_all(c, |_, _, _| {})).unwrap();
    assert_eq!(r.len(), 200);
    assert!(r.iter().all(|f| f.error.is_none()), "{r:?}");
}

fn bench_refresh(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let hits = Arc::new(AtomicUsize::new(0));
    let gemini: Vec<_> = (0..20)
        .map(|_| {
            let hits = hits.clone();
            let routes = support::gemini::Routes::new().handler(move |r| {
                let n = hits.fetch_add(1, Ordering::Relaxed);
                support::gemini::Reply::gemtext(&page_20kb(r.path.trim_matches('/'), n))
            });
            rt.block_on(support::gemini::Server::start(routes))
        })
        .collect();
    let web: Vec<_> = (0..20)
        .map(|_| {
            let hits = hits.clone();
            rt.block_on(support::http::Server::start(move |r| {
                let n = hits.fetch_add(1, Ordering::Relaxed);
                support::http::Reply::html(&html_20kb(r.path().trim_matches('/'), n))
            }))
        })
        .collect();

    let mut group = c.benchmark_group("follow_refresh");
    group.sample_size(10);
    let gem_dir = tempfile::tempdir().unwrap();
    let gem = client(&gem_dir);
    for s in &gemini {
        for p in 0..10 {
            gem.follow_page(&s.url(&format!("/p{p}")), Watch::Text)
                .unwrap();
        }
    }
    // The first refresh only keeps the first copies.
    refresh_once(&rt, &gem);
    // A filter that leaves this bench out runs no refresh here: nothing to check then.
    let mut measured = false;
    group.bench_function("200_pages_20kb_gemini", |b| {
        measured = true;
        b.iter(|| refresh_once(&rt, &gem))
    });
    let web_dir = tempfile::tempdir().unwrap();
    let w = client(&web_dir);
    for s in &web {
        for p in 0..10 {
            w.follow_page(&s.url(&format!("/p{p}")), Watch::Text)
                .unwrap();
        }
    }
    refresh_once(&rt, &w);
    group.bench_function("200_pages_20kb_web", |b| b.iter(|| refresh_once(&rt, &w)));
    group.finish();
    // Each change was seen: the last refresh recorded one per page.
    if measured {
        let subs = gem.subscriptions_list().unwrap();
        assert!(subs.iter().all(|s| !s.entries.is_empty() && !s.restless));
    }
}

/// A follow text of about `bytes`; `version` changes the words of one link and one paragraph
/// in ten items, and the dates and times of the "Updated" lines (noise).
fn follow_text(bytes: usize, version: usize) -> String {
    let mut t = String::from("# A large page\n\n");
    let mut i = 0;
    while t.len() < bytes {
        let w = if i % 10 < 3 {
            ["alpha", "beta", "gamma"][version % 3]
        } else {
            "stable"
        };
        match i % 5 {
            0 => t.push_str(&format!(
                "=> gemini://big.example/section/{i}/{w}.gmi Section {i}, the {w} part\n"
            )),
            1 => t.push_str(&format!("## Heading {i}\n")),
            2 => t.push_str(&format!(
                "A paragraph of the page, number {i}, the {w} one: it runs on for a while so \
                 that the page reads like prose and its lines are of an ordinary length.\n"
            )),
            3 => t.push_str(&format!(
                "```\nline one of block {i}\nline two of block {i}\n```\n"
            )),
            _ => t.push_str(&format!(
                "* Updated {} 2026-07-{:02} at 1{}:00\n",
                ["Mon", "Tue", "Wed"][version % 3],
                1 + version % 28,
                version % 10
            )),
        }
        i += 1;
    }
    t
}

fn bench_diff(c: &mut Criterion) {
    let old = follow_text(2 * 1024 * 1024, 1);
    let new = follow_text(2 * 1024 * 1024, 2);
    let d = follow::diff(&old, &new, Watch::Text);
    assert!(
        d.counts.any() && d.counts.noise > 0 && d.cut(),
        "{:?}",
        d.counts
    );
    eprintln!(
        "follow_diff: {} and {} bytes, {:?}",
        old.len(),
        new.len(),
        d.counts
    );
    let mut group = c.benchmark_group("follow_diff");
    group.bench_function("2mb", |b| {
        b.iter(|| follow::diff(black_box(&old), black_box(&new), Watch::Text))
    });
    group.bench_function("2mb_links", |b| {
        b.iter(|| follow::diff(black_box(&old), black_box(&new), Watch::Links))
    });
    group.finish();
    let memory = Memory::first(&old, Watch::Text);
    c.bench_function("follow_judge/2mb", |b| {
        b.iter(|| {
            let mut m = memory.clone();
            follow::judge(black_box(&old), black_box(&new), Watch::Text, &mut m)
        })
    });
}

/// 200 subscriptions of 50 entries: 150 feeds and 50 followed pages, a few of each sick.
fn subscriptions() -> Vec<Subscription> {
    let t = datetime!(2026-11-30 12:00 UTC);
    (0..200)
        .map(|s| {
            let page = s % 4 == 3;
            let url = if page {
                format!("gemini://capsule{s}.example/wiki/")
            } else {
                format!("gemini://capsule{s}.example/gemlog/")
            };
            let entries = (0..50)
                .map(|i| StoredEntry {
                    url: if page {
                        smolweb_client::follow::change_url(&url, 1_780_000_000 + i)
                    } else {
                        format!("gemini://capsule{s}.example/gemlog/{i}.gmi")
                    },
                    title: if page {
                        format!("{} links added · {i} paragraphs added", 1 + i % 3)
                    } else {
                        format!("A post about topic {i} from capsule {s}")
                    },
                    published: Some(format!(
                        "{}-{:02}-{:02}T00:00:00Z",
                        if s % 20 == 5 { 2025 } else { 2026 },
                        1 + (i as usize + s) % 11,
                        1 + i % 28
                    )),
                    first_seen: t,
                    read: i % 2 == 0,
                })
                .collect();
            Subscription {
                title: Some(format!("Capsule {s}")),
                refreshed: Some(t),
                succeeded: (s % 10 != 7).then_some(t),
                error: (s % 10 == 7).then(|| "connection refused".to_string()),
                failures: if s % 10 == 7 { 3 } else { 0 },
                failing_since: (s % 10 == 7).then_some(datetime!(2026-11-28 08:00 UTC)),
                moved_to: (s % 25 == 1).then(|| format!("gemini://new{s}.example/gemlog/")),
                restless: page && s % 8 == 7,
                changes: page.then_some(Watch::Links),
                entries,
                ..Subscription::new(url, t, None)
            }
        })
        .collect()
}

fn bench_about_feeds(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let subs = subscriptions();
    let dir = tempfile::tempdir().unwrap();
    let client = client(&dir);
    #[derive(serde::Serialize)]
    struct File<'a> {
        subscription: &'a [Subscription],
    }
    let file = toml::to_string(&File {
        subscription: &subs,
    })
    .unwrap();
    let path = client.paths().subscriptions();
    std::fs::write(&path, &file).unwrap();
    // The store refuses a file others can read.
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
    eprintln!("about_feeds: subscriptions.toml of {} bytes", file.len());
    let open = || match rt.block_on(client.open("about:feeds", &OpenOptions::default())) {
        Outcome::Page { fetched, .. } => fetched.page,
        other => panic!("{other:?}"),
    };
    let text = open().body.text().to_string();
    assert!(
        text.contains("200 subscriptions · 10000 entries"),
        "{text:.300}"
    );
    assert!(text.contains("need attention"), "{text:.300}");
    c.bench_function("about_feeds_open/200_subs_10000_entries", |b| {
        b.iter(|| black_box(open()))
    });
    // Before each open another process changes the file (one entry read, then unread again:
    // two versions renamed into place in turn), so each open parses it: the first open after
    // a change, which the warm open above is not.
    let mut other = subs.clone();
    other[0].entries[1].read = !other[0].entries[1].read;
    let versions = [
        file,
        toml::to_string(&File {
            subscription: &other,
        })
        .unwrap(),
    ];
    let turn = AtomicUsize::new(0);
    let replace = || {
        let tmp = path.with_extension("other");
        std::fs::write(&tmp, &versions[turn.fetch_add(1, Ordering::Relaxed) % 2]).unwrap();
        std::fs::set_permissions(&tmp, std::fs::Permissions::from_mode(0o600)).unwrap();
        std::fs::rename(&tmp, &path).unwrap();
    };
    c.bench_function("about_feeds_open_changed/200_subs_10000_entries", |b| {
        b.iter_batched(replace, |()| black_box(open()), BatchSize::PerIteration)
    });
    c.bench_function("about_feeds_page/200_subs_10000_entries", |b| {
        b.iter(|| feeds_page(black_box(&subs)))
    });
}

criterion_group!(benches, bench_diff, bench_about_feeds, bench_refresh);
criterion_main!(benches);
