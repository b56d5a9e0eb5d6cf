//! Client identities on disk: generation, layout and modes, scope lookup, update, removal,
//! export, corrupt metadata.

use smolweb_core::fingerprint::sha256_fingerprint as fingerprint_of;
use smolweb_store::StoreError;
use smolweb_store::identity::{CreatedBy, Identities, KeyAlgorithm, NewIdentity, Scope};
use time::OffsetDateTime;
use time::macros::datetime;

const NOW: OffsetDateTime = datetime!(2026-06-01 12:00 UTC);

fn scope(host: &str, path: &str) -> Scope {
    Scope {
        host: host.into(),
        port: 1965,
        path: path.into(),
    }
}

fn new(name: &str, scope: Scope, agent_use: bool) -> NewIdentity {
    NewIdentity {
        name: name.into(),
        scope,
        days: 30,
        algorithm: KeyAlgorithm::EcdsaP256,
        created_by: CreatedBy::Human,
        agent_use,
    }
}

fn store() -> (tempfile::TempDir, Identities) {
    let tmp = tempfile::tempdir().unwrap();
    let ids = Identities::new(tmp.path().join("data/identities"));
    (tmp, ids)
}

fn hex_of(fp: &str) -> &str {
    fp.strip_prefix("sha256:").unwrap()
}

#[test]
fn create_makes_a_valid_self_signed_certificate() {
    let (_tmp, ids) = store();
    for alg in [KeyAlgorithm::EcdsaP256, KeyAlgorithm::Ed25519] {
        let mut n = new(
            &format!("alice {}", alg.name()),
            scope("Example.org", "/app"),
            true,
        );
        n.algorithm = alg;
        let id = ids.create(n, NOW).unwrap();
        assert_eq!(id.scope.host, "example.org");
        assert_eq!(id.not_before, NOW - time::Duration::minutes(1));
        assert_eq!(id.not_after, NOW + time::Duration::days(30));
        let (_, pem) = x509_parser::pem::parse_x509_pem(id.cert_pem.as_bytes()).unwrap();
        assert_eq!(pem.label, "CERTIFICATE");
        let der = pem.contents;
        assert_eq!(id.fingerprint, fingerprint_of(&der));
        let (_, x509) = x509_parser::parse_x509_certificate(&der).unwrap();
        let cn = x509.subject().iter_common_name().next().unwrap();
        assert_eq!(cn.as_str().unwrap(), id.name);
        assert_eq!(
            x509.validity().not_after.timestamp(),
            id.not_after.unix_timestamp()
        );
        let km = ids.key_material(&id.fingerprint).unwrap();
        assert!(km.key_pem.contains("PRIVATE KEY"));
        assert_eq!(format!("{km:?}"), "KeyMaterial { .. }");
        assert_eq!(ids.get(&id.fingerprint).unwrap(), Some(id));
    }
    assert_eq!(ids.list().unwrap().len(), 2);
}

#[cfg(unix)]
#[test]
fn key_file_is_0600_and_dir_0700() {
    use std::os::unix::fs::PermissionsExt;
    let (_tmp, ids) = store();
    let id = ids.create(new("a", scope("h", "/"), true), NOW).unwrap();
    let hex = hex_of(&id.fingerprint);
    let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&ids.dir().join(format!("{hex}.key"))), 0o600);
    assert_eq!(mode(&ids.dir().join(format!("{hex}.toml"))), 0o600);
    assert_eq!(mode(ids.dir()), 0o700);
    // A loosened directory is tightened again on the next write.
    std::fs::set_permissions(ids.dir(), std::fs::Permissions::from_mode(0o755)).unwrap();
    ids.update(&id.fingerprint, |i| i.agent_use = false)
        .unwrap();
    assert_eq!(mode(ids.dir()), 0o700);
}

#[test]
fn metadata_file_is_readable_toml() {
    let (_tmp, ids) = store();
    let id = ids
        .create(new("alice", scope("h", "/x"), true), NOW)
        .unwrap();
    let text = std::fs::read_to_string(ids.dir().join(format!("{}.toml", hex_of(&id.fingerprint))))
        .unwrap();
    for needle in [
        "name = \"alice\"",
        "created_by = \"human\"",
        "algorithm = \"ecdsa-p256\"",
        "agent_use = true",
        "[scope]",
        "path = \"/x\"",
        "BEGIN CERTIFICATE",
    ] {
        assert!(text.contains(needle), "{needle} missing in\n{text}");
    }
    assert!(!text.contains("PRIVATE KEY"));
}

#[test]
fn same_name_and_scope_is_refused() {
    let (_tmp, ids) = store();
    ids.create(new("a", scope("h", "/x"), true), NOW).unwrap();
    let err = ids
        .create(new("a", scope("H", "/x"), true), NOW)
        .unwrap_err();
    assert!(matches!(err, StoreError::Exists(_)), "{err:?}");
    ids.create(new("a", scope("h", "/y"), true), NOW).unwrap();
    ids.create(new("b", scope("h", "/x"), true), NOW).unwrap();
    assert_eq!(ids.list().unwrap().len(), 3);
    assert!(matches!(
        ids.create(new("c", scope("h", "nope"), true), NOW),
        Err(StoreError::Invalid(_))
    ));
}

#[test]
fn find_for_picks_longest_scope_and_respects_agent_use() {
    let (_tmp, ids) = store();
    let root = ids.create(new("root", scope("h", "/"), true), NOW).unwrap();
    let app = ids
        .create(new("app", scope("h", "/app"), true), NOW)
        .unwrap();
    let deep = ids
        .create(new("deep", scope("h", "/app/admin"), false), NOW)
        .unwrap();
    let find = |path: &str, agent: bool| {
        ids.find_for("H", 1965, path, agent)
            .unwrap()
            .map(|i| i.name)
    };
    assert_eq!(find("/", false), Some(root.name.clone()));
    assert_eq!(find("/apple", false), Some(root.name.clone()));
    assert_eq!(find("/app", false), Some(app.name.clone()));
    assert_eq!(find("/app/x", false), Some(app.name.clone()));
    assert_eq!(find("/app/admin/users", false), Some(deep.name.clone()));
    assert_eq!(find("/app/admin/users", true), Some(app.name.clone()));
    assert_eq!(ids.find_for("h", 1966, "/", false).unwrap(), None);
    assert_eq!(ids.find_for("other", 1965, "/", false).unwrap(), None);
    // Expired identities are still found (the server answers 62; the faces explain).
    let later = NOW + time::Duration::days(400);
    let found = ids.find_for("h", 1965, "/", false).unwrap().unwrap();
    assert!(found.expired(later));
}

#[test]
fn update_changes_metadata_only() {
    let (_tmp, ids) = store();
    let id = ids.create(new("a", scope("h", "/"), true), NOW).unwrap();
    let other = ids.create(new("b", scope("h", "/"), true), NOW).unwrap();
    let changed = ids
        .update(&id.fingerprint, |i| {
            i.name = "renamed".into();
            i.scope.path = "/sub".into();
            i.agent_use = false;
        })
        .unwrap();
    assert_eq!(ids.get(&id.fingerprint).unwrap(), Some(changed.clone()));
    assert_eq!(changed.name, "renamed");
    assert!(!changed.agent_use);
    let err = ids
        .update(&id.fingerprint, |i| i.not_after = NOW)
        .unwrap_err();
    assert!(matches!(err, StoreError::Invalid(_)));
    let err = ids
        .update(&other.fingerprint, |i| {
            i.name = "renamed".into();
            i.scope.path = "/sub".into();
        })
        .unwrap_err();
    assert!(matches!(err, StoreError::Exists(_)));
    assert!(matches!(
        ids.update(&format!("sha256:{}", "0".repeat(64)), |_| {}),
        Err(StoreError::NotFound(_))
    ));
}

#[test]
fn remove_deletes_both_files() {
    let (_tmp, ids) = store();
    let id = ids.create(new("a", scope("h", "/"), true), NOW).unwrap();
    let hex = hex_of(&id.fingerprint).to_string();
    let key = ids.dir().join(format!("{hex}.key"));
    assert!(key.exists());
    assert_eq!(ids.remove(&id.fingerprint).unwrap(), id);
    assert!(!key.exists(), "the private key must really be gone");
    assert!(!ids.dir().join(format!("{hex}.toml")).exists());
    assert!(ids.list().unwrap().is_empty());
    assert!(matches!(
        ids.remove(&id.fingerprint),
        Err(StoreError::NotFound(_))
    ));
    assert!(matches!(
        ids.key_material(&id.fingerprint),
        Err(StoreError::NotFound(_))
    ));
    assert!(matches!(ids.remove("../../x"), Err(StoreError::Invalid(_))));
}

#[test]
fn a_key_left_without_its_identity_is_removed_by_the_next_write() {
    // A create killed between the key and the metadata leaves the key alone; so does a
    // removal killed between the metadata and the key. Neither is an identity, and the
    // secret does not stay on disk: the next write under the directory lock removes it.
    let (_tmp, ids) = store();
    let a = ids.create(new("a", scope("h", "/"), true), NOW).unwrap();
    let hex_a = hex_of(&a.fingerprint).to_string();
    std::fs::remove_file(ids.dir().join(format!("{hex_a}.toml"))).unwrap();
    let stray = ids.dir().join(format!("{}.key", "ab".repeat(32)));
    crate::write_private(&stray, "-----BEGIN PRIVATE KEY-----\n").unwrap();
    // Not ours to touch: a name that is not a fingerprint.
    let other = ids.dir().join("mine.key");
    crate::write_private(&other, "the person's").unwrap();
    assert!(ids.list().unwrap().is_empty(), "a key alone is no identity");
    let b = ids.create(new("b", scope("h", "/b"), true), NOW).unwrap();
    assert!(!ids.dir().join(format!("{hex_a}.key")).exists());
    assert!(!stray.exists());
    assert!(other.exists());
    assert_eq!(ids.list().unwrap(), vec![b.clone()]);
    ids.key_material(&b.fingerprint).unwrap();
}

#[test]
fn export_writes_cert_and_private_key() {
    let (tmp, ids) = store();
    let id = ids
        .create(new("my id/x", scope("h", "/"), true), NOW)
        .unwrap();
    let out = tmp.path().join("export");
    let (crt, key) = ids.export(&id.fingerprint, &out).unwrap();
    assert_eq!(crt, out.join("my_id_x.crt"));
    assert_eq!(key, out.join("my_id_x.key"));
    assert_eq!(std::fs::read_to_string(&crt).unwrap(), id.cert_pem);
    let km = ids.key_material(&id.fingerprint).unwrap();
    assert_eq!(std::fs::read_to_string(&key).unwrap(), km.key_pem);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let m = std::fs::metadata(&key).unwrap().permissions().mode();
        assert_eq!(m & 0o777, 0o600);
    }
    assert!(matches!(
        ids.export(&id.fingerprint, &out),
        Err(StoreError::Exists(_))
    ));
}

#[test]
fn corrupt_metadata_is_an_error_naming_the_file() {
    let (_tmp, ids) = store();
    ids.create(new("a", scope("h", "/"), true), NOW).unwrap();
    let bad = ids.dir().join(format!("{}.toml", "f".repeat(64)));
    crate::write_private(&bad, "name = [").unwrap();
    let err = ids.list().unwrap_err();
    assert!(matches!(err, StoreError::Corrupt { .. }), "{err:?}");
    assert!(err.to_string().contains(&"f".repeat(64)), "{err}");
    // The scan names it and still returns the readable identity.
    let scan = ids.scan().unwrap();
    assert_eq!(scan.identities.len(), 1);
    assert_eq!(scan.unreadable.len(), 1);
    assert_eq!(scan.unreadable[0].path, bad);
    // Finding an identity for a fetch, creating and updating others keep working, and the
    // file is untouched.
    let a = ids.find_for("h", 1965, "/", false).unwrap().unwrap();
    assert_eq!(a.name, "a");
    assert!(ids.find_for("other", 1965, "/", false).unwrap().is_none());
    let b = ids
        .create(new("b", scope("other.example", "/"), true), NOW)
        .unwrap();
    ids.update(&b.fingerprint, |i| i.name = "b2".into())
        .unwrap();
    assert_eq!(ids.scan().unwrap().identities.len(), 2);
    assert_eq!(std::fs::read_to_string(&bad).unwrap(), "name = [");
}
