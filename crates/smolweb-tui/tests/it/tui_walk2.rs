//! The second newcomer's walk (issue 20): each surprise, driven as keys with assertions on
//! what the person sees.

use crate::tui_helpers;

use smolweb_client::Outcome;
use smolweb_tui::app::{App, Popup};
use tui_helpers::*;

const CAP: &str = "gemini://cap.test/page.gmi";

fn info_rows(app: &mut App) -> Vec<(String, String)> {
    press(app, &["i"]);
    let Some(Popup::Info(rows)) = &app.dialog().popup else {
        panic!("{:?}", app.dialog().popup);
    };
    let rows = rows.clone();
    press(app, &["esc"]);
    rows
}

fn row(rows: &[(String, String)], key: &str) -> Option<String> {
    rows.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone())
}

#[test]
fn page_info_without_tls_says_why_for_each_kind_of_page() {
    // A Gemini page with no TLS details is a kept copy, not "not a Gemini page".
    let mut app = app();
    open(&mut app, CAP, gem(CAP, "# Kept\n"));
    let tls = row(&info_rows(&mut app), "TLS").unwrap();
    assert!(tls.contains("not checked on this visit"), "{tls}");

    let hole = "gopher://hole.test/1/";
    let mut app = tui_helpers::app();
    open(
        &mut app,
        hole,
        menu(hole, "iWelcome\t\terror.host\t1\r\n.\r\n"),
    );
    let tls = row(&info_rows(&mut app), "TLS").unwrap();
    assert!(tls.contains("Gopher is not encrypted"), "{tls}");
}

#[test]
fn a_cached_gemini_page_names_its_certificate_as_pinned() {
    let mut app = app();
    let mut outcome = gem(CAP, "# Cached\n");
    if let Outcome::Page { info, fetched } = &mut outcome {
        info.tls = Some(tls(smolweb_net::TofuState::Trusted));
        fetched.cached = true;
    }
    open(&mut app, CAP, outcome);
    let rows = info_rows(&mut app);
    assert!(
        row(&rows, "TLS").unwrap().starts_with("TLSv1.3"),
        "{rows:?}"
    );
    assert_eq!(
        row(&rows, "Trust").as_deref(),
        Some("matches the pinned certificate")
    );
}

#[test]
fn view_source_shows_the_bytes_as_received_and_goes_back() {
    let body = "# Title\n=> /next A link\n* item\n";
    let mut app = app();
    open(&mut app, CAP, gem(CAP, body));
    assert!(!screen(&app).contains("=> /next"), "rendered, not source");
    press(&mut app, &["\\"]);
    let shown = screen(&app);
    assert!(shown.contains("# Title"), "{shown}");
    assert!(shown.contains("=> /next A link"), "{shown}");
    assert!(
        app.status().text.contains("source"),
        "{}",
        app.status().text
    );
    assert!(app.current().unwrap().title.starts_with("source: "));
    press(&mut app, &["b"]);
    assert!(
        !screen(&app).contains("=> /next"),
        "back on the rendered page"
    );

    // The source is decoded with the page's own charset.
    let latin = "gemini://cap.test/latin.gmi";
    let mut app = tui_helpers::app();
    open(
        &mut app,
        latin,
        page_with(
            latin,
            "text/gemini; charset=iso-8859-1",
            b"=> /caf Caf\xe9\n",
        ),
    );
    press(&mut app, &["\\"]);
    assert!(
        screen(&app).contains("=> /caf Caf\u{e9}"),
        "{}",
        screen(&app)
    );
}

#[test]
fn a_long_message_says_where_to_read_it_whole_and_about_messages_keeps_it() {
    let long = "gemini://cap.test/a/very/long/address/that/cannot/fit/in/sixty/columns.gmi";
    let mut app = tui_helpers::app_sized(60, 12);
    open(&mut app, long, gem(long, "# Long\n"));
    press(&mut app, &["Y"]);
    let said = app.status().text.clone();
    assert!(said.contains(long), "{said}");
    let last = screen(&app).lines().last().unwrap_or_default().to_string();
    assert!(last.contains("… (M: all)"), "{last}");
    // A later message does not push it out, and the page lists it whole, newest first.
    press(&mut app, &["\\"]);
    let later = app.status().text.clone();
    press(&mut app, &["M"]);
    assert_eq!(app.current().unwrap().url, "about:messages");
    let page = app
        .tab()
        .unwrap()
        .doc_view()
        .unwrap()
        .doc
        .page()
        .body
        .text()
        .to_string();
    assert!(page.contains(&said), "{page}");
    let (newer, older) = (page.find(&later).unwrap(), page.find(&said).unwrap());
    assert!(newer < older, "newest first:\n{page}");
}

#[test]
fn urls_are_shown_one_way_decoded_and_copied_exact() {
    let exact = "gemini://cap.test/caf%C3%A9.gmi";
    let mut app = tui_helpers::app();
    open(&mut app, exact, gem(exact, "no title here\n"));
    let last = screen(&app).lines().last().unwrap_or_default().to_string();
    assert!(last.contains("gemini://cap.test/café.gmi"), "{last}");
    assert_eq!(
        app.tabs().iter().next().unwrap().title(),
        "cap.test/café.gmi"
    );
    let fx = press(&mut app, &["Y"]);
    assert!(
        fx.iter()
            .any(|e| matches!(e, smolweb_tui::app::Effect::Copy { text } if text == exact)),
        "{fx:?}"
    );
    // An error page for an address typed with the default port says it as the status line does.
    let typed = "gemini://cap.test:1965/caf%C3%A9.gmi";
    go(
        &mut app,
        typed,
        Outcome::Error {
            info: info(typed),
            error: smolweb_net::FetchError::Timeout(std::time::Duration::from_secs(30)),
        },
    );
    let shown = screen(&app);
    assert!(shown.contains("gemini://cap.test/café.gmi"), "{shown}");
    assert!(!shown.contains(":1965"), "{shown}");
}

#[test]
fn json_from_a_capsule_can_be_viewed_as_text_and_html_opens_in_the_reader() {
    let json = "gemini://cap.test/data.json";
    let mut app = tui_helpers::app();
    open(
        &mut app,
        json,
        page_with(
            json,
            "application/json",
            br#"{"name":"smolweb","tags":["a","b"]}"#,
        ),
    );
    let asked = match &app.dialog().popup {
        Some(Popup::Download(q)) => q.clone(),
        other => panic!("{other:?}"),
    };
    assert!(asked.contains("t: view as text"), "{asked}");
    press(&mut app, &["t"]);
    let shown = screen(&app);
    assert!(
        shown.contains("\"name\": \"smolweb\""),
        "re-indented:\n{shown}"
    );
    assert_eq!(app.current().unwrap().url, json);

    // An image has no text to view: not offered.
    let png = "gemini://cap.test/p.png";
    let mut app = tui_helpers::app();
    open(
        &mut app,
        png,
        page_with(png, "image/png", b"\x89PNG\r\n\x1a\n...."),
    );
    match &app.dialog().popup {
        Some(Popup::Download(q)) => assert!(!q.contains("view as text"), "{q}"),
        other => panic!("{other:?}"),
    }

    // HTML served over Gemini reads as a web page does: no markup on screen, links numbered.
    let html = "gemini://cap.test/old.html";
    let body = "<html><head><title>Old page</title></head><body><nav><a href='/'>Home</a></nav>\
        <article><h1>Old page</h1><p>Written long ago for the web, now served from a capsule, \
        with a <a href='/more.gmi'>link to more</a> in the middle of a sentence of text.</p>\
        </article></body></html>";
    let mut app = tui_helpers::app();
    open(
        &mut app,
        html,
        page_with(html, "text/html", body.as_bytes()),
    );
    let shown = screen(&app);
    assert!(!shown.contains("<p>"), "{shown}");
    assert!(shown.contains("Written long ago for the web"), "{shown}");
    assert!(shown.contains("link to more"), "{shown}");
    let rows = info_rows(&mut app);
    assert_eq!(row(&rows, "Type").as_deref(), Some("text/html"));
}

fn with_identity(url: &str, body: &str, fp: Option<&str>) -> Outcome {
    let mut o = gem(url, body);
    if let Outcome::Page { info, .. } = &mut o {
        let mut t = tls(smolweb_net::TofuState::Trusted);
        t.client_cert = fp.map(str::to_string);
        info.tls = Some(t);
    }
    o
}

#[test]
fn the_identity_in_use_is_in_sight_and_its_first_use_announced() {
    let alice = tui_helpers::identity("alice", "sha256:a11ce");
    let mut app = tui_helpers::app();
    app.update(smolweb_tui::app::Msg::Identities(vec![alice]));
    open(&mut app, CAP, with_identity(CAP, "# Open\n", None));
    assert_eq!(app.identity_badge(), None);
    let inbox = "gemini://cap.test/app/inbox.gmi";
    go(
        &mut app,
        inbox,
        with_identity(inbox, "# Inbox\n=> next.gmi Next\n", Some("sha256:a11ce")),
    );
    assert!(
        app.status()
            .text
            .contains("identity \"alice\" sent to cap.test:1965"),
        "{}",
        app.status().text
    );
    assert_eq!(app.identity_badge().as_deref(), Some("as alice"));
    let shown = screen(&app);
    assert!(
        shown.lines().next().unwrap().contains("@alice"),
        "tab:\n{shown}"
    );
    assert!(
        shown.lines().last().unwrap().contains("as alice"),
        "status:\n{shown}"
    );
    // The next page with the same identity is not announced again.
    let next = "gemini://cap.test/app/next.gmi";
    go(
        &mut app,
        next,
        with_identity(next, "# Next\n", Some("sha256:a11ce")),
    );
    assert!(
        !app.status().text.contains("sent to"),
        "{}",
        app.status().text
    );
}

#[test]
fn history_gives_times_of_day_and_forgets_one_visit_or_all_after_asking() {
    use smolweb_store::history::Visit;
    use smolweb_tui::app::{Effect, StoreOp};
    let visits = [
        Visit {
            url: "gemini://cap.test/b.gmi".into(),
            title: Some("Bee".into()),
            at: time::macros::datetime!(2026-12-02 14:03 UTC),
        },
        Visit {
            url: "gemini://cap.test/a.gmi".into(),
            title: Some("Ay".into()),
            at: time::macros::datetime!(2026-12-01 09:30 UTC),
        },
    ];
    let page = smolweb_client::about::history_page(&visits, Some("note"));
    assert!(
        page.contains("## 2026-12-02\n=> gemini://cap.test/b.gmi 14:03 Bee\n"),
        "{page}"
    );
    assert!(
        page.contains("## 2026-12-01\n=> gemini://cap.test/a.gmi 09:30 Ay\n"),
        "{page}"
    );
    let mut app = tui_helpers::app();
    open(&mut app, "about:history", gem("about:history", &page));
    press(&mut app, &["tab"]);
    press(&mut app, &["d"]);
    assert!(app.dialog().asking(), "asks first");
    let kept = press(&mut app, &["n"]);
    assert!(
        kept.is_empty() && app.status().text.contains("kept the visit"),
        "{kept:?}"
    );
    press(&mut app, &["d"]);
    let fx = press(&mut app, &["y"]);
    assert!(
        fx.iter().any(|e| matches!(e, Effect::Store(StoreOp::RemoveVisit { url }) if url == "gemini://cap.test/b.gmi")),
        "{fx:?}"
    );
    press(&mut app, &["D"]);
    let fx = press(&mut app, &["y"]);
    assert!(
        fx.iter()
            .any(|e| matches!(e, Effect::Store(StoreOp::ClearHistory))),
        "{fx:?}"
    );
    // Elsewhere d is no history key.
    open(&mut app, CAP, gem(CAP, "=> /x X\n"));
    press(&mut app, &["tab"]);
    assert!(press(&mut app, &["d"]).is_empty());
    assert!(!app.dialog().asking());
}

#[test]
fn mark_all_read_on_the_feeds_page_asks_and_knows_the_feed_shown() {
    use smolweb_tui::app::{Effect, FeedOp};
    let all = "about:feeds";
    let mut app = tui_helpers::app();
    open(
        &mut app,
        all,
        gem(all, "# Feeds\n=> gemini://a.example/1 One\n"),
    );
    press(&mut app, &["R"]);
    assert!(app.dialog().asking(), "asks first");
    let fx = press(&mut app, &["y"]);
    assert!(
        fx.iter()
            .any(|e| matches!(e, Effect::Feeds(FeedOp::MarkAllRead { feed: None }))),
        "{fx:?}"
    );
    let one = smolweb_client::about_feeds::one_feed_url("gemini://a.example/log/");
    go(
        &mut app,
        &one,
        gem(&one, "# Feeds: Log\n=> gemini://a.example/1 One\n"),
    );
    press(&mut app, &["R"]);
    let fx = press(&mut app, &["y"]);
    assert!(
        fx.iter().any(|e| matches!(e, Effect::Feeds(FeedOp::MarkAllRead { feed: Some(f) }) if f == "gemini://a.example/log/")),
        "{fx:?}"
    );
    // Anywhere else it says where it works and does nothing.
    open(&mut app, CAP, gem(CAP, "# Page\n"));
    assert!(press(&mut app, &["R"]).is_empty());
    assert!(!app.dialog().asking());
    assert!(
        app.status().text.contains("feeds page"),
        "{}",
        app.status().text
    );
}

#[test]
fn a_bookmark_is_filed_in_a_folder_from_the_bookmarks_page() {
    use smolweb_tui::app::{Effect, StoreOp};
    let page = "# Bookmarks\n\n=> gemini://a.example/ A\n";
    let mut app = tui_helpers::app();
    open(&mut app, "about:bookmarks", gem("about:bookmarks", page));
    press(&mut app, &["tab", "F"]);
    assert!(app.prompt().is_some(), "asks for the folder");
    type_text(&mut app, "Reading");
    let fx = press(&mut app, &["enter"]);
    assert!(
        fx.iter().any(|e| matches!(e, Effect::Store(StoreOp::MoveBookmark { url, folder }) if url == "gemini://a.example/" && folder == "Reading")),
        "{fx:?}"
    );
    // Elsewhere F is still the feeds key.
    open(&mut app, CAP, gem(CAP, "# Page\n"));
    let (_, url, _) = fetch(&press(&mut app, &["F"]));
    assert_eq!(url, "about:feeds");
}

#[test]
fn a_spartan_prompt_line_asks_for_text_and_sends_it_as_the_data_block() {
    let page = "spartan://sp.test/";
    let body = "# Board\n=: /post Leave a note\n=> /read Read the notes\n";
    let mut app = tui_helpers::app();
    open(&mut app, page, gem(page, body));
    let shown = screen(&app);
    assert!(
        shown.contains("[1] Leave a note (asks for text)"),
        "{shown}"
    );
    assert!(shown.contains("[2] Read the notes"), "{shown}");
    press(&mut app, &["1"]);
    let prompt = app.prompt().expect("asks for the text");
    assert!(
        prompt.label().contains("Leave a note"),
        "{}",
        prompt.label()
    );
    type_text(&mut app, "hello there");
    let (_, url, opts) = fetch(&press(&mut app, &["enter"]));
    assert_eq!(url, "spartan://sp.test/post");
    assert_eq!(opts.input.as_deref(), Some("hello there"));

    // Elsewhere `=:` is only text.
    let mut app = tui_helpers::app();
    open(&mut app, CAP, gem(CAP, "=: /post Not a prompt here\n"));
    let shown = screen(&app);
    assert!(shown.contains("=: /post Not a prompt here"), "{shown}");
    assert!(!shown.contains("[1]"), "{shown}");
}
