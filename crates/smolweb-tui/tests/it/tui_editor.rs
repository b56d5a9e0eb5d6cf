//! Long input in the person's editor: the key at a status-10 prompt asks the shell to edit the
//! text, the editor's answer is sent as the query; status 11 never goes to a file.

use crate::tui_helpers::*;

use smolweb_client::Outcome;
use smolweb_tui::app::{Effect, Msg, Purpose, ShellError};

const HOME: &str = "gemini://home.test/";
const ASK: &str = "gemini://home.test/post";

fn at_prompt(sensitive: bool) -> smolweb_tui::app::App {
    let mut app = app();
    open(&mut app, HOME, gem(HOME, "# Home\n"));
    go(
        &mut app,
        ASK,
        Outcome::Input {
            info: info(ASK),
            prompt: "Your post".into(),
            sensitive,
        },
    );
    assert!(app.prompt().is_some());
    app
}

fn edit_effect(fx: &[Effect]) -> (Purpose, String) {
    let edits: Vec<_> = fx
        .iter()
        .filter_map(|e| match e {
            Effect::EditText { purpose, initial } => Some((purpose.clone(), initial.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(edits.len(), 1, "one edit in {fx:?}");
    edits.into_iter().next().unwrap()
}

#[test]
fn the_editor_key_hands_the_typed_text_over_and_its_answer_is_sent() {
    let mut app = at_prompt(false);
    type_text(&mut app, "first words");
    let fx = press(&mut app, &["ctrl-e"]);
    let (purpose, initial) = edit_effect(&fx);
    assert_eq!(initial, "first words");
    assert!(matches!(&purpose, Purpose::Input { url, sensitive: false, .. } if url == ASK));
    assert!(
        app.prompt().is_none(),
        "the prompt closes while the editor runs"
    );
    let fx = app.update(Msg::Edited {
        purpose,
        result: Ok("first words\nand a second line\n\n".into()),
    });
    let (_, url, opts) = fetch(&fx);
    assert_eq!(url, ASK);
    assert_eq!(
        opts.input.as_deref(),
        Some("first words\nand a second line")
    );
    assert!(app.prompt().is_none());
}

#[test]
fn a_failed_editor_sends_nothing_and_says_why() {
    let mut app = at_prompt(false);
    type_text(&mut app, "draft");
    let (purpose, _) = edit_effect(&press(&mut app, &["ctrl-e"]));
    let fx = app.update(Msg::Edited {
        purpose: purpose.clone(),
        result: Err(ShellError::EditorFailed {
            status: "status 3".into(),
        }),
    });
    assert!(fetches(&fx).is_empty(), "nothing sent: {fx:?}");
    assert!(app.prompt().is_none());
    assert!(
        screen(&app).contains("the editor exited with status 3: nothing sent"),
        "{}",
        screen(&app)
    );
    // An empty file is not an answer either.
    let fx = app.update(Msg::Edited {
        purpose,
        result: Ok("\n".into()),
    });
    assert!(fetches(&fx).is_empty(), "nothing sent: {fx:?}");
    assert!(screen(&app).contains("the editor left the file empty: nothing sent"));
}

#[test]
fn a_sensitive_prompt_never_offers_the_editor() {
    let mut app = at_prompt(true);
    type_text(&mut app, "hunter2");
    let fx = press(&mut app, &["ctrl-e"]);
    assert!(
        !fx.iter().any(|e| matches!(e, Effect::EditText { .. })),
        "{fx:?}"
    );
    let p = app.prompt().expect("the prompt stays open");
    assert_eq!(p.text, "hunter2");
    assert!(app.status().text.contains("never in an editor's file"));
    // Issue 33: the prompt hides the status line, so the key seemed ignored. The reason is
    // on screen, over the prompt, until the next key.
    let s = screen(&app);
    assert!(
        s.contains("ctrl-e does nothing here: a sensitive answer is typed here only"),
        "{s}"
    );
    assert!(!s.contains("hunter2"), "{s}");
    type_text(&mut app, "x");
    assert!(!screen(&app).contains("does nothing here"));
}

#[test]
fn the_editor_key_is_only_for_input_prompts() {
    let mut app = app();
    open(&mut app, HOME, gem(HOME, "# Home\n"));
    // In the address bar it is not an editor key, and on a page it says where it works.
    let fx = press(&mut app, &[":", "ctrl-e"]);
    assert!(!fx.iter().any(|e| matches!(e, Effect::EditText { .. })));
    press(&mut app, &["esc"]);
    let fx = press(&mut app, &["ctrl-e"]);
    assert!(!fx.iter().any(|e| matches!(e, Effect::EditText { .. })));
    assert!(screen(&app).contains("opens an editor at a capsule's input prompt"));
}
