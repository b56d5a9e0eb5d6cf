//! Data files that are symbolic links, or that hold something else than they should: every
//! store (known_hosts, identities, approvals, bookmarks, history, subscriptions, the offline
//! index and its pages) refuses a link with the file's name, never quotes the target's first
//! line (here a passwd-like line), and never writes through the link; a lock file that is a
//! link is refused too (a dangling one is not created); a corrupt regular file is described by
//! line and column without being quoted (the config file: smolweb-client's config tests).
#![cfg(unix)]

use smolweb_store::StoreError;
use smolweb_store::approvals::{Approvals, Request};
use smolweb_store::bookmarks::Bookmarks;
use smolweb_store::history::History;
use smolweb_store::identity::{CreatedBy, Identities, KeyAlgorithm, NewIdentity, Scope};
use smolweb_store::offline::{NewPage, Offline};
use smolweb_store::subscriptions::Subscriptions;
use smolweb_store::tofu::KnownHosts;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use time::OffsetDateTime;
use time::macros::datetime;

const NOW: OffsetDateTime = datetime!(2026-06-01 12:00 UTC);
const TARGET: &str = "root:x:0:0:SECRET-FIRST-LINE-7f3a:/root:/bin/bash\n\
                      => gemini://secret.example/ a bookmark-like line\n";

type Op = Box<dyn Fn(&Path) -> Result<(), StoreError>>;

/// One store: the file name in the data directory, a read, and a write.
struct Case {
    name: &'static str,
    file: &'static str,
    read: Op,
    write: Op,
}

fn scope() -> Scope {
    Scope {
        host: "example.org".into(),
        port: 1965,
        path: "/".into(),
    }
}

fn cases() -> Vec<Case> {
    vec![
        Case {
            name: "known_hosts",
            file: "known_hosts.toml",
            read: Box::new(|d| KnownHosts::new(d.join("known_hosts.toml")).list().map(drop)),
            write: Box::new(|d| {
                let fp = format!("sha256:{}", "a".repeat(64));
                KnownHosts::new(d.join("known_hosts.toml"))
                    .pin_fingerprint("example.org", 1965, &fp, NOW)
                    .map(drop)
            }),
        },
        Case {
            name: "identities",
            file: "identities/work.toml",
            read: Box::new(|d| Identities::new(d.join("identities")).list().map(drop)),
            write: Box::new(|d| {
                let new = NewIdentity {
                    name: "work".into(),
                    scope: scope(),
                    days: 30,
                    algorithm: KeyAlgorithm::EcdsaP256,
                    created_by: CreatedBy::Human,
                    agent_use: true,
                };
                Identities::new(d.join("identities"))
                    .create(new, NOW)
                    .map(drop)
            }),
        },
        Case {
            name: "approvals",
            file: "approvals.toml",
            read: Box::new(|d| {
                Approvals::new(d.join("approvals.toml"))
                    .pending(NOW)
                    .map(drop)
            }),
            write: Box::new(|d| {
                let request = Request::IdentityCreate {
                    scope: scope(),
                    name: "work".into(),
                };
                Approvals::new(d.join("approvals.toml"))
                    .add(request, "agent", NOW)
                    .map(drop)
            }),
        },
        Case {
            name: "bookmarks",
            file: "bookmarks.gmi",
            read: Box::new(|d| Bookmarks::new(d.join("bookmarks.gmi")).list().map(drop)),
            write: Box::new(|d| {
                Bookmarks::new(d.join("bookmarks.gmi"))
                    .add("gemini://example.org/", "Example")
                    .map(drop)
            }),
        },
        Case {
            name: "history",
            file: "history.toml",
            read: Box::new(|d| History::new(d.join("history.toml")).list().map(drop)),
            write: Box::new(|d| {
                History::new(d.join("history.toml")).record("gemini://example.org/", None, NOW)
            }),
        },
        Case {
            name: "subscriptions",
            file: "subscriptions.toml",
            read: Box::new(|d| {
                Subscriptions::new(d.join("subscriptions.toml"))
                    .list()
                    .map(drop)
            }),
            write: Box::new(|d| {
                Subscriptions::new(d.join("subscriptions.toml"))
                    .add("gemini://example.org/log/", NOW)
                    .map(drop)
            }),
        },
        Case {
            name: "offline index",
            file: "offline/index.toml",
            read: Box::new(|d| Offline::new(d.join("offline"), 1 << 20).list().map(drop)),
            write: Box::new(|d| {
                let page = NewPage {
                    url: "gemini://example.org/",
                    media_type: "text/gemini",
                    title: None,
                    body: b"# hi\n",
                    fetched: NOW,
                    save: false,
                };
                Offline::new(d.join("offline"), 1 << 20)
                    .put(&page, NOW)
                    .map(drop)
            }),
        },
    ]
}

fn names(e: &StoreError, file: &str, what: &str) {
    let text = e.to_string();
    let base = Path::new(file).file_name().unwrap().to_str().unwrap();
    assert!(
        text.contains(base),
        "{what}: the error does not name {base}: {text}"
    );
    assert!(
        !text.contains("SECRET-FIRST-LINE") && !text.contains("/bin/bash"),
        "{what}: the error quotes the file: {text}"
    );
}

/// A data directory whose `file` is a link to a target outside it.
fn linked(file: &str) -> (tempfile::TempDir, PathBuf, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let link = data.join(file);
    std::fs::create_dir_all(link.parent().unwrap()).unwrap();
    let target = tmp.path().join("passwd");
    crate::write_private(&target, TARGET).unwrap();
    symlink(&target, &link).unwrap();
    (tmp, data, target)
}

#[test]
fn a_store_file_that_is_a_link_is_refused_by_name_and_never_written_through() {
    for case in cases() {
        let (_tmp, data, target) = linked(case.file);
        let link = data.join(case.file);
        let err = (case.read)(&data).expect_err(case.name);
        assert!(
            err.to_string().contains("symbolic link"),
            "{}: {err}",
            case.name
        );
        names(&err, case.file, case.name);
        match (case.write)(&data) {
            Err(err) => names(&err, case.file, case.name),
            // One file per identity: a new one is written beside the link, not through it.
            Ok(()) => assert_eq!(case.name, "identities", "a write went through a link"),
        }
        assert_eq!(
            std::fs::read_to_string(&target).unwrap(),
            TARGET,
            "{}",
            case.name
        );
        let meta = std::fs::symlink_metadata(&link).unwrap();
        assert!(
            meta.file_type().is_symlink(),
            "{}: the link was replaced",
            case.name
        );
    }
}

#[test]
fn a_lock_file_that_is_a_link_is_refused_and_its_target_is_never_created() {
    for case in cases() {
        let tmp = tempfile::tempdir().unwrap();
        let data = tmp.path().join("data");
        let file = data.join(case.file);
        let lock = match case.name {
            "identities" => file.parent().unwrap().join(".lock"),
            _ => {
                let mut name = file.file_name().unwrap().to_os_string();
                name.push(".lock");
                file.with_file_name(name)
            }
        };
        std::fs::create_dir_all(lock.parent().unwrap()).unwrap();
        let victim = tmp.path().join("victim");
        symlink(&victim, &lock).unwrap();
        let err = (case.write)(&data).expect_err(case.name);
        assert!(
            matches!(err, StoreError::NotRegular { .. }),
            "{}: {err:?}",
            case.name
        );
        assert!(
            !victim.exists(),
            "{}: the lock link was followed",
            case.name
        );
    }
}

#[test]
fn a_corrupt_store_file_is_named_and_located_but_never_quoted() {
    for case in cases() {
        if case.name == "bookmarks" {
            continue; // any text is a bookmarks file (lines that are not links are skipped)
        }
        let tmp = tempfile::tempdir().unwrap();
        let data = tmp.path().join("data");
        let file = data.join(case.file);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        crate::write_private(&file, TARGET).unwrap();
        let err = (case.read)(&data).expect_err(case.name);
        assert!(
            matches!(err, StoreError::Corrupt { .. }),
            "{}: {err:?}",
            case.name
        );
        names(&err, case.file, case.name);
        assert!(err.to_string().contains("line 1"), "{}: {err}", case.name);
        assert_eq!(
            std::fs::read_to_string(&file).unwrap(),
            TARGET,
            "{}",
            case.name
        );
    }
}

#[test]
fn a_fifo_in_place_of_a_store_file_is_refused_without_hanging() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("history.toml");
    let made = std::process::Command::new("mkfifo").arg(&path).status();
    if !made.is_ok_and(|s| s.success()) {
        eprintln!("*** SKIP: mkfifo is not available");
        return;
    }
    let err = History::new(path).list().unwrap_err();
    assert!(matches!(err, StoreError::NotRegular { .. }), "{err:?}");
    assert!(err.to_string().contains("history.toml"), "{err}");
}

#[test]
fn an_offline_page_file_that_is_a_link_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let offline = Offline::new(tmp.path().join("offline"), 1 << 20);
    let url = "gemini://example.org/";
    let page = NewPage {
        url,
        media_type: "text/gemini",
        title: None,
        body: b"# hi\n",
        fetched: NOW,
        save: false,
    };
    offline.put(&page, NOW).unwrap();
    let file = offline.page_path(url);
    let target = tmp.path().join("passwd");
    crate::write_private(&target, TARGET).unwrap();
    std::fs::remove_file(&file).unwrap();
    symlink(&target, &file).unwrap();
    let err = offline.get(url, NOW).unwrap_err();
    assert!(matches!(err, StoreError::NotRegular { .. }), "{err:?}");
    assert!(!err.to_string().contains("SECRET"), "{err}");
    assert_eq!(std::fs::read_to_string(&target).unwrap(), TARGET);
}
