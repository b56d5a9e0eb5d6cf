//! A frame of `about:feeds` with 10,000 entries (100 subscriptions of 100 entries) in the
//! browser: the page built from the store rows, parsed as gemtext, laid out and drawn on
//! ratatui's TestBackend at 80x24 (target <= 5 ms), and a scroll step on it. Run:
//! `cargo bench --bench feeds_frame -- --warm-up-time 1 --measurement-time 3`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::print_stderr)]

mod common;

use criterion::{Criterion, criterion_group, criterion_main};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use smolweb_client::about_feeds::feeds_page;
use smolweb_client::{Fetched, Outcome, RequestInfo};
use smolweb_core::page::Page;
use smolweb_core::url::Url;
use smolweb_store::subscriptions::{StoredEntry, Subscription};
use smolweb_tui::app::{App, Effect, Msg, Settings};
use smolweb_tui::keymap::{Key, Keymap};
use smolweb_tui::theme::Theme;
use smolweb_tui::view;
use std::hint::black_box;
use std::sync::Arc;
use time::macros::datetime;

fn subscriptions() -> Vec<Subscription> {
    let t = datetime!(2026-11-30 12:00 UTC);
    (0..100)
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
        .collect()
}

/// The page as the client answers `about:feeds`, shown and drawn once.
fn shown(subs: &[Subscription], term: &mut Terminal<TestBackend>) -> App {
    let url = "about:feeds";
    let page = Page::builtin(Url::parse(url).unwrap(), &feeds_page(subs));
    let outcome = Outcome::Page {
        info: RequestInfo {
            url: url.into(),
            ..RequestInfo::default()
        },
        fetched: Fetched {
            page: Arc::new(page),
            cached: false,
            cached_at: None,
        },
    };
    let mut app = App::new(Settings::default(), Keymap::default(), Theme::default());
    app.update(Msg::Resize {
        width: 80,
        height: 24,
    });
    let fx = app.start(Some(url.into()));
    let id = fx
        .iter()
        .find_map(|e| match e {
            Effect::Fetch { id, .. } => Some(*id),
            _ => None,
        })
        .expect("a fetch");
    app.update(Msg::Fetched {
        id,
        outcome: Box::new(outcome),
    });
    term.draw(|f| view::draw(f, &app)).unwrap();
    app
}

fn bench(c: &mut Criterion) {
    let subs = subscriptions();
    let mut term = Terminal::new(TestBackend::new(80, 24)).unwrap();
    c.bench_function("about_feeds_10000_first_frame", |b| {
        b.iter(|| black_box(shown(black_box(&subs), &mut term)))
    });
    // One-row steps from the top to the bottom (past it a press changes nothing), so every
    // measured step really moves: at the bottom the bench starts again from the top, as
    // `page_down_step` does.
    let steps = common::steps_to_bottom(&mut shown(&subs, &mut term), &mut term, Key::ch('j'));
    eprintln!("about_feeds_10000_scroll_step: {steps} steps from top to bottom");
    let mut app = shown(&subs, &mut term);
    let mut taken = 0usize;
    c.bench_function("about_feeds_10000_scroll_step", |b| {
        b.iter(|| {
            if taken == steps {
                app.update(Msg::Key(Key::ch('g')));
                taken = 0;
            }
            app.update(Msg::Key(Key::ch('j')));
            term.draw(|f| view::draw(f, &app)).unwrap();
            taken += 1;
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
