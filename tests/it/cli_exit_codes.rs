//! `smolweb get`'s exit codes as README documents them: the table under "Errors go to stderr"
//! is read from README.md, and every row is reached through the real binary against loopback
//! servers (Gemini and HTTP), so a code that changes, or a row added without a case, fails.
//! Every refused redirect (another host, a scheme smolweb does not open, a web redirect away
//! from http and https) exits 8.

use smolweb_testkit as support;

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Output;
use support::smallnet::{self, Protocol};
use support::{gemini, http};

async fn smolweb(data: &Path, args: &[&str]) -> Output {
    let mut cmd = tokio::process::Command::from(crate::smolweb_command(data));
    cmd.args(args).output().await.unwrap()
}

async fn get(data: &Path, url: &str) -> Output {
    smolweb(data, &["get", url]).await
}

/// The rows (code, meaning) of `get`'s exit-code table in README.md.
fn readme_rows() -> Vec<(i32, String)> {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let start = readme
        .find("Errors go to stderr; the exit code says what happened")
        .expect("README's get section");
    let table = readme[start..]
        .lines()
        .skip_while(|l| !l.starts_with("| code |"))
        .skip(2)
        .take_while(|l| l.starts_with('|'));
    table
        .map(|row| {
            let cells: Vec<&str> = row.split('|').collect();
            (
                cells[1].trim().parse().unwrap(),
                cells[2].trim().to_string(),
            )
        })
        .collect()
}

#[tokio::test]
async fn the_manual_page_gives_get_the_readme_exit_codes() {
    let dir = tempfile::tempdir().unwrap();
    let o = smolweb(dir.path(), &["man"]).await;
    let page = String::from_utf8_lossy(&o.stdout);
    let rows = readme_rows();
    assert_eq!(rows.len(), 10, "{rows:?}");
    for (code, meaning) in rows {
        let roff = meaning.replace('`', "").replace('-', "\\-");
        assert!(
            page.contains(&format!(".TP\n\\fB{code}\\fR\n{roff}\n")),
            "the manual's exit status {code} is not README's {meaning:?}"
        );
    }
}

/// A port on 127.0.0.1 where nothing listens (bound, then let go).
fn closed_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    l.local_addr().unwrap().port()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn get_exits_with_every_code_of_the_readme_table() {
    let capsule = gemini::Server::start(
        gemini::Routes::new()
            .route("/", gemini::Reply::gemtext("# hello\n"))
            .route("/gone", gemini::Reply::status(51, "not here"))
            .route("/ask", gemini::Reply::status(10, "your name?"))
            .route("/members", gemini::Reply::status(60, "members only"))
            .route(
                "/away",
                gemini::Reply::status(31, "gemini://elsewhere.example/"),
            )
            .route("/file", gemini::Reply::status(30, "file:///etc/passwd"))
            .route("/js", gemini::Reply::status(30, "javascript:alert(1)"))
            .route("/broken", gemini::Reply::status(30, "gemini://[::1/")),
    )
    .await;
    let changing = gemini::Server::start(
        gemini::Routes::new().route("/", gemini::Reply::gemtext("# pinned\n")),
    )
    .await;
    let web = http::Server::start(|r| match r.path() {
        "/gone" => http::Reply::new(404, "text/html", "<p>not here</p>"),
        "/loop" => http::Reply::redirect(302, "/loop"),
        "/file" => http::Reply::redirect(302, "file:///etc/passwd"),
        "/capsule" => http::Reply::redirect(301, "gemini://capsule.example/"),
        _ => http::Reply::html("<p>hi</p>"),
    })
    .await;
    let spartan = smallnet::Server::start(Protocol::Spartan, |_| {
        smallnet::Reply::text("3 //elsewhere.example/page\r\n")
    })
    .await;
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");

    // The TLS row: a capsule whose certificate changed after its first visit pinned it.
    let first = get(&data, &changing.url("/")).await;
    assert_eq!(first.status.code(), Some(0), "{first:?}");
    changing.set_cert(support::certs::TestCert::new());

    // (url, the code README gives it, what stderr says)
    let closed = format!("gemini://127.0.0.1:{}/", closed_port());
    let cases: Vec<(String, i32, &str)> = vec![
        (capsule.url("/"), 0, ""),
        (capsule.url("/gone"), 5, "not here"),
        (web.url("/gone"), 5, "404 Not Found"),
        (capsule.url("/ask"), 6, "your name?"),
        (capsule.url("/members"), 7, "members only"),
        ("gemini://[::1/".into(), 2, "INVALID_REQUEST"),
        ("http://user@127.0.0.1/".into(), 2, "user@host"),
        (closed, 3, "CONNECTION_ERROR"),
        (capsule.url("/broken"), 3, "unusable redirect target"),
        (web.url("/loop"), 3, "redirect loop"),
        (changing.url("/"), 4, "CERTIFICATE_CHANGED"),
        (capsule.url("/away"), 8, "gemini://elsewhere.example/"),
        (capsule.url("/file"), 8, "file: URL, which is not followed"),
        (
            capsule.url("/js"),
            8,
            "javascript: URL, which is not followed",
        ),
        (spartan.url("/"), 8, "must name a path on the same host"),
        (web.url("/file"), 8, "a redirect was refused"),
        (web.url("/capsule"), 8, "not gemini:"),
        ("gemini://169.254.169.254/".into(), 9, "BLOCKED"),
        ("http://169.254.169.254/latest/".into(), 9, "refused"),
    ];
    let mut seen = BTreeSet::new();
    for (url, code, says) in &cases {
        let o = get(&data, url).await;
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(*code), "{url}: {stderr}");
        assert!(stderr.contains(says), "{url}: {stderr:?} lacks {says:?}");
        seen.insert(*code);
    }

    // Row 1, other failures: a pin store others can write is refused (naming the chmod) when
    // the handshake reads it; no request is sent.
    let hosts = data.join("known_hosts.toml");
    let asked = capsule.requests().len();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&hosts, std::fs::Permissions::from_mode(0o666)).unwrap();
        let o = get(&data, &capsule.url("/")).await;
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{stderr}");
        assert!(
            stderr.contains("known_hosts.toml") && stderr.contains("chmod 600"),
            "{stderr}"
        );
        assert_eq!(capsule.requests().len(), asked, "no request was sent");
        seen.insert(1);
    }

    assert_eq!(
        seen,
        readme_rows().into_iter().map(|(code, _)| code).collect(),
        "every row of README's table is walked, and no code outside it is used"
    );
}
