//! Drive the real `smolweb` binary inside a detached tmux session: send keys, read the screen
//! with `tmux capture-pane -p`, wait (bounded, polling) for text to appear.
#![allow(dead_code)]

use std::process::Command;
use std::time::{Duration, Instant};

/// Is tmux usable? When not: a loud SKIP on stderr (or a failure with SMOLWEB_REQUIRE_TMUX=1).
pub(crate) fn tmux_available(test: &str) -> bool {
    let ok = Command::new("tmux")
        .arg("-V")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        if std::env::var("SMOLWEB_REQUIRE_TMUX").is_ok_and(|v| v == "1") {
            panic!("{test}: tmux is not installed and SMOLWEB_REQUIRE_TMUX=1");
        }
        // Straight to the stderr handle: the test harness captures eprintln!.
        use std::io::Write;
        let _ = writeln!(
            std::io::stderr(),
            "\n*** SKIP {test}: tmux is not installed; the end-to-end TUI test did not run ***\n"
        );
    }
    ok
}

/// The link number on the screen's line that holds `text` (the first digits on it).
pub(crate) fn link_number(screen: &str, text: &str) -> String {
    let line = screen
        .lines()
        .find(|l| l.contains(text))
        .unwrap_or_else(|| panic!("no line with {text:?}:\n{screen}"));
    line.split(|c: char| !c.is_ascii_digit())
        .find(|d| !d.is_empty())
        .unwrap()
        .to_string()
}

pub(crate) struct Tmux {
    session: String,
    socket: String,
}

impl Tmux {
    /// Start `command` (run by the shell) in a fresh session of `width` x `height`, on a
    /// private tmux server socket so the user's sessions are never touched.
    pub(crate) fn start(name: &str, command: &str, width: u16, height: u16) -> Tmux {
        let t = Tmux {
            session: name.to_string(),
            socket: format!("smolweb-test-{}-{name}", std::process::id()),
        };
        let status = t
            .cmd()
            .args([
                "new-session",
                "-d",
                "-s",
                name,
                "-x",
                &width.to_string(),
                "-y",
                &height.to_string(),
            ])
            .arg(command)
            .status()
            .expect("run tmux");
        assert!(status.success(), "tmux new-session failed");
        t
    }

    fn cmd(&self) -> Command {
        let mut c = Command::new("tmux");
        c.args(["-L", &self.socket, "-f", "/dev/null"]);
        c
    }

    /// Send keys in tmux syntax ("j", "Enter", "Escape", "C-t"), one call per key so that
    /// Escape is never merged with the next key into an Alt chord.
    pub(crate) fn keys(&self, keys: &[&str]) {
        for k in keys {
            let status = self
                .cmd()
                .args(["send-keys", "-t", &self.session, k])
                .status()
                .unwrap();
            assert!(status.success(), "send-keys {k}");
            std::thread::sleep(Duration::from_millis(60));
        }
    }

    /// Type literal text.
    pub(crate) fn type_text(&self, text: &str) {
        let status = self
            .cmd()
            .args(["send-keys", "-t", &self.session, "-l", text])
            .status()
            .unwrap();
        assert!(status.success());
    }

    pub(crate) fn screen(&self) -> String {
        let out = self
            .cmd()
            .args(["capture-pane", "-p", "-t", &self.session])
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// The screen with its colours and attributes as escape sequences (`capture-pane -e`).
    pub(crate) fn screen_with_colours(&self) -> String {
        let out = self
            .cmd()
            .args(["capture-pane", "-p", "-e", "-t", &self.session])
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Wait until the screen no longer contains `text` (at most 15 s): a key sent after an
    /// Escape that closed something waits for it to close, so a slow machine never reads the
    /// two as one Alt chord.
    pub(crate) fn wait_gone(&self, text: &str) -> String {
        let deadline = Instant::now() + Duration::from_secs(15);
        loop {
            let s = self.screen();
            if !s.contains(text) {
                return s;
            }
            if Instant::now() > deadline {
                panic!("timed out waiting for {text:?} to go; screen:\n{s}");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Wait until the screen contains `text` (at most 15 s); returns the screen.
    pub(crate) fn wait_for(&self, text: &str) -> String {
        let deadline = Instant::now() + Duration::from_secs(15);
        loop {
            let s = self.screen();
            if s.contains(text) {
                return s;
            }
            if Instant::now() > deadline {
                panic!("timed out waiting for {text:?}; screen:\n{s}");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.cmd().arg("kill-server").status();
    }
}
