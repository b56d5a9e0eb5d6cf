//! The browser's state machine fed with real answers from the in-process servers (through
//! the client facade, as the shell does): what a page from the network may and may not do.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;
mod tui_helpers;

use smolweb::client::{Client, Face, OpenOptions, Outcome};
use smolweb::config::Config;
use smolweb::paths::Paths;
use smolweb::tui::app::{App, Effect, Msg, Popup};
use support::gemini::{Reply, Routes, Server};
use tui_helpers::*;

fn client() -> (Client, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let mut config = Config::default();
    config.network.timeout_seconds = 5;
    config.politeness.per_host_interval_ms = 0;
    let paths = Paths::resolve(Some(dir.path().to_path_buf()), None, None, None).unwrap();
    (Client::new(config, paths, Face::Human).unwrap(), dir)
}

/// Carry out the app's fetches with the real client until none is left.
async fn run_fetches(app: &mut App, client: &Client, mut fx: Vec<Effect>) -> Vec<Effect> {
    let mut rest = Vec::new();
    while !fx.is_empty() {
        let mut next = Vec::new();
        for e in fx {
            match e {
                Effect::Fetch { id, url, opts } => {
                    let open = OpenOptions {
                        input: opts.input,
                        search: opts.search,
                        refresh: opts.refresh,
                        identity: opts.identity,
                        trust_once: opts.trust_once,
                        progress: None,
                        web_full: opts.web_full,
                    };
                    let outcome: Outcome = client.open(&url, &open).await;
                    next.extend(answer(app, id, outcome));
                }
                other => rest.push(other),
            }
        }
        fx = next;
    }
    rest
}

#[tokio::test]
async fn a_remote_pages_action_links_do_nothing_but_ask_like_unknown_links() {
    let server = Server::start(
        Routes::new()
            .route("/", Reply::gemtext("# Start\n\n=> /evil Onwards\n"))
            .route(
                "/evil",
                Reply::gemtext(
                    "# Evil\n\n=> action:back Go back\n=> action:trust-save Trust\n=> action:identity-use:sha256:beef Use\n",
                ),
            ),
    )
    .await;
    let (client, _dir) = client();
    let mut app = app();
    let fx = app.start(Some(server.url("/")));
    run_fetches(&mut app, &client, fx).await;
    assert_eq!(app.current().unwrap().title, "Start");
    let fx = press(&mut app, &["1"]);
    run_fetches(&mut app, &client, fx).await;
    assert_eq!(app.current().unwrap().title, "Evil");
    let s = screen(&app);
    assert!(
        s.contains("Go back (action)"),
        "shown as a foreign link: {s}"
    );

    for (n, url) in [
        ("1", "action:back"),
        ("2", "action:trust-save"),
        ("3", "action:identity-use:sha256:beef"),
    ] {
        let fx = press(&mut app, &[n]);
        assert!(fetches(&fx).is_empty(), "{url} must not fetch: {fx:?}");
        assert_eq!(
            app.current().unwrap().title,
            "Evil",
            "{url} must not go back"
        );
        assert!(
            matches!(&app.dialog.popup, Some(Popup::Confirm(q)) if q.contains(url)),
            "{url}: asked like any unknown scheme: {:?}",
            app.dialog.popup
        );
        let fx = press(&mut app, &["n"]);
        assert!(fx.is_empty());
    }
    // Saying yes hands it to the external program, as for any unknown scheme.
    press(&mut app, &["2"]);
    let fx = press(&mut app, &["y"]);
    assert!(
        fx.iter()
            .any(|e| matches!(e, Effect::OpenExternal { url } if url == "action:trust-save")),
        "{fx:?}"
    );
    assert!(
        !fx.iter().any(|e| matches!(e, Effect::Store(_))),
        "nothing pinned"
    );
    assert_eq!(app.tab().unwrap().back.len(), 1);
    let _ = app.update(Msg::Tick(10_000));
}
