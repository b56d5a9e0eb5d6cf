//! The tour written by two processes at once (a browser adding the person's links while an
//! agent's server adds its own with reasons, issue 33): every link of both arrives, each
//! process's links in its order, and a corrupt file is named and never replaced.

use smolweb_store::StoreError;
use smolweb_store::tour::{NewStop, Tour};
use time::OffsetDateTime;

const NOW: OffsetDateTime = time::macros::datetime!(2027-01-15 08:00 UTC);
const EACH: usize = 40;

/// Child half of the two-process test. Run only when spawned.
#[test]
#[ignore = "spawned by two_processes_lose_no_link"]
fn child_adds_links() {
    let (Ok(path), Ok(who)) = (
        std::env::var("SMOLWEB_TEST_TOUR"),
        std::env::var("SMOLWEB_TEST_ID"),
    ) else {
        return;
    };
    let tour = Tour::new(path.into());
    for i in 0..EACH {
        let url = format!("gemini://{who}.test/{i}");
        let added = if who == "agent" {
            tour.add_for_agent(&url, "worth reading", "bot", "abcd1234", NOW)
        } else {
            let link = NewStop {
                url,
                label: Some(format!("link {i}")),
            };
            tour.add(&[link], NOW)
        };
        assert_eq!(added.unwrap().added, 1);
    }
}

#[test]
fn two_processes_lose_no_link() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tour.toml");
    let exe = std::env::current_exe().unwrap();
    let children: Vec<_> = ["person", "agent"]
        .iter()
        .map(|who| {
            std::process::Command::new(&exe)
                .args([
                    "--exact",
                    "store_tour::child_adds_links",
                    "--ignored",
                    "--nocapture",
                ])
                .env("SMOLWEB_TEST_TOUR", &path)
                .env("SMOLWEB_TEST_ID", who)
                .stdout(std::process::Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    let tour = Tour::new(path.clone());
    let mut reads = 0;
    for mut c in children {
        while c.try_wait().unwrap().is_none() {
            // A reader meanwhile sees a whole file, never a torn one.
            tour.list().unwrap();
            reads += 1;
        }
        assert!(c.wait().unwrap().success());
    }
    let list = tour.list().unwrap();
    assert_eq!(list.len(), 2 * EACH, "no link lost");
    for who in ["person", "agent"] {
        let mine: Vec<String> = list
            .iter()
            .filter(|s| s.url.starts_with(&format!("gemini://{who}.test/")))
            .map(|s| s.url.clone())
            .collect();
        let want: Vec<String> = (0..EACH)
            .map(|i| format!("gemini://{who}.test/{i}"))
            .collect();
        assert_eq!(mine, want, "{who}'s links in order");
    }
    assert!(
        list.iter()
            .filter(|s| s.url.starts_with("gemini://agent.test/"))
            .all(|s| s
                .agent
                .as_ref()
                .is_some_and(|a| a.reason == "worth reading"))
    );
    println!("{reads} reads while two processes wrote");
}

#[test]
fn a_corrupt_tour_is_named_and_never_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tour.toml");
    let broken = "[[stop]]\nurl = \"gemini://a.test/\"\nat = \"not a time\"\n";
    crate::write_private(&path, broken).unwrap();
    let tour = Tour::new(path.clone());
    let link = NewStop {
        url: "gemini://b.test/".into(),
        label: None,
    };
    for err in [
        tour.list().map(|_| ()).unwrap_err(),
        tour.add(&[link], NOW).map(|_| ()).unwrap_err(),
        tour.add_for_agent("gemini://c.test/", "why", "bot", "s", NOW)
            .map(|_| ())
            .unwrap_err(),
        tour.next().map(|_| ()).unwrap_err(),
        tour.clear().map(|_| ()).unwrap_err(),
    ] {
        assert!(matches!(err, StoreError::Corrupt { .. }), "{err:?}");
        let text = err.to_string();
        assert!(
            text.contains("tour.toml") && !text.contains("not a time"),
            "{text}"
        );
    }
    assert_eq!(std::fs::read_to_string(&path).unwrap(), broken);
}
