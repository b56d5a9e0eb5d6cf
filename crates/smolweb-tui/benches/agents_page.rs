//! Opening `about:agents` over an activity log of 10,000 entries (100 sessions of 100 calls,
//! as MCP processes leave it): what the shell does (read what is new in the log, group the
//! sessions, build the page) plus the app showing it and the first frame drawn at 80x24
//! (target: under 10 ms), and apart the one full read of the log. Run:
//! `cargo bench -p smolweb-tui --bench agents_page -- --warm-up-time 1 --measurement-time 3`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use criterion::{Criterion, criterion_group, criterion_main};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use smolweb_client::about_browser::agents_page;
use smolweb_client::{Fetched, Outcome, RequestInfo};
use smolweb_core::page::Page;
use smolweb_core::url::Url;
use smolweb_store::activity::{Activity, Entry, Event, Limits, sessions};
use smolweb_tui::app::{App, Effect, Msg, Settings};
use smolweb_tui::keymap::Keymap;
use smolweb_tui::theme::Theme;
use smolweb_tui::view;
use std::hint::black_box;
use std::sync::Arc;

fn filled(log: &Activity) {
    let now = time::OffsetDateTime::now_utc();
    for s in 0..100u32 {
        let sid = format!("{s:08x}");
        log.append(&Entry::new(
            &sid,
            now,
            Event::Start {
                client: format!("agent-{s}"),
                version: "1.0".into(),
                pid: s,
            },
        ))
        .unwrap();
        for i in 0..99 {
            log.append(&Entry::new(
                &sid,
                now,
                Event::Call {
                    tool: "gemini_fetch".into(),
                    url: Some(format!("gemini://capsule{s}.example/post/{i}.gmi")),
                    urls: None,
                    outcome: "gemtext".into(),
                    error: false,
                    bytes: Some(2048),
                    cached: Some(i % 3 == 0),
                    ms: 12,
                },
            ))
            .unwrap();
        }
    }
}

fn open(log: &Activity, term: &mut Terminal<TestBackend>) -> App {
    let entries = log.snapshot().unwrap();
    let all = sessions(&entries);
    let text = agents_page(&all, &[], &[], time::OffsetDateTime::now_utc());
    let url = "about:agents";
    let outcome = Outcome::Page {
        info: RequestInfo {
            url: url.into(),
            ..RequestInfo::default()
        },
        fetched: Fetched {
            page: Arc::new(Page::builtin(Url::parse(url).unwrap(), &text)),
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
    let dir = tempfile::tempdir().unwrap();
    let log = Activity::new(dir.path().join("agent_activity.jsonl"), Limits::default());
    filled(&log);
    assert_eq!(log.read().unwrap().entries.len(), 10_000);
    let mut term = Terminal::new(TestBackend::new(80, 24)).unwrap();
    // As the browser opens it: the store thread's poll has read the log already (the read
    // is incremental), so opening reads what is new (nothing here), groups, builds, lays out
    // and draws.
    log.snapshot().unwrap();
    c.bench_function("about_agents_10000_open", |b| {
        b.iter(|| black_box(open(&log, &mut term)))
    });
    // The one full read of a 10,000-entry log (a fresh process, or after a compaction), done
    // on the store thread, never on the event loop.
    let path = dir.path().join("agent_activity.jsonl");
    c.bench_function("about_agents_10000_full_read", |b| {
        b.iter(|| {
            let fresh = Activity::new(path.clone(), Limits::default());
            black_box(fresh.snapshot().unwrap().len())
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
