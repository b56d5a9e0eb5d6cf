//! The fuzz targets' door (`fuzz/fuzz_targets/search_query.rs`): a query as a person or an
//! agent types it, parsed and run over a small index; and a search queue file's text as the
//! writer reads it. Built only with the `fuzzing` feature; hidden from the docs, not an API.
//! Each function panics when an invariant breaks (that is the finding).
//!
//! Invariants checked:
//! - a query is refused only with a reason that holds (too long, empty, only common words),
//!   and an accepted one has 1 to [`MAX_CLAUSES`] terms, none blank, each term and note on
//!   one line without control characters;
//! - its search answers within the window: at most `limit` hits, `total` counting them, each
//!   snippet one line without control characters whose highlights are ordered ranges on
//!   character boundaries of its text, and an agent without the history setting sees only its
//!   sources;
//! - a queued operation's text reads as an operation or is dropped; an added document's text
//!   is cut at a character boundary within [`crate::MAX_TEXT_BYTES`], and the hosts `site:`
//!   finds it by are its host and that host's parents.

use crate::SearchError;
use crate::doc::{Doc, Op, Scope, Source, cut_to};
use crate::index::{Corpus, SearchIndex};
use crate::query::{MAX_CLAUSES, MAX_QUERY_CHARS, QueryError, Term, parse};
use crate::results::{MAX_WINDOW, Request, Snippet};
use smolweb_store::search_queue::SearchQueue;
use std::path::PathBuf;
use std::sync::Arc;
use time::OffsetDateTime;

/// The pages of the small index queries run over: words of the seeds, several sources and
/// languages, a URL under subdomains.
struct Pages;

impl Corpus for Pages {
    fn documents(&self) -> Result<Vec<Doc>, String> {
        let at = OffsetDateTime::UNIX_EPOCH + time::Duration::days(20_000);
        let page = |url: &str, title: &str, text: &str, source, lang: Option<&str>| Doc {
            url: url.to_string(),
            title: Some(title.to_string()),
            text: text.to_string(),
            source,
            feed: (source == Source::Feed).then(|| "Moss news".to_string()),
            lang: lang.map(str::to_string),
            time: at,
        };
        Ok(vec![
            page(
                "gemini://a.moss.example/tardigrades.gmi",
                "Tardigrades in moss",
                "Tardigrades live in moss and lichen; in the dry season they curl into a tun \
                 and wait for water. Cryptobiosis keeps them alive for decades.",
                Source::History,
                Some("en"),
            ),
            page(
                "gopher://b.example/0/water.txt",
                "Water bears",
                "Wasserbären überleben Trockenheit. Les tardigrades résistent au froid. \
                 「クマムシ」は乾燥に強い。",
                Source::Agent,
                Some("de"),
            ),
            page(
                "https://c.example/feed/1",
                "Dry season notes",
                "The dry season came early: moss turned brown, \u{1b}[31mred\u{1b}[0m text.",
                Source::Feed,
                None,
            ),
            page(
                "gemini://a.moss.example/tardigrades.gmi",
                "Shared: tardigrades",
                "look at this page about moss",
                Source::Shared,
                Some("fr"),
            ),
        ])
    }
}

/// The small index queries run over.
pub struct Index(SearchIndex);

impl Index {
    /// The index built in `dir` (its queue and lock beside it) from a few fixed pages.
    pub fn new(dir: PathBuf) -> Result<Index, SearchError> {
        let queue = SearchQueue::new(dir.join("search-queue"), dir.join("search.lock"));
        let index = SearchIndex::new(dir.join("search"), queue, Arc::new(Pages));
        index.reindex("fuzzing")?;
        Ok(Index(index))
    }
}

fn one_line(what: &str, s: &str) {
    assert!(
        !s.chars().any(char::is_control),
        "{what} holds a control character: {s:?}"
    );
}

/// Parse `input` and run it over `index` (byte 0: the scope and the window; see the module
/// docs).
#[allow(clippy::panic)]
pub fn query(index: &Index, data: &[u8]) {
    let (first, rest) = data.split_first().map_or((0, &[][..]), |(b, r)| (*b, r));
    let input = String::from_utf8_lossy(rest);
    let chars = input.chars().count();
    match parse(&input) {
        Err(QueryError::TooLong { chars: n }) => {
            assert!(
                n == chars && n > MAX_QUERY_CHARS,
                "refused as too long: {n}"
            );
            return;
        }
        Err(QueryError::Empty) => {
            assert!(
                chars <= MAX_QUERY_CHARS,
                "a query over the limit was read as empty"
            );
            return;
        }
        Err(QueryError::OnlyCommonWords(words)) => {
            assert!(!words.is_empty(), "refused for no common word");
            return;
        }
        Ok(parsed) => {
            assert!(
                (1..=MAX_CLAUSES).contains(&parsed.clauses.len()),
                "{} terms",
                parsed.clauses.len()
            );
            for c in &parsed.clauses {
                let (Term::Word(s) | Term::Phrase(s) | Term::Prefix(s) | Term::Site(s)) = &c.term;
                assert!(s.chars().any(char::is_alphanumeric), "a blank term: {c:?}");
                one_line("a term", s);
            }
            for n in &parsed.notes {
                one_line("a note", n);
            }
        }
    }
    let scope = match first % 3 {
        0 => Scope::Person,
        1 => Scope::Agent {
            search_history: false,
        },
        _ => Scope::Agent {
            search_history: true,
        },
    };
    let limit = usize::from(first >> 2) % (MAX_WINDOW + 5);
    let offset = usize::from(first >> 6);
    let results = match index.0.search(&Request {
        query: &input,
        scope,
        sources: None,
        since: None,
        offset,
        limit,
    }) {
        Ok(r) => r,
        Err(SearchError::Query(_)) => panic!("parsed, then refused by the search"),
        Err(e) => panic!("the search failed: {e}"),
    };
    assert!(
        results.hits.len() <= limit.clamp(1, MAX_WINDOW),
        "window overrun"
    );
    assert!(
        offset + results.hits.len() <= results.total.max(offset),
        "more hits than found"
    );
    for hit in &results.hits {
        assert!(scope.sees(hit.source), "{scope:?} sees {:?}", hit.source);
        assert!(
            hit.also.iter().all(|s| scope.sees(*s)),
            "{scope:?} sees {:?}",
            hit.also
        );
        snippet(&hit.snippet);
        if let Some(t) = &hit.title {
            one_line("a title", t);
        }
    }
}

#[allow(clippy::panic)]
fn snippet(s: &Snippet) {
    one_line("a snippet", &s.text);
    let mut at = 0;
    for r in &s.highlights {
        assert!(
            at <= r.start && r.start <= r.end && r.end <= s.text.len(),
            "highlights {:?} out of order or past {} bytes",
            s.highlights,
            s.text.len()
        );
        assert!(
            s.text.is_char_boundary(r.start) && s.text.is_char_boundary(r.end),
            "a highlight inside a character: {r:?} of {:?}",
            s.text
        );
        at = r.end;
    }
    let _ = s.marked("[", "]");
}

/// A search queue file's text as the writer reads it: an operation, or dropped.
pub fn queue_file(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(Op::Add(mut doc)) = serde_json::from_str::<Op>(text) else {
        return;
    };
    let max = crate::MAX_TEXT_BYTES.min(doc.text.len() / 2);
    let was = doc.text.len();
    let cut = cut_to(&mut doc.text, max);
    assert!(
        doc.text.len() <= max && cut == (was > max),
        "cut_to overran"
    );
    let hosts = crate::writer::hosts(&doc.url);
    if let Some(host) = hosts.first() {
        assert!(
            hosts
                .iter()
                .all(|h| !h.is_empty() && host.ends_with(h.as_str())),
            "{hosts:?} are not the parents of {host}"
        );
    }
}
