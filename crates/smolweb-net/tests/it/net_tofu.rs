//! Trust on first use, decided inside the handshake: pins, changes, expiry, trust once,
//! session resumption that must respect pin changes.

use smolweb_testkit as support;

use smolweb_core::url::Url;
use smolweb_net::{FetchError, Net, NetOptions, TofuState};
use smolweb_store::tofu::{CertInfo, TofuPolicy};
use std::time::Duration;
use support::certs::TestCert;
use support::gemini::{Options, Reply, Routes, Server};
use support::{TempStores, loopback_options};

const BUDGET: Duration = Duration::from_secs(2);

fn opts() -> NetOptions {
    loopback_options(BUDGET)
}

async fn get(net: &Net, server: &Server, opts: &NetOptions) -> Result<TofuState, FetchError> {
    let url = Url::parse(&server.url("/")).unwrap();
    net.gemini(&url, opts).await.map(|r| r.tls.tofu)
}

async fn server_with(cert: TestCert) -> Server {
    let options = Options {
        cert: Some(cert),
        ..Options::default()
    };
    Server::start_with(Routes::new().route("/", Reply::gemtext("hi")), options).await
}

#[tokio::test]
async fn first_use_pins_and_the_same_cert_passes() {
    let stores = TempStores::new();
    let net = stores.net(TofuPolicy::default());
    let server = Server::start(Routes::new().route("/", Reply::gemtext("hi"))).await;
    assert_eq!(
        get(&net, &server, &opts()).await.unwrap(),
        TofuState::FirstUse
    );
    let pin = stores
        .known_hosts()
        .get("127.0.0.1", server.port())
        .unwrap()
        .unwrap();
    assert_eq!(pin.fingerprint, server.fingerprint());
    assert_eq!(
        get(&net, &server, &opts()).await.unwrap(),
        TofuState::Trusted
    );
    net.forget_sessions();
    assert_eq!(
        get(&net, &server, &opts()).await.unwrap(),
        TofuState::Trusted
    );
    // Another process sharing the store trusts the pin too.
    let other = stores.net(TofuPolicy::default());
    assert_eq!(
        get(&other, &server, &opts()).await.unwrap(),
        TofuState::Trusted
    );
}

#[tokio::test]
async fn sessions_resume_and_still_report_the_certificate() {
    let stores = TempStores::new();
    let net = stores.net(TofuPolicy::default());
    let server = Server::start(Routes::new().route("/", Reply::gemtext("hi"))).await;
    let url = Url::parse(&server.url("/")).unwrap();
    net.gemini(&url, &opts()).await.unwrap();
    let again = net.gemini(&url, &opts()).await.unwrap();
    assert_eq!(again.tls.cert_fingerprint, server.fingerprint());
    assert_eq!(again.tls.tofu, TofuState::Trusted);
    net.forget_sessions();
    net.gemini(&url, &opts()).await.unwrap();
    let resumed: Vec<bool> = server.requests().iter().map(|r| r.resumed).collect();
    assert_eq!(resumed, vec![false, true, false]);
}

#[tokio::test]
async fn changed_cert_aborts_before_the_request() {
    let stores = TempStores::new();
    let net = stores.net(TofuPolicy::default());
    let server = Server::start(Routes::new().route("/", Reply::gemtext("hi"))).await;
    let old = server.fingerprint();
    get(&net, &server, &opts()).await.unwrap();
    let new_cert = TestCert::new();
    let new_expiry = new_cert
        .not_after
        .format(&time::format_description::well_known::Rfc3339)
        .unwrap();
    server.set_cert(new_cert);
    let handshakes = server.handshakes();
    let err = get(&net, &server, &opts()).await.unwrap_err();
    let FetchError::CertificateChanged { change } = &err else {
        panic!("expected CertificateChanged, got {err:?}");
    };
    let smolweb_net::CertChange {
        pinned,
        presented,
        presented_not_after,
        ..
    } = &**change;
    assert_eq!((pinned, presented), (&old, &server.fingerprint()));
    assert_eq!(
        presented_not_after, &new_expiry,
        "the warning can show the new expiry"
    );
    assert_eq!(
        server.requests().len(),
        1,
        "the request line must not be sent"
    );
    assert_eq!(
        server.handshakes(),
        handshakes,
        "the handshake must not complete"
    );
    let pin = stores
        .known_hosts()
        .get("127.0.0.1", server.port())
        .unwrap()
        .unwrap();
    assert_eq!(pin.fingerprint, old, "a refused certificate is not pinned");
}

#[tokio::test]
async fn trust_once_accepts_that_certificate_without_saving_it() {
    let stores = TempStores::new();
    let net = stores.net(TofuPolicy::default());
    let server = Server::start(Routes::new().route("/", Reply::gemtext("hi"))).await;
    let old = server.fingerprint();
    get(&net, &server, &opts()).await.unwrap();
    server.set_cert(TestCert::new());
    let wrong = NetOptions {
        trust_once: Some(old.clone()),
        ..opts()
    };
    assert_eq!(
        get(&net, &server, &wrong).await.unwrap_err().code(),
        "CERTIFICATE_CHANGED"
    );
    let once = NetOptions {
        trust_once: Some(server.fingerprint()),
        ..opts()
    };
    assert_eq!(
        get(&net, &server, &once).await.unwrap(),
        TofuState::TrustedOnce
    );
    let pin = stores
        .known_hosts()
        .get("127.0.0.1", server.port())
        .unwrap()
        .unwrap();
    assert_eq!(pin.fingerprint, old);
    // The session made under "trust once" must not carry the trust over.
    assert_eq!(
        get(&net, &server, &opts()).await.unwrap_err().code(),
        "CERTIFICATE_CHANGED"
    );
}

#[tokio::test]
async fn a_pin_changed_between_fetches_is_respected_despite_resumption() {
    let stores = TempStores::new();
    let net = stores.net(TofuPolicy::default());
    let server = Server::start(Routes::new().route("/", Reply::gemtext("hi"))).await;
    get(&net, &server, &opts()).await.unwrap();
    // The human (another process) pins a different certificate for this host.
    let other = TestCert::new();
    let info = CertInfo {
        fingerprint: other.fingerprint(),
        not_before: other.not_before,
        not_after: other.not_after,
    };
    let now = time::OffsetDateTime::now_utc();
    stores
        .known_hosts()
        .remove("127.0.0.1", server.port())
        .unwrap();
    stores
        .known_hosts()
        .pin("127.0.0.1", server.port(), &info, now)
        .unwrap();
    let err = get(&net, &server, &opts()).await.unwrap_err();
    assert_eq!(err.code(), "CERTIFICATE_CHANGED", "{err}");
    assert_eq!(server.requests().len(), 1);
}

#[tokio::test]
async fn expired_pin_is_replaced_per_policy() {
    for accept in [true, false] {
        let stores = TempStores::new();
        let policy = TofuPolicy {
            accept_new_when_expired: accept,
            ..TofuPolicy::default()
        };
        let net = stores.net(policy);
        let server = server_with(TestCert::expired()).await;
        let old = server.fingerprint();
        assert_eq!(
            get(&net, &server, &opts()).await.unwrap(),
            TofuState::FirstUse
        );
        server.set_cert(TestCert::new());
        let result = get(&net, &server, &opts()).await;
        let pin = stores
            .known_hosts()
            .get("127.0.0.1", server.port())
            .unwrap()
            .unwrap();
        if accept {
            assert_eq!(
                result.unwrap(),
                TofuState::ReplacedExpired { previous: old }
            );
            assert_eq!(pin.fingerprint, server.fingerprint());
        } else {
            assert_eq!(result.unwrap_err().code(), "CERTIFICATE_CHANGED");
            assert_eq!(pin.fingerprint, old);
            assert_eq!(server.requests().len(), 1);
        }
    }
}

#[tokio::test]
async fn expired_certificate_refused_when_the_policy_says_so() {
    let stores = TempStores::new();
    let policy = TofuPolicy {
        refuse_expired: true,
        ..TofuPolicy::default()
    };
    let server = server_with(TestCert::expired()).await;
    let err = get(&stores.net(policy), &server, &opts())
        .await
        .unwrap_err();
    assert_eq!(err.code(), "CERTIFICATE_EXPIRED", "{err}");
    assert!(server.requests().is_empty());
}

#[tokio::test]
async fn not_yet_valid_certificate_is_refused() {
    let stores = TempStores::new();
    let server = server_with(TestCert::not_yet_valid()).await;
    let err = get(&stores.net(TofuPolicy::default()), &server, &opts())
        .await
        .unwrap_err();
    assert_eq!(err.code(), "CERTIFICATE_NOT_YET_VALID", "{err}");
    assert!(server.requests().is_empty());
    assert!(
        stores
            .known_hosts()
            .get("127.0.0.1", server.port())
            .unwrap()
            .is_none()
    );
}

#[tokio::test]
async fn unusable_store_fails_the_handshake() {
    let stores = TempStores::new();
    // A directory where the known_hosts file should be: reading it fails.
    std::fs::create_dir_all(stores.known_hosts_path()).unwrap();
    let server = Server::start(Routes::new().route("/", Reply::gemtext("hi"))).await;
    let err = get(&stores.net(TofuPolicy::default()), &server, &opts())
        .await
        .unwrap_err();
    assert_eq!(err.code(), "CERTIFICATE_STORE_UNAVAILABLE", "{err}");
    assert!(server.requests().is_empty());
}
