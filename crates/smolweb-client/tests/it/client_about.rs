//! Built-in pages that show the shared stores keep working around a damaged file.

use smolweb_client::config::Config;
use smolweb_client::{Client, Face, OpenOptions, Outcome};
use smolweb_store::identity::{CreatedBy, KeyAlgorithm, NewIdentity, Scope};
use smolweb_store::paths::Paths;

#[tokio::test]
async fn about_identities_names_a_corrupt_file_and_lists_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let paths = Paths::resolve(Some(dir.path().to_path_buf()), None, None, None).unwrap();
    let client = Client::new(Config::default(), paths, Face::Human).unwrap();
    let scope = Scope {
        host: "example.org".into(),
        port: 1965,
        path: "/app".into(),
    };
    let new = NewIdentity {
        name: "mine".into(),
        scope,
        days: 30,
        algorithm: KeyAlgorithm::EcdsaP256,
        created_by: CreatedBy::Human,
        agent_use: true,
    };
    client.create_identity(new).unwrap();
    let bad = dir
        .path()
        .join(smolweb_store::files::IDENTITIES_DIR)
        .join(format!("{}.toml", "cd".repeat(32)));
    smolweb_store::perms::write_private(&bad, "= not toml =").unwrap();
    let Outcome::Page { fetched, .. } = client
        .open("about:identities", &OpenOptions::default())
        .await
    else {
        panic!("about:identities is a page");
    };
    let text = fetched.page.body.text();
    assert!(text.contains("## mine"), "{text}");
    assert!(
        text.contains(&"cd".repeat(32)),
        "the bad file is named: {text}"
    );
    assert_eq!(std::fs::read_to_string(&bad).unwrap(), "= not toml =");
}
