//! A newcomer's walk through the browser (issue 11): each bug found on the walk, driven as
//! a key sequence with assertions on the state.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod tui_helpers;

use smolweb::tui::app::{App, Mark};
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
    app.frame
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
    let row = &app.frame[rows[0]];
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
        .frame
        .iter()
        .flat_map(|r| r.marks.iter().map(move |m: &Mark| &r.text[m.start..m.end]))
        .collect();
    assert_eq!(marked.concat(), "wrapped", "{:?}", app.frame);
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
        app.frame
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
