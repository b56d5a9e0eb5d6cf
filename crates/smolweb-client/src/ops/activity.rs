//! The agents' activity log ([`smolweb_store::activity`], bounded per `[agents]`) as the
//! faces use it: the agent's face queues its lines to the log's writer thread and waits for
//! them before each reply, the browser and `smolweb agents log` read it.

use crate::Client;
use smolweb_store::StoreError;
use smolweb_store::activity::{Cursor, Entry, Log};
use std::sync::Arc;

impl Client {
    /// Queue one entry for the log's writer thread (the caller does not wait for the disk).
    pub fn log_activity(&self, entry: &Entry) -> Result<(), StoreError> {
        self.activity.queue(entry)
    }

    /// Wait (boundedly) until every entry this client queued is written.
    pub fn flush_activity(&self) {
        self.activity.flush();
    }

    /// Every entry, oldest first, read incrementally (only new lines are parsed).
    pub fn activity_snapshot(&self) -> Result<Arc<Vec<Entry>>, StoreError> {
        self.activity.snapshot()
    }

    /// The entries written since `cursor`, and true when the reader should start over (the
    /// log was compacted or replaced).
    pub fn read_activity_since(&self, cursor: &mut Cursor) -> Result<(Log, bool), StoreError> {
        self.activity.read_since(cursor)
    }

    /// A cheap signature of the log file, to notice that it changed.
    pub fn activity_stamp(&self) -> Option<(u64, u64, std::time::SystemTime)> {
        self.activity.stamp()
    }
}
