//! The store's integration tests, one binary: every file in the data directory, its atomic
//! locked writes, two processes merging, and refusals of links and broken files.

// clippy.toml's allow-*-in-tests covers #[test] functions and #[cfg(test)] modules only; the
// helpers of an integration-test binary (servers, fixtures, waits) may unwrap and panic too.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
// Tests say SKIP or show figures on the terminal they run in.
#![allow(clippy::print_stdout, clippy::print_stderr)]

mod store_approvals;
mod store_bookmarks_history;
mod store_formats;
mod store_identity;
mod store_links;
mod store_offline;
mod store_perms;
mod store_session;
mod store_subscriptions;
mod store_tofu;

pub(crate) use smolweb_store::perms::write_private;
