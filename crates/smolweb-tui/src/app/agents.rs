//! The agents room (stateless, over the shared [`Lists`](super::Lists)): what the shell last
//! saw of agents ([`AgentsSeen`]: sessions active now, suggestions waiting, pages shared),
//! the status-line badge, the share key, and the choices `about:agents` offers (open or
//! dismiss a suggestion, stop sharing a page). The page itself is made by the client's `about`
//! router (`smolweb_client::about_browser::agents_page`), asked by the shell, and made again
//! while shown when the shell reports a change, so it follows new entries live.

use super::{Ctx, Effect, FetchOptions, PageAction, Purpose, StoreOp, Then};
use crate::keymap::{Action, Keymap};
use smolweb_store::suggestions::Suggestion;

/// The page's URL.
pub(crate) const PAGE: &str = "about:agents";

/// What the shell last saw of agents.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AgentsSeen {
    /// The sessions active now ("name version"), most recent first.
    pub active: Vec<String>,
    /// Suggestions waiting, newest first.
    pub suggestions: Vec<Suggestion>,
    /// Pages shared with agents.
    pub shared: usize,
    /// Changes whenever the activity log does (so the page is made again).
    pub log_stamp: u64,
}

/// The shell's report: kept, and the page made again when it is shown and something changed.
pub(super) fn seen(seen: AgentsSeen, ctx: &mut Ctx) -> Vec<Effect> {
    if ctx.lists.agents == seen {
        return Vec::new();
    }
    let new_suggestion = seen
        .suggestions
        .iter()
        .any(|s| !ctx.lists.agents.suggestions.iter().any(|o| o.id == s.id));
    ctx.lists.agents = seen;
    if new_suggestion && ctx.current_url() != Some(PAGE) {
        let hint = ctx.hint(Action::Agents);
        ctx.info(format!("an agent suggests a page: {hint} shows it"));
    }
    ctx.then(Then::RemakeStorePage);
    Vec::new()
}

/// The status-line badge: an agent session is active, a suggestion waits.
pub(super) fn badge(seen: &AgentsSeen, keymap: &Keymap) -> Option<String> {
    let mut parts = Vec::new();
    if let Some(first) = seen.active.first() {
        let more = seen.active.len() - 1;
        let who = super::truncate_cells(first, 24);
        parts.push(if more > 0 {
            format!("agent active: {who} +{more}")
        } else {
            format!("agent active: {who}")
        });
    }
    match seen.suggestions.len() {
        0 => {}
        1 => parts.push("an agent suggests a page".into()),
        n => parts.push(format!("agents suggest {n} pages")),
    }
    if parts.is_empty() {
        return None;
    }
    Some(format!(
        "{}: {}",
        parts.join(" · "),
        keymap.hint(Action::Agents)
    ))
}

/// The share key: the selected link's URL, else the page's, with a note prompt.
pub(super) fn share(ctx: &mut Ctx) -> Vec<Effect> {
    let selected = ctx.doc_view().and_then(|dv| {
        let i = dv.selected?;
        Some((dv.doc.link_url(i)?.to_string(), None))
    });
    let page = ctx.current().map(|e| {
        let title = Some(e.title.clone()).filter(|t| !t.trim().is_empty() && *t != e.url);
        (e.url.clone(), title)
    });
    let Some((url, title)) = selected.or(page) else {
        ctx.info("nothing to share: open a page first");
        return Vec::new();
    };
    let lower = url.to_ascii_lowercase();
    let shareable = ["gemini://", "gopher://", "http://", "https://"]
        .iter()
        .any(|s| lower.starts_with(s));
    if !shareable {
        ctx.info(format!(
            "only gemini, gopher and web pages can be shared with agents, not {url}"
        ));
        return Vec::new();
    }
    ctx.prompt(Purpose::ShareNote { url, title });
    Vec::new()
}

/// A choice on `about:agents`.
pub(super) fn act(action: PageAction, ctx: &mut Ctx) -> Vec<Effect> {
    match action {
        PageAction::SuggestionOpen(id) => {
            let Some(s) = ctx.lists.agents.suggestions.iter().find(|s| s.id == id) else {
                ctx.error(format!("the suggestion {id} is gone"));
                return Vec::new();
            };
            let url = s.url.clone();
            ctx.lists.agents.suggestions.retain(|s| s.id != id);
            ctx.then(Then::Go {
                url,
                opts: FetchOptions::default(),
                replace: false,
            });
            vec![Effect::Store(StoreOp::TakeSuggestion { id, opened: true })]
        }
        PageAction::SuggestionDismiss(id) => {
            ctx.lists.agents.suggestions.retain(|s| s.id != id);
            vec![Effect::Store(StoreOp::TakeSuggestion { id, opened: false })]
        }
        PageAction::Unshare(id) => vec![Effect::Store(StoreOp::Unshare { id })],
        other => {
            ctx.error(format!("nothing to do for {other} here"));
            Vec::new()
        }
    }
}
