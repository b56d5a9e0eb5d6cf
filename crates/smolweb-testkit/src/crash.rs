//! Killed at any moment, nothing half-written: the write paths of every store, numbered, and
//! the check of what a store holds after its writer died.
//!
//! The writer (`smolweb-store-writer`, this crate's binary) performs write number 1, 2, 3, …
//! of one [`Store`] through the store's public API, the calls the browser and the MCP server
//! make, and prints `ack N` after write N returned (the store's write is durable by then: its
//! temp file was fsynced and renamed, or its line appended). The driver ([`driver`]) kills it
//! with SIGKILL at a random moment, optionally on a nearly full file system, then
//! [`check`]s the store: it must open, every record in it must be whole, every acknowledged
//! write must be there, and the only write that may be missing or present without an
//! acknowledgement is the one in flight.
//!
//! Each write carries its number in what it stores (a URL, a host, a name, a body), so the
//! check reads back which writes landed ([`Found::present`]) and whether each record is
//! exactly what that write wrote ([`Found::partial`]).

pub mod driver;

use smolweb_store::StoreError;
use std::collections::BTreeSet;
use std::path::Path;
use time::OffsetDateTime;

/// Every store a face writes, as the harness drives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Store {
    /// TOFU pins (`known_hosts.toml`): a pin per write.
    Pins,
    /// Client identities (`identities/`): a key and its metadata per write; every fifth
    /// write removes the one made just before.
    Identities,
    /// Pending approvals (`approvals.toml`).
    Approvals,
    /// Bookmarks (`bookmarks.gmi`).
    Bookmarks,
    /// History (`history.toml`).
    History,
    /// Subscriptions (`subscriptions.toml`): a feed followed per write.
    Subscriptions,
    /// Read state in `subscriptions.toml`: odd writes record an entry, even ones mark it read.
    ReadState,
    /// The offline page cache (`cache/offline/`: a page file and its index row per write).
    Offline,
    /// The agents' activity log (`agent_activity.jsonl`, appended).
    Activity,
    /// Pages shared with agents (`shared_pages.toml`).
    Shared,
    /// Pages agents suggested (`suggestions.toml`).
    Suggestions,
    /// Running browsers' heartbeats (`browsers.toml`).
    Browsers,
    /// The sync queue (`sync_queue.toml`).
    SyncQueue,
    /// Upload allowances (`upload_allowances.toml`).
    Uploads,
    /// The MCP server's bearer token (`mcp-token`, made once per data directory: one
    /// directory per write).
    McpToken,
    /// The copies of followed pages (`follows/`): odd writes keep a page's first copy, even
    /// ones refresh it (a new text and the change found, as a refresh does).
    Follows,
    /// The tour (`tour.toml`): a link per write, every tenth added by an agent with a reason.
    Tour,
    /// The search index's queue (`search-queue/`: one file per operation).
    SearchQueue,
    /// The search index (`search/`, tantivy): a page queued and committed per write, through
    /// the calls the CLI makes (`queue_now`, then `flush`).
    SearchIndex,
}

impl Store {
    /// Every store, in the order the report lists them.
    pub const ALL: [Store; 19] = [
        Store::Pins,
        Store::Identities,
        Store::Approvals,
        Store::Bookmarks,
        Store::History,
        Store::Subscriptions,
        Store::ReadState,
        Store::Offline,
        Store::Activity,
        Store::Shared,
        Store::Suggestions,
        Store::Browsers,
        Store::SyncQueue,
        Store::Uploads,
        Store::McpToken,
        Store::Follows,
        Store::Tour,
        Store::SearchQueue,
        Store::SearchIndex,
    ];

    /// Most leftovers ([`Found::leftovers`]) one killed write may leave: a temp file; for an
    /// identity, its key and the metadata's temp file; for an offline copy, its page and the
    /// index's temp file.
    ///
    /// The search queue is the exception: a queued file is written by any process without a
    /// lock, so a killed writer's temp file can only be told from one being written by its
    /// age, and the writer holding the index lock sweeps those older than ten minutes
    /// (`smolweb_store::search_queue`). Its leftovers are counted, never judged; the same for
    /// the search index, whose every write is first a queued file.
    pub fn in_flight_leftovers(self) -> usize {
        match self {
            Store::SearchQueue | Store::SearchIndex => usize::MAX,
            Store::Identities | Store::Offline => 2,
            _ => 1,
        }
    }

    /// The name the writer takes on its command line and the report prints.
    pub fn name(self) -> &'static str {
        match self {
            Store::Pins => "pins",
            Store::Identities => "identities",
            Store::Approvals => "approvals",
            Store::Bookmarks => "bookmarks",
            Store::History => "history",
            Store::Subscriptions => "subscriptions",
            Store::ReadState => "read-state",
            Store::Offline => "offline",
            Store::Activity => "activity",
            Store::Shared => "shared",
            Store::Suggestions => "suggestions",
            Store::Browsers => "browsers",
            Store::SyncQueue => "sync-queue",
            Store::Uploads => "uploads",
            Store::McpToken => "mcp-token",
            Store::Follows => "follows",
            Store::Tour => "tour",
            Store::SearchQueue => "search-queue",
            Store::SearchIndex => "search-index",
        }
    }

    /// The store named `name` ([`Store::name`]).
    pub fn from_name(name: &str) -> Option<Store> {
        Store::ALL.into_iter().find(|s| s.name() == name)
    }

    /// How many writes one data directory takes before the driver starts a fresh one: below
    /// every bound a store keeps (suggestions keep 50, shared pages 100, the read state 300
    /// entries), so nothing is dropped by design and every missing write is a loss.
    pub fn writes_per_dir(self) -> u64 {
        match self {
            Store::Suggestions => 48,
            Store::Shared => 96,
            Store::Identities | Store::McpToken => 64,
            Store::ReadState => 500,
            Store::SearchIndex => 200,
            _ => 400,
        }
    }

    /// The longest wait before a kill, from the run's (`base`): the search index's writer
    /// opens tantivy and commits per write, which takes several times longer than the other
    /// stores' writes, so its kills are spread over a longer span to land inside them.
    pub fn max_delay(self, base: std::time::Duration) -> std::time::Duration {
        match self {
            Store::SearchIndex => base * 8,
            _ => base,
        }
    }

    /// The most free space left on a nearly full disk, from the run's (`base`): a tantivy
    /// commit writes several files (segment, meta, temp copies) whose sum is over the other
    /// stores' room, so the index gets eight times as much, or no write would ever land.
    pub fn free_at_most(self, base: u64) -> u64 {
        match self {
            Store::SearchIndex => base * 8,
            _ => base,
        }
    }
}

/// Every fifth identity write removes the identity the write before it made.
const REMOVE_EVERY: u64 = 5;

/// The fixed clock of every write and check (heartbeats stay fresh, approvals unexpired).
pub fn now() -> OffsetDateTime {
    OffsetDateTime::from_unix_timestamp(1_900_000_000).unwrap_or(OffsetDateTime::UNIX_EPOCH)
}

fn url(n: u64) -> String {
    format!("gemini://crash.example/page/{n}")
}

fn host(n: u64) -> String {
    format!("h{n}.crash.example")
}

fn fingerprint(n: u64) -> String {
    format!("sha256:{n:064x}")
}

fn title(n: u64) -> String {
    format!("Page number {n}, written whole")
}

/// The body of offline page `n`: 1 to 96 KiB of text that names `n` throughout.
pub fn offline_body(n: u64) -> Vec<u8> {
    let kib = 1 + (n * 37) % 96;
    let line = format!("page {n} line\n");
    line.repeat((kib as usize * 1024) / line.len() + 1)
        .into_bytes()
}

const FEED: &str = "gemini://crash.example/feed.gmi";

fn entry_url(k: u64) -> String {
    format!("gemini://crash.example/post/{k}")
}

/// The stores of a data directory (`dir`), laid out as smolweb lays them out.
fn paths(dir: &Path) -> smolweb_store::paths::Paths {
    smolweb_store::paths::Paths {
        data_dir: dir.to_path_buf(),
        config_file: dir.join("config.toml"),
        downloads_dir: dir.join("downloads"),
        cache_dir: dir.join("cache"),
    }
}

/// The offline cache's bound: large enough that nothing is evicted.
const OFFLINE_BOUND: u64 = 1 << 40;

/// Once per writer start, before its first numbered write: what a write needs to exist (the
/// feed whose read state is written).
pub fn prepare(store: Store, dir: &Path) -> Result<(), StoreError> {
    if store == Store::ReadState {
        let subs = smolweb_store::subscriptions::Subscriptions::new(paths(dir).subscriptions());
        subs.add(FEED, now())?;
    }
    Ok(())
}

/// Perform write number `n` of `store` in the data directory `dir`.
pub fn write(store: Store, dir: &Path, n: u64) -> Result<(), StoreError> {
    use smolweb_store::*;
    let p = paths(dir);
    let now = now();
    match store {
        Store::Pins => {
            tofu::KnownHosts::new(p.known_hosts()).pin_fingerprint(
                &host(n),
                1965,
                &fingerprint(n),
                now,
            )?;
        }
        Store::Identities if n.is_multiple_of(REMOVE_EVERY) => {
            let ids = identity::Identities::new(p.identities_dir());
            let made = ids
                .list()?
                .into_iter()
                .find(|i| i.name == format!("id-{}", n - 1));
            let made = made.ok_or_else(|| StoreError::NotFound(format!("id-{}", n - 1)))?;
            ids.remove(&made.fingerprint)?;
        }
        Store::Identities => {
            identity::Identities::new(p.identities_dir()).create(
                identity::NewIdentity {
                    name: format!("id-{n}"),
                    scope: identity::Scope {
                        host: host(n),
                        port: 1965,
                        path: "/".into(),
                    },
                    days: 30,
                    algorithm: identity::KeyAlgorithm::Ed25519,
                    created_by: identity::CreatedBy::Human,
                    agent_use: false,
                },
                now,
            )?;
        }
        Store::Approvals => {
            approvals::Approvals::new(p.approvals()).add(
                approvals::Request::TrustPin {
                    host: host(n),
                    port: 1965,
                    fingerprint: fingerprint(n),
                },
                "crash harness",
                now,
            )?;
        }
        Store::Bookmarks => {
            bookmarks::Bookmarks::new(p.bookmarks()).add(&url(n), &title(n))?;
        }
        Store::History => {
            history::History::new(p.history()).record(&url(n), Some(&title(n)), now)?;
        }
        Store::Subscriptions => {
            subscriptions::Subscriptions::new(p.subscriptions()).add(&url(n), now)?;
        }
        Store::ReadState => {
            let subs = subscriptions::Subscriptions::new(p.subscriptions());
            let k = n.div_ceil(2);
            if !n.is_multiple_of(2) {
                let entry = smolweb_core::feed::Entry {
                    title: title(k),
                    url: entry_url(k),
                    published: None,
                };
                let outcome = subscriptions::Refreshed::Ok {
                    title: Some("Crash feed".into()),
                    entries: vec![entry],
                };
                subs.record(FEED, &outcome, now)?;
            } else {
                subs.mark_read(&entry_url(k))?;
            }
        }
        Store::Offline => {
            let body = offline_body(n);
            offline::Offline::new(p.offline_dir(), OFFLINE_BOUND).put(
                &offline::NewPage {
                    url: &url(n),
                    media_type: "text/gemini",
                    title: Some(&title(n)),
                    body: &body,
                    fetched: now,
                    save: n.is_multiple_of(3),
                },
                now,
            )?;
        }
        Store::Activity => {
            let entry = activity::Entry::new(
                "c0ffee00",
                now,
                activity::Event::Call {
                    tool: "fetch".into(),
                    url: Some(url(n)),
                    urls: None,
                    outcome: "gemtext".into(),
                    error: false,
                    bytes: Some(n),
                    cached: None,
                    ms: n,
                },
            );
            activity::Activity::new(p.activity(), activity::Limits::default()).append(&entry)?;
        }
        Store::Shared => {
            shared::SharedPages::new(p.shared()).add(&url(n), Some(&title(n)), None, now)?;
        }
        Store::Suggestions => {
            suggestions::Suggestions::new(p.suggestions()).add(
                &url(n),
                Some(&title(n)),
                "crash harness",
                "c0ffee00",
                now,
            )?;
        }
        Store::Browsers => {
            let pid = u32::try_from(n).unwrap_or(u32::MAX);
            suggestions::Browsers::new(p.browsers()).heartbeat(pid, now)?;
        }
        Store::SyncQueue => {
            sync_queue::SyncQueue::new(p.sync_queue()).add(&url(n), Some(FEED), now)?;
        }
        Store::Uploads => {
            let scope = format!("titan://{}/", host(n));
            uploads::Uploads::new(p.uploads()).allow("crash harness", &scope, now)?;
        }
        Store::McpToken => {
            mcp_token::load_or_create(&token_dir(dir, n).join(files::MCP_TOKEN))?;
        }
        Store::Follows => {
            let k = n.div_ceil(2);
            follows::Follows::new(p.follows_dir()).update(&url(k), |slot| {
                let text = follow_text(n);
                let watch = smolweb_core::follow::Watch::Text;
                match slot {
                    Some(copy) => {
                        let diff = smolweb_core::follow::diff(&copy.text, &text, watch);
                        copy.push_change(follows::StoredChange {
                            at: now,
                            since: copy.fetched,
                            restless: false,
                            cut: false,
                            diff,
                        });
                        copy.text = text;
                    }
                    None => {
                        *slot = Some(follows::PageCopy {
                            url: url(k),
                            fetched: now,
                            cut: false,
                            memory: smolweb_core::follow::Memory::first(&text, watch),
                            text,
                            changes: Vec::new(),
                        });
                    }
                }
                Ok(((), true))
            })?;
        }
        Store::Tour => {
            let t = tour::Tour::new(p.tour());
            let added = if n.is_multiple_of(10) {
                t.add_for_agent(&url(n), &title(n), "crash harness", "c0ffee00", now)?
            } else {
                let stop = tour::NewStop {
                    url: url(n),
                    label: Some(title(n)),
                };
                t.add(&[stop], now)?
            };
            if added.added != 1 {
                return Err(StoreError::Invalid(format!(
                    "not added: {:?}",
                    added.refused
                )));
            }
        }
        Store::SearchQueue => {
            p.search_queue().push(&queue_text(n))?;
        }
        Store::SearchIndex => index_page(dir, n)?,
    }
    Ok(())
}

/// The follow text write `n` keeps of page `n.div_ceil(2)`: 1 to 16 KiB that name `n`.
pub fn follow_text(n: u64) -> String {
    let k = n.div_ceil(2);
    let kib = 1 + (n * 29) % 16;
    let line = format!("version {n} of page {k}, a paragraph of its text\n");
    let body = line.repeat((kib as usize * 1024) / line.len() + 1);
    format!("# Page {k}\n=> {} link of write {n}\n{body}", url(n))
}

/// The text of search queue file `n` (1 to 32 KiB, naming `n`).
fn queue_text(n: u64) -> String {
    let pad = "x".repeat(((1 + (n * 13) % 32) * 1024) as usize);
    format!("{{\"crash\":{n},\"pad\":\"{pad}\"}}")
}

/// The one word every page the search index writer adds holds.
const INDEX_WORD: &str = "crashharness";

/// A search index with no store to rebuild from: a rebuild loses everything, and the check
/// counts that as lost.
struct NoCorpus;

impl smolweb_search::Corpus for NoCorpus {
    fn documents(&self) -> Result<Vec<smolweb_search::Doc>, String> {
        Ok(Vec::new())
    }
}

fn search_index(dir: &Path) -> smolweb_search::SearchIndex {
    let p = paths(dir);
    smolweb_search::SearchIndex::new(
        p.search_dir(),
        p.search_queue(),
        std::sync::Arc::new(NoCorpus),
    )
}

fn search_error(e: smolweb_search::SearchError) -> StoreError {
    StoreError::Invalid(e.to_string())
}

/// Write `n` of the search index: page `n` queued, then committed (waiting for the lock).
fn index_page(dir: &Path, n: u64) -> Result<(), StoreError> {
    use std::sync::{Mutex, OnceLock};
    // One index per writer process (opening tantivy per write would be most of the time).
    static OPEN: OnceLock<Mutex<Option<(std::path::PathBuf, smolweb_search::SearchIndex)>>> =
        OnceLock::new();
    let mut open = OPEN
        .get_or_init(|| Mutex::new(None))
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if open.as_ref().is_none_or(|(d, _)| d != dir) {
        *open = Some((dir.to_path_buf(), search_index(dir)));
    }
    let Some((_, index)) = open.as_ref() else {
        return Err(StoreError::Invalid("no index".into()));
    };
    let doc = smolweb_search::Doc {
        url: url(n),
        title: Some(title(n)),
        text: format!(
            "{INDEX_WORD} {}",
            "words of the page, written whole. ".repeat(1 + (n as usize * 7) % 200)
        ),
        source: smolweb_search::Source::History,
        feed: None,
        lang: Some("en".into()),
        time: now(),
    };
    index
        .queue_now(&smolweb_search::Op::Add(doc))
        .map_err(search_error)?;
    let flushed = index
        .flush(std::time::Duration::from_secs(30))
        .map_err(search_error)?;
    if flushed.queued > 0 {
        return Err(StoreError::Invalid(format!(
            "{} operations still queued after the commit",
            flushed.queued
        )));
    }
    Ok(())
}

fn token_dir(dir: &Path, n: u64) -> std::path::PathBuf {
    dir.join("tokens").join(n.to_string())
}

/// What a store held when it was checked.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Found {
    /// The records on disk, by the number of the write that made them (see [`expected`]).
    pub present: BTreeSet<u64>,
    /// Records that are not exactly what their write wrote (torn, mixed, dangling), each
    /// described.
    pub partial: Vec<String>,
    /// What a killed writer left beside the records: temp files, a key without its identity,
    /// a page file without its row, a torn last line of the log. The next write removes
    /// them; at most [`Store::in_flight_leftovers`] may be there after a kill.
    pub leftovers: usize,
}

/// The number in `s` after `prefix` and up to `suffix` (None: not one of ours).
fn number(s: &str, prefix: &str, suffix: &str) -> Option<u64> {
    s.strip_prefix(prefix)?.strip_suffix(suffix)?.parse().ok()
}

fn url_number(u: &str) -> Option<u64> {
    number(u, "gemini://crash.example/page/", "")
}

fn host_number(h: &str) -> Option<u64> {
    number(h, "h", ".crash.example")
}

/// Check that record `n` is what write `n` wrote; note it as applied or partial.
fn record(found: &mut Found, n: Option<u64>, whole: impl FnOnce(u64) -> bool, what: &str) {
    match n {
        Some(n) if whole(n) => {
            if !found.present.insert(n) {
                found.partial.push(format!("{what}: record {n} twice"));
            }
        }
        Some(n) => found
            .partial
            .push(format!("{what}: record {n} is not whole")),
        None => found
            .partial
            .push(format!("{what}: a record no write made")),
    }
}

/// Count the temp files (`.<name>.<pid>.<n>.tmp`) under `dir`, recursively.
fn temp_files(dir: &Path) -> usize {
    let mut count = 0;
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if e.file_type().is_ok_and(|t| t.is_dir()) {
                stack.push(e.path());
            } else if name.starts_with('.') && name.ends_with(".tmp") {
                count += 1;
            }
        }
    }
    count
}

/// Open `store` in `dir` the way a face does and say what it holds. An error is a store that
/// does not open.
pub fn check(store: Store, dir: &Path) -> Result<Found, StoreError> {
    use smolweb_store::*;
    let p = paths(dir);
    let now = now();
    let mut f = Found {
        leftovers: temp_files(dir),
        ..Found::default()
    };
    match store {
        Store::Pins => {
            for pin in tofu::KnownHosts::new(p.known_hosts()).list()? {
                let n = host_number(&pin.host);
                record(&mut f, n, |n| pin.fingerprint == fingerprint(n), "pin");
            }
        }
        Store::Identities => {
            let ids = identity::Identities::new(p.identities_dir());
            let scan = ids.scan()?;
            for bad in &scan.unreadable {
                f.partial.push(format!(
                    "identity file {}: {}",
                    bad.path.display(),
                    bad.reason
                ));
            }
            for id in &scan.identities {
                let n = number(&id.name, "id-", "");
                let keyed = ids.key_material(&id.fingerprint).is_ok();
                record(
                    &mut f,
                    n,
                    |n| keyed && id.scope.host == host(n),
                    "identity (with its key)",
                );
            }
            f.leftovers += orphans(&p.identities_dir(), "key", "toml", |_| true);
        }
        Store::Approvals => {
            for a in approvals::Approvals::new(p.approvals()).pending(now)? {
                let approvals::Request::TrustPin {
                    host: h,
                    fingerprint: fp,
                    ..
                } = &a.request
                else {
                    f.partial.push("approval: an unexpected request".into());
                    continue;
                };
                record(
                    &mut f,
                    host_number(h),
                    |n| *fp == fingerprint(n),
                    "approval",
                );
            }
        }
        Store::Bookmarks => {
            for b in bookmarks::Bookmarks::new(p.bookmarks()).list()? {
                record(
                    &mut f,
                    url_number(&b.url),
                    |n| b.title == title(n),
                    "bookmark",
                );
            }
        }
        Store::History => {
            for v in history::History::new(p.history()).list()? {
                let whole = |n| v.title.as_deref() == Some(title(n).as_str());
                record(&mut f, url_number(&v.url), whole, "visit");
            }
        }
        Store::Subscriptions => {
            for s in subscriptions::Subscriptions::new(p.subscriptions()).list()? {
                record(&mut f, url_number(&s.url), |_| s.entries.is_empty(), "feed");
            }
        }
        Store::ReadState => {
            let subs = subscriptions::Subscriptions::new(p.subscriptions()).list()?;
            for e in subs.iter().flat_map(|s| s.entries.iter()) {
                let k = number(&e.url, "gemini://crash.example/post/", "");
                let odd = k.and_then(|k| (2 * k).checked_sub(1));
                record(&mut f, odd, |n| e.title == title(n.div_ceil(2)), "entry");
                if e.read {
                    record(&mut f, k.map(|k| 2 * k), |_| true, "read mark");
                }
            }
        }
        Store::Offline => {
            // The page file as it is, and as the reader gets it (`get` also marks it used,
            // which a full disk must not turn into an error).
            let cache = offline::Offline::new(p.offline_dir(), OFFLINE_BOUND);
            for row in cache.list()? {
                let n = url_number(&row.url);
                let file = std::fs::read(cache.page_path(&row.url)).unwrap_or_default();
                let read = cache.get(&row.url, now)?;
                let head = format!("smolweb-offline 1\nurl: {}\n", row.url);
                let whole = |n: u64| {
                    let body = offline_body(n);
                    row.bytes == body.len() as u64
                        && (row.saved.is_some() == (n.is_multiple_of(3)))
                        && file.starts_with(head.as_bytes())
                        && file.ends_with(&body)
                        && file.len() < body.len() + 256
                        && read.as_ref().is_some_and(|p| p.body == body)
                };
                record(&mut f, n, whole, "offline copy (row and page file)");
            }
            let rows: Vec<_> = cache
                .list()?
                .iter()
                .map(|r| cache.page_path(&r.url))
                .collect();
            f.leftovers += orphans(&p.offline_dir().join("pages"), "page", "", |p| {
                !rows.iter().any(|r| r == p)
            });
        }
        Store::Activity => {
            let log = activity::Activity::new(p.activity(), activity::Limits::default()).read()?;
            let text = std::fs::read(p.activity()).unwrap_or_default();
            f.leftovers += usize::from(!text.is_empty() && !text.ends_with(b"\n"));
            if log.skipped > 0 {
                f.partial
                    .push(format!("activity: {} lines that do not parse", log.skipped));
            }
            for e in &log.entries {
                let activity::Event::Call { url: u, ms, .. } = &e.event else {
                    f.partial.push("activity: an unexpected event".into());
                    continue;
                };
                let n = u.as_deref().and_then(url_number);
                record(&mut f, n, |n| *ms == n, "activity line");
            }
        }
        Store::Shared => {
            for s in shared::SharedPages::new(p.shared()).list()? {
                let whole = |n| s.title.as_deref() == Some(title(n).as_str());
                record(&mut f, url_number(&s.url), whole, "shared page");
            }
        }
        Store::Suggestions => {
            for s in suggestions::Suggestions::new(p.suggestions()).pending()? {
                let whole = |n| s.note.as_deref() == Some(title(n).as_str());
                record(&mut f, url_number(&s.url), whole, "suggestion");
            }
        }
        Store::Browsers => {
            let list = suggestions::Browsers::new(p.browsers());
            // The file lists pids only through `running`: read the count, and the pids from
            // the text (a whole file is a parsed file; `running` just parsed it).
            let running = list.running(now)?;
            let text = std::fs::read_to_string(p.browsers()).unwrap_or_default();
            let pids: Vec<u64> = text
                .lines()
                .filter_map(|l| l.trim().strip_prefix("pid = "))
                .filter_map(|v| v.parse().ok())
                .collect();
            if pids.len() != running {
                f.partial.push(format!(
                    "browsers: {running} fresh of {} listed",
                    pids.len()
                ));
            }
            for n in pids {
                record(&mut f, Some(n), |_| true, "heartbeat");
            }
        }
        Store::SyncQueue => {
            for q in sync_queue::SyncQueue::new(p.sync_queue()).list()? {
                let whole = |_| q.from.as_deref() == Some(FEED);
                record(&mut f, url_number(&q.url), whole, "queued page");
            }
        }
        Store::Uploads => {
            for a in uploads::Uploads::new(p.uploads()).list()? {
                let n = a
                    .scope
                    .strip_prefix("gemini://")
                    .and_then(|s| s.strip_suffix('/'))
                    .and_then(host_number);
                record(&mut f, n, |_| a.agent == "crash harness", "allowance");
            }
        }
        Store::McpToken => check_tokens(dir, &mut f),
        Store::Follows => check_follows(dir, &mut f)?,
        Store::Tour => {
            for s in tour::Tour::new(p.tour()).list()? {
                let whole = |n: u64| {
                    let by_agent = n.is_multiple_of(10);
                    match &s.agent {
                        Some(a) => by_agent && a.reason == title(n) && s.label.is_none(),
                        None => !by_agent && s.label.as_deref() == Some(title(n).as_str()),
                    }
                };
                record(&mut f, url_number(&s.url), whole, "tour stop");
            }
        }
        Store::SearchQueue => {
            let (queued, unreadable) = p.search_queue().pending()?;
            for bad in unreadable {
                f.partial
                    .push(format!("search queue file {}: {}", bad.name, bad.error));
            }
            for q in queued {
                let n = q
                    .text
                    .strip_prefix("{\"crash\":")
                    .and_then(|t| t.split(',').next())
                    .and_then(|t| t.parse().ok());
                record(&mut f, n, |n| q.text == queue_text(n), "queued operation");
            }
        }
        Store::SearchIndex => check_index(dir, &mut f)?,
    }
    Ok(f)
}

/// Every copy in `follows/`: page `k`'s copy holds write `2k - 1`'s text and no change, or
/// write `2k`'s text and the one change from the first.
fn check_follows(dir: &Path, f: &mut Found) -> Result<(), StoreError> {
    let p = paths(dir);
    let store = smolweb_store::follows::Follows::new(p.follows_dir());
    let files = std::fs::read_dir(p.follows_dir())
        .map(|d| {
            d.flatten()
                .filter(|e| e.file_name().to_string_lossy().ends_with(".toml"))
                .count()
        })
        .unwrap_or(0);
    let mut copies = 0;
    for k in 1..=Store::Follows.writes_per_dir().div_ceil(2) + 1 {
        let Some(copy) = store.get(&url(k))? else {
            continue;
        };
        copies += 1;
        let (first, second) = (2 * k - 1, 2 * k);
        let first_whole = copy.text == follow_text(first) && copy.changes.is_empty();
        let refreshed = copy.text == follow_text(second)
            && copy.changes.len() == 1
            && copy.changes.iter().all(|c| {
                c.diff.counts.links_added == 1 && c.diff.links_added[0].url == url(second)
            });
        record(
            f,
            Some(first),
            |_| first_whole || refreshed,
            "followed page's copy",
        );
        if refreshed {
            record(f, Some(second), |_| true, "followed page's refresh");
        }
    }
    if files != copies {
        f.partial.push(format!(
            "follows: {files} files for {copies} copies of the pages written"
        ));
    }
    Ok(())
}

/// The pages the search index finds by the word they all hold, window after window.
///
/// An index that was never committed (the writer died or met a full disk before its first
/// commit) is made by the first search; on a disk still full that fails, and the store is
/// counted as empty (nothing was acknowledged into it). An index that existed and had to be
/// rebuilt was broken by the kill: that is a partial record.
fn check_index(dir: &Path, f: &mut Found) -> Result<(), StoreError> {
    let index = search_index(dir);
    let made = paths(dir).search_dir().join("meta.json").exists();
    let mut offset = 0;
    loop {
        let found = match index.search(&smolweb_search::Request {
            query: INDEX_WORD,
            scope: smolweb_search::Scope::Person,
            sources: None,
            since: None,
            offset,
            limit: smolweb_search::MAX_WINDOW,
        }) {
            Ok(found) => found,
            Err(smolweb_search::SearchError::Rebuild { .. }) if !made => return Ok(()),
            Err(e) => return Err(search_error(e)),
        };
        if let (Some(r), true) = (&found.rebuilt, made) {
            f.partial
                .push(format!("search index rebuilt: {}", r.message()));
        }
        for hit in &found.hits {
            let whole = |n| hit.title.as_deref() == Some(title(n).as_str()) && hit.also.is_empty();
            record(f, url_number(&hit.url), whole, "indexed page");
        }
        match found.next_offset {
            Some(next) if next > offset => offset = next,
            _ => break,
        }
    }
    Ok(())
}

/// Files `*.<ext>` in `dir` without their `*.<twin>` beside them (`twin` empty: for which
/// `orphan` says so).
fn orphans(dir: &Path, ext: &str, twin: &str, orphan: impl Fn(&Path) -> bool) -> usize {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == ext))
        .filter(|p| {
            if twin.is_empty() {
                orphan(p)
            } else {
                !p.with_extension(twin).exists()
            }
        })
        .count()
}

/// Every token directory: a token file holds 64 hex digits and a newline, or is absent.
fn check_tokens(dir: &Path, f: &mut Found) {
    let Ok(entries) = std::fs::read_dir(dir.join("tokens")) else {
        return;
    };
    for e in entries.flatten() {
        let n: Option<u64> = e.file_name().to_string_lossy().parse().ok();
        let path = e.path().join(smolweb_store::files::MCP_TOKEN);
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let whole = text.len() == 65
            && text.ends_with('\n')
            && text[..64].bytes().all(|b| b.is_ascii_hexdigit());
        record(f, n, |_| whole, "token");
    }
}

/// The records a store holds after writes `1..=m`: one per write, except for identities,
/// where every fifth write removes the identity the write before it made.
pub fn expected(store: Store, m: u64) -> BTreeSet<u64> {
    match store {
        Store::Identities => (1..=m)
            .filter(|&k| {
                let removal = k.is_multiple_of(REMOVE_EVERY);
                let removed = k < m && (k + 1).is_multiple_of(REMOVE_EVERY);
                !removal && !removed
            })
            .collect(),
        _ => (1..=m).collect(),
    }
}

/// The verdict on one kill: what the check found against what the writer acknowledged.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Verdict {
    /// The store opened.
    pub opened: bool,
    /// Records that are not whole.
    pub partial: usize,
    /// Acknowledged writes whose effect is missing (a record gone, or back after its removal).
    pub lost: usize,
    /// Records that no write made (cannot happen unless the check misreads the store).
    pub phantom: usize,
    /// The writes the store's state is the result of (the next writer starts after them).
    pub last: u64,
    /// What went wrong, for the report.
    pub notes: Vec<String>,
}

/// Judge `found` against `acked` (every write up to it was acknowledged): the store holds what
/// writes `1..=acked` make, or `1..=acked + 1` (that one was in flight).
pub fn judge(store: Store, found: &Result<Found, StoreError>, acked: u64) -> Verdict {
    let found = match found {
        Ok(f) => f,
        Err(e) => {
            return Verdict {
                notes: vec![format!("does not open: {e}")],
                last: acked,
                ..Verdict::default()
            };
        }
    };
    let (done, in_flight) = (expected(store, acked), expected(store, acked + 1));
    let mut notes = found.partial.clone();
    let (mut lost, mut phantom, mut last) = (0, 0, acked);
    if found.present == in_flight {
        last = acked + 1;
    } else if found.present != done {
        let missing: Vec<u64> = done.difference(&found.present).copied().collect();
        let extra: Vec<u64> = found
            .present
            .iter()
            .filter(|n| !done.contains(n) && !in_flight.contains(n))
            .copied()
            .collect();
        // A record present though an acknowledged write removed it.
        let back: Vec<u64> = found
            .present
            .iter()
            .filter(|n| **n <= acked && !done.contains(n))
            .copied()
            .collect();
        lost = missing.len() + back.len();
        phantom = extra.len() - back.len();
        notes.push(format!(
            "after {acked} acknowledged writes: missing {missing:?}, still there after removal \
             {back:?}, never written {:?}",
            extra
                .iter()
                .filter(|n| !back.contains(n))
                .collect::<Vec<_>>()
        ));
    }
    Verdict {
        opened: true,
        partial: found.partial.len(),
        lost,
        phantom,
        last,
        notes,
    }
}
