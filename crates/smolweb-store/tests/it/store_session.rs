//! The browser's session file (issue 33) written by two browsers at once: each quit replaces
//! the file with that browser's tabs, whole. A reader meanwhile always finds one browser's
//! session, never a torn or merged file; the last writer's tabs are what the next start opens.

use smolweb_store::session::{SavedEntry, SavedSession, SavedTab, Session};

/// The session browser `who` keeps: three tabs of its own pages.
fn session_of(who: &str) -> SavedSession {
    SavedSession {
        active: 1,
        tabs: (0..3)
            .map(|t| SavedTab {
                current: 1,
                entries: (0..4)
                    .map(|e| SavedEntry {
                        url: format!("gemini://{who}.test/tab{t}/page{e}"),
                        line: e * 10,
                        row: 0,
                    })
                    .collect(),
            })
            .collect(),
    }
}

#[test]
#[ignore = "spawned by two_browsers_replace_the_session_whole"]
fn child_saves_its_session() {
    let Ok(path) = std::env::var("SMOLWEB_TEST_SESSION") else {
        return;
    };
    let who = std::env::var("SMOLWEB_TEST_ID").unwrap();
    let store = Session::new(path.into());
    for _ in 0..100 {
        store.save(&session_of(&who)).unwrap();
    }
}

#[test]
fn two_browsers_replace_the_session_whole() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("session.toml");
    let exe = std::env::current_exe().unwrap();
    let children: Vec<_> = ["one", "two"]
        .iter()
        .map(|id| {
            std::process::Command::new(&exe)
                .args([
                    "--exact",
                    "store_session::child_saves_its_session",
                    "--ignored",
                    "--nocapture",
                ])
                .env("SMOLWEB_TEST_SESSION", &path)
                .env("SMOLWEB_TEST_ID", id)
                .stdout(std::process::Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    let store = Session::new(path.clone());
    let (one, two) = (session_of("one"), session_of("two"));
    let mut seen = 0;
    for mut c in children {
        while c.try_wait().unwrap().is_none() {
            if let Some(s) = store.load().unwrap() {
                assert!(s == one || s == two, "a torn or merged session: {s:?}");
                seen += 1;
            }
        }
        assert!(c.wait().unwrap().success());
    }
    let last = store.load().unwrap().unwrap();
    assert!(last == one || last == two);
    println!("{seen} reads while two browsers wrote");
}
