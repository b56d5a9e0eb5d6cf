//! The fuzz targets' door into the store files (`fuzz/fuzz_targets/store_files.rs`): each file
//! read from bytes by the very parser and renderer its store uses, then written and read
//! again. Hidden from the docs; not an API.
//!
//! Invariant checked: a file the store accepts renders to a file the store accepts again, and
//! that second rendering is the same text (a file we wrote reads back as what we meant).

use super::StoreError;
use super::{
    approvals, history, list_file, shared, site_rules, subscriptions, suggestions, sync_queue,
    tofu, tour, uploads,
};
use std::fmt::Display;

/// Which file the bytes are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum File {
    KnownHosts,
    Identity,
    Approvals,
    Bookmarks,
    History,
    Subscriptions,
    OfflineIndex,
    OfflinePage,
    SharedPages,
    Suggestions,
    Browsers,
    SyncQueue,
    Uploads,
    FollowedPage,
    Tour,
    SiteRules,
}

/// Every kind, in the order a fuzz input's first byte selects them.
pub const FILES: [File; 8] = [
    File::KnownHosts,
    File::Identity,
    File::Approvals,
    File::Bookmarks,
    File::History,
    File::Subscriptions,
    File::OfflineIndex,
    File::OfflinePage,
];

/// The files the agents' side of the data directory adds (the `agent_files` target), in the
/// order a fuzz input's first byte selects them.
pub const AGENT_FILES: [File; 5] = [
    File::SharedPages,
    File::Suggestions,
    File::Browsers,
    File::SyncQueue,
    File::Uploads,
];

/// The files the pages followed for their changes, the tour and the site rules add (the
/// `follow_tour_files` target): a followed page's kept copy (`follows/<sha256>.toml`: its
/// text, memory and last changes), `tour.toml` and `site_rules.toml`, in the order a fuzz
/// input's first byte selects them.
pub const FOLLOW_TOUR_FILES: [File; 3] = [File::FollowedPage, File::Tour, File::SiteRules];

/// What reading, writing and reading again did.
#[derive(Debug, PartialEq, Eq)]
pub enum RoundTrip {
    /// The store refuses the bytes (a corrupt file: an error naming it).
    Refused,
    /// Accepted; the rendering reads back to the same rendering.
    Stable,
    /// Accepted, but what was written does not read back (the reason), or reads back as
    /// another file (both renderings).
    Unstable { first: String, second: String },
}

/// Read `bytes` as `file`, write it, read it again (see the module docs).
pub fn round_trip(file: File, bytes: &[u8]) -> RoundTrip {
    // A store file is read as UTF-8 text (other bytes are an I/O error naming the file); an
    // offline page file is a text header and the body's bytes.
    match (file, std::str::from_utf8(bytes)) {
        (File::OfflinePage, _) => super::offline::page_round_trip(bytes),
        (_, Err(_)) => RoundTrip::Refused,
        (File::KnownHosts, Ok(text)) => list_file::round_trip::<tofu::Pin>(text),
        (File::Identity, Ok(text)) => super::identity::round_trip(text),
        (File::Approvals, Ok(text)) => list_file::round_trip::<approvals::Approval>(text),
        (File::Bookmarks, Ok(text)) => super::bookmarks::round_trip(text),
        (File::History, Ok(text)) => list_file::round_trip::<history::Visit>(text),
        (File::Subscriptions, Ok(text)) => {
            list_file::round_trip::<subscriptions::Subscription>(text)
        }
        (File::OfflineIndex, Ok(text)) => super::offline::index_round_trip(text),
        (File::SharedPages, Ok(text)) => list_file::round_trip::<shared::SharedPage>(text),
        (File::Suggestions, Ok(text)) => list_file::round_trip::<suggestions::Suggestion>(text),
        (File::Browsers, Ok(text)) => list_file::round_trip::<suggestions::Browser>(text),
        (File::SyncQueue, Ok(text)) => list_file::round_trip::<sync_queue::Queued>(text),
        (File::Uploads, Ok(text)) => list_file::round_trip::<uploads::Allowance>(text),
        (File::FollowedPage, Ok(text)) => super::follows::round_trip(text),
        (File::Tour, Ok(text)) => list_file::round_trip::<tour::Stop>(text),
        (File::SiteRules, Ok(text)) => list_file::round_trip::<site_rules::SiteRuleEntry>(text),
    }
}

/// The activity log's bytes as its readers take them (see [`super::activity`]), and what a
/// writer would make of each entry; panics when an invariant breaks.
pub fn activity_log(bytes: &[u8]) -> super::activity::Log {
    super::activity::fuzz_log(bytes)
}

/// The round trip of a text file, with the store's own `parse` and `render`.
pub(super) fn check<T, E: Display>(
    text: &str,
    parse: impl Fn(&str) -> Result<T, E>,
    render: impl Fn(&T) -> Result<String, StoreError>,
) -> RoundTrip {
    let Ok(value) = parse(text) else {
        return RoundTrip::Refused;
    };
    let first = match render(&value) {
        Ok(r) => r,
        Err(e) => {
            return RoundTrip::Unstable {
                first: format!("cannot render: {e}"),
                second: String::new(),
            };
        }
    };
    let second = match parse(&first) {
        Ok(v) => render(&v).unwrap_or_else(|e| format!("cannot render again: {e}")),
        Err(e) => format!("cannot read back: {e}"),
    };
    if first == second {
        RoundTrip::Stable
    } else {
        RoundTrip::Unstable { first, second }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn accepted_files_read_back_and_corrupt_ones_are_refused() {
        let history = "[[visit]]\nurl = \"gemini://h/\"\nat = \"2024-01-01T00:00:00Z\"\n";
        assert_eq!(
            round_trip(File::History, history.as_bytes()),
            RoundTrip::Stable
        );
        assert_eq!(
            round_trip(File::History, b"[[visit]]\nurl = 3\n"),
            RoundTrip::Refused
        );
        assert_eq!(
            round_trip(File::Bookmarks, b"=> \xff\n"),
            RoundTrip::Refused
        );
        let page = b"smolweb-offline 1\nurl: gemini://h/\ntype: text/gemini\n\
                     fetched: 2024-01-01T00:00:00Z\n\n\x00\xffbody";
        assert_eq!(round_trip(File::OfflinePage, page), RoundTrip::Stable);
        assert_eq!(
            round_trip(File::OfflinePage, b"not a page\n\nbody"),
            RoundTrip::Refused
        );
    }

    /// The seeds of `follow_tour_files` (fuzz/seeds.py writes the same files): a followed
    /// page's copy with a change, and a tour with a stop of the person's and an agent's.
    const FOLLOWED_PAGE: &str = "url = \"gemini://h/log.gmi\"\n\
        fetched = \"2026-01-02T00:00:00Z\"\ntext = \"# Log\\n=> gemini://h/1.gmi One\\n\"\n\n\
        [memory]\nrecent = [\"00000000000000ff\", \"0123456789abcdef\"]\nstreak = 1\n\
        restless = false\n\n[[change]]\nat = \"2026-01-02T00:00:00Z\"\n\
        since = \"2026-01-01T00:00:00Z\"\n\n[change.diff]\n\n\
        [[change.diff.links_added]]\nurl = \"gemini://h/1.gmi\"\nlabel = \"One\"\n\n\
        [[change.diff.removed]]\nkind = \"heading\"\ntext = \"Old\"\n\n\
        [change.diff.counts]\nlinks_added = 1\nlinks_removed = 0\nadded = 0\nremoved = 1\n\
        noise = 2\n";
    const TOUR: &str = "[[stop]]\nurl = \"gemini://h/a\"\n\
        at = \"2026-01-01T00:00:00Z\"\nlabel = \"A\"\n\n[[stop]]\nurl = \"gopher://g/1/\"\n\
        at = \"2026-01-01T00:00:01Z\"\n\n[stop.agent]\nclient = \"bot\"\nsession = \"s1\"\n\
        reason = \"read this\"\n";

    #[test]
    fn site_rules_read_back() {
        let rules = "[[rule]]\nsite = \"forum.example\"\ncontent = \"div.post\"\n\
            remove = [\".share\"]\nadded = \"2026-12-01T00:00:00Z\"\n";
        assert_eq!(
            round_trip(File::SiteRules, rules.as_bytes()),
            RoundTrip::Stable
        );
        assert_eq!(
            round_trip(File::SiteRules, b"[[rule]]\nsite = 1\n"),
            RoundTrip::Refused
        );
    }

    #[test]
    fn followed_pages_and_the_tour_read_back() {
        assert_eq!(
            round_trip(File::FollowedPage, FOLLOWED_PAGE.as_bytes()),
            RoundTrip::Stable
        );
        assert_eq!(round_trip(File::Tour, TOUR.as_bytes()), RoundTrip::Stable);
        let unknown = format!("{FOLLOWED_PAGE}extra = 1\n");
        assert_eq!(
            round_trip(File::FollowedPage, unknown.as_bytes()),
            RoundTrip::Refused
        );
        assert_eq!(
            round_trip(File::Tour, b"[[stop]]\nurl = 3\n"),
            RoundTrip::Refused
        );
    }

    /// Fuzz finding (store_files): a page whose media type holds a CR. The encoder writes CR
    /// and LF in a header value as spaces (so the header keeps its lines), and the round trip
    /// called that a page that does not read back. What was written reads back as written.
    #[test]
    fn offline_page_with_a_cr_in_its_media_type_reads_back_as_written() {
        let cr = b"smolweb-offline 1\nurl: gemini://h/\ntype: text/gemini\r; x\n\
                   fetched: 2024-01-01T00:00:00Z\n\nbody";
        assert_eq!(round_trip(File::OfflinePage, cr), RoundTrip::Stable);
    }

    /// Fuzz finding (store_files): an identity file whose fingerprint is not one parses but
    /// is never rewritten (every write takes the file name from the fingerprint), so the round
    /// trip counts it as refused instead of reporting a file that cannot be written back.
    #[test]
    fn identity_whose_fingerprint_is_not_one_is_refused() {
        let file = |fingerprint: &str| {
            format!(
                "name = \"me\"\nfingerprint = \"{fingerprint}\"\n\
                 not_before = \"2024-01-01T00:00:00Z\"\nnot_after = \"2034-01-01T00:00:00Z\"\n\
                 created_by = \"human\"\nagent_use = false\nalgorithm = \"ecdsa-p256\"\n\
                 cert_pem = \"x\"\n\n[scope]\nhost = \"example.org\"\nport = 1965\npath = \"/\"\n"
            )
        };
        let good = file(&format!("sha256:{}", "ef".repeat(32)));
        assert_eq!(
            round_trip(File::Identity, good.as_bytes()),
            RoundTrip::Stable
        );
        assert_eq!(
            round_trip(File::Identity, file("sha256:zz").as_bytes()),
            RoundTrip::Refused
        );
    }
}
