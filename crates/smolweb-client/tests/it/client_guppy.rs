//! Guppy through `Client::open`: the one pipeline gives it what every protocol has — the
//! address guard before any datagram, the cache (never for an answer sent as the query),
//! pacing, the budget — and its answers map to the outcomes every face knows.

use smolweb_testkit as support;

use crate::client_gemini::paced_client;
use smolweb_client::config::Config;
use smolweb_client::{Client, Face, OpenOptions, Outcome};
use smolweb_net::cache::ManualClock;
use smolweb_store::paths::Paths;
use std::sync::Arc;
use std::time::Duration;
use support::guppy::{Knobs, Reply, Server};

fn client(face: Face, edit: impl FnOnce(&mut Config)) -> (Client, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let mut config = Config::default();
    config.network.allow_private_addresses = true;
    config.network.timeout_seconds = 4;
    config.politeness.per_host_interval_ms = 0;
    edit(&mut config);
    let paths = Paths::resolve(Some(dir.path().to_path_buf()), None, None, None).unwrap();
    (Client::new(config, paths, face).unwrap(), dir)
}

async fn guestbook() -> Server {
    let knobs = Knobs {
        chunk: 40,
        reverse: true,
        drop_first_send: vec![1],
        ..Knobs::default()
    };
    Server::start(knobs, |path| match path {
        "/" => Reply::gemtext(
            "# A guppy capsule\n=> /sign Sign the book\n=> gemini://example.org/ Away\n",
        ),
        "/sign" => Reply::Input("Your name?".into()),
        "/sign?Ada%20L" => Reply::gemtext("Thank you, Ada L\n"),
        "/old" => Reply::Redirect("/".into()),
        _ => Reply::Error("no such page".into()),
    })
    .await
}

#[tokio::test]
async fn pages_input_redirects_and_errors_map_to_the_outcomes_every_face_knows() {
    let server = guestbook().await;
    let (c, _d) = client(Face::Agent, |_| {});
    let home = c.open(&server.url("/"), &OpenOptions::default()).await;
    let Outcome::Page { fetched, info } = &home else {
        panic!("a page: {home:?}");
    };
    assert!(!fetched.cached && info.tls.is_none() && !info.has_query);
    assert_eq!(fetched.page.mime.essence(), "text/gemini");
    assert!(fetched.page.body.text().contains("# A guppy capsule"));
    let again = c.open(&server.url("/"), &OpenOptions::default()).await;
    assert!(matches!(again, Outcome::Page { fetched, .. } if fetched.cached));
    assert_eq!(
        server.requests().len(),
        1,
        "the second visit came from the cache"
    );

    let ask = c.open(&server.url("/sign"), &OpenOptions::default()).await;
    assert!(
        matches!(&ask, Outcome::Input { prompt, sensitive: false, .. } if prompt == "Your name?"),
        "{ask:?}"
    );
    let answer = OpenOptions {
        input: Some("Ada L".into()),
        ..OpenOptions::default()
    };
    let thanks = c.open(&server.url("/sign"), &answer).await;
    let Outcome::Page { fetched, info } = &thanks else {
        panic!("{thanks:?}");
    };
    assert!(fetched.page.body.text().contains("Thank you, Ada L"));
    assert!(
        info.has_query && !info.url.contains("Ada"),
        "the answer is not echoed"
    );
    let again = c.open(&server.url("/sign"), &answer).await;
    assert!(
        matches!(again, Outcome::Page { fetched, .. } if !fetched.cached),
        "an answer sent as the query is never cached"
    );

    let moved = c.open(&server.url("/old"), &OpenOptions::default()).await;
    assert!(
        matches!(&moved, Outcome::Redirect { target, cross_host: false, scheme, .. }
            if *target == server.url("/") && scheme == "guppy"),
        "{moved:?}"
    );
    let missing = c.open(&server.url("/nope"), &OpenOptions::default()).await;
    assert!(
        matches!(&missing, Outcome::Failure { status: 50, meta, .. } if meta == "guppy error: no such page"),
        "{missing:?}"
    );
}

#[tokio::test]
async fn the_agent_is_kept_off_private_addresses_before_any_datagram() {
    let server = guestbook().await;
    let (c, _d) = client(Face::Agent, |cfg| {
        cfg.network.allow_private_addresses = false
    });
    let o = c.open(&server.url("/"), &OpenOptions::default()).await;
    let Outcome::Error { error, info } = &o else {
        panic!("{o:?}");
    };
    assert_eq!(error.code(), "BLOCKED");
    assert!(info.timestamp.is_none(), "nothing was sent");
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert!(server.requests().is_empty());
}

#[tokio::test]
async fn the_agent_is_paced_per_host_and_a_silent_server_spends_the_one_budget() {
    let server = guestbook().await;
    let clock = Arc::new(ManualClock::new());
    let t0 = smolweb_net::cache::Clock::now(clock.as_ref());
    let (c, _d) = paced_client(Face::Agent, 250, clock);
    let refresh = OpenOptions {
        refresh: true,
        ..OpenOptions::default()
    };
    c.open(&server.url("/"), &refresh).await;
    c.open(&server.url("/"), &refresh).await;
    assert_eq!(server.requests().len(), 2);
    assert_eq!(
        c.next_request_slot("127.0.0.1"),
        Some(t0 + Duration::from_millis(500)),
        "the second request was paced one interval after the first"
    );

    let silent = Server::start(
        Knobs {
            silent: true,
            ..Knobs::default()
        },
        |_| Reply::gemtext("never"),
    )
    .await;
    let (c, _d) = client(Face::Human, |cfg| cfg.network.timeout_seconds = 1);
    let o = c.open(&silent.url("/"), &OpenOptions::default()).await;
    assert!(
        matches!(&o, Outcome::Error { error, .. } if error.code() == "TIMEOUT"),
        "{o:?}"
    );
}
