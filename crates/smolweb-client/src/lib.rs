//! The facade both faces use: `open(url, options) -> Outcome`.
//!
//! Order of work: about: pages -> cache (unless refresh) -> policy (robots, pacing; the address
//! guard runs inside `net`) -> net -> decode into a [`Page`] -> cache store -> [`Outcome`].
//! One time budget per call covers all of it (`budget`); every network request passes the
//! process-wide in-flight bounds (`limits`: in all and per host), waiting its turn in line.
//! An answer from the cache keeps the `timestamp` of the request that filled it.
//! Redirects are returned, not followed ([`Client::open_following`] follows same-host ones).
//! UI-agnostic: no terminal or MCP types here.
//!
//! Secrets: a Gemini URL with a query (or an `input` answer) is never read from or stored in
//! the cache, never logged, and never put in [`RequestInfo::url`]; `has_query` says one was
//! sent. Logging is at debug level with query-less URLs only.
//!
//! Faces: the agent face uses the `[network]` safety defaults (private addresses refused unless
//! allowed, 1 MiB bodies), honours robots.txt per `respect_robots` and paces each host by
//! `per_host_interval_ms`. The human face may reach private addresses, uses the TUI body cap,
//! honours robots.txt only with `tui_respect_robots`, and is not paced (a 44 SLOW DOWN is still
//! honoured on both faces).

#![deny(missing_docs)]

use smolweb_core::page::Page;
use smolweb_net::{FetchError, IdentityChoice, ProtocolError, RequestError, TlsInfo};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use time::OffsetDateTime;

/// Which face is asking: decides defaults (private addresses, robots, body cap, identities).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Face {
    /// The browser: a person at the keyboard.
    Human,
    /// The MCP server: an agent asks, with the safety defaults.
    Agent,
}

/// Per-call options.
#[derive(Clone, Debug, Default)]
pub struct OpenOptions {
    /// Answer to a 10/11 prompt: percent-encoded and sent as the query (replacing any).
    pub input: Option<String>,
    /// Gopher type-7 search string.
    pub search: Option<String>,
    /// Skip the cache read, drop held windows, store the fresh answer.
    pub refresh: bool,
    /// Which client identity to present (none, the scope's, or one named).
    pub identity: IdentityChoice,
    /// Accept this changed certificate fingerprint once (human "trust once").
    pub trust_once: Option<String>,
    /// Receives body bytes read so far.
    pub progress: Option<tokio::sync::watch::Sender<u64>>,
    /// Told when a request waits for an in-flight slot or a paced turn (batch progress).
    pub waits: Option<smolweb_net::WaitNotices>,
    /// Web pages: convert the whole page instead of its main content (the reader's toggle).
    pub web_full: bool,
    /// Finger: let a forwarding query (`finger://h2/user@h1`) through. Only for an address
    /// the person typed; never set for an agent.
    pub finger_forward: bool,
}

/// What was asked and how it went, as far as it is safe to repeat (never a query).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RequestInfo {
    /// The URL without its query.
    pub url: String,
    /// The host asked.
    pub host: String,
    /// The port asked (the scheme's default when the URL gave none).
    pub port: u16,
    /// Gemini: the path.
    pub path: Option<String>,
    /// Gopher: item type and selector.
    pub item_type: Option<char>,
    /// Gopher: the selector.
    pub selector: Option<String>,
    /// Gemini: a query was sent.
    pub has_query: bool,
    /// Gopher: a search string was given for a non-search item.
    pub search_ignored: bool,
    /// When the request was sent (None when refused before sending).
    pub timestamp: Option<OffsetDateTime>,
    /// TLS details of the connection (Gemini and https).
    pub tls: Option<TlsInfo>,
    /// Web: what the text shown is (the kind of body, and for HTML which part was kept).
    pub web: Option<smolweb_core::webtext::Shown>,
    /// Web: the person's rule for the page's site that the text was read by, as
    /// `<content selector> (<site>)`; whether it matched is the reading's `rule`.
    pub site_rule: Option<String>,
}

impl RequestInfo {
    /// Was a client identity presented with the request?
    pub fn identity_sent(&self) -> bool {
        self.tls.as_ref().is_some_and(|t| t.client_cert.is_some())
    }
}

/// What a 60, 61 or 62 answer says, worded by what was sent ([`RequestInfo::identity_sent`]):
/// a capsule that answers 61 to a request without an identity (a Titan upload with a wrong
/// token, often) has recognised no identity.
pub fn certificate_words(status: u8, identity_sent: bool) -> &'static str {
    match (status, identity_sent) {
        (60, _) => "the capsule asks for a client certificate (an identity)",
        (61, true) => "the capsule recognised the identity presented but does not allow it here",
        (61, false) => {
            "the capsule says the request is not authorised, and no identity was sent: for an \
             upload, its token may be wrong or missing; otherwise the capsule may want an \
             identity it knows"
        }
        (_, true) => "the capsule says the identity presented is not valid (expired or malformed)",
        (_, false) => {
            "the capsule says the certificate is not valid, yet no identity was sent: it \
             probably wants one"
        }
    }
}

/// A page, fresh or from the cache.
#[derive(Clone, Debug)]
pub struct Fetched {
    /// The page.
    pub page: Arc<Page>,
    /// True when answered from the cache (no new request).
    pub cached: bool,
    /// When the cached answer was downloaded.
    pub cached_at: Option<OffsetDateTime>,
}

impl Fetched {
    /// Age of the cached answer at `now`, in seconds (None for a fresh one).
    pub fn cache_age_seconds(&self, now: OffsetDateTime) -> Option<f64> {
        self.cached_at
            .filter(|_| self.cached)
            .map(|t| (now - t).as_seconds_f64().max(0.0))
    }
}

#[derive(Clone, Debug)]
/// What opening a URL gave: a page, a capsule's other answers, or why there is none.
pub enum Outcome {
    /// A page (2x, a Gopher item, a web page, an about: page).
    Page {
        /// What was asked.
        info: RequestInfo,
        /// The page.
        fetched: Fetched,
    },
    /// 10/11.
    Input {
        /// What was asked.
        info: RequestInfo,
        /// The capsule's prompt (untrusted text).
        prompt: String,
        /// True for 11: the answer is secret.
        sensitive: bool,
    },
    /// 30/31 (not followed).
    Redirect {
        /// What was asked.
        info: RequestInfo,
        /// Absolute, resolved against the request URL.
        target: String,
        /// True for 31.
        permanent: bool,
        /// The target is on another host.
        cross_host: bool,
        /// The target's scheme ("gemini", "gopher", "https", ...).
        scheme: String,
    },
    /// 60/61/62.
    Certificate {
        /// What was asked.
        info: RequestInfo,
        /// The status (60, 61 or 62).
        status: u8,
        /// The capsule's text (untrusted).
        message: String,
    },
    /// 4x/5x from the capsule.
    Failure {
        /// What was asked.
        info: RequestInfo,
        /// The status (40-59).
        status: u8,
        /// The capsule's meta text (untrusted).
        meta: String,
        /// Seconds to wait for 44.
        retry_after_seconds: Option<u64>,
    },
    /// We could not get an answer (or refused to ask).
    Error {
        /// What was asked.
        info: RequestInfo,
        /// Why.
        error: FetchError,
    },
}

impl Outcome {
    /// What was asked, whatever the outcome.
    pub fn info(&self) -> &RequestInfo {
        match self {
            Outcome::Page { info, .. }
            | Outcome::Input { info, .. }
            | Outcome::Redirect { info, .. }
            | Outcome::Certificate { info, .. }
            | Outcome::Failure { info, .. }
            | Outcome::Error { info, .. } => info,
        }
    }
}

pub mod about;
pub mod about_browser;
pub mod about_feeds;
pub mod about_follow;
mod approve;
mod budget;
pub mod config;
pub mod feeds;
pub mod follow;
mod gemini;
mod gemini_proxy;
mod gopher;
mod guppy;
pub mod health;
mod limits;
pub mod offline;
mod ops;
mod pipeline;
mod politeness;
pub mod search;
mod site_rules;
pub mod smallnet;
pub mod sync;
mod tour;
pub(crate) mod transport;
pub mod web;

use crate::config::Config;
pub use approve::agent_identity_name;
pub use gemini_proxy::proxy_status_words;
use smolweb_core::url::{Scheme, Url, normalize_host};
use smolweb_net::cache::{Cache, CacheEntry, Clock, SystemClock};
use smolweb_net::policy::RobotsCache;
use smolweb_net::policy::pacing::Pacer;
use smolweb_net::{Net, NetOptions};
use smolweb_store::StoreError;
pub use smolweb_store::activity::Decider;
use smolweb_store::approvals::{Approval, Approvals};
use smolweb_store::bookmarks::Bookmarks;
use smolweb_store::history::History;
use smolweb_store::identity::Identities;
use smolweb_store::paths::Paths;
use smolweb_store::tofu::KnownHosts;
use std::time::{Duration, Instant};
use transport::Transport;

#[derive(Debug, thiserror::Error)]
/// Why a client could not be built.
pub enum ClientError {
    #[error(transparent)]
    /// The data directory could not be made or read.
    Store(#[from] StoreError),
    #[error("{0}")]
    /// Something else in the setup failed (the sentence says what).
    Setup(String),
}

/// What approving a pending request did.
#[derive(Clone, Debug)]
pub struct Approved {
    /// The request, now approved (or performed).
    pub approval: Approval,
    /// One sentence for the human.
    pub message: String,
    /// The fingerprint created, pinned or removed.
    pub fingerprint: Option<String>,
}

/// The key pacing and grouping use for a host: [`normalize_host`]'s form, or the text
/// lowercased when it is not a host (so a bad subscription still groups with itself).
pub(crate) fn host_key(host: &str) -> String {
    normalize_host(host).unwrap_or_else(|_| host.trim().to_ascii_lowercase())
}

/// The facade. Cheap to share behind an `Arc`; all methods take `&self`.
pub struct Client {
    config: Config,
    paths: Paths,
    face: Face,
    known_hosts: KnownHosts,
    identities: Identities,
    approvals: Approvals,
    bookmarks: Bookmarks,
    history: History,
    uploads: smolweb_store::uploads::Uploads,
    activity: smolweb_store::activity::Activity,
    suggestions: smolweb_store::suggestions::Suggestions,
    browsers: smolweb_store::suggestions::Browsers,
    shared: smolweb_store::shared::SharedPages,
    /// One store for the client's life, so its parsed copy of the subscriptions is shared by
    /// every call (see [`Client::subscriptions`]).
    subscriptions: smolweb_store::subscriptions::Subscriptions,
    transport: Arc<dyn Transport>,
    cache: Cache,
    /// Kept copies read while working offline, held as built (see `offline`).
    kept: Cache<offline::HeldCopy>,
    robots: RobotsCache,
    pacer: Pacer,
    /// Paces the batches a human did not click request by request (feed refresh, save with
    /// links) on the human face, whose `pacer` spaces nothing; on the agent face `pacer`
    /// already spaces every request, so this one's interval is zero.
    batch_pacer: Pacer,
    web: web::WebState,
    /// The work-offline mode, shared with the transport's gate.
    offline_mode: transport::OfflineSwitch,
    /// The local full-text index (None: `[search] index = false`).
    search: Option<smolweb_search::SearchIndex>,
}

impl Client {
    /// Build the client for a face. Creates the data directory if needed (0700, whatever the
    /// umask), and sets this process's rule for store files others can read
    /// (`[data] loose_permissions`, see `smolweb_store::perms`).
    pub fn new(config: Config, paths: Paths, face: Face) -> Result<Client, ClientError> {
        smolweb_store::perms::set_policy(config.data.loose_permissions);
        smolweb_store::perms::create_private_dir(&paths.data_dir)?;
        let net = Net::new(
            KnownHosts::new(paths.known_hosts()),
            Identities::new(paths.identities_dir()),
            config.tofu.policy(),
        );
        Client::with_transport(config, paths, face, Arc::new(net), Arc::new(SystemClock))
    }

    /// Build a client over another transport and monotonic clock (tests, simulations).
    /// Does not create the data directory.
    pub fn with_transport(
        config: Config,
        paths: Paths,
        face: Face,
        transport: Arc<dyn Transport>,
        clock: Arc<dyn Clock>,
    ) -> Result<Client, ClientError> {
        let ttl = Duration::from_secs(config.cache.ttl_seconds);
        let per_host = Duration::from_millis(config.politeness.per_host_interval_ms);
        let (interval, batch_interval) = match face {
            Face::Agent => (per_host, Duration::ZERO),
            Face::Human => (Duration::ZERO, per_host),
        };
        let net = &config.network;
        let transport: Arc<dyn Transport> = Arc::new(limits::Limited::new(
            transport,
            net.max_in_flight,
            net.max_in_flight_per_host,
        ));
        let offline_mode = Arc::new(AtomicBool::new(config.offline.work_offline));
        let transport: Arc<dyn Transport> = Arc::new(transport::OfflineGate {
            inner: transport,
            offline: offline_mode.clone(),
        });
        Ok(Client {
            known_hosts: KnownHosts::new(paths.known_hosts()),
            identities: Identities::new(paths.identities_dir()),
            approvals: Approvals::new(paths.approvals()),
            bookmarks: Bookmarks::new(paths.bookmarks()),
            history: History::new(paths.history()),
            uploads: smolweb_store::uploads::Uploads::new(paths.uploads()),
            activity: smolweb_store::activity::Activity::new(
                paths.activity(),
                config.agents.limits(),
            ),
            suggestions: smolweb_store::suggestions::Suggestions::new(paths.suggestions()),
            browsers: smolweb_store::suggestions::Browsers::new(paths.browsers()),
            shared: smolweb_store::shared::SharedPages::new(paths.shared()),
            subscriptions: smolweb_store::subscriptions::Subscriptions::new(paths.subscriptions()),
            cache: Cache::new(
                ttl,
                config.cache.max_entries,
                config.cache.max_bytes,
                clock.clone(),
            ),
            kept: Cache::new(
                ttl,
                config.cache.max_entries,
                config.cache.max_bytes,
                clock.clone(),
            ),
            robots: RobotsCache::new(clock.clone()),
            web: web::WebState::new(&config, clock.clone()),
            pacer: Pacer::new(interval, clock.clone()),
            batch_pacer: Pacer::new(batch_interval, clock),
            transport,
            offline_mode,
            search: search::open_index(&paths, &config),
            config,
            paths,
            face,
        })
    }

    /// Is the work-offline mode on? Then no request leaves: [`Client::open`] and
    /// [`Client::fetch_web`] answer from the offline cache only (a page not kept is a
    /// `FetchError::Offline` / `WebError::Offline`), and every other path to the network is
    /// refused the same way.
    pub fn working_offline(&self) -> bool {
        self.offline_mode.load(Ordering::SeqCst)
    }

    /// Turn the work-offline mode on or off (starts as `[offline] work_offline`).
    pub fn set_work_offline(&self, on: bool) {
        self.offline_mode.store(on, Ordering::SeqCst);
        if !on {
            // Back online, pages come from the network and its cache again.
            self.kept.remove_where(|_| true);
        }
    }
    /// Does [`Client::open`] hold the pages it answers from a cache or, working offline, from
    /// a kept copy (the same page answers the next open of it, so work done on it once, such
    /// as parsing its whole document, serves the next reads)? False when `[cache]` holds
    /// nothing.
    pub fn holds_pages(&self) -> bool {
        self.cache.enabled()
    }

    /// The configuration the client was built with.
    pub fn config(&self) -> &Config {
        &self.config
    }
    /// The data, cache and config paths.
    pub fn paths(&self) -> &Paths {
        &self.paths
    }
    /// Which face this client serves.
    pub fn face(&self) -> Face {
        self.face
    }
    /// The client identities.
    pub(crate) fn identities(&self) -> &Identities {
        &self.identities
    }
    /// Pending and decided approval requests.
    pub(crate) fn approvals(&self) -> &Approvals {
        &self.approvals
    }
    /// The bookmarks.
    pub(crate) fn bookmarks(&self) -> &Bookmarks {
        &self.bookmarks
    }
    /// The history of visits.
    pub(crate) fn history(&self) -> &History {
        &self.history
    }
    /// What agents did (the activity log, bounded per `[agents]`).
    pub(crate) fn activity(&self) -> &smolweb_store::activity::Activity {
        &self.activity
    }

    /// Would this face's fetch of `url` pass the address guard (one lookup, bounded by the
    /// network timeout)? An `about:` URL always does.
    pub async fn check_destination(&self, url: &Url) -> Result<(), FetchError> {
        if url.host().is_empty() {
            return Ok(());
        }
        if self.working_offline() {
            let url = url.without_query();
            return Err(FetchError::Offline { url });
        }
        let opts = self.net_options(&OpenOptions::default());
        let timeout = opts.timeout;
        match tokio::time::timeout(
            timeout,
            smolweb_net::check_destination(url.host(), url.port(), &opts),
        )
        .await
        {
            Ok(r) => r,
            Err(_) => Err(FetchError::Timeout(timeout)),
        }
    }
    /// The current time (the injected clock's wall time).
    pub fn now(&self) -> OffsetDateTime {
        OffsetDateTime::now_utc()
    }

    /// When the next paced request to `host` may leave (None: now), counting the pacing of
    /// batches (feed refresh, save with links). For tests and status lines.
    pub fn next_request_slot(&self, host: &str) -> Option<Instant> {
        let key = host_key(host);
        let (single, batch) = (self.pacer.next_slot(host), self.batch_pacer.next_slot(&key));
        single.max(batch)
    }

    /// Wait for the turn of `url`'s host in a batch of requests (feed refresh, save with
    /// links): `[politeness] per_host_interval_ms` apart on both faces. Hosts are keyed by
    /// [`host_key`].
    async fn batch_turn(&self, url: &str) {
        let key = feeds::host_of(url);
        // No budget applies to a batch's own spacing (a 44 pushback is the fetch's business).
        let _ = self
            .batch_pacer
            .wait_turn(&key, Duration::MAX, |_| {})
            .await;
    }

    /// Wait for `host`'s paced turn (see [`Pacer::wait_turn`]), telling `waits` of a wait.
    async fn paced_turn(
        &self,
        host: &str,
        max_wait: Duration,
        waits: Option<&smolweb_net::WaitNotices>,
    ) -> Result<(), Duration> {
        let tell = |wait| {
            let host = host.to_string();
            smolweb_net::tell_wait(waits, smolweb_net::Wait::Paced { host, wait });
        };
        self.pacer.wait_turn(host, max_wait, tell).await
    }

    /// Network options for this face and call.
    fn net_options(&self, opts: &OpenOptions) -> NetOptions {
        let net = &self.config.network;
        let (max_body, allow_private, for_agent) = match self.face {
            Face::Agent => (net.max_response_bytes, net.allow_private_addresses, true),
            Face::Human => (net.tui_max_response_bytes, true, false),
        };
        NetOptions {
            timeout: Duration::from_secs(net.timeout_seconds),
            max_body,
            allow_private,
            allowed_hosts: net.allowed_hosts.clone(),
            for_agent,
            identity: opts.identity.clone(),
            allow_client_cert_over_tls12: net.allow_client_cert_over_tls12,
            trust_once: opts.trust_once.clone(),
            progress: opts.progress.clone(),
            waits: opts.waits.clone(),
            socks5: self.socks5(),
        }
    }

    /// The SOCKS5 proxy this face's requests go through: `[network] socks5`, for the agent
    /// face only while `socks5_for_agent` says so. None: connections are direct.
    pub fn socks5(&self) -> Option<std::net::SocketAddr> {
        let net = &self.config.network;
        if self.face == Face::Agent && !net.socks5_for_agent {
            return None;
        }
        config::proxy::socks5_addr(&net.socks5)
    }

    /// Fetch (or answer from the cache / a built-in page) one URL. Never panics; every
    /// problem is an `Outcome::Error`. On the agent face a page fetched is handed to the
    /// local index (never awaited).
    pub async fn open(&self, url: &str, opts: &OpenOptions) -> Outcome {
        let outcome = self.open_once(url, opts).await;
        self.index_agent_fetch(opts, &outcome);
        outcome
    }

    async fn open_once(&self, url: &str, opts: &OpenOptions) -> Outcome {
        let started = Instant::now();
        let parsed = match Url::parse(url) {
            Ok(u) => u,
            Err(e) => {
                let info = RequestInfo {
                    url: smolweb_core::url::strip_query(url).to_string(),
                    has_query: url.contains('?'),
                    ..RequestInfo::default()
                };
                return Outcome::Error {
                    info,
                    error: RequestError::Url(e).into(),
                };
            }
        };
        if self.working_offline() && parsed.scheme() != Scheme::About {
            return self.open_kept(parsed, opts);
        }
        let budget = budget::Budget::from(
            started,
            Duration::from_secs(self.config.network.timeout_seconds),
        );
        match parsed.scheme() {
            Scheme::About => self.open_about(parsed, about::Notes::Plain),
            Scheme::Http | Scheme::Https => match self.gemini_proxy() {
                Some(proxy) => pipeline::open(self, &proxy, &parsed, opts, budget).await,
                None => web::open_reader(self, parsed, url, opts).await,
            },
            scheme => match pipeline::of(scheme) {
                Some(proto) => pipeline::open(self, proto, &parsed, opts, budget).await,
                None => {
                    let info = RequestInfo {
                        url: parsed.without_query(),
                        host: parsed.host().to_string(),
                        port: parsed.port(),
                        ..RequestInfo::default()
                    };
                    error(info, RequestError::TitanOpened.into())
                }
            },
        }
    }

    /// The built-in page at the `about:` URL `url` as `notes` asks for it (the browser asks
    /// for its notes and its own pages; `open` answers every face with [`about::Notes::Plain`]).
    /// Never touches the network; a store that cannot be read is an `Outcome::Error` naming
    /// its file, never an empty list.
    pub fn open_about(&self, url: Url, notes: about::Notes) -> Outcome {
        let info = RequestInfo {
            url: url.to_string(),
            timestamp: Some(self.now()),
            ..RequestInfo::default()
        };
        match about::page_text(self, url.path().trim_start_matches('/'), url.query(), notes) {
            Ok(text) => Outcome::Page {
                info,
                fetched: Fetched {
                    page: Arc::new(Page::builtin(url, &text)),
                    cached: false,
                    cached_at: None,
                },
            },
            Err(error) => Outcome::Error { info, error },
        }
    }

    /// Open and follow redirects that keep host, port and scheme, at most `max` times,
    /// stopping on a loop (`ProtocolError::RedirectLoop`). Returns the final
    /// outcome and the URLs (without query) visited before it. The `input` answer is sent to
    /// the first URL only.
    pub async fn open_following(
        &self,
        url: &str,
        opts: &OpenOptions,
        max: usize,
    ) -> (Outcome, Vec<String>) {
        let (outcome, chain, _) = self.open_following_moves(url, opts, max).await;
        (outcome, chain)
    }

    /// [`Client::open_following`], also saying where the leading run of permanent redirects
    /// (31) led, followed or not: the address `url` moved to (None when the first answer was
    /// not a permanent redirect, or the redirects looped).
    pub async fn open_following_moves(
        &self,
        url: &str,
        opts: &OpenOptions,
        max: usize,
    ) -> (Outcome, Vec<String>, Option<String>) {
        let mut chain = Vec::new();
        let mut seen: Vec<String> = Vec::new();
        let mut current = url.to_string();
        let mut hop_opts = opts.clone();
        let (mut still_permanent, mut moved) = (true, None);
        loop {
            let outcome = self.open(&current, &hop_opts).await;
            hop_opts.input = None;
            let Outcome::Redirect {
                info,
                target,
                cross_host,
                scheme,
                permanent,
            } = &outcome
            else {
                return (outcome, chain, moved);
            };
            still_permanent = still_permanent && *permanent;
            if still_permanent {
                moved = Some(normalized(target));
            }
            let same_scheme = Url::parse(&current).is_ok_and(|u| u.scheme().as_str() == scheme);
            if *cross_host || !same_scheme || chain.len() >= max {
                return (outcome, chain, moved);
            }
            seen.push(normalized(&current));
            let next = normalized(target);
            chain.push(info.url.clone());
            if seen.contains(&next) {
                let shown = smolweb_core::url::strip_query(&next).to_string();
                let error = ProtocolError::RedirectLoop(shown).into();
                let info = info.clone();
                return (Outcome::Error { info, error }, chain, None);
            }
            current = next;
        }
    }

    /// Drop a cached page (e.g. before a reload). Returns whether one was held.
    pub fn forget(&self, url: &str) -> bool {
        self.cache_key(url).is_some_and(|k| self.cache.remove(&k))
    }

    /// The cached page for `url`, without any network (windows, back/forward).
    pub fn cached(&self, url: &str) -> Option<Fetched> {
        let entry = self.cache.get(&self.cache_key(url)?)?;
        Some(cached_fetched(entry))
    }

    /// The cache key of a URL string, as its protocol's plan makes it with no options; None
    /// when it may not be cached (a query that may be a secret, an upload) or is cached
    /// elsewhere (the web keeps its own cache, keyed by conversion options too).
    fn cache_key(&self, url: &str) -> Option<String> {
        let parsed = Url::parse(url).ok()?;
        let plan = match (parsed.scheme().is_web(), self.gemini_proxy()) {
            (true, Some(proxy)) => {
                pipeline::Protocol::plan(&proxy, &parsed, &OpenOptions::default())
            }
            _ => pipeline::of(parsed.scheme())?.plan(&parsed, &OpenOptions::default()),
        };
        plan.cache_key
    }

    /// The Gemini proxy the person's http(s) URLs are asked of (`[web] gemini_proxy`); None
    /// on the agent face, which fetches the web itself (see `gemini_proxy`).
    fn gemini_proxy(&self) -> Option<gemini_proxy::GeminiProxy> {
        if self.face == Face::Agent {
            return None;
        }
        let proxy = config::proxy::gemini_proxy_url(&self.config.web.gemini_proxy)?;
        Some(gemini_proxy::GeminiProxy { proxy })
    }

    /// Perform a pending approval (create/remove identity — an identity made here is
    /// `created_by = agent` — or pin/unpin a certificate) and remove it from the queue.
    /// When the change fails the approval stays pending. `by` says where the person
    /// decided; the activity log records it under the session that queued the request.
    pub fn approve(&self, id: &str, by: Decider) -> Result<Approved, StoreError> {
        approve::approve(self, id, by)
    }

    /// Drop a pending approval without doing it (recorded as [`Client::approve`] is).
    pub fn deny(&self, id: &str, by: Decider) -> Result<Approval, StoreError> {
        approve::deny(self, id, by)
    }
}

/// A URL in normalized form when it parses, else as given.
fn normalized(url: &str) -> String {
    Url::parse(url).map_or_else(|_| url.to_string(), |u| u.to_string())
}

fn cached_fetched(entry: CacheEntry) -> Fetched {
    Fetched {
        page: entry.page,
        cached: true,
        cached_at: Some(entry.cached_at),
    }
}

/// An error outcome. Refusals (nothing was sent) carry no timestamp.
fn error(mut info: RequestInfo, error: FetchError) -> Outcome {
    // No URL: a Gopher one carries the search, which is never logged.
    tracing::debug!(host = %info.host, port = info.port, code = %error.code(), "fetch failed");
    if matches!(
        error,
        FetchError::InvalidRequest(_)
            | FetchError::NotFetchable(_)
            | FetchError::Blocked { .. }
            | FetchError::BlockedByRobots { .. }
            | FetchError::RobotsUnavailable { .. }
    ) {
        info.timestamp = None;
    }
    Outcome::Error { info, error }
}

#[cfg(test)]
mod tests;
