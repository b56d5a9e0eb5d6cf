//! Client certificates: presented by scope, never for agents when reserved, TLS 1.3 only.

use smolweb_testkit as support;

use smolweb_core::url::Url;
use smolweb_net::{FetchError, GeminiResponse, IdentityChoice, Net, NetOptions};
use smolweb_store::identity::{CreatedBy, Identity, KeyAlgorithm, NewIdentity, Scope};
use smolweb_store::tofu::TofuPolicy;
use std::time::Duration;
use support::gemini::{Options, Reply, Routes, Server};
use support::{TempStores, loopback_options};

const BUDGET: Duration = Duration::from_secs(2);

fn routes() -> Routes {
    Routes::new().handler(|_| Reply::gemtext("ok"))
}

fn identity(stores: &TempStores, server: &Server, path: &str, agent_use: bool) -> Identity {
    let new = NewIdentity {
        name: format!("id{path}"),
        scope: Scope {
            host: "127.0.0.1".into(),
            port: server.port(),
            path: path.into(),
        },
        days: 30,
        algorithm: KeyAlgorithm::EcdsaP256,
        created_by: CreatedBy::Human,
        agent_use,
    };
    stores
        .identities()
        .create(new, time::OffsetDateTime::now_utc())
        .unwrap()
}

async fn get(
    net: &Net,
    server: &Server,
    path: &str,
    opts: &NetOptions,
) -> Result<GeminiResponse, FetchError> {
    net.gemini(&Url::parse(&server.url(path)).unwrap(), opts)
        .await
}

#[tokio::test]
async fn identity_is_presented_only_inside_its_scope() {
    let stores = TempStores::new();
    let server = Server::start(routes()).await;
    let id = identity(&stores, &server, "/private", true);
    let net = stores.net(TofuPolicy::default());
    let opts = loopback_options(BUDGET);
    let inside = get(&net, &server, "/private/page", &opts).await.unwrap();
    assert_eq!(
        inside.tls.client_cert.as_deref(),
        Some(id.fingerprint.as_str())
    );
    assert_eq!(inside.tls.client_cert_warning, None);
    get(&net, &server, "/public", &opts).await.unwrap();
    get(&net, &server, "/privateer", &opts).await.unwrap();
    let seen: Vec<Option<String>> = server
        .requests()
        .into_iter()
        .map(|r| r.client_cert)
        .collect();
    assert_eq!(seen, vec![Some(id.fingerprint.clone()), None, None]);
    // Sessions are kept per identity: the anonymous fetch does not resume the identity's.
    let resumed: Vec<bool> = server.requests().iter().map(|r| r.resumed).collect();
    assert_eq!(resumed, vec![false, false, true]);
    let none = NetOptions {
        identity: IdentityChoice::None,
        ..loopback_options(BUDGET)
    };
    let resp = get(&net, &server, "/private/page", &none).await.unwrap();
    assert_eq!(resp.tls.client_cert, None);
    assert_eq!(server.requests().last().unwrap().client_cert, None);
}

#[tokio::test]
async fn human_only_identity_is_never_presented_for_an_agent() {
    let stores = TempStores::new();
    let server = Server::start(routes()).await;
    let id = identity(&stores, &server, "/", false);
    let net = stores.net(TofuPolicy::default());
    let agent = loopback_options(BUDGET);
    assert!(agent.for_agent);
    let resp = get(&net, &server, "/x", &agent).await.unwrap();
    assert_eq!(resp.tls.client_cert, None);
    let explicit = NetOptions {
        identity: IdentityChoice::Fingerprint(id.fingerprint.clone()),
        ..loopback_options(BUDGET)
    };
    let err = get(&net, &server, "/x", &explicit).await.unwrap_err();
    assert_eq!(err.code(), "CLIENT_CERT_REFUSED");
    let human = NetOptions {
        for_agent: false,
        ..loopback_options(BUDGET)
    };
    let resp = get(&net, &server, "/x", &human).await.unwrap();
    assert_eq!(
        resp.tls.client_cert.as_deref(),
        Some(id.fingerprint.as_str())
    );
    let seen: Vec<Option<String>> = server
        .requests()
        .into_iter()
        .map(|r| r.client_cert)
        .collect();
    assert_eq!(seen, vec![None, Some(id.fingerprint)]);
}

#[tokio::test]
async fn identity_is_not_sent_over_tls12_unless_allowed() {
    let stores = TempStores::new();
    let options = Options {
        tls12_only: true,
        ..Options::default()
    };
    let server = Server::start_with(routes(), options).await;
    let id = identity(&stores, &server, "/", true);
    let net = stores.net(TofuPolicy::default());
    let err = get(&net, &server, "/x", &loopback_options(BUDGET))
        .await
        .unwrap_err();
    assert_eq!(err.code(), "CLIENT_CERT_REFUSED", "{err}");
    assert!(err.to_string().contains("TLS 1.3"), "{err}");
    assert!(server.requests().is_empty());
    let allowed = NetOptions {
        allow_client_cert_over_tls12: true,
        ..loopback_options(BUDGET)
    };
    let resp = get(&net, &server, "/x", &allowed).await.unwrap();
    assert_eq!(resp.tls.version, "TLSv1.2");
    assert_eq!(
        resp.tls.client_cert.as_deref(),
        Some(id.fingerprint.as_str())
    );
    assert!(resp.tls.client_cert_warning.is_some());
    assert_eq!(
        server.requests()[0].client_cert.as_deref(),
        Some(id.fingerprint.as_str())
    );
}

#[tokio::test]
async fn changed_server_cert_aborts_before_the_identity_is_sent() {
    let stores = TempStores::new();
    let server = Server::start(routes()).await;
    identity(&stores, &server, "/", true);
    let net = stores.net(TofuPolicy::default());
    get(
        &net,
        &server,
        "/x",
        &NetOptions {
            identity: IdentityChoice::None,
            ..loopback_options(BUDGET)
        },
    )
    .await
    .unwrap();
    server.set_cert(support::certs::TestCert::new());
    let handshakes = server.handshakes();
    let err = get(&net, &server, "/x", &loopback_options(BUDGET))
        .await
        .unwrap_err();
    assert_eq!(err.code(), "CERTIFICATE_CHANGED");
    assert_eq!(server.handshakes(), handshakes);
    assert_eq!(server.requests().len(), 1);
}
