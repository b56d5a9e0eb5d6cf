//! How fast the browser shows, scrolls and re-wraps a big page (2 MB, 40,000 lines of
//! gemtext). Targets: first frame after the body arrives < 50 ms, a scroll step < 2 ms, a
//! resize < 10 ms, < 50 MB of memory for the page. Each step includes drawing the frame on
//! ratatui's TestBackend. Memory is the resident-set growth, printed once. A search over the
//! whole page and a step to the next match are measured too.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::print_stdout,
    clippy::print_stderr
)]

mod common;

use criterion::{Criterion, criterion_group, criterion_main};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use smolweb_client::{Fetched, Outcome, RequestInfo};
use smolweb_core::page::Page;
use smolweb_core::response::parse_mime;
use smolweb_core::url::Url;
use smolweb_tui::app::{App, Effect, Msg, Settings};
use smolweb_tui::keymap::{Key, Keymap};
use smolweb_tui::theme::Theme;
use smolweb_tui::view;
use std::hint::black_box;
use std::sync::Arc;

const URL: &str = "gemini://bench.test/big.gmi";

fn big_body() -> String {
    let mut s = String::with_capacity(2_100_000);
    let mut i = 0;
    while s.len() < 2_000_000 {
        match i % 20 {
            0 => s.push_str(&format!("## Section {i}\n")),
            5 => s.push_str(&format!("=> /page/{i} Link number {i} to somewhere\n")),
            10 => s.push_str("```\n+--------+ preformatted\n```\n"),
            15 => s.push_str(&format!("* a list item with some words {i}\n")),
            _ => s.push_str(&format!(
                "Line {i}: the quick brown fox jumps over the lazy dog, twice.\n"
            )),
        }
        i += 1;
    }
    s
}

fn page() -> Arc<Page> {
    let body = big_body();
    let url = Url::parse(URL).expect("bench URL");
    Arc::new(Page::from_gemini(
        url,
        parse_mime("text/gemini"),
        body.into_bytes(),
    ))
}

fn outcome(page: &Arc<Page>) -> Outcome {
    Outcome::Page {
        info: RequestInfo {
            url: URL.into(),
            ..RequestInfo::default()
        },
        fetched: Fetched {
            page: Arc::clone(page),
            cached: false,
            cached_at: None,
        },
    }
}

fn loaded(page: &Arc<Page>, term: &mut Terminal<TestBackend>) -> App {
    let mut app = App::new(Settings::default(), Keymap::default(), Theme::default());
    app.update(Msg::Resize {
        width: 80,
        height: 24,
    });
    let fx = app.start(Some(URL.into()));
    let id = fx
        .iter()
        .find_map(|e| match e {
            Effect::Fetch { id, .. } => Some(*id),
            _ => None,
        })
        .expect("a fetch");
    app.update(Msg::Fetched {
        id,
        outcome: Box::new(outcome(page)),
    });
    term.draw(|f| view::draw(f, &app)).unwrap();
    app
}

fn rss_kb() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0)
}

fn bench(c: &mut Criterion) {
    let before = rss_kb();
    let page = page();
    let lines = page.body.text().lines().count();
    let mut term = Terminal::new(TestBackend::new(80, 24)).unwrap();
    let mut app = loaded(&page, &mut term);
    // Worst case for memory: every line wrapped once (scroll to the end and back).
    app.update(Msg::Key(Key::ch('G')));
    app.update(Msg::Key(Key::ch('g')));
    for _ in 0..2000 {
        app.update(Msg::Key(Key::ctrl('d')));
    }
    let after = rss_kb();
    eprintln!(
        "page: {} bytes, {lines} lines; memory for page + app: {:.1} MB",
        page.size(),
        (after.saturating_sub(before)) as f64 / 1024.0
    );

    c.bench_function("first_frame_after_body", |b| {
        b.iter(|| black_box(loaded(&page, &mut term)))
    });

    // For reference: the client's decode + parse of the body, then the first frame.
    let body = page.raw.clone();
    c.bench_function("parse_then_first_frame", |b| {
        b.iter(|| {
            let url = Url::parse(URL).expect("bench URL");
            let p = Arc::new(Page::from_gemini(
                url,
                parse_mime("text/gemini"),
                body.clone(),
            ));
            black_box(loaded(&p, &mut term))
        })
    });

    let mut app = loaded(&page, &mut term);
    let mut n = 0u32;
    c.bench_function("scroll_step", |b| {
        b.iter(|| {
            n += 1;
            let key = if n % 2000 < 1000 { 'j' } else { 'k' };
            app.update(Msg::Key(Key::ch(key)));
            term.draw(|f| view::draw(f, &app)).unwrap();
        })
    });

    // Ctrl-D presses from the top to the bottom (past it a press changes nothing), so every
    // measured step really moves: at the bottom the bench starts again from the top.
    let steps = common::steps_to_bottom(&mut loaded(&page, &mut term), &mut term, Key::ctrl('d'));
    eprintln!("page_down_step: {steps} steps from top to bottom");
    app.update(Msg::Key(Key::ch('g')));
    let mut taken = 0usize;
    c.bench_function("page_down_step", |b| {
        b.iter(|| {
            if taken == steps {
                app.update(Msg::Key(Key::ch('g')));
                taken = 0;
            }
            app.update(Msg::Key(Key::ctrl('d')));
            term.draw(|f| view::draw(f, &app)).unwrap();
            taken += 1;
        })
    });

    let mut wide = false;
    let mut big = Terminal::new(TestBackend::new(120, 40)).unwrap();
    c.bench_function("resize", |b| {
        b.iter(|| {
            wide = !wide;
            let (w, h) = if wide { (120, 40) } else { (80, 24) };
            app.update(Msg::Resize {
                width: w,
                height: h,
            });
            let t = if wide { &mut big } else { &mut term };
            t.draw(|f| view::draw(f, &app)).unwrap();
        })
    });

    c.bench_function("bottom_after_resize", |b| {
        b.iter(|| {
            wide = !wide;
            let (w, h) = if wide { (120, 40) } else { (80, 24) };
            app.update(Msg::Resize {
                width: w,
                height: h,
            });
            app.update(Msg::Key(Key::ch('G')));
            let t = if wide { &mut big } else { &mut term };
            t.draw(|f| view::draw(f, &app)).unwrap();
        })
    });

    // A search over the whole 2 MB page (every occurrence found), landing on the first.
    let mut app = loaded(&page, &mut term);
    let search = |app: &mut App, query: &str| {
        app.update(Msg::Key(Key::ch('/')));
        for c in query.chars() {
            app.update(Msg::Key(Key::ch(c)));
        }
        app.update(Msg::Key(Key::plain(smolweb_tui::keymap::Code::Enter)));
    };
    c.bench_function("search_whole_page", |b| {
        b.iter(|| {
            search(&mut app, "lazy dog");
            term.draw(|f| view::draw(f, &app)).unwrap();
        })
    });

    // The next match (about 32,000 of them) and the frame with its marks.
    search(&mut app, "fox");
    c.bench_function("search_next_step", |b| {
        b.iter(|| {
            app.update(Msg::Key(Key::ch('n')));
            term.draw(|f| view::draw(f, &app)).unwrap();
        })
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30);
    targets = bench
}
criterion_main!(benches);
