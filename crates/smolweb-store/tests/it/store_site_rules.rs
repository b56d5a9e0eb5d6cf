//! Site rules on disk with two processes at once: the browser and the CLI both making rules
//! lose none of either's.

use smolweb_core::html::SiteRule;
use smolweb_store::site_rules::SiteRules;
use time::OffsetDateTime;
use time::macros::datetime;

const NOW: OffsetDateTime = datetime!(2026-12-01 12:00 UTC);

/// Child half of the two-process test: makes 15 rules, one per locked update. Run only when
/// spawned.
#[test]
#[ignore = "spawned by two_processes_making_rules_lose_none"]
fn child_makes_rules() {
    let (Ok(path), Ok(id)) = (
        std::env::var("SMOLWEB_TEST_RULES"),
        std::env::var("SMOLWEB_TEST_ID"),
    ) else {
        return;
    };
    let rules = SiteRules::new(path.into());
    for i in 0..15 {
        let rule = SiteRule::content(&format!("div.post-{i}"));
        rules
            .set(&format!("s{i}.{id}.example"), &rule, NOW)
            .unwrap();
    }
}

#[test]
fn two_processes_making_rules_lose_none() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("site_rules.toml");
    crate::run_two_children(
        "store_site_rules::child_makes_rules",
        &[("SMOLWEB_TEST_RULES", path.as_path())],
    );
    let rules = SiteRules::new(path).list().unwrap();
    assert_eq!(rules.len(), 30, "every rule of both processes kept");
    for id in ["one", "two"] {
        for i in 0..15 {
            assert!(
                rules.iter().any(|r| r.site == format!("s{i}.{id}.example")
                    && r.content == format!("div.post-{i}")),
                "s{i}.{id}"
            );
        }
    }
}
