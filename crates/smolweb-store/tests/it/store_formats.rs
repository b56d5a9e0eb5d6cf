//! Files written by earlier versions (tests/fixtures, as the stores wrote them before they
//! shared one list-file type) still read with every field, and a change rewrites the entries
//! it did not touch byte for byte.

use smolweb_store::approvals::{Approvals, Request};
use smolweb_store::history::History;
use smolweb_store::identity::Scope;
use smolweb_store::subscriptions::Subscriptions;
use smolweb_store::tofu::KnownHosts;
use std::path::{Path, PathBuf};
use time::macros::datetime;

/// A temp data dir holding a copy of the fixture `name`.
fn copy_of(name: &str) -> (tempfile::TempDir, PathBuf, String) {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures")
            .join(name),
    )
    .unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join(name);
    crate::write_private(&path, &text).unwrap();
    (tmp, path, text)
}

#[test]
fn an_existing_history_reads_and_keeps_its_bytes_when_a_visit_is_added() {
    let (_t, path, old) = copy_of("history.toml");
    let h = History::new(path.clone());
    let visits = h.list().unwrap();
    let got: Vec<_> = visits
        .iter()
        .map(|v| (v.url.as_str(), v.title.as_deref(), v.at))
        .collect();
    assert_eq!(
        got,
        [
            (
                "gemini://example.org/log/",
                Some("Example \"log\" — été"),
                datetime!(2026-11-02 10:00:05 UTC)
            ),
            (
                "gemini://geminiprotocol.net/docs/",
                None,
                datetime!(2026-11-01 09:30:00 UTC)
            ),
        ]
    );
    h.record(
        "gemini://new.example/",
        None,
        datetime!(2026-11-03 00:00 UTC),
    )
    .unwrap();
    let (header, body) = old.split_once("\n\n").unwrap();
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        format!(
            "{header}\n\n[[visit]]\nurl = \"gemini://new.example/\"\nat = \"2026-11-03T00:00:00Z\"\n\n{body}"
        )
    );
}

#[test]
fn existing_approvals_read_and_keep_their_bytes_when_one_is_added() {
    let (_t, path, old) = copy_of("approvals.toml");
    let a = Approvals::new(path.clone());
    let now = datetime!(2036-01-01 12:00 UTC);
    let pending = a.pending(now).unwrap();
    let ids: Vec<_> = pending.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(ids, ["586da873", "0e71db3f", "e684053c"]);
    assert_eq!(
        pending[0].request,
        Request::TrustPin {
            host: "example.org".into(),
            port: 1965,
            fingerprint: format!("sha256:{}", "ab".repeat(32)),
        }
    );
    assert_eq!(
        pending[1].request,
        Request::IdentityCreate {
            scope: Scope {
                host: "station.example".into(),
                port: 1965,
                path: "/app".into(),
            },
            name: "alice".into(),
        }
    );
    assert_eq!(pending[2].client, "other agent");
    assert_eq!(pending[2].expires_at, datetime!(2036-01-02 00:02 UTC));
    let added = a
        .add(
            Request::TrustRemove {
                host: "x.example".into(),
                port: 1965,
            },
            "agent",
            now,
        )
        .unwrap();
    let new = std::fs::read_to_string(&path).unwrap();
    assert!(new.starts_with(&old), "{new}");
    assert!(new[old.len()..].contains(&format!("id = \"{}\"", added.id)));
}

#[test]
fn existing_subscriptions_read_with_entries_read_flags_and_errors() {
    let (_t, path, old) = copy_of("subscriptions.toml");
    let s = Subscriptions::new(path.clone());
    let subs = s.list().unwrap();
    assert_eq!(subs.len(), 2);
    let log = &subs[0];
    assert_eq!(
        (log.url.as_str(), log.name(), log.unread()),
        ("gemini://log.example/gemlog/", "A gemlog", 1)
    );
    assert_eq!(log.refreshed, Some(datetime!(2026-10-21 07:00 UTC)));
    let entries: Vec<_> = log
        .entries
        .iter()
        .map(|e| (e.url.as_str(), e.published.as_deref(), e.read))
        .collect();
    assert_eq!(
        entries,
        [
            ("gemini://log.example/gemlog/note.gmi", None, false),
            (
                "gemini://log.example/gemlog/2.gmi",
                Some("2026-10-20T00:00:00Z"),
                true
            ),
        ]
    );
    assert_eq!(subs[1].error.as_deref(), Some("connection refused"));
    assert!(subs[1].entries.is_empty() && subs[1].title.is_none());
    // Marking the unread entry read changes that one line and nothing else.
    assert!(s.mark_read("gemini://log.example/gemlog/note.gmi").unwrap());
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        old.replacen("read = false", "read = true", 1)
    );
}

#[test]
fn existing_pins_read_and_keep_their_bytes_when_one_is_removed() {
    let (_t, path, old) = copy_of("known_hosts.toml");
    let k = KnownHosts::new(path.clone());
    let pins = k.list().unwrap();
    let got: Vec<_> = pins
        .iter()
        .map(|p| (p.host.as_str(), p.port, p.not_after))
        .collect();
    assert_eq!(
        got,
        [
            ("::1", 1966, None),
            ("example.org", 1965, Some(datetime!(2027-01-01 00:00 UTC))),
        ]
    );
    assert_eq!(
        k.get("[::1]", 1966).unwrap().unwrap().fingerprint,
        format!("sha256:{}", "fe".repeat(32))
    );
    assert_eq!(
        pins[1].first_seen,
        datetime!(2026-03-04 05:06:07 UTC),
        "{pins:?}"
    );
    assert!(k.remove("::1", 1966).unwrap());
    let (header, rest) = old.split_once("[[pin]]").unwrap();
    let (_first, second) = rest.split_once("[[pin]]").unwrap();
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        format!("{header}[[pin]]{second}")
    );
}
