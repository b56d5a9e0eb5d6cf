//! Integration against servers nobody here wrote: Debian's molly-brown (Gemini) and
//! gophernicus (Gopher), started on loopback with a generated certificate and a small content
//! tree, driven through the real `smolweb get` binary. Missing tools skip loudly on a developer
//! machine; with SMOLWEB_REQUIRE_REAL_SERVERS=1 (CI) they are mandatory.

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
    if let Err(e) = try_listening(port, child) {
        panic!("{e}");
    }
}

/// Wait until the server listens on `port`, or say why it will not (it exited: a port taken
/// by a parallel test between `free_port` and its bind, for one).
fn try_listening(port: u16, child: &mut Child) -> Result<(), String> {
    let deadline = Instant::now() + Duration::from_secs(10);
    while Instant::now() < deadline {
        if TcpStream::connect(("127.0.0.1", port)).is_ok() {
            return Ok(());
        }
        if let Ok(Some(status)) = child.try_wait() {
            return Err(format!("server exited early: {status}"));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    Err(format!("server on port {port} did not start listening"))
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

// ---------------------------------------------------------------------------------------------
// The web: Debian's nginx serving fixture pages over http and https (HTTP/2 with ALPN), with a
// CA made by openssl that smolweb is told to trust. Driven through `smolweb get` (the human
// face) and the library's agent face (the fetch_url path), which must refuse a redirect to a
// private name that nginx's access log then never shows.

const NGINX: &str = "/usr/sbin/nginx";

fn nginx_present() -> bool {
    if Path::new(NGINX).exists() && Path::new("/usr/bin/openssl").exists() {
        return true;
    }
    if std::env::var("SMOLWEB_REQUIRE_REAL_SERVERS").as_deref() == Ok("1") {
        panic!("SMOLWEB_REQUIRE_REAL_SERVERS=1 but nginx or openssl is missing");
    }
    use std::io::Write;
    let _ = writeln!(
        std::io::stderr(),
        "\n*** SKIP real_servers (web): missing {NGINX} (apt-get install nginx openssl) ***\n"
    );
    false
}

fn openssl(args: &[&str], dir: &Path) {
    let status = Command::new("/usr/bin/openssl")
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success(), "openssl {args:?} failed");
}

/// A CA and a server certificate for 127.0.0.1 signed by it (ca.pem, server.pem, server.key).
fn make_web_ca(dir: &Path) {
    let ec = [
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:prime256v1",
        "-nodes",
    ];
    let mut ca = vec!["req", "-x509"];
    ca.extend(ec);
    ca.extend(["-days", "30", "-subj", "/CN=smolweb nginx test CA"]);
    ca.extend(["-addext", "basicConstraints=critical,CA:TRUE"]);
    ca.extend(["-addext", "keyUsage=critical,keyCertSign,cRLSign"]);
    ca.extend(["-keyout", "ca.key", "-out", "ca.pem"]);
    openssl(&ca, dir);
    let mut csr = vec!["req"];
    csr.extend(ec);
    csr.extend([
        "-subj",
        "/CN=127.0.0.1",
        "-keyout",
        "server.key",
        "-out",
        "server.csr",
    ]);
    openssl(&csr, dir);
    write(
        &dir.join("ext.cnf"),
        "subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n",
    );
    openssl(
        &[
            "x509",
            "-req",
            "-in",
            "server.csr",
            "-CA",
            "ca.pem",
            "-CAkey",
            "ca.key",
            "-CAcreateserial",
            "-days",
            "30",
            "-extfile",
            "ext.cnf",
            "-out",
            "server.pem",
        ],
        dir,
    );
}

const WEB_ARTICLE: &str = r#"<!doctype html><html lang="en"><head><title>Lighthouse logs</title>
<meta name="description" content="What the keepers wrote."></head><body>
<nav><a href="/">Home</a> <a href="/shop.html">Shop for souvenirs</a></nav>
<article><h1>Lighthouse logs</h1>
<p>The keepers wrote the weather, the ships that passed and the state of the lamp every four hours, in books that now fill a whole wall of the archive in town.</p>
<p>Reading them in order shows how the winters grew milder over a century, and how the number of ships fell once the new harbour opened further south.</p>
<p>See the <a href="logs/1901.html">log of 1901</a>.</p></article>
<footer>Copyright the Lighthouse Trust; all rights reserved.</footer></body></html>"#;

struct Nginx {
    _proc: Running,
    http: u16,
    https: u16,
    dir: tempfile::TempDir,
}

fn start_nginx() -> Option<Nginx> {
    if !nginx_present() {
        return None;
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    make_web_ca(d);
    let root = d.join("www");
    write(&root.join("index.html"), WEB_ARTICLE);
    std::fs::write(
        root.join("latin1.html"),
        b"<html><head><meta charset=\"iso-8859-1\"></head><body><p>Caf\xe9 au lait, cr\xe8me br\xfbl\xe9e.</p></body></html>",
    )
    .unwrap();
    write(
        &root.join("notes.md"),
        "# Notes\n\nPlain *markdown* from nginx.\n",
    );
    write(
        &root.join("robots.txt"),
        "User-agent: *\nDisallow: /private/\n",
    );
    write(&root.join("private/page.html"), "<p>private</p>");
    write(&root.join("secret.html"), "<p>secret</p>");
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    std::io::Write::write_all(&mut gz, &vec![b'z'; 32 * 1024 * 1024]).unwrap();
    std::fs::write(root.join("bomb.txt"), gz.finish().unwrap()).unwrap();
    // Ports are chosen before nginx binds them, so a test running beside this one can take one
    // in between: then nginx exits, and it is started again on new ports.
    for attempt in 1.. {
        let (http, https) = (free_port(), free_port());
        let conf = format!(
            r#"daemon off;
master_process off;
worker_processes 1;
pid {d}/nginx.pid;
error_log {d}/error.log;
events {{ worker_connections 64; }}
http {{
    access_log {d}/access.log;
    client_body_temp_path {d}/tmp-body;
    proxy_temp_path {d}/tmp-proxy;
    fastcgi_temp_path {d}/tmp-fastcgi;
    uwsgi_temp_path {d}/tmp-uwsgi;
    scgi_temp_path {d}/tmp-scgi;
    types {{ text/html html; text/markdown md; text/plain txt; }}
    default_type application/octet-stream;
    server {{
        listen 127.0.0.1:{http};
        listen 127.0.0.1:{https} ssl http2;
        ssl_certificate {d}/server.pem;
        ssl_certificate_key {d}/server.key;
        root {root};
        location = /latin1.html {{ types {{ }} default_type text/html; }}
        location = /notes.md {{ add_header x-markdown-tokens 9; }}
        location = /bomb.txt {{ add_header Content-Encoding gzip; }}
        location = /old {{ return 301 /index.html; }}
        location = /busy {{ add_header Retry-After 30 always; return 429; }}
        location = /loop {{ return 302 /loop; }}
        location = /to-private {{ return 302 http://localhost:{http}/secret.html; }}
    }}
}}
"#,
            d = d.display(),
            root = root.display(),
        );
        write(&d.join("nginx.conf"), &conf);
        let mut child = Command::new(NGINX)
            .arg("-p")
            .arg(d)
            .arg("-e")
            .arg(d.join("error.log"))
            .arg("-c")
            .arg(d.join("nginx.conf"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let up = try_listening(http, &mut child).and_then(|()| try_listening(https, &mut child));
        match up {
            Ok(()) => {
                return Some(Nginx {
                    _proc: Running(child),
                    http,
                    https,
                    dir,
                });
            }
            Err(e) if attempt < 5 => {
                let _ = child.kill();
                let _ = child.wait();
                eprintln!("nginx did not start ({e}), attempt {attempt}: trying other ports");
            }
            Err(e) => {
                let log = std::fs::read_to_string(d.join("error.log")).unwrap_or_default();
                panic!("nginx did not start after {attempt} attempts: {e}\n{log}");
            }
        }
    }
    unreachable!("the loop returns or panics")
}

impl Nginx {
    fn http(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.http)
    }
    fn https(&self, path: &str) -> String {
        format!("https://127.0.0.1:{}{path}", self.https)
    }
    /// A config naming the test CA, plus `extra` lines.
    fn config(&self, extra: &str) -> PathBuf {
        let path = self.dir.path().join("smolweb.toml");
        let ca = self.dir.path().join("ca.pem");
        write(
            &path,
            &format!(
                "[web]\nextra_root_certificates = [{:?}]\n{extra}",
                ca.display().to_string()
            ),
        );
        path
    }
    fn access_log(&self) -> String {
        std::fs::read_to_string(self.dir.path().join("access.log")).unwrap_or_default()
    }
}

#[test]
fn real_nginx_pages_over_http_and_https() {
    let Some(n) = start_nginx() else { return };
    let data = n.dir.path().join("data");
    let cfg = n.config("");
    let cfg = cfg.display().to_string();
    let get = |url: &str, extra: &[&str]| {
        let mut args = vec!["--config", cfg.as_str(), "get"];
        args.extend(extra);
        args.push(url);
        smolweb(&data, &args)
    };
    // The article over HTTPS (HTTP/2), verified against the test CA, main content only.
    let out = get(&n.https("/old"), &[]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    assert!(stdout.contains("# Lighthouse logs"), "{stdout}");
    assert!(
        stdout.contains(&format!("<{}>", n.https("/logs/1901.html"))),
        "{stdout}"
    );
    assert!(
        !stdout.contains("souvenirs") && !stdout.contains("all rights reserved"),
        "{stdout}"
    );
    // Without the CA the certificate is refused (exit 4, TLS).
    let out = smolweb(&data, &["get", &n.https("/")]);
    assert_eq!(out.status.code(), Some(4), "{:?}", text(&out));
    // latin-1 declared only by <meta>, over plain HTTP.
    let out = get(&n.http("/latin1.html"), &[]);
    assert!(
        text(&out).0.contains("Café au lait, crème brûlée"),
        "{:?}",
        text(&out)
    );
    // Markdown as served; raw bytes.
    let out = get(&n.http("/notes.md"), &["--raw"]);
    assert_eq!(text(&out).0, "# Notes\n\nPlain *markdown* from nginx.\n");
    // 429 with Retry-After: exit 5 and the header quoted.
    let out = get(&n.http("/busy"), &[]);
    assert_eq!(out.status.code(), Some(5));
    assert!(text(&out).1.contains("Retry-After: 30"), "{:?}", text(&out));
    // A redirect loop: exit 3.
    let out = get(&n.http("/loop"), &[]);
    assert_eq!(out.status.code(), Some(3), "{:?}", text(&out));
}

#[test]
fn real_nginx_agent_face_limits_guard_and_robots() {
    use smolweb_client::web::WebQuery;
    use smolweb_client::{Client, Face};
    use smolweb_core::code::ErrorCode;
    let Some(n) = start_nginx() else { return };
    let mut config = smolweb_client::config::Config::default();
    config.network.allowed_hosts = vec!["127.0.0.1".into()];
    config.network.timeout_seconds = 10;
    config.politeness.per_host_interval_ms = 0;
    config.web.max_response_bytes = 1024 * 1024;
    config.web.extra_root_certificates = vec![n.dir.path().join("ca.pem").display().to_string()];
    let data = n.dir.path().join("agent-data");
    let paths = smolweb_store::paths::Paths::resolve(Some(data), None, None, None).unwrap();
    let client = Client::new(config, paths, Face::Agent).unwrap();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let fetch = |url: String| {
        rt.block_on(client.fetch_web(&WebQuery {
            url,
            ..WebQuery::default()
        }))
    };
    // nginx's precompressed 32 MiB of 'z': the decompressed cap stops it.
    let f = fetch(n.https("/bomb.txt")).unwrap();
    assert!(f.page.truncated);
    assert_eq!(f.page.bytes, 1024 * 1024);
    // x-markdown-tokens is passed on.
    let f = fetch(n.https("/notes.md")).unwrap();
    assert_eq!(f.page.markdown_tokens, Some(9));
    // robots.txt: /private/ is disallowed for every agent.
    let e = fetch(n.http("/private/page.html")).unwrap_err();
    assert_eq!(e.code(), ErrorCode::PolicyRejected);
    // A redirect to another name of loopback is refused before any connection.
    let e = fetch(n.http("/to-private")).unwrap_err();
    assert_eq!(e.code(), ErrorCode::PolicyRejected, "{e}");
    // nginx writes a log line when it finishes a request, which may be after we read the
    // answer: wait for the line of the redirect itself.
    let waited = Instant::now();
    while !n.access_log().contains("/to-private") && waited.elapsed() < Duration::from_secs(5) {
        std::thread::sleep(Duration::from_millis(20));
    }
    let log = n.access_log();
    assert!(log.contains("/to-private"), "{log}");
    assert!(
        !log.contains("/secret.html"),
        "the refused target was requested: {log}"
    );
    assert!(
        !log.contains("/private/page.html"),
        "robots.txt was ignored: {log}"
    );
}

/// `smolweb sync` against molly-brown: a gemlog's posts end up in the offline cache (molly
/// ends its answers with close_notify, so they count as complete), and `smolweb get` of
/// about:offline lists nothing waiting.
#[test]
fn real_molly_sync_keeps_a_gemlog() {
    let Some(s) = servers() else { return };
    let docs = s._dir.path().join("docs");
    write(
        &docs.join("log/index.gmi"),
        "# Molly's gemlog\n=> first.gmi 2026-11-01 First post\n=> second.gmi 2026-11-20 Second post\n",
    );
    write(&docs.join("log/first.gmi"), "# First\nThe first post.\n");
    write(&docs.join("log/second.gmi"), "# Second\nThe second post.\n");
    std::fs::create_dir_all(&s.data).unwrap();
    write(
        &s.data.join("config.toml"),
        "[politeness]\nper_host_interval_ms = 0\n",
    );
    let log = format!("gemini://127.0.0.1:{}/log/", s.gemini);
    let out = smolweb(&s.data, &["feeds", "add", &log]);
    assert!(out.status.success(), "{:?}", text(&out));
    let out = smolweb(&s.data, &["sync"]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
    assert!(
        stdout.starts_with("sync: 1 feed refreshed, 0 new entries, 2 pages kept ("),
        "{stdout}"
    );
    println!("molly-brown: {stdout}");
    let out = smolweb(&s.data, &["sync"]);
    assert!(
        text(&out).0.contains(", 0 pages kept (0 B)"),
        "{:?}",
        text(&out)
    );
}
