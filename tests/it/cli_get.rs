//! `smolweb get` against hostile and sloppy in-process servers, through the real binary:
//! control bytes from a capsule never reach the terminal (unless `--raw`), a Gopher text with
//! a "." line in the middle is printed whole, and menu items with an unusable port are shown
//! without a destination.

use smolweb_testkit as support;

use std::path::PathBuf;
use std::process::{Command, Output};
use support::{gemini, gopher};

/// Every kind of terminal control a capsule could try: OSC 52 (clipboard), OSC 0 (title),
/// CSI 2J (clear), the 8-bit CSI, BEL, NUL, DEL, a lone CR.
const HOSTILE: &str = "\x1b]52;c;c2VjcmV0\x07\x1b]0;pwned\x07\x1b[2J\u{9b}31m\0\x7f\r";

/// `smolweb --data-dir DATA get ARGS` (a `config.toml` in DATA is its config).
pub(crate) async fn get(data: PathBuf, args: Vec<String>) -> Output {
    tokio::task::spawn_blocking(move || {
        Command::new(env!("CARGO_BIN_EXE_smolweb"))
            .arg("--data-dir")
            .arg(&data)
            .arg("get")
            .args(&args)
            .env_remove("SMOLWEB_CONFIG")
            .env_remove("SMOLWEB_HOME")
            .env_remove("SMOLWEB_LOG")
            .output()
            .unwrap()
    })
    .await
    .unwrap()
}

/// True when the bytes hold a C0 control other than tab/LF/CR-before-LF, DEL, or a C1 control.
fn has_terminal_controls(bytes: &[u8]) -> bool {
    let text = String::from_utf8_lossy(bytes);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let bad = match c {
            '\t' | '\n' => false,
            '\r' => chars.peek() != Some(&'\n'),
            c => ('\0'..='\x1f').contains(&c) || ('\x7f'..='\u{9f}').contains(&c),
        };
        if bad {
            return true;
        }
    }
    false
}

fn hostile_gemtext() -> String {
    format!(
        "# Title {HOSTILE}\nplain text {HOSTILE}\n=> /next link label {HOSTILE}\n\
         => /bare{}\n* item {HOSTILE}\n> quote {HOSTILE}\n```alt {HOSTILE}\npre {HOSTILE}\n```\n",
        "%1b"
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn get_never_writes_capsule_control_bytes_unless_raw() {
    let page = hostile_gemtext();
    let server = gemini::Server::start(
        gemini::Routes::new()
            .route("/", gemini::Reply::gemtext(&page))
            .route(
                "/plain",
                gemini::Reply::ok("text/plain", format!("text {HOSTILE}\nmore\r\n")),
            )
            .route(
                "/latin1",
                gemini::Reply::ok(
                    "text/plain; charset=iso-8859-1",
                    b"8-bit csi \x9b2J\n".to_vec(),
                ),
            )
            .route(
                "/ask",
                gemini::Reply::status(10, &format!("prompt {HOSTILE}")),
            ),
    )
    .await;
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().to_path_buf();

    let o = get(data.clone(), vec![server.url("/")]).await;
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8(o.stdout.clone()).unwrap();
    assert!(!has_terminal_controls(&o.stdout), "{text:?}");
    assert!(
        text.contains("# Title \u{fffd}]52;c;c2VjcmV0\u{fffd}"),
        "{text:?}"
    );
    assert!(text.contains("[1] link label "), "{text:?}");
    assert!(text.contains("pre \u{fffd}"), "{text:?}");

    // Each line kind, and text/plain at any offset, latin-1 C1 controls and the prompt.
    for (path, offset) in [
        ("/", "5"),
        ("/plain", "0"),
        ("/plain", "3"),
        ("/latin1", "0"),
    ] {
        let o = get(
            data.clone(),
            vec![server.url(path), "--offset".into(), offset.into()],
        )
        .await;
        assert!(o.status.success(), "{path}");
        assert!(
            !has_terminal_controls(&o.stdout),
            "{path}@{offset}: {:?}",
            o.stdout
        );
        assert!(!o.stdout.is_empty(), "{path}");
    }
    let o = get(data.clone(), vec![server.url("/ask")]).await;
    assert_eq!(o.status.code(), Some(6));
    assert!(!has_terminal_controls(&o.stderr), "{:?}", o.stderr);

    // --raw writes the body exactly.
    let o = get(data.clone(), vec![server.url("/"), "--raw".into()]).await;
    assert_eq!(o.stdout, page.as_bytes());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn get_sanitizes_gopher_text_and_menu_titles() {
    let menu = format!("0Title {HOSTILE}\t/t\t127.0.0.1\t70\r\niInfo {HOSTILE}\t\t\t\r\n.\r\n");
    let server = gopher::Server::start(
        gopher::Routes::new()
            .route("", gopher::Reply::text(&menu))
            .route(
                "/t",
                gopher::Reply::text(&format!("text {HOSTILE}\r\n.\r\n")),
            ),
    )
    .await;
    let dir = tempfile::tempdir().unwrap();
    for url in [server.url('1', ""), server.url('0', "/t")] {
        let o = get(dir.path().to_path_buf(), vec![url.clone()]).await;
        assert!(
            o.status.success(),
            "{url}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(!has_terminal_controls(&o.stdout), "{url}: {:?}", o.stdout);
        assert!(
            String::from_utf8_lossy(&o.stdout).contains("\u{fffd}]52;"),
            "{url}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn gopher_text_with_a_dot_line_inside_is_printed_whole() {
    let text = "first part\r\n.\r\nsecond part, after a lone dot\r\n..two dots stay\r\n";
    let server =
        gopher::Server::start(gopher::Routes::new().route("/f", gopher::Reply::text(text))).await;
    let dir = tempfile::tempdir().unwrap();
    let o = get(dir.path().to_path_buf(), vec![server.url('0', "/f")]).await;
    assert!(o.status.success());
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        "first part\n.\nsecond part, after a lone dot\n..two dots stay\n"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn menu_items_with_unusable_ports_are_shown_but_lead_nowhere() {
    let mut menu = String::new();
    for port in ["0", "99999", "-1", "abc"] {
        menu.push_str(&format!("1Port {port}\t/x\t127.0.0.1\t{port}\r\n"));
    }
    // An info line's port says nothing: drawn as it is, never "invalid port".
    menu.push_str("iArt without a port\tfake\t(NULL)\t0\r\n");
    menu.push_str("1Good\t/g\t127.0.0.1\t7070\r\n.\r\n");
    let server =
        gopher::Server::start(gopher::Routes::new().route("", gopher::Reply::text(&menu))).await;
    let dir = tempfile::tempdir().unwrap();
    let o = get(dir.path().to_path_buf(), vec![server.url('1', "")]).await;
    let out = String::from_utf8_lossy(&o.stdout);
    for port in ["0", "99999", "-1", "abc"] {
        let line = out
            .lines()
            .find(|l| l.contains(&format!("Port {port}")))
            .unwrap();
        assert!(line.contains("invalid port"), "{line}");
        assert!(!line.contains("gopher://"), "{line}");
    }
    assert!(
        out.contains("[1] Good (menu) <gopher://127.0.0.1:7070/1/g>"),
        "{out}"
    );
    let art = out.lines().find(|l| l.contains("Art without")).unwrap();
    assert_eq!(art.trim(), "Art without a port", "{out}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_spartan_prompt_line_is_a_numbered_link_that_asks_for_text() {
    use support::smallnet::{self, Protocol, Reply};
    let server = smallnet::Server::start(Protocol::Spartan, |_| {
        Reply::text(
            "2 text/gemini\r\n# Guestbook\n=: /sign Leave a note\n=> /read Read the notes\n",
        )
    })
    .await;
    let dir = tempfile::tempdir().unwrap();
    let o = get(dir.path().to_path_buf(), vec![server.url("/")]).await;
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains(&format!(
            "[1] Leave a note (asks for text: get --input TEXT) <{}>",
            server.url("/sign")
        )),
        "{out}"
    );
    assert!(
        out.contains(&format!("[2] Read the notes <{}>", server.url("/read"))),
        "{out}"
    );
}

fn smolweb(data: &std::path::Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_smolweb"))
        .arg("--data-dir")
        .arg(data)
        .args(args)
        .env_remove("SMOLWEB_CONFIG")
        .env_remove("SMOLWEB_HOME")
        .output()
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pin_approved_through_the_cli_is_the_one_the_next_get_checks() {
    use smolweb_store::approvals::{Approvals, Request};
    let server =
        gemini::Server::start(gemini::Routes::new().route("/", gemini::Reply::gemtext("# hi\n")))
            .await;
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().to_path_buf();
    // An agent asked to pin another certificate, naming the host as typed (upper case, a
    // final dot): approving it must pin the host the fetch looks up.
    let other = support::certs::TestCert::new().fingerprint();
    let approvals = Approvals::new(data.join("approvals.toml"));
    let queued = approvals
        .add(
            Request::TrustPin {
                host: "127.0.0.1.".into(),
                port: server.port(),
                fingerprint: other.clone(),
            },
            "agent",
            time::OffsetDateTime::now_utc(),
        )
        .unwrap();
    let d = data.clone();
    let o = tokio::task::spawn_blocking(move || smolweb(&d, &["trust", "approve", &queued.id]))
        .await
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = get(data.clone(), vec![server.url("/")]).await;
    assert_eq!(
        o.status.code(),
        Some(4),
        "the approved pin is checked: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(String::from_utf8_lossy(&o.stderr).contains("CERTIFICATE_CHANGED"));

    // `trust remove` takes HOST[:PORT] through the same normalizer, and refuses a URL.
    let d = data.clone();
    let port = server.port();
    let (refused, removed) = tokio::task::spawn_blocking(move || {
        let refused = smolweb(
            &d,
            &["trust", "remove", &format!("gemini://127.0.0.1:{port}")],
        );
        let removed = smolweb(&d, &["trust", "remove", &format!("127.0.0.1.:{port}")]);
        (refused, removed)
    })
    .await
    .unwrap();
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("HOST:PORT"));
    assert!(
        removed.status.success(),
        "{}",
        String::from_utf8_lossy(&removed.stderr)
    );
    let o = get(data, vec![server.url("/")]).await;
    assert!(o.status.success(), "pinned afresh after the removal");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn get_fetches_and_warns_when_the_pin_cannot_be_saved() {
    let server = gemini::Server::start(
        gemini::Routes::new().route("/", gemini::Reply::gemtext("# fetched anyway\n")),
    )
    .await;
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().to_path_buf();
    std::fs::create_dir_all(&data).unwrap();
    let url = server.url("/");
    // No file may grow past 0 bytes (a full disk, as far as smolweb can tell): SIGXFSZ is
    // ignored so the write fails with an error instead of killing the process.
    let o = tokio::task::spawn_blocking(move || {
        Command::new("sh")
            .arg("-c")
            .arg("ulimit -f 0; trap '' XFSZ; exec \"$0\" --data-dir \"$1\" get \"$2\"")
            .arg(env!("CARGO_BIN_EXE_smolweb"))
            .arg(&data)
            .arg(&url)
            .env_remove("SMOLWEB_CONFIG")
            .env_remove("SMOLWEB_HOME")
            .env_remove("SMOLWEB_LOG")
            .output()
            .unwrap()
    })
    .await
    .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{stderr}");
    assert_eq!(String::from_utf8_lossy(&o.stdout), "# fetched anyway\n");
    assert!(stderr.contains("could not be saved"), "{stderr}");
    let saved = std::fs::read_to_string(dir.path().join("known_hosts.toml")).unwrap_or_default();
    assert!(!saved.contains("pin"), "nothing was saved: {saved}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_corrupt_identity_file_is_named_and_blocks_nothing_else() {
    let server =
        gemini::Server::start(gemini::Routes::new().route("/", gemini::Reply::gemtext("# ok\n")))
            .await;
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().to_path_buf();
    let ids = data.join("identities");
    std::fs::create_dir_all(&ids).unwrap();
    let bad = ids.join(format!("{}.toml", "e".repeat(64)));
    smolweb_store::perms::write_private(&bad, "this is [not toml").unwrap();

    let o = get(data.clone(), vec![server.url("/")]).await;
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(String::from_utf8_lossy(&o.stdout), "# ok\n");

    let d = data.clone();
    let (created, listed) = tokio::task::spawn_blocking(move || {
        let created = smolweb(&d, &["identity", "create", "gemini://other.example/"]);
        let listed = smolweb(&d, &["identity", "list"]);
        (created, listed)
    })
    .await
    .unwrap();
    assert!(
        created.status.success(),
        "{}",
        String::from_utf8_lossy(&created.stderr)
    );
    assert!(listed.status.success());
    assert!(String::from_utf8_lossy(&listed.stdout).contains("gemini://other.example/"));
    let warning = String::from_utf8_lossy(&listed.stderr);
    assert!(
        warning.contains(&"e".repeat(64)),
        "the bad file is named: {warning}"
    );
    assert_eq!(std::fs::read_to_string(&bad).unwrap(), "this is [not toml");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn get_raw_warns_before_writing_a_body_cut_without_close_notify() {
    let bytes = b"\x89PNG\r\n\x1a\npartial";
    let server = gemini::Server::start(
        gemini::Routes::new()
            .route(
                "/cut.png",
                gemini::Reply::close_without_notify(20, "image/png", bytes),
            )
            .route("/whole.png", gemini::Reply::ok("image/png", &bytes[..])),
    )
    .await;
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().to_path_buf();
    let o = get(data.clone(), vec![server.url("/cut.png"), "--raw".into()]).await;
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(o.stdout, bytes, "the bytes are still written");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("warning") && err.contains("close_notify"),
        "{err}"
    );
    let o = get(data, vec![server.url("/whole.png"), "--raw".into()]).await;
    assert_eq!(o.stdout, bytes);
    assert!(
        o.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// Bidi controls and invisible characters (Hardening II, 1): `get` shows an override,
/// embedding or isolate as U+FFFD (link labels and preformatted blocks included), drops
/// bidi marks and zero-width characters, and `--raw` is byte-exact.
pub(crate) const SPOOF: &str = "# Invoice \u{202e}fdp.exe\u{202c}\n\
    Pay to \u{2066}Alice\u{2069} at pay\u{200b}pal\u{feff}.example \u{200f}now\u{200e}\n\
    => /next Open \u{202e}txt.exe\n\
    => javascript:alert(1) Run\n\
    ```sh\n\
    rm -rf /tmp/x \u{2067}\u{2066}# harmless comment\u{2069}\u{2069}\n\
    ```\n\
    tags\u{e0041}\u{e0049} soft\u{ad}hyphen 👨\u{200d}👩\u{200d}👧\n";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn get_marks_bidi_controls_and_drops_invisible_characters() {
    let server =
        gemini::Server::start(gemini::Routes::new().route("/", gemini::Reply::gemtext(SPOOF)))
            .await;
    let dir = tempfile::tempdir().unwrap();
    let o = get(dir.path().to_path_buf(), vec![server.url("/")]).await;
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8(o.stdout).unwrap();
    let bidi = |c: char| matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200e}' | '\u{200f}' | '\u{61c}');
    let invisible = |c: char| {
        matches!(c, '\u{200b}' | '\u{2060}' | '\u{feff}' | '\u{ad}')
            || ('\u{e0000}'..='\u{e007f}').contains(&c)
    };
    assert!(!text.chars().any(|c| bidi(c) || invisible(c)), "{text:?}");
    let want = format!(
        "# Invoice \u{fffd}fdp.exe\u{fffd}\n\
         Pay to \u{fffd}Alice\u{fffd} at paypal.example now\n\
         [1] Open \u{fffd}txt.exe <{}>\n    \
         Run (javascript: link not followed)\n\
         ```sh\n\
         rm -rf /tmp/x \u{fffd}\u{fffd}# harmless comment\u{fffd}\u{fffd}\n\
         ```\n\
         tags softhyphen 👨\u{200d}👩\u{200d}👧\n",
        server.url("/next")
    );
    assert_eq!(text, want);
    let o = get(
        dir.path().to_path_buf(),
        vec![server.url("/"), "--raw".into()],
    )
    .await;
    assert_eq!(o.stdout, SPOOF.as_bytes(), "--raw stays exact");
}

/// A body in UTF-16 (Hardening II, 3), declared or with a BOM, and one with an unknown label:
/// decoded, not latin-1 mojibake.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn get_decodes_utf16_and_cjk_bodies() {
    let utf16 = |s: &str, bom: Option<[u8; 2]>, le: bool| -> Vec<u8> {
        let mut out = bom.map(Vec::from).unwrap_or_default();
        for u in s.encode_utf16() {
            out.extend(if le { u.to_le_bytes() } else { u.to_be_bytes() });
        }
        out
    };
    let page = "# Grüße aus Köln\n=> /a Straße\n";
    let (sjis, _, _) = encoding_rs::SHIFT_JIS.encode("# 日本語のページ\n");
    let server = gemini::Server::start(
        gemini::Routes::new()
            .route(
                "/le",
                gemini::Reply::ok("text/gemini; charset=utf-16", utf16(page, None, true)),
            )
            .route(
                "/be",
                gemini::Reply::ok("text/gemini; charset=UTF-16BE", utf16(page, None, false)),
            )
            .route(
                "/bom",
                gemini::Reply::ok(
                    "text/gemini; charset=iso-8859-1",
                    utf16(page, Some([0xFE, 0xFF]), false),
                ),
            )
            .route(
                "/sjis",
                gemini::Reply::ok("text/gemini; charset=Shift_JIS", sjis.into_owned()),
            )
            .route(
                "/unknown",
                gemini::Reply::ok("text/gemini; charset=klingon", page.as_bytes().to_vec()),
            ),
    )
    .await;
    let dir = tempfile::tempdir().unwrap();
    for path in ["/le", "/be", "/bom", "/unknown"] {
        let o = get(dir.path().to_path_buf(), vec![server.url(path)]).await;
        assert!(o.status.success(), "{path}");
        assert_eq!(
            String::from_utf8(o.stdout).unwrap(),
            format!("# Grüße aus Köln\n[1] Straße <{}>\n", server.url("/a")),
            "{path}"
        );
    }
    let o = get(dir.path().to_path_buf(), vec![server.url("/sjis")]).await;
    assert_eq!(String::from_utf8(o.stdout).unwrap(), "# 日本語のページ\n");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn get_width_wraps_prose_with_hanging_indents_and_leaves_preformatted_text() {
    let long = "the quick brown fox jumps over the lazy dog again and again";
    let art = "+----------------------------------------------------+";
    let story = "/2026/12/07/global-warming-has-begun-say-the-scientists.html";
    let page = format!(
        "# A heading that is rather long for thirty\n{long}\n* {long}\n> {long}\n=> /next {long}\n```\n{art}\n```\nSee https://news.example{story} for the story\n=> {story} The story\n"
    );
    let server =
        gemini::Server::start(gemini::Routes::new().route("/", gemini::Reply::gemtext(&page)))
            .await;
    let dir = tempfile::tempdir().unwrap();
    let url = server.url("/");
    let o = get(
        dir.path().to_path_buf(),
        vec![url.clone(), "--width".into(), "30".into()],
    )
    .await;
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    let lines: Vec<&str> = out.lines().collect();
    // Issue 33: URLs were cut in the middle. Only a URL, alone on its row, goes past 30.
    let is_url_row = |l: &str| {
        let l = l.trim_start();
        (l.starts_with("<gemini://") && l.ends_with('>')) || l.starts_with("https://")
    };
    for l in &lines {
        if *l != art && !is_url_row(l) {
            assert!(l.chars().count() <= 30, "row wider than 30: {l:?}\n{out}");
        }
    }
    let whole = format!("    <{}>", server.url(story));
    assert!(
        lines.contains(&whole.as_str()),
        "the link's URL whole:\n{out}"
    );
    let prose = format!("https://news.example{story}");
    assert!(
        lines.contains(&prose.as_str()),
        "a URL in the text whole:\n{out}"
    );
    assert!(lines.contains(&"[2] The story"), "{out}");
    assert!(lines.contains(&art), "preformatted line kept whole:\n{out}");
    assert!(lines.contains(&"• the quick brown fox jumps"), "{out}");
    assert!(
        lines.contains(&"  over the lazy dog again and"),
        "list rows hang:\n{out}"
    );
    assert!(
        lines.contains(&"> over the lazy dog again and"),
        "quote rows keep the mark:\n{out}"
    );
    assert!(
        lines.iter().any(|l| l.starts_with("[1] the quick")),
        "{out}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("    ") && l.ends_with('>')),
        "{out}"
    );
    // Without --width the same page prints one row per line.
    let plain = get(dir.path().to_path_buf(), vec![url]).await;
    let plain = String::from_utf8_lossy(&plain.stdout).into_owned();
    assert!(plain.lines().any(|l| l == format!("• {long}")), "{plain}");
    // A width too small to be useful is refused by the argument parser.
    let o = get(
        dir.path().to_path_buf(),
        vec![server.url("/"), "--width".into(), "5".into()],
    )
    .await;
    assert_eq!(o.status.code(), Some(2));
}

/// `smolweb get guppy://…` (issue 31's proof through the CLI): a document that arrives in
/// lost, duplicated and reordered packets prints whole, sanitized, its links numbered; a
/// prompt asks for `--input`, which is sent; a hostile control never reaches the terminal.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn get_opens_guppy() {
    use support::guppy::{Knobs, Reply, Server};
    let knobs = Knobs {
        chunk: 16,
        reverse: true,
        duplicate: true,
        drop_first_send: vec![0, 4],
        ..Knobs::default()
    };
    let server = Server::start(knobs, |path| match path {
        "/" => Reply::gemtext(&format!(
            "# Guppy over UDP {HOSTILE}\n=> /ask Ask a question\nThe end of the page.\n"
        )),
        "/ask" => Reply::Input("Your question?".into()),
        other => Reply::gemtext(&format!("answered {other}\n")),
    })
    .await;
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().to_path_buf();
    let o = get(data.clone(), vec![server.url("/")]).await;
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8(o.stdout.clone()).unwrap();
    assert!(!has_terminal_controls(&o.stdout), "{text:?}");
    assert!(text.contains("# Guppy over UDP"), "{text}");
    assert!(text.contains("[1] Ask a question"), "{text}");
    assert!(text.contains("The end of the page."), "{text}");
    let o = get(data.clone(), vec![server.url("/ask")]).await;
    assert_eq!(o.status.code(), Some(6), "input asked");
    assert!(String::from_utf8_lossy(&o.stderr).contains("Your question?"));
    let o = get(
        data.clone(),
        vec![server.url("/ask"), "--input".into(), "why UDP".into()],
    )
    .await;
    assert!(o.status.success());
    assert!(String::from_utf8_lossy(&o.stdout).contains("answered /ask?why%20UDP"));
}

/// Issue 33: `get` pinned a new host's certificate without a word. It says so on stderr
/// (with the fingerprint to compare), once: the next visit is quiet.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn get_says_on_stderr_when_it_pins_a_new_host() {
    let server =
        gemini::Server::start(gemini::Routes::new().route("/", gemini::Reply::gemtext("# Hi\n")))
            .await;
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().to_path_buf();
    let o = get(data.clone(), vec![server.url("/")]).await;
    assert!(o.status.success());
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        "# Hi\n",
        "stdout is the page only"
    );
    let err = String::from_utf8_lossy(&o.stderr);
    let host = server.url("/");
    let host = host.trim_start_matches("gemini://").trim_end_matches('/');
    assert!(
        err.contains(&format!(
            "smolweb: first visit to {host}: its certificate was pinned (trust on first use), sha256:"
        )),
        "{err}"
    );
    let again = get(data, vec![server.url("/")]).await;
    assert!(
        again.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
}
