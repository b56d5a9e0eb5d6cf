//! The third newcomer's walk (issue 33): the outline, sessions that come back, a link opened
//! behind the page, the light theme, and the small things a person noticed, each driven as
//! keys with assertions on what the person sees.

use crate::tui_helpers;

use ratatui::style::Color;
use smolweb_client::Outcome;
use smolweb_store::session::{SavedEntry, SavedSession, SavedTab};
use smolweb_tui::app::{App, Effect, Msg, Popup, Settings};
use smolweb_tui::keymap::Keymap;
use smolweb_tui::theme::Theme;
use tui_helpers::*;

const CAP: &str = "gemini://cap.test/page.gmi";

/// A long page: an introduction, then three parts of 40 lines each.
fn long_page() -> String {
    let mut body = String::from("# The long read\nIntroduction.\n");
    for part in ["Part one", "Part two", "Part three"] {
        body.push_str(&format!("## {part}\n"));
        for i in 0..40 {
            body.push_str(&format!("{part}, line {i}.\n"));
        }
    }
    body.push_str("### A detail\nThe end.\n");
    body
}

fn last_row(app: &App) -> String {
    screen(app).lines().last().unwrap_or_default().to_string()
}

#[test]
fn the_outline_lists_the_headings_and_jumps_to_one() {
    let mut app = app();
    open(&mut app, CAP, gem(CAP, &long_page()));
    press(&mut app, &["#"]);
    let Some(Popup::Outline(o)) = &app.dialog().popup else {
        panic!("no outline: {:?}", app.dialog().popup);
    };
    let levels: Vec<(u8, &str)> = o
        .headings
        .iter()
        .map(|h| (h.level, h.text.as_str()))
        .collect();
    assert_eq!(
        levels,
        [
            (1, "The long read"),
            (2, "Part one"),
            (2, "Part two"),
            (2, "Part three"),
            (3, "A detail")
        ]
    );
    let s = screen(&app);
    assert!(s.contains("Outline") && s.contains("  Part two"), "{s}");
    assert!(s.contains("    A detail"), "levels indent: {s}");
    // Down twice, Enter: the page is at "Part two".
    press(&mut app, &["j", "down", "enter"]);
    assert!(app.dialog().popup.is_none());
    let first = app.screen().frame().first().unwrap().text.clone();
    assert!(first.ends_with("Part two"), "{first}");
    // The status line names the section once the reader is inside it.
    press(&mut app, &["ctrl-d"]);
    assert!(last_row(&app).contains("§ Part two"), "{}", last_row(&app));
    // Esc closes without moving.
    press(&mut app, &["#", "k", "esc"]);
    assert!(app.dialog().popup.is_none());
    assert!(last_row(&app).contains("§ Part two"));
}

#[test]
fn a_short_page_names_no_section_and_a_page_without_headings_says_so() {
    let mut app = app();
    open(&mut app, CAP, gem(CAP, "# Short\ntext\n"));
    assert!(!last_row(&app).contains('§'), "{}", last_row(&app));
    let gopher = "gopher://hole.test/1/";
    open(
        &mut app,
        gopher,
        menu(gopher, "iNo headings\t\terror.host\t1\r\n.\r\n"),
    );
    press(&mut app, &["#"]);
    assert!(app.dialog().popup.is_none());
    assert_eq!(app.status().text, "this page has no headings");
}

#[test]
fn alt_t_opens_a_link_behind_the_page() {
    let mut app = app();
    open(
        &mut app,
        CAP,
        gem(CAP, "# Here\n=> /other.gmi Another page\n"),
    );
    let fx = press(&mut app, &["1"]);
    // One link: followed at once by the digit; go back and use the key instead.
    let (id, _, _) = fetch(&fx);
    answer(
        &mut app,
        id,
        gem("gemini://cap.test/other.gmi", "# Other\n"),
    );
    press(&mut app, &["b", "tab"]);
    let fx = press(&mut app, &["alt-t"]);
    let (id, url, _) = fetch(&fx);
    assert_eq!(url, "gemini://cap.test/other.gmi");
    assert_eq!(app.tabs().len(), 2);
    assert_eq!(app.tabs().active, 0, "the page read stays on screen");
    assert_eq!(app.current_url(), Some(CAP));
    assert!(
        app.status().text.contains("in tab 2"),
        "{}",
        app.status().text
    );
    answer(
        &mut app,
        id,
        gem("gemini://cap.test/other.gmi", "# Other\n"),
    );
    assert_eq!(app.tabs().active, 0);
    assert!(
        app.status().text.contains("in tab 2"),
        "the page behind leaves the status line alone: {}",
        app.status().text
    );
    press(&mut app, &["ctrl-n"]);
    assert_eq!(app.current_url(), Some("gemini://cap.test/other.gmi"));
}

/// Tabs with history, a place on a page, an identity page and a query page.
fn session_app() -> App {
    let mut app = app();
    open(&mut app, CAP, gem(CAP, &long_page()));
    press(&mut app, &["ctrl-d", "ctrl-d"]);
    let second = "gemini://cap.test/second.gmi";
    go(&mut app, second, gem(second, "# Second\n"));
    // A second tab: a page fetched with an identity, then one with a query.
    let fx = press(&mut app, &["ctrl-t"]);
    let (id, _, _) = fetch(&fx);
    answer(&mut app, id, gem("about:home", "# Home\n"));
    let private = "gemini://club.test/members";
    let mut outcome = gem(private, "# Members\n");
    if let Outcome::Page { info, .. } = &mut outcome {
        let mut t = tls(smolweb_net::TofuState::Trusted);
        t.client_cert = Some("sha256:ab".into());
        info.tls = Some(t);
    }
    go(&mut app, private, outcome);
    let search = "gemini://search.test/q?tardigrades";
    go(&mut app, search, gem(search, "# Results\n"));
    app
}

#[test]
fn a_session_keeps_history_and_places_but_never_private_pages() {
    let app = session_app();
    let saved = app.saved_session(false);
    assert_eq!(saved.tabs.len(), 2);
    assert_eq!(saved.active, 1);
    let first = &saved.tabs[0];
    let urls: Vec<&str> = first.entries.iter().map(|e| e.url.as_str()).collect();
    assert_eq!(urls, [CAP, "gemini://cap.test/second.gmi"]);
    assert_eq!(first.current, 1);
    assert!(
        first.entries[0].line > 0,
        "the place on the long page: {first:?}"
    );
    let second = &saved.tabs[1];
    let urls: Vec<&str> = second.entries.iter().map(|e| e.url.as_str()).collect();
    assert_eq!(
        urls,
        ["about:home"],
        "no identity page, no query: {second:?}"
    );
    assert_eq!(second.current, 0);
    // Asked for, they are kept too.
    let all = app.saved_session(true);
    let urls: Vec<&str> = all.tabs[1].entries.iter().map(|e| e.url.as_str()).collect();
    assert_eq!(
        urls,
        [
            "about:home",
            "gemini://club.test/members",
            "gemini://search.test/q?tardigrades"
        ]
    );
}

#[test]
fn a_restored_session_fetches_the_active_page_and_puts_the_reader_back() {
    let saved = SavedSession {
        active: 0,
        tabs: vec![
            SavedTab {
                current: 0,
                entries: vec![
                    SavedEntry {
                        url: CAP.into(),
                        line: 45,
                        row: 0,
                    },
                    SavedEntry {
                        url: "gemini://cap.test/next.gmi".into(),
                        line: 0,
                        row: 0,
                    },
                ],
            },
            SavedTab {
                current: 0,
                entries: vec![SavedEntry {
                    url: "gemini://other.test/".into(),
                    line: 0,
                    row: 0,
                }],
            },
        ],
    };
    let mut app = app();
    let fx = app.restore(saved, None);
    assert!(fx.iter().any(|e| matches!(e, Effect::Store(_))));
    let (id, url, _) = fetch(&fx);
    assert_eq!(url, CAP, "only the active tab's page is fetched");
    assert_eq!(app.tabs().len(), 2);
    answer(&mut app, id, gem(CAP, &long_page()));
    assert_eq!(app.doc_view().unwrap().top.line, 45, "where the reader was");
    // The step forward was not fetched yet: it is when history steps onto it.
    let fx = press(&mut app, &["f"]);
    let (id, url, _) = fetch(&fx);
    assert_eq!(url, "gemini://cap.test/next.gmi");
    answer(&mut app, id, gem("gemini://cap.test/next.gmi", "# Next\n"));
    let fx = press(&mut app, &["b"]);
    assert!(
        fetches(&fx).is_empty(),
        "a page seen stays in memory: {fx:?}"
    );
    // The other tab is fetched when it is shown, once.
    let fx = press(&mut app, &["ctrl-n"]);
    let (id, url, _) = fetch(&fx);
    assert_eq!(url, "gemini://other.test/");
    answer(&mut app, id, gem("gemini://other.test/", "# Other\n"));
    let fx = press(&mut app, &["ctrl-p", "ctrl-n"]);
    assert!(fetches(&fx).is_empty(), "{fx:?}");
}

#[test]
fn a_session_round_trips_through_the_store() {
    let dir = tempfile::tempdir().unwrap();
    let store = smolweb_store::session::Session::new(dir.path().join("session.toml"));
    let app = session_app();
    store.save(&app.saved_session(false)).unwrap();
    let back = store.load().unwrap().unwrap();
    let mut fresh = tui_helpers::app();
    let fx = fresh.restore(back, Some("gemini://new.test/".into()));
    let urls: Vec<String> = fetches(&fx).into_iter().map(|(_, u, _)| u).collect();
    assert_eq!(
        urls,
        ["gemini://new.test/"],
        "the page asked for, in a new tab"
    );
    assert_eq!(fresh.tabs().len(), 3);
    assert_eq!(fresh.tabs().active, 2);
    let titles: Vec<String> = fresh.tabs().iter().map(|t| t.title()).collect();
    assert!(titles[0].contains("second.gmi"), "{titles:?}");
}

#[test]
fn the_light_theme_follows_the_background_only_when_auto() {
    let mut tui = smolweb_client::config::Tui::default();
    let mut app = App::from_config(&tui, 365).unwrap();
    assert!(app.follows_background());
    let dark = app.theme().preformat;
    app.set_light_background(true);
    assert_ne!(app.theme().preformat, dark);
    assert_eq!(app.theme().preformat.fg, Some(Color::Indexed(94)));
    app.set_light_background(false);
    assert_eq!(app.theme().preformat, dark);
    tui.theme.base = "dark".into();
    let mut app = App::from_config(&tui, 365).unwrap();
    assert!(!app.follows_background());
    app.set_light_background(true);
    assert_eq!(app.theme().preformat, dark, "dark stays dark");
    tui.theme.base = "light".into();
    let app = App::from_config(&tui, 365).unwrap();
    assert_eq!(app.theme(), &Theme::light());
    tui.theme.base = "sepia".into();
    let e = App::from_config(&tui, 365).unwrap_err().to_string();
    assert!(e.contains("sepia"), "{e}");
}

#[test]
fn at_80_columns_a_load_keeps_its_cancel_hint_beside_the_badges() {
    let mut app = app_sized(80, 24);
    open(&mut app, CAP, gem(CAP, "# Page\n"));
    app.update(Msg::Agents(smolweb_tui::app::AgentsSeen {
        active: vec!["claude-code-with-a-long-name".into()],
        suggestions: Vec::new(),
        shared: 0,
        log_stamp: 1,
    }));
    press(&mut app, &["ctrl-t"]);
    press(&mut app, &[":", "ctrl-u"]);
    type_text(
        &mut app,
        "gemini://a-rather-long-host-name.example/and/a/long/path/to/a/page.gmi",
    );
    press(&mut app, &["enter"]);
    let row = last_row(&app);
    assert!(row.contains("(esc cancels)"), "{row}");
    assert!(row.contains("agent active"), "{row}");
}

#[test]
fn without_xdg_open_no_dialog_offers_to_open() {
    let mut app = App::new(Settings::default(), Keymap::default(), Theme::default());
    app.update(Msg::Resize {
        width: 80,
        height: 24,
    });
    app.set_system_opener(None);
    let url = "gemini://cap.test/song.ogg";
    open(
        &mut app,
        url,
        page_with(url, "audio/ogg", b"OggS\0\0\0binary"),
    );
    let Some(Popup::Download(q)) = &app.dialog().popup else {
        panic!("{:?}", app.dialog().popup);
    };
    assert!(!q.contains("o: open"), "{q}");
    assert!(q.contains("s: save"), "{q}");
    let fx = press(&mut app, &["o"]);
    assert!(
        !fx.iter().any(|e| matches!(e, Effect::Open { .. })),
        "{fx:?}"
    );
    assert!(app.dialog().asking(), "o is no answer: the question stays");
    // A handler for the type is offered whatever is installed.
    let mut tui = smolweb_client::config::Tui::default();
    tui.handlers.insert("audio".into(), "mpv".into());
    let mut app = App::from_config(&tui, 365).unwrap();
    app.update(Msg::Resize {
        width: 80,
        height: 24,
    });
    app.set_system_opener(None);
    open(
        &mut app,
        url,
        page_with(url, "audio/ogg", b"OggS\0\0\0binary"),
    );
    let Some(Popup::Download(q)) = &app.dialog().popup else {
        panic!();
    };
    assert!(q.contains("o: open with mpv"), "{q}");
}

#[test]
fn gemini_and_gopher_pages_say_their_security() {
    let mut app = app();
    let mut outcome = gem(CAP, "# Page\n");
    if let Outcome::Page { info, .. } = &mut outcome {
        info.tls = Some(tls(smolweb_net::TofuState::Trusted));
    }
    open(&mut app, CAP, outcome);
    assert!(
        last_row(&app).contains("gemini · TLS, pinned"),
        "{}",
        last_row(&app)
    );
    let hole = "gopher://hole.test/1/";
    go(&mut app, hole, menu(hole, "iHi\t\terror.host\t1\r\n.\r\n"));
    assert!(
        last_row(&app).contains("gopher · not encrypted"),
        "{}",
        last_row(&app)
    );
}

#[test]
fn forgetting_one_visit_is_said_in_the_singular() {
    let mut app = app();
    app.update(Msg::Lists {
        history: vec![("gemini://cap.test/".into(), None)],
        bookmarks: Vec::new(),
    });
    open(
        &mut app,
        "about:history",
        gem("about:history", "# History\n=> gemini://cap.test/ cap\n"),
    );
    press(&mut app, &["D"]);
    let s = screen(&app);
    assert!(s.contains("Forget the one visit?"), "{s}");
    assert!(!s.contains("1 visits"), "{s}");
}

#[test]
fn a_restored_entry_is_unloaded_until_shown() {
    let saved = SavedSession {
        active: 1,
        tabs: vec![
            SavedTab {
                current: 0,
                entries: vec![SavedEntry {
                    url: "gemini://a.test/".into(),
                    line: 0,
                    row: 0,
                }],
            },
            SavedTab {
                current: 0,
                entries: vec![SavedEntry {
                    url: "about:help".into(),
                    line: 3,
                    row: 0,
                }],
            },
        ],
    };
    let mut app = app();
    let fx = app.restore(saved, None);
    assert!(fetches(&fx).is_empty(), "help is made here: {fx:?}");
    assert_eq!(app.current_url(), Some("about:help"));
    assert_eq!(app.doc_view().unwrap().top.line, 3);
    // The first tab waits, unfetched, under its address.
    let first = app.tabs().get(0).unwrap();
    assert!(first.title().contains("a.test"), "{}", first.title());
    assert!(first.loading.is_none());
}
