//! Titan uploads from the browser, driven by keys: the dialog (edit, file, delete, cancel),
//! the confirmation with size and MIME type, the masked token, and what is sent (or, for
//! every way out, that nothing is).

use crate::tui_helpers::*;

use smolweb_client::Outcome;
use smolweb_client::smallnet::Upload;
use smolweb_tui::app::{App, Effect, Msg, Purpose, ShellError, UPLOAD_MAX};

const PAGE: &str = "gemini://home.test/notes/today.gmi";
const TARGET: &str = "titan://home.test/notes/today.gmi";
const SOURCE: &str = "# Today\n\nA first line.\n";

fn on_page() -> App {
    let mut app = app();
    open(&mut app, PAGE, gem(PAGE, SOURCE));
    app
}

fn question(app: &App) -> String {
    match &app.dialog().popup {
        Some(smolweb_tui::app::Popup::Confirm(q)) => q.clone(),
        other => panic!("no question open: {other:?}"),
    }
}

fn uploads(fx: &[Effect]) -> Vec<(u64, Upload)> {
    fx.iter()
        .filter_map(|e| match e {
            Effect::Upload { id, upload } => Some((*id, (**upload).clone())),
            _ => None,
        })
        .collect()
}

fn sends_nothing(fx: &[Effect]) {
    assert!(uploads(fx).is_empty(), "nothing sent: {fx:?}");
    assert!(fetches(fx).is_empty(), "nothing fetched: {fx:?}");
}

fn edit_initial(fx: &[Effect]) -> String {
    let edits: Vec<_> = fx
        .iter()
        .filter_map(|e| match e {
            Effect::EditText {
                purpose: Purpose::UploadText,
                initial,
            } => Some(initial.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(edits.len(), 1, "one edit in {fx:?}");
    edits.into_iter().next().unwrap()
}

fn edited(app: &mut App, text: &str) -> Vec<Effect> {
    app.update(Msg::Edited {
        purpose: Purpose::UploadText,
        result: Ok(text.into()),
    })
}

#[test]
fn an_edited_page_is_sent_with_its_size_mime_and_the_token_which_is_never_kept() {
    let mut app = on_page();
    sends_nothing(&press(&mut app, &["W"]));
    let q = question(&app);
    assert!(
        q.contains(TARGET) && q.contains("this page's source"),
        "{q}"
    );
    let initial = edit_initial(&press(&mut app, &["e"]));
    assert_eq!(
        initial, SOURCE,
        "the editor starts from the page as received"
    );
    let body = format!("{SOURCE}A line written in the editor.\n");
    sends_nothing(&edited(&mut app, &body));
    let q = question(&app);
    assert!(
        q.contains(&format!("Upload {} bytes of text/gemini", body.len())) && q.contains(TARGET),
        "{q}"
    );
    // Issue 33: the size was said twice ("47 bytes (47 B)").
    assert!(!q.contains(" B)"), "{q}");
    sends_nothing(&press(&mut app, &["y"]));
    let p = app.prompt().expect("the token prompt");
    assert_eq!(p.purpose, Purpose::UploadToken);
    assert!(p.masked());
    type_text(&mut app, "s3cret-token");
    let shown = screen(&app);
    assert!(!shown.contains("s3cret"), "the token is masked: {shown}");
    assert!(
        shown.contains("Token (empty for none): ************"),
        "{shown}"
    );
    let fx = press(&mut app, &["enter"]);
    let sent = uploads(&fx);
    assert_eq!(sent.len(), 1, "{fx:?}");
    let (id, up) = &sent[0];
    assert_eq!(up.url, TARGET);
    assert_eq!(up.body, body.as_bytes());
    assert_eq!(up.mime.as_deref(), Some("text/gemini"));
    assert_eq!(up.token.as_deref(), Some("s3cret-token"));
    assert!(
        !format!("{fx:?}").contains("s3cret"),
        "Debug hides the token"
    );
    let status = screen(&app);
    assert!(status.contains("uploading"), "{status}");
    // The capsule's answer is shown in the tab, and kept nowhere.
    answer(
        &mut app,
        *id,
        gem("gemini://home.test/notes/today.gmi", "# Saved\n\nThanks.\n"),
    );
    let s = screen(&app);
    assert!(s.contains("Thanks."), "{s}");
    assert!(
        app.lists()
            .history
            .iter()
            .all(|(u, _)| !u.starts_with("titan:")),
        "an upload's answer is not a visit"
    );
    press(&mut app, &["M"]);
    let log = screen(&app);
    assert!(log.contains("uploading"), "{log}");
    assert!(!log.contains("s3cret"), "{log}");
    for (url, title) in &app.lists().history {
        assert!(!url.contains("s3cret") && !title.clone().unwrap_or_default().contains("s3cret"));
    }
}

#[test]
fn an_unchanged_or_empty_text_sends_nothing() {
    let mut app = on_page();
    press(&mut app, &["W"]);
    edit_initial(&press(&mut app, &["e"]));
    // The editor's trailing newline is no change.
    let fx = edited(&mut app, &format!("{SOURCE}\n"));
    sends_nothing(&fx);
    assert!(app.dialog().popup.is_none() && app.prompt().is_none());
    assert!(
        app.status().text.contains("unchanged: nothing sent"),
        "{:?}",
        app.status()
    );
    press(&mut app, &["W"]);
    edit_initial(&press(&mut app, &["e"]));
    sends_nothing(&edited(&mut app, "  \n"));
    assert!(app.status().text.contains("empty: nothing sent"));
    // A failed editor neither.
    press(&mut app, &["W"]);
    edit_initial(&press(&mut app, &["e"]));
    let fx = app.update(Msg::Edited {
        purpose: Purpose::UploadText,
        result: Err(ShellError::EditorFailed {
            status: "status 1".into(),
        }),
    });
    sends_nothing(&fx);
    assert!(app.status().text.contains("nothing sent"));
}

#[test]
fn a_delete_asks_twice_and_sends_size_zero() {
    let mut app = on_page();
    press(&mut app, &["W", "d"]);
    let first = question(&app);
    assert!(
        first.contains("Delete") && first.contains(TARGET),
        "{first}"
    );
    sends_nothing(&press(&mut app, &["y"]));
    let second = question(&app);
    assert_ne!(first, second, "two distinct confirmations");
    assert!(second.contains("Really delete"), "{second}");
    sends_nothing(&press(&mut app, &["y"]));
    assert_eq!(
        app.prompt().map(|p| p.purpose.clone()),
        Some(Purpose::UploadToken)
    );
    let fx = press(&mut app, &["enter"]);
    let sent = uploads(&fx);
    assert_eq!(sent.len(), 1, "{fx:?}");
    assert!(sent[0].1.body.is_empty(), "size 0");
    assert_eq!(sent[0].1.token, None, "an empty token is none");
    assert!(screen(&app).contains("deleting"), "{}", screen(&app));
}

#[test]
fn a_declined_delete_sends_nothing() {
    for keys in [
        &["W", "d", "n"][..],
        &["W", "d", "y", "n"],
        &["W", "d", "enter"],
        &["W", "d", "y", "esc"],
    ] {
        let mut app = on_page();
        let fx = press(&mut app, keys);
        sends_nothing(&fx);
        assert!(
            app.dialog().popup.is_none() && app.prompt().is_none(),
            "{keys:?}"
        );
        assert!(
            app.status().text.contains("kept"),
            "{keys:?}: {:?}",
            app.status()
        );
        // Nothing is left waiting: a later token prompt does not appear from it.
        sends_nothing(&press(&mut app, &["enter"]));
    }
}

#[test]
fn cancelling_anywhere_sends_nothing() {
    // The dialog, the confirmation, the token prompt, the file prompt.
    let mut app = on_page();
    sends_nothing(&press(&mut app, &["W", "x", "esc"]));
    assert!(app.dialog().popup.is_none());
    assert!(app.status().text.contains("cancelled: nothing sent"));
    let mut app = on_page();
    press(&mut app, &["W", "e"]);
    edited(&mut app, "# New\n");
    sends_nothing(&press(&mut app, &["n"]));
    assert!(app.status().text.contains("cancelled: nothing sent"));
    let mut app = on_page();
    press(&mut app, &["W", "e"]);
    edited(&mut app, "# New\n");
    press(&mut app, &["y"]);
    type_text(&mut app, "tok");
    sends_nothing(&press(&mut app, &["esc"]));
    assert!(app.status().text.contains("cancelled: nothing sent"));
    sends_nothing(&press(&mut app, &["enter"]));
    let mut app = on_page();
    press(&mut app, &["W", "f"]);
    type_text(&mut app, "/tmp/x.gmi");
    sends_nothing(&press(&mut app, &["esc"]));
    assert!(app.status().text.contains("cancelled: nothing sent"));
}

#[test]
fn a_file_is_read_by_the_shell_and_its_mime_type_can_be_changed() {
    let mut app = on_page();
    press(&mut app, &["W", "f"]);
    assert_eq!(
        app.prompt().map(|p| p.purpose.clone()),
        Some(Purpose::UploadPath)
    );
    type_text(&mut app, "~/post.gmi");
    let fx = press(&mut app, &["enter"]);
    let reads: Vec<_> = fx
        .iter()
        .filter_map(|e| match e {
            Effect::ReadUploadFile { path, max } => Some((path.clone(), *max)),
            _ => None,
        })
        .collect();
    assert_eq!(reads, vec![("~/post.gmi".to_string(), UPLOAD_MAX)]);
    app.update(Msg::UploadFile {
        path: "~/post.gmi".into(),
        result: Ok(b"# A post\n".to_vec()),
    });
    let q = question(&app);
    assert!(
        q.contains("9 bytes") && q.contains("text/gemini") && q.contains("~/post.gmi"),
        "{q}"
    );
    press(&mut app, &["m"]);
    assert_eq!(
        app.prompt().map(|p| p.text.clone()).as_deref(),
        Some("text/gemini")
    );
    press(&mut app, &["ctrl-u"]);
    type_text(&mut app, "not a type");
    press(&mut app, &["enter"]);
    let q = question(&app);
    assert!(
        q.contains("is not a MIME type") && q.contains("text/gemini"),
        "{q}"
    );
    press(&mut app, &["m", "ctrl-u"]);
    type_text(&mut app, "text/plain");
    press(&mut app, &["enter"]);
    assert!(question(&app).contains("of text/plain"));
    press(&mut app, &["y"]);
    let fx = press(&mut app, &["enter"]);
    let sent = uploads(&fx);
    assert_eq!(sent.len(), 1);
    assert_eq!(sent[0].1.mime.as_deref(), Some("text/plain"));
    assert_eq!(sent[0].1.body, b"# A post\n");
}

#[test]
fn too_large_a_body_is_refused_with_a_message() {
    let mut app = on_page();
    press(&mut app, &["W", "f"]);
    type_text(&mut app, "big.bin");
    press(&mut app, &["enter"]);
    let fx = app.update(Msg::UploadFile {
        path: "big.bin".into(),
        result: Ok(vec![0u8; UPLOAD_MAX as usize + 1]),
    });
    sends_nothing(&fx);
    assert!(app.dialog().popup.is_none());
    let s = &app.status().text;
    assert!(s.contains("at most") && s.contains("nothing sent"), "{s}");
    // The shell's refusal (the file is over the limit before it is read) says so too.
    press(&mut app, &["W", "f"]);
    type_text(&mut app, "big.bin");
    press(&mut app, &["enter"]);
    let fx = app.update(Msg::UploadFile {
        path: "big.bin".into(),
        result: Err(ShellError::UploadTooLarge {
            path: "big.bin".into(),
            size: UPLOAD_MAX + 10,
            max: UPLOAD_MAX,
        }),
    });
    sends_nothing(&fx);
    assert!(app.status().text.contains("nothing sent"));
}

#[test]
fn a_titan_url_typed_opens_the_dialog_and_a_new_file_starts_empty() {
    let mut app = on_page();
    press(&mut app, &[":", "ctrl-u"]);
    type_text(&mut app, "titan://home.test/new.gmi?q=1");
    sends_nothing(&press(&mut app, &["enter"]));
    let q = question(&app);
    assert!(
        q.contains("titan://home.test/new.gmi") && !q.contains("?q=1"),
        "{q}"
    );
    assert!(q.contains("a new file"), "{q}");
    assert_eq!(edit_initial(&press(&mut app, &["e"])), "");
}

#[test]
fn uploads_go_only_to_gemini_pages() {
    let mut app = app();
    let url = "gopher://home.test/1/";
    open(&mut app, url, menu(url, "iHello\t\t\t\r\n.\r\n"));
    sends_nothing(&press(&mut app, &["W"]));
    assert!(app.dialog().popup.is_none());
    assert!(
        app.status().text.contains("titan:// address"),
        "{:?}",
        app.status()
    );
}

#[test]
fn the_answers_redirect_to_the_capsule_is_followed_and_a_failure_shown() {
    let mut app = on_page();
    press(&mut app, &["W", "e"]);
    edited(&mut app, "# Changed\n");
    press(&mut app, &["y"]);
    let fx = press(&mut app, &["enter"]);
    let (id, _) = uploads(&fx).remove(0);
    let fx = answer(
        &mut app,
        id,
        Outcome::Redirect {
            info: info(TARGET),
            target: PAGE.into(),
            permanent: false,
            cross_host: false,
            scheme: "gemini".into(),
        },
    );
    let (_, url, _) = fetch(&fx);
    assert_eq!(url, PAGE, "followed without asking, as Gemini's are");
    // A refusal is the usual error page with the meta.
    press(&mut app, &["W", "e"]);
    edited(&mut app, "# Again\n");
    press(&mut app, &["y"]);
    let (id, _) = uploads(&press(&mut app, &["enter"])).remove(0);
    answer(
        &mut app,
        id,
        Outcome::Failure {
            info: info(TARGET),
            status: 59,
            meta: "token required".into(),
            retry_after_seconds: None,
        },
    );
    let s = screen(&app);
    assert!(s.contains("token required"), "{s}");
    // Reloading the answer never uploads again by itself: it opens the dialog.
    sends_nothing(&press(&mut app, &["r"]));
    assert!(question(&app).contains(TARGET));
    sends_nothing(&press(&mut app, &["esc"]));
}
