//! The pages the person shares with agents ([`smolweb_store::shared`]): the browser shares
//! and unshares them, the agent's face lists and reads them (as resources and
//! `shared_pages_list`) and watches the file for changes.

use crate::Client;
use smolweb_store::StoreError;
use smolweb_store::shared::SharedPage;

impl Client {
    /// The shared pages, newest first.
    pub fn shared_pages(&self) -> Result<Vec<SharedPage>, StoreError> {
        self.shared.list()
    }

    /// One shared page by id (`NotFound` when the person stopped sharing it).
    pub fn shared_page(&self, id: &str) -> Result<SharedPage, StoreError> {
        self.shared.get(id)
    }

    /// A cheap signature of the shared pages' file, to notice that it changed.
    pub fn shared_pages_stamp(&self) -> Option<(u64, u64, std::time::SystemTime)> {
        self.shared.stamp()
    }

    /// Share a page with agents now (again: new note and time, same id); the page shared.
    pub fn share_page(
        &self,
        url: &str,
        title: Option<&str>,
        note: Option<&str>,
    ) -> Result<SharedPage, StoreError> {
        self.shared.add(url, title, note, self.now())
    }

    /// Stop sharing a page; the page that was shared.
    pub fn unshare_page(&self, id: &str) -> Result<SharedPage, StoreError> {
        self.shared.remove(id)
    }
}
