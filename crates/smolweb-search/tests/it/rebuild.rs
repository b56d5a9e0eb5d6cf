//! A missing, corrupt or other-version index is rebuilt from the stores with a message; a
//! linked index directory is refused; `reindex` rebuilds on demand.

use super::*;
use smolweb_search::SearchError;

fn stores_with_moss() -> Arc<Stores> {
    let s = Stores::default();
    s.0.lock().unwrap().push(doc(
        "gemini://moss.test/a.gmi",
        "Moss",
        "Tardigrades in moss",
        Source::History,
    ));
    Arc::new(s)
}

#[test]
fn a_missing_index_is_built_from_the_stores() {
    let tmp = tempfile::tempdir().unwrap();
    let index = index_in(tmp.path(), stores_with_moss());
    let r = person(&index, "tardigrades");
    let rebuilt = r.rebuilt.as_ref().expect("built");
    assert!(rebuilt.reason.contains("no index yet"), "{rebuilt:?}");
    assert_eq!(rebuilt.documents, 1);
    assert_eq!(urls(&r), ["gemini://moss.test/a.gmi"]);
    // Once built, no message.
    assert!(person(&index, "tardigrades").rebuilt.is_none());
}

#[test]
fn a_corrupt_index_is_rebuilt_and_keeps_what_was_queued() {
    let tmp = tempfile::tempdir().unwrap();
    let stores = stores_with_moss();
    let index = index_in(tmp.path(), stores.clone());
    commit(
        &index,
        vec![Op::Add(doc(
            "gemini://a.test/x",
            "X",
            "lichens",
            Source::Agent,
        ))],
    );
    drop(index);
    // Damage every file tantivy wrote (meta.json included).
    let dir = tmp.path().join("search");
    for e in std::fs::read_dir(&dir).unwrap().flatten() {
        let name = e.file_name().into_string().unwrap();
        if !name.starts_with("smolweb-search") && !name.starts_with(".tantivy") {
            std::fs::write(e.path(), b"\x00garbage").unwrap();
        }
    }
    // A page queued by another process meanwhile.
    let index = index_in(tmp.path(), stores);
    index
        .queue_now(&Op::Add(doc(
            "gemini://b.test/y",
            "Y",
            "lichens too",
            Source::Agent,
        )))
        .unwrap();
    let r = person(&index, "lichens");
    let rebuilt = r.rebuilt.as_ref().expect("rebuilt");
    assert!(rebuilt.reason.contains("could not be"), "{rebuilt:?}");
    assert!(
        rebuilt.message().contains("rebuilt"),
        "{}",
        rebuilt.message()
    );
    // The queued page is in; the agent page of before was only in the damaged index.
    assert_eq!(urls(&r), ["gemini://b.test/y"]);
    assert_eq!(person(&index, "tardigrades").total, 1);
}

#[test]
fn an_index_of_another_version_is_rebuilt() {
    let tmp = tempfile::tempdir().unwrap();
    let index = index_in(tmp.path(), stores_with_moss());
    assert!(person(&index, "moss").rebuilt.is_some());
    drop(index);
    std::fs::write(
        tmp.path().join("search/smolweb-search.version"),
        "smolweb-search 999 x\n",
    )
    .unwrap();
    let index = index_in(tmp.path(), stores_with_moss());
    let r = person(&index, "moss");
    let why = &r.rebuilt.as_ref().expect("rebuilt").reason;
    assert!(
        why.contains("another version") && why.contains("999"),
        "{why}"
    );
    assert_eq!(r.total, 1);
}

#[test]
fn reindex_rebuilds_on_demand() {
    let tmp = tempfile::tempdir().unwrap();
    let stores = stores_with_moss();
    let index = index_in(tmp.path(), stores.clone());
    assert_eq!(person(&index, "moss").total, 1);
    stores.0.lock().unwrap().push(doc(
        "gemini://moss.test/b.gmi",
        "More moss",
        "Moss again",
        Source::Bookmark,
    ));
    let r = index.reindex("asked for").unwrap();
    assert_eq!((r.documents, r.reason.as_str()), (2, "asked for"));
    assert_eq!(person(&index, "moss").total, 2);
    // Nothing of the build is left beside the index.
    let left: Vec<String> = std::fs::read_dir(tmp.path())
        .unwrap()
        .flatten()
        .map(|e| e.file_name().into_string().unwrap())
        .filter(|n| n.starts_with("search."))
        .collect();
    assert_eq!(left, ["search.lock"]);
}

#[cfg(unix)]
#[test]
fn a_linked_index_directory_is_refused_and_nothing_is_written_through_it() {
    let tmp = tempfile::tempdir().unwrap();
    let elsewhere = tmp.path().join("elsewhere");
    std::fs::create_dir(&elsewhere).unwrap();
    std::os::unix::fs::symlink(&elsewhere, tmp.path().join("search")).unwrap();
    let index = index_in(tmp.path(), stores_with_moss());
    let err = index
        .search(&Request {
            query: "moss",
            scope: Scope::Person,
            sources: None,
            since: None,
            offset: 0,
            limit: 5,
        })
        .unwrap_err();
    assert!(matches!(err, SearchError::Link(_)), "{err:?}");
    assert!(err.to_string().contains("symbolic link"), "{err}");
    let err = index.reindex("asked").unwrap_err();
    assert!(matches!(err, SearchError::Link(_)), "{err:?}");
    // Pages submitted meanwhile stay queued, not lost.
    index.submit(Op::Add(doc("gemini://a.test/", "A", "moss", Source::Agent)));
    let f = index.flush(Duration::from_secs(5));
    assert!(matches!(f, Err(SearchError::Link(_))), "{f:?}");
    assert_eq!(std::fs::read_dir(&elsewhere).unwrap().count(), 0);
    assert_eq!(index.stats().map(|s| s.queued).unwrap_or(1), 1);
}
