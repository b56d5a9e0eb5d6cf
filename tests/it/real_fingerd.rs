//! Debian's finger daemon (`in.fingerd` with `finger`, package fingerd + finger), which
//! expects inetd: socat plays inetd on a loopback port, unprivileged, one daemon per
//! connection. Driven through the real `smolweb get`. Missing tools skip loudly; with
//! SMOLWEB_REQUIRE_FINGERD=1 (CI) they are mandatory.

use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const FINGERD: &str = "/usr/sbin/in.fingerd";
const FINGER: &str = "/usr/bin/finger";
const SOCAT: &str = "/usr/bin/socat";

struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn present() -> bool {
    let missing: Vec<&str> = [FINGERD, FINGER, SOCAT]
        .into_iter()
        .filter(|p| !Path::new(p).exists())
        .collect();
    if missing.is_empty() {
        return true;
    }
    if std::env::var("SMOLWEB_REQUIRE_FINGERD").as_deref() == Ok("1") {
        panic!("SMOLWEB_REQUIRE_FINGERD=1 but missing: {missing:?}");
    }
    use std::io::Write;
    let _ = writeln!(
        std::io::stderr(),
        "\n*** SKIP real_fingerd: missing {missing:?} (apt-get install fingerd finger socat) ***\n"
    );
    false
}

fn start() -> (Running, u16) {
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let child = Command::new(SOCAT)
        .arg(format!("TCP4-LISTEN:{port},bind=127.0.0.1,reuseaddr,fork"))
        .arg(format!("EXEC:{FINGERD}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "socat never listened"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    (Running(child), port)
}

fn get(data: &Path, url: &str) -> (String, String, i32) {
    let out = Command::new(env!("CARGO_BIN_EXE_smolweb"))
        .arg("--data-dir")
        .arg(data)
        .args(["get", url])
        .env_remove("SMOLWEB_CONFIG")
        .output()
        .unwrap();
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

#[test]
fn smolweb_get_reads_a_real_finger_daemon() {
    if !present() {
        return;
    }
    let (_daemon, port) = start();
    let dir = tempfile::tempdir().unwrap();
    // root exists on every Debian system; both URL forms send the same query.
    for url in [
        format!("finger://127.0.0.1:{port}/root"),
        format!("finger://root@127.0.0.1:{port}"),
    ] {
        let (out, err, code) = get(dir.path(), &url);
        assert_eq!(code, 0, "{url}: {err}");
        assert!(out.contains("Login: root"), "{url}: {out}");
        assert!(out.contains("Directory: /root"), "{url}: {out}");
    }
}
