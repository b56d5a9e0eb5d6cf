//! What agents did: the activity log `smolweb --mcp` writes and the browser and
//! `smolweb agents log` read.
//!
//! One JSON object per line (`agent_activity.jsonl`, mode 0600), appended with a single
//! `O_APPEND` write per entry, so several MCP processes may append at once without
//! interleaving (each line is far below the size a local file system writes in one piece:
//! [`MAX_LINE`]). Appenders hold the shared lock of the sidecar `.lock` file while they
//! write; compaction takes the exclusive lock, so no line is written to a file that is being
//! replaced. An appender keeps the sidecar and the log open between appends (`append`).
//! A process that records while it answers (the MCP server) queues its entries instead
//! ([`Activity::queue`]): one thread per log writes them in order, the caller never waits for
//! the disk, and a clean exit flushes them (`writer`).
//!
//! Bounded: when the file holds more than `max_entries` lines or `max_bytes` bytes, it is
//! rewritten (atomically: temp file and rename, see [`atomic`]) keeping the newest half, so
//! the oldest entries go first. Each appender tracks how many lines the file holds from the
//! bytes that were added since its last append, so the check costs a stat and, when another
//! process wrote in between, reading those new bytes only.
//!
//! What an entry may hold is decided here, not by the caller: every text is cut to a bound
//! and stripped of control characters ([`clean_text`]), and every URL loses its user
//! information, query, fragment and a Gopher search ([`clean_url`]). No entry has a field for
//! a query, an input answer, page text or key material. A line that does not parse (a crash
//! mid-write on a file system that tears writes, a hand edit) is skipped when reading and
//! counted, never fatal. A last line without its newline (an append under way, or one a full
//! disk stopped part way) is not read, and the next append cuts it off before writing
//! ([`Activity::mend`]), so a torn write never swallows the entry after it.

mod append;
mod writer;

use super::StoreError;
use super::atomic::{self, Modes};
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};
use time::OffsetDateTime;

/// The longest line an entry may take (bytes, newline included); longer is refused.
pub(crate) const MAX_LINE: usize = 2048;
/// Most characters of a URL kept in an entry.
pub(crate) const MAX_URL_CHARS: usize = 512;
/// Most characters of a client name, a tool name, a kind or a consent description.
pub(crate) const MAX_TEXT_CHARS: usize = 128;
/// How long after its last entry a session without an end still counts as active (a process
/// that crashed never writes its end).
pub(crate) const ACTIVE_WINDOW_SECONDS: i64 = 300;

/// The bounds of the log.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Most entries kept (the newest half is kept when it is passed).
    pub max_entries: usize,
    /// Most bytes kept (likewise).
    pub max_bytes: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_entries: 10_000,
            max_bytes: 4 * 1024 * 1024,
        }
    }
}

/// A step of a consent flow, as the log records it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ConsentStep {
    /// The person was asked (elicitation).
    Asked,
    /// The person approved.
    Approved,
    /// The person declined.
    Denied,
    /// The question went unanswered.
    TimedOut,
    /// No way to ask: the request waits in the approval queue.
    Queued,
}

impl ConsentStep {
    /// The step's name as written.
    pub fn as_str(self) -> &'static str {
        match self {
            ConsentStep::Asked => "asked",
            ConsentStep::Approved => "approved",
            ConsentStep::Denied => "denied",
            ConsentStep::TimedOut => "timed out",
            ConsentStep::Queued => "queued for approval",
        }
    }

    /// The step with where the person decided, when the log knows it ("approved in the
    /// browser"), as every reader of the log says it.
    pub fn said(self, by: Option<Decider>) -> String {
        match by {
            Some(b) => format!("{} {}", self.as_str(), b.as_str()),
            None => self.as_str().to_string(),
        }
    }
}

/// Where the person decided on a request that waited in the approval queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Decider {
    /// On the browser's approval screen.
    Browser,
    /// With `smolweb identity|trust approve|deny`.
    Cli,
    /// In the agent's MCP client, asked by elicitation (the session logs that consent itself).
    AgentClient,
}

impl Decider {
    /// Where, as the log's readers say it.
    pub fn as_str(self) -> &'static str {
        match self {
            Decider::Browser => "in the browser",
            Decider::Cli => "with the CLI",
            Decider::AgentClient => "in the agent's client",
        }
    }
}

/// What happened.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// A session began (the client's declared name and version).
    Start {
        /// The MCP client's name, as it declared it (sanitized).
        client: String,
        /// Its declared version (sanitized).
        version: String,
        /// The server process.
        pid: u32,
    },
    /// A session ended.
    End,
    /// A tool call ended.
    Call {
        /// The tool.
        tool: String,
        /// The URL it was about, without query (none for tools without one).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        url: Option<String>,
        /// How many URLs a batch named (the first is `url`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        urls: Option<u32>,
        /// The result kind (`gemtext`, `menu`, ...) or, for an error, its code.
        outcome: String,
        /// The result is an error.
        #[serde(default)]
        error: bool,
        /// Body bytes, when the result says.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        bytes: Option<u64>,
        /// The answer came from the cache, when the result says.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        cached: Option<bool>,
        /// How long the call took (milliseconds).
        ms: u64,
    },
    /// A consent step of a gated change. A request that waits in the approval queue is
    /// `queued` with its `approval` id; the person's decision on it later is `approved` or
    /// `denied` with the same id and where they decided (`by`), under the session that queued
    /// it.
    Consent {
        /// The tool that asked.
        tool: String,
        /// The step.
        step: ConsentStep,
        /// What the change was (one sentence, sanitized).
        what: String,
        /// The request's id in the approval queue, once it is there.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        approval: Option<String>,
        /// Where the person decided on the queued request.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        by: Option<Decider>,
    },
}

/// One line of the log.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Entry {
    /// When (UTC, milliseconds).
    #[serde(with = "time::serde::rfc3339")]
    pub at: OffsetDateTime,
    /// The session (8 hex digits, one per MCP session).
    pub session: String,
    /// What happened.
    #[serde(flatten)]
    pub event: Event,
}

/// `text` without control or invisible characters, on one line, cut to `max` characters.
pub(crate) fn clean_text(text: &str, max: usize) -> String {
    let plain: String = text
        .chars()
        .map(|c| if c.is_whitespace() { ' ' } else { c })
        .filter(|c| !c.is_control())
        .collect();
    let one = smolweb_core::text::one_line(&plain, None);
    let mut out: String = one.chars().take(max).collect();
    if one.chars().count() > max {
        out.pop();
        out.push('…');
    }
    out.trim().to_string()
}

/// [`clean_text`] of an optional text, None when nothing is left of it.
pub(crate) fn clean_note(text: Option<&str>, max: usize) -> Option<String> {
    text.map(|t| clean_text(t, max)).filter(|t| !t.is_empty())
}

/// A URL as the log may keep it: no user information, query, fragment or Gopher search (a
/// tab, or `%09`, ends a Gopher selector), no control characters, at most
/// [`MAX_URL_CHARS`] characters.
pub(crate) fn clean_url(url: &str) -> String {
    let mut s = url.trim();
    for cut in ['?', '#', '\t'] {
        if let Some(i) = s.find(cut) {
            s = &s[..i];
        }
    }
    let lower = s.to_ascii_lowercase();
    if let Some(i) = lower.find("%09") {
        s = &s[..i];
    }
    let mut out = String::with_capacity(s.len());
    match s.find("://") {
        Some(i) => {
            let (scheme, rest) = (&s[..i + 3], &s[i + 3..]);
            let auth_end = rest.find('/').unwrap_or(rest.len());
            let authority = &rest[..auth_end];
            let host = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
            out.push_str(scheme);
            out.push_str(host);
            out.push_str(&rest[auth_end..]);
        }
        None => out.push_str(s),
    }
    let out: String = out
        .chars()
        .filter(|c| !c.is_control() && !c.is_whitespace())
        .take(MAX_URL_CHARS)
        .collect();
    out
}

impl Entry {
    /// An entry for `session` now.
    pub fn new(session: &str, at: OffsetDateTime, event: Event) -> Entry {
        Entry {
            at,
            session: session.to_string(),
            event,
        }
    }

    /// The entry as it may be written: every text bounded and cleaned, every URL cleaned.
    pub fn sanitized(&self) -> Entry {
        let t = |s: &str| clean_text(s, MAX_TEXT_CHARS);
        let event = match &self.event {
            Event::Start {
                client,
                version,
                pid,
            } => Event::Start {
                client: t(client),
                version: clean_text(version, 32),
                pid: *pid,
            },
            Event::End => Event::End,
            Event::Call {
                tool,
                url,
                urls,
                outcome,
                error,
                bytes,
                cached,
                ms,
            } => Event::Call {
                tool: t(tool),
                url: url.as_deref().map(clean_url),
                urls: *urls,
                outcome: t(outcome),
                error: *error,
                bytes: *bytes,
                cached: *cached,
                ms: *ms,
            },
            Event::Consent {
                tool,
                step,
                what,
                approval,
                by,
            } => Event::Consent {
                tool: t(tool),
                step: *step,
                what: clean_text(what, 256),
                approval: approval.as_deref().map(|a| clean_text(a, 16)),
                by: *by,
            },
        };
        Entry {
            at: self.at,
            session: clean_text(&self.session, 16),
            event,
        }
    }
}

/// What reading the log gave.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Log {
    /// The entries, oldest first.
    pub entries: Vec<Entry>,
    /// Lines that did not parse (skipped).
    pub skipped: usize,
}

/// Where a reader following the log got to: the file (its inode, and its first bytes, since
/// a compaction's new file may get an inode number freed by an earlier one) and the offset.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cursor {
    ino: u64,
    head: Vec<u8>,
    offset: u64,
}

/// How many leading bytes identify a version of the file (the first entry's timestamp).
const HEAD: usize = 64;

/// What an appender knows of the file's tail.
#[derive(Debug, Default)]
struct Tail {
    ino: u64,
    len: u64,
    lines: usize,
}

/// What one try of an append did.
#[derive(Debug)]
pub(super) enum Append {
    /// The line was written; true when the log is now over its bounds.
    Written(bool),
    /// The last line was torn: nothing was written.
    Torn,
    /// The write failed (part of the line may be there).
    Failed(StoreError),
}

/// Is the file empty or its last byte a newline? (`len` is its length.)
pub(super) fn ends_a_line(file: &mut File, len: u64) -> std::io::Result<bool> {
    if len == 0 {
        return Ok(true);
    }
    let mut last = [0u8; 1];
    file.seek(SeekFrom::Start(len - 1))?;
    file.read_exact(&mut last)?;
    Ok(last[0] == b'\n')
}

/// The activity log file.
#[derive(Debug)]
pub struct Activity {
    path: PathBuf,
    limits: Limits,
    /// The files kept open between appends, and the tail's line count (`append`).
    appender: Mutex<append::Appender>,
    /// What [`Activity::snapshot`] read so far, and where it got to.
    seen: Mutex<(Cursor, std::sync::Arc<Vec<Entry>>)>,
    /// The thread [`Activity::queue`] hands entries to, once started (`writer`).
    writer: OnceLock<writer::Writer>,
}

#[cfg(unix)]
pub(crate) fn ino_of(meta: &std::fs::Metadata) -> u64 {
    std::os::unix::fs::MetadataExt::ino(meta)
}
#[cfg(not(unix))]
pub(crate) fn ino_of(_meta: &std::fs::Metadata) -> u64 {
    0
}

fn io_err(path: &Path, source: std::io::Error) -> StoreError {
    StoreError::Io {
        path: path.to_path_buf(),
        source,
    }
}

fn count_lines(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| b == b'\n').count()
}

/// Parse complete lines, skipping those that do not parse.
fn parse_lines(bytes: &[u8], log: &mut Log) {
    for line in bytes.split(|&b| b == b'\n') {
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        match serde_json::from_slice::<Entry>(line) {
            Ok(e) => log.entries.push(e),
            Err(_) => log.skipped += 1,
        }
    }
}

/// The log's bytes read as [`Activity::read`] reads them (whole lines only), for the fuzz
/// targets (see [`super::fuzzing`]). Panics when an invariant breaks: every whole line that
/// is not blank is an entry or skipped; an entry as a writer would write it
/// ([`Entry::sanitized`]) is sanitized already when sanitized again, reads back from its JSON
/// as itself, and is described on one line without control characters; the sessions hold
/// every call and consent step.
#[cfg(any(test, feature = "fuzzing"))]
#[allow(clippy::panic)]
pub(crate) fn fuzz_log(bytes: &[u8]) -> Log {
    let mut log = Log::default();
    let whole = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    parse_lines(&bytes[..whole], &mut log);
    let lines = bytes[..whole]
        .split(|&b| b == b'\n')
        .filter(|l| !l.iter().all(u8::is_ascii_whitespace))
        .count();
    if log.entries.len() + log.skipped != lines {
        panic!(
            "{lines} lines gave {} entries and {} skipped",
            log.entries.len(),
            log.skipped
        );
    }
    for e in &log.entries {
        let clean = e.sanitized();
        if clean.sanitized() != clean {
            panic!("sanitizing twice changes an entry: {clean:?}");
        }
        let json = serde_json::to_vec(&clean).unwrap_or_default();
        match serde_json::from_slice::<Entry>(&json) {
            Ok(back) if back == clean => {}
            other => panic!("{clean:?} reads back as {other:?}"),
        }
        let line = describe(&clean);
        if line.chars().any(char::is_control) {
            panic!("a described entry holds a control character: {line:?}");
        }
    }
    let steps = log
        .entries
        .iter()
        .filter(|e| matches!(e.event, Event::Call { .. } | Event::Consent { .. }))
        .count();
    let grouped: usize = sessions(&log.entries).iter().map(|s| s.events.len()).sum();
    if grouped != steps {
        panic!("{steps} calls and consent steps, {grouped} in sessions");
    }
    log
}

impl Activity {
    /// The log at `path`, kept within `limits` (nothing is read or created yet).
    pub fn new(path: PathBuf, limits: Limits) -> Activity {
        Activity {
            path,
            limits,
            appender: Mutex::new(append::Appender::default()),
            seen: Mutex::new((Cursor::default(), std::sync::Arc::new(Vec::new()))),
            writer: OnceLock::new(),
        }
    }

    /// The file this log reads and writes.
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn open_append(&self) -> Result<File, StoreError> {
        let mut opts = OpenOptions::new();
        opts.read(true).append(true).create(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            opts.mode(0o600)
                .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
        }
        let file =
            opts.open(&self.path)
                .map_err(|e| match std::fs::symlink_metadata(&self.path) {
                    Ok(m) if !m.file_type().is_file() => StoreError::NotRegular {
                        path: self.path.clone(),
                        kind: if m.file_type().is_symlink() {
                            "a symbolic link"
                        } else {
                            "not a regular file"
                        },
                    },
                    _ => io_err(&self.path, e),
                })?;
        let meta = file.metadata().map_err(|e| io_err(&self.path, e))?;
        if !meta.file_type().is_file() {
            return Err(StoreError::NotRegular {
                path: self.path.clone(),
                kind: "a FIFO, socket or device",
            });
        }
        super::perms::check_file(&self.path, &meta)?;
        Ok(file)
    }

    /// An entry as the line written for it: sanitized, rendered, bounded.
    fn line_of(entry: &Entry) -> Result<Vec<u8>, StoreError> {
        let mut line = serde_json::to_vec(&entry.sanitized())
            .map_err(|e| StoreError::Invalid(format!("cannot render an activity entry: {e}")))?;
        line.push(b'\n');
        if line.len() > MAX_LINE {
            return Err(StoreError::Invalid(format!(
                "an activity entry of {} bytes is over the {MAX_LINE}-byte bound",
                line.len()
            )));
        }
        Ok(line)
    }

    /// Append one entry (sanitized first) in one write, now; compact when over the bounds.
    /// Lines this handle queued ([`Activity::queue`]) are written first, so the file keeps
    /// this process's order.
    ///
    /// A line torn by a full disk (the write stopped part way) is cut off again before
    /// anything else is appended ([`Activity::mend`]), so it never swallows the next entry.
    pub fn append(&self, entry: &Entry) -> Result<(), StoreError> {
        let line = Activity::line_of(entry)?;
        self.flush();
        self.append_lines(&[line])
    }

    /// Queue one entry (sanitized and checked now) for this log's writer thread, started on
    /// first use: the caller does not wait for the disk. Written in queue order;
    /// [`Activity::flush`] waits for them. Without a thread, the entry is appended in place.
    pub fn queue(&self, entry: &Entry) -> Result<(), StoreError> {
        let line = Activity::line_of(entry)?;
        let writer = self
            .writer
            .get_or_init(|| writer::Writer::start(Activity::new(self.path.clone(), self.limits)));
        if writer.send(line.clone()) {
            return Ok(());
        }
        self.append_lines(&[line])
    }

    /// Wait until every entry queued on this handle is written (bounded: a disk that hangs
    /// does not hang the caller for more than a few seconds).
    pub fn flush(&self) {
        if let Some(w) = self.writer.get() {
            w.flush();
        }
    }

    /// Append whole lines in order through this handle's appender; compact when over the
    /// bounds.
    fn append_lines(&self, lines: &[Vec<u8>]) -> Result<(), StoreError> {
        let mut appender = self.appender.lock().unwrap_or_else(|p| p.into_inner());
        let mut mended = false;
        let over = loop {
            match appender.write(self, lines)? {
                Append::Written(over) => break over,
                Append::Torn if !mended => {
                    appender.forget_tail();
                    self.mend()?;
                    mended = true;
                }
                Append::Torn => {
                    return Err(io_err(
                        &self.path,
                        std::io::Error::other("its last line stays torn"),
                    ));
                }
                Append::Failed(e) => {
                    appender.forget_tail();
                    // Best effort: the next append mends it otherwise.
                    let _ = self.mend();
                    return Err(e);
                }
            }
        };
        if over {
            appender.forget_tail();
            drop(appender);
            self.compact()?;
        }
        Ok(())
    }

    /// Under the exclusive lock (no append is under way): cut off a last line that does not
    /// end with a newline. Appends are whole lines of at most [`MAX_LINE`] bytes, so such a
    /// tail is a write that stopped part way; a longer one is not ours (a hand edit) and is
    /// ended with a newline instead, so the next entry starts a line of its own.
    pub fn mend(&self) -> Result<(), StoreError> {
        let lock = atomic::lock_path(&self.path);
        atomic::with_lock(&lock, true, || {
            let Some(mut file) = atomic::open_data_file_rw(&self.path)? else {
                return Ok(());
            };
            let err = |e| io_err(&self.path, e);
            let len = file.metadata().map_err(err)?.len();
            if ends_a_line(&mut file, len).map_err(err)? {
                return Ok(());
            }
            let from = len.saturating_sub(MAX_LINE as u64);
            file.seek(SeekFrom::Start(from)).map_err(err)?;
            let mut tail = Vec::new();
            file.read_to_end(&mut tail).map_err(err)?;
            match tail.iter().rposition(|&b| b == b'\n') {
                Some(i) => file.set_len(from + i as u64 + 1).map_err(err)?,
                None if from == 0 => file.set_len(0).map_err(err)?,
                None => {
                    file.seek(SeekFrom::End(0)).map_err(err)?;
                    file.write_all(b"\n").map_err(err)?;
                }
            }
            file.sync_all().map_err(err)
        })
    }

    fn count_from(&self, file: &mut File, from: u64) -> Result<usize, StoreError> {
        file.seek(SeekFrom::Start(from))
            .map_err(|e| io_err(&self.path, e))?;
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes)
            .map_err(|e| io_err(&self.path, e))?;
        Ok(count_lines(&bytes))
    }

    /// Rewrite the file keeping the newest half of what the bounds allow (under the exclusive
    /// lock; a no-op when another process compacted first).
    pub fn compact(&self) -> Result<(), StoreError> {
        let lock = atomic::lock_path(&self.path);
        atomic::with_lock(&lock, true, || {
            let Some(bytes) = atomic::read_bytes(&self.path)? else {
                return Ok(());
            };
            let lines = count_lines(&bytes);
            if lines <= self.limits.max_entries && bytes.len() as u64 <= self.limits.max_bytes {
                return Ok(());
            }
            let keep_lines = (self.limits.max_entries / 2).max(1);
            let keep_bytes = (self.limits.max_bytes / 2).max(MAX_LINE as u64) as usize;
            let body = bytes.strip_suffix(b"\n").unwrap_or(&bytes);
            let starts: Vec<usize> = std::iter::once(0)
                .chain(
                    body.iter()
                        .enumerate()
                        .filter(|(_, b)| **b == b'\n')
                        .map(|(i, _)| i + 1),
                )
                .collect();
            // The oldest line kept: walk back while the newest lines stay within both halves.
            let mut k = starts.len() - 1;
            while k > 0
                && starts.len() - (k - 1) <= keep_lines
                && bytes.len() - starts[k - 1] <= keep_bytes
            {
                k -= 1;
            }
            let start = starts[k];
            atomic::write_file(&self.path, &bytes[start..], Modes::DATA)
        })
    }

    /// Every entry, oldest first; lines that do not parse are skipped and counted.
    pub fn read(&self) -> Result<Log, StoreError> {
        let mut log = Log::default();
        if let Some(bytes) = atomic::read_bytes(&self.path)? {
            // Only whole lines: a last line without its newline is being written, or was
            // torn by a full disk and is cut off by the next append.
            let whole = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
            parse_lines(&bytes[..whole], &mut log);
        }
        Ok(log)
    }

    /// The entries written since `cursor` (all of them on a first call, or when the file was
    /// compacted or replaced since), and true when the reader should start over.
    pub fn read_since(&self, cursor: &mut Cursor) -> Result<(Log, bool), StoreError> {
        let mut log = Log::default();
        let Some(mut file) = atomic::open_data_file(&self.path)? else {
            let reset = cursor.offset != 0;
            *cursor = Cursor::default();
            return Ok((log, reset));
        };
        let meta = file.metadata().map_err(|e| io_err(&self.path, e))?;
        let ino = ino_of(&meta);
        let had = *cursor != Cursor::default();
        let mut head = vec![0u8; HEAD.min(usize::try_from(meta.len()).unwrap_or(HEAD))];
        file.read_exact(&mut head)
            .map_err(|e| io_err(&self.path, e))?;
        let same_head = head.starts_with(&cursor.head) || cursor.head.starts_with(&head);
        let reset = cursor.ino != ino || meta.len() < cursor.offset || !same_head;
        let from = if reset { 0 } else { cursor.offset };
        file.seek(SeekFrom::Start(from))
            .map_err(|e| io_err(&self.path, e))?;
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes)
            .map_err(|e| io_err(&self.path, e))?;
        // Only whole lines: a line being written is read next time.
        let whole = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        parse_lines(&bytes[..whole], &mut log);
        *cursor = Cursor {
            ino,
            head,
            offset: from + whole as u64,
        };
        Ok((log, reset && had))
    }

    /// Every entry, oldest first, read incrementally: only what was appended since the last
    /// call is parsed (everything again after a compaction), so a reader that looks often
    /// (the browser) pays for each line once. Lines that do not parse are skipped.
    pub fn snapshot(&self) -> Result<std::sync::Arc<Vec<Entry>>, StoreError> {
        let mut seen = self.seen.lock().unwrap_or_else(|p| p.into_inner());
        let (cursor, entries) = &mut *seen;
        let had = *cursor != Cursor::default();
        let before = cursor.clone();
        let (log, reset) = self.read_since(cursor)?;
        let restarted = !had || reset || cursor.ino != before.ino;
        if restarted {
            *entries = std::sync::Arc::new(log.entries);
        } else if !log.entries.is_empty() {
            std::sync::Arc::make_mut(entries).extend(log.entries);
        }
        Ok(std::sync::Arc::clone(entries))
    }

    /// A cheap signature of the file (inode, length, modification time) to notice changes.
    pub fn stamp(&self) -> Option<(u64, u64, std::time::SystemTime)> {
        let meta = std::fs::symlink_metadata(&self.path).ok()?;
        Some((ino_of(&meta), meta.len(), meta.modified().ok()?))
    }
}

/// One session as the log tells it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Session {
    /// Its id.
    pub id: String,
    /// The client's declared name ("" when its start was compacted away).
    pub client: String,
    /// The client's declared version.
    pub version: String,
    /// When it started (None when that entry is gone).
    pub started: Option<OffsetDateTime>,
    /// When it ended (None: still running, or the process died).
    pub ended: Option<OffsetDateTime>,
    /// Its newest entry.
    pub last: OffsetDateTime,
    /// Its calls and consent steps, oldest first.
    pub events: Vec<Entry>,
}

impl Session {
    /// Started, not ended, and something happened within [`ACTIVE_WINDOW_SECONDS`].
    pub fn active(&self, now: OffsetDateTime) -> bool {
        self.ended.is_none() && now - self.last <= time::Duration::seconds(ACTIVE_WINDOW_SECONDS)
    }
    /// The client as shown: "name version", or "an MCP client".
    pub fn label(&self) -> String {
        match (self.client.is_empty(), self.version.is_empty()) {
            (true, _) => "an MCP client".to_string(),
            (false, true) => self.client.clone(),
            (false, false) => format!("{} {}", self.client, self.version),
        }
    }
}

/// Group entries into sessions, the most recently active first.
pub fn sessions(entries: &[Entry]) -> Vec<Session> {
    let mut by_id: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    let mut out: Vec<Session> = Vec::new();
    for e in entries {
        let i = *by_id.entry(e.session.as_str()).or_insert_with(|| {
            out.push(Session {
                id: e.session.clone(),
                client: String::new(),
                version: String::new(),
                started: None,
                ended: None,
                last: e.at,
                events: Vec::new(),
            });
            out.len() - 1
        });
        let s = &mut out[i];
        s.last = s.last.max(e.at);
        match &e.event {
            Event::Start {
                client, version, ..
            } => {
                s.client = client.clone();
                s.version = version.clone();
                s.started = Some(e.at);
            }
            Event::End => s.ended = Some(e.at),
            Event::Call { .. } | Event::Consent { .. } => s.events.push(e.clone()),
        }
    }
    out.sort_by_key(|s| std::cmp::Reverse(s.last));
    out
}

/// A fresh session id: 8 random lowercase hex digits.
pub fn new_session_id() -> Result<String, StoreError> {
    let rng = ring::rand::SystemRandom::new();
    let bytes: [u8; 4] = ring::rand::generate(&rng)
        .map_err(|_| StoreError::Crypto("the system random source failed".into()))?
        .expose();
    Ok(format!("{:08x}", u32::from_be_bytes(bytes)))
}

/// One entry as a line of text for a terminal (`smolweb agents log`, the browser).
pub fn describe(e: &Entry) -> String {
    let when = smolweb_core::text::rfc3339(e.at);
    match &e.event {
        Event::Start {
            client, version, ..
        } => format!(
            "{when} [{}] session started by {client} {version}",
            e.session
        ),
        Event::End => format!("{when} [{}] session ended", e.session),
        Event::Call {
            tool,
            url,
            urls,
            outcome,
            error,
            bytes,
            cached,
            ms,
        } => {
            let mut s = format!("{when} [{}] {tool}", e.session);
            if let Some(u) = url {
                s.push(' ');
                s.push_str(u);
            }
            if let Some(n) = urls.filter(|n| *n > 1) {
                s.push_str(&format!(" (+{} more)", n - 1));
            }
            s.push_str(if *error { " → error " } else { " → " });
            s.push_str(outcome);
            if let Some(b) = bytes {
                s.push_str(&format!(", {}", smolweb_core::text::human_bytes(*b)));
            }
            if *cached == Some(true) {
                s.push_str(", cached");
            }
            s.push_str(&format!(", {ms} ms"));
            s
        }
        Event::Consent {
            tool,
            step,
            what,
            by,
            ..
        } => {
            format!(
                "{when} [{}] {tool}: consent {}: {what}",
                e.session,
                step.said(*by)
            )
        }
    }
}

#[cfg(test)]
mod tests;
