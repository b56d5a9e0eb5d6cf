//! `smolweb identity import CERT KEY --scope URL` (issue 33): identities made by openssl as
//! other browsers make them (RSA in PKCS#1, P-384 in SEC1, Ed25519 in PKCS#8) come in, are
//! presented to a capsule over TLS (the capsule sees their fingerprint), and wrong files are
//! refused in words: a key of another certificate, an encrypted key, the files swapped. The
//! key is never printed.
//!
//! Needs openssl (a loud SKIP without it; `SMOLWEB_REQUIRE_OPENSSL=1` makes it a failure).

use smolweb_testkit::gemini::{Reply, Routes, Server};
use std::path::Path;
use std::process::{Command, Output};

fn openssl_available() -> bool {
    let ok = Command::new("openssl")
        .arg("version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        if std::env::var("SMOLWEB_REQUIRE_OPENSSL").as_deref() == Ok("1") {
            panic!("SMOLWEB_REQUIRE_OPENSSL=1 but openssl is not installed");
        }
        use std::io::Write;
        let _ = writeln!(
            std::io::stderr(),
            "\n*** SKIP cli_identity_import: openssl is not installed ***\n"
        );
    }
    ok
}

fn openssl(dir: &Path, args: &[&str]) {
    let o = Command::new("openssl")
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "openssl {args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// A key in `key.pem` (the form openssl writes for `kind`) and a certificate for it.
fn make(dir: &Path, name: &str, kind: &str) {
    let key = format!("{name}.key");
    let crt = format!("{name}.crt");
    match kind {
        "rsa" => openssl(dir, &["genrsa", "-traditional", "-out", &key, "2048"]),
        "p384" => openssl(
            dir,
            &[
                "ecparam",
                "-name",
                "secp384r1",
                "-genkey",
                "-noout",
                "-out",
                &key,
            ],
        ),
        _ => openssl(dir, &["genpkey", "-algorithm", "ed25519", "-out", &key]),
    }
    let subj = format!("/CN={name}");
    openssl(
        dir,
        &[
            "req", "-new", "-x509", "-key", &key, "-out", &crt, "-days", "30", "-subj", &subj,
        ],
    );
}

fn run(data: &Path, args: &[&str]) -> Output {
    crate::run_smolweb(data, args)
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn identities_made_elsewhere_come_in_and_are_presented() {
    if !openssl_available() {
        return;
    }
    let capsule = Server::start(Routes::new().handler(|r| match &r.client_cert {
        Some(_) => Reply::gemtext("# Welcome back\n"),
        None => Reply::status(60, "a certificate, please"),
    }))
    .await;
    let keys = tempfile::tempdir().unwrap();
    let data = tempfile::tempdir().unwrap();
    let kinds = [
        ("lagrange", "rsa"),
        ("amfora", "p384"),
        ("edkey", "ed25519"),
    ];
    for (name, kind) in kinds {
        make(keys.path(), name, kind);
    }
    let head = std::fs::read_to_string(keys.path().join("lagrange.key")).unwrap();
    assert!(
        head.starts_with("-----BEGIN RSA PRIVATE KEY-----"),
        "{head}"
    );
    let head = std::fs::read_to_string(keys.path().join("amfora.key")).unwrap();
    assert!(head.contains("-----BEGIN EC PRIVATE KEY-----"), "{head}");
    for (i, (name, kind)) in kinds.into_iter().enumerate() {
        let scope = capsule.url(&format!("/{name}/"));
        let (crt, key) = (
            keys.path().join(format!("{name}.crt")),
            keys.path().join(format!("{name}.key")),
        );
        let o = run(
            data.path(),
            &[
                "identity",
                "import",
                crt.to_str().unwrap(),
                key.to_str().unwrap(),
                "--scope",
                &scope,
            ],
        );
        let said = text(&o);
        assert!(o.status.success(), "{kind}: {said}");
        assert!(
            said.contains(&format!("imported identity '{name}' for ")),
            "{said}"
        );
        assert!(said.contains("agents may not use it"), "{said}");
        let secret: Vec<String> = std::fs::read_to_string(&key)
            .unwrap()
            .lines()
            .filter(|l| !l.starts_with("-----"))
            .map(str::to_string)
            .collect();
        assert!(
            secret.iter().all(|l| !said.contains(l.as_str())),
            "the key is never printed"
        );
        // The capsule is answered with the imported certificate.
        let page = run(data.path(), &["get", &format!("{scope}page")]);
        assert!(page.status.success(), "{kind}: {}", text(&page));
        assert_eq!(
            String::from_utf8_lossy(&page.stdout),
            "# Welcome back\n",
            "{kind}"
        );
        let seen = capsule.requests();
        let fp = seen[seen.len() - 1].client_cert.clone().unwrap();
        let list =
            String::from_utf8_lossy(&run(data.path(), &["identity", "list"]).stdout).into_owned();
        assert!(list.contains(&fp) && list.contains(name), "{kind}: {list}");
        assert_eq!(seen.len(), i + 1);
    }
}

#[test]
fn wrong_files_are_refused_in_words() {
    if !openssl_available() {
        return;
    }
    let keys = tempfile::tempdir().unwrap();
    let data = tempfile::tempdir().unwrap();
    make(keys.path(), "one", "p384");
    make(keys.path(), "two", "p384");
    openssl(
        keys.path(),
        &[
            "pkcs8",
            "-topk8",
            "-in",
            "one.key",
            "-out",
            "locked.key",
            "-passout",
            "pass:secret",
        ],
    );
    let p = |f: &str| keys.path().join(f).to_str().unwrap().to_string();
    let scope = "gemini://capsule.test/";
    for (cert, key, want) in [
        (
            "one.crt",
            "two.key",
            "the key does not belong to the certificate",
        ),
        ("one.crt", "locked.key", "the key is encrypted"),
        ("one.key", "one.crt", "the other way round"),
        ("one.crt", "missing.key", "missing.key"),
    ] {
        let o = run(
            data.path(),
            &["identity", "import", &p(cert), &p(key), "--scope", scope],
        );
        let said = text(&o);
        assert_eq!(o.status.code(), Some(1), "{cert} {key}: {said}");
        assert!(said.contains(want), "{cert} {key}: {said}");
        let key_text = std::fs::read_to_string(keys.path().join(key)).unwrap_or_default();
        for l in key_text
            .lines()
            .filter(|l| l.len() > 20 && !l.starts_with("-----"))
        {
            assert!(!said.contains(l), "the key is never said: {said}");
        }
    }
    let list = run(data.path(), &["identity", "list"]);
    assert!(String::from_utf8_lossy(&list.stdout).contains("no identities"));
}
