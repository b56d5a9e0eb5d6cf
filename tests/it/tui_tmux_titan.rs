//! The browser in tmux uploading to a capsule with Titan: the page's source edited by a fake
//! `$EDITOR` script that appends a line, the confirmation with size and MIME type, the masked
//! token, the capsule's redirect followed to the updated page; a delete declined (nothing
//! sent) and one confirmed twice (size 0). The in-process server speaks Titan and serves the
//! page over Gemini on the same TLS port, as a capsule does. The screens of the upload are
//! written under target/tmux-titan/ and printed (`--nocapture`).

use crate::tui_tmux_driver::{Tmux, tmux_available};
use smolweb_testkit as support;

use std::sync::{Arc, Mutex};
use support::smallnet::{self, Protocol, Reply};

const FIRST: &str = "# My notes\n\nWritten before.\n";
const APPENDED: &str = "Appended from the editor.\n";

/// The `size=` of a Titan request line.
fn size_of(line: &str) -> Option<usize> {
    line.split(';')
        .find_map(|p| p.strip_prefix("size="))
        .and_then(|n| n.split('?').next())
        .and_then(|n| n.parse().ok())
}

/// The capsule: its page over Gemini, uploads over Titan (a new text replaces the page and
/// redirects to it; size 0 deletes it and says so).
fn capsule(page: Arc<Mutex<Option<String>>>) -> impl Fn(&smallnet::Request) -> Reply {
    move |req| {
        if req.line.starts_with("gemini://") {
            return match page.lock().unwrap().as_deref() {
                Some(text) => Reply::text(&format!("20 text/gemini\r\n{text}")),
                None => Reply::text("51 not found\r\n"),
            };
        }
        let Some(size) = size_of(&req.line) else {
            return Reply::text("59 no size\r\n");
        };
        if req.data.len() < size {
            return Reply::text(""); // the look before the body is read: no early refusal
        }
        if size == 0 {
            *page.lock().unwrap() = None;
            return Reply::text("20 text/gemini\r\n# Deleted\n\nThe page is gone.\n");
        }
        *page.lock().unwrap() = Some(String::from_utf8_lossy(&req.data).into_owned());
        Reply::text("30 /notes.gmi\r\n")
    }
}

/// Keep a screen for the closing note: under target/tmux-titan/, and on stdout.
fn keep(name: &str, screen: &str) {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/tmux-titan");
    let _ = std::fs::create_dir_all(&dir);
    let _ = std::fs::write(dir.join(format!("{name}.txt")), screen);
    println!("--- {name} ---\n{screen}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_edited_page_is_uploaded_with_titan_and_a_delete_asks_twice() {
    if !tmux_available("tui_tmux_titan") {
        return;
    }
    let page = Arc::new(Mutex::new(Some(FIRST.to_string())));
    let server = smallnet::Server::start(Protocol::Titan, capsule(page.clone())).await;
    let gemini = server
        .url("/notes.gmi")
        .replacen("titan://", "gemini://", 1);
    let titan = server.url("/notes.gmi");
    let data = tempfile::tempdir().unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let seen = tempfile::tempdir().unwrap();
    let editor = seen.path().join("editor.sh");
    std::fs::write(
        &editor,
        format!(
            "#!/bin/sh\ncat \"$1\" > {out}/before\nprintf '{APPENDED}' >> \"$1\"\n",
            out = seen.path().display()
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
        gemini
    );
    let seen_dir = seen.path().to_path_buf();
    let tmp_dir = tmp.path().to_path_buf();
    let requests = {
        let server = &server;
        move || -> Vec<smallnet::Request> {
            server
                .requests()
                .into_iter()
                .filter(|r| r.line.starts_with("titan://"))
                .collect()
        }
    };
    let uploads = std::thread::scope(|scope| {
        scope
            .spawn(|| {
                let t = Tmux::start("titan", &command, 100, 24);
                t.wait_for("Written before.");
                // The edit flow.
                t.keys(&["W"]);
                let s = t.wait_for("(Titan)");
                assert!(
                    s.contains("Upload to titan://") && s.contains("source"),
                    "{s}"
                );
                keep("1-dialog", &s);
                t.keys(&["e"]);
                let want = format!("Upload {} bytes", FIRST.len() + APPENDED.len());
                let s = t.wait_for(&want);
                assert!(s.contains("text/gemini"), "{s}");
                keep("2-confirm", &s);
                assert_eq!(
                    std::fs::read_to_string(seen_dir.join("before")).unwrap(),
                    FIRST
                );
                assert_eq!(
                    std::fs::read_dir(&tmp_dir).unwrap().count(),
                    0,
                    "file removed"
                );
                t.keys(&["y"]);
                t.wait_for("Token (empty for none):");
                t.type_text("hunter2");
                let s = t.wait_for("Token (empty for none): *******");
                assert!(!s.contains("hunter2"), "masked: {s}");
                keep("3-token", &s);
                t.keys(&["Enter"]);
                let s = t.wait_for("Appended from the editor.");
                assert!(s.contains("My notes"), "{s}");
                keep("4-reply", &s);
                assert_eq!(requests().len(), 1, "one upload");
                // A declined delete sends nothing.
                t.keys(&["W", "d"]);
                t.wait_for("Delete titan://");
                t.keys(&["y"]);
                t.wait_for("Really delete");
                t.keys(&["n"]);
                t.wait_for("nothing sent");
                // A delete confirmed twice.
                t.keys(&["W", "d"]);
                t.wait_for("Delete titan://");
                t.keys(&["y"]);
                let s = t.wait_for("Really delete");
                keep("5-delete-again", &s);
                t.keys(&["y"]);
                t.wait_for("Token (empty for none):");
                t.keys(&["Enter"]);
                let s = t.wait_for("The page is gone.");
                keep("6-deleted", &s);
                t.keys(&["q"]);
                t.wait_for("SMOLWEB-EXIT=0");
                requests()
            })
            .join()
            .unwrap()
    });
    assert_eq!(
        uploads.len(),
        2,
        "the edit and the delete, nothing for the declined one"
    );
    let edit = &uploads[0];
    let body = format!("{FIRST}{APPENDED}");
    assert_eq!(
        edit.line,
        format!("{titan};size={};mime=text/gemini;token=hunter2", body.len())
    );
    assert_eq!(edit.data, body.as_bytes(), "exactly the new bytes");
    let delete = &uploads[1];
    assert_eq!(delete.line, format!("{titan};size=0;mime=text/gemini"));
    assert!(delete.data.is_empty());
    assert!(page.lock().unwrap().is_none(), "the capsule deleted it");
    // The token is in no file of the data directory (history, logs, anything).
    for entry in walk(data.path()) {
        let bytes = std::fs::read(&entry).unwrap_or_default();
        assert!(
            !String::from_utf8_lossy(&bytes).contains("hunter2"),
            "the token is in {}",
            entry.display()
        );
    }
}

/// Every file under `dir`.
fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                todo.push(p);
            } else {
                out.push(p);
            }
        }
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_file_is_uploaded_from_home_with_its_guessed_mime_type() {
    if !tmux_available("tui_tmux_titan") {
        return;
    }
    let page = Arc::new(Mutex::new(Some(FIRST.to_string())));
    let server = smallnet::Server::start(Protocol::Titan, capsule(page.clone())).await;
    let gemini = server
        .url("/notes.gmi")
        .replacen("titan://", "gemini://", 1);
    let titan = server.url("/notes.gmi");
    let data = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    let post = "# From a file\n\nSent with f.\n";
    std::fs::write(home.path().join("post.gmi"), post).unwrap();
    let command = format!(
        "env HOME={} {} --data-dir {} {}; echo SMOLWEB-EXIT=$?; sleep 30",
        home.path().display(),
        env!("CARGO_BIN_EXE_smolweb"),
        data.path().display(),
        gemini
    );
    std::thread::scope(|scope| {
        scope
            .spawn(|| {
                let t = Tmux::start("titan-file", &command, 100, 24);
                t.wait_for("Written before.");
                t.keys(&["W"]);
                t.wait_for("(Titan)");
                t.keys(&["f"]);
                t.wait_for("File to upload");
                t.type_text("~/post.gmi");
                t.keys(&["Enter"]);
                let s = t.wait_for(&format!("Upload {} bytes", post.len()));
                assert!(s.contains("text/gemini") && s.contains("~/post.gmi"), "{s}");
                keep("7-file-confirm", &s);
                t.keys(&["y"]);
                t.wait_for("Token (empty for none):");
                t.keys(&["Enter"]);
                let s = t.wait_for("Sent with f.");
                keep("8-file-reply", &s);
                t.keys(&["q"]);
                t.wait_for("SMOLWEB-EXIT=0");
            })
            .join()
            .unwrap()
    });
    let uploads: Vec<_> = server
        .requests()
        .into_iter()
        .filter(|r| r.line.starts_with("titan://"))
        .collect();
    assert_eq!(uploads.len(), 1);
    assert_eq!(
        uploads[0].line,
        format!("{titan};size={};mime=text/gemini", post.len())
    );
    assert_eq!(uploads[0].data, post.as_bytes());
}
