//! Integration against servers nobody here wrote: Debian's molly-brown (Gemini) and
//! gophernicus (Gopher), started on loopback with a generated certificate and a small content
//! tree, driven through the real `smolweb get` binary. Missing tools skip loudly on a developer
//! machine; with SMOLWEB_REQUIRE_REAL_SERVERS=1 (CI) they are mandatory.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

const MOLLY: &str = "/usr/bin/molly-brown";
const GOPHERNICUS: &str = "/usr/sbin/gophernicus";

fn tools_present() -> bool {
    let missing: Vec<&str> = [MOLLY, GOPHERNICUS, "/usr/bin/socat", "/usr/bin/openssl"]
        .into_iter()
        .filter(|p| !Path::new(p).exists())
        .collect();
    if missing.is_empty() {
        return true;
    }
    if std::env::var("SMOLWEB_REQUIRE_REAL_SERVERS").as_deref() == Ok("1") {
        panic!("SMOLWEB_REQUIRE_REAL_SERVERS=1 but missing: {missing:?}");
    }
    // Straight to the stderr handle: the test harness captures eprintln! of passing tests.
    use std::io::Write;
    let _ = writeln!(
        std::io::stderr(),
        "\n*** SKIP real_servers: missing {missing:?} (apt-get install molly-brown gophernicus socat openssl) ***\n"
    );
    false
}

/// A running server process, killed on drop.
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn wait_listening(port: u16, child: &mut Child) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while Instant::now() < deadline {
        if TcpStream::connect(("127.0.0.1", port)).is_ok() {
            return;
        }
        if let Ok(Some(status)) = child.try_wait() {
            panic!("server exited early: {status}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    panic!("server on port {port} did not start listening");
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn write_exec(path: &Path, text: &str) {
    write(path, text);
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

fn start_molly(dir: &Path) -> (Running, u16) {
    let port = free_port();
    let status = Command::new("/usr/bin/openssl")
        .args([
            "req",
            "-x509",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:prime256v1",
        ])
        .args(["-nodes", "-days", "30", "-subj", "/CN=localhost"])
        .args(["-addext", "subjectAltName=IP:127.0.0.1"])
        .arg("-keyout")
        .arg(dir.join("key.pem"))
        .arg("-out")
        .arg(dir.join("cert.pem"))
        .stderr(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success(), "openssl failed");
    let docs = dir.join("docs");
    write(
        &docs.join("index.gmi"),
        "# Molly's capsule\n\nServed by molly-brown.\n=> /about.gmi About this capsule\n=> /cgi-bin/ask Ask me\n",
    );
    write(&docs.join("about.gmi"), "## About\n* one\n* two\n");
    write_exec(
        &docs.join("cgi-bin/ask"),
        "#!/bin/sh\nif [ -z \"$QUERY_STRING\" ]; then printf '10 What is your name?\\r\\n'; else printf '20 text/gemini\\r\\n# Hello %s\\n' \"$QUERY_STRING\"; fi\n",
    );
    let conf = dir.join("molly.conf");
    write(
        &conf,
        &format!(
            "Port = {port}\nHostname = \"127.0.0.1\"\nCertPath = \"{}\"\nKeyPath = \"{}\"\nDocBase = \"{}\"\nAccessLog = \"{}\"\nErrorLog = \"{}\"\nCGIPaths = [\"{}\"]\n",
            dir.join("cert.pem").display(),
            dir.join("key.pem").display(),
            docs.display(),
            dir.join("access.log").display(),
            dir.join("error.log").display(),
            docs.join("cgi-bin").display(),
        ),
    );
    let mut child = Command::new(MOLLY)
        .arg("-c")
        .arg(&conf)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    wait_listening(port, &mut child);
    (Running(child), port)
}

fn start_gophernicus(dir: &Path) -> (Running, u16) {
    let port = free_port();
    let root = dir.join("gopher");
    write(
        &root.join("gophermap"),
        "Welcome to the test gopherhole\n0A text file\t/notes.txt\n1Search here\t/search\n",
    );
    write(
        &root.join("notes.txt"),
        "First line of notes\nSecond line\n",
    );
    write(
        &root.join("dotted.txt"),
        "Before the dot\n.\nAfter the dot\n..two dots\nLast line\n",
    );
    write_exec(
        &root.join("search/gophermap"),
        "#!/bin/sh\nprintf 'iYou searched for: %s\\tfake\\t(NULL)\\t0\\r\\n' \"$SEARCHREQUEST\"\n",
    );
    let exec = format!(
        "EXEC:{GOPHERNICUS} -h 127.0.0.1 -p {port} -r {} -nv -nu -nf -no -ns -nm -nr",
        root.display()
    );
    let mut child = Command::new("/usr/bin/socat")
        .arg(format!("TCP4-LISTEN:{port},bind=127.0.0.1,reuseaddr,fork"))
        .arg(exec)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    wait_listening(port, &mut child);
    (Running(child), port)
}

fn smolweb(data: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_smolweb"))
        .arg("--data-dir")
        .arg(data)
        .args(args)
        .env_remove("SMOLWEB_CONFIG")
        .output()
        .unwrap()
}

fn text(out: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

struct Servers {
    _molly: Running,
    _gopher: Running,
    gemini: u16,
    gopher: u16,
    data: PathBuf,
    _dir: tempfile::TempDir,
}

fn servers() -> Option<Servers> {
    if !tools_present() {
        return None;
    }
    let dir = tempfile::tempdir().unwrap();
    let (molly, gemini) = start_molly(dir.path());
    let (gopher_proc, gopher) = start_gophernicus(dir.path());
    let data = dir.path().join("data");
    Some(Servers {
        _molly: molly,
        _gopher: gopher_proc,
        gemini,
        gopher,
        data,
        _dir: dir,
    })
}

#[test]
fn real_servers_page_menu_search_and_not_found() {
    let Some(s) = servers() else { return };

    // A gemtext page from molly-brown: rendered with numbered links, certificate pinned.
    let url = format!("gemini://127.0.0.1:{}/", s.gemini);
    let out = smolweb(&s.data, &["get", &url]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "get failed: {stderr}");
    assert!(stdout.contains("# Molly's capsule"), "{stdout}");
    assert!(stdout.contains("[1] About this capsule"), "{stdout}");
    let pins = smolweb(&s.data, &["trust", "list"]);
    assert!(
        text(&pins)
            .0
            .contains(&format!("127.0.0.1:{}  sha256:", s.gemini)),
        "{:?}",
        text(&pins)
    );

    // Input (10) through a CGI script, then answered with --input.
    let ask = format!("gemini://127.0.0.1:{}/cgi-bin/ask", s.gemini);
    let out = smolweb(&s.data, &["get", &ask]);
    assert_eq!(out.status.code(), Some(6), "{:?}", text(&out));
    assert!(text(&out).1.contains("What is your name?"));
    let out = smolweb(&s.data, &["get", &ask, "--input", "Ada Lovelace"]);
    assert!(
        text(&out).0.contains("# Hello Ada%20Lovelace"),
        "{:?}",
        text(&out)
    );

    // 51 Not found: a remote failure with its own exit code.
    let missing = format!("gemini://127.0.0.1:{}/no/such/page.gmi", s.gemini);
    let out = smolweb(&s.data, &["get", &missing]);
    assert_eq!(out.status.code(), Some(5), "{:?}", text(&out));
    assert!(text(&out).1.contains("51"), "{:?}", text(&out));

    // A gophernicus menu: items numbered with their types.
    let menu = format!("gopher://127.0.0.1:{}/", s.gopher);
    let out = smolweb(&s.data, &["get", &menu]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stdout.contains("Welcome to the test gopherhole"),
        "{stdout}"
    );
    assert!(stdout.contains("A text file (text)"), "{stdout}");

    // A text item, CRLF line ends and all.
    let notes = format!("gopher://127.0.0.1:{}/0/notes.txt", s.gopher);
    let out = smolweb(&s.data, &["get", &notes]);
    assert!(
        text(&out).0.contains("First line of notes\nSecond line"),
        "{:?}",
        text(&out)
    );

    // gophernicus sends files without a closing "." and without dot-stuffing: a lone "."
    // inside one is content, and everything after it arrives.
    let dotted = format!("gopher://127.0.0.1:{}/0/dotted.txt", s.gopher);
    let out = smolweb(&s.data, &["get", &dotted]);
    assert_eq!(
        text(&out).0,
        "Before the dot\n.\nAfter the dot\n..two dots\nLast line\n",
        "{:?}",
        text(&out)
    );

    // A type-7 search: the query reaches the server's script.
    let search = format!("gopher://127.0.0.1:{}/7/search", s.gopher);
    let out = smolweb(&s.data, &["get", &search, "--search", "tardigrades"]);
    assert!(
        text(&out).0.contains("You searched for: tardigrades"),
        "{:?}",
        text(&out)
    );
}
