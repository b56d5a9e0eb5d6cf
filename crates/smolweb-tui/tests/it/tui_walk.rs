//! A newcomer's walk through the browser (issue 11): each bug found on the walk, driven as
//! a key sequence with assertions on the state.

use crate::tui_helpers;

use smolweb_client::Outcome;
use smolweb_net::TofuState;
use smolweb_store::approvals::{Approval, Request as AskRequest};
use smolweb_store::identity::{CreatedBy, Identity, KeyAlgorithm, Scope};
use smolweb_store::tofu::Pin;
use smolweb_tui::app::{App, Effect, Mark, Msg, Popup, Purpose, ShellError, StoreOp};
use tui_helpers::*;

const BIG: &str = "gemini://big.test/big.gmi";

/// A page with a 20,000-character line whose only "needle" is near its end.
fn long_line_app() -> App {
    let mut app = app();
    let mut long = String::new();
    while long.len() < 19_000 {
        long.push_str("lorem ipsum dolor sit amet ");
    }
    long.push_str("the needle is here ");
    while long.len() < 20_000 {
        long.push_str("tail words ");
    }
    let body = format!("# Big\n\nshort line\n{long}\nafter\n");
    open(&mut app, BIG, gem(BIG, &body));
    app
}

fn current_rows(app: &App) -> Vec<usize> {
    app.screen()
        .frame()
        .iter()
        .enumerate()
        .filter(|(_, r)| r.marks.iter().any(|m| m.current))
        .map(|(i, _)| i)
        .collect()
}

#[test]
fn search_deep_in_a_long_line_scrolls_to_the_match_row() {
    let mut app = long_line_app();
    press(&mut app, &["/"]);
    type_text(&mut app, "needle");
    press(&mut app, &["enter"]);
    let top = app.doc_view().unwrap().top;
    assert_eq!(top.line, 3, "the long line");
    assert!(
        top.row > 100,
        "scrolled deep into the line, not its start: {top:?}"
    );
    let rows = current_rows(&app);
    assert_eq!(rows.len(), 1, "the current match is on screen once");
    let row = &app.screen().frame()[rows[0]];
    let m = row.marks[0];
    assert_eq!(&row.text[m.start..m.end], "needle");
    assert!(screen(&app).contains("the needle is here"));
}

#[test]
fn a_match_wrapped_across_two_rows_is_marked_on_both() {
    let mut app = app_sized(30, 10);
    // At 28 text columns, "wrapped" would start at column 24 and end past the edge; with no
    // space to break on, the word is cut and continues on the next row.
    let body = "aaaaaaaaaaaaaaaaaaaaaaaawrappedword bbb\n";
    open(&mut app, BIG, gem(BIG, body));
    press(&mut app, &["/"]);
    type_text(&mut app, "wrapped");
    press(&mut app, &["enter"]);
    let marked: Vec<&str> = app
        .screen()
        .frame()
        .iter()
        .flat_map(|r| r.marks.iter().map(move |m: &Mark| &r.text[m.start..m.end]))
        .collect();
    assert_eq!(marked.concat(), "wrapped", "{:?}", app.screen().frame());
    assert_eq!(marked.len(), 2, "the match spans two rows: {marked:?}");
}

#[test]
fn the_current_match_has_its_own_mark_and_moves_with_n() {
    let mut app = app();
    open(&mut app, BIG, gem(BIG, "one cat\ntwo cat\nthree cat\n"));
    press(&mut app, &["/"]);
    type_text(&mut app, "cat");
    press(&mut app, &["enter"]);
    let marks = |app: &App| -> Vec<(usize, bool)> {
        app.screen()
            .frame()
            .iter()
            .flat_map(|r| r.marks.iter().map(move |m| (r.pos.line, m.current)))
            .collect()
    };
    assert_eq!(marks(&app), [(0, true), (1, false), (2, false)]);
    press(&mut app, &["n"]);
    let m = marks(&app);
    assert!(
        m.contains(&(1, true)) && m.iter().filter(|(_, c)| *c).count() == 1,
        "{m:?}"
    );
}

#[test]
fn status_62_without_a_certificate_says_none_was_sent() {
    let mut app = app();
    let url = "gemini://club.test/";
    open(
        &mut app,
        url,
        Outcome::Certificate {
            info: info(url),
            status: 62,
            message: "bad cert".into(),
        },
    );
    let s = screen(&app);
    assert!(s.contains("No identity was sent"), "{s}");
    assert!(!s.contains("the certificate you presented"), "{s}");
    press(&mut app, &["1"]);
    assert!(matches!(
        app.prompt().map(|p| &p.purpose),
        Some(Purpose::IdentityName { scope, .. }) if scope.path == "/"
    ));
}

#[test]
fn history_shows_a_label_for_every_visit_and_keeps_no_gopher_search() {
    let mut app = app();
    let url = "gopher://hole.test/7/find";
    let fx = app.start(Some(url.into()));
    assert!(fetches(&fx).is_empty(), "a type-7 item asks first");
    type_text(&mut app, "secret words");
    let (id, sent, opts) = fetch(&press(&mut app, &["enter"]));
    assert_eq!(sent, url);
    assert_eq!(opts.search.as_deref(), Some("secret words"));
    let fx = answer(
        &mut app,
        id,
        menu(
            "gopher://hole.test/7/find%09secret%20words",
            "iresult\tfake\t(NULL)\t0\r\n.\r\n",
        ),
    );
    let recorded: Vec<&String> = fx
        .iter()
        .filter_map(|e| match e {
            Effect::Store(StoreOp::RecordHistory { url, .. }) => Some(url),
            _ => None,
        })
        .collect();
    assert_eq!(recorded, [&url.to_string()], "the search is not kept");
    assert!(
        app.lists()
            .history
            .iter()
            .all(|(u, _)| !u.contains("secret")),
        "{:?}",
        app.lists().history
    );

    let visits = [smolweb_store::history::Visit {
        url: "gopher://hole.test/1/".into(),
        title: None,
        at: time::macros::datetime!(2026-12-01 0:00 UTC),
    }];
    let page = smolweb_client::about::history_page(&visits, None);
    let mut app = app_sized(80, 10);
    open(&mut app, "about:history", gem("about:history", &page));
    assert!(
        screen(&app).contains("[1] 00:00 gopher://hole.test/1/"),
        "{}",
        screen(&app)
    );
}

#[test]
fn the_first_pin_message_names_the_port() {
    let mut app = app();
    let url = "gemini://cap.test:1966/";
    let mut page = gem(url, "# Hi\n");
    if let Outcome::Page { info, .. } = &mut page {
        info.tls = Some(tls(TofuState::FirstUse));
    }
    open(&mut app, url, page);
    assert!(
        app.status().text.contains("cap.test:1966"),
        "{:?}",
        app.status()
    );
}

#[test]
fn the_identities_screen_follows_an_approval_made_elsewhere() {
    let mut app = app();
    open(&mut app, BIG, gem(BIG, "# Hi\n"));
    press(&mut app, &["I"]);
    app.update(Msg::Approvals(vec![approval("ab12cd34")]));
    assert!(screen(&app).contains("REQUEST ab12cd34"));
    // The shell's poll after `smolweb identity approve ab12cd34` in another terminal.
    app.update(Msg::Approvals(Vec::new()));
    app.update(Msg::Identities(vec![identity("agent-login")]));
    let s = screen(&app);
    assert!(!s.contains("REQUEST"), "{s}");
    assert!(s.contains("agent-login"), "{s}");
}

fn identity(name: &str) -> Identity {
    Identity {
        name: name.into(),
        fingerprint: "sha256:beef".into(),
        scope: Scope {
            host: "cap.test".into(),
            port: 1965,
            path: "/app".into(),
        },
        not_before: time::macros::datetime!(2025-01-01 0:00 UTC),
        not_after: time::macros::datetime!(2099-01-01 0:00 UTC),
        created_by: CreatedBy::Agent,
        agent_use: true,
        algorithm: KeyAlgorithm::EcdsaP256,
        cert_pem: String::new(),
    }
}

fn approval(id: &str) -> Approval {
    Approval {
        id: id.into(),
        request: AskRequest::IdentityCreate {
            scope: Scope {
                host: "cap.test".into(),
                port: 1965,
                path: "/app".into(),
            },
            name: "agent-login".into(),
        },
        client: "test-agent".into(),
        requested_at: time::macros::datetime!(2025-01-01 0:00 UTC),
        expires_at: time::macros::datetime!(2099-01-01 0:00 UTC),
    }
}

#[test]
fn a_store_error_names_the_file() {
    let mut app = app();
    open(&mut app, BIG, gem(BIG, "# Hi\n"));
    let err = smolweb_store::StoreError::Corrupt {
        path: "/data/bookmarks.gmi".into(),
        reason: "not UTF-8".into(),
    };
    app.update(Msg::Done(Err(err.into())));
    assert!(app.status().error);
    assert!(
        app.status().text.contains("/data/bookmarks.gmi"),
        "{:?}",
        app.status()
    );
}

fn pin(host: &str, port: u16) -> Pin {
    Pin {
        host: host.into(),
        port,
        fingerprint: format!("sha256:{}", "ab".repeat(32)),
        not_after: Some(time::macros::datetime!(2031-05-06 0:00 UTC)),
        first_seen: time::macros::datetime!(2026-01-02 0:00 UTC),
        last_seen: time::macros::datetime!(2026-11-30 0:00 UTC),
    }
}

/// The pins page as the shell makes it.
pub(crate) fn pins_app() -> App {
    let mut app = app_sized(80, 30);
    let page = smolweb_client::about_browser::pins_page(&[pin("cap.test", 1965), pin("::1", 1966)]);
    let fx = app.start(Some("about:trust".into()));
    let (id, _, _) = fetch(&fx);
    answer(&mut app, id, gem("about:trust", &page));
    app
}

#[test]
fn the_pins_page_forgets_a_pin_after_asking() {
    let mut app = pins_app();
    let s = screen(&app);
    assert!(
        s.contains("cap.test:1965") && s.contains("2031-05-06"),
        "{s}"
    );
    assert!(s.contains("at most once an hour"), "{s}");
    let fx = press(&mut app, &["2"]);
    assert!(fx.is_empty(), "asks first");
    assert!(matches!(&app.dialog().popup, Some(Popup::Confirm(q)) if q.contains("::1:1966")));
    let fx = press(&mut app, &["y"]);
    assert!(
        fx.iter().any(
            |e| matches!(e, Effect::Store(StoreOp::Forget { host, port: 1966 }) if host == "::1")
        ),
        "{fx:?}"
    );
    // The change reported by the store makes the page again.
    let fx = app.update(Msg::Done(Ok("forgot the certificate of ::1:1966".into())));
    let (_, url, _) = fetch(&fx);
    assert_eq!(url, "about:trust");
    assert!(app.status().text.contains("forgot"));
    // On the identities screen, T leads here.
    press(&mut app, &["I"]);
    assert!(screen(&app).contains("T pinned certificates"));
    let (_, url, _) = fetch(&press(&mut app, &["T"]));
    assert_eq!(url, "about:trust");
}

#[test]
fn sideways_scroll_stops_at_the_end_of_the_longest_line() {
    let mut app = app();
    let wide = "x".repeat(100);
    open(
        &mut app,
        BIG,
        gem(BIG, &format!("```\n{wide}END\nshort\n```\n")),
    );
    for _ in 0..50 {
        press(&mut app, &["l"]);
    }
    let h = app.doc_view().unwrap().hscroll;
    // 103 cells in a 79-cell room (80 columns, a margin of 1): 24 cells to scroll.
    assert_eq!(h, 24, "stopped at the end");
    let s = screen(&app);
    assert!(s.contains("xEND"), "{s}");
    press(&mut app, &["h", "h", "h", "h"]);
    assert_eq!(app.doc_view().unwrap().hscroll, 0);
    assert!(
        screen(&app).contains("x›"),
        "a cut line is marked: {}",
        screen(&app)
    );
}

#[test]
fn undo_close_brings_the_tab_back_where_it_was() {
    let mut app = app();
    open(&mut app, BIG, gem(BIG, "# One\n"));
    for title in ["Two", "Three"] {
        let (id, _, _) = fetch(&press(&mut app, &["ctrl-t"]));
        answer(&mut app, id, gem(BIG, &format!("# {title}\n")));
    }
    press(&mut app, &["ctrl-p"]);
    assert_eq!(app.current().unwrap().title, "Two");
    press(&mut app, &["ctrl-w"]);
    press(&mut app, &["ctrl-n"]);
    press(&mut app, &["X"]);
    let titles: Vec<String> = app.tabs().iter().map(|t| t.title()).collect();
    assert_eq!(titles, ["One", "Two", "Three"]);
    assert_eq!(app.current().unwrap().title, "Two");
}

#[test]
fn status_messages_expire_and_clear_when_a_question_opens() {
    let mut app = app();
    app.set_web_external(true);
    open(
        &mut app,
        BIG,
        gem(
            BIG,
            "# Hi\n=> gemini://far.test/ Far\n=> https://web.test/ Web\n",
        ),
    );
    press(&mut app, &["p"]);
    assert!(app.status().text.contains("no preformatted"));
    app.update(Msg::Tick(1_000));
    assert!(!app.status().text.is_empty(), "still there after a second");
    app.update(Msg::Tick(6_000));
    assert!(app.status().text.is_empty(), "gone after a few seconds");
    press(&mut app, &["p"]);
    press(&mut app, &["2"]);
    assert!(app.dialog().popup.is_some());
    assert!(app.status().text.is_empty(), "{:?}", app.status());
}

#[test]
fn enter_after_a_number_that_was_followed_at_once_is_quiet() {
    let mut app = app();
    let body = "=> /1 One\n=> /2 Two\n=> /3 Three\n=> /4 Four\n";
    open(&mut app, BIG, gem(BIG, body));
    let (id, url, _) = fetch(&press(&mut app, &["1"]));
    assert_eq!(url, "gemini://big.test/1");
    let fx = press(&mut app, &["enter"]);
    assert!(fx.is_empty());
    assert!(
        !app.status().text.contains("type a link number"),
        "{:?}",
        app.status()
    );
    answer(&mut app, id, gem("gemini://big.test/1", "# One\n=> /x X\n"));
    app.update(Msg::Tick(5_000));
    press(&mut app, &["enter"]);
    assert!(
        app.status().text.contains("type a link number"),
        "later, Enter explains: {:?}",
        app.status()
    );
}

const LINKS: &str = "# Links\n\n=> gemini://one.test/page One\n=> https://web.test/x Web\n";

#[test]
fn a_selected_or_pointed_link_shows_its_url_and_copies_it() {
    let mut app = app();
    open(&mut app, BIG, gem(BIG, LINKS));
    press(&mut app, &["tab"]);
    let last = screen(&app).lines().last().unwrap().to_string();
    assert!(last.contains("→ gemini://one.test/page"), "{last}");
    let fx = press(&mut app, &["Y"]);
    assert!(
        fx.iter()
            .any(|e| matches!(e, Effect::Copy { text } if text == "gemini://one.test/page")),
        "{fx:?}"
    );
    // The pointer over the second link wins over the selection.
    let row = app
        .screen()
        .frame()
        .iter()
        .position(|r| r.link == Some(1))
        .unwrap();
    app.update(Msg::Tick(60_000));
    app.update(Msg::Hover {
        col: 10,
        row: row as u16 + 1,
    });
    assert_eq!(app.link_target(), Some("https://web.test/x"));
    assert!(screen(&app).contains("→ https://web.test/x"));
    // No link: the page's URL.
    press(&mut app, &["esc"]);
    app.update(Msg::Hover { col: 0, row: 0 });
    let fx = press(&mut app, &["Y"]);
    assert!(
        fx.iter()
            .any(|e| matches!(e, Effect::Copy { text } if text == BIG))
    );
}

#[test]
fn copying_can_be_switched_off() {
    let tui = smolweb_client::config::Tui {
        osc52_copy: false,
        ..Default::default()
    };
    let mut app = App::from_config(&tui, 365).unwrap();
    app.update(Msg::Resize {
        width: 80,
        height: 24,
    });
    open(&mut app, BIG, gem(BIG, LINKS));
    let fx = press(&mut app, &["tab", "Y"]);
    assert!(!fx.iter().any(|e| matches!(e, Effect::Copy { .. })));
    assert!(app.status().error && app.status().text.contains("osc52_copy"));
}

#[test]
fn an_opener_that_cannot_start_offers_to_copy_the_url() {
    let mut app = app();
    app.set_web_external(true);
    open(&mut app, BIG, gem(BIG, LINKS));
    let fx = press(&mut app, &["2", "y"]);
    assert!(fx.iter().any(|e| matches!(e, Effect::OpenExternal { .. })));
    app.update(Msg::Done(Err(ShellError::Start {
        program: "xdg-open".into(),
        url: "https://web.test/x".into(),
        source: std::sync::Arc::new(std::io::Error::from(std::io::ErrorKind::NotFound)),
    })));
    assert!(
        matches!(&app.dialog().popup, Some(Popup::Confirm(q))
            if q.contains("https://web.test/x") && q.contains("xdg-open")),
        "{:?}",
        app.dialog().popup
    );
    let fx = press(&mut app, &["y"]);
    assert!(
        fx.iter()
            .any(|e| matches!(e, Effect::Copy { text } if text == "https://web.test/x"))
    );
}

#[test]
fn bookmarks_get_names_and_are_renamed_and_deleted_on_their_page() {
    let mut app = app();
    open(&mut app, BIG, gem(BIG, "# A big page\n"));
    press(&mut app, &["m"]);
    assert_eq!(app.prompt().unwrap().text, "A big page");
    type_text(&mut app, "Big one");
    let fx = press(&mut app, &["enter"]);
    assert!(
        fx.iter().any(
            |e| matches!(e, Effect::Store(StoreOp::AddBookmark { url, title })
            if url == BIG && title == "Big one")
        ),
        "{fx:?}"
    );
    // The bookmarks page, as the shell makes it from the store.
    let page = smolweb_client::about::bookmarks_page(&app.lists().bookmarks, None);
    let (id, _, _) = fetch(&press(&mut app, &["B"]));
    answer(&mut app, id, gem("about:bookmarks", &page));
    assert!(screen(&app).contains("[1] Big one"));
    press(&mut app, &["tab", "R"]);
    assert_eq!(app.prompt().unwrap().text, "Big one");
    press(&mut app, &["ctrl-u"]);
    type_text(&mut app, "Renamed");
    let fx = press(&mut app, &["enter"]);
    assert!(fx.iter().any(
        |e| matches!(e, Effect::Store(StoreOp::AddBookmark { title, .. })
        if title == "Renamed")
    ));
    assert!(press(&mut app, &["d"]).is_empty(), "delete asks first");
    assert!(matches!(&app.dialog().popup, Some(Popup::Confirm(q)) if q.contains("Renamed")));
    let fx = press(&mut app, &["y"]);
    assert!(
        fx.iter()
            .any(|e| matches!(e, Effect::Store(StoreOp::RemoveBookmark { url }) if url == BIG))
    );
    assert!(app.lists().bookmarks.is_empty());
}

/// Fetch a binary answer from the home page.
fn downloading(mime: &str, url: &str) -> App {
    let mut app = app();
    open(&mut app, BIG, gem(BIG, "# Home\n"));
    press(&mut app, &[":", "ctrl-u"]);
    type_text(&mut app, url);
    let (id, _, _) = fetch(&press(&mut app, &["enter"]));
    let body = vec![7u8; 2_500];
    let fx = answer(&mut app, id, page_with(url, mime, &body));
    assert!(fx.is_empty(), "nothing happens before the choice: {fx:?}");
    app
}

#[test]
fn a_download_shows_size_and_type_and_offers_open_save_cancel() {
    let mut app = downloading("application/pdf", "gemini://big.test/paper");
    let q = match &app.dialog().popup {
        Some(Popup::Download(q)) => q.clone(),
        other => panic!("{other:?}"),
    };
    assert!(
        q.contains("paper.pdf") && q.contains("application/pdf") && q.contains("2.4 KiB"),
        "{q}"
    );
    assert!(q.contains("open with xdg-open"), "{q}");
    let fx = press(&mut app, &["o"]);
    assert!(
        fx.iter()
            .any(|e| matches!(e, Effect::Open { name, .. } if name == "paper.pdf")),
        "{fx:?}"
    );

    let mut app = downloading("application/pdf", "gemini://big.test/paper");
    assert!(press(&mut app, &["c"]).is_empty());
    assert!(app.dialog().popup.is_none());
    assert_eq!(app.current_url(), Some(BIG), "still on the page");
}

#[test]
fn a_configured_handler_is_named() {
    let mut tui = smolweb_client::config::Tui::default();
    tui.handlers.insert("image".into(), "feh".into());
    let mut app = App::from_config(&tui, 365).unwrap();
    app.update(Msg::Resize {
        width: 80,
        height: 24,
    });
    open(&mut app, BIG, gem(BIG, "# Home\n"));
    let (id, _, _) = fetch(
        &press(&mut app, &[":", "ctrl-u"])
            .into_iter()
            .chain({
                type_text(&mut app, "gemini://big.test/cat.jpg");
                press(&mut app, &["enter"])
            })
            .collect::<Vec<_>>(),
    );
    answer(
        &mut app,
        id,
        page_with("gemini://big.test/cat.jpg", "image/jpeg", b"\xff\xd8"),
    );
    assert!(matches!(&app.dialog().popup, Some(Popup::Download(q)) if q.contains("open with feh")));
}

#[test]
fn remote_text_in_the_status_line_tabs_and_popups_has_no_control_characters() {
    let mut app = app();
    app.set_web_external(true);
    let body = "# Evil\x1b]0;title\x07 page\n=> gemini://x.test/\x1b[2J Clear\n=> https://w.test/\x1b]52;c;QQ==\x07 Web\n";
    open(&mut app, BIG, gem(BIG, body));
    press(&mut app, &["tab"]);
    let s = screen(&app);
    assert!(!s.contains('\x1b') && !s.contains('\x07'), "{s:?}");
    let tab_bar = s.lines().next().unwrap();
    assert!(
        tab_bar.contains("Evil\u{fffd}]0;title\u{fffd} page"),
        "the control characters are marked, not passed or silently dropped: {tab_bar}"
    );
    assert!(s.contains("→ gemini://x.test/%1B%5B2J"), "{s}");
    press(&mut app, &["2"]);
    assert!(app.dialog().popup.is_some());
    let s = screen(&app);
    assert!(!s.contains('\x1b') && !s.contains('\x07'), "{s:?}");
}
