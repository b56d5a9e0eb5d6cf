//! Offline reading over the facade: what may be kept, keeping it, reading it back, the
//! reading list ("save for offline").
//!
//! Web pages are kept as their body as received with its Content-Type, under the final URL
//! after redirects and with the fetch time; reading one back converts it again as the reader
//! view does (main content or the whole page, the one body serves both), so the extraction
//! shown is the one the reader asks for.
//!
//! Working offline ([`Client::set_work_offline`]), [`Client::open`] and [`Client::fetch_web`]
//! answer from these copies only; a page not kept is `FetchError::Offline` (`WebError::Offline`).
//!
//! Never kept ([`Client::offline_refusal`]): anything on the agent face; a URL with a query
//! (Gemini query, Gopher search) or a request that carried an input answer (so no status-11
//! flow is ever on disk); a page fetched while presenting a client identity unless
//! `[offline] keep_identity_pages`; built-in pages; binaries unless saved on purpose; a web
//! page cut at the body limit or a PDF (its text is not kept yet); an answer
//! whose end was not confirmed (no TLS close_notify, a menu without its "." line: see
//! [`smolweb_core::page::Ending`]), which may be cut short, even when saved on purpose. Kept
//! copies live in the cache directory ([`smolweb_store::offline`]), bounded by
//! `[offline] max_bytes`.
//!
//! Reading back rebuilds the [`Page`] from the stored bytes exactly as a fetch would have
//! (gemtext parsed, menus parsed, charsets decoded) and marks it `cached: true` with
//! `cached_at` = when it was downloaded, so a face can say how old it is.
//!
//! Working offline, a capsule page read back is held ([`HeldCopy`]), like a page in the memory
//! cache, so the next reads of it (an agent's next windows) are slices of the one page, its
//! document parsed once, not the file read, rebuilt and parsed again. A held copy is served
//! only while its file's stamp ([`smolweb_store::offline::CopyStamp`]: identity, size, times)
//! is the one it was read with and old enough to vouch for it, so a copy the browser stores
//! again or removes is seen at the next read; it lives at most `[cache] ttl_seconds`, is
//! bounded like the memory cache, is dropped by a `refresh` and when the client goes online.

use super::feeds::NoPage;
use super::web::{WebFetched, WebFormat, WebPage, WebQuery};
use super::{Client, Face, Fetched, OpenOptions, Outcome, RequestInfo};
use smolweb_core::html::Extract;
use smolweb_core::page::{Content, Page};
use smolweb_core::response::parse_mime;
use smolweb_core::url::{Scheme, Url};
use smolweb_net::FetchError;
use smolweb_net::cache::{CacheEntry, Weigh};
use smolweb_net::http::{HttpResponse, WebError};
use smolweb_store::StoreError;
use smolweb_store::offline::{CopyStamp, NewPage, Offline, OfflineEntry, StoredPage};
use smolweb_store::site_rules::SiteRuleEntry;
use std::sync::Arc;
use std::time::SystemTime;
use time::OffsetDateTime;

/// Most linked pages fetched by one "save with its links".
pub(crate) const MAX_SAVED_LINKS: usize = 50;

/// Why an offline operation failed.
#[derive(Debug, thiserror::Error)]
pub enum OfflineError {
    /// The offline store could not be read or written.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The page could not be fetched or may not be kept (the reason is for the human).
    #[error("{url} was not saved: {reason}")]
    NotSaved {
        /// The URL asked for.
        url: String,
        /// Why it was not saved.
        #[source]
        reason: SaveFailure,
    },
}

/// Why one page was not saved for offline reading.
#[derive(Debug, thiserror::Error)]
pub enum SaveFailure {
    /// The rules refuse to keep this page (see [`Client::offline_refusal`]).
    #[error("{0}")]
    Refused(&'static str),
    /// The fetch gave no page.
    #[error(transparent)]
    NoPage(#[from] NoPage),
    /// The offline store could not write the copy.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// A page read from the offline copy.
#[derive(Clone, Debug)]
pub struct OfflineCopy {
    /// `cached: true`, `cached_at` = when it was downloaded.
    pub fetched: Fetched,
    /// When the copy was downloaded.
    pub fetched_at: OffsetDateTime,
    /// On the reading list.
    pub saved: bool,
}

impl OfflineCopy {
    /// Age of the copy in whole seconds at `now` (0 when the clock went back).
    pub fn age_seconds(&self, now: OffsetDateTime) -> u64 {
        (now - self.fetched_at).whole_seconds().max(0) as u64
    }
}

/// A capsule page read back from its kept copy while working offline, held for the next reads
/// of it (see the module docs).
#[derive(Clone, Debug)]
pub(crate) struct HeldCopy {
    page: Arc<Page>,
    /// The stored media type line and fetch time, with `page.raw`: what the copy was built from.
    media_type: String,
    fetched_at: OffsetDateTime,
    /// The file's stamp, taken before it was read at `read` (None: it could not be looked at).
    stamp: Option<CopyStamp>,
    read: SystemTime,
}

impl HeldCopy {
    /// A capsule page rebuilt from its stored copy (None: the copy is not a page).
    fn rebuilt(
        url: &Url,
        stored: StoredPage,
        stamp: Option<CopyStamp>,
        read: SystemTime,
    ) -> Option<HeldCopy> {
        let (media_type, fetched_at) = (stored.media_type.clone(), stored.fetched);
        let page = rebuild(url.clone(), stored, Extract::Main)?;
        Some(HeldCopy {
            page: Arc::new(page),
            media_type,
            fetched_at,
            stamp,
            read,
        })
    }

    fn fetched(&self) -> Fetched {
        Fetched {
            page: Arc::clone(&self.page),
            cached: true,
            cached_at: Some(self.fetched_at),
        }
    }

    /// Was this copy built from exactly `stored`?
    fn built_from(&self, stored: &StoredPage) -> bool {
        self.fetched_at == stored.fetched
            && self.media_type == stored.media_type
            && self.page.raw == stored.body
    }
}

impl Weigh for HeldCopy {
    fn weight(&self) -> usize {
        // Weighed as the memory cache weighs the same page.
        CacheEntry {
            page: Arc::clone(&self.page),
            cached_at: self.fetched_at,
            sent_at: self.fetched_at,
            tls: None,
        }
        .weight()
    }
}

/// What "save for offline" did.
#[derive(Debug, Default)]
pub struct SaveReport {
    /// URLs saved (the page first, then its same-capsule links).
    pub saved: Vec<String>,
    /// Links that could not be fetched or kept, with why.
    pub failed: Vec<(String, SaveFailure)>,
}

/// True for failures where an offline copy is worth offering: the network did not answer
/// (DNS, connection, timeout), as opposed to a capsule's own answer or a policy refusal.
pub fn is_network_failure(error: &FetchError) -> bool {
    error.network_failed()
}

/// The media type line stored with a page (what `Page::from_gemini` needs to rebuild it; for
/// a web page, its Content-Type as far as the conversion reads it).
fn media_type(page: &Page) -> String {
    let mut out = page.mime.essence();
    if let Some(c) = &page.mime.charset {
        out.push_str("; charset=");
        out.push_str(c);
    }
    let web = matches!(page.url.scheme(), Scheme::Http | Scheme::Https);
    if let Some(l) = page.lang.as_ref().filter(|_| !web) {
        out.push_str("; lang=");
        out.push_str(l);
    }
    out
}

/// Rebuild a page from stored bytes: Gemini by its media type, Gopher by its item type, a web
/// page by converting its body again as the reader view does (`extract`: main content or the
/// whole page).
pub(crate) fn rebuild(url: Url, stored: StoredPage, extract: Extract) -> Option<Page> {
    match url.scheme() {
        Scheme::Gemini => Some(Page::from_gemini(
            url,
            parse_mime(&stored.media_type),
            stored.body,
        )),
        Scheme::Gopher => {
            let item = url.gopher_target().ok()?.item_type;
            Some(Page::from_gopher(url, item, stored.body))
        }
        Scheme::Http | Scheme::Https => {
            let web = kept_web_page(&url, stored, WebFormat::Markdown, extract, None, true)?;
            let fetched = WebFetched {
                page: Arc::new(web),
                from_cache: true,
            };
            Some(super::web::reader_page(url, &fetched))
        }
        // The small protocols' pages are not kept offline yet (see `offline_refusal`).
        _ => None,
    }
}

/// A kept web page converted again from its stored body (the one copy serves both the main
/// content and the whole page). `keep_binary` as for a fetch: the human face keeps a body that
/// is not text.
fn kept_web_page(
    url: &Url,
    stored: StoredPage,
    format: WebFormat,
    extract: Extract,
    rule: Option<&SiteRuleEntry>,
    keep_binary: bool,
) -> Option<WebPage> {
    let resp = HttpResponse {
        status: 200,
        final_url: url.to_string(),
        content_type: Some(stored.media_type),
        retry_after: None,
        markdown_tokens: None,
        body: stored.body,
        truncated: false,
        tls: None,
        redirects: Vec::new(),
        validators: Default::default(),
        moved_to: None,
    };
    super::web::web_page_ruled(resp, format, extract, rule, stored.fetched, keep_binary).ok()
}

impl Client {
    /// The offline cache of this client's cache directory.
    pub fn offline(&self) -> Offline {
        Offline::new(self.paths.offline_dir(), self.config.offline.max_bytes)
    }

    /// Why this answer may not be kept offline (None: it may). `save` is true for a page the
    /// human asked to save (binaries allowed then).
    pub fn offline_refusal(
        &self,
        opts: &OpenOptions,
        outcome: &Outcome,
        save: bool,
    ) -> Option<&'static str> {
        if self.face == Face::Agent {
            return Some("pages fetched for an agent are never kept");
        }
        let Outcome::Page { info, fetched } = outcome else {
            return Some("only pages are kept");
        };
        let page = &fetched.page;
        match page.url.scheme() {
            Scheme::About => return Some("built-in pages are not kept"),
            Scheme::Http | Scheme::Https => {
                if smolweb_core::pdf::is_pdf(&page.raw) {
                    return Some("the text of a PDF is not kept offline yet");
                }
                // The body cap cut it: a copy would be an incomplete page.
                if page.raw.len() as u64 >= self.web_body_cap(None) {
                    return Some("the page was cut at the body limit; only a whole one is kept");
                }
            }
            Scheme::Gemini | Scheme::Gopher => {}
            _ => return Some("pages of the small protocols are not kept offline yet"),
        }
        if info.has_query || page.url.query().is_some() || opts.input.is_some() {
            return Some("a page reached with a query or an input answer is never kept");
        }
        if opts.search.is_some() {
            return Some("search results are never kept");
        }
        let with_identity = info.tls.as_ref().is_some_and(|t| t.client_cert.is_some());
        if with_identity && !self.config.offline.keep_identity_pages {
            return Some("pages fetched with a client identity are not kept (keep_identity_pages)");
        }
        if matches!(page.content, Content::Binary) && !save {
            return Some("binary files are kept only when saved");
        }
        if !page.ending.is_clean() {
            return Some(
                "the answer ended without its end marker (TLS close_notify, or a menu's final \
                 \".\" line), so it may be incomplete; an offline copy is only kept of a complete one",
            );
        }
        None
    }

    /// Keep a copy of a visited page when the rules allow it (call after each visit on the
    /// human face; answers from the memory cache are not rewritten). Returns whether a copy was
    /// written.
    pub fn keep_offline(
        &self,
        opts: &OpenOptions,
        outcome: &Outcome,
    ) -> Result<bool, OfflineError> {
        if self.offline_refusal(opts, outcome, false).is_some() {
            return Ok(false);
        }
        let Outcome::Page { fetched, .. } = outcome else {
            return Ok(false);
        };
        if fetched.cached {
            return Ok(false);
        }
        Ok(self.store_offline(&fetched.page, fetched.cached_at, false)?)
    }

    fn store_offline(
        &self,
        page: &Page,
        fetched_at: Option<OffsetDateTime>,
        save: bool,
    ) -> Result<bool, StoreError> {
        let url = page.url.to_string();
        let media = media_type(page);
        let new = NewPage {
            url: &url,
            media_type: &media,
            title: page.title(),
            body: &page.raw,
            fetched: fetched_at.unwrap_or_else(|| self.now()),
            save,
        };
        self.offline().put(&new, self.now())
    }

    /// The offline copy of `url`, if one is kept (no network). A web page shows its main
    /// content (see [`Client::offline_copy_as`]).
    pub fn offline_copy(&self, url: &str) -> Result<Option<OfflineCopy>, OfflineError> {
        self.offline_copy_as(url, Extract::Main)
    }

    /// The stored copy of `url` and whether it is on the reading list (None: none is kept; a
    /// URL with a query never is).
    fn stored_copy(&self, url: &str) -> Result<Option<(Url, StoredPage, bool)>, StoreError> {
        let Ok(parsed) = Url::parse(url) else {
            return Ok(None);
        };
        if parsed.query().is_some() {
            return Ok(None);
        }
        let key = parsed.to_string();
        let store = self.offline();
        let Some(stored) = store.get(&key, self.now())? else {
            return Ok(None);
        };
        let saved = store.entry(&key)?.is_some_and(|e| e.saved.is_some());
        Ok(Some((parsed, stored, saved)))
    }

    /// The offline copy of `url`, a web page converted with `extract` (main content or the
    /// whole page, as the reader view's toggle asks) from the one body kept.
    pub fn offline_copy_as(
        &self,
        url: &str,
        extract: Extract,
    ) -> Result<Option<OfflineCopy>, OfflineError> {
        let Some((parsed, stored, saved)) = self.stored_copy(url)? else {
            return Ok(None);
        };
        let fetched_at = stored.fetched;
        let Some(page) = rebuild(parsed, stored, extract) else {
            return Ok(None);
        };
        Ok(Some(OfflineCopy {
            fetched: Fetched {
                page: Arc::new(page),
                cached: true,
                cached_at: Some(fetched_at),
            },
            fetched_at,
            saved,
        }))
    }

    /// Working offline: `url` opened from its kept copy (`cached: true`, `cached_at` = when it
    /// was downloaded), or `FetchError::Offline` when none is kept. A URL with a query, an
    /// input answer or a search is never kept, so it is refused the same way.
    pub(crate) fn open_kept(&self, url: Url, opts: &OpenOptions) -> Outcome {
        let info = RequestInfo {
            url: url.without_query(),
            host: url.host().to_string(),
            port: url.port(),
            has_query: url.query().is_some(),
            ..RequestInfo::default()
        };
        let not_kept = |info: RequestInfo| Outcome::Error {
            error: FetchError::Offline {
                url: info.url.clone(),
            },
            info,
        };
        if opts.input.is_some() || opts.search.is_some() || self.copy_may_be_private(&url) {
            return not_kept(info);
        }
        let extract = if opts.web_full {
            Extract::Full
        } else {
            Extract::Main
        };
        let unreadable = |info, e: StoreError| {
            let error = FetchError::store(e);
            Outcome::Error { info, error }
        };
        if matches!(url.scheme(), Scheme::Http | Scheme::Https) {
            // As the reader view shows a fetched page: its final URL, what its text is.
            let (parsed, stored) = match self.stored_copy(&url.to_string()) {
                Ok(Some((parsed, stored, _))) => (parsed, stored),
                Ok(None) => return not_kept(info),
                Err(e) => return unreadable(info, e),
            };
            let q = WebQuery {
                url: parsed.to_string(),
                format: WebFormat::Markdown,
                extract,
                max_bytes: None,
            };
            let rule = self.rule_for_query(&q, &q.url);
            let kept = kept_web_page(&parsed, stored, q.format, extract, rule.as_ref(), true);
            let Some(web) = kept else {
                return not_kept(info);
            };
            let fetched = WebFetched {
                page: Arc::new(web),
                from_cache: true,
            };
            return super::web::reader_outcome(parsed, info, &fetched);
        }
        match self.kept_copy(&url, opts.refresh) {
            // The request that fetched the copy was sent when it was downloaded.
            Ok(Some(fetched)) => Outcome::Page {
                info: RequestInfo {
                    timestamp: fetched.cached_at,
                    ..info
                },
                fetched,
            },
            Ok(None) => not_kept(info),
            Err(e) => unreadable(info, e),
        }
    }

    /// Working offline, the kept copy of the capsule page `url` (None: none is kept): the one
    /// held since an earlier read while its file is unchanged (a look at the file, no read),
    /// else read from the store, rebuilt and held (see the module docs). `refresh` reads the
    /// store again.
    fn kept_copy(&self, url: &Url, refresh: bool) -> Result<Option<Fetched>, StoreError> {
        let key = url.to_string();
        let store = self.offline();
        let stamp = store.stamp(&key);
        let held = if refresh {
            self.kept.remove(&key);
            None
        } else {
            self.kept.get(&key)
        };
        if let Some(h) = &held
            && h.stamp
                .is_some_and(|s| Some(s) == stamp && s.settled_since(h.read))
        {
            return Ok(Some(h.fetched()));
        }
        let read = SystemTime::now();
        let Some(stored) = store.get(&key, self.now())? else {
            self.kept.remove(&key);
            return Ok(None);
        };
        // The same bytes as the held copy's (its stamp too fresh to vouch alone, or the copy
        // stored again unchanged): the held page is kept, and its parsed document with it.
        let copy = match held {
            Some(h) if h.built_from(&stored) => HeldCopy { stamp, read, ..h },
            _ => match HeldCopy::rebuilt(url, stored, stamp, read) {
                Some(copy) => copy,
                None => {
                    self.kept.remove(&key);
                    return Ok(None);
                }
            },
        };
        let fetched = copy.fetched();
        if copy.stamp.is_some() {
            self.kept.put(&key, copy);
        } else {
            // The file could not be looked at before the read: served, held at a later read.
            self.kept.remove(&key);
        }
        Ok(Some(fetched))
    }

    /// On the agent face: could the copy of `url` have been fetched with one of the person's
    /// identities? Only when `[offline] keep_identity_pages` keeps such pages, and then any
    /// copy under an identity's scope is withheld (the store does not record which identity
    /// a copy was fetched with, so the scope decides; an unreadable identity store withholds
    /// too).
    fn copy_may_be_private(&self, url: &Url) -> bool {
        if self.face != Face::Agent || !self.config.offline.keep_identity_pages {
            return false;
        }
        self.identities
            .find_for(url.host(), url.port(), url.path(), false)
            .map_or(true, |found| found.is_some())
    }

    /// Working offline, `fetch_url`'s answer: the kept copy of the page converted as `q`
    /// asks (`from_cache: true`), or `WebError::Offline`.
    pub(crate) fn kept_web(&self, q: &WebQuery, url: &str) -> Result<WebFetched, WebError> {
        let not_kept = || WebError::Offline {
            url: url.to_string(),
        };
        let stored = self
            .stored_copy(url)
            .map_err(|e| WebError::Internal(format!("the offline cache cannot be read: {e}")))?;
        let Some((parsed, stored, _)) = stored else {
            return Err(not_kept());
        };
        let human = self.face == Face::Human;
        let rule = self.rule_for_query(q, &parsed.to_string());
        let mut page = kept_web_page(&parsed, stored, q.format, q.extract, rule.as_ref(), human)
            .ok_or_else(not_kept)?;
        if !human {
            page.raw = Vec::new();
        }
        Ok(WebFetched {
            page: Arc::new(page),
            from_cache: true,
        })
    }

    /// The copy to offer after a failed fetch of `url`: only for network failures.
    pub fn offline_fallback(
        &self,
        url: &str,
        outcome: &Outcome,
    ) -> Result<Option<OfflineCopy>, OfflineError> {
        match outcome {
            Outcome::Error { error, .. } if is_network_failure(error) => self.offline_copy(url),
            _ => Ok(None),
        }
    }

    /// Put a page on the reading list: fetch it (same-host redirects followed) and keep it out
    /// of eviction; with `with_links`, also the pages of the same capsule (scheme, host, port)
    /// it links to, one level, at most [`MAX_SAVED_LINKS`], each fetch taking its turn from the
    /// same batch pacer as a feed refresh.
    pub async fn save_for_offline(
        &self,
        url: &str,
        with_links: bool,
    ) -> Result<SaveReport, OfflineError> {
        let mut report = SaveReport::default();
        let page = match self.save_one(url).await {
            Ok(page) => page,
            Err(reason) => {
                return Err(OfflineError::NotSaved {
                    url: url.to_string(),
                    reason,
                });
            }
        };
        report.saved.push(page.url.to_string());
        if !with_links {
            return Ok(report);
        }
        for link in same_site_links(&page) {
            match self.save_one(&link).await {
                Ok(p) => report.saved.push(p.url.to_string()),
                Err(why) => report.failed.push((link, why)),
            }
        }
        Ok(report)
    }

    async fn save_one(&self, url: &str) -> Result<Arc<Page>, SaveFailure> {
        let opts = OpenOptions::default();
        self.batch_turn(url).await;
        let (outcome, _) = self.open_following(url, &opts, 5).await;
        if let Some(why) = self.offline_refusal(&opts, &outcome, true) {
            return Err(match outcome {
                Outcome::Page { .. } => SaveFailure::Refused(why),
                other => NoPage::of(other).into(),
            });
        }
        let Outcome::Page { fetched, .. } = outcome else {
            return Err(SaveFailure::Refused("only pages are kept"));
        };
        let fetched_at = if fetched.cached {
            fetched.cached_at
        } else {
            None
        };
        self.store_offline(&fetched.page, fetched_at, true)?;
        Ok(fetched.page)
    }

    /// Take a page off the reading list (its copy becomes evictable).
    pub fn unsave_offline(&self, url: &str) -> Result<bool, StoreError> {
        let key = Url::parse(url).map_or_else(|_| url.to_string(), |u| u.to_string());
        self.offline().unsave(&key)
    }

    /// The reading list, most recently saved first.
    pub fn reading_list(&self) -> Result<Vec<OfflineEntry>, StoreError> {
        self.offline().saved()
    }
}

/// Links of `page` to other pages of the same capsule or web site (scheme, host, port),
/// without queries, deduplicated, at most [`MAX_SAVED_LINKS`]: what "save with its links"
/// fetches (a face asks that question only when this is not empty).
pub fn same_site_links(page: &Page) -> Vec<String> {
    let targets: Vec<&str> = match &page.content {
        Content::Gemtext(doc) => doc.links().map(|l| l.url.as_str()).collect(),
        Content::Menu(items) => items.iter().map(|i| i.next_url.as_str()).collect(),
        _ => Vec::new(),
    };
    let own = page.url.to_string();
    let mut out: Vec<String> = Vec::new();
    for t in targets {
        let Ok(u) = Url::parse(t) else { continue };
        let same = u.scheme() == page.url.scheme()
            && u.host() == page.url.host()
            && u.port() == page.url.port();
        let key = u.to_string();
        if same && u.query().is_none() && key != own && !out.contains(&key) {
            out.push(key);
        }
        if out.len() >= MAX_SAVED_LINKS {
            break;
        }
    }
    out
}
