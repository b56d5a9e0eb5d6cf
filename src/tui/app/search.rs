//! The search room: the query of a page, its matching lines and the current match, and moving
//! between matches (the page scrolls so the current match is on screen).

use super::tabs::DocView;
use crate::tui::layout::Pos;

#[derive(Clone, Debug, Default)]
pub struct Search {
    pub query: String,
    pub matches: Vec<usize>,
    pub current: Option<usize>,
}

/// What a search step reports on the status line.
#[derive(Debug, PartialEq, Eq)]
pub enum Found {
    /// "match 2 of 5 for 'x'".
    Match(String),
    Missing(String),
    NoSearch,
    Nothing,
}

impl DocView {
    /// Search the page for `query` and go to the first match at or below the top.
    pub fn start_search(&mut self, query: &str) -> Found {
        let matches = self.doc.search(query);
        let found = matches.len();
        self.search = Some(Search {
            query: query.to_string(),
            matches,
            current: None,
        });
        if found == 0 {
            return Found::Missing(format!("not found: {query}"));
        }
        self.next_match(true)
    }

    /// Go to the next (or previous) match.
    pub fn next_match(&mut self, forward: bool) -> Found {
        let Some(s) = self.search.as_mut() else {
            return Found::NoSearch;
        };
        if s.matches.is_empty() {
            return Found::Nothing;
        }
        let top = self.top.line;
        let n = s.matches.len();
        let idx = match s.current {
            Some(c) if forward => (c + 1) % n,
            Some(c) => (c + n - 1) % n,
            None => s.matches.iter().position(|&l| l >= top).unwrap_or(0),
        };
        s.current = Some(idx);
        let line = s.matches[idx];
        self.top = Pos { line, row: 0 };
        Found::Match(format!("match {} of {n} for '{}'", idx + 1, s.query))
    }
}
