//! Guppy over UDP against the in-process server of `smolweb_testkit::guppy`: a document in
//! many packets, and the network's (or the server's) misbehaviours — lost requests and
//! packets, duplicates, reordering, endless packets, silence, acknowledgements ignored,
//! garbage, a flood from another address — and the guard before any datagram.

use smolweb_testkit as support;

use smolweb_core::url::Url;
use smolweb_net::{FetchError, GuppyResponse, NetOptions, Request, Response};
use std::time::{Duration, Instant};
use support::guppy::{Knobs, Reply, Server};
use support::{TempStores, loopback_options};

const BUDGET: Duration = Duration::from_secs(4);

/// A document long enough for many packets.
fn long_text() -> String {
    (0..200)
        .map(|i| format!("line {i} of the guppy document\n"))
        .collect()
}

async fn fetch(url: &str, opts: &NetOptions) -> Result<GuppyResponse, FetchError> {
    let stores = TempStores::new();
    let url = Url::parse(url).unwrap();
    match stores
        .net(Default::default())
        .send(&Request::Guppy(url), opts)
        .await?
    {
        Response::Guppy(g) => Ok(g),
        other => panic!("not a guppy answer: {other:?}"),
    }
}

fn body_of(answer: GuppyResponse) -> (String, String) {
    match answer {
        GuppyResponse::Document { mime, body } => (mime, String::from_utf8(body).unwrap()),
        other => panic!("not a document: {other:?}"),
    }
}

async fn serve(knobs: Knobs) -> Server {
    let text = long_text();
    Server::start(knobs, move |_| Reply::gemtext(&text)).await
}

#[tokio::test]
async fn a_document_in_many_packets_arrives_whole_and_every_packet_is_acknowledged() {
    let knobs = Knobs {
        chunk: 64,
        ..Knobs::default()
    };
    let server = serve(knobs).await;
    let answer = fetch(&server.url("/doc?x"), &loopback_options(BUDGET))
        .await
        .unwrap();
    let (mime, text) = body_of(answer);
    assert_eq!((mime.as_str(), text), ("text/gemini", long_text()));
    assert_eq!(
        server.requests(),
        vec![server.url("/doc?x")],
        "one request, the URL"
    );
    let packets = long_text().len().div_ceil(64) as u64 + 1;
    // The server reads the last acknowledgements after the answer is whole: wait for them.
    for _ in 0..100 {
        if server.acks().len() as u64 >= packets {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let mut acks = server.acks();
    acks.sort_unstable();
    acks.dedup();
    let first = Knobs::default().first_seq;
    assert_eq!(
        acks,
        (first..first + packets).collect::<Vec<_>>(),
        "the end too"
    );
}

#[tokio::test]
async fn lost_requests_and_packets_are_sent_again() {
    let knobs = Knobs {
        chunk: 100,
        drop_requests: 1,
        drop_first_send: vec![0, 3, 7, 20],
        ..Knobs::default()
    };
    let server = serve(knobs).await;
    let answer = fetch(&server.url("/"), &loopback_options(BUDGET))
        .await
        .unwrap();
    assert_eq!(body_of(answer).1, long_text());
    assert!(
        server.requests().len() >= 2,
        "the lost request was sent again"
    );
}

#[tokio::test]
async fn duplicated_and_reordered_packets_make_the_same_document() {
    for knobs in [
        Knobs {
            duplicate: true,
            chunk: 50,
            ..Knobs::default()
        },
        Knobs {
            reverse: true,
            chunk: 50,
            ..Knobs::default()
        },
        Knobs {
            reverse: true,
            duplicate: true,
            drop_first_send: vec![1, 2],
            chunk: 30,
            ..Knobs::default()
        },
    ] {
        let server = serve(knobs.clone()).await;
        let answer = fetch(&server.url("/"), &loopback_options(BUDGET))
            .await
            .unwrap();
        assert_eq!(body_of(answer).1, long_text(), "{knobs:?}");
    }
}

#[tokio::test]
async fn endless_packets_stop_at_the_body_limit() {
    let knobs = Knobs {
        endless: true,
        chunk: 1000,
        ..Knobs::default()
    };
    let server = serve(knobs).await;
    let opts = NetOptions {
        max_body: 32 * 1024,
        ..loopback_options(BUDGET)
    };
    let err = fetch(&server.url("/"), &opts).await.unwrap_err();
    assert!(
        matches!(err, FetchError::TooLarge { limit } if limit == 32 * 1024),
        "{err}"
    );
}

#[tokio::test]
async fn a_silent_server_is_asked_again_then_times_out() {
    let server = serve(Knobs {
        silent: true,
        ..Knobs::default()
    })
    .await;
    let budget = Duration::from_millis(1600);
    let started = Instant::now();
    let err = fetch(&server.url("/"), &loopback_options(budget))
        .await
        .unwrap_err();
    assert_eq!(err.code(), "TIMEOUT", "{err}");
    assert!(
        started.elapsed() < budget + Duration::from_secs(1),
        "bounded by the budget"
    );
    let asked = server.requests().len();
    assert!(
        (2..=5).contains(&asked),
        "asked again after each silence, not flooded: {asked}"
    );
}

#[tokio::test]
async fn a_server_that_ignores_acknowledgements_still_gives_one_whole_document() {
    let knobs = Knobs {
        ignore_acks: true,
        chunk: 80,
        ..Knobs::default()
    };
    let server = serve(knobs).await;
    let answer = fetch(&server.url("/"), &loopback_options(BUDGET))
        .await
        .unwrap();
    assert_eq!(body_of(answer).1, long_text(), "nothing appended twice");
}

#[tokio::test]
async fn a_flood_from_another_address_never_reaches_the_answer() {
    let knobs = Knobs {
        flood_from_elsewhere: 200,
        garbage_first: 20,
        chunk: 100,
        ..Knobs::default()
    };
    let server = serve(knobs).await;
    let answer = fetch(&server.url("/"), &loopback_options(BUDGET))
        .await
        .unwrap();
    let text = body_of(answer).1;
    assert_eq!(text, long_text());
    assert!(!text.contains("Forged"), "{text}");
    assert_eq!(server.floods_sent(), 200, "the flood was sent");
}

#[tokio::test]
async fn a_server_that_speaks_no_guppy_is_a_protocol_error() {
    let junk = (0..5)
        .map(|i| format!("HTTP/1.0 400 junk {i}").into_bytes())
        .collect();
    let server = Server::start(Knobs::default(), move |_| Reply::Raw(Vec::clone(&junk))).await;
    let err = fetch(
        &server.url("/"),
        &loopback_options(Duration::from_millis(1200)),
    )
    .await
    .unwrap_err();
    assert_eq!(err.code(), "PROTOCOL_ERROR", "{err}");
}

#[tokio::test]
async fn statuses_are_answers_of_their_own() {
    let server = Server::start(Knobs::default(), |path| match path {
        "/ask" => Reply::Input("Your name?".into()),
        "/ask?ada" => Reply::gemtext("Hello ada\n"),
        "/old" => Reply::Redirect("/new".into()),
        _ => Reply::Error("not here".into()),
    })
    .await;
    let opts = loopback_options(BUDGET);
    let got = fetch(&server.url("/ask"), &opts).await.unwrap();
    assert_eq!(got, GuppyResponse::Input("Your name?".into()));
    let got = fetch(&server.url("/ask?ada"), &opts).await.unwrap();
    assert_eq!(body_of(got).1, "Hello ada\n");
    let got = fetch(&server.url("/old"), &opts).await.unwrap();
    assert_eq!(got, GuppyResponse::Redirect("/new".into()));
    let got = fetch(&server.url("/x"), &opts).await.unwrap();
    assert_eq!(got, GuppyResponse::Error("not here".into()));
}

#[tokio::test]
async fn the_guard_judges_the_address_before_any_datagram() {
    let server = serve(Knobs::default()).await;
    let agent = NetOptions {
        timeout: BUDGET,
        ..NetOptions::default()
    };
    let err = fetch(&server.url("/"), &agent).await.unwrap_err();
    assert_eq!(err.code(), "BLOCKED", "{err}");
    // Agents never reach a dangerous port over UDP either (DNS, 53).
    let err = fetch("guppy://127.0.0.1:53/", &loopback_options(BUDGET))
        .await
        .unwrap_err();
    assert_eq!(err.code(), "BLOCKED", "{err}");
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(server.requests().is_empty(), "nothing was sent");
}

#[tokio::test]
async fn nothing_listening_is_a_connection_error() {
    let port = {
        let s = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
        s.local_addr().unwrap().port()
    };
    let started = Instant::now();
    let err = fetch(
        &format!("guppy://127.0.0.1:{port}/"),
        &loopback_options(BUDGET),
    )
    .await
    .unwrap_err();
    // Loopback answers a datagram to a closed port with "port unreachable", which the
    // connected socket reports at once: no waiting out the budget.
    assert_eq!(err.code(), "CONNECTION_ERROR", "{err}");
    assert!(err.to_string().contains("refused"), "{err}");
    assert!(started.elapsed() < BUDGET / 2, "{:?}", started.elapsed());
}
