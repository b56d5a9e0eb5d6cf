//! robots.txt on the web: per scheme+host+port, cached like Gemini's (24 h; an unavailable
//! answer 10 min), fetched once per host at a time, read by [`http_robots_answer`]. A
//! robots.txt that cannot be read (5xx, a timeout, a broken answer) refuses the page for now
//! (`POLICY_REJECTED`, retryable); a host that cannot be reached at all (DNS, connection, TLS)
//! or that the guard refuses is reported as that, since the page would fail the same way.

use super::super::{Client, Face};
use smolweb_net::http::{HopGate, HttpFetcher, HttpRequest, WebError};
use smolweb_net::policy::RobotsAnswer;
use smolweb_net::policy::http_robots::{WEB_AGENTS, http_robots_answer};
use smolweb_net::policy::{ROBOTS_MAX_BYTES, is_robots_path};
use tokio::time::Instant;

impl Client {
    fn web_respects_robots(&self) -> bool {
        match self.face {
            Face::Agent => self.config.politeness.respect_robots,
            Face::Human => self.config.politeness.tui_respect_robots,
        }
    }

    /// Ok when robots.txt lets smolweb fetch `url`.
    pub(super) async fn check_web_robots(
        &self,
        fetcher: &HttpFetcher,
        url: &url::Url,
        deadline: Instant,
    ) -> Result<(), WebError> {
        if !self.web_respects_robots() || is_robots_path(url.path()) {
            return Ok(());
        }
        let host = format!("{}://{}", url.scheme(), url.host_str().unwrap_or_default());
        let port = url.port_or_known_default().unwrap_or(0);
        let answer = match self.web.robots.get(&host, port) {
            Some(a) => a,
            None => {
                let lock = self.web.robots.fetch_lock(&host, port);
                let _held = lock.lock().await;
                match self.web.robots.get(&host, port) {
                    Some(a) => a,
                    None => {
                        let a = fetch_robots(fetcher, url, deadline).await?;
                        self.web.robots.put(&host, port, a.clone());
                        a
                    }
                }
            }
        };
        let shown = url.host_str().unwrap_or_default();
        let path = match url.query() {
            Some(q) => format!("{}?{q}", url.path()),
            None => url.path().to_string(),
        };
        match answer {
            RobotsAnswer::Rules(r) if r.allowed(WEB_AGENTS, &path) => Ok(()),
            RobotsAnswer::Rules(_) => Err(WebError::PolicyRejected {
                message: format!(
                    "robots.txt of {shown} disallows {}; do not retry another way",
                    url.path()
                ),
                retryable: false,
            }),
            RobotsAnswer::Unavailable => Err(unavailable(shown, "it answered with a server error")),
        }
    }
}

/// Asks robots.txt before each redirect hop of a page fetch.
pub(super) struct RobotsGate<'a> {
    pub(crate) client: &'a Client,
    pub(crate) fetcher: &'a HttpFetcher,
    pub(crate) deadline: Instant,
}

impl HopGate for RobotsGate<'_> {
    fn allow<'a>(
        &'a self,
        url: &'a url::Url,
    ) -> std::pin::Pin<Box<dyn std::future::Future<Output = Result<(), WebError>> + Send + 'a>>
    {
        Box::pin(
            self.client
                .check_web_robots(self.fetcher, url, self.deadline),
        )
    }
}

fn unavailable(host: &str, why: &str) -> WebError {
    WebError::PolicyRejected {
        message: format!(
            "robots.txt of {host} could not be read ({why}), so the page was not fetched; \
             try again later"
        ),
        retryable: true,
    }
}

async fn fetch_robots(
    fetcher: &HttpFetcher,
    url: &url::Url,
    deadline: Instant,
) -> Result<RobotsAnswer, WebError> {
    let mut robots = url.clone();
    robots.set_path("/robots.txt");
    robots.set_query(None);
    let req = HttpRequest {
        url: robots.to_string(),
        max_bytes: ROBOTS_MAX_BYTES,
        timeout: deadline.saturating_duration_since(Instant::now()),
        accept: "text/plain",
        validators: Default::default(),
    };
    let host = url.host_str().unwrap_or_default();
    match fetcher.fetch(&req).await {
        Ok(resp) => Ok(http_robots_answer(resp.status, &resp.body)),
        Err(
            e @ (WebError::PolicyRejected { .. }
            | WebError::RedirectRefused(_)
            | WebError::InvalidInput(_)
            | WebError::Dns { .. }
            | WebError::Connection { .. }),
        ) => Err(e),
        Err(WebError::Redirect(_)) => Ok(http_robots_answer(404, b"")),
        Err(e) => Err(unavailable(host, &e.to_string())),
    }
}
