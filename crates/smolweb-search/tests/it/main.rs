//! The search crate through its public API, on real index directories: what is found and
//! how, what each scope sees, rebuilds, bad input, and two processes writing at once.

// clippy.toml's allow-*-in-tests covers #[test] functions only; the helpers here may too.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
// The child processes speak to their parent on stdout.
#![allow(clippy::print_stdout, clippy::print_stderr)]

mod bad_input;
mod concurrency;
mod finding;
mod rebuild;

use smolweb_search::{Corpus, Doc, Op, Request, Results, Scope, SearchIndex, Source};
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use time::OffsetDateTime;

/// A corpus the test fills (what the stores would give on a rebuild), with a history whose
/// URLs the test sets (and a stamp that says it changed).
#[derive(Default)]
pub(crate) struct Stores(pub Mutex<Vec<Doc>>, pub Mutex<Option<(u32, Vec<String>)>>);

impl Corpus for Stores {
    fn documents(&self) -> Result<Vec<Doc>, String> {
        Ok(self.0.lock().unwrap().clone())
    }
    fn stamps(&self) -> Vec<(Source, String)> {
        match &*self.1.lock().unwrap() {
            Some((n, _)) => vec![(Source::History, n.to_string())],
            None => Vec::new(),
        }
    }
    fn sync(&self, source: Source) -> Result<smolweb_search::Synced, String> {
        assert_eq!(source, Source::History);
        let urls = self.1.lock().unwrap().clone().unwrap_or_default().1;
        Ok(smolweb_search::Synced::Keep(urls.into_iter().collect()))
    }
}

pub(crate) fn index_in(data: &Path, stores: Arc<Stores>) -> SearchIndex {
    let paths =
        smolweb_store::paths::Paths::resolve(Some(data.to_path_buf()), None, None, None).unwrap();
    SearchIndex::new(paths.search_dir(), paths.search_queue(), stores)
}

pub(crate) fn at(day: i64) -> OffsetDateTime {
    OffsetDateTime::from_unix_timestamp(1_790_000_000 + day * 86_400).unwrap()
}

pub(crate) fn doc(url: &str, title: &str, text: &str, source: Source) -> Doc {
    Doc {
        url: url.into(),
        title: Some(title.into()),
        text: text.into(),
        source,
        feed: None,
        lang: None,
        time: at(0),
    }
}

/// Submit every op and commit them.
pub(crate) fn commit(index: &SearchIndex, ops: Vec<Op>) {
    for op in ops {
        index.submit(op);
    }
    let f = index.flush(Duration::from_secs(20)).unwrap();
    assert_eq!(f.queued, 0, "{f:?}");
}

pub(crate) fn person(index: &SearchIndex, q: &str) -> Results {
    search(index, q, Scope::Person)
}

pub(crate) fn search(index: &SearchIndex, q: &str, scope: Scope) -> Results {
    index
        .search(&Request {
            query: q,
            scope,
            sources: None,
            since: None,
            offset: 0,
            limit: 20,
        })
        .unwrap()
}

pub(crate) fn urls(r: &Results) -> Vec<&str> {
    r.hits.iter().map(|h| h.url.as_str()).collect()
}
