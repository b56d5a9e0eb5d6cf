//! The store's integration tests, one binary: every file in the data directory, its atomic
//! locked writes, two processes merging, and refusals of links and broken files.

mod store_approvals;
mod store_bookmarks_history;
mod store_identity;
mod store_links;
mod store_offline;
mod store_subscriptions;
mod store_tofu;
