//! The work-offline mode and web pages offline, driven by key sequences: `alt-o` tells the
//! shell and the status line shows the mode, a kept page says its age, a page that is not
//! kept offers the sync queue (`y` queues it, never a URL with a query), feeds are not
//! refreshed while offline, and `o` speaks of "the same site" on the web and asks nothing on
//! a page without same-site links.

use crate::tui_helpers;

use smolweb_client::{Fetched, Outcome};
use smolweb_net::FetchError;
use smolweb_tui::app::{App, Effect, FeedOp, StoreOp};
use std::sync::Arc;
use tui_helpers::*;

fn feed_ops(fx: &[Effect]) -> Vec<FeedOp> {
    fx.iter()
        .filter_map(|e| match e {
            Effect::Feeds(op) => Some(op.clone()),
            _ => None,
        })
        .collect()
}

fn modes(fx: &[Effect]) -> Vec<bool> {
    fx.iter()
        .filter_map(|e| match e {
            Effect::WorkOffline(on) => Some(*on),
            _ => None,
        })
        .collect()
}

fn not_kept(url: &str) -> Outcome {
    Outcome::Error {
        info: info(url),
        error: FetchError::Offline { url: url.into() },
    }
}

/// A page read from the offline cache: its request time is when it was downloaded.
fn kept(url: &str, body: &str, age: time::Duration) -> Outcome {
    let Outcome::Page { mut info, fetched } = gem(url, body) else {
        unreachable!()
    };
    let at = time::OffsetDateTime::now_utc() - age;
    info.timestamp = Some(at);
    Outcome::Page {
        info,
        fetched: Fetched {
            page: Arc::clone(&fetched.page),
            cached: true,
            cached_at: Some(at),
        },
    }
}

fn last_line(app: &App) -> String {
    screen(app).lines().last().unwrap_or_default().to_string()
}

#[test]
fn alt_o_toggles_the_mode_and_the_status_line_shows_it_with_the_pages_age() {
    let mut app = app_sized(100, 24);
    let url = "gemini://ada.test/";
    open(&mut app, url, gem(url, "# Ada\n"));
    assert!(!last_line(&app).contains("offline"));
    let fx = press(&mut app, &["alt-o"]);
    assert_eq!(modes(&fx), [true]);
    assert!(app.working_offline());
    assert!(
        app.status().text.contains("working offline"),
        "{:?}",
        app.status()
    );
    assert!(last_line(&app).contains("offline"), "{}", last_line(&app));

    let page = "gemini://ada.test/kept";
    go(
        &mut app,
        page,
        kept(page, "# Kept\n", time::Duration::days(3)),
    );
    assert!(
        app.status().text.contains("offline: kept 3 days ago"),
        "{:?}",
        app.status()
    );
    assert!(
        last_line(&app).contains("offline · kept 3 days ago"),
        "{}",
        last_line(&app)
    );

    let fx = press(&mut app, &["alt-o"]);
    assert_eq!(modes(&fx), [false]);
    assert!(app.status().text.contains("working online again"));
    assert!(
        !last_line(&app).contains("offline · kept"),
        "{}",
        last_line(&app)
    );
    assert_eq!(app.offline_badge(time::OffsetDateTime::now_utc()), None);
}

#[test]
fn a_page_that_is_not_kept_offers_the_sync_queue() {
    let mut app = app();
    let from = "gemini://ada.test/";
    open(&mut app, from, gem(from, "# Ada\n=> /b B\n"));
    press(&mut app, &["alt-o"]);
    let url = "gemini://ada.test/b";
    go(&mut app, url, not_kept(url));
    let s = screen(&app);
    assert!(
        s.contains("is not kept offline") && s.contains("Queue it"),
        "{s}"
    );
    let fx = press(&mut app, &["y"]);
    let queued: Vec<_> = fx
        .iter()
        .filter_map(|e| match e {
            Effect::Store(StoreOp::QueueSync { url, from }) => Some((url.clone(), from.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(queued, [(url.to_string(), Some(from.to_string()))]);

    // n queues nothing; a URL with a query is never offered.
    let other = "gemini://ada.test/c";
    go(&mut app, other, not_kept(other));
    let fx = press(&mut app, &["n"]);
    assert!(!fx.iter().any(|e| matches!(e, Effect::Store(_))));
    let query = "gemini://ada.test/search?secret";
    go(&mut app, query, not_kept(query));
    assert!(!screen(&app).contains("Queue it"), "{}", screen(&app));
}

#[test]
fn feeds_are_not_refreshed_while_offline() {
    let mut app = app();
    let url = "gemini://ada.test/";
    open(&mut app, url, gem(url, "# Ada\n"));
    press(&mut app, &["alt-o"]);
    let fx = press(&mut app, &["alt-r"]);
    assert!(feed_ops(&fx).is_empty(), "{fx:?}");
    assert!(app.status().text.contains("feeds are not refreshed"));
}

#[test]
fn o_speaks_of_the_same_site_on_the_web_and_asks_nothing_without_such_links() {
    let mut app = app();
    let url = "https://site.test/a";
    open(
        &mut app,
        url,
        gem(
            url,
            "# A\n=> https://site.test/b B\n=> https://other.test/ O\n",
        ),
    );
    let fx = press(&mut app, &["o"]);
    assert!(feed_ops(&fx).is_empty(), "asks first");
    let s = screen(&app);
    assert!(
        s.contains("same site") && !s.contains("same capsule"),
        "{s}"
    );
    press(&mut app, &["esc"]);

    let lone = "https://site.test/lone";
    go(
        &mut app,
        lone,
        gem(lone, "# Lone\n=> https://other.test/ Elsewhere\n"),
    );
    assert_eq!(
        feed_ops(&press(&mut app, &["o"])),
        [FeedOp::SaveOffline {
            url: lone.into(),
            with_links: false
        }],
        "no same-site link: saved at once"
    );
}

#[test]
fn toggling_the_mode_on_the_start_page_makes_it_again_after_telling_the_client() {
    let mut app = app();
    open(&mut app, "about:home", gem("about:home", "# smolweb\n"));
    let fx = press(&mut app, &["alt-o"]);
    // The client hears of the mode first, then the start page (whose link says which mode
    // is on) is asked for again.
    let mode_at = fx
        .iter()
        .position(|e| matches!(e, Effect::WorkOffline(true)))
        .expect("the mode is told");
    let fetch_at = fx
        .iter()
        .position(|e| matches!(e, Effect::Fetch { url, .. } if url == "about:home"))
        .expect("the start page is made again");
    assert!(mode_at < fetch_at, "{fx:?}");
    // On another page nothing is fetched.
    let url = "gemini://ada.test/";
    go(&mut app, url, gem(url, "# Ada\n"));
    let fx = press(&mut app, &["alt-o"]);
    assert!(fetches(&fx).is_empty(), "{fx:?}");
}
