//! The one way lines reach the activity log, for [`Activity::append`] and the background
//! writer alike: under the shared lock of the sidecar, one `O_APPEND` write per line, in order,
//! then the tail's line count for the bounds.
//!
//! An appender keeps the sidecar and the log open between appends, so an append costs a lock,
//! one stat of the path, the writes, one stat of the file and an unlock (no open or close).
//! A compaction (under the exclusive lock, so never while this holds the shared one) replaces
//! the file; the stat of the path then names another inode than the one held, and the log is
//! opened again. A path that is gone (the data directory removed) drops everything held, and
//! the next append starts afresh.

use super::{Activity, Append, StoreError, Tail, ends_a_line, ino_of, io_err};
use crate::atomic;
use std::fs::File;
use std::io::Write;

/// The log as this appender opened it, with the inode it had then.
#[derive(Debug)]
struct OpenLog {
    file: File,
    ino: u64,
}

/// What one appender holds between appends (see the module docs).
#[derive(Debug, Default)]
pub(super) struct Appender {
    lock: Option<File>,
    log: Option<OpenLog>,
    tail: Option<Tail>,
}

impl Appender {
    /// Append `lines` (each a whole line, newline included) to `log` in order, unless its last
    /// line is torn (nothing written: the caller mends it and tries again); `Written(true)`
    /// when the log is now over its bounds (the caller compacts).
    pub(super) fn write(
        &mut self,
        log: &Activity,
        lines: &[Vec<u8>],
    ) -> Result<Append, StoreError> {
        let lock_path = atomic::lock_path(&log.path);
        let lock = match &mut self.lock {
            Some(f) => f,
            empty => empty.insert(atomic::open_lock(&lock_path)?),
        };
        lock.lock_shared().map_err(|e| io_err(&lock_path, e))?;
        let result = under_lock(&mut self.log, &mut self.tail, log, lines);
        // Closing the file would release the lock too; this one stays open.
        let _ = lock.unlock();
        if !matches!(result, Ok(Append::Written(_))) {
            // Start afresh next time: the directory may be gone, or the file replaced.
            *self = Appender::default();
        }
        result
    }

    /// Forget the tail's line count (after a compaction, which rewrote the file).
    pub(super) fn forget_tail(&mut self) {
        self.tail = None;
    }
}

/// The work under the shared lock: the open log (opened again when the path names another
/// file), the check that its last line is whole, the writes, and the tail's count.
fn under_lock(
    open: &mut Option<OpenLog>,
    tail: &mut Option<Tail>,
    log: &Activity,
    lines: &[Vec<u8>],
) -> Result<Append, StoreError> {
    let now = std::fs::symlink_metadata(&log.path)
        .ok()
        .map(|m| ino_of(&m));
    let held = match open.take() {
        Some(o) if Some(o.ino) == now => o,
        _ => {
            let file = log.open_append()?;
            let ino = ino_of(&file.metadata().map_err(|e| io_err(&log.path, e))?);
            OpenLog { file, ino }
        }
    };
    let file = &mut open.insert(held).file;
    let before = file.metadata().map_err(|e| io_err(&log.path, e))?.len();
    if !ends_a_line(file, before).map_err(|e| io_err(&log.path, e))? {
        return Ok(Append::Torn);
    }
    let mut written = 0u64;
    for line in lines {
        if let Err(e) = file.write_all(line) {
            return Ok(Append::Failed(io_err(&log.path, e)));
        }
        written += line.len() as u64;
    }
    let meta = file.metadata().map_err(|e| io_err(&log.path, e))?;
    let (ino, len) = (ino_of(&meta), meta.len());
    let count = match tail.as_ref() {
        Some(t) if t.ino == ino && t.len <= len => {
            if len == t.len + written {
                t.lines + lines.len()
            } else {
                // Another process appended in between: count what it added, once.
                t.lines + log.count_from(file, t.len)?
            }
        }
        _ => log.count_from(file, 0)?,
    };
    *tail = Some(Tail {
        ino,
        len,
        lines: count,
    });
    Ok(Append::Written(
        count > log.limits.max_entries || len > log.limits.max_bytes,
    ))
}
