//! The history of visits ([`smolweb_store::history`]) as the faces use it: the browser
//! records a visit and forgets one or all, every face reads the list.

use crate::Client;
use smolweb_store::StoreError;
use smolweb_store::history::Visit;

impl Client {
    /// The visits, newest first.
    pub fn history_list(&self) -> Result<Vec<Visit>, StoreError> {
        self.history.list()
    }

    /// Record a visit of `url` now (its query stripped; an earlier visit moves to the front).
    pub fn record_visit(&self, url: &str, title: Option<&str>) -> Result<(), StoreError> {
        self.history.record(url, title, self.now())
    }

    /// Forget the visit of `url`; whether it was in the history.
    pub fn forget_visit(&self, url: &str) -> Result<bool, StoreError> {
        self.history.remove(url)
    }

    /// Forget every visit; how many there were.
    pub fn clear_history(&self) -> Result<usize, StoreError> {
        self.history.clear()
    }
}
