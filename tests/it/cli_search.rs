//! `smolweb search` and `smolweb get "?words"` through the real binary: pages the person
//! visited and pages agents fetched are found with their snippets (text and `--json`),
//! filters and bad queries get clear answers and exit codes, `--reindex` rebuilds from the
//! stores, a linked index directory is refused by name, and words go to the configured
//! search engine as its input (never kept in the history or the index).

use smolweb_testkit as support;

use smolweb_client::config::Config;
use smolweb_client::search::{Doc, Op, Source};
use smolweb_client::{Client, Face};
use std::path::Path;
use std::process::Output;
use support::gemini::{self, Reply, Routes};

fn smolweb(data: &Path, args: &[&str]) -> Output {
    crate::run_smolweb(data, args)
}

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// A visit (recorded in the history, as the browser does) and an agent's fetch, indexed.
fn seed(data: &Path) {
    let paths =
        smolweb_store::paths::Paths::resolve(Some(data.to_path_buf()), None, None, None).unwrap();
    let client = Client::new(Config::default(), paths, Face::Human).unwrap();
    let now = time::OffsetDateTime::now_utc();
    let visit = "gemini://moss.example/tardigrades.gmi";
    client.record_visit(visit, Some("Water bears")).unwrap();
    let index = client.search_index().unwrap();
    for (url, title, body, source) in [
        (
            visit,
            "Water bears",
            "Tardigrades live in mosses and lichens.",
            Source::History,
        ),
        (
            "gemini://titan.example/post.gmi",
            "Titan uploads",
            "How Titan uploads work, and moss.",
            Source::Agent,
        ),
    ] {
        index.submit(Op::Add(Doc {
            url: url.into(),
            title: Some(title.into()),
            text: body.into(),
            source,
            feed: None,
            lang: Some("en".into()),
            time: now,
        }));
    }
    assert_eq!(
        index
            .flush(std::time::Duration::from_secs(20))
            .unwrap()
            .queued,
        0
    );
}

#[test]
fn search_finds_what_was_read_and_answers_bad_input() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    seed(&data);
    let o = smolweb(&data, &["search", "moss"]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}{err}");
    assert!(out.starts_with("2 pages found"), "{out}");
    assert!(
        out.contains("Water bears") && out.contains("«mosses»"),
        "{out}"
    );
    assert!(out.contains("agent fetched"), "{out}");

    let o = smolweb(&data, &["search", "moss", "--source", "agent", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["total"], 1);
    assert_eq!(v["results"][0]["url"], "gemini://titan.example/post.gmi");
    assert_eq!(v["results"][0]["source"], "agent");

    // Nothing found: exit 1. A bad query or filter: exit 2, said on stderr.
    assert_eq!(
        smolweb(&data, &["search", "zeppelin"]).status.code(),
        Some(1)
    );
    let long = "moss ".repeat(20_000);
    let o = smolweb(&data, &["search", &long]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).1.contains("at most 1000"), "{}", text(&o).1);
    let o = smolweb(&data, &["search", "the", "of"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).1.contains("common words"), "{}", text(&o).1);
    let o = smolweb(&data, &["search", "moss", "--since", "soon"]);
    assert_eq!(o.status.code(), Some(2));
    let o = smolweb(&data, &["search", "\"moss and"]);
    assert!(text(&o).1.contains("not closed"), "{}", text(&o).1);

    // Rebuilt from the stores: the visit (from the history) is back; the agent's page is known
    // by the stores only through the activity log, which is empty here.
    let o = smolweb(&data, &["search", "--reindex"]);
    assert!(o.status.success(), "{:?}", text(&o));
    assert!(text(&o).0.contains("rebuilt"), "{}", text(&o).0);
    let o = smolweb(&data, &["search", "water", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        v["results"][0]["url"],
        "gemini://moss.example/tardigrades.gmi"
    );

    // The person forgets the visit: it leaves the index at the next search.
    let history = smolweb_store::history::History::new(data.join("history.toml"));
    history.clear().unwrap();
    assert_eq!(smolweb(&data, &["search", "water"]).status.code(), Some(1));
}

#[cfg(unix)]
#[test]
fn a_linked_index_directory_is_refused_by_name() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    std::fs::create_dir_all(&data).unwrap();
    let elsewhere = tmp.path().join("elsewhere");
    std::fs::create_dir(&elsewhere).unwrap();
    std::os::unix::fs::symlink(&elsewhere, data.join("search")).unwrap();
    let o = smolweb(&data, &["search", "moss"]);
    assert_eq!(o.status.code(), Some(3));
    let err = text(&o).1;
    assert!(
        err.contains("search") && err.contains("symbolic link"),
        "{err}"
    );
    assert_eq!(
        smolweb(&data, &["search", "--reindex"]).status.code(),
        Some(3)
    );
    assert_eq!(std::fs::read_dir(&elsewhere).unwrap().count(), 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn words_go_to_the_configured_engine() {
    let engine = gemini::Server::start(Routes::new().handler(|req| {
        match (req.path.as_str(), req.query.as_deref()) {
            ("/search", None) => Reply::status(10, "Search for"),
            ("/search", Some(q)) => Reply::gemtext(&format!("# Results for {q}\n\n=> /one One\n")),
            _ => Reply::status(51, "not found"),
        }
    }))
    .await;
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    std::fs::create_dir_all(&data).unwrap();
    std::fs::write(
        data.join("config.toml"),
        format!("[search]\nengine = \"{}\"\n", engine.url("/search")),
    )
    .unwrap();
    let run = |args: Vec<String>| {
        let data = data.clone();
        tokio::task::spawn_blocking(move || {
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            smolweb(&data, &args)
        })
    };
    let o = run(vec!["get".into(), "?tardigrades in moss".into()])
        .await
        .unwrap();
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}{err}");
    assert!(out.contains("Results for tardigrades%20in%20moss"), "{out}");
    // Bare words on the command line are a mistyped address, refused without a query leaving.
    let o = run(vec!["get".into(), "tardigrades in moss".into()])
        .await
        .unwrap();
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(2), "{out}{err}");
    assert!(err.contains("INVALID_REQUEST"), "{err}");
    // A search engine's answer is an answer to an input: never indexed.
    let o = run(vec!["search".into(), "results".into()]).await.unwrap();
    assert_eq!(o.status.code(), Some(1), "{:?}", text(&o));
    // An address stays an address.
    let o = run(vec!["get".into(), engine.url("/nothing")])
        .await
        .unwrap();
    assert!(!o.status.success());
    // An engine that is neither a name nor a gemini URL is named.
    std::fs::write(data.join("config.toml"), "[search]\nengine = \"bing\"\n").unwrap();
    let o = run(vec!["get".into(), "?moss".into()]).await.unwrap();
    assert!(
        text(&o).1.contains("kennedy, tlgs, geminispace"),
        "{:?}",
        text(&o)
    );
}
