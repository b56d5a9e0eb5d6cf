//! The web in the client: `fetch_url` for agents, `smolweb get https://…` and the reader view
//! for humans, and a plain guarded byte fetch for other features (feeds).
//!
//! Order of work for [`Client::fetch_web`]: the cache (keyed by URL and conversion options;
//! a page is stored under both the asked and the final URL) -> robots.txt (agent face, or the
//! human face with `tui_respect_robots`; asked again before each redirect hop) -> pacing
//! (agent face) -> [`HttpFetcher`] (guard, redirects, limits) -> decode and convert ([`page`];
//! a PDF's text is read on a worker thread, [`pdf`]) -> cache. One timeout budget covers
//! robots.txt and the page. The fetcher of a face is built on first use (it reads the extra
//! root certificates named in `[web]`), so a bad file only affects the web.
//!
//! Faces: the agent face uses `[network]`'s address rules (private addresses refused unless
//! allowed) and `web.max_response_bytes`; the human face may reach private addresses, like
//! Gemini, and uses `web.tui_max_response_bytes`. Dangerous ports are refused for agents only.

mod page;
mod pdf;
mod reader;
mod robots;

pub use page::{
    WebFormat, WebPage, build as web_page, build_pdf as web_pdf_page, build_ruled as web_page_ruled,
};
pub use pdf::PDF_THREAD;
pub(super) use reader::open_reader;
pub(crate) use reader::web_error_as_fetch;
pub use reader::{
    failure_words, page_regions, page_under_rule, readable_page, reader_outcome, reader_page,
};

use super::{Client, Face};
use crate::config::Config;
use crate::site_rules::rule_tag;
use smolweb_core::html::Extract;
use smolweb_net::cache::{Cache, Clock};
use smolweb_net::http::{
    HttpFetcher, HttpRequest, HttpResponse, HttpSetup, SystemRoots, Validators, WebError, tls,
};
use smolweb_net::policy::RobotsCache;
use smolweb_store::site_rules::SiteRuleEntry;
use std::sync::{Arc, OnceLock};
use std::time::Duration;
use tokio::time::Instant;

/// What to fetch and how to convert it.
#[derive(Clone, Debug, Default)]
pub struct WebQuery {
    /// The http(s) URL.
    pub url: String,
    /// Markdown or the text as sent.
    pub format: WebFormat,
    /// Which part of an HTML page is kept.
    pub extract: Extract,
    /// Lowers the face's body cap for this call (never raises it).
    pub max_bytes: Option<u64>,
}

/// A page, fresh or held.
#[derive(Clone, Debug)]
pub struct WebFetched {
    /// The converted page.
    pub page: Arc<WebPage>,
    /// True when served from the held copy (no new request).
    pub from_cache: bool,
}

/// The web's share of a [`Client`].
pub struct WebState {
    fetcher: OnceLock<Result<Arc<HttpFetcher>, WebError>>,
    cache: Cache<Arc<WebPage>>,
    robots: RobotsCache,
    pdf_slots: pdf::PdfSlots,
}

impl WebState {
    pub(super) fn new(config: &Config, clock: Arc<dyn Clock>) -> WebState {
        let ttl = Duration::from_secs(config.cache.ttl_seconds);
        WebState {
            fetcher: OnceLock::new(),
            cache: Cache::new(
                ttl,
                config.cache.max_entries,
                config.cache.max_bytes,
                clock.clone(),
            ),
            robots: RobotsCache::new(clock),
            pdf_slots: pdf::PdfSlots::default(),
        }
    }
}

/// The cache key of a URL under conversion options and the site rule in force (its
/// [`rule_tag`](crate::site_rules::rule_tag)).
fn cache_key(url: &str, format: WebFormat, extract: Extract, cap: u64, rule: &str) -> String {
    format!(
        "{url} {} {} {cap} {rule}",
        format.as_str(),
        extract.as_str()
    )
}

impl Client {
    /// The person's rule for the site of `url` when the query asks for the main text of a
    /// converted page (rules change nothing else).
    pub(crate) fn rule_for_query(&self, q: &WebQuery, url: &str) -> Option<SiteRuleEntry> {
        if q.format != WebFormat::Markdown || q.extract != Extract::Main {
            return None;
        }
        let host = url::Url::parse(url).ok()?.host_str()?.to_string();
        self.site_rule_for(&host)
    }

    /// The body cap of this face, lowered by `max_bytes` when given.
    pub(crate) fn web_body_cap(&self, max_bytes: Option<u64>) -> u64 {
        let face_cap = match self.face {
            Face::Agent => self.config.web.max_response_bytes,
            Face::Human => self.config.web.tui_max_response_bytes,
        };
        max_bytes.map_or(face_cap, |m| m.min(face_cap))
    }

    fn web_fetcher(&self) -> Result<Arc<HttpFetcher>, WebError> {
        self.web
            .fetcher
            .get_or_init(|| {
                let mut extra_roots = Vec::new();
                for path in &self.config.web.extra_root_certificates {
                    let pem = std::fs::read(path).map_err(|e| {
                        WebError::Internal(format!("cannot read root certificate file {path}: {e}"))
                    })?;
                    let certs = tls::roots_from_pem(&pem)
                        .map_err(|e| WebError::Internal(format!("{path}: {e}")))?;
                    extra_roots.extend(certs);
                }
                let net = &self.config.network;
                let setup = HttpSetup {
                    extra_roots,
                    system_roots: SystemRoots::from_env(),
                    allow_private: self.face == Face::Human || net.allow_private_addresses,
                    allowed_hosts: net.allowed_hosts.clone(),
                    for_agent: self.face == Face::Agent,
                    socks5: self.socks5(),
                };
                HttpFetcher::new(&setup).map(Arc::new)
            })
            .clone()
    }

    /// Fetch bytes over http(s) with this face's guard, redirects and limits, and nothing
    /// else (no robots.txt, no conversion, no cache). For features that read other formats
    /// (feeds). `max_bytes` is capped by the face's limit; an oversized body is `truncated`.
    pub async fn fetch_web_bytes(
        &self,
        url: &str,
        max_bytes: Option<u64>,
        accept: &'static str,
    ) -> Result<HttpResponse, WebError> {
        if self.working_offline() {
            let url = url.to_string();
            return Err(WebError::Offline { url });
        }
        let req = HttpRequest {
            url: url.to_string(),
            max_bytes: self.web_body_cap(max_bytes),
            timeout: Duration::from_secs(self.config.network.timeout_seconds),
            accept,
            validators: Validators::default(),
        };
        self.web_fetcher()?.fetch(&req).await
    }

    /// Drop the held copy of this query's page (a reload).
    pub(crate) fn forget_web(&self, q: &WebQuery) -> bool {
        let Ok(url) = smolweb_net::http::parse_target(&q.url, false) else {
            return false;
        };
        let cap = self.web_body_cap(q.max_bytes);
        let tag = rule_tag(self.rule_for_query(q, url.as_str()).as_ref());
        self.web
            .cache
            .remove(&cache_key(url.as_str(), q.format, q.extract, cap, &tag))
    }

    /// The page held in the cache for this query, if any (no network).
    pub(crate) fn cached_web(&self, q: &WebQuery) -> Option<WebFetched> {
        let url = smolweb_net::http::parse_target(&q.url, false).ok()?;
        let cap = self.web_body_cap(q.max_bytes);
        let tag = rule_tag(self.rule_for_query(q, url.as_str()).as_ref());
        let key = cache_key(url.as_str(), q.format, q.extract, cap, &tag);
        let page = self.web.cache.get(&key)?;
        Some(WebFetched {
            page,
            from_cache: true,
        })
    }

    /// Fetch and convert a web page (see the module docs). A 4xx/5xx answer is a page too;
    /// [`WebPage::status_error`] says how to report it.
    pub async fn fetch_web(&self, q: &WebQuery) -> Result<WebFetched, WebError> {
        let url = smolweb_net::http::parse_target(&q.url, false)?;
        if self.working_offline() {
            return self.kept_web(q, url.as_str());
        }
        if let Some(hit) = self.cached_web(q) {
            return Ok(hit);
        }
        let answer = self.fetch_web_new(q, &url, &Validators::default()).await?;
        Ok(WebFetched {
            page: answer.page.ok_or_else(|| {
                WebError::Internal("a 304 answer to a request that was not conditional".into())
            })?,
            from_cache: false,
        })
    }

    /// Fetch and convert a web page again unless the server says the copy held is current:
    /// the request is conditional on `validators` ([`Validators`]; none makes it an ordinary
    /// fetch), and the cache is not read (the answer is stored in it).
    pub async fn fetch_web_conditional(
        &self,
        q: &WebQuery,
        validators: &Validators,
    ) -> Result<WebAnswer, WebError> {
        let url = smolweb_net::http::parse_target(&q.url, false)?;
        if self.working_offline() {
            return Err(WebError::Offline {
                url: url.to_string(),
            });
        }
        self.fetch_web_new(q, &url, validators).await
    }

    /// The network half of [`Client::fetch_web`]: robots.txt, pacing, the request and the
    /// conversion; the page is stored in the cache.
    async fn fetch_web_new(
        &self,
        q: &WebQuery,
        url: &url::Url,
        validators: &Validators,
    ) -> Result<WebAnswer, WebError> {
        let url = url.clone();
        // Built once per client (the trust store is read then), before the budget starts.
        let fetcher = self.web_fetcher()?;
        let budget = Duration::from_secs(self.config.network.timeout_seconds);
        let deadline = Instant::now() + budget;
        self.check_web_robots(&fetcher, &url, deadline).await?;
        let host = url.host_str().unwrap_or_default().to_string();
        let left = deadline.saturating_duration_since(Instant::now());
        if let Err(wait) = self.paced_turn(&host, left, None).await {
            return Err(WebError::PolicyRejected {
                message: format!(
                    "requests to {host} are paced; the next one may leave in {} s",
                    wait.as_secs() + 1
                ),
                retryable: true,
            });
        }
        let cap = self.web_body_cap(q.max_bytes);
        let req = HttpRequest {
            url: url.to_string(),
            max_bytes: cap,
            timeout: deadline.saturating_duration_since(Instant::now()),
            accept: smolweb_net::http::ACCEPT,
            validators: validators.clone(),
        };
        tracing::debug!(url = %url, "web request");
        let gate = robots::RobotsGate {
            client: self,
            fetcher: &fetcher,
            deadline,
        };
        let mut resp = fetcher.fetch_gated(&req, &gate).await?;
        let (fresh, moved_to) = (resp.validators.clone(), resp.moved_to.clone());
        if resp.status == 304 && !validators.is_empty() {
            return Ok(WebAnswer {
                page: None,
                validators: Validators {
                    etag: fresh.etag.or_else(|| validators.etag.clone()),
                    last_modified: fresh
                        .last_modified
                        .or_else(|| validators.last_modified.clone()),
                },
                moved_to,
            });
        }
        // The person's rule for the asked page's site, read once for this fetch.
        let asked_rule = self.rule_for_query(q, url.as_str());
        let human = self.face == Face::Human;
        let mut page = if smolweb_core::pdf::is_pdf(&resp.body) {
            let body = std::mem::take(&mut resp.body);
            let (body, read) = pdf::read_pdf(&self.web.pdf_slots, body, deadline, budget).await?;
            resp.body = body;
            page::build_pdf(resp, read, self.now(), human)?
        } else {
            // The rule of the site the page came from (after redirects): the one read for
            // the asked URL when the host did not change.
            let moved =
                url::Url::parse(&resp.final_url).map_or(true, |f| f.host_str() != url.host_str());
            let rule = match moved {
                true => self.rule_for_query(q, &resp.final_url),
                false => asked_rule.clone(),
            };
            page::build_ruled(resp, q.format, q.extract, rule.as_ref(), self.now(), human)?
        };
        if self.face == Face::Agent {
            // Agents read the text only: do not hold the body twice.
            page.raw = Vec::new();
        }
        self.index_agent_web(&page);
        let page = Arc::new(page);
        if page.status < 400 {
            let tag = rule_tag(asked_rule.as_ref());
            let key = cache_key(url.as_str(), q.format, q.extract, cap, &tag);
            self.web.cache.put(&key, page.clone());
            let tag = rule_tag(page.site_rule.as_ref());
            let final_key = cache_key(&page.final_url, q.format, q.extract, cap, &tag);
            self.web.cache.put(&final_key, page.clone());
        }
        Ok(WebAnswer {
            page: Some(page),
            validators: fresh,
            moved_to,
        })
    }
}

/// What a fetch of a web page over the network gave ([`Client::fetch_web_conditional`]).
#[derive(Clone, Debug)]
pub struct WebAnswer {
    /// The page; None when the server said the copy held is current (304).
    pub page: Option<Arc<WebPage>>,
    /// The answer's validators, to make the next request conditional.
    pub validators: Validators,
    /// Where a leading run of permanent redirects led (the page moved there).
    pub moved_to: Option<String>,
}
