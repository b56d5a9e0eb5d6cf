//! The browser on a pseudo-terminal we play the terminal of (issue 33, items 1 and 6): a
//! terminal that answers the start-up question only once it has seen the first frame. The
//! browser must draw that frame without waiting for the answer, still take the answer when it
//! comes (its background is white: the light colours), and never read the answer as keys.
//!
//! The terminal is a small Python program (the standard library's `pty`); without python3 a
//! loud SKIP, unless SMOLWEB_REQUIRE_PYTHON=1.

use smolweb_testkit::gemini::{Reply, Routes, Server};
use std::process::Command;

const TERMINAL: &str = r#"
import os, pty, select, struct, sys, time, fcntl, termios
binary, data, url = sys.argv[1:4]
pid, fd = pty.fork()
if pid == 0:
    fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
    env = {k: v for k, v in os.environ.items() if k not in ("TMUX", "COLORFGBG", "SMOLWEB_IMAGES", "SMOLWEB_CONFIG", "SMOLWEB_HOME")}
    env["TERM"] = "xterm-256color"
    os.execve(binary, [binary, "--data-dir", data, url], env)
out = bytearray()
def read_until(done, seconds):
    end = time.time() + seconds
    while time.time() < end:
        if done():
            return True
        r, _, _ = select.select([fd], [], [], 0.05)
        if r:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                return done()
            if not chunk:
                return done()
            out.extend(chunk)
    return done()
# Wait for the question and for the first frame (the page's text), answering nothing.
framed = read_until(lambda: b"]11;?" in out and b"Introduction." in out, 20)
print("asked:", b"]11;?" in out)
print("frame before the answer:", framed)
answered_at = len(out)
# A white background, device attributes without sixel, and the status report.
os.write(fd, b"\x1b]11;rgb:ffff/ffff/ffff\x1b\\\x1b[?62;22c\x1b[0n")
light = read_until(lambda: b"38;5;94" in out[answered_at:], 10)
print("light colours after the answer:", light)
time.sleep(0.3)
read_until(lambda: False, 0.2)
after = bytes(out[answered_at:])
print("answer read as keys:", b"no page to go back" in after or b"rgb" in after)
os.write(fd, b"q")
end = time.time() + 5
quit = False
while time.time() < end and not quit:
    read_until(lambda: False, 0.1)
    quit = os.waitpid(pid, os.WNOHANG)[0] == pid
if not quit:
    os.kill(pid, 9)
    os.waitpid(pid, 0)
print("quit:", quit)
"#;

fn python() -> bool {
    let ok = Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        if std::env::var("SMOLWEB_REQUIRE_PYTHON").as_deref() == Ok("1") {
            panic!("SMOLWEB_REQUIRE_PYTHON=1 but python3 is missing");
        }
        use std::io::Write;
        let _ = writeln!(
            std::io::stderr(),
            "\n*** SKIP tui_pty: python3 is not installed; the pseudo-terminal test did not run ***\n"
        );
    }
    ok
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_first_frame_never_waits_for_the_terminals_answer() {
    if !python() {
        return;
    }
    let mut page = String::from("# The long read\nIntroduction.\n```\npreformatted\n```\n");
    page.push_str("More text.\n");
    let server = Server::start(Routes::new().route("/", Reply::gemtext(&page))).await;
    let data = tempfile::tempdir().unwrap();
    let script = data.path().join("terminal.py");
    std::fs::write(&script, TERMINAL).unwrap();
    let url = server.url("/");
    let dir = data.path().join("data");
    let o = tokio::task::spawn_blocking(move || {
        Command::new("python3")
            .arg(&script)
            .arg(env!("CARGO_BIN_EXE_smolweb"))
            .arg(&dir)
            .arg(&url)
            .output()
            .unwrap()
    })
    .await
    .unwrap();
    let said = String::from_utf8_lossy(&o.stdout).into_owned();
    println!("{said}{}", String::from_utf8_lossy(&o.stderr));
    assert!(said.contains("asked: True"), "{said}");
    assert!(said.contains("frame before the answer: True"), "{said}");
    assert!(
        said.contains("light colours after the answer: True"),
        "{said}"
    );
    assert!(said.contains("answer read as keys: False"), "{said}");
    assert!(said.contains("quit: True"), "{said}");
}
