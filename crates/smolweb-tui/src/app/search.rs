//! The search room: the query of a page, every occurrence of it (line and byte range) and
//! the current one, and moving between them: the page scrolls so the row that holds the
//! current match is on screen (also deep inside a long wrapped line, or to the right in
//! text that scrolls sideways).

use super::tabs::DocView;
use crate::layout::{Doc, Hit, Pos, display_width};

#[derive(Clone, Debug, Default)]
/// A search on a page: its query and the matches.
pub struct Search {
    pub(crate) query: String,
    /// The matches, in page order.
    pub matches: Vec<Hit>,
    pub(crate) current: Option<usize>,
}

impl Search {
    /// The matches on display line `line` (with whether each is the current one).
    pub(crate) fn on_line(&self, line: usize) -> impl Iterator<Item = (Hit, bool)> + '_ {
        let from = self.matches.partition_point(|h| h.line < line);
        let current = self.current;
        self.matches[from..]
            .iter()
            .enumerate()
            .take_while(move |(_, h)| h.line == line)
            .map(move |(i, h)| (*h, current == Some(from + i)))
    }
}

/// What a search step reports on the status line.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Found {
    /// "match 2 of 5 for 'x'".
    Match(String),
    Missing(String),
    NoSearch,
    Nothing,
}

impl DocView {
    /// Search the page for `query` and go to the first match at or below the top. `cols` is
    /// the width available to text that scrolls sideways.
    pub(crate) fn start_search(&mut self, query: &str, cols: usize) -> Found {
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
        self.next_match(true, cols)
    }

    /// Go to the next (or previous) match.
    pub(crate) fn next_match(&mut self, forward: bool, cols: usize) -> Found {
        let Some(s) = self.search.as_mut() else {
            return Found::NoSearch;
        };
        if s.matches.is_empty() {
            return Found::Nothing;
        }
        let top = self.top;
        let n = s.matches.len();
        let doc = &mut self.doc;
        let idx = match s.current {
            Some(c) if forward => (c + 1) % n,
            Some(c) => (c + n - 1) % n,
            None => s
                .matches
                .iter()
                .position(|h| {
                    h.line > top.line
                        || h.line == top.line && doc.row_at(h.line, h.start) >= top.row
                })
                .unwrap_or(0),
        };
        s.current = Some(idx);
        let hit = s.matches[idx];
        let row = doc.row_at(hit.line, hit.start);
        self.top = Pos {
            line: hit.line,
            row,
        };
        if let Some(d) = doc.line(hit.line)
            && !Doc::wraps(d.kind)
        {
            let text = doc.text(hit.line);
            let from = display_width(text.get(..hit.start).unwrap_or(""));
            let to = display_width(text.get(..hit.end).unwrap_or(""));
            if from < self.hscroll || to > self.hscroll + cols {
                self.hscroll = from.saturating_sub(cols / 4);
            }
        }
        Found::Match(format!("match {} of {n} for '{}'", idx + 1, s.query))
    }
}
