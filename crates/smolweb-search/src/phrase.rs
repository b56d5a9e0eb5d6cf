//! Phrases in a page's text, found without positions in the index.
//!
//! The body fields keep no word positions: they were 30% of the index (11 MB of 35 for
//! 10,000 pages of 5 KB of prose), and only phrases need them. A phrase in a body
//! (`"dry season"`, a word the tokenizer cuts in several tokens, a word of a script written
//! without spaces) is found in two steps: the pages that have every one of its words (the
//! postings, as for any words, so the ranking is BM25's), then, of those, the pages whose
//! stored text has the words next to each other in that order, read again through the body
//! field's own analyzer (so a stemmed page matches as its words were indexed). The second
//! step reads each candidate's stored text (one compressed block for several pages, cached
//! while the candidates go up in order), so a phrase of two words that are on every page
//! costs a read of the whole store; a phrase with one rare word costs a few pages.
//!
//! Both steps are one tantivy query, so a phrase composes like any other clause: counted
//! exactly, left out with `-"..."`, filtered by the privacy clause before anything is ranked.
//! Titles and URLs are small and keep their positions (tantivy's own phrase query).

use tantivy::query::{
    BooleanQuery, EnableScoring, Explanation, Occur, PhrasePrefixQuery, Query, Scorer, TermQuery,
    Weight,
};
use tantivy::schema::{Field, IndexRecordOption, Value};
use tantivy::store::StoreReader;
use tantivy::tokenizer::TextAnalyzer;
use tantivy::{DocId, DocSet, Score, SegmentReader, TERMINATED, TantivyDocument, Term};

/// Blocks of stored text kept decompressed while one scorer checks its candidates (they go
/// up in order, so the block of the last one is the one the next needs).
const CACHED_BLOCKS: usize = 4;

/// The phrase as one body field reads it: its words through the field's analyzer.
#[derive(Clone)]
pub(crate) struct InBody {
    field: Field,
    words: Vec<String>,
    /// The words that must be there as written (all but a prefix), as terms of `field`.
    terms: Vec<Term>,
    analyzer: TextAnalyzer,
}

impl InBody {
    /// `words` as `analyzer` made them from the query, in `field`.
    pub(crate) fn new(
        field: Field,
        words: Vec<String>,
        analyzer: TextAnalyzer,
        prefix: bool,
    ) -> InBody {
        let exact = words.len().saturating_sub(usize::from(prefix));
        let terms = words[..exact]
            .iter()
            .map(|w| Term::from_field_text(field, w))
            .collect();
        InBody {
            field,
            words,
            terms,
            analyzer,
        }
    }

    /// The pages of this field with every word (the postings' step).
    fn candidates(&self, prefix: bool) -> BooleanQuery {
        let mut all: Vec<(Occur, Box<dyn Query>)> = self
            .terms
            .iter()
            .map(|t| {
                let q = TermQuery::new(t.clone(), IndexRecordOption::WithFreqs);
                (Occur::Must, Box::new(q) as Box<dyn Query>)
            })
            .collect();
        if let (true, Some(last)) = (prefix, self.words.last()) {
            let t = Term::from_field_text(self.field, last);
            all.push((Occur::Must, Box::new(PhrasePrefixQuery::new(vec![t]))));
        }
        BooleanQuery::new(all)
    }
}

/// A phrase in the bodies: these words in this order, the last one perhaps a prefix. One
/// query for every body field, so each candidate's text is read once, and checked through
/// the analyzer of the body its language put it in.
#[derive(Clone)]
pub(crate) struct TextPhrase {
    /// By body (`bodies[0]`, then one per language, as in [`crate::schema::Fields`]); None
    /// where the phrase has no words.
    bodies: Vec<Option<InBody>>,
    text: Field,
    lang: Field,
    prefix: bool,
}

impl std::fmt::Debug for TextPhrase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let words = self.bodies.iter().flatten().next().map(|b| &b.words);
        f.debug_struct("TextPhrase")
            .field("words", &words)
            .field("prefix", &self.prefix)
            .finish()
    }
}

impl TextPhrase {
    /// The phrase in each body (in the order of the schema's bodies), checked against the
    /// stored `text` through the body that the stored `lang` names; `prefix`: the last word
    /// is the start of a word. None when no body has a word of it.
    pub(crate) fn new(
        bodies: Vec<Option<InBody>>,
        text: Field,
        lang: Field,
        prefix: bool,
    ) -> Option<TextPhrase> {
        let bodies: Vec<Option<InBody>> = bodies
            .into_iter()
            .map(|b| b.filter(|b| !b.words.is_empty()))
            .collect();
        bodies.iter().any(Option::is_some).then_some(TextPhrase {
            bodies,
            text,
            lang,
            prefix,
        })
    }
}

impl Query for TextPhrase {
    fn weight(&self, scoring: EnableScoring<'_>) -> tantivy::Result<Box<dyn Weight>> {
        let any: Vec<(Occur, Box<dyn Query>)> = self
            .bodies
            .iter()
            .flatten()
            .map(|b| {
                (
                    Occur::Should,
                    Box::new(b.candidates(self.prefix)) as Box<dyn Query>,
                )
            })
            .collect();
        let checks = self
            .bodies
            .iter()
            .map(|b| {
                b.as_ref().map(|b| Check {
                    words: b.words.clone(),
                    prefix: self.prefix,
                    analyzer: b.analyzer.clone(),
                })
            })
            .collect();
        Ok(Box::new(TextPhraseWeight {
            inner: BooleanQuery::new(any).weight(scoring)?,
            checks,
            text: self.text,
            lang: self.lang,
        }))
    }

    /// The words the snippet marks (a prefix is not a term).
    fn query_terms<'a>(&'a self, visitor: &mut dyn FnMut(&'a Term, bool)) {
        for t in self.bodies.iter().flatten().flat_map(|b| &b.terms) {
            visitor(t, false);
        }
    }
}

/// Whether a text has the phrase.
#[derive(Clone)]
struct Check {
    words: Vec<String>,
    prefix: bool,
    analyzer: TextAnalyzer,
}

impl Check {
    /// Does `text`, read through the analyzer, have the words at consecutive positions?
    fn found(&mut self, text: &str) -> bool {
        let Check {
            words,
            prefix,
            analyzer,
        } = self;
        let n = words.len();
        if n == 0 {
            return false;
        }
        let is = |k: usize, token: &str| match *prefix && k + 1 == n {
            true => token.starts_with(words[k].as_str()),
            false => token == words[k],
        };
        // The lengths of the phrase's beginnings that end at the token before (a word may
        // repeat, "la la land", so several at once), in a reused buffer; nothing is copied.
        let mut open: Vec<usize> = Vec::with_capacity(n);
        let mut next: Vec<usize> = Vec::with_capacity(n);
        let mut last_position = usize::MAX;
        let mut stream = analyzer.token_stream(text);
        while stream.advance() {
            let token = stream.token();
            if token.position != last_position.wrapping_add(1) {
                open.clear();
            }
            last_position = token.position;
            next.clear();
            for k in std::iter::once(0).chain(open.iter().copied()) {
                if is(k, &token.text) {
                    if k + 1 == n {
                        return true;
                    }
                    next.push(k + 1);
                }
            }
            std::mem::swap(&mut open, &mut next);
        }
        false
    }
}

struct TextPhraseWeight {
    inner: Box<dyn Weight>,
    checks: Vec<Option<Check>>,
    text: Field,
    lang: Field,
}

impl Weight for TextPhraseWeight {
    fn scorer(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<Box<dyn Scorer>> {
        let mut scorer = TextPhraseScorer {
            inner: self.inner.scorer(reader, boost)?,
            store: reader.get_store_reader(CACHED_BLOCKS)?,
            checks: self.checks.clone(),
            text: self.text,
            lang: self.lang,
        };
        scorer.settle();
        Ok(Box::new(scorer))
    }

    fn explain(&self, reader: &SegmentReader, doc: DocId) -> tantivy::Result<Explanation> {
        let mut scorer = self.scorer(reader, 1.0)?;
        match scorer.seek(doc) == doc {
            true => self.inner.explain(reader, doc),
            false => Err(tantivy::TantivyError::InvalidArgument(format!(
                "document {doc} does not have the phrase"
            ))),
        }
    }
}

struct TextPhraseScorer {
    inner: Box<dyn Scorer>,
    store: StoreReader,
    checks: Vec<Option<Check>>,
    text: Field,
    lang: Field,
}

impl TextPhraseScorer {
    /// Does candidate `doc`'s stored text have the phrase, read as its body was indexed? A
    /// text that cannot be read (a damaged block) does not.
    fn has_phrase(&mut self, doc: DocId) -> bool {
        let stored: TantivyDocument = match self.store.get(doc) {
            Ok(d) => d,
            Err(e) => {
                tracing::warn!("search index: reading a page's text for a phrase: {e}");
                return false;
            }
        };
        let body = stored
            .get_first(self.lang)
            .and_then(|v| v.as_str())
            .and_then(crate::schema::language_of)
            .map_or(0, |i| i + 1);
        let text = stored.get_first(self.text).and_then(|v| v.as_str());
        match (self.checks.get_mut(body), text) {
            (Some(Some(check)), Some(text)) => check.found(text),
            _ => false,
        }
    }

    /// Move on from the inner scorer's document to the first that has the phrase.
    fn settle(&mut self) -> DocId {
        let mut doc = self.inner.doc();
        while doc != TERMINATED && !self.has_phrase(doc) {
            doc = self.inner.advance();
        }
        doc
    }
}

impl DocSet for TextPhraseScorer {
    fn advance(&mut self) -> DocId {
        self.inner.advance();
        self.settle()
    }

    fn seek(&mut self, target: DocId) -> DocId {
        if self.inner.doc() >= target {
            return self.inner.doc();
        }
        self.inner.seek(target);
        self.settle()
    }

    fn doc(&self) -> DocId {
        self.inner.doc()
    }

    fn size_hint(&self) -> u32 {
        self.inner.size_hint()
    }

    /// Each candidate costs a read of its text: let cheaper clauses lead an intersection.
    fn cost(&self) -> u64 {
        self.inner.cost().saturating_mul(16)
    }
}

impl Scorer for TextPhraseScorer {
    fn score(&mut self) -> Score {
        self.inner.score()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokenize::SmolTokenizer;
    use tantivy::tokenizer::{Language, LowerCaser, Stemmer};

    fn check(words: &[&str], prefix: bool, stem: bool) -> Check {
        let b = TextAnalyzer::builder(SmolTokenizer::default()).filter(LowerCaser);
        let analyzer = match stem {
            true => b.filter(Stemmer::new(Language::English)).build(),
            false => b.build(),
        };
        Check {
            words: words.iter().map(|w| w.to_string()).collect(),
            prefix,
            analyzer,
        }
    }

    #[test]
    fn words_next_to_each_other_in_order() {
        let text = "A dry season on the stones; no moss grows here.";
        assert!(check(&["dry", "season"], false, false).found(text));
        assert!(!check(&["season", "dry"], false, false).found(text));
        assert!(!check(&["dry", "stones"], false, false).found(text));
        assert!(check(&["moss", "grows", "here"], false, false).found(text));
        assert!(check(&["a"], false, false).found(text));
        // Punctuation between words does not part them (the tokenizer skips it).
        assert!(check(&["stones", "no"], false, false).found(text));
        // The last word as a prefix.
        assert!(check(&["moss", "gro"], true, false).found(text));
        assert!(!check(&["moss", "her"], true, false).found(text));
        // Read through a stemmer, as a stemmed page was indexed.
        assert!(check(&["moss", "grow"], false, true).found("Mosses growing here"));
        // A phrase longer than the text, and an empty text.
        assert!(
            !check(&["no", "moss", "grows", "here", "at", "all"], false, false).found("no moss")
        );
        assert!(!check(&["moss"], false, false).found(""));
    }

    #[test]
    fn a_repeated_word_does_not_confuse_the_ring() {
        assert!(
            check(&["to", "be", "or", "not", "to", "be"], false, false)
                .found("to be to be or not to be, that is the question")
        );
        assert!(check(&["la", "la", "land"], false, false).found("la la la la land"));
        assert!(!check(&["la", "la", "land"], false, false).found("la land la"));
    }

    #[test]
    fn unspaced_scripts_are_phrases_of_characters() {
        let words = ["乾", "燥"];
        assert!(check(&words, false, false).found("苔の中のクマムシは乾燥に強い。"));
        assert!(!check(&words, false, false).found("乾いた苔、燥"));
    }
}
