//! Searching: a [`Request`] (the query, who asks, filters, a window) becomes one tantivy
//! query whose clauses include the privacy filter and the filters, so what is ranked and
//! counted is only what the searcher may see; the hits of one URL from several sources are
//! merged (the best one shown, the others named); each shown hit gets a snippet with the
//! matched words marked, sanitized.

use crate::doc::{Scope, Source};
use crate::index::{Opened, SearchIndex};
use crate::phrase::{InBody, TextPhrase};
use crate::query::{self, Parsed, Term as QTerm};
use crate::schema::{Fields, LANGUAGES, PLAIN};
use crate::{Rebuilt, SearchError};
use std::ops::{Bound, Range};
use tantivy::collector::{Count, TopDocs};
use tantivy::query::{
    AllQuery, BooleanQuery, BoostQuery, ConstScoreQuery, EmptyQuery, Occur, PhrasePrefixQuery,
    PhraseQuery, Query, RangeQuery, TermQuery,
};
use tantivy::schema::{Field, IndexRecordOption, Value};
use tantivy::snippet::SnippetGenerator;
use tantivy::{DocAddress, Searcher, TantivyDocument, Term};
use time::OffsetDateTime;

/// Most matching documents ranked (and merged by URL) per search; the window is cut from
/// them.
pub const MAX_RANKED: usize = 1000;
/// Longest snippet, in characters.
pub(crate) const SNIPPET_CHARS: usize = 200;
/// Most hits in one window.
pub const MAX_WINDOW: usize = 100;

/// What to search.
#[derive(Clone, Debug)]
pub struct Request<'a> {
    /// The query, in the syntax of [`crate::query`].
    pub query: &'a str,
    /// Who asks (which sources may be seen at all).
    pub scope: Scope,
    /// Only these sources (None: every source the scope sees). A source the scope does not
    /// see is an error.
    pub sources: Option<&'a [Source]>,
    /// Only documents from this time on.
    pub since: Option<OffsetDateTime>,
    /// Skip this many pages (a window's start).
    pub offset: usize,
    /// At most this many pages (clamped to 1..=[`MAX_WINDOW`]).
    pub limit: usize,
}

/// A snippet: text with the matched words' byte ranges. Sanitized for a terminal, one line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Snippet {
    /// The text.
    pub text: String,
    /// Byte ranges of `text` that matched.
    pub highlights: Vec<Range<usize>>,
}

impl Snippet {
    /// The text with each match between `open` and `close` (`**`, `[`/`]`, ...).
    pub fn marked(&self, open: &str, close: &str) -> String {
        let mut out = String::with_capacity(self.text.len() + 8);
        let mut at = 0;
        for r in &self.highlights {
            out.push_str(&self.text[at..r.start]);
            out.push_str(open);
            out.push_str(&self.text[r.clone()]);
            out.push_str(close);
            at = r.end;
        }
        out.push_str(&self.text[at..]);
        out
    }
}

/// One page found.
#[derive(Clone, Debug, PartialEq)]
pub struct Hit {
    /// The page's URL.
    pub url: String,
    /// Its title (sanitized), if known.
    pub title: Option<String>,
    /// The matched words in context.
    pub snippet: Snippet,
    /// The source of the best-ranked document of this page.
    pub source: Source,
    /// Other visible sources that have this page too.
    pub also: Vec<Source>,
    /// The feed's name, for a feed entry (sanitized).
    pub feed: Option<String>,
    /// The page's language tag, if it gave one.
    pub lang: Option<String>,
    /// When the source saw it.
    pub time: OffsetDateTime,
    /// The relevance score (BM25; higher is better; comparable within one search only).
    pub score: f32,
    /// Only the first [`crate::MAX_TEXT_BYTES`] of the page's text were indexed.
    pub cut: bool,
}

/// What a search found.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Results {
    /// The window of pages, best first.
    pub hits: Vec<Hit>,
    /// Pages found (distinct URLs among the [`MAX_RANKED`] best documents).
    pub total: usize,
    /// More documents matched than were ranked: `total` is a lower bound.
    pub more: bool,
    /// Where the next window starts (None: this was the last).
    pub next_offset: Option<usize>,
    /// How the query was read (an unclosed quote, ignored characters, ...).
    pub notes: Vec<String>,
    /// Set when the index had to be rebuilt first (the message says why).
    pub rebuilt: Option<Rebuilt>,
}

/// The sources a request may see, or the error for one it may not.
fn visible(req: &Request<'_>) -> Result<Vec<Source>, SearchError> {
    match req.sources {
        None => Ok(req.scope.sources().to_vec()),
        Some(asked) => {
            if let Some(hidden) = asked.iter().find(|s| !req.scope.sees(**s)) {
                return Err(SearchError::HiddenSource(*hidden));
            }
            let mut v = asked.to_vec();
            v.sort();
            v.dedup();
            Ok(v)
        }
    }
}

/// The fields a word is looked up in, each with its analyzer and boost.
fn word_fields(f: &Fields) -> Vec<(Field, String, f32)> {
    let mut out = vec![
        (f.title, PLAIN.to_string(), 2.0),
        (f.url_words, PLAIN.to_string(), 1.0),
        (f.bodies[0], PLAIN.to_string(), 1.0),
    ];
    for (i, (code, _)) in LANGUAGES.iter().enumerate() {
        out.push((f.bodies[i + 1], format!("{PLAIN}_{code}"), 1.0));
    }
    out
}

/// The tokens `text` becomes under `analyzer`.
fn tokens(o: &Opened, analyzer: &str, text: &str) -> Vec<String> {
    let Some(mut a) = o.index.tokenizers().get(analyzer) else {
        return Vec::new();
    };
    let mut stream = a.token_stream(text);
    let mut out = Vec::new();
    while stream.advance() {
        out.push(stream.token().text.clone());
    }
    out
}

/// A word or a phrase in one field: a term, or a phrase of terms by tantivy's positions
/// (titles and URLs keep them). `prefix`: the last token is a prefix. None: no token.
fn words_query(field: Field, words: &[String], prefix: bool) -> Option<Box<dyn Query>> {
    let terms: Vec<Term> = words
        .iter()
        .map(|w| Term::from_field_text(field, w))
        .collect();
    match (terms.len(), prefix) {
        (0, _) => None,
        (_, true) => Some(Box::new(PhrasePrefixQuery::new(terms))),
        (1, false) => Some(Box::new(TermQuery::new(
            terms[0].clone(),
            IndexRecordOption::WithFreqs,
        ))),
        (_, false) => Some(Box::new(PhraseQuery::new(terms))),
    }
}

/// One clause's query over every field it may match in. A phrase (or a word the tokenizer
/// cuts in several) in the bodies, which keep no positions, is one [`TextPhrase`] over them
/// all; a single word is a term in each.
fn clause_query(o: &Opened, term: &QTerm) -> Box<dyn Query> {
    let f = &o.fields;
    let (text, prefix) = match term {
        QTerm::Site(host) => {
            let t = Term::from_field_text(f.host, host);
            return Box::new(TermQuery::new(t, IndexRecordOption::Basic));
        }
        QTerm::Word(text) | QTerm::Phrase(text) => (text, false),
        QTerm::Prefix(text) => (text, true),
    };
    let mut any: Vec<(Occur, Box<dyn Query>)> = Vec::new();
    // Every analyzer cuts the text alike (one tokenizer), so this says for all fields.
    let phrase = tokens(o, PLAIN, text).len() > 1;
    let mut bodies = Vec::new();
    for (field, analyzer, boost) in word_fields(f) {
        // Prefixes are matched as written (lowercased), in every field.
        let words = tokens(o, if prefix { PLAIN } else { &analyzer }, text);
        if phrase && f.bodies.contains(&field) {
            let read_as = o.index.tokenizers().get(&analyzer);
            bodies.push(read_as.map(|a| InBody::new(field, words, a, prefix)));
            continue;
        }
        if let Some(q) = words_query(field, &words, prefix) {
            any.push((Occur::Should, Box::new(BoostQuery::new(q, boost))));
        }
    }
    if let Some(q) = TextPhrase::new(bodies, f.text, f.lang, prefix) {
        any.push((Occur::Should, Box::new(q)));
    }
    match any.is_empty() {
        true => Box::new(EmptyQuery),
        false => Box::new(BooleanQuery::new(any)),
    }
}

/// The whole query: the person's clauses, the privacy filter, the filters.
fn build(o: &Opened, parsed: &Parsed, sources: &[Source], since: Option<i64>) -> BooleanQuery {
    let f = &o.fields;
    let mut all: Vec<(Occur, Box<dyn Query>)> = Vec::new();
    let mut sites: Vec<(Occur, Box<dyn Query>)> = Vec::new();
    for c in &parsed.clauses {
        let q = clause_query(o, &c.term);
        match (c.negated, &c.term) {
            (true, _) => all.push((Occur::MustNot, q)),
            (false, QTerm::Site(_)) => sites.push((Occur::Should, q)),
            (false, _) => all.push((Occur::Must, q)),
        }
    }
    if !sites.is_empty() {
        all.push((Occur::Must, Box::new(BooleanQuery::new(sites))));
    }
    if !all.iter().any(|(o, _)| *o == Occur::Must) {
        all.push((Occur::Must, Box::new(AllQuery)));
    }
    // The privacy filter: only the sources this searcher may see (and asked for). It scores
    // nothing (a page's rank never depends on how rare its source is), and when every
    // source is visible there is nothing to filter.
    if !Source::ALL.iter().all(|s| sources.contains(s)) {
        let allowed: Vec<(Occur, Box<dyn Query>)> = sources
            .iter()
            .map(|s| {
                let t = Term::from_field_text(f.source, s.as_str());
                let q: Box<dyn Query> = Box::new(TermQuery::new(t, IndexRecordOption::Basic));
                (Occur::Should, q)
            })
            .collect();
        let filter = ConstScoreQuery::new(Box::new(BooleanQuery::new(allowed)), 0.0);
        all.push((Occur::Must, Box::new(filter)));
    }
    if let Some(since) = since {
        let range = RangeQuery::new(
            Bound::Included(Term::from_field_i64(f.time, since)),
            Bound::Unbounded,
        );
        all.push((Occur::Must, Box::new(range)));
    }
    BooleanQuery::new(all)
}

fn read_error(index: &SearchIndex, e: tantivy::TantivyError) -> SearchError {
    SearchError::Read {
        path: index.dir().to_path_buf(),
        reason: e.to_string(),
    }
}

/// A stored document's fields.
fn first_str(d: &TantivyDocument, f: Field) -> Option<String> {
    d.get_first(f).and_then(|v| v.as_str()).map(str::to_string)
}

impl SearchIndex {
    /// Run a search (see the module docs).
    pub fn search(&self, req: &Request<'_>) -> Result<Results, SearchError> {
        let parsed = query::parse(req.query)?;
        let sources = visible(req)?;
        let synced = self.sync_stores();
        let since = req.since.map(OffsetDateTime::unix_timestamp);
        let (mut results, rebuilt) = self.with_opened(|o| {
            let searcher = o.searcher(self.dir());
            let q = build(o, &parsed, &sources, since);
            let (ranked, count) = searcher
                .search(
                    &q,
                    &(TopDocs::with_limit(MAX_RANKED).order_by_score(), Count),
                )
                .map_err(|e| read_error(self, e))?;
            let pages = merge(&searcher, ranked).map_err(|e| read_error(self, e))?;
            let total = pages.len();
            let limit = req.limit.clamp(1, MAX_WINDOW);
            let window: Vec<_> = pages.into_iter().skip(req.offset).take(limit).collect();
            let end = req.offset + window.len();
            let mut hits = Vec::with_capacity(window.len());
            let mut snippets = Snippets::new(&searcher, &q, o);
            for page in window {
                hits.push(hit(o, &searcher, &mut snippets, page).map_err(|e| read_error(self, e))?);
            }
            Ok(Results {
                hits,
                total,
                more: count > MAX_RANKED,
                next_offset: (end < total).then_some(end),
                notes: parsed.notes.clone(),
                rebuilt: None,
            })
        })?;
        results.rebuilt = rebuilt.or(synced);
        Ok(results)
    }
}

/// One page's documents: the best first.
struct Page {
    best: (f32, DocAddress),
    others: Vec<DocAddress>,
}

/// Merge ranked documents by URL, keeping the rank of each URL's best one.
fn merge(searcher: &Searcher, ranked: Vec<(f32, DocAddress)>) -> tantivy::Result<Vec<Page>> {
    let mut columns = std::collections::HashMap::new();
    let mut seen: std::collections::HashMap<u64, usize> = std::collections::HashMap::new();
    let mut pages: Vec<Page> = Vec::new();
    for (score, addr) in ranked {
        let column = match columns.entry(addr.segment_ord) {
            std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
            std::collections::hash_map::Entry::Vacant(e) => e.insert(
                searcher
                    .segment_reader(addr.segment_ord)
                    .fast_fields()
                    .u64("url_key")?,
            ),
        };
        let key = column.first(addr.doc_id).unwrap_or(0);
        match seen.get(&key) {
            Some(&i) => pages[i].others.push(addr),
            None => {
                seen.insert(key, pages.len());
                pages.push(Page {
                    best: (score, addr),
                    others: Vec::new(),
                });
            }
        }
    }
    Ok(pages)
}

/// The snippet generators, one per body field met (made on first use).
struct Snippets<'a> {
    searcher: &'a Searcher,
    query: &'a dyn Query,
    made: std::collections::HashMap<Field, Option<SnippetGenerator>>,
    fields: &'a Fields,
}

impl<'a> Snippets<'a> {
    fn new(searcher: &'a Searcher, query: &'a dyn Query, o: &'a Opened) -> Snippets<'a> {
        Snippets {
            searcher,
            query,
            made: std::collections::HashMap::new(),
            fields: &o.fields,
        }
    }

    fn snippet(&mut self, lang: Option<&str>, text: &str) -> Snippet {
        let field = match lang.and_then(crate::schema::language_of) {
            Some(i) => self.fields.bodies[i + 1],
            None => self.fields.bodies[0],
        };
        let generator = self.made.entry(field).or_insert_with(|| {
            SnippetGenerator::create(self.searcher, self.query, field)
                .ok()
                .map(|mut g| {
                    g.set_max_num_chars(SNIPPET_CHARS);
                    g
                })
        });
        let found = generator.as_ref().map(|g| g.snippet(text));
        match found {
            Some(s) if !s.highlighted().is_empty() => clean_snippet(s.fragment(), s.highlighted()),
            _ => clean_snippet(&opening(text), &[]),
        }
    }
}

/// The text's opening, up to [`SNIPPET_CHARS`] characters.
fn opening(text: &str) -> String {
    text.chars().take(SNIPPET_CHARS).collect()
}

/// A fragment made one sanitized line, the highlight ranges moved along.
fn clean_snippet(fragment: &str, highlights: &[Range<usize>]) -> Snippet {
    let mut out = Snippet::default();
    let mut at = 0;
    let push = |piece: &str, out: &mut Snippet| {
        let clean = smolweb_core::text::one_line(piece, None).into_owned();
        out.text.push_str(&clean);
    };
    for r in highlights {
        if r.start < at
            || r.end > fragment.len()
            || !fragment.is_char_boundary(r.start)
            || !fragment.is_char_boundary(r.end)
        {
            continue;
        }
        push(&fragment[at..r.start], &mut out);
        let start = out.text.len();
        push(&fragment[r.clone()], &mut out);
        out.highlights.push(start..out.text.len());
        at = r.end;
    }
    push(&fragment[at..], &mut out);
    let trimmed = out.text.trim_end().len();
    out.text.truncate(trimmed);
    out.highlights.retain(|r| r.end <= trimmed);
    out
}

fn hit(
    o: &Opened,
    searcher: &Searcher,
    snippets: &mut Snippets<'_>,
    page: Page,
) -> tantivy::Result<Hit> {
    let f = &o.fields;
    let (score, addr) = page.best;
    let d: TantivyDocument = searcher.doc(addr)?;
    let source = first_str(&d, f.source)
        .and_then(|s| Source::parse(&s))
        .unwrap_or(Source::History);
    let mut also = Vec::new();
    for other in page.others {
        let od: TantivyDocument = searcher.doc(other)?;
        if let Some(s) = first_str(&od, f.source).and_then(|s| Source::parse(&s))
            && s != source
            && !also.contains(&s)
        {
            also.push(s);
        }
    }
    also.sort();
    let text = first_str(&d, f.text).unwrap_or_default();
    let lang = first_str(&d, f.lang);
    let clean = |s: String| smolweb_core::text::one_line(&s, None).into_owned();
    let time = d
        .get_first(f.time)
        .and_then(|v| v.as_i64())
        .and_then(|t| OffsetDateTime::from_unix_timestamp(t).ok())
        .unwrap_or(OffsetDateTime::UNIX_EPOCH);
    Ok(Hit {
        url: first_str(&d, f.url).unwrap_or_default(),
        title: first_str(&d, f.title).map(clean),
        snippet: snippets.snippet(lang.as_deref(), &text),
        source,
        also,
        feed: first_str(&d, f.feed).map(clean),
        lang,
        time,
        score,
        cut: d.get_first(f.cut).and_then(|v| v.as_u64()) == Some(1),
    })
}
