//! Pending approvals on disk: dedup, expiry, take, corrupt file, two processes at once.

use smolweb_store::StoreError;
use smolweb_store::approvals::{Approvals, Request};
use smolweb_store::identity::Scope;
use time::macros::datetime;
use time::{Duration, OffsetDateTime};

const NOW: OffsetDateTime = datetime!(2026-06-01 12:00 UTC);

fn store() -> (tempfile::TempDir, Approvals) {
    let tmp = tempfile::tempdir().unwrap();
    let a = Approvals::new(tmp.path().join("data/approvals.toml"));
    (tmp, a)
}

fn create(name: &str) -> Request {
    Request::IdentityCreate {
        scope: Scope {
            host: "example.org".into(),
            port: 1965,
            path: "/app".into(),
        },
        name: name.into(),
    }
}

#[test]
fn add_dedups_and_ids_are_8_hex() {
    let (_tmp, ap) = store();
    let a = ap.add(create("alice"), "claude", NOW).unwrap();
    assert_eq!(a.id.len(), 8);
    assert!(
        a.id.bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    );
    assert_eq!(a.expires_at, NOW + Duration::hours(24));
    let again = ap
        .add(create("alice"), "claude", NOW + Duration::minutes(5))
        .unwrap();
    assert_eq!(again, a);
    let b = ap
        .add(
            Request::TrustRemove {
                host: "h".into(),
                port: 1965,
            },
            "claude",
            NOW + Duration::minutes(1),
        )
        .unwrap();
    assert_ne!(a.id, b.id);
    let ids: Vec<_> = ap.pending(NOW).unwrap().into_iter().map(|x| x.id).collect();
    assert_eq!(ids, vec![a.id, b.id]);
}

#[test]
fn expired_requests_disappear() {
    let (_tmp, ap) = store();
    let old = ap.add(create("old"), "c", NOW).unwrap();
    let later = NOW + Duration::hours(25);
    assert!(ap.pending(later).unwrap().is_empty());
    assert!(matches!(
        ap.take(&old.id, later),
        Err(StoreError::NotFound(_))
    ));
    // The failed take persisted the pruning.
    assert!(ap.pending(NOW).unwrap().is_empty());
    // An identical request after expiry gets a new entry.
    let fresh = ap.add(create("old"), "c", later).unwrap();
    assert_eq!(fresh.requested_at, later);
}

#[test]
fn take_removes_and_returns() {
    let (_tmp, ap) = store();
    let a = ap.add(create("a"), "c", NOW).unwrap();
    let b = ap
        .add(
            Request::TrustPin {
                host: "h".into(),
                port: 1965,
                fingerprint: "sha256:00".into(),
            },
            "c",
            NOW,
        )
        .unwrap();
    assert_eq!(ap.take(&a.id, NOW).unwrap(), a);
    assert!(matches!(ap.take(&a.id, NOW), Err(StoreError::NotFound(_))));
    assert!(matches!(ap.take("nope", NOW), Err(StoreError::NotFound(_))));
    assert_eq!(ap.pending(NOW).unwrap(), vec![b]);
}

#[test]
fn file_is_readable_toml() {
    let (_tmp, ap) = store();
    ap.add(create("alice"), "claude", NOW).unwrap();
    let text = std::fs::read_to_string(ap.path()).unwrap();
    for needle in [
        "[[approval]]",
        "action = \"identity_create\"",
        "client = \"claude\"",
        "expires_at = \"2026-06-02T12:00:00Z\"",
    ] {
        assert!(text.contains(needle), "{needle} missing in\n{text}");
    }
}

#[test]
fn corrupt_file_is_kept_and_named() {
    let (_tmp, ap) = store();
    std::fs::create_dir_all(ap.path().parent().unwrap()).unwrap();
    crate::write_private(ap.path(), "[[approval]]\nid = \"x\"\n").unwrap();
    let err = ap.add(create("a"), "c", NOW).unwrap_err();
    assert!(matches!(err, StoreError::Corrupt { .. }));
    assert!(err.to_string().contains("approvals.toml"), "{err}");
    assert_eq!(
        std::fs::read_to_string(ap.path()).unwrap(),
        "[[approval]]\nid = \"x\"\n"
    );
}

/// Child half of the two-process test. Run only when spawned.
#[test]
#[ignore = "spawned by two_processes_merge_approvals"]
fn child_add_approvals() {
    let (Ok(path), Ok(id)) = (
        std::env::var("SMOLWEB_TEST_AP"),
        std::env::var("SMOLWEB_TEST_ID"),
    ) else {
        return;
    };
    let ap = Approvals::new(path.into());
    for i in 0..100 {
        ap.add(create(&format!("{id}-{i}")), &id, NOW).unwrap();
    }
}

#[test]
fn two_processes_merge_approvals() {
    let (_tmp, ap) = store();
    let exe = std::env::current_exe().unwrap();
    let children: Vec<_> = ["one", "two"]
        .iter()
        .map(|id| {
            std::process::Command::new(&exe)
                .args([
                    "--exact",
                    "store_approvals::child_add_approvals",
                    "--ignored",
                    "--nocapture",
                ])
                .env("SMOLWEB_TEST_AP", ap.path())
                .env("SMOLWEB_TEST_ID", id)
                .stdout(std::process::Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    for mut c in children {
        assert!(c.wait().unwrap().success());
    }
    let pending = ap.pending(NOW).unwrap();
    assert_eq!(pending.len(), 200);
    let mut ids: Vec<_> = pending.iter().map(|a| a.id.clone()).collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), 200, "ids are unique");
}
