//! The outline: the page's headings as a list over the page (their levels indented), one
//! picked with the arrows and Enter to jump there; and the section the reader is in, which
//! the status line names on long pages.
//!
//! Invariant: the list holds display lines of the page it was made for; a jump clamps to the
//! page, so a list outliving a change of the page (a fold) never points past its end.

use super::{Ctx, Effect, Popup};
use crate::keymap::{Action, Code, Key};
use crate::layout::{Doc, Kind, Pos};

/// How many display lines make a page long enough for the status line to name its section:
/// more than this many screens.
const LONG_SCREENS: usize = 2;

/// One heading of the page.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Heading {
    /// 1, 2 or 3.
    pub level: u8,
    /// Its text as shown.
    pub text: String,
    /// Its display line.
    pub line: usize,
}

/// The outline popup: the headings and the one under the cursor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outline {
    /// The page's headings, in order.
    pub headings: Vec<Heading>,
    /// The heading under the cursor.
    pub selected: usize,
}

/// The headings of a page, in order.
pub(crate) fn headings(doc: &Doc) -> Vec<Heading> {
    (0..doc.len())
        .filter_map(|i| match doc.line(i)?.kind {
            Kind::Heading(level) => Some(Heading {
                level,
                text: doc.text(i).trim_start_matches('#').trim().to_string(),
                line: i,
            }),
            _ => None,
        })
        .filter(|h| !h.text.is_empty())
        .collect()
}

/// The heading the screen's top is under, when that heading is scrolled off above it (one
/// on the top row needs no saying).
fn section_at(headings: &[Heading], top: Pos) -> Option<&Heading> {
    let h = headings.iter().rev().find(|h| h.line <= top.line)?;
    (h.line < top.line || top.row > 0).then_some(h)
}

/// The outline key: open the list at the section the reader is in (or say there is none).
pub(super) fn open(ctx: &mut Ctx) -> Vec<Effect> {
    let Some(dv) = ctx.doc_view() else {
        ctx.info("no page here");
        return Vec::new();
    };
    let headings = headings(&dv.doc);
    if headings.is_empty() {
        ctx.info("this page has no headings");
        return Vec::new();
    }
    let top = dv.top.line;
    let selected = headings.iter().rposition(|h| h.line <= top).unwrap_or(0);
    ctx.dialog
        .show(Popup::Outline(Outline { headings, selected }));
    Vec::new()
}

/// A key while the outline is open: move, jump (Enter) or close (Esc, the outline key).
pub(super) fn key(key: Key, ctx: &mut Ctx) -> Vec<Effect> {
    let Some(Popup::Outline(o)) = ctx.dialog.popup.as_mut() else {
        return Vec::new();
    };
    let n = o.headings.len();
    let last = n.saturating_sub(1);
    let action = ctx.keymap.lookup(key, crate::keymap::Context::Global);
    match (key.code, action) {
        (Code::Down, _) | (_, Some(Action::ScrollDown | Action::NextLink)) => {
            o.selected = (o.selected + 1).min(last);
        }
        (Code::Up, _) | (_, Some(Action::ScrollUp | Action::PrevLink)) => {
            o.selected = o.selected.saturating_sub(1);
        }
        (_, Some(Action::PageDown | Action::HalfPageDown)) => {
            o.selected = (o.selected + 10).min(last);
        }
        (_, Some(Action::PageUp | Action::HalfPageUp)) => {
            o.selected = o.selected.saturating_sub(10);
        }
        (_, Some(Action::Top)) => o.selected = 0,
        (_, Some(Action::Bottom)) => o.selected = last,
        (Code::Enter, _) => {
            let Some(h) = o.headings.get(o.selected).cloned() else {
                return Vec::new();
            };
            ctx.dialog.close();
            // The page moves; on a long page the status line names the section from then on.
            if let Some(dv) = ctx.tabs.active_mut().and_then(super::Tab::doc_view_mut) {
                let line = h.line.min(dv.doc.len().saturating_sub(1));
                dv.top = Pos { line, row: 0 };
            }
        }
        _ => {
            ctx.dialog.close();
        }
    }
    Vec::new()
}

/// The section the reader is in, on a page long enough to need saying (None on short pages
/// and before the first heading).
pub(crate) fn current_section(doc: &Doc, top: Pos, page_height: usize) -> Option<String> {
    if doc.len() <= page_height.saturating_mul(LONG_SCREENS) {
        return None;
    }
    let headings = headings(doc);
    section_at(&headings, top).map(|h| h.text.clone())
}

#[cfg(test)]
mod tests {
    use super::*;
    use smolweb_core::page::Page;
    use smolweb_core::response::parse_mime;
    use smolweb_core::url::Url;
    use std::sync::Arc;

    fn doc(body: &str) -> Doc {
        let url = Url::parse("gemini://t.test/").unwrap();
        Doc::new(Arc::new(Page::from_gemini(
            url,
            parse_mime("text/gemini"),
            body.as_bytes().to_vec(),
        )))
    }

    #[test]
    fn headings_with_their_levels_and_lines() {
        let d = doc("# Title\ntext\n## Part one\n### Detail\n#\n## Part two\n");
        let hs = headings(&d);
        let got: Vec<(u8, &str, usize)> = hs
            .iter()
            .map(|h| (h.level, h.text.as_str(), h.line))
            .collect();
        assert_eq!(
            got,
            [
                (1, "Title", 0),
                (2, "Part one", 2),
                (3, "Detail", 3),
                (2, "Part two", 5)
            ]
        );
    }

    #[test]
    fn the_section_is_named_only_on_long_pages() {
        let mut body = String::from("intro\n# One\n");
        body.push_str(&"line\n".repeat(30));
        body.push_str("## Two\n");
        body.push_str(&"line\n".repeat(30));
        let d = doc(&body);
        let at = |line| current_section(&d, Pos { line, row: 0 }, 10);
        assert_eq!(at(0), None, "before the first heading");
        assert_eq!(at(1), None, "its heading is on screen");
        assert_eq!(at(2).as_deref(), Some("One"));
        assert_eq!(at(20).as_deref(), Some("One"));
        assert_eq!(at(32), None, "Two on the top row, not One");
        assert_eq!(at(33).as_deref(), Some("Two"));
        assert_eq!(at(60).as_deref(), Some("Two"));
        assert_eq!(current_section(&d, Pos { line: 20, row: 0 }, 40), None);
    }
}
