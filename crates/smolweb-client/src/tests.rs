//! Unit tests of the client over a scripted transport and a manual clock.

use super::transport::{BoxFuture, Transport};
use super::*;
use smolweb_core::response::Header;
use smolweb_core::url::GopherTarget;
use smolweb_net::cache::ManualClock;
use smolweb_net::{GeminiResponse, NetOptions, Request, Response, TofuState};
use std::collections::HashMap;
use std::sync::Mutex;
use std::task::Poll;

type Answer = Result<(u8, String, Vec<u8>), FetchError>;

/// Scripted answers by full request URL (query included; gopher: `host:port/selector\tsearch`).
/// A URL with a queue of answers pops them in order; the last one repeats.
#[derive(Default)]
struct Fake {
    answers: Mutex<HashMap<String, Vec<Answer>>>,
    seen: Mutex<Vec<(String, NetOptions)>>,
    /// When set, robots.txt answers wait for a permit of this semaphore.
    robots_gate: Mutex<Option<Arc<tokio::sync::Semaphore>>>,
    /// Notified (one stored permit) each time a robots.txt is asked for.
    robots_asked: tokio::sync::Notify,
}

impl Fake {
    fn on(&self, url: &str, status: u8, meta: &str, body: &str) -> &Self {
        self.push(
            url,
            Ok((status, meta.to_string(), body.as_bytes().to_vec())),
        )
    }
    fn fail(&self, url: &str, e: FetchError) -> &Self {
        self.push(url, Err(e))
    }
    fn push(&self, url: &str, a: Answer) -> &Self {
        let mut m = self.answers.lock().unwrap();
        m.entry(url.to_string()).or_default().push(a);
        self
    }
    fn answer(&self, key: &str, opts: &NetOptions) -> Answer {
        self.seen
            .lock()
            .unwrap()
            .push((key.to_string(), opts.clone()));
        let mut m = self.answers.lock().unwrap();
        match m.get_mut(key) {
            Some(q) if q.len() > 1 => q.remove(0),
            Some(q) if q.len() == 1 => q[0].clone(),
            _ => Ok((51, "not found".into(), Vec::new())),
        }
    }
    /// Requests seen for a URL (robots.txt fetches excluded unless asked for).
    fn count(&self, key: &str) -> usize {
        self.seen
            .lock()
            .unwrap()
            .iter()
            .filter(|(k, _)| k == key)
            .count()
    }
    /// Timeouts given to the transport, in request order, with their URLs.
    fn timeouts(&self) -> Vec<(String, Duration)> {
        let seen = self.seen.lock().unwrap();
        seen.iter().map(|(k, o)| (k.clone(), o.timeout)).collect()
    }
    /// Hold robots.txt answers until the returned semaphore gets permits.
    fn gate_robots(&self) -> Arc<tokio::sync::Semaphore> {
        let gate = Arc::new(tokio::sync::Semaphore::new(0));
        *self.robots_gate.lock().unwrap() = Some(gate.clone());
        gate
    }
    fn last_opts(&self) -> NetOptions {
        self.seen.lock().unwrap().last().unwrap().1.clone()
    }
}

fn tls() -> TlsInfo {
    TlsInfo {
        version: "TLSv1.3".into(),
        cipher: "TLS13_AES_128_GCM_SHA256".into(),
        cert_fingerprint: "sha256:00".into(),
        cert_not_after: "2099-01-01T00:00:00Z".into(),
        tofu: TofuState::Trusted,
        client_cert: None,
        client_cert_warning: None,
        pin_warning: None,
        root: None,
    }
}

impl Fake {
    fn gemini(&self, url: &Url, opts: &NetOptions) -> BoxFuture<'_, Result<Response, FetchError>> {
        let a = self.answer(&url.to_string(), opts);
        let robots = url.path() == "/robots.txt";
        if robots {
            self.robots_asked.notify_one();
        }
        let gate = robots
            .then(|| self.robots_gate.lock().unwrap().clone())
            .flatten();
        Box::pin(async move {
            if let Some(gate) = gate {
                drop(gate.acquire().await);
            }
            let (status, meta, body) = a?;
            Ok(Response::Gemini(GeminiResponse {
                header: Header { status, meta },
                body,
                tls: tls(),
                ending: smolweb_net::Ending::Clean,
            }))
        })
    }

    fn gopher(
        &self,
        t: &GopherTarget,
        opts: &NetOptions,
    ) -> BoxFuture<'_, Result<Response, FetchError>> {
        let mut key = format!("{}:{}/{}", t.host, t.port, t.selector);
        if let Some(s) = &t.search {
            key.push('\t');
            key.push_str(s);
        }
        let a = self.answer(&key, opts);
        Box::pin(async move { a.map(|(_, _, body)| Response::Gopher(body)) })
    }
}

impl Transport for Fake {
    fn send<'a>(
        &'a self,
        request: &'a Request,
        opts: &'a NetOptions,
    ) -> BoxFuture<'a, Result<Response, FetchError>> {
        match request {
            Request::Gemini(url) => self.gemini(url, opts),
            Request::Gopher(t) => self.gopher(t, opts),
            _ => {
                let e = smolweb_net::InternalError::WrongAnswer("no small protocol").into();
                Box::pin(async move { Err(e) })
            }
        }
    }
}

fn setup(face: Face, edit: impl FnOnce(&mut Config)) -> (Client, Arc<Fake>, Arc<ManualClock>) {
    let mut config = Config::default();
    config.politeness.per_host_interval_ms = 0;
    edit(&mut config);
    let dir = std::env::temp_dir().join("smolweb-client-unit-never-written");
    let paths = Paths {
        data_dir: dir.clone(),
        config_file: dir.join("config.toml"),
        downloads_dir: dir.join("downloads"),
        cache_dir: dir.join("cache"),
    };
    let fake = Arc::new(Fake::default());
    let clock = Arc::new(ManualClock::new());
    let client = Client::with_transport(config, paths, face, fake.clone(), clock.clone()).unwrap();
    (client, fake, clock)
}

fn agent() -> (Client, Arc<Fake>, Arc<ManualClock>) {
    setup(Face::Agent, |_| {})
}

const PAGE: &str = "gemini://example.org/page";

async fn open(c: &Client, url: &str) -> Outcome {
    c.open(url, &OpenOptions::default()).await
}

fn page_of(o: &Outcome) -> &Fetched {
    match o {
        Outcome::Page { fetched, .. } => fetched,
        other => panic!("expected a page, got {other:?}"),
    }
}

fn error_code(o: &Outcome) -> smolweb_core::code::ErrorCode {
    match o {
        Outcome::Error { error, .. } => error.code(),
        other => panic!("expected an error, got {other:?}"),
    }
}

#[tokio::test]
async fn page_is_cached_then_refreshed() {
    let (c, fake, _) = agent();
    fake.on(PAGE, 20, "text/gemini", "# Hello\n");
    let first = open(&c, PAGE).await;
    let f = page_of(&first);
    assert!(!f.cached && f.cached_at.is_some());
    assert_eq!(f.page.body.text(), "# Hello\n");
    let info = first.info();
    assert_eq!(info.path.as_deref(), Some("/page"));
    assert!(info.timestamp.is_some() && info.tls.is_some());

    let second = open(&c, PAGE).await;
    let s = page_of(&second);
    assert!(s.cached);
    assert_eq!(s.cached_at, f.cached_at, "original download time kept");
    assert_eq!(fake.count(PAGE), 1, "the capsule saw one request");
    assert!(c.cached(PAGE).is_some_and(|f| f.cached));
    // Page info of the cached answer still names the certificate that vouched for it, as
    // pinned (not "pinned on this visit").
    let (t1, t2) = (info.tls.as_ref().unwrap(), second.info().tls.clone());
    let t2 = t2.expect("a cached Gemini answer keeps its TLS details");
    assert_eq!(t2.cert_fingerprint, t1.cert_fingerprint);
    assert!(
        matches!(t2.tofu, smolweb_net::TofuState::Trusted),
        "{:?}",
        t2.tofu
    );

    let opts = OpenOptions {
        refresh: true,
        ..OpenOptions::default()
    };
    assert!(!page_of(&c.open(PAGE, &opts).await).cached);
    assert_eq!(fake.count(PAGE), 2);
    assert!(c.forget(PAGE));
    assert!(c.cached(PAGE).is_none());
}

#[tokio::test]
async fn cache_ttl_zero_always_fetches() {
    let (c, fake, _) = setup(Face::Agent, |cfg| {
        cfg.cache.ttl_seconds = 0;
        cfg.politeness.per_host_interval_ms = 0;
    });
    fake.on(PAGE, 20, "text/gemini", "x\n");
    open(&c, PAGE).await;
    assert!(!page_of(&open(&c, PAGE).await).cached);
    assert_eq!(fake.count(PAGE), 2);
}

#[tokio::test]
async fn input_answers_are_never_cached_or_echoed() {
    let (c, fake, _) = agent();
    let secret_url = "gemini://example.org/login?hunter2";
    fake.on(secret_url, 20, "text/gemini", "welcome\n");
    let opts = OpenOptions {
        input: Some("hunter2".into()),
        ..OpenOptions::default()
    };
    for _ in 0..2 {
        let o = c.open("gemini://example.org/login", &opts).await;
        assert!(!page_of(&o).cached);
        let info = o.info();
        assert_eq!(info.url, "gemini://example.org/login");
        assert!(info.has_query);
        assert!(!format!("{info:?}").contains("hunter2"));
    }
    assert_eq!(fake.count(secret_url), 2, "a query is fetched every time");
    assert!(c.cached(secret_url).is_none());
}

#[tokio::test]
async fn input_prompts_and_statuses() {
    let (c, fake, _) = agent();
    let base = "gemini://example.org";
    fake.on(&format!("{base}/q"), 10, "Your name?", "")
        .on(&format!("{base}/pw"), 11, "Password", "")
        .on(&format!("{base}/gone"), 51, "Not here", "")
        .on(&format!("{base}/busy"), 41, "Server busy", "")
        .on(&format!("{base}/cert"), 60, "Identify yourself", "");
    match open(&c, &format!("{base}/q")).await {
        Outcome::Input {
            prompt, sensitive, ..
        } => assert_eq!((prompt.as_str(), sensitive), ("Your name?", false)),
        o => panic!("{o:?}"),
    }
    assert!(matches!(
        open(&c, &format!("{base}/pw")).await,
        Outcome::Input {
            sensitive: true,
            ..
        }
    ));
    assert!(matches!(
        open(&c, &format!("{base}/gone")).await,
        Outcome::Failure { status: 51, .. }
    ));
    assert!(matches!(
        open(&c, &format!("{base}/busy")).await,
        Outcome::Failure {
            status: 41,
            retry_after_seconds: None,
            ..
        }
    ));
    match open(&c, &format!("{base}/cert")).await {
        Outcome::Certificate {
            status, message, ..
        } => assert_eq!((status, message.as_str()), (60, "Identify yourself")),
        o => panic!("{o:?}"),
    }
}

#[tokio::test]
async fn redirects_are_resolved_and_classified() {
    let (c, fake, _) = agent();
    fake.on("gemini://example.org/a/b", 30, "../c", "")
        .on("gemini://example.org/x", 31, "gemini://other.org/y", "")
        .on(
            "gemini://example.org/p",
            30,
            "gemini://example.org:1966/p",
            "",
        )
        .on("gemini://example.org/w", 30, "https://example.org/w", "");
    let cases = [
        (
            "gemini://example.org/a/b",
            "gemini://example.org/c",
            false,
            false,
            "gemini",
        ),
        (
            "gemini://example.org/x",
            "gemini://other.org/y",
            true,
            true,
            "gemini",
        ),
        (
            "gemini://example.org/p",
            "gemini://example.org:1966/p",
            false,
            true,
            "gemini",
        ),
        (
            "gemini://example.org/w",
            "https://example.org/w",
            false,
            true,
            "https",
        ),
    ];
    for (url, want_target, want_perm, want_cross, want_scheme) in cases {
        match open(&c, url).await {
            Outcome::Redirect {
                target,
                permanent,
                cross_host,
                scheme,
                ..
            } => {
                assert_eq!(target, want_target, "{url}");
                assert_eq!(permanent, want_perm, "{url}");
                assert_eq!(cross_host, want_cross, "{url}");
                assert_eq!(scheme, want_scheme, "{url}");
            }
            o => panic!("{url}: {o:?}"),
        }
    }
}

#[tokio::test]
async fn following_redirects_on_one_host() {
    let (c, fake, _) = agent();
    fake.on("gemini://example.org/1", 30, "/2", "")
        .on("gemini://example.org/2", 31, "/3", "")
        .on("gemini://example.org/3", 20, "text/gemini", "# End\n")
        .on("gemini://example.org/loop", 30, "/loop2", "")
        .on("gemini://example.org/loop2", 30, "/loop", "")
        .on("gemini://example.org/away", 30, "gemini://other.org/", "");
    let opts = OpenOptions::default();
    let (end, chain) = c.open_following("gemini://example.org/1", &opts, 5).await;
    assert_eq!(page_of(&end).page.body.text(), "# End\n");
    assert_eq!(chain, ["gemini://example.org/1", "gemini://example.org/2"]);

    let (stopped, chain) = c.open_following("gemini://example.org/1", &opts, 1).await;
    assert!(matches!(stopped, Outcome::Redirect { .. }), "max reached");
    assert_eq!(chain.len(), 1);

    let (looped, chain) = c
        .open_following("gemini://example.org/loop", &opts, 10)
        .await;
    match looped {
        Outcome::Error {
            error: FetchError::Protocol(smolweb_net::ProtocolError::RedirectLoop(m)),
            ..
        } => assert!(m.contains("/loop"), "{m}"),
        o => panic!("{o:?}"),
    }
    assert_eq!(chain.len(), 2);
    assert_eq!(
        fake.count("gemini://example.org/loop"),
        1,
        "no request repeated"
    );

    let (away, chain) = c
        .open_following("gemini://example.org/away", &opts, 5)
        .await;
    assert!(matches!(
        away,
        Outcome::Redirect {
            cross_host: true,
            ..
        }
    ));
    assert!(chain.is_empty());
}

#[tokio::test]
async fn slow_down_is_waited_once_when_it_fits() {
    let (c, fake, _) = agent();
    fake.on(PAGE, 44, "0", "")
        .on(PAGE, 20, "text/gemini", "ok\n");
    assert!(!page_of(&open(&c, PAGE).await).cached);
    assert_eq!(fake.count(PAGE), 2, "retried once");

    let again = "gemini://example.org/again";
    fake.on(again, 44, "0", "");
    match open(&c, again).await {
        Outcome::Failure {
            status: 44,
            retry_after_seconds: Some(0),
            ..
        } => {}
        o => panic!("{o:?}"),
    }
    assert_eq!(fake.count(again), 2, "one retry only");
}

#[tokio::test]
async fn slow_down_beyond_the_budget_is_an_error() {
    let (c, fake, clock) = agent();
    fake.on(PAGE, 44, "3600", "");
    let o = open(&c, PAGE).await;
    match &o {
        Outcome::Error {
            error: FetchError::SlowDown {
                retry_after_seconds: 3600,
            },
            ..
        } => {}
        o => panic!("{o:?}"),
    }
    assert_eq!(fake.count(PAGE), 1);
    let slot = c
        .next_request_slot("example.org")
        .expect("host pushed back");
    assert!(slot >= clock.now() + Duration::from_secs(3599));
}

#[tokio::test]
async fn robots_disallow_applies_to_the_agent_only() {
    let robots = "User-agent: webproxy\nDisallow: /private\n";
    for face in [Face::Agent, Face::Human] {
        let (c, fake, _) = setup(face, |_| {});
        fake.on("gemini://example.org/robots.txt", 20, "text/plain", robots)
            .on(
                "gemini://example.org/private/x",
                20,
                "text/gemini",
                "secret\n",
            )
            .on("gemini://example.org/public", 20, "text/gemini", "hi\n");
        let o = open(&c, "gemini://example.org/private/x").await;
        match face {
            Face::Agent => {
                assert_eq!(error_code(&o), "BLOCKED_BY_ROBOTS");
                assert!(o.info().timestamp.is_none(), "refused before sending");
                assert_eq!(fake.count("gemini://example.org/private/x"), 0);
            }
            Face::Human => assert!(!page_of(&o).cached),
        }
        page_of(&open(&c, "gemini://example.org/public").await);
        let robots_fetches = fake.count("gemini://example.org/robots.txt");
        assert_eq!(robots_fetches, usize::from(face == Face::Agent), "{face:?}");
    }
}

#[tokio::test]
async fn robots_temporary_failure_is_remembered() {
    let (c, fake, clock) = agent();
    fake.on("gemini://example.org/robots.txt", 41, "later", "")
        .on(PAGE, 20, "text/gemini", "x\n");
    assert_eq!(error_code(&open(&c, PAGE).await), "ROBOTS_UNAVAILABLE");
    assert_eq!(error_code(&open(&c, PAGE).await), "ROBOTS_UNAVAILABLE");
    assert_eq!(fake.count("gemini://example.org/robots.txt"), 1);
    assert_eq!(fake.count(PAGE), 0);
    clock.advance(smolweb_net::policy::ROBOTS_RETRY_AFTER);
    fake.on("gemini://example.org/robots.txt", 20, "text/plain", "");
    let _ = fake
        .answers
        .lock()
        .unwrap()
        .get_mut("gemini://example.org/robots.txt")
        .unwrap()
        .remove(0);
    page_of(&open(&c, PAGE).await);
}

#[tokio::test]
async fn unreachable_host_is_a_connection_error_not_robots() {
    let (c, fake, _) = agent();
    let refused = FetchError::connection(
        "example.org",
        1965,
        std::io::ErrorKind::ConnectionRefused.into(),
    );
    fake.fail("gemini://example.org/robots.txt", refused);
    assert_eq!(error_code(&open(&c, PAGE).await), "CONNECTION_ERROR");
    assert_eq!(error_code(&open(&c, PAGE).await), "CONNECTION_ERROR");
    assert_eq!(
        fake.count("gemini://example.org/robots.txt"),
        2,
        "nothing remembered"
    );
}

#[tokio::test]
async fn robots_txt_itself_is_not_checked_against_itself() {
    let (c, fake, _) = agent();
    let url = "gemini://example.org/robots.txt";
    fake.on(url, 20, "text/plain", "User-agent: *\nDisallow: /\n");
    page_of(&open(&c, url).await);
    assert_eq!(fake.count(url), 1);
}

#[tokio::test]
async fn pacing_schedules_one_slot_per_interval() {
    let (c, fake, clock) = setup(Face::Agent, |cfg| {
        cfg.politeness.per_host_interval_ms = 150;
        cfg.politeness.respect_robots = false;
    });
    let t0 = clock.now();
    fake.on(PAGE, 20, "text/gemini", "x\n");
    let refresh = OpenOptions {
        refresh: true,
        ..OpenOptions::default()
    };
    c.open(PAGE, &refresh).await;
    assert_eq!(
        c.next_request_slot("example.org"),
        Some(t0 + Duration::from_millis(150))
    );
    c.open(PAGE, &refresh).await;
    // The second request took the slot one interval after the first.
    assert_eq!(
        c.next_request_slot("example.org"),
        Some(t0 + Duration::from_millis(300))
    );
    assert_eq!(c.next_request_slot("other.org"), None);
    // Cached reads are not paced.
    c.open(PAGE, &OpenOptions::default()).await;
    assert_eq!(
        c.next_request_slot("example.org"),
        Some(t0 + Duration::from_millis(300))
    );
}

#[tokio::test]
async fn faces_choose_network_options() {
    for (face, private, agent_flag) in [(Face::Agent, false, true), (Face::Human, true, false)] {
        let (c, fake, _) = setup(face, |cfg| cfg.politeness.respect_robots = false);
        fake.on(PAGE, 20, "text/gemini", "x\n");
        open(&c, PAGE).await;
        let o = fake.last_opts();
        assert_eq!(o.allow_private, private, "{face:?}");
        assert_eq!(o.for_agent, agent_flag, "{face:?}");
        let cap = match face {
            Face::Agent => c.config().network.max_response_bytes,
            Face::Human => c.config().network.tui_max_response_bytes,
        };
        assert_eq!(o.max_body, cap);
    }
    let (c, fake, _) = setup(Face::Agent, |cfg| {
        cfg.politeness.respect_robots = false;
        cfg.network.allow_private_addresses = true;
    });
    fake.on(PAGE, 20, "text/gemini", "x\n");
    open(&c, PAGE).await;
    assert!(fake.last_opts().allow_private);
}

#[tokio::test]
async fn invalid_and_about_urls() {
    let (c, _, _) = agent();
    assert_eq!(
        error_code(&open(&c, "ftp://example.org/").await),
        "INVALID_REQUEST"
    );
    assert_eq!(error_code(&open(&c, "not a url").await), "INVALID_REQUEST");
    assert_eq!(
        error_code(&open(&c, "about:nothing").await),
        "INVALID_REQUEST"
    );
    let home = open(&c, "about:home").await;
    assert!(page_of(&home).page.body.text().contains("smolweb"));
    let help = open(&c, "about:help").await;
    assert!(page_of(&help).page.body.text().contains("smolweb --help"));
}

/// One router for every face's built-in pages: `open` (`smolweb get`, the agent) answers
/// them plain, without the browser's notes and without its about:trust and about:agents;
/// the browser asks `open_about` for its notes and pages.
#[tokio::test]
async fn built_in_pages_plain_and_for_the_browser() {
    let browser_notes = [
        ("bookmarks", "Press m on a page to bookmark it."),
        ("history", "Pages you visit are listed here, newest first."),
        ("tour", "Links to read next, yours and agents'."),
    ];
    for face in [Face::Agent, Face::Human] {
        let (c, _, _) = setup(face, |_| {});
        for (name, note) in browser_notes {
            let plain = open(&c, &format!("about:{name}")).await;
            let plain = page_of(&plain).page.body.text().to_string();
            assert!(!plain.contains(note), "{face:?} {name}: {plain}");
            let url = Url::parse(&format!("about:{name}")).unwrap();
            let browser = c.open_about(url, about::Notes::Browser);
            let browser = page_of(&browser).page.body.text().to_string();
            assert!(browser.contains(note), "{face:?} {name}: {browser}");
            // The note is a paragraph under the heading; the rest is the plain page.
            let heading = plain.lines().next().unwrap();
            assert!(
                browser.starts_with(&format!("{heading}\n\n{note}")),
                "{browser}"
            );
        }
        for name in ["trust", "agents"] {
            let url = format!("about:{name}");
            assert_eq!(error_code(&open(&c, &url).await), "INVALID_REQUEST");
            let browser = c.open_about(Url::parse(&url).unwrap(), about::Notes::Browser);
            let text = page_of(&browser).page.body.text().to_string();
            assert!(
                text.starts_with("# Trusted certificates\n") || text.starts_with("# Agents\n"),
                "{text}"
            );
        }
    }
}

#[tokio::test]
async fn gopher_search_and_types() {
    let (c, fake, _) = setup(Face::Agent, |cfg| cfg.politeness.respect_robots = false);
    fake.on(
        "example.org:70/find\tcats",
        0,
        "",
        "iResults\t\terror.host\t1\r\n",
    )
    .on("example.org:70/doc.txt", 0, "", "hello\r\n");
    let search = OpenOptions {
        search: Some("cats".into()),
        ..OpenOptions::default()
    };
    let o = c.open("gopher://example.org/7find", &search).await;
    assert!(!page_of(&o).cached);
    assert_eq!(o.info().item_type, Some('7'));
    assert_eq!(o.info().selector.as_deref(), Some("find"));
    assert!(!o.info().search_ignored);
    let again = c.open("gopher://example.org/7find", &search).await;
    assert!(page_of(&again).cached, "a gopher search may be cached");
    assert!(c.cached(&again.info().url).is_some());
    assert_eq!(fake.count("example.org:70/find\tcats"), 1);
    let other = OpenOptions {
        search: Some("dogs".into()),
        ..OpenOptions::default()
    };
    c.open("gopher://example.org/7find", &other).await;
    assert_eq!(
        fake.count("example.org:70/find\tdogs"),
        1,
        "key includes the search"
    );

    let text = c.open("gopher://example.org/0doc.txt", &search).await;
    assert!(text.info().search_ignored);
    assert_eq!(fake.count("example.org:70/doc.txt"), 1, "search not sent");
    assert_eq!(
        error_code(&open(&c, "gopher://example.org/8tel").await),
        "NOT_FETCHABLE"
    );
}

#[tokio::test]
async fn gopher_robots_use_the_star_group() {
    let (c, fake, _) = agent();
    fake.on(
        "example.org:70/robots.txt",
        0,
        "",
        "User-agent: *\nDisallow: /secret\n",
    )
    .on("example.org:70/secret/a", 0, "", "x");
    let o = open(&c, "gopher://example.org/0/secret/a").await;
    assert_eq!(error_code(&o), "BLOCKED_BY_ROBOTS");
    assert_eq!(fake.count("example.org:70/secret/a"), 0);
}

#[tokio::test]
async fn concurrent_callers_fetch_robots_once() {
    let (c, fake, _) = agent();
    let c = Arc::new(c);
    fake.on("gemini://example.org/a", 20, "text/gemini", "a\n")
        .on("gemini://example.org/b", 20, "text/gemini", "b\n");
    let robots = "gemini://example.org/robots.txt";
    let gate = fake.gate_robots();
    // Each caller runs up to its first wait, says so on `parked`, then carries on.
    let (parked_tx, mut parked) = tokio::sync::mpsc::unbounded_channel();
    let spawn = |path: &'static str| {
        let (c, parked_tx) = (c.clone(), parked_tx.clone());
        tokio::spawn(async move {
            let url = format!("gemini://example.org/{path}");
            let mut fetch = std::pin::pin!(open(&c, &url));
            let first = std::future::poll_fn(|cx| Poll::Ready(fetch.as_mut().poll(cx))).await;
            let _ = parked_tx.send(path);
            match first {
                Poll::Ready(outcome) => outcome,
                Poll::Pending => fetch.await,
            }
        })
    };
    async fn within<F: Future>(what: F) -> F::Output {
        tokio::time::timeout(Duration::from_secs(5), what)
            .await
            .expect("in time")
    }
    // The first caller is inside its robots.txt fetch (held open by the gate)...
    let a = spawn("a");
    within(fake.robots_asked.notified()).await;
    // ...when the second one misses the robots cache too and waits: on the fetch lock the
    // first one holds (so map, both callers and this probe share it), not on a fetch of its own.
    let b = spawn("b");
    assert_eq!(within(parked.recv()).await, Some("a"));
    assert_eq!(within(parked.recv()).await, Some("b"));
    let lock = c.robots.fetch_lock("example.org", 1965);
    assert_eq!(Arc::strong_count(&lock), 4, "b waits on the fetch lock");
    drop(lock);
    assert_eq!(
        fake.count(robots),
        1,
        "the second caller waits for the first's fetch"
    );
    gate.add_permits(10);
    page_of(&a.await.unwrap());
    page_of(&b.await.unwrap());
    assert_eq!(fake.count(robots), 1);
}

#[tokio::test]
async fn one_budget_covers_robots_the_request_and_the_retry_after_44() {
    let (c, fake, _) = setup(Face::Agent, |cfg| cfg.network.timeout_seconds = 5);
    fake.on("gemini://example.org/robots.txt", 51, "none", "")
        .on(PAGE, 44, "0", "")
        .on(PAGE, 20, "text/gemini", "# ok\n");
    page_of(&open(&c, PAGE).await);
    let timeouts = fake.timeouts();
    let urls: Vec<&str> = timeouts.iter().map(|(u, _)| u.as_str()).collect();
    assert_eq!(urls, ["gemini://example.org/robots.txt", PAGE, PAGE]);
    let budget = Duration::from_secs(5);
    assert!(timeouts[0].1 <= budget, "{timeouts:?}");
    assert!(
        timeouts.windows(2).all(|w| w[1].1 < w[0].1),
        "each step gets what is left, not a fresh budget: {timeouts:?}"
    );
}

#[tokio::test]
async fn an_exhausted_budget_sends_nothing() {
    let (c, fake, _) = setup(Face::Agent, |cfg| cfg.network.timeout_seconds = 0);
    fake.on(PAGE, 20, "text/gemini", "x\n");
    let o = open(&c, PAGE).await;
    assert_eq!(error_code(&o), "TIMEOUT");
    assert!(fake.timeouts().is_empty(), "nothing was sent");
}

#[tokio::test]
async fn a_held_answer_reports_when_its_request_was_sent() {
    let (c, fake, _) = agent();
    fake.on(PAGE, 20, "text/gemini", "# hi\n")
        .on("example.org:70/t", 0, "", "text\r\n");
    for url in [PAGE, "gopher://example.org/0/t"] {
        let first = open(&c, url).await;
        assert!(!page_of(&first).cached);
        let sent = first.info().timestamp.expect("sent");
        let again = open(&c, url).await;
        assert!(page_of(&again).cached, "{url}");
        assert_eq!(
            again.info().timestamp,
            Some(sent),
            "{url}: not the time of the read"
        );
        assert!(page_of(&again).cached_at.is_some_and(|t| t >= sent));
    }
}

#[tokio::test]
async fn refusals_carry_no_timestamp() {
    let (c, fake, _) = agent();
    let blocked = FetchError::Blocked {
        host: "example.org".into(),
        reason: smolweb_net::BlockReason::MetadataName,
    };
    fake.on("gemini://example.org/robots.txt", 51, "none", "")
        .fail(PAGE, blocked);
    let o = open(&c, PAGE).await;
    assert_eq!(error_code(&o), "BLOCKED");
    assert!(o.info().timestamp.is_none());
}
