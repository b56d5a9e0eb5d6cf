//! The person's subscriptions ([`smolweb_store::subscriptions`]: feeds, and pages followed
//! for their changes) as the faces use them: every face lists them (the client's one parsed
//! copy, shared), the browser and the CLI follow and drop them, mark entries read and say
//! what `smolweb sync` keeps of them. Refreshing them is the client's `feeds`, adopting a
//! moved one its `follow`.

use crate::Client;
use smolweb_core::follow::Watch;
use smolweb_store::StoreError;
use smolweb_store::subscriptions::Subscription;
use std::sync::Arc;

impl Client {
    /// Every subscription, in the order they were added, as the file holds them now: the
    /// client's parsed copy itself, shared (re-read only when the file changed).
    pub fn subscriptions_list(&self) -> Result<Arc<Vec<Subscription>>, StoreError> {
        self.subscriptions.shared()
    }

    /// The subscription `url` names (normalized first), if followed.
    pub fn subscription(&self, url: &str) -> Result<Option<Subscription>, StoreError> {
        self.subscriptions.get(url)
    }

    /// Follow the feed at `url` now: its stored (normalized) URL, and whether it was new.
    pub fn subscribe(&self, url: &str) -> Result<(String, bool), StoreError> {
        self.subscriptions.add(url, self.now())
    }

    /// Follow the page at `url` for its changes, `watch` saying which count: its stored URL,
    /// and whether it was new (a page followed already takes the new `watch`; a feed at that
    /// URL is refused).
    pub fn follow_page(&self, url: &str, watch: Watch) -> Result<(String, bool), StoreError> {
        self.subscriptions.follow(url, watch, self.now())
    }

    /// Stop following `url` (its read state goes with it); the subscription dropped,
    /// `NotFound` when not followed.
    pub fn unsubscribe(&self, url: &str) -> Result<Subscription, StoreError> {
        self.subscriptions.remove(url)
    }

    /// Say whether `smolweb sync` keeps the same-capsule pages of `url`'s entries too (None:
    /// the config's default); the subscription as stored.
    pub fn set_sync_links(
        &self,
        url: &str,
        links: Option<bool>,
    ) -> Result<Subscription, StoreError> {
        self.subscriptions.set_sync_links(url, links)
    }

    /// Mark every entry with this URL read (in all subscriptions); whether one was unread.
    pub fn mark_read(&self, entry_url: &str) -> Result<bool, StoreError> {
        self.subscriptions.mark_read(entry_url)
    }

    /// Mark all entries read, of one subscription or (None) of all; how many changed.
    pub fn mark_all_read(&self, feed: Option<&str>) -> Result<usize, StoreError> {
        self.subscriptions.mark_all_read(feed)
    }
}
