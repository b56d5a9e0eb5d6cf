//! Carrying out effects: fetches as tokio tasks (abortable, with a byte counter), store
//! operations (locked file writes, in order on a store thread), downloads and external
//! programs. Every result goes back to the app as a message on the channel. Feed and offline
//! work is in `feeds`.

mod feeds;

use crate::app::{Effect, FetchOptions, Msg, ShellError, StoreOp};
use smolweb_client::{Client, Decider, OpenOptions, Outcome, about};
use smolweb_core::page::Page;
use smolweb_core::url::{Scheme, Url};
use smolweb_store::tofu::CertInfo;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;
use tokio::sync::{mpsc, watch};

struct Task {
    handle: tokio::task::JoinHandle<()>,
    progress: watch::Receiver<u64>,
}

pub(super) struct Shell {
    client: Arc<Client>,
    tx: mpsc::UnboundedSender<Msg>,
    tasks: HashMap<u64, Task>,
    /// Store work (locked, fsynced file writes, downloads) runs in order on its own thread,
    /// so no write ever stalls a frame. None when the thread could not start: every store
    /// operation then reports that it was not done.
    jobs: Option<std::sync::mpsc::Sender<Job>>,
    /// The refresh of all feeds, while it runs.
    feed_refresh: Option<tokio::task::JoinHandle<()>>,
    /// Texts the app asked to edit, for the loop (which owns the terminal) to hand over.
    edits: std::collections::VecDeque<(crate::app::Purpose, String)>,
}

/// Why an inline picture's link gave no picture, in a few words (no remote text).
fn inline_failure(outcome: &Outcome) -> String {
    match outcome {
        Outcome::Page { .. } => "not a picture".into(),
        Outcome::Input { .. } => "the link asks for input".into(),
        Outcome::Redirect { .. } => "the link redirects (follow it to see)".into(),
        Outcome::Certificate { status, .. } => {
            format!("the capsule asks for a certificate ({status})")
        }
        Outcome::Failure { status, .. } => format!("the capsule answered {status}"),
        Outcome::Error { error, .. } => error.to_string(),
    }
}

/// Work for the store thread.
enum Job {
    Op(StoreOp),
    PollStores,
    Save {
        page: Arc<Page>,
        name: String,
    },
    Open {
        page: Arc<Page>,
        name: String,
    },
    Feed(feeds::FeedJob),
    /// Store work of a feed effect, whose answer an async task awaits.
    Call(Box<dyn FnOnce(&Client) + Send>),
}

impl Shell {
    pub(super) fn new(client: Arc<Client>, tx: mpsc::UnboundedSender<Msg>) -> Shell {
        let (jobs, queue) = std::sync::mpsc::channel::<Job>();
        let mut worker = StoreWorker {
            client: Arc::clone(&client),
            tx: tx.clone(),
            identities: None,
            agents: AgentsCache::default(),
        };
        // The thread ends when the Shell (the only sender) is dropped.
        let started = std::thread::Builder::new()
            .name("smolweb-store".into())
            .spawn(move || {
                for job in queue {
                    match job {
                        Job::Op(op) => worker.store(op),
                        Job::PollStores => worker.poll(),
                        Job::Save { page, name } => worker.save(&page, &name),
                        Job::Open { page, name } => worker.open(&page, &name),
                        Job::Feed(job) => worker.feed_job(job),
                        Job::Call(work) => work(&worker.client),
                    }
                }
            });
        let jobs = match started {
            Ok(_) => Some(jobs),
            Err(e) => {
                let _ = tx.send(Msg::Done(Err(ShellError::NoStoreThread(Arc::new(e)))));
                None
            }
        };
        Shell {
            client,
            tx,
            tasks: HashMap::new(),
            jobs,
            feed_refresh: None,
            edits: Default::default(),
        }
    }

    /// Hand work to the store thread, or say why it cannot be done.
    fn job(&self, job: Job) {
        if let Err(e) = send_job(self.jobs.as_ref(), job) {
            self.send(Msg::Done(Err(e)));
        }
    }

    fn send(&self, msg: Msg) {
        let _ = self.tx.send(msg);
    }

    pub(super) fn run(&mut self, _app: &crate::app::App, fx: Vec<Effect>) {
        for e in fx {
            self.effect(e);
        }
    }

    fn effect(&mut self, e: Effect) {
        match e {
            Effect::Fetch { id, url, opts } => self.fetch(id, url, opts),
            Effect::Cancel { id } => {
                if let Some(t) = self.tasks.remove(&id) {
                    t.handle.abort();
                }
            }
            Effect::OpenExternal { url } => {
                // The last gate before a program runs: whatever asked, only the web and mail.
                let r = if smolweb_core::url::opener_may_receive(&url) {
                    open_external(&self.client.config().tui.external_command, &url)
                } else {
                    let scheme = url.split(':').next().unwrap_or_default();
                    Err(ShellError::NotOpened {
                        scheme: smolweb_core::text::sanitize_line(scheme).into_owned(),
                    })
                };
                self.send(Msg::Done(r));
            }
            Effect::DecodePicture { key, page } => {
                // Decoding is CPU work: a blocking-pool thread, never the loop's.
                let tx = self.tx.clone();
                tokio::task::spawn_blocking(move || {
                    let result = crate::picture::decode(&page.raw);
                    let _ = tx.send(Msg::Picture { key, result });
                });
            }
            Effect::FetchPicture { key } => {
                let (client, tx) = (Arc::clone(&self.client), self.tx.clone());
                tokio::spawn(async move {
                    let outcome = client.open(&key, &OpenOptions::default()).await;
                    let page = match outcome {
                        Outcome::Page { fetched, .. } => fetched.page,
                        other => {
                            let why = inline_failure(&other);
                            let result = Err(crate::picture::PictureError::NotFetched(why));
                            let _ = tx.send(Msg::Picture { key, result });
                            return;
                        }
                    };
                    let decoded =
                        tokio::task::spawn_blocking(move || crate::picture::decode(&page.raw));
                    let result = match decoded.await {
                        Ok(r) => r,
                        Err(_) => Err(crate::picture::PictureError::NotFetched(
                            "the decoder stopped".into(),
                        )),
                    };
                    let _ = tx.send(Msg::Picture { key, result });
                });
            }
            Effect::Save { page, name } => self.job(Job::Save { page, name }),
            Effect::Open { page, name } => self.job(Job::Open { page, name }),
            Effect::Copy { text } => {
                use std::io::Write;
                let mut out = std::io::stdout();
                let _ = out.write_all(osc52(&text).as_bytes());
                let _ = out.flush();
            }
            Effect::Store(op) => self.job(Job::Op(op)),
            Effect::Quit => {}
            Effect::WorkOffline(on) => self.client.set_work_offline(on),
            Effect::Feeds(op) => self.feed_op(op),
            Effect::EditText { purpose, initial } => self.edits.push_back((purpose, initial)),
            Effect::ReadUploadFile { path, max } => {
                let tx = self.tx.clone();
                tokio::task::spawn_blocking(move || {
                    let result = read_upload(&path, max);
                    let _ = tx.send(Msg::UploadFile { path, result });
                });
            }
            Effect::Upload { id, upload } => self.upload(id, *upload),
        }
    }

    /// Send a Titan upload in a task (abortable like a fetch); its answer comes back as a
    /// fetch's does.
    fn upload(&mut self, id: u64, upload: smolweb_client::smallnet::Upload) {
        let (_ptx, prx) = watch::channel(0u64);
        let client = Arc::clone(&self.client);
        let tx = self.tx.clone();
        let handle = tokio::spawn(async move {
            let outcome = client.titan_upload(&upload).await;
            drop(upload);
            let _ = tx.send(Msg::Fetched {
                id,
                outcome: Box::new(outcome),
            });
        });
        self.tasks.retain(|_, t| !t.handle.is_finished());
        self.tasks.insert(
            id,
            Task {
                handle,
                progress: prx,
            },
        );
    }

    /// The next text to edit in the person's editor.
    pub(super) fn take_edit(&mut self) -> Option<(crate::app::Purpose, String)> {
        self.edits.pop_front()
    }

    fn fetch(&mut self, id: u64, url: String, opts: FetchOptions) {
        let (ptx, prx) = watch::channel(0u64);
        let client = Arc::clone(&self.client);
        let tx = self.tx.clone();
        let jobs = self.jobs.clone();
        let handle = tokio::spawn(async move {
            let after = opts.clone();
            let outcome = match builtin(&client, &url) {
                Some(o) => o,
                None => {
                    let open = OpenOptions {
                        input: opts.input,
                        search: opts.search,
                        refresh: opts.refresh,
                        identity: opts.identity,
                        trust_once: opts.trust_once,
                        progress: Some(ptx),
                        web_full: opts.web_full,
                        finger_forward: opts.typed,
                        waits: None,
                    };
                    client.open(&url, &open).await
                }
            };
            let visit = feeds::FeedJob::visited(&url, &after, &outcome);
            let _ = tx.send(Msg::Fetched {
                id,
                outcome: Box::new(outcome),
            });
            if let (Some(jobs), Some(visit)) = (jobs, visit) {
                let _ = jobs.send(visit);
            }
        });
        self.tasks.retain(|_, t| !t.handle.is_finished());
        self.tasks.insert(
            id,
            Task {
                handle,
                progress: prx,
            },
        );
    }

    /// Send byte counts of loads that moved since the last tick.
    pub(super) fn report_progress(&mut self) {
        for (id, t) in &mut self.tasks {
            if t.progress.has_changed().unwrap_or(false) {
                let bytes = *t.progress.borrow_and_update();
                let _ = self.tx.send(Msg::Progress { id: *id, bytes });
            }
        }
    }

    /// Ask the store thread for what other processes may have changed (pending agent
    /// requests, identities), answered as messages.
    pub(super) fn poll_stores(&self) {
        if let Some(jobs) = &self.jobs {
            let _ = jobs.send(Job::PollStores);
        }
    }

    /// The browser is leaving: its heartbeat goes from the presence file (agents' show_to_user
    /// then says no browser runs).
    pub(super) fn leave(&self) {
        let _ = self.client.browser_leaving();
    }

    pub(super) fn abort_all(&mut self) {
        for (_, t) in self.tasks.drain() {
            t.handle.abort();
        }
    }
}

/// `~` and `~/…` are the home directory (as a shell would have it).
fn expand_home(path: &str, home: Option<std::ffi::OsString>) -> PathBuf {
    match (path.strip_prefix('~'), home) {
        (Some(rest), Some(home)) if rest.is_empty() || rest.starts_with('/') => {
            PathBuf::from(home).join(rest.trim_start_matches('/'))
        }
        _ => PathBuf::from(path),
    }
}

/// Read the file to upload: its size checked before it is read, and again while reading (it
/// may grow), so a file over `max` is never read whole.
fn read_upload(typed: &str, max: u64) -> Result<Vec<u8>, ShellError> {
    use std::io::Read;
    let path = expand_home(typed, std::env::var_os("HOME"));
    let fail = |e: std::io::Error| ShellError::UploadRead {
        path: path.clone(),
        source: Arc::new(e),
    };
    let file = std::fs::File::open(&path).map_err(fail)?;
    let meta = file.metadata().map_err(fail)?;
    if !meta.is_file() {
        let e = std::io::Error::new(std::io::ErrorKind::InvalidInput, "not a regular file");
        return Err(fail(e));
    }
    let too_large = |size: u64| ShellError::UploadTooLarge {
        path: path.clone(),
        size,
        max,
    };
    if meta.len() > max {
        return Err(too_large(meta.len()));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(max + 1).read_to_end(&mut bytes).map_err(fail)?;
    if bytes.len() as u64 > max {
        return Err(too_large(bytes.len() as u64));
    }
    Ok(bytes)
}

/// Hand work to the store thread (None: it did not start, which was reported then).
fn send_job(jobs: Option<&std::sync::mpsc::Sender<Job>>, job: Job) -> Result<(), ShellError> {
    jobs.ok_or(ShellError::StoreThreadStopped)?
        .send(job)
        .map_err(|_| ShellError::StoreThreadStopped)
}

fn downloads_dir(client: &Client) -> PathBuf {
    let configured = &client.config().tui.downloads_dir;
    if configured.is_empty() {
        client.paths().downloads_dir.clone()
    } else {
        PathBuf::from(configured)
    }
}

/// Runs store operations on the store thread and reports back on the message channel.
struct StoreWorker {
    client: Arc<Client>,
    tx: mpsc::UnboundedSender<Msg>,
    /// The identities last reported, to report only changes.
    identities: Option<Vec<smolweb_store::identity::Identity>>,
    /// The activity log's sessions, read again only when the file changed.
    agents: AgentsCache,
}

/// The sessions as last read, and the file's signature then.
#[derive(Default)]
struct AgentsCache {
    stamp: Option<(u64, u64, std::time::SystemTime)>,
    sessions: Vec<smolweb_store::activity::Session>,
    generation: u64,
}

/// The signature as one number (it only has to change when the file does).
fn stamp_number(stamp: Option<(u64, u64, std::time::SystemTime)>) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    stamp.hash(&mut h);
    h.finish()
}

impl StoreWorker {
    fn send(&self, msg: Msg) {
        let _ = self.tx.send(msg);
    }

    fn downloads_dir(&self) -> PathBuf {
        downloads_dir(&self.client)
    }

    /// Pending approvals, and the identities when another process changed them (an approval
    /// from `smolweb identity approve` makes one).
    fn poll(&mut self) {
        if let Err(e) = self.client.browser_heartbeat() {
            tracing::debug!("cannot write the browser's heartbeat: {e}");
        }
        let seen = self.agents_seen();
        self.send(Msg::Agents(seen));
        if let Ok(list) = self.client.pending_approvals() {
            self.send(Msg::Approvals(list));
        }
        if let Ok(list) = self.client.scan_identities().map(|s| s.identities)
            && self.identities.as_ref() != Some(&list)
        {
            self.identities = Some(list.clone());
            self.send(Msg::Identities(list));
        }
    }

    fn load_lists(&mut self) {
        let c = Arc::clone(&self.client);
        let history = match c.history_list() {
            Ok(list) => list.into_iter().map(|v| (v.url, v.title)).collect(),
            Err(e) => {
                self.send(Msg::Done(Err(e.into())));
                Vec::new()
            }
        };
        let bookmarks = match c.bookmarks_list() {
            Ok(list) => list,
            Err(e) => {
                self.send(Msg::Done(Err(e.into())));
                Vec::new()
            }
        };
        self.send(Msg::Lists { history, bookmarks });
        // A corrupt identity file is named, and the readable identities are still shown.
        match c.scan_identities() {
            Ok(scan) => {
                for bad in scan.unreadable {
                    self.send(Msg::Done(Err(bad.into_error().into())));
                }
                self.identities = Some(scan.identities.clone());
                self.send(Msg::Identities(scan.identities));
            }
            Err(e) => self.send(Msg::Done(Err(e.into()))),
        }
        if let Ok(list) = c.pending_approvals() {
            self.send(Msg::Approvals(list));
        }
        self.send(feeds::lists(&c));
        let seen = self.agents_seen();
        self.send(Msg::Agents(seen));
    }

    /// Sessions active now, suggestions waiting, pages shared (the log is parsed again only
    /// when its file changed).
    fn agents_seen(&mut self) -> crate::app::AgentsSeen {
        let c = &self.client;
        let stamp = c.activity_stamp();
        if stamp != self.agents.stamp {
            if let Ok(entries) = c.activity_snapshot() {
                self.agents.sessions = smolweb_store::activity::sessions(&entries);
            }
            self.agents.stamp = stamp;
            self.agents.generation += 1;
        }
        let now = c.now();
        crate::app::AgentsSeen {
            active: self
                .agents
                .sessions
                .iter()
                .filter(|s| s.active(now))
                .map(|s| s.label())
                .collect(),
            suggestions: c.pending_suggestions().unwrap_or_default(),
            shared: c.shared_pages().map_or(0, |l| l.len()),
            log_stamp: stamp_number(stamp),
        }
    }

    fn save(&self, page: &Page, name: &str) {
        let r = save(&self.downloads_dir(), name, &page.raw);
        let note = if page.ending.is_clean() {
            String::new()
        } else {
            format!(" ({})", page.ending.describe())
        };
        self.send(Msg::Done(
            r.map(|p| format!("saved to {}{note}", p.display())),
        ));
    }

    /// Save a download and start the program configured for its type (else xdg-open).
    fn open(&self, page: &Page, name: &str) {
        let path = match save(&self.downloads_dir(), name, &page.raw) {
            Ok(p) => p,
            Err(e) => return self.send(Msg::Done(Err(e))),
        };
        let handlers = &self.client.config().tui.handlers;
        let command = crate::app::handler_for(handlers, &page.mime).unwrap_or("xdg-open");
        let r = open_external(command, &path.display().to_string());
        self.send(Msg::Done(
            r.map(|m| format!("saved to {}; {m}", path.display())),
        ));
    }

    fn store(&mut self, op: StoreOp) {
        let c = Arc::clone(&self.client);
        let now = c.now();
        let done =
            |r: Result<String, smolweb_store::StoreError>| Msg::Done(r.map_err(ShellError::from));
        let msg = match op {
            StoreOp::LoadLists => {
                self.load_lists();
                return;
            }
            StoreOp::RecordHistory { url, title } => match c.record_visit(&url, title.as_deref()) {
                Ok(()) => return,
                Err(e) => Msg::Done(Err(e.into())),
            },
            StoreOp::AddBookmark { url, title } => done(c.add_bookmark(&url, &title).map(|new| {
                if new {
                    format!("bookmarked {url}")
                } else {
                    format!("bookmark renamed: {title}")
                }
            })),
            StoreOp::MoveBookmark { url, folder } => {
                done(c.move_bookmark(&url, &folder).map(|there| match there {
                    false => format!("{url} is not bookmarked"),
                    true if folder.is_empty() => format!("{url} moved to the top level"),
                    true => format!("{url} filed in {folder}"),
                }))
            }
            StoreOp::RemoveVisit { url } => done(c.forget_visit(&url).map(|gone| {
                if gone {
                    format!("forgot the visit of {url}")
                } else {
                    format!("{url} was not in the history")
                }
            })),
            StoreOp::SetSiteRule { site, content } => done(
                c.set_site_rule(&site, &smolweb_core::html::SiteRule::content(&content))
                    .map(|r| format!("rule kept for {}: i shows it", r.site)),
            ),
            StoreOp::RemoveSiteRule { site } => done(
                c.remove_site_rule(&site)
                    .map(|r| format!("rule removed for {}", r.site)),
            ),
            StoreOp::ClearHistory => done(c.clear_history().map(|n| {
                format!(
                    "history cleared ({})",
                    smolweb_core::text::count(n, "visit", "visits")
                )
            })),
            StoreOp::RemoveBookmark { url } => done(
                c.remove_bookmark(&url)
                    .map(|_| format!("bookmark removed: {url}")),
            ),
            StoreOp::CreateIdentity { new, then } => {
                let result = c.create_identity(new).map_err(ShellError::from);
                self.send(Msg::IdentityCreated { result, then });
                return;
            }
            StoreOp::ImportIdentity { cert, key, scope } => {
                let home = std::env::var_os("HOME");
                let (cert, key) = (expand_home(&cert, home.clone()), expand_home(&key, home));
                let result = smolweb_store::identity::import::read_files(&cert, &key)
                    .and_then(|imported| c.import_identity(imported, scope, None, false))
                    .map_err(ShellError::from);
                self.send(Msg::IdentityImported(result));
                return;
            }
            StoreOp::SetAgentUse {
                fingerprint,
                allowed,
            } => done(c.set_identity_agent_use(&fingerprint, allowed).map(|i| {
                let may = if allowed { "may" } else { "may not" };
                format!("agents {may} use '{}'", i.name)
            })),
            StoreOp::ExportIdentity { fingerprint } => {
                let dir = self.downloads_dir();
                let r = std::fs::create_dir_all(&dir)
                    .map_err(|e| smolweb_store::StoreError::Io {
                        path: dir.clone(),
                        source: e,
                    })
                    .and_then(|_| c.export_identity(&fingerprint, &dir));
                done(
                    r.map(|(crt, key)| format!("exported {} and {}", crt.display(), key.display())),
                )
            }
            StoreOp::DeleteIdentity { fingerprint } => done(
                c.remove_identity(&fingerprint)
                    .map(|i| format!("deleted identity '{}'", i.name)),
            ),
            StoreOp::Pin {
                host,
                port,
                fingerprint,
                not_after,
            } => {
                let rfc = time::format_description::well_known::Rfc3339;
                let r = match time::OffsetDateTime::parse(&not_after, &rfc) {
                    Ok(not_after) => {
                        let cert = CertInfo {
                            fingerprint,
                            not_before: now,
                            not_after,
                        };
                        c.pin_certificate(&host, port, &cert)
                    }
                    Err(_) => c.pin_fingerprint(&host, port, &fingerprint),
                };
                done(r.map(|_| format!("the new certificate of {host} is trusted and saved")))
            }
            StoreOp::Forget { host, port } => done(c.forget_pin(&host, port).map(|gone| {
                if gone {
                    format!("forgot the certificate of {host}:{port}")
                } else {
                    format!("no certificate was pinned for {host}:{port}")
                }
            })),
            StoreOp::Approve { id } => done(c.approve(&id, Decider::Browser).map(|a| a.message)),
            StoreOp::Share { url, title, note } => done(
                c.share_page(&url, title.as_deref(), note.as_deref())
                    .map(|p| format!("shared with agents as smolweb://shared/{}", p.id)),
            ),
            StoreOp::QueueSync { url, from } => {
                done(c.queue_for_sync(&url, from.as_deref()).map(|new| {
                    if new {
                        format!(
                            "queued {url} for the next smolweb sync (about:offline lists the queue)"
                        )
                    } else {
                        format!("{url} already waits for the next smolweb sync")
                    }
                }))
            }
            StoreOp::Unshare { id } => done(
                c.unshare_page(&id)
                    .map(|p| format!("no longer shared with agents: {}", p.url)),
            ),
            StoreOp::TourAdd { links } => done(c.tour_add(&links).map(|a| tour_added(&a))),
            StoreOp::TourNext => {
                let next = c.tour_next().map_err(ShellError::from);
                self.send(Msg::TourNext(next));
                self.load_lists();
                return;
            }
            StoreOp::TourRemove { url } => done(c.tour_remove(&url).map(|gone| match gone {
                true => format!("taken off the tour: {url}"),
                false => format!("{url} was not on the tour"),
            })),
            StoreOp::TourClear => done(c.tour_clear().map(|n| {
                format!(
                    "{} taken off the tour",
                    smolweb_core::text::count(n, "link", "links")
                )
            })),
            StoreOp::TakeSuggestion { id, opened } => done(c.take_suggestion(&id).map(|s| {
                if opened {
                    format!("opened the page {} suggested", s.client)
                } else {
                    format!("dismissed the page {} suggested", s.client)
                }
            })),
            StoreOp::Deny { id } => done(
                c.deny(&id, Decider::Browser)
                    .map(|a| format!("denied: {}", a.request.describe())),
            ),
        };
        self.send(msg);
        self.load_lists();
    }
}

/// What putting links on the tour did, in a sentence: how many went on, how many were there
/// already, how many wait, and the first refused one (without its query) and why.
fn tour_added(a: &smolweb_store::tour::Added) -> String {
    use smolweb_core::text::count;
    let mut said = match a.added {
        0 => "nothing put on the tour".to_string(),
        n => format!("put {} on the tour", count(n, "link", "links")),
    };
    if a.already > 0 {
        said.push_str(&format!(
            ", {} already on it",
            count(a.already, "link", "links")
        ));
    }
    said.push_str(&format!(" ({} waiting)", count(a.waiting, "link", "links")));
    if let Some((url, why)) = a.refused.first() {
        let more = match a.refused.len() {
            1 => String::new(),
            n => format!(" (and {} more)", n - 1),
        };
        // A refused link's query is never echoed (it may be an answer typed at a prompt).
        let url = url.split_once('?').map_or(url.as_str(), |(page, _)| page);
        let url = smolweb_core::text::one_line(url, Some(80));
        said.push_str(&format!("; not {url}{more}: {why}"));
    }
    said
}

/// An `about:` URL is answered by the client's router, asked for the browser's notes and
/// pages (about:trust, about:agents); None for any other URL.
fn builtin(client: &Client, url: &str) -> Option<Outcome> {
    let url = Url::parse(url)
        .ok()
        .filter(|u| u.scheme() == Scheme::About)?;
    Some(client.open_about(url, about::Notes::Browser))
}

/// Write `bytes` under `dir` as `name`, not overwriting: "name", "name-1", ...
pub(super) fn save(dir: &std::path::Path, name: &str, bytes: &[u8]) -> Result<PathBuf, ShellError> {
    let failed = |path: &std::path::Path, e: std::io::Error| ShellError::Write {
        path: path.to_path_buf(),
        source: Arc::new(e),
    };
    std::fs::create_dir_all(dir).map_err(|e| failed(dir, e))?;
    let (stem, ext) = match name.rsplit_once('.') {
        Some((s, e)) if !s.is_empty() => (s.to_string(), format!(".{e}")),
        _ => (name.to_string(), String::new()),
    };
    for n in 0..1000 {
        let file = if n == 0 {
            format!("{stem}{ext}")
        } else {
            format!("{stem}-{n}{ext}")
        };
        let path = dir.join(file);
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)
        {
            Ok(mut f) => {
                use std::io::Write;
                f.write_all(bytes).map_err(|e| failed(&path, e))?;
                return Ok(path);
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(failed(&path, e)),
        }
    }
    Err(ShellError::NameTaken {
        name: name.to_string(),
        dir: dir.to_path_buf(),
    })
}

/// The terminal sequence that puts `text` on the clipboard (OSC 52, base64).
pub(super) fn osc52(text: &str) -> String {
    const ABC: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut b64 = String::with_capacity(text.len().div_ceil(3) * 4);
    for chunk in text.as_bytes().chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | (u32::from(b) << (16 - 8 * i)));
        for i in 0..4 {
            if i <= chunk.len() {
                b64.push(char::from(ABC[((n >> (18 - 6 * i)) & 63) as usize]));
            } else {
                b64.push('=');
            }
        }
    }
    format!("\x1b]52;c;{b64}\x07")
}

/// Start a program on `url`, without waiting: the configured command, else each command of
/// `$BROWSER` (a colon-separated list, as usual) and then xdg-open, until one starts. When none
/// does, the error names the last one tried (the app then offers to copy the URL).
fn open_external(configured: &str, url: &str) -> Result<String, ShellError> {
    let commands = opener_commands(configured, std::env::var("BROWSER").ok().as_deref());
    let mut last = Err(ShellError::NoCommand);
    for command in &commands {
        last = start(command, url);
        if last.is_ok() {
            break;
        }
    }
    last
}

/// The commands to try, in order (see [`open_external`]).
fn opener_commands(configured: &str, browser: Option<&str>) -> Vec<String> {
    if !configured.trim().is_empty() {
        return vec![configured.to_string()];
    }
    let mut out: Vec<String> = browser
        .unwrap_or("")
        .split(':')
        .filter(|c| !c.trim().is_empty())
        .map(str::to_string)
        .collect();
    if !out.iter().any(|c| c.trim() == "xdg-open") {
        out.push("xdg-open".into());
    }
    out
}

fn start(command: &str, url: &str) -> Result<String, ShellError> {
    let mut parts = command.split_whitespace();
    let program = parts.next().ok_or(ShellError::NoCommand)?;
    let mut child = std::process::Command::new(program)
        .args(parts)
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .map_err(|e| ShellError::Start {
            program: program.to_string(),
            url: url.to_string(),
            source: Arc::new(e),
        })?;
    std::thread::spawn(move || child.wait());
    Ok(format!("opened {url} with {program}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use smolweb_client::Face;
    use smolweb_client::config::Config;
    use smolweb_store::identity::{CreatedBy, KeyAlgorithm, NewIdentity, Scope};

    #[test]
    fn a_tilde_is_the_home_directory() {
        let home = Some(std::ffi::OsString::from("/home/ada"));
        assert_eq!(
            expand_home("~/a.gmi", home.clone()),
            PathBuf::from("/home/ada/a.gmi")
        );
        assert_eq!(expand_home("~", home.clone()), PathBuf::from("/home/ada"));
        assert_eq!(expand_home("~bob/a", home.clone()), PathBuf::from("~bob/a"));
        assert_eq!(expand_home("/tmp/~/a", home), PathBuf::from("/tmp/~/a"));
        assert_eq!(expand_home("~/a", None), PathBuf::from("~/a"));
    }

    #[test]
    fn a_file_to_upload_is_read_within_the_limit() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("post.gmi");
        std::fs::write(&path, b"# A post\n").unwrap();
        let typed = path.display().to_string();
        assert_eq!(read_upload(&typed, 9).unwrap(), b"# A post\n");
        match read_upload(&typed, 8) {
            Err(ShellError::UploadTooLarge {
                size: 9, max: 8, ..
            }) => {}
            other => panic!("{other:?}"),
        }
        let missing = dir.path().join("nothing.gmi").display().to_string();
        assert!(matches!(
            read_upload(&missing, 9),
            Err(ShellError::UploadRead { .. })
        ));
        let folder = dir.path().display().to_string();
        assert!(matches!(
            read_upload(&folder, 9),
            Err(ShellError::UploadRead { .. })
        ));
    }
    use smolweb_store::paths::Paths;

    /// A store worker over a fresh data directory (also used by `feeds`' tests).
    pub(super) fn worker() -> (StoreWorker, mpsc::UnboundedReceiver<Msg>, tempfile::TempDir) {
        let dir = tempfile::tempdir().unwrap();
        let paths = Paths::resolve(Some(dir.path().to_path_buf()), None, None, None).unwrap();
        let client = Arc::new(Client::new(Config::default(), paths, Face::Human).unwrap());
        let (tx, rx) = mpsc::unbounded_channel();
        let w = StoreWorker {
            client,
            tx,
            identities: None,
            agents: AgentsCache::default(),
        };
        (w, rx, dir)
    }

    pub(super) fn drain(rx: &mut mpsc::UnboundedReceiver<Msg>) -> Vec<Msg> {
        let mut out = Vec::new();
        while let Ok(m) = rx.try_recv() {
            out.push(m);
        }
        out
    }

    #[test]
    fn an_identity_made_by_another_process_reaches_the_screen() {
        let (mut w, mut rx, _dir) = worker();
        w.load_lists();
        drain(&mut rx);
        w.poll();
        assert!(
            !drain(&mut rx)
                .iter()
                .any(|m| matches!(m, Msg::Identities(_))),
            "no change, no message"
        );
        // What `smolweb identity approve` does in another terminal.
        let new = NewIdentity {
            name: "from-agent".into(),
            scope: Scope {
                host: "cap.test".into(),
                port: 1965,
                path: "/".into(),
            },
            days: 30,
            algorithm: KeyAlgorithm::default(),
            created_by: CreatedBy::Agent,
            agent_use: true,
        };
        let other = smolweb_store::identity::Identities::new(w.client.paths().identities_dir());
        other.create(new, w.client.now()).unwrap();
        w.poll();
        let got = drain(&mut rx);
        assert!(
            got.iter().any(|m| matches!(m, Msg::Identities(l)
                if l.iter().any(|i| i.name == "from-agent"))),
            "{got:?}"
        );
    }

    #[test]
    fn a_corrupt_store_is_an_error_naming_the_file_not_an_empty_list() {
        let (mut w, mut rx, dir) = worker();
        let file = dir.path().join(smolweb_store::files::HISTORY);
        std::fs::write(&file, "this is [not toml").unwrap();
        match builtin(&w.client, "about:history") {
            Some(Outcome::Error { error, .. }) => {
                assert!(error.to_string().contains("history.toml"), "{error}");
            }
            other => panic!("expected an error page, got {other:?}"),
        }
        w.load_lists();
        let got = drain(&mut rx);
        assert!(
            got.iter().any(|m| matches!(m, Msg::Done(Err(e))
                if e.to_string().contains("history.toml"))),
            "{got:?}"
        );
        // The file is left as it was.
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "this is [not toml");
    }

    #[test]
    fn a_tour_answer_names_a_refused_link_without_its_query() {
        let (w, _rx, _dir) = worker();
        let added = w
            .client
            .tour_add(&[
                smolweb_store::tour::NewStop {
                    url: "gemini://cap.test/a".into(),
                    label: None,
                },
                smolweb_store::tour::NewStop {
                    url: "gemini://cap.test/search?my secret answer".into(),
                    label: None,
                },
            ])
            .unwrap();
        let said = tour_added(&added);
        assert!(
            said.starts_with(
                "put 1 link on the tour (1 link waiting); not gemini://cap.test/search:"
            ),
            "{said}"
        );
        assert!(said.contains("query") && !said.contains("secret"), "{said}");
    }

    #[test]
    fn osc52_is_base64_between_the_markers() {
        assert_eq!(osc52(""), "\x1b]52;c;\x07");
        assert_eq!(osc52("f"), "\x1b]52;c;Zg==\x07");
        assert_eq!(osc52("fo"), "\x1b]52;c;Zm8=\x07");
        assert_eq!(osc52("foobar"), "\x1b]52;c;Zm9vYmFy\x07");
        assert_eq!(
            osc52("gemini://x.test/ü"),
            "\x1b]52;c;Z2VtaW5pOi8veC50ZXN0L8O8\x07"
        );
    }

    #[test]
    fn pages_from_the_stores() {
        let (w, _rx, _dir) = worker();
        let text = |url| match builtin(&w.client, url) {
            Some(Outcome::Page { fetched, .. }) => fetched.page.body.text().to_string(),
            other => panic!("{other:?}"),
        };
        assert!(text("about:bookmarks").contains("No bookmarks yet"));
        assert!(text("about:trust").contains("No certificates are pinned"));
        w.client
            .pin_fingerprint("cap.test", 1965, &format!("sha256:{}", "ab".repeat(32)))
            .unwrap();
        let t = text("about:trust");
        assert!(
            t.contains("cap.test:1965") && t.contains("at most once an hour"),
            "{t}"
        );
        // The client writes the choices of about:trust and about:agents; each is a
        // PageAction the browser acts on.
        let shared = w
            .client
            .share_page("gemini://cap.test/s", None, None)
            .unwrap();
        let suggested = w
            .client
            .suggest("gemini://cap.test/g", None, "claude", "s1")
            .unwrap();
        let actions = |page: &str| -> Vec<crate::app::PageAction> {
            let links = page.lines().filter_map(|l| l.strip_prefix("=> "));
            let urls = links.filter_map(|l| l.split_whitespace().next());
            urls.filter(|u| u.starts_with("action:"))
                .map(|u| crate::app::PageAction::parse(u).expect(u))
                .collect()
        };
        use crate::app::PageAction;
        assert_eq!(
            actions(&t),
            [PageAction::ForgetPin {
                host: "cap.test".into(),
                port: 1965
            }]
        );
        assert_eq!(
            actions(&text("about:agents")),
            [
                PageAction::SuggestionOpen(suggested.id.clone()),
                PageAction::SuggestionDismiss(suggested.id),
                PageAction::Unshare(shared.id),
            ]
        );
        // The browser's notes on its keys.
        assert!(text("about:tour").contains("> goes to the next one"));
        assert!(text("about:history").contains("Pages you visit are listed here"));
    }

    #[test]
    fn openers_try_browser_commands_then_xdg_open() {
        assert_eq!(
            opener_commands("my-open --new", Some("firefox")),
            ["my-open --new"]
        );
        assert_eq!(
            opener_commands("", Some("firefox:lynx -dump")),
            ["firefox", "lynx -dump", "xdg-open"]
        );
        assert_eq!(opener_commands(" ", None), ["xdg-open"]);
        assert_eq!(opener_commands("", Some("xdg-open")), ["xdg-open"]);
    }

    #[test]
    fn a_browser_that_cannot_start_falls_back_and_names_the_last_try() {
        let missing = "/nonexistent/smolweb-no-such-browser";
        match open_external(missing, "https://web.test/") {
            Err(ShellError::Start { program, url, .. }) => {
                assert_eq!(program, missing);
                assert_eq!(url, "https://web.test/");
            }
            other => panic!("{other:?}"),
        }
    }
}
