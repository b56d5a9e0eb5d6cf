//! Approving and denying an agent's pending requests through the client performs (or drops)
//! the change in the shared stores.

use smolweb_client::config::Config;
use smolweb_client::{Client, Decider, Face, OpenOptions, Outcome};
use smolweb_store::StoreError;
use smolweb_store::approvals::Request;
use smolweb_store::identity::{CreatedBy, KeyAlgorithm, NewIdentity, Scope};
use smolweb_store::paths::Paths;

const FP: &str = "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

fn human() -> (Client, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let paths = Paths::resolve(Some(dir.path().to_path_buf()), None, None, None).unwrap();
    (
        Client::new(Config::default(), paths, Face::Human).unwrap(),
        dir,
    )
}

fn ask(c: &Client, request: Request) -> String {
    c.queue_approval(request, "test-agent").unwrap().id
}

async fn about_identities(c: &Client) -> String {
    match c.open("about:identities", &OpenOptions::default()).await {
        Outcome::Page { fetched, .. } => fetched.page.body.text().to_string(),
        o => panic!("{o:?}"),
    }
}

#[tokio::test]
async fn approving_a_pin_pins_and_clears_the_request() {
    let (c, _dir) = human();
    let id = ask(
        &c,
        Request::TrustPin {
            host: "example.org".into(),
            port: 1965,
            fingerprint: FP.into(),
        },
    );
    assert!(about_identities(&c).await.contains(&id), "pending shown");
    let done = c.approve(&id, Decider::Cli).unwrap();
    assert_eq!(done.fingerprint.as_deref(), Some(FP));
    let pin = c.pin_for("example.org", 1965).unwrap().expect("pinned");
    assert_eq!(pin.fingerprint, FP);
    assert!(c.pending_approvals().unwrap().is_empty());
    assert!(!about_identities(&c).await.contains(&id));

    let id = ask(
        &c,
        Request::TrustRemove {
            host: "example.org".into(),
            port: 1965,
        },
    );
    c.approve(&id, Decider::Cli).unwrap();
    assert!(c.pin_for("example.org", 1965).unwrap().is_none());
}

#[tokio::test]
async fn approving_an_identity_creates_an_agent_identity_and_removal_deletes_it() {
    let (c, _dir) = human();
    let scope = Scope {
        host: "example.org".into(),
        port: 1965,
        path: "/app".into(),
    };
    let id = ask(
        &c,
        Request::IdentityCreate {
            scope: scope.clone(),
            name: "app login".into(),
        },
    );
    let done = c.approve(&id, Decider::Cli).unwrap();
    let made = c.scan_identities().unwrap().identities;
    assert_eq!(made.len(), 1);
    assert_eq!(made[0].created_by, CreatedBy::Agent);
    assert!(made[0].agent_use);
    assert_eq!(made[0].scope, scope);
    assert_eq!(
        done.fingerprint.as_deref(),
        Some(made[0].fingerprint.as_str())
    );
    assert!(about_identities(&c).await.contains("app login"));

    let id = ask(
        &c,
        Request::IdentityRemove {
            fingerprint: made[0].fingerprint.clone(),
            scope,
        },
    );
    c.approve(&id, Decider::Cli).unwrap();
    assert!(c.scan_identities().unwrap().identities.is_empty());
}

#[tokio::test]
async fn denying_changes_nothing() {
    let (c, _dir) = human();
    let id = ask(
        &c,
        Request::TrustPin {
            host: "example.org".into(),
            port: 1965,
            fingerprint: FP.into(),
        },
    );
    let denied = c.deny(&id, Decider::Cli).unwrap();
    assert_eq!(denied.id, id);
    assert!(c.pin_for("example.org", 1965).unwrap().is_none());
    assert!(c.pending_approvals().unwrap().is_empty());
    assert!(matches!(
        c.approve(&id, Decider::Cli),
        Err(StoreError::NotFound(_))
    ));
}

/// What changes the person's trust is refused on the agent's face, whatever the store would
/// say: the agent asks through an approval, which the person performs.
#[test]
fn the_persons_changes_are_refused_on_the_agents_face() {
    let dir = tempfile::tempdir().unwrap();
    let paths = Paths::resolve(Some(dir.path().to_path_buf()), None, None, None).unwrap();
    let agent = Client::new(Config::default(), paths, Face::Agent).unwrap();
    let refused = |r: Result<(), StoreError>| {
        assert!(
            matches!(&r, Err(StoreError::Invalid(m)) if m.contains("the person's")),
            "{r:?}"
        );
    };
    refused(agent.pin_fingerprint("example.org", 1965, FP).map(drop));
    assert!(agent.pin_for("example.org", 1965).unwrap().is_none());
    let new = NewIdentity {
        name: "mine".into(),
        scope: Scope {
            host: "example.org".into(),
            port: 1965,
            path: "/".into(),
        },
        days: 30,
        algorithm: KeyAlgorithm::EcdsaP256,
        created_by: CreatedBy::Human,
        agent_use: true,
    };
    refused(agent.create_identity(new).map(drop));
    assert!(agent.scan_identities().unwrap().identities.is_empty());
    refused(agent.remove_identity(FP).map(drop));
    refused(agent.set_identity_agent_use(FP, true).map(drop));
    refused(agent.export_identity(FP, dir.path()).map(drop));
    refused(
        agent
            .allow_uploads("agent", "gemini://example.org/")
            .map(drop),
    );
    refused(
        agent
            .revoke_uploads("agent", "gemini://example.org/")
            .map(drop),
    );
    assert!(agent.upload_allowances().unwrap().is_empty());
    // Asking is the agent's, and the person's client performs it.
    let request = Request::TrustPin {
        host: "example.org".into(),
        port: 1965,
        fingerprint: FP.into(),
    };
    let id = agent.queue_approval(request, "test-agent").unwrap().id;
    assert_eq!(agent.pending_approvals().unwrap()[0].id, id);
}
