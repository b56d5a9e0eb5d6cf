//! The tour room (stateless, over the page shown): the tour is the person's queue of links to
//! read next, kept in the data directory and shared with agents (`smolweb_store::tour`,
//! through the client's `tour_*` operations on the store thread).
//!
//! The add key puts the selected link on it; with none selected it asks which, by number as
//! the page numbers them (`3`, `1-5 8`, `*` for every link; Enter alone: the page itself).
//! The next key takes the first link off and goes there; when the page arrives the status line
//! says how many wait and, for a link an agent added, which agent and why. The list key shows
//! `about:tour` (made from the store, like the other store pages), where one link is taken
//! off or all of them (after asking). Which links may go on it (only those smolweb opens,
//! never with a query) is the client's to say; the status line names each one refused.

use super::dialog::Pending;
use super::{Ctx, Effect, FetchOptions, Purpose, StoreOp, Then};
use crate::keymap::Action;
use smolweb_store::tour::{NewStop, Stop};

/// The page's URL.
pub(crate) const PAGE: &str = "about:tour";

/// Most link numbers one answer may name (a range like `1-99999` is cut there).
const MOST_PICKED: usize = 500;

/// Link `i` of the page as a stop, with its label. Which links may go on the tour is the
/// client's to say (`smolweb_client::tour`): the store's answer names each one refused.
fn link_stop(ctx: &Ctx, i: usize) -> Option<NewStop> {
    let doc = &ctx.doc_view()?.doc;
    Some(NewStop {
        url: doc.link_url(i)?.to_string(),
        label: doc
            .link_line(i)
            .map(|l| doc.text(l).trim().to_string())
            .filter(|l| !l.is_empty()),
    })
}

/// The add key: the selected link, else ask which links.
pub(super) fn add(ctx: &mut Ctx) -> Vec<Effect> {
    let Some(dv) = ctx.doc_view() else {
        ctx.info("nothing to put on the tour here: open a page first");
        return Vec::new();
    };
    if let Some(i) = dv.selected {
        let links = link_stop(ctx, i).into_iter().collect();
        return vec![Effect::Store(StoreOp::TourAdd { links })];
    }
    ctx.prompt(Purpose::TourLinks);
    Vec::new()
}

/// Which links an answer names, as zero-based indexes in the order named (each once):
/// numbers and ranges as the page numbers its links (`3`, `1-5`, `5-1`), `*` for all, separated
/// by spaces or commas. Err says what is wrong, in the person's words.
pub(crate) fn picks(text: &str, links: usize) -> Result<Vec<usize>, String> {
    let mut out: Vec<usize> = Vec::new();
    let push = |i: usize, out: &mut Vec<usize>| {
        if out.len() < MOST_PICKED && !out.contains(&i) {
            out.push(i);
        }
    };
    for word in text.split([' ', ',']).filter(|w| !w.is_empty()) {
        if word == "*" {
            (0..links).for_each(|i| push(i, &mut out));
            continue;
        }
        let number = |n: &str| -> Result<usize, String> {
            match n.trim().parse::<usize>() {
                Ok(n) if (1..=links).contains(&n) => Ok(n - 1),
                Ok(n) => Err(match links {
                    0 => "this page has no links".to_string(),
                    _ => format!("no link {n} (the page has 1 to {links})"),
                }),
                Err(_) => Err(format!("'{word}' is not a link number, a range (1-5) or *")),
            }
        };
        match word.split_once('-') {
            Some((a, b)) => {
                let (a, b) = (number(a)?, number(b)?);
                let range: Vec<usize> = match a <= b {
                    true => (a..=b).take(MOST_PICKED).collect(),
                    false => (b..=a).rev().take(MOST_PICKED).collect(),
                };
                range.into_iter().for_each(|i| push(i, &mut out));
            }
            None => push(number(word)?, &mut out),
        }
    }
    Ok(out)
}

/// The answer to the add key's question: the links it names, or (empty) the page itself.
pub(super) fn picked(text: &str, ctx: &mut Ctx) -> Vec<Effect> {
    let links = ctx.doc_view().map_or(0, |d| d.doc.link_count());
    if text.trim().is_empty() {
        return add_page(ctx);
    }
    let chosen = match picks(text, links) {
        Ok(c) => c,
        Err(why) => {
            ctx.error(format!("nothing put on the tour: {why}"));
            return Vec::new();
        }
    };
    let links: Vec<NewStop> = chosen.iter().filter_map(|&i| link_stop(ctx, i)).collect();
    vec![Effect::Store(StoreOp::TourAdd { links })]
}

/// The page shown goes on the tour (to come back to it later).
fn add_page(ctx: &mut Ctx) -> Vec<Effect> {
    let Some(e) = ctx.current() else {
        return Vec::new();
    };
    if e.url.starts_with("about:") {
        ctx.info("built-in pages do not go on the tour");
        return Vec::new();
    }
    let stop = NewStop {
        url: e.url.clone(),
        label: Some(e.title.clone()).filter(|t| !t.trim().is_empty()),
    };
    vec![Effect::Store(StoreOp::TourAdd { links: vec![stop] })]
}

/// The next key: the store thread takes the first link off ([`super::Msg::TourNext`]).
pub(super) fn next() -> Vec<Effect> {
    vec![Effect::Store(StoreOp::TourNext)]
}

/// The store thread's answer to the next key: go to the link, to say on arrival what is left
/// and who added it; or say the tour is empty.
pub(super) fn reached(next: Option<(Stop, usize)>, ctx: &mut Ctx) -> Vec<Effect> {
    let Some((stop, left)) = next else {
        let add = ctx.hint(Action::TourAdd);
        ctx.info(format!(
            "the tour is empty: {add} puts the selected link (or the links you name) on it"
        ));
        return Vec::new();
    };
    let left = match left {
        0 => "that was the last link".to_string(),
        n => format!(
            "{} left, {} goes on",
            smolweb_core::text::count(n, "link", "links"),
            ctx.hint(Action::TourNext)
        ),
    };
    let note = match &stop.agent {
        Some(agent) => format!(
            "tour: {left}; added by the agent {}: {}",
            super::truncate_cells(&agent.client, 24),
            super::truncate_cells(&agent.reason, 160)
        ),
        None => format!("tour: {left}"),
    };
    ctx.info(format!("tour: going to {}", stop.url));
    ctx.then(Then::Go {
        url: stop.url,
        opts: FetchOptions {
            note: Some(note),
            ..FetchOptions::default()
        },
        replace: false,
    });
    Vec::new()
}

/// The keys of `about:tour`: take the selected link off, or every link (after asking).
pub(super) fn edit(action: Action, ctx: &mut Ctx) -> Vec<Effect> {
    if action == Action::TourClear {
        let n = ctx.doc_view().map_or(0, |d| d.doc.link_count());
        if n == 0 {
            ctx.info("the tour is empty");
            return Vec::new();
        }
        let what = match n {
            1 => "the one link".to_string(),
            n => format!("all {n} links"),
        };
        return ctx.ask(
            format!("Take {what} off the tour? (y: yes, any other key keeps them)"),
            Pending::TourClear,
        );
    }
    let Some(url) = ctx.picked_link("a link") else {
        return Vec::new();
    };
    vec![Effect::Store(StoreOp::TourRemove { url })]
}

#[cfg(test)]
mod tests {
    use super::picks;

    #[test]
    fn answers_name_links_by_number_range_or_all() {
        assert_eq!(picks("3", 5), Ok(vec![2]));
        assert_eq!(picks("1-3, 5", 5), Ok(vec![0, 1, 2, 4]));
        assert_eq!(picks("3-1", 5), Ok(vec![2, 1, 0]));
        assert_eq!(picks("2 2 1-2", 5), Ok(vec![1, 0]));
        assert_eq!(picks("*", 3), Ok(vec![0, 1, 2]));
        assert_eq!(picks("", 3), Ok(vec![]));
        assert!(picks("6", 5).unwrap_err().contains("1 to 5"));
        assert!(picks("0", 5).is_err());
        assert!(picks("two", 5).unwrap_err().contains("'two'"));
        assert!(picks("1-x", 5).is_err());
        assert!(picks("1", 0).unwrap_err().contains("no links"));
        assert_eq!(picks("1-100000", 100000).unwrap().len(), super::MOST_PICKED);
    }
}
