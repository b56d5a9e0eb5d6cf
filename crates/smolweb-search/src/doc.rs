//! What goes into the index: a [`Doc`] (one page as one source saw it), the operations the
//! queue carries ([`Op`]), the [`Source`]s and which of them each face may see ([`Scope`]),
//! and the text of a page as a reader sees it (markup and link targets left out).
//!
//! A page read by several sources is several documents (one per source, each with its own
//! time and text), so the privacy filter is a filter on one field, inside the query.

use serde::{Deserialize, Serialize};
use time::OffsetDateTime;

/// Most bytes of a page's text that are indexed and kept for snippets; the rest is left out
/// and the document says so ([`crate::Hit::cut`]).
pub const MAX_TEXT_BYTES: usize = 1024 * 1024;
/// Most bytes of a title (and of a feed's name) kept.
pub const MAX_TITLE_BYTES: usize = 1024;
/// Most bytes of a URL indexed: a longer one is refused (no capsule serves one).
pub const MAX_URL_BYTES: usize = 4096;

/// Where a document came from. The names are the CLI's `--source` values and the MCP
/// tool's `source` (stable: they are stored in the index).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// A page the person visited in the browser (its text at visit time).
    History,
    /// A page the person saved for offline reading, or an offline copy not in the history.
    Offline,
    /// An entry of a feed the person follows (its title; the feed's name).
    Feed,
    /// A bookmark (its title and URL).
    Bookmark,
    /// A page the person shared with agents (its title and note).
    Shared,
    /// A page an agent fetched (its text at fetch time).
    Agent,
}

impl Source {
    /// Every source, in display order.
    pub const ALL: [Source; 6] = [
        Source::History,
        Source::Offline,
        Source::Feed,
        Source::Bookmark,
        Source::Shared,
        Source::Agent,
    ];

    /// The stable name (`history`, `offline`, `feed`, `bookmark`, `shared`, `agent`).
    pub fn as_str(self) -> &'static str {
        match self {
            Source::History => "history",
            Source::Offline => "offline",
            Source::Feed => "feed",
            Source::Bookmark => "bookmark",
            Source::Shared => "shared",
            Source::Agent => "agent",
        }
    }

    /// The source of a name (as [`Source::as_str`] gives it, case-insensitive).
    pub fn parse(name: &str) -> Option<Source> {
        let name = name.trim().to_ascii_lowercase();
        Source::ALL.into_iter().find(|s| s.as_str() == name)
    }

    /// What it is, for people ("visited", "agent fetched", ...).
    pub fn label(self) -> &'static str {
        match self {
            Source::History => "visited",
            Source::Offline => "offline copy",
            Source::Feed => "feed entry",
            Source::Bookmark => "bookmark",
            Source::Shared => "shared with agents",
            Source::Agent => "agent fetched",
        }
    }
}

/// Who is searching, and so which sources they may see. This is the one place that says
/// what an agent may see of the index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// The person (browser, CLI): every source.
    Person,
    /// An agent: pages agents fetched, pages the person shared with agents, and entries of
    /// the feeds the person follows (as `subscriptions_list` shows them); with
    /// `[agents] search_history = true` also the person's history, offline copies and
    /// bookmarks.
    Agent {
        /// `[agents] search_history`.
        search_history: bool,
    },
}

impl Scope {
    /// The sources this scope may see.
    pub fn sources(self) -> &'static [Source] {
        const AGENT: &[Source] = &[Source::Feed, Source::Shared, Source::Agent];
        match self {
            Scope::Person
            | Scope::Agent {
                search_history: true,
            } => &Source::ALL,
            Scope::Agent {
                search_history: false,
            } => AGENT,
        }
    }

    /// May this scope see `source`?
    pub fn sees(self, source: Source) -> bool {
        self.sources().contains(&source)
    }
}

/// One page as one source saw it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Doc {
    /// The page's URL (never with a query: such pages are not indexed).
    pub url: String,
    /// Its title, when it has one.
    pub title: Option<String>,
    /// Its text as a reader sees it ([`page_text`]); empty for a bookmark or a feed entry
    /// known only by its title.
    pub text: String,
    /// Which source saw it.
    pub source: Source,
    /// The feed's name, for a feed entry.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub feed: Option<String>,
    /// The language tag the page gave, if any (chooses the stemmer).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lang: Option<String>,
    /// When the source saw it (visit, fetch, share, publication).
    #[serde(with = "time::serde::rfc3339")]
    pub time: OffsetDateTime,
}

/// One change to the index, as queued.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Op {
    /// Add a document, replacing the one of the same source and URL.
    Add(Doc),
    /// Remove the documents of `url` from these sources (a forgotten visit).
    Forget {
        /// The URL (its query, if any, ignored).
        url: String,
        /// The sources to remove it from.
        sources: Vec<Source>,
    },
    /// Remove every document of a source (the history cleared).
    Clear {
        /// The source.
        source: Source,
    },
}

/// Why a page is never indexed (None: it may be). The rules every face shares; `identity`
/// says whether a client identity was presented, `allow_identity` is
/// `[search] index_identity_pages`.
pub fn refusal(url: &str, identity: bool, allow_identity: bool) -> Option<&'static str> {
    let lower = url.trim_start().to_ascii_lowercase();
    if lower.starts_with("about:") {
        return Some("built-in pages are not indexed");
    }
    if url.contains('?') {
        return Some("a page reached with a query is never indexed");
    }
    if url.contains('\t') || lower.contains("%09") {
        return Some("a Gopher search is never indexed");
    }
    if url.len() > MAX_URL_BYTES {
        return Some("the URL is too long to index");
    }
    if identity && !allow_identity {
        return Some("pages fetched with a client identity are not indexed (index_identity_pages)");
    }
    None
}

/// At most `max` bytes of `text`, cut at a character boundary: what the index keeps of a
/// text longer than [`MAX_TEXT_BYTES`] is `prefix(text, MAX_TEXT_BYTES)`.
pub fn prefix(text: &str, max: usize) -> &str {
    if text.len() <= max {
        return text;
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// Cut `text` to at most `max` bytes at a character boundary. Returns whether it was cut.
pub(crate) fn cut_to(text: &mut String, max: usize) -> bool {
    let end = prefix(text, max).len();
    if end == text.len() {
        return false;
    }
    text.truncate(end);
    true
}

/// What kind of text a page's body is, for [`page_text`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// text/gemini (the web reader view is gemtext too).
    Gemtext,
    /// A Gopher menu.
    Menu,
    /// Plain text.
    Plain,
}

/// The text of a page as a reader sees it: gemtext without its line markers and link
/// targets (a link's label, or its URL when it has none), a menu's display strings, plain
/// text as it is. At most [`MAX_TEXT_BYTES`] (plus a line) are produced; the bool says
/// whether the page was longer. Linear in the part read.
pub fn page_text(body: &str, kind: Kind) -> (String, bool) {
    let mut out = String::with_capacity(body.len().min(MAX_TEXT_BYTES));
    let mut pre = false;
    for line in body.lines() {
        if out.len() > MAX_TEXT_BYTES {
            let mut out = out;
            cut_to(&mut out, MAX_TEXT_BYTES);
            return (out, true);
        }
        let shown = match kind {
            Kind::Plain => line,
            Kind::Menu => menu_line(line),
            Kind::Gemtext => {
                if line.starts_with("```") {
                    pre = !pre;
                    continue;
                }
                if pre { line } else { gemtext_line(line) }
            }
        };
        let shown = shown.trim();
        if shown.is_empty() {
            continue;
        }
        out.push_str(shown);
        out.push('\n');
    }
    let cut = cut_to(&mut out, MAX_TEXT_BYTES);
    (out, cut)
}

fn gemtext_line(line: &str) -> &str {
    if let Some(rest) = line.strip_prefix("=>") {
        let rest = rest.trim_start();
        let (target, label) = rest
            .split_once(char::is_whitespace)
            .map_or((rest, ""), |(t, l)| (t, l.trim()));
        return if label.is_empty() { target } else { label };
    }
    line.trim_start_matches('#').trim_start_matches(['*', '>'])
}

fn menu_line(line: &str) -> &str {
    if line == "." {
        return "";
    }
    let display = line.split('\t').next().unwrap_or("");
    let mut chars = display.chars();
    chars.next();
    chars.as_str()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gemtext_text_drops_markers_and_link_targets() {
        let body = "# Moss\n=> gemini://a.test/t Tardigrades\n=> gemini://a.test/bare\n\
                    * a list item\n> a quote\n```alt\n=> not a link\n```\nplain\n";
        let (text, cut) = page_text(body, Kind::Gemtext);
        assert!(!cut);
        assert_eq!(
            text,
            "Moss\nTardigrades\ngemini://a.test/bare\na list item\na quote\n=> not a link\nplain\n"
        );
    }

    #[test]
    fn menus_keep_display_strings() {
        let body = "iWelcome\tfake\t(NULL)\t0\r\n1Phlog\t/phlog\ta.test\t70\r\n.\r\n";
        assert_eq!(page_text(body, Kind::Menu).0, "Welcome\nPhlog\n");
    }

    #[test]
    fn a_huge_page_is_cut_at_the_bound_on_a_character() {
        let body = "é".repeat(MAX_TEXT_BYTES);
        let (text, cut) = page_text(&body, Kind::Plain);
        assert!(cut);
        assert!(text.len() <= MAX_TEXT_BYTES);
        let one_line = "a".repeat(2 * 1024 * 1024);
        let (text, cut) = page_text(&one_line, Kind::Plain);
        assert!(cut && text.len() == MAX_TEXT_BYTES);
    }

    #[test]
    fn what_is_never_indexed() {
        assert!(refusal("gemini://a.test/search?moss", false, false).is_some());
        assert!(refusal("about:search", false, false).is_some());
        assert!(refusal("gopher://a.test/7/find%09moss", false, false).is_some());
        assert!(refusal("gemini://a.test/private", true, false).is_some());
        assert!(refusal("gemini://a.test/private", true, true).is_none());
        assert!(refusal("gemini://a.test/moss.gmi", false, false).is_none());
    }

    #[test]
    fn agents_see_only_their_sources() {
        let agent = Scope::Agent {
            search_history: false,
        };
        assert!(
            agent.sees(Source::Agent) && agent.sees(Source::Shared) && agent.sees(Source::Feed)
        );
        assert!(!agent.sees(Source::History) && !agent.sees(Source::Offline));
        assert!(!agent.sees(Source::Bookmark));
        let trusted = Scope::Agent {
            search_history: true,
        };
        assert!(trusted.sees(Source::History) && trusted.sees(Source::Offline));
        for s in Source::ALL {
            assert_eq!(Source::parse(s.as_str()), Some(s));
        }
    }
}
