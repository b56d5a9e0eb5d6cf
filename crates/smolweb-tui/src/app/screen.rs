//! The screen room: the terminal's size, the text column inside it, and the rows of the
//! active page laid out for the view ([`FrameRow`]s, remade after every update), plus what
//! moves the reader's place on the page: scrolling (down, sideways, to an end), folding
//! preformatted blocks, selecting links, the search's matches, and the pointer's hover.
//!
//! Invariant: the frame is only what is visible (`layout` wraps only the rows on screen).

use super::search::Found;
use super::{Ctx, DocView, FrameRow, Mark, Tabs};
use crate::layout::{Pos, display_width, sanitize};

/// The terminal's size and the laid-out rows of the active page.
#[derive(Debug)]
pub struct Screen {
    width: u16,
    height: u16,
    /// `[tui] text_width`: the widest text column.
    text_width: u16,
    frame: Vec<FrameRow>,
}

impl Screen {
    /// An 80x24 screen with a text column at most `text_width` wide.
    pub(crate) fn new(text_width: u16) -> Screen {
        Screen {
            width: 80,
            height: 24,
            text_width,
            frame: Vec::new(),
        }
    }

    /// The terminal was resized.
    pub(crate) fn resize(&mut self, width: u16, height: u16) {
        self.width = width;
        self.height = height;
    }

    /// Columns of the terminal.
    pub fn width(&self) -> u16 {
        self.width
    }

    /// Rows of the terminal.
    pub fn height(&self) -> u16 {
        self.height
    }

    /// The laid-out rows of the active page, top to bottom.
    pub fn frame(&self) -> &[FrameRow] {
        &self.frame
    }

    /// Rows of the page area.
    pub fn page_height(&self) -> usize {
        usize::from(self.height.saturating_sub(2)).max(1)
    }

    /// Width of the text column and its left margin.
    pub(crate) fn text_column(&self) -> (usize, usize) {
        let w = usize::from(self.width).max(1);
        let text = usize::from(self.text_width).min(w.saturating_sub(2)).max(1);
        (text, (w - text) / 2)
    }

    /// Columns for text that scrolls sideways (preformatted, menus, plain text).
    pub(crate) fn side_cols(&self) -> usize {
        let (_, margin) = self.text_column();
        usize::from(self.width).saturating_sub(margin + 12).max(8)
    }

    /// Approximate position in the page, in percent (by lines).
    pub fn percent(&self, dv: Option<&DocView>) -> Option<usize> {
        let dv = dv?;
        let last = self.frame.last().map_or(0, |r| r.pos.line);
        let total = dv.doc.len();
        if total == 0 || (dv.top == Pos::default() && last + 1 >= total) {
            return None;
        }
        Some(((last + 1) * 100 / total).min(100))
    }

    /// The link on a screen row (row 0 is the tab bar).
    pub(crate) fn link_at(&self, row: u16) -> Option<usize> {
        usize::from(row)
            .checked_sub(1)
            .and_then(|i| self.frame.get(i))
            .and_then(|r| r.link)
    }

    /// Lay out the rows of the active page for the view.
    pub(crate) fn refresh(&mut self, tabs: &mut Tabs) {
        let height = self.page_height();
        let (text_w, _) = self.text_column();
        let Some(dv) = tabs.active_mut().and_then(super::Tab::doc_view_mut) else {
            self.frame.clear();
            return;
        };
        dv.doc.set_width(text_w);
        dv.top = dv.doc.clamp_top(dv.top, height);
        let rows = dv.doc.screen(dv.top, height);
        let search = dv.search.as_ref();
        self.frame = rows
            .into_iter()
            .filter_map(|pos| {
                let p = dv.doc.row(pos.line, pos.row)?;
                let (a, b) = (p.start, p.start + p.text.len());
                let marks = search
                    .into_iter()
                    .flat_map(|s| s.on_line(pos.line))
                    .filter(|(h, _)| h.start < b && h.end > a)
                    .map(|(h, current)| Mark {
                        start: h.start.max(a) - a,
                        end: h.end.min(b) - a,
                        current,
                    })
                    .collect();
                Some(FrameRow {
                    pos,
                    kind: p.kind,
                    prefix: p.prefix,
                    tag: p.tag,
                    text: p.text.into_owned(),
                    link: p.link,
                    external: p.external,
                    picture: p.picture,
                    marks,
                })
            })
            .collect();
    }

    /// Scroll the page by `n` rows (negative = up).
    pub(crate) fn scroll(&self, tabs: &mut Tabs, n: i32) {
        let height = self.page_height();
        let (text_w, _) = self.text_column();
        if let Some(dv) = doc_view_mut(tabs) {
            dv.doc.set_width(text_w);
            let top = if n >= 0 {
                dv.doc.forward(dv.top, n.unsigned_abs() as usize)
            } else {
                dv.doc.backward(dv.top, n.unsigned_abs() as usize)
            };
            dv.top = dv.doc.clamp_top(top, height);
        }
    }

    /// To the top or the bottom of the page.
    pub(crate) fn jump(&self, tabs: &mut Tabs, bottom: bool) {
        let height = self.page_height();
        let (text_w, _) = self.text_column();
        if let Some(dv) = doc_view_mut(tabs) {
            dv.top = if bottom {
                dv.doc.set_width(text_w);
                dv.doc.max_top(height)
            } else {
                Pos::default()
            };
        }
    }

    /// Scroll text that does not wrap sideways, stopping once the longest such row on
    /// screen ends at the right edge.
    pub(crate) fn hscroll(&self, tabs: &mut Tabs, n: isize) {
        let (_, margin) = self.text_column();
        let room = usize::from(self.width).saturating_sub(margin);
        let limit = self
            .frame
            .iter()
            .filter(|r| !crate::layout::Doc::wraps(r.kind))
            .map(|r| {
                let head = display_width(&r.prefix) + display_width(r.tag);
                let text = display_width(&sanitize(&r.text, true));
                (head + text).saturating_sub(room)
            })
            .max()
            .unwrap_or(0);
        if let Some(dv) = doc_view_mut(tabs) {
            dv.hscroll = dv.hscroll.saturating_add_signed(n).min(limit);
        }
    }

    /// The pointer moved over a screen row.
    pub(crate) fn hover(&self, tabs: &mut Tabs, row: u16) {
        let link = self.link_at(row);
        if let Some(dv) = doc_view_mut(tabs) {
            dv.hover = link;
        }
    }

    /// Fold or unfold the preformatted blocks.
    pub(crate) fn toggle_fold(&self, ctx: &mut Ctx) {
        let Some(dv) = doc_view_mut(ctx.tabs) else {
            return;
        };
        let folded = !dv.doc.folded();
        let line = dv.top.line;
        if !dv.doc.set_folded(folded) {
            ctx.info("no preformatted blocks on this page");
            return;
        }
        dv.top = Pos {
            line: line.min(dv.doc.len().saturating_sub(1)),
            row: 0,
        };
        dv.search = None;
        let what = if folded { "folded" } else { "unfolded" };
        ctx.info(format!("preformatted blocks {what}"));
    }

    /// Select the next/previous link, starting from the screen when none is selected.
    pub(crate) fn select_link(&self, ctx: &mut Ctx, forward: bool) {
        // The status line shows where the selected link goes.
        ctx.status.clear();
        let first_line = self.frame.first().map_or(0, |r| r.pos.line);
        let last_line = self.frame.last().map_or(0, |r| r.pos.line);
        let Some(dv) = doc_view_mut(ctx.tabs) else {
            return;
        };
        let n = dv.doc.link_count();
        if n == 0 {
            return;
        }
        let visible = |dv: &DocView, i: usize| {
            dv.doc
                .link_line(i)
                .is_some_and(|l| l >= first_line && l <= last_line)
        };
        let next = match dv.selected {
            Some(i) if visible(dv, i) => {
                if forward {
                    (i + 1) % n
                } else {
                    (i + n - 1) % n
                }
            }
            _ => {
                let on_screen: Vec<usize> = (0..n).filter(|&i| visible(dv, i)).collect();
                let pick = if forward {
                    on_screen.first()
                } else {
                    on_screen.last()
                };
                match pick {
                    Some(&i) => i,
                    None => (0..n)
                        .find(|&i| dv.doc.link_line(i).is_some_and(|l| l > last_line))
                        .unwrap_or(0),
                }
            }
        };
        dv.selected = Some(next);
        dv.hover = None;
        if !visible(dv, next)
            && let Some(line) = dv.doc.link_line(next)
        {
            dv.top = Pos { line, row: 0 };
        }
    }

    /// Search the page for `query` (Some: a new search) or move to the next or previous
    /// match (None), and say what was found.
    pub(crate) fn search(&self, ctx: &mut Ctx, query: Option<&str>, forward: bool) {
        let cols = self.side_cols();
        let Some(dv) = doc_view_mut(ctx.tabs) else {
            return;
        };
        let found = match query {
            Some(q) => dv.start_search(q, cols),
            None => dv.next_match(forward, cols),
        };
        match found {
            Found::Match(m) => ctx.info(m),
            Found::Missing(m) => ctx.error(m),
            Found::NoSearch => ctx.info("no search: press / first"),
            Found::Nothing => {}
        }
    }
}

fn doc_view_mut(tabs: &mut Tabs) -> Option<&mut DocView> {
    tabs.active_mut().and_then(super::Tab::doc_view_mut)
}
