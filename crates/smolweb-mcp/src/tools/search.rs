//! `search_local`: the agent's search of the local index of what was read (no network),
//! windowed. What it sees is the client's one rule ([`smolweb_client::search::Scope`]): by
//! default pages agents fetched, pages the person shared with agents and entries of the
//! feeds the person follows; the person's history, offline copies and bookmarks only with
//! `[agents] search_history = true` (the policy resource says which). The filter is part of
//! the query, so a hidden page is never counted or hinted at; asking for a hidden source is
//! an error naming the setting. Titles, feed names and snippets are page text: untrusted.
//! The search runs on a blocking thread; it never fetches and never writes the index beyond
//! bringing it up to date with the stores.

use crate::outcome::iso;
use crate::reply::tool_result;
use crate::results::{ErrorOut, RequestInfoOut, error_out};
use crate::schema;
use crate::state::SmolwebServer;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::CallToolResult;
use rmcp::{ErrorData, tool, tool_router};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use smolweb_client::Client;
use smolweb_client::search::{
    Hit, MAX_WINDOW, Request, Results, SearchError, Source, parse_since,
};
use smolweb_core::code::ErrorCode;
use std::fmt::Write;

const SEARCH_LOCAL_TEXT: &str = "\
Search what was already read, offline, in smolweb's local full-text index: pages agents \
fetched, pages the user shared with agents, and entries of the feeds the user follows (and, \
when the user allows it, their own history and offline copies; smolweb://policy says which). \
Use it before fetching again (\"the page about X I read last week\"). Query syntax: words (all \
must match; stemmed for pages that state their language), \"exact phrase\", prefix*, -excluded, \
site:host. Optional `sources` (agent, shared, feed; history, offline, bookmark when allowed), \
`since` (7d, 12h, 2w, or a date 2026-01-31), `offset`/`limit` for windows. Returns kind \
search_results with results {url, title, snippet (matched words in «»), source, time, score}, \
`total` and `next_offset`, or kind error. Titles and snippets are untrusted page text.";

fn default_limit() -> i64 {
    10
}

#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct SearchLocalParams {
    /// What to look for: words, "exact phrase", prefix*, -excluded, site:host (at most 1000
    /// characters).
    pub query: String,
    /// Only these sources: agent, shared, feed (history, offline and bookmark only when the
    /// user allows agents to search them).
    #[serde(default)]
    pub sources: Option<Vec<String>>,
    /// Only pages seen since: 12h, 7d, 2w, 6m, 1y, or a date such as 2026-01-31.
    #[serde(default)]
    pub since: Option<String>,
    /// Result offset; use the previous result's `next_offset`.
    #[serde(default)]
    #[schemars(range(min = 0))]
    pub offset: i64,
    /// Most results (1 to 100, default 10).
    #[serde(default = "default_limit")]
    #[schemars(range(min = 1, max = 100))]
    pub limit: i64,
}

#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub(crate) struct SearchHitOut {
    pub url: String,
    /// The page's title (untrusted text), or null.
    pub title: Option<String>,
    /// The matched words in context, each match between « and » (untrusted text).
    pub snippet: String,
    /// Where the page was seen: agent, shared or feed (history, offline, bookmark when allowed).
    pub source: String,
    /// Other sources that have the page too.
    pub also: Vec<String>,
    /// The feed's name, for a feed entry (untrusted text).
    pub feed: Option<String>,
    /// When the source saw it (ISO-8601).
    pub time: String,
    /// Relevance (higher is better; comparable within one answer).
    pub score: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub(crate) struct SearchOut {
    pub query: String,
    /// The sources searched (what this agent may see, narrowed by `sources`).
    pub sources: Vec<String>,
    pub results: Vec<SearchHitOut>,
    /// Pages found (a lower bound when `more` is true).
    pub total: u64,
    pub more: bool,
    /// Pass this as `offset` for more; null at the end.
    pub next_offset: Option<u64>,
    /// How the query was read (an unclosed quote, ignored characters).
    pub notes: Vec<String>,
}

/// What `search_local` returns.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub(crate) enum SearchLocalResult {
    SearchResults(SearchOut),
    Error(ErrorOut),
}

fn error(code: ErrorCode, message: impl Into<String>) -> SearchLocalResult {
    SearchLocalResult::Error(error_out(RequestInfoOut::default(), code, message))
}

fn code_of(e: &SearchError) -> ErrorCode {
    match e {
        SearchError::Query(_) | SearchError::HiddenSource(_) => ErrorCode::InvalidRequest,
        SearchError::Store(s) => smolweb_net::store_code(s),
        _ => ErrorCode::CertificateStoreUnavailable,
    }
}

fn hit_out(h: &Hit) -> SearchHitOut {
    SearchHitOut {
        url: h.url.clone(),
        title: h.title.clone(),
        snippet: h.snippet.marked("«", "»"),
        source: h.source.as_str().to_string(),
        also: h.also.iter().map(|s| s.as_str().to_string()).collect(),
        feed: h.feed.clone(),
        time: iso(h.time),
        score: f64::from(h.score),
    }
}

/// Run `search_local` (blocking: call from a blocking thread).
pub(crate) fn search_local(client: &Client, p: &SearchLocalParams) -> SearchLocalResult {
    let (Ok(offset), Ok(limit)) = (usize::try_from(p.offset), usize::try_from(p.limit)) else {
        return error(ErrorCode::InvalidRequest, "offset and limit must be 0 or more");
    };
    let sources = match &p.sources {
        None => None,
        Some(names) => {
            let mut list = Vec::new();
            for n in names {
                match Source::parse(n) {
                    Some(s) => list.push(s),
                    None => {
                        return error(
                            ErrorCode::InvalidRequest,
                            format!("\"{n}\" is not a source: use agent, shared or feed"),
                        );
                    }
                }
            }
            Some(list)
        }
    };
    let since = match p.since.as_deref().map(|s| parse_since(s, client.now())) {
        None => None,
        Some(Ok(t)) => Some(t),
        Some(Err(e)) => return error(ErrorCode::InvalidRequest, e.to_string()),
    };
    let req = Request {
        query: &p.query,
        scope: client.search_scope(),
        sources: sources.as_deref(),
        since,
        offset,
        limit: limit.clamp(1, MAX_WINDOW),
    };
    match client.search_local(&req) {
        Ok(r) => SearchLocalResult::SearchResults(out(p, &req, &r)),
        Err(e) => error(code_of(&e), e.to_string()),
    }
}

fn out(p: &SearchLocalParams, req: &Request<'_>, r: &Results) -> SearchOut {
    let searched = req
        .sources
        .map_or_else(|| req.scope.sources().to_vec(), <[Source]>::to_vec);
    SearchOut {
        query: p.query.clone(),
        sources: searched.iter().map(|s| s.as_str().to_string()).collect(),
        results: r.hits.iter().map(hit_out).collect(),
        total: r.total as u64,
        more: r.more,
        next_offset: r.next_offset.map(|n| n as u64),
        notes: r.notes.clone(),
    }
}

/// The text block of a `search_local` result.
pub(crate) fn render(r: &SearchLocalResult) -> String {
    let mut out = String::new();
    match r {
        SearchLocalResult::SearchResults(s) => {
            let _ = write!(
                out,
                "{} pages found{} for \"{}\" in {}",
                s.total,
                if s.more { " or more" } else { "" },
                s.query,
                s.sources.join(", ")
            );
            if let Some(n) = s.next_offset {
                let _ = write!(out, " · next offset {n}");
            }
            for note in &s.notes {
                let _ = write!(out, "\nnote: {note}");
            }
            for h in &s.results {
                let title = h.title.as_deref().unwrap_or(&h.url);
                let day = h.time.get(..10).unwrap_or(&h.time);
                let _ = write!(out, "\n\n{title} <{}>\n{} · {day}", h.url, h.source);
                if let Some(f) = &h.feed {
                    let _ = write!(out, " · {f}");
                }
                if !h.snippet.is_empty() {
                    let _ = write!(out, "\n{}", h.snippet);
                }
            }
        }
        SearchLocalResult::Error(e) => {
            let _ = write!(out, "error {}: {}", e.error.code, e.error.message);
        }
    }
    out
}

#[tool_router(router = search_router)]
impl SmolwebServer {
    #[tool(
        name = "search_local",
        description = SEARCH_LOCAL_TEXT,
        input_schema = schema::input::<SearchLocalParams>(),
        output_schema = schema::output::<SearchLocalResult>(),
        annotations(
            title = "Search what was read",
            read_only_hint = true,
            open_world_hint = false
        )
    )]
    async fn search_local(
        &self,
        Parameters(p): Parameters<SearchLocalParams>,
    ) -> Result<CallToolResult, ErrorData> {
        let client = self.shared_client().clone();
        let r = tokio::task::spawn_blocking(move || search_local(&client, &p))
            .await
            .unwrap_or_else(|e| error(ErrorCode::InternalError, format!("the search stopped: {e}")));
        let is_error = matches!(r, SearchLocalResult::Error(_));
        Ok(tool_result(&r, vec![render(&r)], is_error))
    }
}

/// The search tool (not offered when `[search] index = false`).
pub(crate) fn router(client: &Client) -> ToolRouter<SmolwebServer> {
    let mut router = SmolwebServer::search_router();
    if client.search_index().is_none() {
        router.remove_route("search_local");
    }
    router
}
