//! The tour keys driven without a terminal: which links the add key puts on the tour, the
//! next key's answer turned into a visit that says what is left and who added it, and the
//! keys of `about:tour`. The store side is the shell's (tested through the binary in
//! `tests/it/tui_tmux_tour.rs`).

use crate::tui_helpers::*;
use smolweb_store::tour::{AgentAdd, NewStop, Stop};
use smolweb_tui::app::{Effect, Msg, Popup, Purpose, StoreOp};

const PAGE: &str = "gemini://cap.test/list";
const BODY: &str =
    "# Reading\n\n=> /a Alpha\n=> mailto:x@y.test Write\n=> /c Gamma\n=> /d?q=1 With a query\n";

fn at_page() -> smolweb_tui::app::App {
    let mut app = app();
    open(&mut app, PAGE, gem(PAGE, BODY));
    app
}

fn added(fx: &[Effect]) -> Vec<NewStop> {
    fx.iter()
        .find_map(|e| match e {
            Effect::Store(StoreOp::TourAdd { links }) => Some(links.clone()),
            _ => None,
        })
        .unwrap_or_default()
}

fn urls(links: &[NewStop]) -> Vec<&str> {
    links.iter().map(|l| l.url.as_str()).collect()
}

#[test]
fn the_add_key_puts_the_selected_link_with_its_label() {
    let mut app = at_page();
    let links = added(&press(&mut app, &["tab", "+"]));
    assert_eq!(urls(&links), ["gemini://cap.test/a"]);
    assert_eq!(links[0].label.as_deref(), Some("Alpha"));
    // A mailto: link goes to the client too, which says why it refuses it (the one place
    // that judges links for the tour).
    let links = added(&press(&mut app, &["tab", "+"]));
    assert_eq!(urls(&links), ["mailto:x@y.test"]);
}

#[test]
fn without_a_selection_the_add_key_asks_which_links_by_number() {
    let mut app = at_page();
    press(&mut app, &["+"]);
    assert_eq!(app.prompt().map(|p| &p.purpose), Some(&Purpose::TourLinks));
    // A range, backwards: in the order named.
    let fx = type_text(&mut app, "3-1");
    let fx = [fx, press(&mut app, &["enter"])].concat();
    assert_eq!(
        urls(&added(&fx)),
        [
            "gemini://cap.test/c",
            "mailto:x@y.test",
            "gemini://cap.test/a"
        ]
    );

    // `*` names every link, each once.
    press(&mut app, &["+"]);
    type_text(&mut app, "* 1");
    let all = added(&press(&mut app, &["enter"]));
    assert_eq!(all.len(), 4, "{all:?}");

    // A number the page does not have puts nothing on the tour and says why.
    press(&mut app, &["+"]);
    type_text(&mut app, "9");
    assert!(added(&press(&mut app, &["enter"])).is_empty());
    assert!(
        app.status().text.contains("no link 9"),
        "{:?}",
        app.status()
    );

    // Enter alone puts the page itself, with its title.
    press(&mut app, &["+"]);
    let page = added(&press(&mut app, &["enter"]));
    assert_eq!(urls(&page), [PAGE]);
    assert_eq!(page[0].label.as_deref(), Some("Reading"));
}

#[test]
fn the_next_key_goes_to_the_next_link_and_says_who_added_it_on_arrival() {
    let mut app = at_page();
    let fx = press(&mut app, &[">"]);
    assert!(
        fx.iter()
            .any(|e| matches!(e, Effect::Store(StoreOp::TourNext))),
        "{fx:?}"
    );
    let stop = Stop {
        url: "gemini://other.test/post".into(),
        at: time::OffsetDateTime::UNIX_EPOCH,
        label: None,
        agent: Some(AgentAdd {
            client: "helper-bot".into(),
            session: "s1".into(),
            reason: "answers your question \x1b[31mred".into(),
        }),
    };
    let fx = app.update(Msg::TourNext(Ok(Some((stop, 2)))));
    let (id, url, opts) = fetch(&fx);
    assert_eq!(url, "gemini://other.test/post");
    answer(&mut app, id, gem(&url, "# Post\n"));
    assert_eq!(app.current_url(), Some("gemini://other.test/post"));
    let said = &app.status().text;
    assert!(
        said.contains("2 links left") && said.contains("helper-bot"),
        "{said}"
    );
    assert!(said.contains("answers your question"), "{said}");
    assert!(!said.contains('\x1b'), "agent text is sanitized: {said:?}");
    assert!(opts.note.is_some());

    // An empty tour: nothing fetched, the status line says how to fill it.
    let fx = app.update(Msg::TourNext(Ok(None)));
    assert!(fetches(&fx).is_empty());
    assert!(
        app.status().text.contains("the tour is empty"),
        "{:?}",
        app.status()
    );
}

#[test]
fn on_the_tour_page_d_takes_a_link_off_and_capital_d_asks_before_clearing() {
    let mut app = at_page();
    let tour = "# Tour\n\n=> gemini://a.test/ A\n=> gemini://b.test/ B\n";
    let fx = press(&mut app, &["L"]);
    let (id, url, _) = fetch(&fx);
    assert_eq!(url, "about:tour");
    answer(&mut app, id, gem("about:tour", tour));
    let fx = press(&mut app, &["tab", "tab", "d"]);
    assert!(
        fx.iter().any(|e| matches!(e,
            Effect::Store(StoreOp::TourRemove { url }) if url == "gemini://b.test/")),
        "{fx:?}"
    );
    press(&mut app, &["D"]);
    assert!(
        matches!(&app.dialog().popup, Some(Popup::Confirm(q)) if q.contains("all 2 links")),
        "{:?}",
        app.dialog().popup
    );
    // Any key but y keeps the tour.
    assert!(press(&mut app, &["n"]).is_empty());
    assert!(app.status().text.contains("kept"), "{:?}", app.status());
    press(&mut app, &["D"]);
    let fx = press(&mut app, &["y"]);
    assert!(
        fx.iter()
            .any(|e| matches!(e, Effect::Store(StoreOp::TourClear))),
        "{fx:?}"
    );
}

#[test]
fn the_help_page_names_the_tour_keys() {
    let app = app();
    let help = smolweb_tui::app::pages::help_page(app.keymap()).unwrap();
    let help = help.body.text();
    for name in [
        "(tour_add)",
        "(tour_next)",
        "(tour)",
        "(tour_remove)",
        "(tour_clear)",
    ] {
        assert!(help.contains(name), "{name} missing from help");
    }
    assert!(help.contains("* +: put a link on the tour"), "{help}");
    assert!(
        help.contains("* >: go to the next link of the tour"),
        "{help}"
    );
    assert!(help.contains("* L: the tour"), "{help}");
    assert!(help.contains("On the tour page"), "{help}");
}
