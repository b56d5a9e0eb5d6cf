//! The browser's feed and offline keys driven by key sequences: subscribe (one feed, a
//! choice of several, none), unsubscribe, about:feeds with its background refresh and
//! progress, save for offline (with or without links) and remove, the offline copy offered
//! after a network failure; plus TestBackend snapshots of about:feeds and about:offline.

use crate::tui_helpers;

use smolweb_client::about_feeds::{feeds_page, offline_page};
use smolweb_client::offline::OfflineCopy;
use smolweb_client::{Fetched, Outcome};
use smolweb_core::page::Page;
use smolweb_core::url::Url;
use smolweb_net::FetchError;
use smolweb_store::offline::OfflineEntry;
use smolweb_store::subscriptions::{StoredEntry, Subscription};
use smolweb_tui::app::{App, Effect, FeedMsg, FeedOp, Msg, Offer, RefreshSummary};
use std::sync::Arc;
use time::macros::datetime;
use tui_helpers::*;

const GEMLOG: &str = "# Ada's gemlog\n\n=> 2026-11-30-frost.gmi 2026-11-30 Frost on the capsule\n=> 2026-11-02-rain.gmi 2026-11-02 Rain\n";
const TWO_FEEDS: &str =
    "# Ada\n\nNo dated links here.\n\n=> atom.xml Atom feed\n=> feed.json JSON feed\n";

fn feed_ops(fx: &[Effect]) -> Vec<FeedOp> {
    fx.iter()
        .filter_map(|e| match e {
            Effect::Feeds(op) => Some(op.clone()),
            _ => None,
        })
        .collect()
}

fn builtin(url: &str, text: &str) -> Outcome {
    let page = Page::builtin(Url::parse(url).unwrap(), text);
    Outcome::Page {
        info: info(url),
        fetched: Fetched {
            page: Arc::new(page),
            cached: false,
            cached_at: None,
        },
    }
}

fn lists(app: &mut App, subscribed: &[&str], saved: &[&str]) {
    app.update(Msg::Feeds(FeedMsg::Lists {
        subscribed: subscribed.iter().map(|s| s.to_string()).collect(),
        saved: saved.iter().map(|s| s.to_string()).collect(),
    }));
}

#[test]
fn s_follows_a_gemlog_and_again_unfollows_it() {
    let mut app = app();
    let url = "gemini://ada.test/gemlog/";
    open(&mut app, url, gem(url, GEMLOG));
    let fx = press(&mut app, &["S"]);
    assert_eq!(
        feed_ops(&fx),
        [FeedOp::Subscribe { url: url.into() }],
        "one candidate: no question"
    );
    assert!(
        app.status().text.contains("subscribing"),
        "{:?}",
        app.status()
    );
    lists(&mut app, &[url], &[]);
    let fx = press(&mut app, &["S"]);
    assert!(feed_ops(&fx).is_empty(), "followed: S asks first: {fx:?}");
    assert!(screen(&app).contains("Stop following"));
    let fx = press(&mut app, &["n"]);
    assert!(feed_ops(&fx).is_empty(), "n keeps it: {fx:?}");
    assert!(
        app.status().text.contains("still following"),
        "{:?}",
        app.status()
    );
    press(&mut app, &["S"]);
    let fx = press(&mut app, &["y"]);
    assert_eq!(feed_ops(&fx), [FeedOp::Unsubscribe { url: url.into() }]);
    app.update(Msg::Feeds(FeedMsg::Changed(Ok(format!(
        "no longer following {url}"
    )))));
    assert!(screen(&app).contains("no longer following"));
}

#[test]
fn several_feeds_ask_which_and_the_choice_subscribes_and_goes_back() {
    let mut app = app();
    let url = "gemini://ada.test/";
    open(&mut app, url, gem(url, TWO_FEEDS));
    let fx = press(&mut app, &["S"]);
    assert!(feed_ops(&fx).is_empty(), "asks first: {fx:?}");
    assert_eq!(app.current_url(), Some("about:subscribe"));
    let s = screen(&app);
    assert!(
        s.contains("Atom feed") && s.contains("JSON feed") && s.contains("Which one?"),
        "{s}"
    );
    let fx = press(&mut app, &["2"]);
    assert_eq!(
        feed_ops(&fx),
        [FeedOp::Subscribe {
            url: "gemini://ada.test/feed.json".into()
        }]
    );
    assert_eq!(app.current_url(), Some(url), "back on the page");
    assert!(
        app.status().text.contains("feed.json"),
        "{:?}",
        app.status()
    );
}

#[test]
fn a_page_without_feeds_says_so() {
    let mut app = app();
    let url = "gemini://plain.test/";
    open(
        &mut app,
        url,
        gem(url, "# Plain\n\nJust text.\n=> other.gmi Other\n"),
    );
    let fx = press(&mut app, &["S"]);
    assert!(feed_ops(&fx).is_empty());
    assert!(app.status().error && app.status().text.contains("no feed here"));
}

#[test]
fn opening_about_feeds_refreshes_in_the_background_with_progress_then_reloads() {
    let mut app = app();
    open(
        &mut app,
        "gemini://ada.test/",
        gem("gemini://ada.test/", GEMLOG),
    );
    let fx = press(&mut app, &["F"]);
    let (id, url, _) = fetch(&fx);
    assert_eq!(url, "about:feeds");
    assert_eq!(feed_ops(&fx), [FeedOp::RefreshIfDue]);
    answer(
        &mut app,
        id,
        builtin("about:feeds", "# Feeds\n\nold list\n"),
    );
    app.update(Msg::Feeds(FeedMsg::Progress { done: 2, total: 5 }));
    let s = screen(&app);
    assert!(s.lines().last().unwrap().contains("feeds 2/5"), "{s}");
    let fx = app.update(Msg::Feeds(FeedMsg::Refreshed(Ok(RefreshSummary {
        feeds: 5,
        new_entries: 3,
        failed: 1,
    }))));
    let (id, again, _) = fetch(&fx);
    assert_eq!(again, "about:feeds", "the page is made again");
    assert!(feed_ops(&fx).is_empty(), "a reload does not refresh again");
    answer(
        &mut app,
        id,
        builtin("about:feeds", "# Feeds\n\nnew list\n"),
    );
    assert!(screen(&app).contains("new list"));
    assert_eq!(app.tab().unwrap().back.len(), 1, "made again in place");
    let last = screen(&app).lines().last().unwrap().to_string();
    assert!(
        last.contains("5 feeds refreshed: 3 new entries, 1 failed") && !last.contains("feeds 2/5"),
        "{last}"
    );
}

#[test]
fn refresh_on_demand_runs_once_at_a_time() {
    let mut app = app();
    open(&mut app, "about:feeds", builtin("about:feeds", "# Feeds\n"));
    let fx = press(&mut app, &["alt-r"]);
    assert_eq!(feed_ops(&fx), [FeedOp::Refresh]);
    let fx = press(&mut app, &["alt-r"]);
    assert!(feed_ops(&fx).is_empty());
    assert!(app.status().text.contains("already refreshing"));
    let broken = smolweb_store::StoreError::Corrupt {
        path: "feeds.toml".into(),
        reason: "broken".into(),
    };
    app.update(Msg::Feeds(FeedMsg::Refreshed(Err(broken.into()))));
    assert!(app.status().error && app.status().text.contains("feeds.toml"));
    assert_eq!(feed_ops(&press(&mut app, &["alt-r"])), [FeedOp::Refresh]);
}

#[test]
fn s_on_about_feeds_unfollows_the_selected_subscription() {
    let mut app = app();
    let feed = "gemini://ada.test/gemlog/";
    open(
        &mut app,
        "about:feeds",
        builtin(
            "about:feeds",
            &format!("# Feeds\n\n## Subscriptions\n=> {feed} Ada (0 unread)\n"),
        ),
    );
    lists(&mut app, &[feed], &[]);
    press(&mut app, &["tab"]);
    let fx = press(&mut app, &["S"]);
    assert_eq!(
        feed_ops(&fx),
        [FeedOp::CheckFollowed { url: feed.into() }],
        "the store is read as it is now"
    );
    followed(&mut app, feed, true);
    assert!(screen(&app).contains("Stop following"), "{}", screen(&app));
    assert_eq!(
        feed_ops(&press(&mut app, &["y"])),
        [FeedOp::Unsubscribe { url: feed.into() }]
    );
}

/// The store's answer to CheckFollowed: followed (as stored) or not.
fn followed(app: &mut App, url: &str, followed: bool) {
    app.update(Msg::Feeds(FeedMsg::Followed {
        url: url.into(),
        followed: Ok(followed.then(|| url.to_string())),
    }));
}

/// Issue 20: a subscription another process added (the CLI, an agent) is unknown to the
/// browser's lists; S on it must not fall back to "this page's feed", which on about:feeds
/// is another subscription listed there.
#[test]
fn s_on_about_feeds_asks_about_the_selected_subscription_even_one_added_elsewhere() {
    let mut app = app();
    let atom = "gemini://ada.test/gemlog/atom.xml";
    let hole = "gopher://hole.test/1/";
    open(
        &mut app,
        "about:feeds",
        builtin(
            "about:feeds",
            &format!(
                "# Feeds\n\n## Subscriptions\n=> {atom} Ada (0 unread)\n=> {hole} A hole (0 unread)\n"
            ),
        ),
    );
    lists(&mut app, &[atom], &[]);
    press(&mut app, &["tab", "tab"]);
    assert_eq!(app.link_target(), Some(hole));
    let fx = press(&mut app, &["S"]);
    assert_eq!(feed_ops(&fx), [FeedOp::CheckFollowed { url: hole.into() }]);
    followed(&mut app, hole, true);
    let s = screen(&app);
    assert!(
        s.contains("Stop following") && s.contains("hole.test"),
        "{s}"
    );
    assert!(!s.contains("atom.xml?"), "{s}");
    let fx = press(&mut app, &["x"]);
    assert!(feed_ops(&fx).is_empty(), "any key but y keeps it: {fx:?}");
    assert!(
        app.status()
            .text
            .contains("still following gopher://hole.test")
    );
    press(&mut app, &["S"]);
    followed(&mut app, hole, true);
    assert_eq!(
        feed_ops(&press(&mut app, &["y"])),
        [FeedOp::Unsubscribe { url: hole.into() }],
        "only the selected subscription"
    );
    // An entry link is no subscription: nothing is unfollowed.
    followed(&mut app, "gemini://ada.test/gemlog/frost.gmi", false);
    assert!(!app.dialog().asking());
    assert!(
        app.status().text.contains("is not a subscription"),
        "{:?}",
        app.status()
    );
}

#[test]
fn o_asks_whether_to_save_the_links_too_and_again_removes() {
    let mut app = app();
    let url = "gemini://ada.test/";
    open(&mut app, url, gem(url, GEMLOG));
    let fx = press(&mut app, &["o"]);
    assert!(feed_ops(&fx).is_empty(), "asks first");
    assert!(screen(&app).contains("same capsule"));
    let fx = press(&mut app, &["esc"]);
    assert!(feed_ops(&fx).is_empty(), "esc saves nothing");
    press(&mut app, &["o"]);
    assert_eq!(
        feed_ops(&press(&mut app, &["n"])),
        [FeedOp::SaveOffline {
            url: url.into(),
            with_links: false
        }]
    );
    lists(&mut app, &[], &[]);
    press(&mut app, &["o"]);
    assert_eq!(
        feed_ops(&press(&mut app, &["y"])),
        [FeedOp::SaveOffline {
            url: url.into(),
            with_links: true
        }]
    );
    lists(&mut app, &[], &[url]);
    assert!(feed_ops(&press(&mut app, &["o"])).is_empty(), "asks first");
    assert!(screen(&app).contains("off the reading list?"));
    assert!(feed_ops(&press(&mut app, &["esc"])).is_empty());
    assert!(app.status().text.contains("stays on the reading list"));
    press(&mut app, &["o"]);
    assert_eq!(
        feed_ops(&press(&mut app, &["y"])),
        [FeedOp::Unsave { url: url.into() }],
        "on the reading list: o takes it off"
    );
}

#[test]
fn o_on_about_offline_removes_the_selected_page_and_the_page_is_made_again() {
    let mut app = app();
    let saved = "gemini://ada.test/long-read.gmi";
    open(
        &mut app,
        "about:offline",
        builtin(
            "about:offline",
            &format!("# Offline\n\n=> {saved} A long read\n"),
        ),
    );
    lists(&mut app, &[], &[saved]);
    press(&mut app, &["tab", "o"]);
    assert_eq!(
        feed_ops(&press(&mut app, &["y"])),
        [FeedOp::Unsave { url: saved.into() }]
    );
    let fx = app.update(Msg::Feeds(FeedMsg::Changed(Ok(format!(
        "{saved} is off the reading list"
    )))));
    assert_eq!(fetch(&fx).1, "about:offline");
    assert!(app.status().text.contains("off the reading list"));
}

fn copy_of(url: &str, body: &str) -> OfflineCopy {
    let fetched_at = datetime!(2026-11-30 08:00 UTC);
    let page = Page::from_gemini(
        Url::parse(url).unwrap(),
        smolweb_core::response::parse_mime("text/gemini"),
        body.as_bytes().to_vec(),
    );
    OfflineCopy {
        fetched: Fetched {
            page: Arc::new(page),
            cached: true,
            cached_at: Some(fetched_at),
        },
        fetched_at,
        saved: false,
    }
}

#[test]
fn a_network_failure_offers_the_offline_copy_and_c_shows_it_with_its_age() {
    let mut app = app();
    let url = "gemini://ada.test/gemlog/";
    open(
        &mut app,
        url,
        Outcome::Error {
            info: info(url),
            error: FetchError::connection(
                "ada.test",
                1965,
                std::io::ErrorKind::ConnectionRefused.into(),
            ),
        },
    );
    assert!(
        press(&mut app, &["C"]).is_empty() && app.status().text.contains("no offline copy"),
        "nothing offered yet"
    );
    app.update(Msg::Feeds(FeedMsg::Offer(Offer {
        url: url.into(),
        copy: Box::new(copy_of(url, GEMLOG)),
        age_seconds: 2 * 3600 + 5,
    })));
    let last = screen(&app).lines().last().unwrap().to_string();
    assert!(
        last.contains("a copy from 2 h ago") && last.contains("press C"),
        "{last}"
    );
    let s = screen(&app);
    assert!(s.contains("Read the offline copy (2 h old, C)"), "{s}");
    // The error page's last link reads it too.
    let links = app.doc_view().unwrap().doc.link_count();
    let fx = press(&mut app, &[&links.to_string()]);
    assert!(fetches(&fx).is_empty(), "no network");
    let s = screen(&app);
    assert!(s.contains("Frost on the capsule"), "{s}");
    assert!(
        s.contains("offline copy, 2 h old (downloaded 2026-11-30 08:00 UTC)"),
        "{s}"
    );
    assert_eq!(app.current_url(), Some(url));
    // The copy took the error page's place in the history.
    assert_eq!(app.tab().unwrap().back.len(), 0);
    press(&mut app, &["C"]);
    assert!(app.status().text.contains("2 h old"), "C reads it again");
}

#[test]
fn an_offer_for_another_page_is_not_shown_here() {
    let mut app = app();
    let url = "gemini://ada.test/";
    open(&mut app, url, gem(url, GEMLOG));
    app.update(Msg::Feeds(FeedMsg::Offer(Offer {
        url: "gemini://other.test/".into(),
        copy: Box::new(copy_of("gemini://other.test/", "# Other\n")),
        age_seconds: 60,
    })));
    assert!(!screen(&app).contains("a copy from"));
    press(&mut app, &["C"]);
    assert!(app.status().text.contains("no offline copy"));
    assert!(screen(&app).contains("Frost on the capsule"));
}

fn entry(url: &str, title: &str, published: &str, read: bool) -> StoredEntry {
    StoredEntry {
        url: url.into(),
        title: title.into(),
        published: Some(published.into()),
        first_seen: datetime!(2026-11-30 09:00 UTC),
        read,
    }
}

#[test]
fn about_feeds_snapshot() {
    let subs = vec![
        Subscription {
            url: "gemini://ada.test/gemlog/".into(),
            title: Some("Ada's gemlog".into()),
            added: datetime!(2026-11-01 10:00 UTC),
            refreshed: Some(datetime!(2026-11-30 09:00 UTC)),
            error: None,
            sync_links: None,
            entries: vec![
                entry(
                    "gemini://ada.test/gemlog/frost.gmi",
                    "Frost on the capsule",
                    "2026-11-30T00:00:00Z",
                    false,
                ),
                entry(
                    "gemini://ada.test/gemlog/rain.gmi",
                    "Rain",
                    "2026-11-02T00:00:00Z",
                    true,
                ),
            ],
        },
        Subscription {
            url: "gopher://hole.test/1/phlog".into(),
            title: Some("A phlog".into()),
            added: datetime!(2026-11-01 10:00 UTC),
            refreshed: Some(datetime!(2026-11-30 09:00 UTC)),
            error: Some("cannot connect to hole.test:70: connection refused".into()),
            sync_links: None,
            entries: vec![entry(
                "gopher://hole.test/0/phlog/snow.txt",
                "Snow",
                "2026-11-30T00:00:00Z",
                false,
            )],
        },
    ];
    let mut app = app();
    open(
        &mut app,
        "about:feeds",
        builtin("about:feeds", &feeds_page(&subs)),
    );
    let s = screen(&app);
    assert!(s.contains("● Frost on the capsule"), "{s}");
    assert!(s.contains("last refresh failed"), "{s}");
    assert_snapshot("feeds", &s);
}

#[test]
fn about_offline_snapshot() {
    let saved = vec![OfflineEntry {
        url: "gemini://ada.test/long-read.gmi".into(),
        bytes: 12_800,
        fetched: datetime!(2026-11-29 18:30 UTC),
        last_used: datetime!(2026-11-30 09:00 UTC),
        saved: Some(datetime!(2026-11-29 18:31 UTC)),
        title: Some("A long read".into()),
    }];
    let mut app = app();
    open(
        &mut app,
        "about:offline",
        builtin(
            "about:offline",
            &offline_page(&saved, 3 * 1024 * 1024, 200 * 1024 * 1024),
        ),
    );
    let s = screen(&app);
    assert!(s.contains("A long read") && s.contains("12.5 KiB"), "{s}");
    assert_snapshot("offline", &s);
}

#[test]
fn help_lists_the_feed_and_offline_keys() {
    let page = smolweb_tui::app::pages::help_page(&smolweb_tui::keymap::Keymap::default()).unwrap();
    let text = page.body.text();
    for line in [
        "* S: follow the page's feed",
        "* F: feeds you follow",
        "* alt-r: refresh every feed now (refresh_feeds)",
        "* o: save the page for offline reading",
        "* O: pages saved for offline reading",
        "* C: read the offline copy",
    ] {
        assert!(text.contains(line), "{line} missing from {text}");
    }
    assert!(text.contains("=> about:feeds") && text.contains("=> about:offline"));
}

#[test]
fn back_to_about_feeds_makes_it_again_in_place_so_a_read_entry_shows_read() {
    let mut app = app();
    let entry = "gemini://ada.test/gemlog/2026-11-30-frost.gmi";
    open(
        &mut app,
        "about:feeds",
        builtin("about:feeds", &format!("# Feeds\n\n=> {entry} ● Frost\n")),
    );
    go(&mut app, entry, gem(entry, "# Frost\n"));
    let fx = press(&mut app, &["b"]);
    let (id, url, _) = fetch(&fx);
    assert_eq!(url, "about:feeds", "the store page is made again");
    assert!(
        feed_ops(&fx).is_empty(),
        "coming back does not start a refresh"
    );
    answer(
        &mut app,
        id,
        builtin("about:feeds", &format!("# Feeds\n\n=> {entry} Frost\n")),
    );
    let s = screen(&app);
    assert!(s.contains("Frost") && !s.contains('●'), "{s}");
    assert_eq!(
        app.tab().unwrap().forward.len(),
        1,
        "forward still leads to the entry"
    );
    // A capsule page in history is shown from memory, never fetched again.
    assert!(fetches(&press(&mut app, &["f"])).is_empty());
}
