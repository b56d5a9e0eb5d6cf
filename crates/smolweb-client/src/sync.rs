//! `smolweb sync`: fetch what the person follows into the offline cache, for cron or a
//! systemd timer, while the browser may be running.
//!
//! One run ([`run`]):
//! 1. refreshes every subscription through [`feeds::refresh_all`] (the same code as
//!    `smolweb feeds refresh`, merged into `subscriptions.toml` under its lock, so a browser
//!    drawing `about:feeds` next reads the new entries from the file), and reads which need
//!    attention ([`Report::sick`]);
//! 2. fetches the pages waiting in the sync queue (`sync_queue.toml`, oldest first): one that
//!    is kept is taken off; one that failed for a reason that may pass (the network, a 4x
//!    temporary failure, a 44) stays with its try counted and is dropped at the third; one
//!    that can never be kept (refused by the rules, a permanent failure) is dropped at once;
//! 3. fetches every unread entry that has no offline copy yet, newest first, taking one host
//!    after another in turn;
//! 4. for subscriptions with links on ([`Subscription::sync_links`], default
//!    `[sync] follow_links`), the pages of the same capsule (scheme, host and port) each kept
//!    entry links to, one level, at most [`MAX_SAVED_LINKS`] per entry; an unread entry kept
//!    by an earlier run gives its links from its kept copy (links turned on since, or a link
//!    whose fetch failed then).
//!
//! Every page is fetched as the person's (human face) through [`Client::open_following`]
//! and kept through [`Client::keep_offline`], so the rules of what may be kept
//! ([`Client::offline_refusal`]) and the `[offline] max_bytes` bound apply as for a visit; a page
//! the rules refuse (a web page while those are not kept, a query) is counted as skipped with
//! the reason, as is an entry or link the capsule answers with a lasting failure (51, input, a
//! certificate request, a redirect to another server): a broken link that a later sync cannot
//! mend. What may pass (the network, a 4x) and our own refusals (TLS, a changed certificate)
//! are failures. Each fetch first takes its host's turn from the client's batch pacer (the one
//! used by feed refreshes, `[politeness] per_host_interval_ms` apart), and the fetch itself
//! honours a 44 SLOW DOWN through the client's pacer: a host that asked for a pause longer
//! than the request's budget is not asked again in this run.
//!
//! Bounds ([`Limits`]): a deadline and a byte count (body bytes of the pages downloaded,
//! checked before each fetch), and a stop signal (Ctrl-C). When one is reached the run stops
//! between two steps, or drops the fetch in flight (nothing is half written: the stores write
//! whole files), and [`Report::left`] says how many pages were not tried.

use super::feeds::{self, NoPage};
use super::offline::{MAX_SAVED_LINKS, SaveFailure, same_site_links};
use super::{Client, OpenOptions, Outcome};
use smolweb_core::page::Page;
use smolweb_core::url::Url;
use smolweb_net::FetchError;
use smolweb_store::StoreError;
use smolweb_store::sync_queue::{MAX_TRIES, SyncQueue};
use std::collections::{BTreeMap, HashSet, VecDeque};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Most same-host redirects followed to reach a page.
const MAX_REDIRECTS: usize = 5;

/// What bounds one run.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Stop at this instant (None: no time bound).
    pub deadline: Option<Instant>,
    /// Stop before a fetch once this many body bytes were downloaded (None: no byte bound).
    pub max_bytes: Option<u64>,
    /// Follow the links of entries (for subscriptions with links on): false is `--depth 0`.
    pub follow_links: bool,
}

impl Limits {
    /// The bounds of `[sync]` in the client's config, from `start` (0 there is no bound).
    pub fn from_config(client: &Client, start: Instant) -> Limits {
        let sync = &client.config().sync;
        Limits {
            deadline: (sync.max_seconds > 0).then(|| start + Duration::from_secs(sync.max_seconds)),
            max_bytes: (sync.max_bytes > 0).then_some(sync.max_bytes),
            follow_links: true,
        }
    }
}

/// Why a run stopped before its work was done.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stopped {
    /// The deadline passed.
    Time,
    /// The byte bound was reached.
    Bytes,
    /// The stop signal was given (Ctrl-C).
    Interrupted,
}

/// Where one page to fetch came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// The sync queue.
    Queued,
    /// An entry of a subscription.
    Entry,
    /// A same-capsule page an entry links to.
    Link,
}

/// The step a run is at, for a progress line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// Refreshing the subscriptions: `done` of `total` feeds.
    Refreshing {
        /// Feeds answered.
        done: usize,
        /// Feeds followed.
        total: usize,
        /// The first feed (in the subscriptions' order) not answered yet: the one a slow
        /// run waits on. None when all have answered.
        waiting: Option<String>,
    },
    /// Fetching pages: `done` of `total` known so far (links add to it).
    Fetching {
        /// Pages tried.
        done: usize,
        /// Pages to try, as known now.
        total: usize,
        /// Body bytes downloaded so far.
        bytes: u64,
    },
}

/// Why a page was not kept.
#[derive(Debug, thiserror::Error)]
pub enum PageFailure {
    /// The fetch gave no page, or the copy could not be written.
    #[error(transparent)]
    Save(#[from] SaveFailure),
    /// The sync queue could not record the try.
    #[error("the sync queue could not be updated: {0}")]
    Queue(#[source] StoreError),
}

/// A page that was not kept, and why.
#[derive(Debug)]
pub struct NotKept {
    /// The page.
    pub url: String,
    /// Where it came from.
    pub origin: Origin,
    /// Why.
    pub why: PageFailure,
}

/// A feed whose refresh failed.
#[derive(Debug)]
pub struct FeedFailure {
    /// The subscription's URL.
    pub url: String,
    /// Why (one line).
    pub why: feeds::RefreshError,
}

/// What one run did.
#[derive(Debug, Default)]
pub struct Report {
    /// Feeds refreshed (successes and failures).
    pub feeds: usize,
    /// Feeds whose refresh failed (their old entries are kept).
    pub feeds_failed: Vec<FeedFailure>,
    /// Entries the refresh saw for the first time.
    pub new_entries: usize,
    /// Pages kept offline (from the queue, entries and links).
    pub kept: usize,
    /// Body bytes of the pages kept.
    pub kept_bytes: u64,
    /// Body bytes of every page downloaded (kept or not; what the byte bound counts).
    pub downloaded: u64,
    /// Pages of the queue kept (and taken off it).
    pub queued_fetched: usize,
    /// Pages not kept by the rules (a web page, a binary, larger than the offline bound, ...),
    /// and entries or links the capsule answers with a lasting failure (a 51, input, a
    /// redirect elsewhere), with the reason.
    pub skipped: Vec<NotKept>,
    /// Pages whose fetch failed.
    pub failed: Vec<NotKept>,
    /// Queued pages given up (the third failed try, or a failure that will not pass).
    pub dropped: Vec<String>,
    /// Pages not tried because the run stopped.
    pub left: usize,
    /// Feeds not refreshed because the run stopped during the refresh.
    pub feeds_left: usize,
    /// Why the run stopped early (None: all done).
    pub stopped: Option<Stopped>,
    /// The subscriptions that need attention after the refresh ([`super::health`]), with
    /// what is wrong.
    pub sick: Vec<Sick>,
}

/// A subscription that needs attention.
#[derive(Clone, Debug)]
pub struct Sick {
    /// The subscription's URL.
    pub url: String,
    /// What is wrong.
    pub signs: Vec<super::health::Sign>,
}

/// Why a run could not start.
#[derive(Debug, thiserror::Error)]
pub enum SyncError {
    /// The subscriptions, the queue or the offline index could not be read.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// One page to fetch.
#[derive(Clone, Debug)]
struct Job {
    url: String,
    origin: Origin,
    /// Keep the pages it links to (an entry of a subscription with links on).
    links: bool,
}

/// What watches the bounds during a run.
struct Guard<'a> {
    limits: &'a Limits,
    stop: tokio::sync::watch::Receiver<bool>,
}

impl Guard<'_> {
    /// The bound reached now, if any (bytes as downloaded so far).
    fn reached(&self, downloaded: u64) -> Option<Stopped> {
        if *self.stop.borrow() {
            return Some(Stopped::Interrupted);
        }
        if self.limits.deadline.is_some_and(|d| Instant::now() >= d) {
            return Some(Stopped::Time);
        }
        if self.limits.max_bytes.is_some_and(|m| downloaded >= m) {
            return Some(Stopped::Bytes);
        }
        None
    }

    /// Run `work` unless the deadline or the stop signal comes first.
    async fn race<T>(&mut self, work: impl Future<Output = T>) -> Result<T, Stopped> {
        let deadline = self.limits.deadline;
        let sleep = async move {
            match deadline {
                Some(d) => tokio::time::sleep_until(d.into()).await,
                None => std::future::pending().await,
            }
        };
        let mut stop = self.stop.clone();
        tokio::select! {
            out = work => Ok(out),
            () = sleep => Err(Stopped::Time),
            _ = stop.wait_for(|s| *s) => Err(Stopped::Interrupted),
        }
    }
}

/// True when a failed fetch may succeed at a later sync: the network did not answer, the
/// capsule asked to slow down, or it answered with a temporary failure (4x; on the web
/// 408, 429 and 5xx, which the reader maps to 40).
fn may_pass(outcome: &Outcome) -> bool {
    match outcome {
        Outcome::Error { error, .. } => {
            super::offline::is_network_failure(error)
                || matches!(
                    error,
                    FetchError::SlowDown { .. } | FetchError::RobotsUnavailable { .. }
                )
        }
        Outcome::Failure { status, .. } => (40..50).contains(status),
        _ => false,
    }
}

/// The key a URL is kept offline under (its normalized form), None when it does not parse.
fn offline_key(url: &str) -> Option<String> {
    Url::parse(url).ok().map(|u| u.to_string())
}

/// Order pages so hosts take turns (the first page of each host, then the second, ...),
/// keeping each host's own order: while one host's pacing interval runs, another is asked.
fn interleave(jobs: Vec<Job>) -> VecDeque<Job> {
    let mut by_host: BTreeMap<String, VecDeque<Job>> = BTreeMap::new();
    let mut hosts: Vec<String> = Vec::new();
    for j in jobs {
        let h = feeds::host_of(&j.url);
        if !by_host.contains_key(&h) {
            hosts.push(h.clone());
        }
        by_host.entry(h).or_default().push_back(j);
    }
    let mut out = VecDeque::new();
    loop {
        let mut any = false;
        for h in &hosts {
            if let Some(j) = by_host.get_mut(h).and_then(VecDeque::pop_front) {
                out.push_back(j);
                any = true;
            }
        }
        if !any {
            return out;
        }
    }
}

/// What fetching and keeping one page gave.
enum Kept {
    /// Kept; the page (for its links) and its size.
    Yes(Arc<Page>, u64),
    /// Fetched, not kept by the rules.
    Skipped(SaveFailure),
    /// No page; `may_pass` says whether a later try may do better.
    Failed(SaveFailure, bool),
    /// The capsule's own lasting answer instead of a page (a permanent failure, input, a
    /// certificate request, a redirect elsewhere): a broken link in a feed, not a failure of
    /// the sync.
    Answered(SaveFailure),
}

/// Fetch one page and keep it through the client's keep path; `downloaded` grows by its body.
async fn fetch_and_keep(client: &Client, url: &str, downloaded: &mut u64) -> Kept {
    let opts = OpenOptions {
        refresh: true,
        ..OpenOptions::default()
    };
    client.batch_turn(url).await;
    let (outcome, _) = client.open_following(url, &opts, MAX_REDIRECTS).await;
    let Outcome::Page { fetched, .. } = &outcome else {
        let again = may_pass(&outcome);
        let answered = match &outcome {
            Outcome::Failure { .. } => !again,
            Outcome::Input { .. } | Outcome::Certificate { .. } | Outcome::Redirect { .. } => true,
            _ => false,
        };
        let why = NoPage::of(outcome).into();
        return if answered {
            Kept::Answered(why)
        } else {
            Kept::Failed(why, again)
        };
    };
    let page = fetched.page.clone();
    let bytes = page.raw.len() as u64;
    if !fetched.cached {
        *downloaded += bytes;
    }
    if let Some(why) = client.offline_refusal(&opts, &outcome, false) {
        return Kept::Skipped(SaveFailure::Refused(why));
    }
    match client.keep_offline(&opts, &outcome) {
        Ok(true) => Kept::Yes(page, bytes),
        Ok(false) => Kept::Skipped(SaveFailure::Refused(
            "larger than the whole offline cache ([offline] max_bytes)",
        )),
        Err(e) => Kept::Failed(offline_error(e), false),
    }
}

fn offline_error(e: super::offline::OfflineError) -> SaveFailure {
    match e {
        super::offline::OfflineError::Store(s) => SaveFailure::Store(s),
        super::offline::OfflineError::NotSaved { reason, .. } => reason,
    }
}

impl Client {
    /// Queue `url` for the next sync (`from`: the page it was found on); a page already
    /// waiting keeps its place. Returns whether it was new.
    pub fn queue_for_sync(&self, url: &str, from: Option<&str>) -> Result<bool, StoreError> {
        SyncQueue::new(self.paths().sync_queue()).add(url, from, self.now())
    }
}

/// Run one sync (see the module docs). `stop` turning true stops it cleanly;
/// `on_step` hears of progress. Fails only when a store cannot be read at the start; every
/// later problem is counted in the [`Report`].
pub async fn run(
    client: &Arc<Client>,
    limits: &Limits,
    stop: tokio::sync::watch::Receiver<bool>,
    mut on_step: impl FnMut(Step),
) -> Result<Report, SyncError> {
    let mut report = Report::default();
    let mut guard = Guard { limits, stop };
    let feed_urls: Vec<String> = client
        .subscriptions()
        .list()?
        .into_iter()
        .map(|s| s.url)
        .collect();
    let total_feeds = feed_urls.len();

    // 1. The feeds.
    if let Some(why) = guard.reached(0) {
        report.stopped = Some(why);
        report.feeds_left = total_feeds;
        return Ok(report);
    }
    on_step(Step::Refreshing {
        done: 0,
        total: total_feeds,
        waiting: feed_urls.first().cloned(),
    });
    let mut feeds_done = 0;
    let mut answered: HashSet<String> = HashSet::new();
    let refreshed = guard
        .race(feeds::refresh_all(client, |done, total, r| {
            feeds_done = done;
            answered.insert(r.url.clone());
            let waiting = feed_urls.iter().find(|u| !answered.contains(*u)).cloned();
            on_step(Step::Refreshing {
                done,
                total,
                waiting,
            });
        }))
        .await;
    match refreshed {
        Ok(results) => {
            for r in results? {
                report.feeds += 1;
                report.new_entries += r.new_entries.len();
                if let Some(why) = r.error {
                    report.feeds_failed.push(FeedFailure { url: r.url, why });
                }
            }
            let now = client.now();
            report.sick = client
                .subscriptions()
                .list()?
                .iter()
                .map(|s| Sick {
                    url: s.url.clone(),
                    signs: super::health::health(s, now).signs,
                })
                .filter(|s| !s.signs.is_empty())
                .collect();
        }
        Err(why) => {
            // The answers merged so far are in the store; the others were not recorded.
            report.stopped = Some(why);
            report.feeds = feeds_done;
            report.feeds_left = total_feeds.saturating_sub(feeds_done);
            return Ok(report);
        }
    }

    // 2-4. The pages: queue first (the person asked for each), then entries, then links.
    let kept_now: HashSet<String> = client
        .offline()
        .list()?
        .into_iter()
        .map(|e| e.url)
        .collect();
    let queue = SyncQueue::new(client.paths().sync_queue());
    let mut planned: HashSet<String> = HashSet::new();
    let mut jobs: Vec<Job> = Vec::new();
    for q in queue.list()? {
        let key = offline_key(&q.url).unwrap_or_else(|| q.url.clone());
        if kept_now.contains(&key) {
            // Kept since it was queued (visited, saved): nothing to fetch.
            queue.take(&q.url)?;
            continue;
        }
        if planned.insert(key) {
            jobs.push(Job {
                url: q.url,
                origin: Origin::Queued,
                links: false,
            });
        }
    }
    let mut queued_jobs = interleave(jobs);
    let (entries, kept_entries) = entries_to_fetch(client, limits, &kept_now, &mut planned)?;
    let mut entry_jobs = interleave(entries);
    // Entries kept by an earlier run still owe the links it could not keep (links turned on
    // since, a link whose fetch failed): read from their kept copies, no fetch.
    let mut link_jobs: VecDeque<Job> = VecDeque::new();
    for url in kept_entries {
        if let Ok(Some(copy)) = client.offline_copy(&url) {
            plan_links(&copy.fetched.page, &kept_now, &mut planned, &mut link_jobs);
        }
    }
    let mut done = 0;
    loop {
        let job = match queued_jobs.pop_front() {
            Some(j) => j,
            None => match entry_jobs.pop_front() {
                Some(j) => j,
                None => match link_jobs.pop_front() {
                    Some(j) => j,
                    None => break,
                },
            },
        };
        let total = done + 1 + queued_jobs.len() + entry_jobs.len() + link_jobs.len();
        on_step(Step::Fetching {
            done,
            total,
            bytes: report.downloaded,
        });
        if let Some(why) = guard.reached(report.downloaded) {
            report.stopped = Some(why);
            report.left = total - done;
            return Ok(report);
        }
        let mut downloaded = report.downloaded;
        let result = guard
            .race(fetch_and_keep(client, &job.url, &mut downloaded))
            .await;
        report.downloaded = downloaded;
        let kept = match result {
            Ok(k) => k,
            Err(why) => {
                report.stopped = Some(why);
                report.left = total - done;
                return Ok(report);
            }
        };
        done += 1;
        match kept {
            Kept::Yes(page, bytes) => {
                report.kept += 1;
                report.kept_bytes += bytes;
                if job.origin == Origin::Queued {
                    report.queued_fetched += 1;
                    if let Err(e) = queue.take(&job.url) {
                        report.failed.push(not_kept(&job, PageFailure::Queue(e)));
                    }
                }
                if job.links {
                    plan_links(&page, &kept_now, &mut planned, &mut link_jobs);
                }
            }
            Kept::Skipped(why) => {
                if job.origin == Origin::Queued {
                    // The rules will refuse it at every sync: it leaves the queue.
                    drop_queued(&queue, &job, &mut report);
                }
                report.skipped.push(not_kept(&job, why.into()));
            }
            Kept::Answered(why) if job.origin != Origin::Queued => {
                report.skipped.push(not_kept(&job, why.into()));
            }
            Kept::Answered(why) => {
                drop_queued(&queue, &job, &mut report);
                report.failed.push(not_kept(&job, why.into()));
            }
            Kept::Failed(why, again) => {
                if job.origin == Origin::Queued {
                    let tried = if again {
                        queue.failed(&job.url)
                    } else {
                        queue.take(&job.url).map(|_| Some(MAX_TRIES))
                    };
                    match tried {
                        Ok(Some(n)) if n >= MAX_TRIES => report.dropped.push(job.url.clone()),
                        Ok(_) => {}
                        Err(e) => report.failed.push(not_kept(&job, PageFailure::Queue(e))),
                    }
                }
                report.failed.push(not_kept(&job, why.into()));
            }
        }
    }
    on_step(Step::Fetching {
        done,
        total: done,
        bytes: report.downloaded,
    });
    Ok(report)
}

/// Plan the same-capsule pages `page` links to that are neither kept nor planned yet.
fn plan_links(
    page: &Page,
    kept_now: &HashSet<String>,
    planned: &mut HashSet<String>,
    link_jobs: &mut VecDeque<Job>,
) {
    for link in same_site_links(page).into_iter().take(MAX_SAVED_LINKS) {
        if !kept_now.contains(&link) && planned.insert(link.clone()) {
            link_jobs.push_back(Job {
                url: link,
                origin: Origin::Link,
                links: false,
            });
        }
    }
}

fn not_kept(job: &Job, why: PageFailure) -> NotKept {
    NotKept {
        url: job.url.clone(),
        origin: job.origin,
        why,
    }
}

fn drop_queued(queue: &SyncQueue, job: &Job, report: &mut Report) {
    match queue.take(&job.url) {
        Ok(_) => report.dropped.push(job.url.clone()),
        Err(e) => report.failed.push(not_kept(job, PageFailure::Queue(e))),
    }
}

/// The unread entries with no offline copy, newest first, not planned yet (each URL once),
/// without the ones with a query (never kept); and the unread entries already kept whose
/// links are to be kept too.
fn entries_to_fetch(
    client: &Client,
    limits: &Limits,
    kept_now: &HashSet<String>,
    planned: &mut HashSet<String>,
) -> Result<(Vec<Job>, Vec<String>), StoreError> {
    let default_links = client.config().sync.follow_links;
    let mut found = Vec::new();
    let mut kept_with_links = Vec::new();
    for sub in client.subscriptions().list()? {
        let links = limits.follow_links && sub.sync_links.unwrap_or(default_links);
        for e in sub.entries.iter().filter(|e| !e.read) {
            let Some(key) = offline_key(&e.url) else {
                continue;
            };
            if key.contains('?') {
                continue;
            }
            if kept_now.contains(&key) {
                if links {
                    kept_with_links.push(key);
                }
                continue;
            }
            found.push((e.sort_key().into_owned(), key, links));
        }
    }
    found.sort_by(|a, b| b.0.cmp(&a.0));
    let mut jobs = Vec::new();
    for (_, url, links) in found {
        if planned.insert(url.clone()) {
            jobs.push(Job {
                url,
                origin: Origin::Entry,
                links,
            });
        }
    }
    Ok((jobs, kept_with_links))
}

/// The `about:offline` section listing the sync queue ("Waiting for the next sync"): each page
/// with when it was queued and, after failed tries, how many. Empty when nothing waits.
pub(crate) fn queue_section(queued: &[smolweb_store::sync_queue::Queued]) -> String {
    if queued.is_empty() {
        return String::new();
    }
    let mut out = format!(
        "\n## Waiting for the next sync\n\n{} to fetch into the offline cache at the next `smolweb sync`:\n\n",
        smolweb_core::text::count(queued.len(), "page", "pages")
    );
    for q in queued {
        let tries = match q.tries {
            0 => String::new(),
            n => format!(
                ", {} failed",
                smolweb_core::text::count(n as usize, "try", "tries")
            ),
        };
        out.push_str(&format!(
            "=> {} {} (queued {}{tries})\n",
            q.url,
            smolweb_core::text::one_line(&q.url, None),
            smolweb_core::text::rfc3339(q.at)
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use smolweb_store::sync_queue::Queued;

    fn job(url: &str) -> Job {
        Job {
            url: url.into(),
            origin: Origin::Entry,
            links: false,
        }
    }

    #[test]
    fn hosts_take_turns_and_keep_their_own_order() {
        let jobs = vec![
            job("gemini://a.test/1"),
            job("gemini://a.test/2"),
            job("gemini://a.test/3"),
            job("gopher://b.test/0/1"),
            job("gemini://c.test/1"),
        ];
        let order: Vec<String> = interleave(jobs).into_iter().map(|j| j.url).collect();
        assert_eq!(
            order,
            [
                "gemini://a.test/1",
                "gopher://b.test/0/1",
                "gemini://c.test/1",
                "gemini://a.test/2",
                "gemini://a.test/3"
            ]
        );
    }

    #[test]
    fn what_may_pass_is_retried_and_the_rest_is_not() {
        let info = crate::RequestInfo::default();
        let err = |error| Outcome::Error {
            info: info.clone(),
            error,
        };
        let fail = |status| Outcome::Failure {
            info: info.clone(),
            status,
            meta: String::new(),
            retry_after_seconds: None,
        };
        assert!(may_pass(&err(FetchError::Timeout(Duration::from_secs(1)))));
        assert!(may_pass(&err(FetchError::SlowDown {
            retry_after_seconds: 9
        })));
        assert!(may_pass(&fail(41)));
        assert!(!may_pass(&fail(51)));
        assert!(!may_pass(&err(FetchError::Tls(
            smolweb_net::TlsError::NoCertificate
        ))));
    }

    #[test]
    fn the_queue_section_lists_each_page_with_its_time_and_tries() {
        assert_eq!(queue_section(&[]), "");
        let at = time::macros::datetime!(2027-01-15 08:00 UTC);
        let q = [
            Queued {
                url: "gemini://a.test/one".into(),
                at,
                from: None,
                tries: 0,
            },
            Queued {
                url: "gopher://b.test/0/two".into(),
                at,
                from: Some("gopher://b.test/".into()),
                tries: 2,
            },
        ];
        let s = queue_section(&q);
        assert!(s.contains("## Waiting for the next sync"), "{s}");
        assert!(s.contains("2 pages to fetch"), "{s}");
        assert!(
            s.contains(
                "=> gemini://a.test/one gemini://a.test/one (queued 2027-01-15T08:00:00Z)\n"
            ),
            "{s}"
        );
        assert!(
            s.contains("(queued 2027-01-15T08:00:00Z, 2 tries failed)"),
            "{s}"
        );
    }
}
