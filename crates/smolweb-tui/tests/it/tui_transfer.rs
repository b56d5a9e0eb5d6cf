//! How a page's transfer ended, in the browser (no terminal, no network): page info (`i`)
//! says whether a Gemini answer ended with TLS close_notify and whether a Gopher menu had its
//! final "." line, and a download whose end was not confirmed warns before it is saved.

use crate::tui_helpers;

use smolweb_client::{Fetched, Outcome};
use smolweb_core::page::{Ending, Page};
use smolweb_core::response::parse_mime;
use smolweb_core::url::Url;
use smolweb_tui::app::{App, Effect, Popup};
use std::sync::Arc;
use tui_helpers::*;

fn cut(url: &str, mime: &str, body: &[u8]) -> Outcome {
    let page = Page::from_gemini(Url::parse(url).unwrap(), parse_mime(mime), body.to_vec());
    Outcome::Page {
        info: info(url),
        fetched: Fetched {
            page: Arc::new(page.with_ending(Ending::NoCloseNotify)),
            cached: false,
            cached_at: None,
        },
    }
}

fn transfer_row(app: &mut App) -> Option<String> {
    press(app, &["i"]);
    let Some(Popup::Info(rows)) = &app.dialog().popup else {
        panic!("{:?}", app.dialog().popup);
    };
    let row = rows
        .iter()
        .find(|(k, _)| k == "Transfer")
        .map(|(_, v)| v.clone());
    press(app, &["esc"]);
    row
}

#[test]
fn page_info_says_whether_the_answer_ended_cleanly() {
    let mut app = app();
    open(
        &mut app,
        "gemini://cap.test/",
        gem("gemini://cap.test/", "# Whole\n"),
    );
    let row = transfer_row(&mut app).unwrap();
    assert!(
        row.contains("complete") && row.contains("close_notify"),
        "{row}"
    );

    let url = "gemini://cap.test/cut";
    go(&mut app, url, cut(url, "text/gemini", b"# Cut short\n"));
    assert_eq!(app.current_url(), Some(url));
    let row = transfer_row(&mut app).unwrap();
    assert!(row.contains("without TLS close_notify"), "{row}");
    assert!(row.contains("may be incomplete"), "{row}");

    let hole = "gopher://hole.test/1/";
    go(
        &mut app,
        hole,
        menu(hole, "0About\t/about\thole.test\t70\r\n.\r\n"),
    );
    let row = transfer_row(&mut app).unwrap();
    assert!(row.contains("complete"), "{row}");
    let open_ended = "gopher://hole.test/1/more";
    go(
        &mut app,
        open_ended,
        menu(open_ended, "0About\t/about\thole.test\t70\r\n"),
    );
    let row = transfer_row(&mut app).unwrap();
    assert!(
        row.contains("\".\"") && row.contains("may be incomplete"),
        "{row}"
    );
}

#[test]
fn a_download_cut_without_close_notify_says_so_before_it_is_saved() {
    let mut app = app();
    open(
        &mut app,
        "gemini://cap.test/",
        gem("gemini://cap.test/", "# Home\n"),
    );
    let url = "gemini://cap.test/song.ogg";
    press(&mut app, &[":", "ctrl-u"]);
    type_text(&mut app, url);
    let (id, _, _) = fetch(&press(&mut app, &["enter"]));
    answer(&mut app, id, cut(url, "audio/ogg", b"OggS partial"));
    let Some(Popup::Download(question)) = &app.dialog().popup else {
        panic!("{:?}", app.dialog().popup);
    };
    assert!(question.starts_with("Warning:"), "{question}");
    assert!(question.contains("without TLS close_notify"), "{question}");
    let fx = press(&mut app, &["s"]);
    assert!(
        fx.iter()
            .any(|e| matches!(e, Effect::Save { name, .. } if name == "song.ogg")),
        "{fx:?}"
    );

    // A whole download asks without a warning.
    let url = "gemini://cap.test/pic.png";
    press(&mut app, &[":", "ctrl-u"]);
    type_text(&mut app, url);
    let (id, _, _) = fetch(&press(&mut app, &["enter"]));
    answer(
        &mut app,
        id,
        page_with(url, "image/png", b"\x89PNG\r\n\x1a\n"),
    );
    let Some(Popup::Download(question)) = &app.dialog().popup else {
        panic!("{:?}", app.dialog().popup);
    };
    assert!(question.starts_with("pic.png is image/png"), "{question}");
}
