//! The small protocols through `Client::open` (and `Client::titan_upload`) against the
//! in-process servers of `smolweb_testkit::smallnet`: each protocol's framing edge cases
//! (Nex directory vs file, Finger forward refused, Spartan redirect and data block, Scroll
//! metadata lines, gophers menus over TLS, an early Titan reply), the cache rules, TOFU, and
//! the hostile classes (oversized reply, slow drip past the timeout, bad UTF-8).

use smolweb_testkit as support;

use smolweb_client::config::Config;
use smolweb_client::smallnet::Upload;
use smolweb_client::{Client, Face, OpenOptions, Outcome};
use smolweb_core::page::Content;
use smolweb_net::FetchError;
use smolweb_store::paths::Paths;
use std::time::Duration;
use support::smallnet::{Protocol, Reply, Server};

fn client_with(face: Face, edit: impl FnOnce(&mut Config)) -> (Client, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let mut config = Config::default();
    config.network.allow_private_addresses = true;
    config.network.timeout_seconds = 3;
    config.politeness.per_host_interval_ms = 0;
    edit(&mut config);
    let paths = Paths::resolve(Some(dir.path().to_path_buf()), None, None, None).unwrap();
    (Client::new(config, paths, face).unwrap(), dir)
}

fn agent() -> (Client, tempfile::TempDir) {
    client_with(Face::Agent, |_| {})
}

async fn open(c: &Client, url: &str) -> Outcome {
    c.open(url, &OpenOptions::default()).await
}

fn page(o: &Outcome) -> &smolweb_core::page::Page {
    match o {
        Outcome::Page { fetched, .. } => &fetched.page,
        other => panic!("not a page: {other:?}"),
    }
}

fn error(o: &Outcome) -> &FetchError {
    match o {
        Outcome::Error { error, .. } => error,
        other => panic!("not an error: {other:?}"),
    }
}

#[tokio::test]
async fn nex_directory_is_gemtext_and_a_file_goes_by_its_extension() {
    let server = Server::start(Protocol::Nex, |req| match req.line.as_str() {
        "" | "docs/" => Reply::text("Welcome\n=> about.txt About\n=> nex://example.org/ Away\n"),
        "about.txt" => Reply::text("# not a heading here\n"),
        _ => Reply::Bytes(vec![0x89, b'P', b'N', b'G', 0, 1, 2]),
    })
    .await;
    let (c, _d) = agent();
    let dir = open(&c, &server.url("/")).await;
    let p = page(&dir);
    assert_eq!(p.mime.essence(), "text/gemini");
    let Content::Gemtext(doc) = &p.content else {
        panic!("a directory is gemtext");
    };
    let links: Vec<&str> = doc.links().map(|l| l.url.as_str()).collect();
    assert_eq!(
        links,
        vec![server.url("/about.txt").as_str(), "nex://example.org/"]
    );
    let file = open(&c, &server.url("/about.txt")).await;
    assert_eq!(page(&file).mime.essence(), "text/plain");
    assert!(matches!(page(&file).content, Content::Text));
    let bin = open(&c, &server.url("/pic.png")).await;
    assert!(matches!(page(&bin).content, Content::Binary));
    // The path goes without its leading slash, and a second visit is answered from the cache.
    let again = open(&c, &server.url("/about.txt")).await;
    assert!(matches!(again, Outcome::Page { fetched, .. } if fetched.cached));
    let lines: Vec<String> = server.requests().into_iter().map(|r| r.line).collect();
    assert_eq!(lines, vec!["", "about.txt", "pic.png"]);
}

#[tokio::test]
async fn finger_user_forms_and_a_refused_forward() {
    let server = Server::start(Protocol::Finger, |req| {
        Reply::text(&format!("Login: {}\r\nPlan: small web\r\n", req.line))
    })
    .await;
    let (c, _d) = agent();
    let port = server.port();
    let a = open(&c, &format!("finger://127.0.0.1:{port}/alice")).await;
    assert!(page(&a).body.text().contains("Login: alice"));
    let b = open(&c, &format!("finger://bob@127.0.0.1:{port}")).await;
    assert!(page(&b).body.text().contains("Login: bob"));
    let fwd = open(
        &c,
        &format!("finger://127.0.0.1:{port}/carol@elsewhere.example"),
    )
    .await;
    assert_eq!(error(&fwd).code(), smolweb_net::ErrorCode::InvalidRequest);
    let lines: Vec<String> = server.requests().into_iter().map(|r| r.line).collect();
    assert_eq!(lines, vec!["alice", "bob"], "the forward never left");
    // Typed by the person: sent.
    let typed = OpenOptions {
        finger_forward: true,
        ..OpenOptions::default()
    };
    let url = format!("finger://127.0.0.1:{port}/carol@elsewhere.example");
    let ok = c.open(&url, &typed).await;
    assert!(page(&ok).body.text().contains("carol@elsewhere.example"));
}

#[tokio::test]
async fn spartan_redirect_data_block_and_errors() {
    let server = Server::start(Protocol::Spartan, |req| {
        let path = req.line.split(' ').nth(1).unwrap_or("");
        match path {
            "/" => Reply::text("2 text/gemini\r\n# Spartan\n=: /post Say something\n"),
            "/old" => Reply::text("3 /new\r\n"),
            "/away" => Reply::text("3 spartan://elsewhere.example/\r\n"),
            "/post" => {
                Reply::Bytes([b"2 text/plain\r\ngot: ".as_slice(), req.data.as_slice()].concat())
            }
            "/missing" => Reply::text("4 not here\r\n"),
            "/broken" => Reply::text("5 oops\r\n"),
            _ => Reply::text("20 gemini-style header\r\n"),
        }
    })
    .await;
    let (c, _d) = agent();
    let root = open(&c, &server.url("/")).await;
    assert_eq!(page(&root).mime.essence(), "text/gemini");
    let head = &server.requests()[0].line;
    assert_eq!(head, "127.0.0.1 / 0", "host without port, path, length");
    match open(&c, &server.url("/old")).await {
        Outcome::Redirect {
            target, cross_host, ..
        } => {
            assert_eq!(target, server.url("/new"));
            assert!(!cross_host);
        }
        other => panic!("{other:?}"),
    }
    let away = open(&c, &server.url("/away")).await;
    assert_eq!(error(&away).code(), smolweb_net::ErrorCode::ProtocolError);
    let answer = OpenOptions {
        input: Some("hello spartan".into()),
        ..OpenOptions::default()
    };
    let posted = c.open(&server.url("/post"), &answer).await;
    assert_eq!(page(&posted).body.text(), "got: hello spartan");
    assert!(
        posted.info().has_query,
        "an answer is reported as sent, not echoed"
    );
    let req = server.requests().pop().unwrap();
    assert_eq!(req.line, "127.0.0.1 /post 13");
    assert_eq!(req.data, b"hello spartan");
    // An answer is never cached: the same answer asks again.
    let _ = c.open(&server.url("/post"), &answer).await;
    assert_eq!(
        server
            .requests()
            .iter()
            .filter(|r| r.line.contains("/post"))
            .count(),
        2
    );
    for (path, status) in [("/missing", 59), ("/broken", 40)] {
        match open(&c, &server.url(path)).await {
            Outcome::Failure {
                status: s, meta, ..
            } => {
                assert_eq!(s, status);
                assert!(meta.starts_with("spartan status"), "{meta}");
            }
            other => panic!("{other:?}"),
        }
    }
    let bad = open(&c, &server.url("/gemini-header")).await;
    assert_eq!(error(&bad).code(), smolweb_net::ErrorCode::ProtocolError);
}

#[tokio::test]
async fn scroll_metadata_lines_tofu_and_statuses() {
    let server = Server::start(Protocol::Scroll, |req| {
        match req.line.split(' ').next().unwrap_or("") {
            u if u.ends_with("/doc") => Reply::text(
                "20 text/gemini\r\nAda Lovelace\r\n2024-03-25T15:24:49Z\r\n2024-08-03T14:11:29Z\r\n# Notes\nbody\n",
            ),
            u if u.ends_with("/ask") => Reply::text("10 Your name?\r\n"),
            u if u.ends_with("/cut") => Reply::text("20 text/gemini\r\nonly an author\r\n"),
            _ => Reply::text("51 not found\r\n"),
        }
    })
    .await;
    let (c, _d) = agent();
    let doc = open(&c, &server.url("/doc")).await;
    let p = page(&doc);
    let meta = p.document_meta.as_ref().expect("scroll metadata");
    assert_eq!(meta.author.as_deref(), Some("Ada Lovelace"));
    assert_eq!(meta.published.as_deref(), Some("2024-03-25T15:24:49Z"));
    assert_eq!(meta.modified.as_deref(), Some("2024-08-03T14:11:29Z"));
    assert_eq!(p.body.text(), "# Notes\nbody\n");
    let tls = doc.info().tls.as_ref().expect("tls facts");
    assert_eq!(Some(tls.cert_fingerprint.clone()), server.fingerprint());
    assert_eq!(tls.tofu, smolweb_net::TofuState::FirstUse);
    let line = &server.requests()[0].line;
    assert_eq!(line, &format!("{} en", server.url("/doc")));
    assert!(matches!(
        open(&c, &server.url("/ask")).await,
        Outcome::Input {
            sensitive: false,
            ..
        }
    ));
    assert!(matches!(
        open(&c, &server.url("/gone")).await,
        Outcome::Failure { status: 51, .. }
    ));
    let cut = open(&c, &server.url("/cut")).await;
    assert_eq!(error(&cut).code(), smolweb_net::ErrorCode::ProtocolError);
    // The pin holds: a second visit (fresh) sees the same certificate as trusted.
    let again = c
        .open(
            &server.url("/doc"),
            &OpenOptions {
                refresh: true,
                ..OpenOptions::default()
            },
        )
        .await;
    assert_eq!(
        again.info().tls.as_ref().unwrap().tofu,
        smolweb_net::TofuState::Trusted
    );
}

#[tokio::test]
async fn gophers_menu_over_tls() {
    let server = Server::start(Protocol::Gophers, |req| match req.line.as_str() {
        "robots.txt" => Reply::text("User-agent: *\nDisallow: /private\n"),
        "" => {
            Reply::text("iHello over TLS\t\tnull.host\t1\r\n0About\t/about\t127.0.0.1\t70\r\n.\r\n")
        }
        _ => Reply::text("plain text\r\n"),
    })
    .await;
    let (c, _d) = agent();
    let menu = open(&c, &server.url("/1")).await;
    let p = page(&menu);
    assert!(matches!(p.content, Content::Menu(_)));
    assert!(menu.info().tls.is_some());
    let robots = open(&c, &server.url("/0/private/x")).await;
    assert_eq!(
        error(&robots).code(),
        smolweb_net::ErrorCode::BlockedByRobots
    );
}

#[tokio::test]
async fn hostile_replies_per_protocol() {
    let (c, _d) = client_with(Face::Agent, |cfg| {
        cfg.network.max_response_bytes = 4096;
        cfg.network.timeout_seconds = 1;
    });
    for protocol in [
        Protocol::Nex,
        Protocol::Finger,
        Protocol::Spartan,
        Protocol::Scroll,
        Protocol::Gophers,
    ] {
        let header: &'static [u8] = match protocol {
            Protocol::Spartan => b"2 text/plain\r\n",
            Protocol::Scroll => b"20 text/plain\r\na\r\nb\r\nc\r\n",
            _ => b"",
        };
        let server = Server::start(protocol, move |req| {
            let path = req.line.to_string();
            if path.contains("big") {
                let mut bytes = header.to_vec();
                bytes.extend(vec![b'x'; 10_000]);
                Reply::Bytes(bytes)
            } else if path.contains("slow") {
                let mut bytes = header.to_vec();
                bytes.extend(vec![b'y'; 200]);
                Reply::Drip {
                    bytes,
                    interval: Duration::from_millis(50),
                }
            } else if path.contains("endless") {
                Reply::Endless
            } else {
                let mut bytes = header.to_vec();
                bytes.extend_from_slice(b"caf\xe9 ok\n");
                Reply::Bytes(bytes)
            }
        })
        .await;
        let url = |p: &str| match protocol {
            Protocol::Gophers => server.url(&format!("/0/{p}")),
            _ => server.url(&format!("/{p}")),
        };
        let big = open(&c, &url("big")).await;
        assert_eq!(
            error(&big).code(),
            smolweb_net::ErrorCode::ResponseTooLarge,
            "{protocol:?}"
        );
        let endless = open(&c, &url("endless")).await;
        let code = error(&endless).code();
        assert!(
            matches!(
                code,
                smolweb_net::ErrorCode::ResponseTooLarge | smolweb_net::ErrorCode::ProtocolError
            ),
            "{protocol:?}: {code:?}"
        );
        let slow = open(&c, &url("slow")).await;
        assert_eq!(
            error(&slow).code(),
            smolweb_net::ErrorCode::Timeout,
            "{protocol:?}"
        );
        let latin = open(&c, &url("latin1")).await;
        let text = page(&latin).body.text().to_string();
        assert!(text.contains("ok"), "{protocol:?}: {text:?}");
        assert!(
            !text.contains('\u{fffd}'),
            "no byte lost: {protocol:?}: {text:?}"
        );
    }
}

/// A delete (size 0) has nothing left to send, so a capsule answering it at once has not
/// answered early; a success before a large body is through still is refused as cut.
#[tokio::test]
async fn titan_a_delete_answered_at_once_is_not_early() {
    let server = Server::start(Protocol::Titan, |_req| {
        Reply::Early(b"20 text/gemini\r\n# Deleted\n".to_vec())
    })
    .await;
    let (c, _d) = client_with(Face::Human, |_| {});
    for _ in 0..40 {
        let delete = Upload {
            url: server.url("/old.gmi"),
            body: Vec::new(),
            mime: None,
            token: None,
        };
        let done = c.titan_upload(&delete).await;
        assert!(matches!(done, Outcome::Page { .. }), "{done:?}");
    }
    let big = Upload {
        url: server.url("/big.gmi"),
        body: vec![b'z'; 4 * 1024 * 1024],
        mime: None,
        token: None,
    };
    let done = c.titan_upload(&big).await;
    assert_eq!(
        error(&done).code(),
        smolweb_net::ErrorCode::ProtocolError,
        "{done:?}"
    );
}

#[tokio::test]
async fn titan_upload_and_an_early_refusal() {
    let server = Server::start(Protocol::Titan, |req| {
        if req.line.contains("/locked") {
            Reply::Early(b"59 uploads are closed here\r\n".to_vec())
        } else {
            Reply::text("30 gemini://127.0.0.1/new.gmi\r\n")
        }
    })
    .await;
    let (c, _d) = client_with(Face::Human, |_| {});
    let up = Upload {
        url: server.url("/new.gmi"),
        body: b"# Hello\nfrom smolweb\n".to_vec(),
        mime: None,
        token: Some("s3cret".into()),
    };
    let done = c.titan_upload(&up).await;
    assert!(matches!(done, Outcome::Redirect { .. }), "{done:?}");
    let req = server.requests().pop().unwrap();
    assert_eq!(
        req.line,
        format!(
            "{};size=21;mime=text/gemini;token=s3cret",
            server.url("/new.gmi")
        )
    );
    assert_eq!(req.data, up.body);
    assert!(
        !format!("{done:?}").contains("s3cret"),
        "the token is never echoed"
    );
    let big = Upload {
        url: server.url("/locked"),
        body: vec![b'z'; 4 * 1024 * 1024],
        mime: Some("text/plain".into()),
        token: None,
    };
    match c.titan_upload(&big).await {
        Outcome::Failure { status, meta, .. } => {
            assert_eq!(status, 59);
            assert_eq!(meta, "uploads are closed here");
        }
        other => panic!("{other:?}"),
    }
    // Titan shares Gemini's pin of this host and port.
    let pinned = c.pin_for("127.0.0.1", server.port()).unwrap().unwrap();
    assert_eq!(Some(pinned.fingerprint), server.fingerprint());
    // Opening a titan:// URL never uploads.
    let opened = open(&c, &server.url("/new.gmi")).await;
    assert_eq!(
        error(&opened).code(),
        smolweb_net::ErrorCode::InvalidRequest
    );
}

/// A capsule that answers 61 to an upload with a wrong token has recognised no identity: none
/// was sent, and the words say so (issue 33, item 8).
#[tokio::test]
async fn titan_61_to_a_wrong_token_is_worded_by_what_was_sent() {
    let server = Server::start(Protocol::Titan, |req| {
        if req.line.ends_with(";token=right") {
            Reply::text("30 gemini://127.0.0.1/posted.gmi\r\n")
        } else {
            Reply::text("61 wrong token\r\n")
        }
    })
    .await;
    let (c, _d) = client_with(Face::Human, |_| {});
    let up = Upload {
        url: server.url("/post.gmi"),
        body: b"# Hi\n".to_vec(),
        mime: None,
        token: Some("wrong".into()),
    };
    let Outcome::Certificate {
        info,
        status,
        message,
    } = c.titan_upload(&up).await
    else {
        panic!("a 61 is a certificate outcome");
    };
    assert_eq!((status, message.as_str()), (61, "wrong token"));
    assert!(!info.identity_sent(), "no identity was presented");
    let words = smolweb_client::certificate_words(status, info.identity_sent());
    assert!(words.contains("no identity was sent"), "{words}");
    assert!(words.contains("token"), "{words}");
    assert!(!words.contains("recognised"), "{words}");
    // With an identity presented, 61 is about that identity.
    let said = smolweb_client::certificate_words(61, true);
    assert!(said.contains("recognised the identity presented"), "{said}");
}
