//! Pages followed for their changes against loopback servers: a change becomes an entry with
//! its diff kept, noise does not, the bad inputs of issue 35 (a page growing by a megabyte at
//! each refresh, two alternating versions, every line changing, a binary answer, a redirect
//! loop, a feed turning into an HTML page, implausible dates, 100,000 links) each give a
//! bounded, clear result without costing the other subscriptions anything, conditional
//! requests on the web, and moves recorded and adopted.

use smolweb_testkit as support;

use smolweb_client::config::Config;
use smolweb_client::feeds::{self, FeedRefresh};
use smolweb_client::{Client, Face};
use smolweb_core::follow::{MAX_LISTED, MAX_TEXT_BYTES, Watch};
use smolweb_store::paths::Paths;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use support::gemini::{Reply, Routes, Server};

/// The followed pages' copies, read from the data directory as another process would (the
/// client keeps its store to itself).
fn follows(c: &Client) -> smolweb_store::follows::Follows {
    smolweb_store::follows::Follows::new(c.paths().follows_dir())
}

fn client(dir: &tempfile::TempDir) -> Arc<Client> {
    let mut config = Config::default();
    // No test here is about the timeout: a loaded machine building megabyte pages in a debug
    // build must not turn a slow answer into a missed change.
    config.network.timeout_seconds = 60;
    config.politeness.per_host_interval_ms = 0;
    let paths = Paths::resolve(Some(dir.path().to_path_buf()), None, None, None).unwrap();
    Arc::new(Client::new(config, paths, Face::Human).unwrap())
}

/// How many times each path was asked, as the handler sees it (the n-th request is n-1).
#[derive(Clone, Default)]
struct Counter(Arc<Mutex<HashMap<String, usize>>>);

impl Counter {
    fn next(&self, path: &str) -> usize {
        let mut m = self.0.lock().unwrap();
        let n = m.entry(path.to_string()).or_default();
        *n += 1;
        *n - 1
    }
}

fn result<'a>(results: &'a [FeedRefresh], url: &str) -> &'a FeedRefresh {
    results.iter().find(|r| r.url == url).unwrap()
}

#[tokio::test]
async fn a_new_link_is_a_change_with_its_diff_and_noise_is_none() {
    let dir = tempfile::tempdir().unwrap();
    let count = Counter::default();
    let routes = Routes::new().handler({
        let count = count.clone();
        move |r| {
            let n = count.next(&r.path);
            let mut page = format!(
                "# Wiki\nVisitors today: {}\nLast built 2026-07-{:02} at 1{n}:00\n=> /a.gmi Page A\n",
                100 + 17 * n,
                1 + n
            );
            if n >= 2 {
                page.push_str("=> /b.gmi Page B\nA new paragraph about B.\n");
            }
            Reply::gemtext(&page)
        }
    });
    let server = Server::start(routes).await;
    let c = client(&dir);
    let (url, _) = c.follow_page(&server.url("/wiki/"), Watch::Text).unwrap();
    // The first refresh keeps the first copy; the second sees only noise (the counter and
    // the date): no change.
    for _ in 0..2 {
        let r = c.refresh_feed(&url).await;
        assert!(r.error.is_none(), "{:?}", r.error);
        assert!(r.new_entries.is_empty(), "{:?}", r.new_entries);
    }
    assert_eq!(r_title(&c, &url), Some("Wiki".into()));
    let r = c.refresh_feed(&url).await;
    assert_eq!(r.new_entries.len(), 1, "{r:?}");
    let e = &r.new_entries[0];
    assert_eq!(e.title, "1 link added · 1 paragraph added");
    assert!(e.url.starts_with("about:changes?page="), "{}", e.url);
    let copy = follows(&c).get(&url).unwrap().unwrap();
    let change = &copy.changes[0];
    assert_eq!(change.diff.links_added[0].url, server.url("/b.gmi"));
    assert_eq!(change.diff.added[0].text, "A new paragraph about B.");
    // The same page again: nothing new, the entry stays unread.
    let r = c.refresh_feed(&url).await;
    assert!(r.new_entries.is_empty());
    assert_eq!(c.subscription(&url).unwrap().unwrap().unread(), 1);
    // What about:changes shows for it.
    let page = about(&c, &e.url).await;
    assert!(page.contains("## Links added"), "{page}");
    assert!(
        page.contains(&format!("=> {} Page B", server.url("/b.gmi"))),
        "{page}"
    );
}

fn r_title(c: &Client, url: &str) -> Option<String> {
    c.subscription(url).unwrap().unwrap().title
}

async fn about(c: &Client, url: &str) -> String {
    match c.open(url, &Default::default()).await {
        smolweb_client::Outcome::Page { fetched, .. } => fetched.page.body.text().to_string(),
        other => panic!("{url}: {other:?}"),
    }
}

/// The bad inputs, all followed at once with a healthy feed and a healthy page, refreshed
/// six times.
#[tokio::test]
async fn bad_inputs_each_give_a_bounded_clear_result_and_cost_the_others_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let count = Counter::default();
    let many_links: String = (0..100_000).map(|i| format!("=> /l/{i} L{i}\n")).collect();
    let routes = Routes::new().handler({
        let count = count.clone();
        move |r| {
            let n = count.next(&r.path);
            match r.path.as_str() {
                "/grows" => Reply::gemtext(
                    &(0..25_000 * (n + 1))
                        .map(|i| format!("Line {i:08} of a page that grows\n"))
                        .collect::<String>(),
                ),
                "/flip" => Reply::gemtext(&format!(
                    "{}Version {}\n",
                    "Shared line of text\n".repeat(40),
                    if n % 2 == 0 { "alpha" } else { "beta" }
                )),
                "/every-line" => Reply::gemtext(
                    &(0..30)
                        .map(|l| format!("{} {}\n", "ab".repeat(n + 1), "cd".repeat(l + 1)))
                        .collect::<String>(),
                ),
                "/image" => Reply::ok("image/png", &b"\x89PNG\r\n\x1a\n\0\0\0"[..]),
                "/loop-a" => Reply::status(31, "/loop-b"),
                "/loop-b" => Reply::status(31, "/loop-a"),
                "/links" if n == 0 => Reply::gemtext("# Links\n"),
                "/links" => Reply::gemtext(&many_links),
                "/log/" if n == 0 => Reply::gemtext(
                    "# Log\n=> a.gmi 2026-07-01 A post\n=> future.gmi 9999-12-31 From the future\n",
                ),
                "/log/" => Reply::ok(
                    "text/html",
                    "<html><body><p>We moved to a blog</p></body></html>",
                ),
                "/good-log/" => Reply::gemtext(&format!(
                    "# Good log\n=> p{n}.gmi 2026-07-{:02} Post {n}\n",
                    1 + n
                )),
                "/good-page" => Reply::gemtext(&format!(
                    "# Good page\n{}",
                    (0..=n)
                        .map(|i| format!("=> /post/{i} Post {i}\n"))
                        .collect::<String>()
                )),
                _ => Reply::status(51, "not found"),
            }
        }
    });
    let server = Server::start(routes).await;
    let c = client(&dir);
    let subs = smolweb_store::subscriptions::Subscriptions::new(c.paths().subscriptions());
    let mut pages = HashMap::new();
    for (path, watch) in [
        ("/grows", Watch::Text),
        ("/flip", Watch::Text),
        ("/every-line", Watch::Text),
        ("/image", Watch::Text),
        ("/loop-a", Watch::Text),
        ("/links", Watch::Links),
        ("/good-page", Watch::Links),
    ] {
        let (url, _) = subs.follow(&server.url(path), watch, c.now()).unwrap();
        pages.insert(path, url);
    }
    for path in ["/log/", "/good-log/"] {
        let (url, _) = subs.add(&server.url(path), c.now()).unwrap();
        pages.insert(path, url);
    }
    let mut runs = Vec::new();
    for _ in 0..6 {
        runs.push(feeds::refresh_all(&c, |_, _, _| {}).await.unwrap());
    }
    let new = |path: &str| -> Vec<usize> {
        runs.iter()
            .map(|r| result(r, &pages[path]).new_entries.len())
            .collect()
    };
    let sub = |path: &str| subs.get(&pages[path]).unwrap().unwrap();
    // The healthy ones: every refresh brought its new post or link.
    assert_eq!(new("/good-log/"), [1, 1, 1, 1, 1, 1]);
    assert_eq!(
        new("/good-page"),
        [0, 1, 1, 1, 1, 1],
        "{:?}",
        runs.iter()
            .map(|r| result(r, &pages["/good-page"])
                .error
                .as_ref()
                .map(|e| e.to_string()))
            .collect::<Vec<_>>()
    );
    // Grows by a megabyte each time: compared on its first 512 KiB, so it stops changing,
    // and it says so.
    assert_eq!(new("/grows"), [0, 0, 0, 0, 0, 0]);
    assert!(sub("/grows").cut && sub("/grows").error.is_none());
    let copy = follows(&c).get(&pages["/grows"]).unwrap().unwrap();
    assert!(copy.text.len() <= MAX_TEXT_BYTES && copy.cut);
    // Two alternating versions and a page whose every line changes: a few changes listed,
    // then restless, listed once as such, and quiet after.
    for path in ["/flip", "/every-line"] {
        let listed: usize = new(path).iter().sum();
        assert!((3..=4).contains(&listed), "{path}: {:?}", new(path));
        assert_eq!(new(path)[5], 0, "{path}");
        let s = sub(path);
        assert!(s.restless, "{path}");
        assert!(
            s.entries[0].title.contains("changes at every refresh"),
            "{path}"
        );
    }
    // Not text, and a redirect loop: failures in plain words, counted in a row.
    let image = sub("/image");
    assert_eq!(image.failures, 6);
    assert_eq!(
        image.error.as_deref(),
        Some("the page is not text (image/png): there is nothing to compare")
    );
    let looped = sub("/loop-a");
    assert_eq!(looped.failures, 6);
    assert!(
        looped.error.as_deref().unwrap().contains("loop"),
        "{:?}",
        looped.error
    );
    // 100,000 links: one change, its lists bounded, its counts whole (of what fits in the
    // kept copy).
    assert_eq!(new("/links"), [0, 1, 0, 0, 0, 0]);
    let copy = follows(&c).get(&pages["/links"]).unwrap().unwrap();
    let d = &copy.changes[0].diff;
    assert_eq!(d.links_added.len(), MAX_LISTED);
    assert!(d.cut() && d.counts.links_added > 10_000, "{:?}", d.counts);
    // A feed that became an HTML page: each refresh says so, its entries are kept (the
    // store does not record a failure minutes after a success, taken for two processes
    // colliding: its own tests count failures); the entry from the future is undated.
    let log = sub("/log/");
    assert_eq!(log.entries.len(), 2);
    for run in &runs[1..] {
        let e = result(run, &pages["/log/"]).error.as_ref().unwrap();
        assert!(e.to_string().contains("not a feed"), "{e}");
    }
    let future = log
        .entries
        .iter()
        .find(|e| e.title == "From the future")
        .unwrap();
    assert_eq!(future.published, None);
}

#[tokio::test]
async fn web_pages_are_asked_conditionally_and_a_permanent_move_is_adopted() {
    use support::http::{Reply as WebReply, Server as WebServer};
    let dir = tempfile::tempdir().unwrap();
    let web = WebServer::start(|r| match r.path() {
        "/old" => WebReply::redirect(301, "/page"),
        "/page" if r.header("if-none-match") == Some("\"v1\"") => {
            WebReply::new(304, "text/html", "")
        }
        "/page" => WebReply::html(
            "<html><head><title>Page</title></head><body><article><h1>Page</h1>\
             <p>Some text that is long enough to be the main content of this page.</p>\
             <p><a href=\"/one\">one</a></p></article></body></html>",
        )
        .header("ETag", "\"v1\""),
        _ => WebReply::new(404, "text/plain", "no"),
    })
    .await;
    let c = client(&dir);
    let (url, _) = c.follow_page(&web.url("/old"), Watch::Links).unwrap();
    for _ in 0..2 {
        let r = c.refresh_feed(&url).await;
        assert!(r.error.is_none(), "{:?}", r.error);
    }
    let pages: Vec<_> = web
        .requests()
        .into_iter()
        .filter(|r| r.path() == "/page")
        .collect();
    assert_eq!(pages.len(), 2);
    assert_eq!(pages[0].header("if-none-match"), None);
    assert_eq!(pages[1].header("if-none-match"), Some("\"v1\""));
    let sub = c.subscription(&url).unwrap().unwrap();
    assert_eq!(sub.etag.as_deref(), Some("\"v1\""));
    assert_eq!(sub.moved_to.as_deref(), Some(web.url("/page").as_str()));
    assert!(follows(&c).get(&url).unwrap().is_some());
    let adopted = c.adopt(&url).unwrap();
    assert_eq!(adopted.url, web.url("/page"));
    assert!(follows(&c).get(&url).unwrap().is_none());
    assert!(
        follows(&c).get(&adopted.url).unwrap().is_some(),
        "the copy moved"
    );
    assert!(c.subscription(&url).unwrap().is_none());
}

/// A blog's index on the web, followed for its links: the list of posts is what the reader
/// view's main-text finder drops as link-heavy, and a new post in it is the change wanted.
#[tokio::test]
async fn a_new_post_in_a_web_index_is_a_new_link() {
    use support::http::{Reply as WebReply, Server as WebServer};
    let dir = tempfile::tempdir().unwrap();
    let count = Counter::default();
    let web = WebServer::start({
        let count = count.clone();
        move |r| {
            let n = count.next(r.path());
            let mut posts = String::from(
                "<li><a href=\"/tides.html\">Tides and the harbour</a></li>\
                 <li><a href=\"/light.html\">Notes on the lighthouse</a></li>",
            );
            if n >= 1 {
                posts.push_str("<li><a href=\"/dunes.html\">A winter walk on the dunes</a></li>");
            }
            WebReply::html(&format!(
                "<html><head><title>Harbour notes</title></head><body>\
                 <header><nav><a href=\"/\">Home</a></nav></header><main><h1>Harbour notes</h1>\
                 <p>A small page about the harbour, the tides and the boats that come and go, \
                 kept by a retired pilot who writes when the weather allows.</p>\
                 <ul>{posts}</ul></main></body></html>"
            ))
        }
    })
    .await;
    let c = client(&dir);
    let (url, _) = c
        .follow_page(&web.url("/index.html"), Watch::Links)
        .unwrap();
    let first = c.refresh_feed(&url).await;
    assert!(first.error.is_none(), "{:?}", first.error);
    let r = c.refresh_feed(&url).await;
    assert_eq!(r.new_entries.len(), 1, "{r:?}");
    assert_eq!(r.new_entries[0].title, "1 link added");
    let copy = follows(&c).get(&url).unwrap().unwrap();
    let added = &copy.changes[0].diff.links_added;
    assert_eq!(added.len(), 1, "{added:?}");
    assert_eq!(added[0].url, web.url("/dunes.html"));
}

#[tokio::test]
async fn a_capsule_that_moved_for_good_is_recorded_as_moved() {
    let dir = tempfile::tempdir().unwrap();
    let routes = Routes::new()
        .route("/old-log/", Reply::status(31, "/log/"))
        .route("/log/", Reply::gemtext("# Log\n=> a.gmi 2026-07-01 A\n"))
        .route(
            "/gone/",
            Reply::status(31, "gemini://elsewhere.example/log/"),
        )
        .route("/temp/", Reply::status(30, "/log/"));
    let server = Server::start(routes).await;
    let c = client(&dir);
    for path in ["/old-log/", "/gone/", "/temp/"] {
        c.subscribe(&server.url(path)).unwrap();
    }
    feeds::refresh_all(&c, |_, _, _| {}).await.unwrap();
    let get = |p: &str| c.subscription(&server.url(p)).unwrap().unwrap();
    let same_host = get("/old-log/");
    assert_eq!(same_host.moved_to, Some(server.url("/log/")));
    assert!(same_host.error.is_none() && same_host.entries.len() == 1);
    let elsewhere = get("/gone/");
    assert_eq!(
        elsewhere.moved_to.as_deref(),
        Some("gemini://elsewhere.example/log/")
    );
    assert_eq!(elsewhere.failures, 1);
    assert_eq!(
        get("/temp/").moved_to,
        None,
        "a temporary redirect is no move"
    );
}

/// The bad inputs on the web, followed with a healthy page and a healthy Atom feed whose
/// entry was read, refreshed four times: binary answers (an image, bytes called text), a
/// redirect loop, a page growing by a megabyte at each refresh, a feed turning into an HTML
/// page, entries dated in year 0 and in the future.
#[tokio::test]
async fn bad_web_answers_each_give_a_bounded_clear_result_and_cost_the_others_nothing() {
    use support::http::{Reply as WebReply, Server as WebServer};
    let dir = tempfile::tempdir().unwrap();
    let count = Counter::default();
    let atom = |entries: &str| {
        format!(
            "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\">\
             <title>Web log</title><id>urn:log</id><updated>2026-07-01T00:00:00Z</updated>{entries}</feed>"
        )
    };
    let entry = |id: &str, date: &str| {
        format!(
            "<entry><title>Post {id}</title><id>urn:{id}</id><link href=\"/posts/{id}\"/>\
             <updated>{date}</updated></entry>"
        )
    };
    let web = WebServer::start({
        let count = count.clone();
        move |r| {
            let n = count.next(r.path());
            match r.path() {
                "/image" => {
                    WebReply::new(200, "image/png", &b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR"[..])
                }
                "/bytes" => WebReply::new(
                    200,
                    "text/plain",
                    (0..4096u32)
                        .map(|i| (i * 7 % 256) as u8)
                        .collect::<Vec<u8>>(),
                ),
                "/loop-a" => WebReply::redirect(301, "/loop-b"),
                "/loop-b" => WebReply::redirect(301, "/loop-a"),
                "/grows" => WebReply::html(&format!(
                    "<html><body><article><h1>Grows</h1>{}</article></body></html>",
                    (0..24_000 * (n + 1))
                        .map(|i| format!("<p>Paragraph {i:08} of a page that grows.</p>\n"))
                        .collect::<String>()
                )),
                "/feed.xml" if n == 0 => WebReply::new(
                    200,
                    "application/atom+xml",
                    atom(
                        &[
                            entry("year0", "0000-01-01T00:00:00Z"),
                            entry("future", "9999-12-31T00:00:00Z"),
                            entry("fine", "2026-06-30T00:00:00Z"),
                        ]
                        .concat(),
                    ),
                ),
                "/feed.xml" => WebReply::html(
                    "<html><head><title>We moved</title></head><body><p>Our blog is \
                     elsewhere now.</p></body></html>",
                ),
                "/good.xml" => WebReply::new(
                    200,
                    "application/atom+xml",
                    atom(
                        &(0..=n)
                            .map(|i| {
                                entry(
                                    &format!("good{i}"),
                                    &format!("2026-07-{:02}T00:00:00Z", 1 + i),
                                )
                            })
                            .collect::<String>(),
                    ),
                ),
                "/good" => WebReply::html(&format!(
                    "<html><head><title>Good page</title></head><body><article><h1>Good page</h1>\
                     <p>A page of links that grows by one at every refresh, long enough to be \
                     read as the page's main text.</p>{}</article></body></html>",
                    (0..=n)
                        .map(|i| format!(
                            "<p>The post of week {i} is out: read <a href=\"/post/{i}\">post \
                             number {i}</a> for what happened in the garden.</p>"
                        ))
                        .collect::<String>()
                )),
                _ => WebReply::new(404, "text/plain", "no"),
            }
        }
    })
    .await;
    let c = client(&dir);
    let subs = smolweb_store::subscriptions::Subscriptions::new(c.paths().subscriptions());
    let mut urls = HashMap::new();
    for (path, watch) in [
        ("/image", Watch::Text),
        ("/bytes", Watch::Text),
        ("/loop-a", Watch::Links),
        ("/grows", Watch::Text),
        ("/good", Watch::Links),
    ] {
        let (url, _) = subs.follow(&web.url(path), watch, c.now()).unwrap();
        urls.insert(path, url);
    }
    for path in ["/feed.xml", "/good.xml"] {
        let (url, _) = subs.add(&web.url(path), c.now()).unwrap();
        urls.insert(path, url);
    }
    let mut runs = vec![feeds::refresh_all(&c, |_, _, _| {}).await.unwrap()];
    // The person reads the healthy feed's first post: that stays read.
    let first_post = web.url("/posts/good0");
    assert!(subs.mark_read(&first_post).unwrap(), "{:?}", subs.list());
    for _ in 0..3 {
        runs.push(feeds::refresh_all(&c, |_, _, _| {}).await.unwrap());
    }
    let new = |path: &str| -> Vec<usize> {
        runs.iter()
            .map(|r| result(r, &urls[path]).new_entries.len())
            .collect()
    };
    let errors = |path: &str| -> Vec<String> {
        runs.iter()
            .map(|r| {
                result(r, &urls[path])
                    .error
                    .as_ref()
                    .map(ToString::to_string)
                    .unwrap_or_default()
            })
            .collect()
    };
    let sub = |path: &str| subs.get(&urls[path]).unwrap().unwrap();
    // The healthy ones: every refresh brought its new post or link; the read one stays read.
    assert_eq!(new("/good.xml"), [1, 1, 1, 1], "{:?}", errors("/good.xml"));
    assert_eq!(new("/good"), [0, 1, 1, 1], "{:?}", errors("/good"));
    let good = sub("/good.xml");
    assert_eq!(good.entries.len(), 4);
    assert!(good.entries.iter().any(|e| e.url == first_post && e.read));
    assert_eq!(good.unread(), 3);
    // Binary answers: each refresh fails in plain words, counted in a row.
    for path in ["/image", "/bytes"] {
        let s = sub(path);
        assert_eq!(s.failures, 4, "{path}: {:?}", errors(path));
        assert!(s.entries.is_empty() && follows(&c).get(&urls[path]).unwrap().is_none());
        let e = s.error.unwrap();
        assert!(
            e.contains("not text") || e.contains("binary"),
            "{path}: {e}"
        );
    }
    // A redirect loop: failures that name the loop.
    let looped = sub("/loop-a");
    assert_eq!(looped.failures, 4);
    assert!(
        looped.error.as_deref().unwrap().contains("redirect"),
        "{:?}",
        looped.error
    );
    // Grows by a megabyte at each refresh: compared on its beginning, kept bounded.
    let grows = sub("/grows");
    assert!(grows.error.is_none(), "{:?}", errors("/grows"));
    let copy = follows(&c).get(&urls["/grows"]).unwrap().unwrap();
    assert!(copy.text.len() <= MAX_TEXT_BYTES, "{}", copy.text.len());
    assert!(grows.cut && copy.cut);
    assert_eq!(new("/grows"), [0, 0, 0, 0]);
    // A feed that became an HTML page: each refresh after says it is not a feed, and the
    // entries it had are kept; year 0 and the year 9999 are kept undated.
    let log = sub("/feed.xml");
    assert_eq!(log.entries.len(), 3);
    for e in &errors("/feed.xml")[1..] {
        assert!(e.contains("not a feed"), "{e}");
    }
    for odd in ["Post year0", "Post future"] {
        let e = log.entries.iter().find(|e| e.title == odd).unwrap();
        assert_eq!(e.published, None, "{odd}");
    }
    let fine = log.entries.iter().find(|e| e.title == "Post fine").unwrap();
    assert_eq!(fine.published.as_deref(), Some("2026-06-30T00:00:00Z"));
}
