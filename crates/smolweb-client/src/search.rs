//! Search for both faces: the local full-text index of what was read (the engine is the
//! `smolweb-search` crate; this module feeds it and asks it), and the Geminispace search
//! engines the address bar sends words to.
//!
//! What is indexed, from where:
//! - a page the person visits ([`Client::index_visit`], after each visit on the browser's
//!   store thread; handed to the index's own thread, so it never delays a paint);
//! - a page an agent fetches ([`Client::open`] and [`Client::fetch_web`] on the agent face;
//!   handed over the same way, never awaited by the reply);
//! - the sources kept equal to a store ([`corpus`]): the history (a forgotten visit, a cleared
//!   history leave the index), saved pages, feed entries, bookmarks, pages shared with agents.
//!   They are read again when their file changes, whichever process changed it.
//!
//! Never indexed ([`smolweb_search::refusal`]): built-in pages, a URL with a query or a Gopher
//! search, an answer to an input prompt, a page fetched under a client identity unless
//! `[search] index_identity_pages`, binaries. What an agent may see is
//! [`smolweb_search::Scope`]'s one rule (`[agents] search_history` widens it); the policy
//! resource says it.

use super::{Client, Face, OpenOptions, Outcome};
use smolweb_core::page::{Content, Page};
use std::sync::Arc;
use time::OffsetDateTime;

mod corpus;
mod engines;
mod page;

pub use engines::{
    Choice, ENGINES, Engine, EngineError, choices, engine_query, engine_url, is_engine_host,
};
pub use page::{FilterError, Filters, parse_filters, parse_since, search_page};
pub use smolweb_search::{
    Doc, Flushed, Hit, MAX_WINDOW, Op, QueryError, Rebuilt, Request, Results, Scope, SearchError,
    Snippet, Source, Stats,
};

/// The text of a page as the index keeps it, and whether it was cut (None: not text).
pub fn text_of(page: &Page) -> Option<(String, bool)> {
    let kind = match &page.content {
        Content::Gemtext(_) => smolweb_search::Kind::Gemtext,
        Content::Menu(_) => smolweb_search::Kind::Menu,
        Content::Text => smolweb_search::Kind::Plain,
        Content::Binary => return None,
    };
    Some(smolweb_search::page_text(page.body.text(), kind))
}

/// A document of `page` for `source` (None: the page may not be indexed).
fn doc_of(client: &Client, page: &Page, source: Source, identity: bool) -> Option<Doc> {
    let url = page.url.to_string();
    let allow = client.config.search.index_identity_pages;
    if smolweb_search::refusal(&url, identity, allow).is_some() {
        return None;
    }
    let (text, _) = text_of(page)?;
    Some(Doc {
        url,
        title: page.title().map(str::to_string),
        text,
        source,
        feed: None,
        lang: page.lang.clone(),
        time: client.now(),
    })
}

impl Client {
    /// The local index of this data directory (None: `[search] index = false`).
    pub fn search_index(&self) -> Option<&smolweb_search::SearchIndex> {
        self.search.as_ref()
    }

    /// The scope this face searches with.
    pub fn search_scope(&self) -> Scope {
        match self.face {
            Face::Human => Scope::Person,
            Face::Agent => Scope::Agent {
                search_history: self.config.agents.search_history,
            },
        }
    }

    /// Search the local index with this face's scope.
    pub fn search_local(&self, req: &Request<'_>) -> Result<Results, SearchError> {
        let req = Request {
            scope: self.search_scope(),
            ..req.clone()
        };
        match &self.search {
            Some(index) => index.search(&req),
            None => Err(SearchError::Read {
                path: self.paths.search_dir(),
                reason: "the local index is switched off ([search] index = false)".into(),
            }),
        }
    }

    /// After a visit on the human face: index the page (handed to the index's thread). An
    /// answer from the memory cache, a page reached with an input answer or a Gopher search,
    /// and what [`smolweb_search::refusal`] refuses, are not.
    pub fn index_visit(&self, opts: &OpenOptions, outcome: &Outcome) {
        self.index_outcome(opts, outcome, Source::History);
    }

    /// The agent face's fetch of a Gemini, Gopher or small-web page (from [`Client::open`]).
    pub(crate) fn index_agent_fetch(&self, opts: &OpenOptions, outcome: &Outcome) {
        if self.face == Face::Agent {
            self.index_outcome(opts, outcome, Source::Agent);
        }
    }

    fn index_outcome(&self, opts: &OpenOptions, outcome: &Outcome, source: Source) {
        let (Some(index), Outcome::Page { info, fetched }) = (&self.search, outcome) else {
            return;
        };
        if fetched.cached || opts.input.is_some() || opts.search.is_some() || info.has_query {
            return;
        }
        if let Some(doc) = doc_of(self, &fetched.page, source, info.identity_sent()) {
            index.submit(Op::Add(doc));
        }
    }

    /// The agent face's fetch of a web page (from [`Client::fetch_web`]).
    pub(crate) fn index_agent_web(&self, page: &super::web::WebPage) {
        let Some(index) = self.search.as_ref().filter(|_| self.face == Face::Agent) else {
            return;
        };
        let allow = self.config.search.index_identity_pages;
        if page.status >= 400 || smolweb_search::refusal(&page.final_url, false, allow).is_some() {
            return;
        }
        index.submit(Op::Add(Doc {
            url: page.final_url.clone(),
            title: page.meta.title.clone(),
            // The index keeps at most MAX_TEXT_BYTES of a page: a 5 MB page is not copied whole
            // for it.
            text: smolweb_search::doc::prefix(page.body.text(), smolweb_search::MAX_TEXT_BYTES)
                .to_string(),
            source: Source::Agent,
            feed: None,
            lang: page.meta.lang.clone(),
            time: self.now(),
        }));
    }

    /// Rebuild the local index from the stores (`smolweb search --reindex`).
    pub fn reindex(&self) -> Result<Rebuilt, SearchError> {
        match &self.search {
            Some(index) => index.reindex("asked for (smolweb search --reindex)"),
            None => Err(SearchError::Read {
                path: self.paths.search_dir(),
                reason: "the local index is switched off ([search] index = false)".into(),
            }),
        }
    }

    /// The configured engine's query URL (its base; the words go as the query).
    pub fn search_engine(&self) -> Result<String, EngineError> {
        engine_url(&self.config.search.engine)
    }
}

/// The index for a client: in the data directory, fed on rebuilds by the client's stores.
pub(crate) fn open_index(
    paths: &smolweb_store::paths::Paths,
    config: &super::config::Config,
) -> Option<smolweb_search::SearchIndex> {
    if !config.search.index {
        return None;
    }
    let corpus = Arc::new(corpus::Stores::new(paths.clone(), config));
    Some(smolweb_search::SearchIndex::new(
        paths.search_dir(),
        paths.search_queue(),
        corpus,
    ))
}

/// When a document was seen, for people (`2026-11-03`).
pub fn day(t: OffsetDateTime) -> String {
    smolweb_core::text::rfc3339(t)
        .get(..10)
        .unwrap_or("")
        .to_string()
}
