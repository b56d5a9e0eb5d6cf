//! Carrying out effects: fetches as tokio tasks (abortable, with a byte counter), store
//! operations (locked file writes, in order on a store thread), downloads and external
//! programs. Every result goes back to the app as a message on the channel.

use crate::client::{Client, Fetched, OpenOptions, Outcome, RequestInfo};
use crate::core::page::Page;
use crate::core::url::Url;
use crate::store::tofu::CertInfo;
use crate::tui::app::{Effect, FetchOptions, Msg, ShellError, StoreOp};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;
use tokio::sync::{mpsc, watch};

struct Task {
    handle: tokio::task::JoinHandle<()>,
    progress: watch::Receiver<u64>,
}

pub struct Shell {
    client: Arc<Client>,
    tx: mpsc::UnboundedSender<Msg>,
    tasks: HashMap<u64, Task>,
    /// Store work (locked, fsynced file writes) runs in order on its own thread, so a history
    /// write never stalls a frame.
    jobs: std::sync::mpsc::Sender<Job>,
}

/// Work for the store thread.
enum Job {
    Op(StoreOp),
    PollApprovals,
}

impl Shell {
    pub fn new(client: Arc<Client>, tx: mpsc::UnboundedSender<Msg>) -> Shell {
        let (jobs, queue) = std::sync::mpsc::channel::<Job>();
        let worker = StoreWorker {
            client: Arc::clone(&client),
            tx: tx.clone(),
        };
        // The thread ends when the Shell (the only sender) is dropped.
        let _ = std::thread::Builder::new()
            .name("smolweb-store".into())
            .spawn(move || {
                for job in queue {
                    match job {
                        Job::Op(op) => worker.store(op),
                        Job::PollApprovals => worker.poll_approvals(),
                    }
                }
            });
        Shell {
            client,
            tx,
            tasks: HashMap::new(),
            jobs,
        }
    }

    fn send(&self, msg: Msg) {
        let _ = self.tx.send(msg);
    }

    pub fn run(&mut self, _app: &crate::tui::app::App, fx: Vec<Effect>) {
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
                let r = open_external(&self.client.config().tui.external_command, &url);
                self.send(Msg::Done(r));
            }
            Effect::Save { page, name } => {
                let r = save(&self.downloads_dir(), &name, &page.raw);
                self.send(Msg::Done(r.map(|p| format!("saved to {}", p.display()))));
            }
            Effect::Store(op) => {
                let _ = self.jobs.send(Job::Op(op));
            }
            Effect::Quit => {}
        }
    }

    fn downloads_dir(&self) -> PathBuf {
        downloads_dir(&self.client)
    }

    fn fetch(&mut self, id: u64, url: String, opts: FetchOptions) {
        let (ptx, prx) = watch::channel(0u64);
        let client = Arc::clone(&self.client);
        let tx = self.tx.clone();
        let handle = tokio::spawn(async move {
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
                    };
                    client.open(&url, &open).await
                }
            };
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

    /// Send byte counts of loads that moved since the last tick.
    pub fn report_progress(&mut self) {
        for (id, t) in &mut self.tasks {
            if t.progress.has_changed().unwrap_or(false) {
                let bytes = *t.progress.borrow_and_update();
                let _ = self.tx.send(Msg::Progress { id: *id, bytes });
            }
        }
    }

    /// Ask the store thread for the pending agent requests (answered as a message).
    pub fn poll_approvals(&self) {
        let _ = self.jobs.send(Job::PollApprovals);
    }

    pub fn abort_all(&mut self) {
        for (_, t) in self.tasks.drain() {
            t.handle.abort();
        }
    }
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
}

impl StoreWorker {
    fn send(&self, msg: Msg) {
        let _ = self.tx.send(msg);
    }

    fn downloads_dir(&self) -> PathBuf {
        downloads_dir(&self.client)
    }

    fn poll_approvals(&self) {
        if let Ok(list) = self.client.approvals().pending(self.client.now()) {
            self.send(Msg::Approvals(list));
        }
    }

    fn load_lists(&self) {
        let c = &self.client;
        let history = c
            .history()
            .list()
            .unwrap_or_default()
            .into_iter()
            .map(|v| (v.url, v.title))
            .collect();
        let bookmarks = c.bookmarks().list().unwrap_or_default();
        self.send(Msg::Lists { history, bookmarks });
        match c.identities().list() {
            Ok(list) => self.send(Msg::Identities(list)),
            Err(e) => self.send(Msg::Done(Err(e.into()))),
        }
        self.poll_approvals();
    }

    fn store(&self, op: StoreOp) {
        let c = Arc::clone(&self.client);
        let now = c.now();
        let done =
            |r: Result<String, crate::store::StoreError>| Msg::Done(r.map_err(ShellError::from));
        let msg = match op {
            StoreOp::LoadLists => {
                self.load_lists();
                return;
            }
            StoreOp::RecordHistory { url, title } => {
                match c.history().record(&url, title.as_deref(), now) {
                    Ok(()) => return,
                    Err(e) => Msg::Done(Err(e.into())),
                }
            }
            StoreOp::AddBookmark { url, title } => done(
                c.bookmarks()
                    .add(&url, &title)
                    .map(|_| format!("bookmarked {url}")),
            ),
            StoreOp::RemoveBookmark { url } => done(
                c.bookmarks()
                    .remove(&url)
                    .map(|_| format!("bookmark removed: {url}")),
            ),
            StoreOp::CreateIdentity { new, then } => {
                let result = c.identities().create(new, now).map_err(ShellError::from);
                self.send(Msg::IdentityCreated { result, then });
                return;
            }
            StoreOp::SetAgentUse {
                fingerprint,
                allowed,
            } => done(
                c.identities()
                    .update(&fingerprint, |i| i.agent_use = allowed)
                    .map(|i| {
                        let may = if allowed { "may" } else { "may not" };
                        format!("agents {may} use '{}'", i.name)
                    }),
            ),
            StoreOp::ExportIdentity { fingerprint } => {
                let dir = self.downloads_dir();
                let r = std::fs::create_dir_all(&dir)
                    .map_err(|e| crate::store::StoreError::Io {
                        path: dir.clone(),
                        source: e,
                    })
                    .and_then(|_| c.identities().export(&fingerprint, &dir));
                done(
                    r.map(|(crt, key)| format!("exported {} and {}", crt.display(), key.display())),
                )
            }
            StoreOp::DeleteIdentity { fingerprint } => done(
                c.identities()
                    .remove(&fingerprint)
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
                        c.known_hosts().pin(&host, port, &cert, now)
                    }
                    Err(_) => c
                        .known_hosts()
                        .pin_fingerprint(&host, port, &fingerprint, now),
                };
                done(r.map(|_| format!("the new certificate of {host} is trusted and saved")))
            }
            StoreOp::Approve { id } => done(c.approve(&id).map(|a| a.message)),
            StoreOp::Deny { id } => done(
                c.deny(&id)
                    .map(|a| format!("denied: {}", a.request.describe())),
            ),
        };
        self.send(msg);
        self.load_lists();
    }
}

/// about:bookmarks and about:history are made here from the stores.
fn builtin(client: &Client, url: &str) -> Option<Outcome> {
    let text = match url {
        "about:bookmarks" => {
            let g = client.bookmarks().to_gemtext().unwrap_or_default();
            if g.trim().is_empty() {
                "# Bookmarks\n\nNo bookmarks yet: press m on a page to add it.\n".to_string()
            } else if g.starts_with('#') {
                g
            } else {
                format!("# Bookmarks\n\n{g}")
            }
        }
        "about:history" => {
            let mut g = String::from("# History\n\n");
            for v in client.history().list().unwrap_or_default().iter().take(500) {
                let title = v.title.as_deref().unwrap_or("");
                g.push_str(&format!("=> {} {} {}\n", v.url, v.at.date(), title));
            }
            g
        }
        _ => return None,
    };
    let page = Page::builtin(Url::parse(url).ok()?, &text);
    Some(Outcome::Page {
        info: RequestInfo {
            url: url.to_string(),
            ..RequestInfo::default()
        },
        fetched: Fetched {
            page: Arc::new(page),
            cached: false,
            cached_at: None,
        },
    })
}

/// Write `bytes` under `dir` as `name`, not overwriting: "name", "name-1", ...
pub fn save(dir: &std::path::Path, name: &str, bytes: &[u8]) -> Result<PathBuf, ShellError> {
    let failed = |path: &std::path::Path, e: std::io::Error| ShellError::Write {
        path: path.to_path_buf(),
        message: e.to_string(),
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

/// Start the configured program (or $BROWSER, or xdg-open) on `url`, without waiting.
fn open_external(configured: &str, url: &str) -> Result<String, ShellError> {
    let command = if configured.trim().is_empty() {
        std::env::var("BROWSER").unwrap_or_else(|_| "xdg-open".into())
    } else {
        configured.to_string()
    };
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
            message: e.to_string(),
        })?;
    std::thread::spawn(move || child.wait());
    Ok(format!("opened {url} with {program}"))
}
