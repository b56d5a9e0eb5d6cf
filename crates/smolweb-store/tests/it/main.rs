//! The store's integration tests, one binary: every file in the data directory, its atomic
//! locked writes, two processes merging, and refusals of links and broken files.

// clippy.toml's allow-*-in-tests covers #[test] functions and #[cfg(test)] modules only; the
// helpers of an integration-test binary (servers, fixtures, waits) may unwrap and panic too.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
// Tests say SKIP or show figures on the terminal they run in.
#![allow(clippy::print_stdout, clippy::print_stderr)]

mod store_approvals;
mod store_bookmarks_history;
mod store_follows;
mod store_formats;
mod store_identity;
mod store_links;
mod store_offline;
mod store_perms;
mod store_session;
mod store_site_rules;
mod store_subscriptions;
mod store_tofu;
mod store_tour;

/// Run the ignored test `test` in two child processes of this test binary (ids `one` and
/// `two` in `SMOLWEB_TEST_ID`, and `vars`), and wait until both succeeded.
pub(crate) fn run_two_children(test: &str, vars: &[(&str, &std::path::Path)]) {
    let exe = std::env::current_exe().unwrap();
    let children: Vec<_> = ["one", "two"]
        .iter()
        .map(|id| {
            let mut cmd = std::process::Command::new(&exe);
            cmd.args(["--exact", test, "--ignored", "--nocapture"])
                .env("SMOLWEB_TEST_ID", id)
                .stdout(std::process::Stdio::null());
            for (k, v) in vars {
                cmd.env(k, v);
            }
            cmd.spawn().unwrap()
        })
        .collect();
    for mut c in children {
        assert!(c.wait().unwrap().success(), "{test} failed in a child");
    }
}

pub(crate) use smolweb_store::perms::write_private;
