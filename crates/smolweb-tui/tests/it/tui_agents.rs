//! The browser beside agents: about:agents lists sessions, suggestions and shared pages from
//! the stores; the badge shows an active session and a waiting suggestion; a suggestion opens
//! (or is dismissed) from the page; the share key shares the page, or the selected link, with
//! a note.

use crate::tui_helpers;
use smolweb_store::activity::{Activity, Entry, Event, Limits, sessions};
use smolweb_store::suggestions::Suggestions;
use smolweb_tui::app::{AgentsSeen, App, Effect, Msg, StoreOp};
use time::OffsetDateTime;
use tui_helpers::*;

fn now() -> OffsetDateTime {
    OffsetDateTime::now_utc()
}

/// A data directory with two sessions' activity and one suggestion, as MCP processes leave it.
fn stores() -> (tempfile::TempDir, AgentsSeen, String) {
    let dir = tempfile::tempdir().unwrap();
    let log = Activity::new(dir.path().join("agent_activity.jsonl"), Limits::default());
    for (sid, name) in [("aaaa0001", "claude-code"), ("bbbb0002", "goose")] {
        log.append(&Entry::new(
            sid,
            now(),
            Event::Start {
                client: name.into(),
                version: "1.2".into(),
                pid: 1,
            },
        ))
        .unwrap();
        log.append(&Entry::new(
            sid,
            now(),
            Event::Call {
                tool: "gemini_fetch".into(),
                url: Some(format!("gemini://cap.test/{name}?q=secret")),
                urls: None,
                outcome: "gemtext".into(),
                error: false,
                bytes: Some(99),
                cached: Some(false),
                ms: 4,
            },
        ))
        .unwrap();
    }
    let s = Suggestions::new(dir.path().join("suggestions.toml"));
    s.add(
        "gemini://cap.test/look",
        Some("You should read this"),
        "goose",
        "bbbb0002",
        now(),
    )
    .unwrap();
    let all = sessions(&log.read().unwrap().entries);
    let seen = AgentsSeen {
        active: all
            .iter()
            .filter(|x| x.active(now()))
            .map(|x| x.label())
            .collect(),
        suggestions: s.pending().unwrap(),
        shared: 0,
        log_stamp: 1,
    };
    let page = smolweb_client::about_browser::agents_page(&all, &seen.suggestions, &[], now());
    (dir, seen, page)
}

fn agents_app() -> (App, tempfile::TempDir, AgentsSeen) {
    let (dir, seen, page) = stores();
    let mut app = app_sized(100, 40);
    let fx = app.start(Some("gemini://cap.test/".into()));
    let (id, _, _) = fetch(&fx);
    answer(
        &mut app,
        id,
        gem("gemini://cap.test/", "# Cap\n=> /linked A link\n"),
    );
    app.update(Msg::Agents(seen.clone()));
    let (id, url, _) = fetch(&press(&mut app, &["A"]));
    assert_eq!(url, "about:agents");
    answer(&mut app, id, gem("about:agents", &page));
    (app, dir, seen)
}

#[test]
fn the_badge_says_an_agent_is_active_and_suggests_a_page() {
    let (_dir, seen, _) = stores();
    let mut app = app_sized(120, 24);
    let fx = app.start(Some("gemini://cap.test/".into()));
    let (id, _, _) = fetch(&fx);
    answer(&mut app, id, gem("gemini://cap.test/", "# Cap\n"));
    assert!(app.agents_badge().is_none());
    app.update(Msg::Agents(seen));
    let badge = app.agents_badge().unwrap();
    assert!(badge.contains("agent active: goose 1.2 +1"), "{badge}");
    assert!(badge.contains("an agent suggests a page"), "{badge}");
    let s = screen(&app);
    assert!(s.contains("an agent suggests a page"), "{s}");
    assert!(app.status().text.contains("an agent suggests a page"));
}

#[test]
fn about_agents_lists_sessions_and_opens_a_suggestion() {
    let (mut app, _dir, _) = agents_app();
    let s = screen(&app);
    for want in [
        "claude-code 1.2",
        "goose 1.2",
        "You should read this",
        "Open it",
        "Dismiss",
    ] {
        assert!(s.contains(want), "{want} missing:\n{s}");
    }
    assert!(!s.contains("secret"), "{s}");
    let dv = app.doc_view().unwrap();
    let links: Vec<String> = (0..dv.doc.link_count())
        .filter_map(|i| dv.doc.link_url(i).map(str::to_string))
        .collect();
    assert!(
        links.contains(&"gemini://cap.test/goose".to_string()),
        "{links:?}"
    );
    let open = links
        .iter()
        .position(|l| l.starts_with("action:suggestion-open:"))
        .unwrap();
    let fx = press(&mut app, &[&(open + 1).to_string()]);
    let (_, url, _) = fetch(&fx);
    assert_eq!(url, "gemini://cap.test/look");
    assert!(
        fx.iter().any(|e| matches!(
            e,
            Effect::Store(StoreOp::TakeSuggestion { opened: true, .. })
        )),
        "{fx:?}"
    );
    assert!(app.agents_badge().is_some_and(|b| !b.contains("suggest")));
}

#[test]
fn the_page_follows_new_activity_while_shown() {
    let (mut app, _dir, mut seen) = agents_app();
    seen.log_stamp += 1;
    let (_, url, _) = fetch(&app.update(Msg::Agents(seen.clone())));
    assert_eq!(url, "about:agents", "made again from the stores");
    // Nothing new: nothing to do.
    assert!(app.update(Msg::Agents(seen)).is_empty());
}

#[test]
fn the_share_key_shares_the_page_or_the_selected_link_with_a_note() {
    let mut app = app_sized(100, 30);
    let fx = app.start(Some("gemini://cap.test/".into()));
    let (id, _, _) = fetch(&fx);
    answer(
        &mut app,
        id,
        gem("gemini://cap.test/", "# Cap\n=> /linked A link\n"),
    );
    press(&mut app, &["P"]);
    assert!(app.prompt().is_some(), "status: {:?}", app.status());
    type_text(&mut app, "summarise please");
    let fx = press(&mut app, &["enter"]);
    let share = fx.iter().find_map(|e| match e {
        Effect::Store(StoreOp::Share { url, title, note }) => Some((url, title, note)),
        _ => None,
    });
    let (url, title, note) = share.expect("a share");
    assert_eq!(url, "gemini://cap.test/");
    assert_eq!(title.as_deref(), Some("Cap"));
    assert_eq!(note.as_deref(), Some("summarise please"));
    // The selected link instead, without a note.
    press(&mut app, &["tab"]);
    press(&mut app, &["P"]);
    let fx = press(&mut app, &["enter"]);
    assert!(
        fx.iter().any(|e| matches!(e, Effect::Store(StoreOp::Share { url, note: None, .. }) if url == "gemini://cap.test/linked")),
        "{fx:?}"
    );
    // Built-in pages are not shared.
    let (id, _, _) = fetch(&press(&mut app, &["B"]));
    answer(&mut app, id, gem("about:bookmarks", "# Bookmarks\n"));
    assert!(press(&mut app, &["P"]).is_empty());
    assert!(app.prompt().is_none());
}
