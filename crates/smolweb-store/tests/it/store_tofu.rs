//! known_hosts on disk: round trips, recording rules, corrupt files, and two processes
//! writing the same file at once.

use smolweb_core::fingerprint::sha256_fingerprint as fingerprint_of;
use smolweb_store::StoreError;
use smolweb_store::tofu::{CertInfo, KnownHosts, TofuPolicy, Verdict};
use time::OffsetDateTime;
use time::macros::datetime;

const NOW: OffsetDateTime = datetime!(2026-06-01 12:00 UTC);

fn cert(seed: &str, not_after: OffsetDateTime) -> CertInfo {
    CertInfo {
        fingerprint: fingerprint_of(seed.as_bytes()),
        not_before: datetime!(2026-01-01 0:00 UTC),
        not_after,
    }
}

fn store() -> (tempfile::TempDir, KnownHosts) {
    let tmp = tempfile::tempdir().unwrap();
    let kh = KnownHosts::new(tmp.path().join("data/known_hosts.toml"));
    (tmp, kh)
}

#[test]
fn first_use_pins_then_trusts_then_refuses_change() {
    let (_tmp, kh) = store();
    let a = cert("a", datetime!(2027-01-01 0:00 UTC));
    let p = TofuPolicy::default();
    assert_eq!(
        kh.check_and_record("Example.ORG", 1965, &a, NOW, p)
            .unwrap(),
        Verdict::FirstUse
    );
    let pin = kh.get("example.org", 1965).unwrap().unwrap();
    assert_eq!(pin.host, "example.org");
    assert_eq!(pin.fingerprint, a.fingerprint);
    assert_eq!(pin.not_after, Some(a.not_after));
    assert_eq!(pin.first_seen, NOW);
    assert_eq!(
        kh.check_and_record("example.org", 1965, &a, NOW, p)
            .unwrap(),
        Verdict::Trusted
    );
    let b = cert("b", datetime!(2027-01-01 0:00 UTC));
    let v = kh
        .check_and_record("EXAMPLE.org", 1965, &b, NOW, p)
        .unwrap();
    assert!(matches!(v, Verdict::Changed { .. }), "{v:?}");
    // A refusal does not touch the pin.
    assert_eq!(
        kh.get("example.org", 1965).unwrap().unwrap().fingerprint,
        a.fingerprint
    );
    // Another port is another host.
    assert_eq!(
        kh.check_and_record("example.org", 1966, &b, NOW, p)
            .unwrap(),
        Verdict::FirstUse
    );
}

#[test]
fn trusted_bumps_last_seen_only_after_an_hour() {
    let (_tmp, kh) = store();
    let a = cert("a", datetime!(2027-01-01 0:00 UTC));
    let p = TofuPolicy::default();
    kh.check_and_record("h", 1965, &a, NOW, p).unwrap();
    let before = std::fs::read_to_string(kh.path()).unwrap();
    let soon = NOW + time::Duration::minutes(30);
    kh.check_and_record("h", 1965, &a, soon, p).unwrap();
    assert_eq!(std::fs::read_to_string(kh.path()).unwrap(), before);
    let later = NOW + time::Duration::hours(2);
    kh.check_and_record("h", 1965, &a, later, p).unwrap();
    let pin = kh.get("h", 1965).unwrap().unwrap();
    assert_eq!(pin.last_seen, later);
    assert_eq!(pin.first_seen, NOW);
}

#[test]
fn expired_pin_is_replaced_per_policy() {
    let (_tmp, kh) = store();
    let old = cert("old", datetime!(2026-03-01 0:00 UTC));
    let new = cert("new", datetime!(2027-03-01 0:00 UTC));
    let early = datetime!(2026-02-01 0:00 UTC);
    let p = TofuPolicy::default();
    kh.check_and_record("h", 1965, &old, early, p).unwrap();
    let strict = TofuPolicy {
        accept_new_when_expired: false,
        ..p
    };
    let v = kh.check_and_record("h", 1965, &new, NOW, strict).unwrap();
    assert!(matches!(v, Verdict::Changed { .. }));
    let v = kh.check_and_record("h", 1965, &new, NOW, p).unwrap();
    assert!(matches!(v, Verdict::ReplacedExpired { .. }), "{v:?}");
    let pin = kh.get("h", 1965).unwrap().unwrap();
    assert_eq!(pin.fingerprint, new.fingerprint);
    assert_eq!(pin.not_after, Some(new.not_after));
}

#[test]
fn explicit_pin_list_and_remove() {
    let (_tmp, kh) = store();
    let a = cert("a", datetime!(2027-01-01 0:00 UTC));
    let b = cert("b", datetime!(2027-01-01 0:00 UTC));
    assert!(kh.pin("zeta.example", 1965, &a, NOW).unwrap());
    assert!(kh.pin("alpha.example", 1965, &a, NOW).unwrap());
    assert!(kh.pin("alpha.example", 70, &a, NOW).unwrap());
    assert!(
        !kh.pin("alpha.example", 70, &a, NOW).unwrap(),
        "same pin again: no change"
    );
    assert!(kh.pin("alpha.example", 70, &b, NOW).unwrap(), "re-pin");
    assert!(
        kh.pin_fingerprint("beta.example", 1965, &b.fingerprint, NOW)
            .unwrap()
    );
    assert_eq!(
        kh.get("beta.example", 1965).unwrap().unwrap().not_after,
        None
    );
    let order: Vec<_> = kh
        .list()
        .unwrap()
        .into_iter()
        .map(|p| (p.host, p.port))
        .collect();
    assert_eq!(
        order,
        vec![
            ("alpha.example".to_string(), 70),
            ("alpha.example".to_string(), 1965),
            ("beta.example".to_string(), 1965),
            ("zeta.example".to_string(), 1965),
        ]
    );
    assert!(kh.remove("ALPHA.example", 70).unwrap());
    assert!(!kh.remove("alpha.example", 70).unwrap());
    assert_eq!(kh.list().unwrap().len(), 3);
    assert!(matches!(
        kh.pin_fingerprint("x", 1965, "md5:abc", NOW),
        Err(StoreError::Invalid(_))
    ));
}

#[test]
fn file_is_readable_toml_with_pin_tables() {
    let (_tmp, kh) = store();
    let a = cert("a", datetime!(2027-01-01 0:00 UTC));
    kh.pin("example.org", 1965, &a, NOW).unwrap();
    let text = std::fs::read_to_string(kh.path()).unwrap();
    assert!(text.contains("[[pin]]"), "{text}");
    assert!(text.contains("host = \"example.org\""), "{text}");
    assert!(
        text.contains("first_seen = \"2026-06-01T12:00:00Z\""),
        "{text}"
    );
}

#[test]
fn corrupt_file_is_an_error_naming_it_and_is_kept() {
    let (_tmp, kh) = store();
    std::fs::create_dir_all(kh.path().parent().unwrap()).unwrap();
    crate::write_private(kh.path(), "[[pin]]\nhost = 3\n").unwrap();
    let a = cert("a", datetime!(2027-01-01 0:00 UTC));
    for err in [
        kh.list().unwrap_err(),
        kh.check_and_record("h", 1965, &a, NOW, TofuPolicy::default())
            .unwrap_err(),
        kh.pin("h", 1965, &a, NOW).unwrap_err(),
    ] {
        assert!(matches!(err, StoreError::Corrupt { .. }), "{err:?}");
        assert!(err.to_string().contains("known_hosts.toml"), "{err}");
    }
    assert_eq!(
        std::fs::read_to_string(kh.path()).unwrap(),
        "[[pin]]\nhost = 3\n"
    );
}

/// Child half of the two-process test: adds 200 distinct pins. Run only when spawned.
#[test]
#[ignore = "spawned by two_processes_merge_pins"]
fn child_add_pins() {
    let (Ok(path), Ok(id)) = (
        std::env::var("SMOLWEB_TEST_KH"),
        std::env::var("SMOLWEB_TEST_ID"),
    ) else {
        return;
    };
    let kh = KnownHosts::new(path.into());
    let a = cert(&id, datetime!(2027-01-01 0:00 UTC));
    for i in 0..200 {
        let v = kh
            .check_and_record(
                &format!("host{i}.{id}.example"),
                1965,
                &a,
                NOW,
                TofuPolicy::default(),
            )
            .unwrap();
        assert_eq!(v, Verdict::FirstUse);
    }
}

#[test]
fn two_processes_merge_pins() {
    let (_tmp, kh) = store();
    let exe = std::env::current_exe().unwrap();
    let children: Vec<_> = ["one", "two"]
        .iter()
        .map(|id| {
            std::process::Command::new(&exe)
                .args([
                    "--exact",
                    "store_tofu::child_add_pins",
                    "--ignored",
                    "--nocapture",
                ])
                .env("SMOLWEB_TEST_KH", kh.path())
                .env("SMOLWEB_TEST_ID", id)
                .stdout(std::process::Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    for mut c in children {
        assert!(c.wait().unwrap().success());
    }
    let pins = kh.list().unwrap();
    assert_eq!(pins.len(), 400);
    for id in ["one", "two"] {
        assert_eq!(
            pins.iter()
                .filter(|p| p.host.contains(&format!(".{id}.")))
                .count(),
            200
        );
    }
}

#[test]
fn hosts_are_normalized_or_refused_by_the_store_itself() {
    let (_tmp, kh) = store();
    let fp = fingerprint_of(b"typed");
    // Typed forms are stored as the host a fetch of it looks up.
    for (typed, looked_up) in [
        ("[::1]", "::1"),
        ("Bücher.Example", "xn--bcher-kva.example"),
        ("CAPSULE.example.", "capsule.example"),
    ] {
        kh.pin_fingerprint(typed, 1965, &fp, NOW).unwrap();
        let pin = kh.get(looked_up, 1965).unwrap();
        assert_eq!(pin.map(|p| p.host), Some(looked_up.to_string()), "{typed}");
        let v = kh
            .check_and_record(
                looked_up,
                1965,
                &cert("typed", NOW),
                NOW,
                TofuPolicy::default(),
            )
            .unwrap();
        assert_ne!(v, Verdict::FirstUse, "{typed}: the fetch must see the pin");
    }
    // A port or a scheme in the host is refused, and nothing is written.
    let before = kh.list().unwrap();
    for bad in [
        "capsule.example:1966",
        "gemini://capsule.example",
        "[::1]:1966",
        "",
    ] {
        assert!(
            matches!(
                kh.pin_fingerprint(bad, 1965, &fp, NOW),
                Err(StoreError::Invalid(_))
            ),
            "{bad:?} accepted"
        );
        assert!(kh.get(bad, 1965).is_err(), "{bad:?}");
        assert!(kh.remove(bad, 1965).is_err(), "{bad:?}");
    }
    assert_eq!(kh.list().unwrap(), before);
}

#[test]
fn pins_stored_as_typed_by_an_older_version_are_found() {
    let (tmp, kh) = store();
    std::fs::create_dir_all(tmp.path().join("data")).unwrap();
    let fp = fingerprint_of(b"old");
    crate::write_private(
        kh.path(),
        format!(
            "[[pin]]\nhost = \"[::1]\"\nport = 1965\nfingerprint = \"{fp}\"\n\
             first_seen = \"2026-01-01T00:00:00Z\"\nlast_seen = \"2026-01-01T00:00:00Z\"\n"
        ),
    )
    .unwrap();
    assert_eq!(kh.get("::1", 1965).unwrap().unwrap().fingerprint, fp);
    assert!(kh.remove("[::1]", 1965).unwrap());
}

#[test]
fn trust_requests_are_queued_with_a_normalized_host() {
    use smolweb_store::approvals::{Approvals, Request};
    let tmp = tempfile::tempdir().unwrap();
    let approvals = Approvals::new(tmp.path().join("approvals.toml"));
    let fp = format!("sha256:{}", "ab".repeat(32));
    let ask = |host: &str| {
        approvals.add(
            Request::TrustPin {
                host: host.into(),
                port: 1965,
                fingerprint: fp.clone(),
            },
            "agent",
            NOW,
        )
    };
    let queued = ask("[::1]").unwrap();
    assert!(matches!(&queued.request, Request::TrustPin { host, .. } if host == "::1"));
    for bad in ["host:1966", "GEMINI://host"] {
        assert!(matches!(ask(bad), Err(StoreError::Invalid(_))), "{bad}");
    }
}
