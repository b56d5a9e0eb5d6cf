//! Files only their owner reads: a private key or a store file others can read, or a data
//! directory others can write, is refused with a message naming it and the chmod that fixes
//! it; after the chmod the same call works.
#![cfg(unix)]

use smolweb_store::StoreError;
use smolweb_store::bookmarks::Bookmarks;
use smolweb_store::identity::{CreatedBy, Identities, KeyAlgorithm, NewIdentity, Scope};
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use time::macros::datetime;

fn chmod(path: &Path, mode: u32) {
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

fn assert_exposed(e: StoreError, path: &Path, fix: &str) {
    let text = e.to_string();
    assert!(matches!(e, StoreError::Exposed { .. }), "{text}");
    assert!(
        text.contains(&format!("run `chmod {fix} {}`", path.display())),
        "{text}"
    );
}

#[test]
fn a_private_key_others_can_read_is_refused_until_chmod() {
    let tmp = tempfile::tempdir().unwrap();
    let ids = Identities::new(tmp.path().join("identities"));
    let id = ids
        .create(
            NewIdentity {
                name: "me".into(),
                scope: Scope {
                    host: "example.org".into(),
                    port: 1965,
                    path: "/".into(),
                },
                days: 30,
                algorithm: KeyAlgorithm::Ed25519,
                created_by: CreatedBy::Human,
                agent_use: true,
            },
            datetime!(2026-06-01 12:00 UTC),
        )
        .unwrap();
    let hex = id.fingerprint.strip_prefix("sha256:").unwrap();
    let key = ids.dir().join(format!("{hex}.key"));
    chmod(&key, 0o644);
    let e = ids.key_material(&id.fingerprint).unwrap_err();
    assert!(!e.to_string().contains("PRIVATE KEY"), "never quoted: {e}");
    assert_exposed(e, &key, "600");
    chmod(&key, 0o600);
    ids.key_material(&id.fingerprint).unwrap();
    // Its metadata is a store file too.
    let meta = ids.dir().join(format!("{hex}.toml"));
    chmod(&meta, 0o660);
    assert_exposed(ids.list().unwrap_err(), &meta, "600");
}

#[test]
fn a_data_directory_others_can_write_is_refused_for_reads_and_writes() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let marks = Bookmarks::new(data.join("bookmarks.gmi"));
    marks.add("gemini://example.org/", "Example").unwrap();
    chmod(&data, 0o777);
    assert_exposed(marks.list().unwrap_err(), &data, "700");
    assert_exposed(
        marks.add("gemini://b.example/", "B").unwrap_err(),
        &data,
        "700",
    );
    chmod(&data, 0o755);
    assert_eq!(
        marks.list().unwrap().len(),
        1,
        "readable by others is not writable"
    );
    chmod(&data, 0o700);
    // A hand-made file with the usual umask's mode is named, and left as it is.
    std::fs::write(data.join("bookmarks.gmi"), "=> gemini://c.example/ C\n").unwrap();
    chmod(&data.join("bookmarks.gmi"), 0o644);
    assert_exposed(
        marks.list().unwrap_err(),
        &data.join("bookmarks.gmi"),
        "600",
    );
    let mode = std::fs::metadata(data.join("bookmarks.gmi"))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o644, "not changed behind the person's back");
}
