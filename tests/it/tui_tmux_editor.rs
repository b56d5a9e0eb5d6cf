//! The browser in tmux answering a capsule's input prompt (status 10) in an editor: a fake
//! `$EDITOR` script records what it was given (the file's mode, what was typed so far) and
//! writes the answer; the capsule echoes the query it got; the temporary file is gone after.

use crate::tui_tmux_driver::{Tmux, tmux_available};
use smolweb_testkit as support;

use support::gemini::{Reply, Routes, Server};

/// Percent-decoding of the query the capsule received (what a real capsule does).
fn decode(query: &str) -> String {
    let bytes = query.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[i], hex) {
            (b'%', Some(b)) => {
                out.push(b);
                i += 3;
            }
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_input_prompt_is_answered_in_the_editor_and_its_file_removed() {
    if !tmux_available("tui_tmux_editor") {
        return;
    }
    let capsule = Server::start(
        Routes::new()
            .route("/", Reply::gemtext("# Board\n=> /post Write a post\n"))
            .handler(|req| match (&*req.path, &req.query) {
                ("/post", None) => Reply::status(10, "Your post"),
                ("/post", Some(q)) => {
                    let text = decode(q).replace('\n', " | ");
                    Reply::gemtext(&format!("# Posted\n\nYou wrote: {text}\n"))
                }
                _ => Reply::status(51, "not found"),
            }),
    )
    .await;
    let data = tempfile::tempdir().unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let seen = tempfile::tempdir().unwrap();
    let editor = seen.path().join("editor.sh");
    let out = seen.path().display().to_string();
    std::fs::write(
        &editor,
        format!(
            "#!/bin/sh\nstat -c %a \"$1\" > {out}/mode\ncat \"$1\" > {out}/before\n\
             printf '%s' \"$1\" > {out}/path\nprintf 'Hello from the editor\\nsecond line\\n' > \"$1\"\n"
        ),
    )
    .unwrap();
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&editor, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let command = format!(
        "env -u VISUAL EDITOR={} TMPDIR={} {} --data-dir {} {}; echo SMOLWEB-EXIT=$?; sleep 30",
        editor.display(),
        tmp.path().display(),
        env!("CARGO_BIN_EXE_smolweb"),
        data.path().display(),
        capsule.url("/")
    );
    let seen_dir = seen.path().to_path_buf();
    let tmp_dir = tmp.path().to_path_buf();
    tokio::task::spawn_blocking(move || {
        let t = Tmux::start("editor", &command, 100, 24);
        t.wait_for("[1] Write a post");
        t.keys(&["1"]);
        t.wait_for("Your post:");
        t.type_text("draft");
        t.keys(&["C-e"]);
        let s = t.wait_for("You wrote: Hello from the editor | second line");
        assert!(s.contains("Posted"), "{s}");
        println!("{s}");
        let read = |name: &str| std::fs::read_to_string(seen_dir.join(name)).unwrap();
        assert_eq!(read("mode").trim(), "600");
        assert_eq!(read("before"), "draft");
        let path = std::path::PathBuf::from(read("path"));
        assert!(path.starts_with(&tmp_dir), "{}", path.display());
        assert!(!path.exists(), "the editor's file was removed");
        assert_eq!(std::fs::read_dir(&tmp_dir).unwrap().count(), 0);
        // The browser still takes keys after the editor gave the terminal back.
        t.keys(&["b"]);
        t.wait_for("[1] Write a post");
        t.keys(&["q"]);
        t.wait_for("SMOLWEB-EXIT=0");
    })
    .await
    .unwrap();
}
