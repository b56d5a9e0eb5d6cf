//! The background writer of a log, for a process that records while it answers (the MCP
//! server records every call): [`Activity::queue`] hands the rendered line to one thread per
//! log, which appends the lines in the order they were queued, through the same appender as
//! [`Activity::append`] (the sidecar's shared lock, one `O_APPEND` write per line, compaction
//! when due). The caller never waits for the disk.
//!
//! The thread wakes as soon as a line is queued and writes whatever has queued up by then as
//! one batch (one lock, one stat). [`Activity::flush`] waits until every line queued before it
//! is written (at once when nothing is pending: two counters say so), and dropping the writer
//! flushes and ends the thread, so a clean exit loses no line. The MCP front end flushes before
//! each line it writes to stdout, so a reply never leaves before its call's line is in the file:
//! the write runs while the reply is rendered, and a process killed right after answering has
//! already recorded the call. A line the thread cannot write is reported through `tracing`
//! (there is no caller left to tell), like a failed append always was.

use super::Activity;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel, sync_channel};
use std::thread::JoinHandle;
use std::time::Duration;

/// The longest [`Writer::flush`] waits (a disk that hangs must not hang the caller).
const FLUSH_WAIT: Duration = Duration::from_secs(5);

enum Job {
    Line(Vec<u8>),
    Flush(std::sync::mpsc::SyncSender<()>),
}

/// A log's writer thread and the queue to it.
#[derive(Debug)]
pub(super) struct Writer {
    queue: Option<Sender<Job>>,
    thread: Option<JoinHandle<()>>,
    /// Lines queued, and lines the thread is done with (written or reported).
    counts: Arc<Counts>,
}

/// How far the queue and the thread got, so a flush with nothing pending costs two loads.
#[derive(Debug, Default)]
struct Counts {
    queued: AtomicU64,
    done: AtomicU64,
}

impl std::fmt::Debug for Job {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Job::Line(l) => write!(f, "Line({} bytes)", l.len()),
            Job::Flush(_) => f.write_str("Flush"),
        }
    }
}

impl Writer {
    /// Start the thread over its own handle on the log (`log`), or hand the handle back when
    /// no thread can be started.
    pub(super) fn start(log: Activity) -> Writer {
        let (queue, jobs) = channel();
        let counts = Arc::new(Counts::default());
        let theirs = Arc::clone(&counts);
        let thread = std::thread::Builder::new()
            .name("activity-log".into())
            .spawn(move || run(&log, &jobs, &theirs));
        match thread {
            Ok(t) => Writer {
                queue: Some(queue),
                thread: Some(t),
                counts,
            },
            Err(e) => {
                tracing::warn!("no activity-log thread ({e}); entries are written in place");
                Writer {
                    queue: None,
                    thread: None,
                    counts,
                }
            }
        }
    }

    /// Queue a rendered line; false when there is no thread to take it.
    pub(super) fn send(&self, line: Vec<u8>) -> bool {
        let sent = self
            .queue
            .as_ref()
            .is_some_and(|q| q.send(Job::Line(line)).is_ok());
        if sent {
            self.counts.queued.fetch_add(1, Ordering::SeqCst);
        }
        sent
    }

    /// Wait until every line queued so far is written (at most [`FLUSH_WAIT`]).
    pub(super) fn flush(&self) {
        let Some(queue) = &self.queue else {
            return;
        };
        if self.counts.done.load(Ordering::SeqCst) >= self.counts.queued.load(Ordering::SeqCst) {
            return;
        }
        let (done, written) = sync_channel(1);
        if queue.send(Job::Flush(done)).is_ok() {
            let _ = written.recv_timeout(FLUSH_WAIT);
        }
    }
}

impl Drop for Writer {
    fn drop(&mut self) {
        // The thread writes what is queued, sees the queue closed and ends.
        drop(self.queue.take());
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// The thread: wait for a line, take every line queued behind it, write them as one batch,
/// answer flushes once what came before them is written.
fn run(log: &Activity, jobs: &Receiver<Job>, counts: &Counts) {
    let mut batch = Vec::new();
    let mut flushes = Vec::new();
    while let Ok(first) = jobs.recv() {
        let mut next = Some(first);
        while let Some(job) = next.take() {
            match job {
                Job::Line(l) => batch.push(l),
                Job::Flush(done) => flushes.push(done),
            }
            // Empty or closed alike: write what was taken (a closed queue ends the loop above).
            next = jobs.try_recv().ok();
        }
        if !batch.is_empty() {
            if let Err(e) = log.append_lines(&batch) {
                tracing::warn!("cannot record agent activity: {e}");
            }
            counts.done.fetch_add(batch.len() as u64, Ordering::SeqCst);
            batch.clear();
        }
        for done in flushes.drain(..) {
            let _ = done.send(());
        }
    }
}
