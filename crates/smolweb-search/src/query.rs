//! The query language, parsed without the index (pure): words, `"exact phrase"`, `word*`
//! (a prefix), `-word` / `-"phrase"` (must not appear), `site:host` (the host or a subdomain
//! of it). Words are ANDed. Bad input gets a clear answer: an error for what cannot be a
//! search ([`QueryError`]), a note for what was read in a way the person should know
//! ([`Parsed::notes`]).

use tantivy::tokenizer::{Language, LowerCaser, StopWordFilter, TextAnalyzer};

/// Longest query read, in characters.
pub const MAX_QUERY_CHARS: usize = 1000;
/// Most terms (words, phrases, prefixes, sites) in one query.
pub const MAX_CLAUSES: usize = 32;
/// Shortest prefix before a `*`, in characters.
pub const MIN_PREFIX_CHARS: usize = 2;

/// Why a query cannot be run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum QueryError {
    /// Nothing to look for.
    #[error("the query is empty: give a word to look for")]
    Empty,
    /// Longer than [`MAX_QUERY_CHARS`].
    #[error("the query has {chars} characters; at most {MAX_QUERY_CHARS} are read: shorten it")]
    TooLong {
        /// Its length in characters.
        chars: usize,
    },
    /// Every word is a common word (the, of, and) that nearly every page has.
    #[error(
        "the query has only common words ({}), which nearly every page has: add a word that \
         tells pages apart, or quote the words as a phrase",
        .0.join(", ")
    )]
    OnlyCommonWords(Vec<String>),
}

/// One term of a query.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Term {
    /// A word (or what the tokenizer makes of it: several tokens are a phrase).
    Word(String),
    /// Words in this order.
    Phrase(String),
    /// Words starting with this.
    Prefix(String),
    /// Pages of this host or a subdomain of it.
    Site(String),
}

/// A term, and whether it must not appear.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clause {
    /// The term.
    pub term: Term,
    /// `-term`: pages with it are left out.
    pub negated: bool,
}

/// A parsed query.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Parsed {
    /// The terms, in the order given.
    pub clauses: Vec<Clause>,
    /// What the person should know about how the query was read.
    pub notes: Vec<String>,
}

impl Parsed {
    /// Does any term say what to look for (not only what to leave out)?
    pub fn has_positive(&self) -> bool {
        self.clauses.iter().any(|c| !c.negated)
    }
}

/// Parse a query (see the module docs).
pub fn parse(input: &str) -> Result<Parsed, QueryError> {
    let chars = input.chars().count();
    if chars > MAX_QUERY_CHARS {
        return Err(QueryError::TooLong { chars });
    }
    let mut notes = Vec::new();
    let clean: String = input
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    if input.chars().any(|c| c.is_control() && !c.is_whitespace()) {
        notes.push("control characters in the query were read as spaces".to_string());
    }
    let mut clauses = Vec::new();
    let mut rest = clean.as_str();
    let mut at = 0;
    loop {
        let trimmed = rest.trim_start();
        at += rest.len() - trimmed.len();
        rest = trimmed;
        if rest.is_empty() {
            break;
        }
        let (negated, body) = match rest.strip_prefix('-') {
            Some(b) if !b.is_empty() && !b.starts_with(char::is_whitespace) => (true, b),
            _ => (false, rest),
        };
        let skip = rest.len() - body.len();
        let (term, used) = if let Some(inner) = body.strip_prefix('"') {
            match inner.find('"') {
                Some(end) => (Some(Term::Phrase(inner[..end].to_string())), end + 2),
                None => {
                    let col = clean[..at].chars().count() + 1;
                    notes.push(format!(
                        "the quote at character {col} is not closed: the rest of the query is \
                         read as one phrase"
                    ));
                    (Some(Term::Phrase(inner.to_string())), body.len())
                }
            }
        } else {
            let end = body.find(char::is_whitespace).unwrap_or(body.len());
            (word_term(&body[..end], &mut notes), end)
        };
        let consumed = skip + used;
        at += consumed;
        rest = &rest[consumed.min(rest.len())..];
        if let Some(term) = term.filter(|t| !is_blank(t)) {
            if clauses.len() == MAX_CLAUSES {
                notes.push(format!("only the first {MAX_CLAUSES} terms are used"));
                break;
            }
            clauses.push(Clause { term, negated });
        }
    }
    if clauses.is_empty() {
        return Err(QueryError::Empty);
    }
    let plain_words: Vec<&str> = clauses
        .iter()
        .filter(|c| !c.negated)
        .map(|c| match &c.term {
            Term::Word(w) => Some(w.as_str()),
            _ => None,
        })
        .collect::<Option<Vec<_>>>()
        .unwrap_or_default();
    if !plain_words.is_empty() && plain_words.iter().all(|w| is_common(w)) {
        return Err(QueryError::OnlyCommonWords(
            plain_words.iter().map(|w| w.to_lowercase()).collect(),
        ));
    }
    Ok(Parsed { clauses, notes })
}

fn is_blank(term: &Term) -> bool {
    match term {
        Term::Word(s) | Term::Phrase(s) | Term::Prefix(s) | Term::Site(s) => {
            !s.chars().any(char::is_alphanumeric)
        }
    }
}

/// A word as typed: `site:host`, `prefix*`, or a word. None when nothing of it is usable.
fn word_term(word: &str, notes: &mut Vec<String>) -> Option<Term> {
    if let Some(host) = word
        .strip_prefix("site:")
        .or_else(|| word.strip_prefix("SITE:"))
    {
        return site(host, notes).map(Term::Site);
    }
    if let Some(stem) = word.strip_suffix('*') {
        let stem = stem.trim_end_matches('*');
        if stem.chars().filter(|c| c.is_alphanumeric()).count() < MIN_PREFIX_CHARS {
            notes.push(format!(
                "a prefix needs at least {MIN_PREFIX_CHARS} letters before the *: \"{word}\" was \
                 left out"
            ));
            return None;
        }
        return Some(Term::Prefix(stem.to_string()));
    }
    Some(Term::Word(word.to_string()))
}

/// The host of `site:`'s value (a host, or a URL whose host is taken).
fn site(value: &str, notes: &mut Vec<String>) -> Option<String> {
    let value = value.trim();
    let host = match value.split_once("://") {
        Some((_, rest)) => rest,
        None => value,
    };
    let host = host.split(['/', '?', '#']).next().unwrap_or("");
    let host = host.rsplit_once('@').map_or(host, |(_, h)| h);
    let host = match host.rsplit_once(':') {
        Some((h, port)) if port.chars().all(|c| c.is_ascii_digit()) => h,
        _ => host,
    };
    let host = host.trim_end_matches('.').to_lowercase();
    if host.is_empty() {
        notes.push("site: needs a host (site:example.org): it was left out".to_string());
        return None;
    }
    Some(host)
}

/// Is `word` a common word (English stop words: tantivy's list)?
fn is_common(word: &str) -> bool {
    let analyzer =
        TextAnalyzer::builder(crate::tokenize::SmolTokenizer::default()).filter(LowerCaser);
    let mut analyzer = match StopWordFilter::new(Language::English) {
        Some(stop) => analyzer.filter(stop).build(),
        None => analyzer.build(),
    };
    let mut stream = analyzer.token_stream(word);
    !stream.advance()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clause(term: Term, negated: bool) -> Clause {
        Clause { term, negated }
    }

    #[test]
    fn the_syntax() {
        let p = parse(r#"tardigrades "in moss" crypto* -water site:Example.ORG -"dry season""#)
            .unwrap();
        assert_eq!(
            p.clauses,
            vec![
                clause(Term::Word("tardigrades".into()), false),
                clause(Term::Phrase("in moss".into()), false),
                clause(Term::Prefix("crypto".into()), false),
                clause(Term::Word("water".into()), true),
                clause(Term::Site("example.org".into()), false),
                clause(Term::Phrase("dry season".into()), true),
            ]
        );
        assert!(p.notes.is_empty());
        let p = parse("site:gemini://a.test:1965/x moss").unwrap();
        assert_eq!(p.clauses[0].term, Term::Site("a.test".into()));
    }

    #[test]
    fn bad_input_gets_a_clear_answer() {
        let long = "moss ".repeat(20_000);
        assert_eq!(parse(&long), Err(QueryError::TooLong { chars: 100_000 }));
        assert_eq!(parse("   "), Err(QueryError::Empty));
        assert_eq!(parse("\" \""), Err(QueryError::Empty));
        assert!(matches!(
            parse("the of AND"),
            Err(QueryError::OnlyCommonWords(w)) if w == ["the", "of", "and"]
        ));
        // Quoted, common words are a phrase worth looking for.
        assert!(parse("\"to be or not to be\"").is_ok());
        let p = parse("moss \"in the").unwrap();
        assert_eq!(p.clauses[1].term, Term::Phrase("in the".into()));
        assert!(p.notes[0].contains("character 6"), "{:?}", p.notes);
        let p = parse("moss\u{1b}[31m\u{7}red").unwrap();
        assert!(p.notes[0].contains("control characters"));
        assert_eq!(p.clauses[0].term, Term::Word("moss".into()));
        assert_eq!(p.clauses.last().unwrap().term, Term::Word("red".into()));
        let p = parse("m* moss").unwrap();
        assert_eq!(p.clauses.len(), 1);
        assert!(p.notes[0].contains("prefix"));
        let many = (0..40)
            .map(|i| format!("w{i}"))
            .collect::<Vec<_>>()
            .join(" ");
        let p = parse(&many).unwrap();
        assert_eq!(p.clauses.len(), MAX_CLAUSES);
        assert!(parse("-moss").unwrap().clauses[0].negated);
        assert_eq!(parse("- moss").unwrap().clauses.len(), 1);
    }
}
