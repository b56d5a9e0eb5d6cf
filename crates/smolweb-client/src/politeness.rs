//! robots.txt checks for the client: look the host up in the robots cache, fetch its
//! robots.txt through the transport when needed, the way the protocol's [`RobotsRule`] says
//! (Gemini `/robots.txt`, Gopher and gophers selector `robots.txt` type 0; the other small
//! protocols have no convention), and decide per [`smolweb_net::policy`]. The robots.txt fetch itself is not
//! paced and presents no client identity; a request for robots.txt is never checked against
//! itself.

use super::Client;
use super::pipeline::RobotsRule;
use smolweb_net::policy::{
    ROBOTS_MAX_BYTES, RobotsAnswer, is_robots_path, robots_fetch_failed, robots_match_path,
};
use smolweb_net::{FetchError, IdentityChoice, NetOptions, TofuState};

impl Client {
    fn respects_robots(&self) -> bool {
        match self.face {
            super::Face::Agent => self.config.politeness.respect_robots,
            super::Face::Human => self.config.politeness.tui_respect_robots,
        }
    }

    /// Ok when robots.txt lets us fetch `path` (Gemini path / Gopher selector) from
    /// `host:port`, asked the way `rule` says; with the TOFU news of a robots.txt fetch made
    /// for this call (a first-use pin), so the page's result can still say it: the page fetch
    /// itself then only sees "trusted".
    pub(super) async fn check_robots(
        &self,
        rule: &RobotsRule,
        host: &str,
        port: u16,
        path: &str,
        net_opts: &NetOptions,
    ) -> Result<Option<TofuState>, FetchError> {
        let mut tofu_news = None;
        if !self.respects_robots() || is_robots_path(path) {
            return Ok(None);
        }
        let answer = match self.robots.get(host, port) {
            Some(answer) => answer,
            None => {
                let lock = self.robots.fetch_lock(host, port);
                let _fetching = lock.lock().await;
                match self.robots.get(host, port) {
                    Some(answer) => answer,
                    None => {
                        let (answer, tofu) = self.fetch_robots(rule, host, port, net_opts).await?;
                        tofu_news = tofu.filter(|t| *t != TofuState::Trusted);
                        self.robots.put(host, port, answer.clone());
                        answer
                    }
                }
            }
        };
        match answer {
            RobotsAnswer::Unavailable => Err(FetchError::RobotsUnavailable {
                host: host.to_string(),
            }),
            RobotsAnswer::Rules(r) if r.allowed(rule.agents, &robots_match_path(path)) => {
                Ok(tofu_news)
            }
            RobotsAnswer::Rules(_) => Err(FetchError::BlockedByRobots {
                host: host.to_string(),
                path: path.to_string(),
            }),
        }
    }

    async fn fetch_robots(
        &self,
        rule: &RobotsRule,
        host: &str,
        port: u16,
        net_opts: &NetOptions,
    ) -> Result<(RobotsAnswer, Option<TofuState>), FetchError> {
        let opts = NetOptions {
            max_body: net_opts.max_body.min(ROBOTS_MAX_BYTES),
            identity: IdentityChoice::None,
            progress: None,
            ..net_opts.clone()
        };
        tracing::debug!(host, port, "fetching robots.txt");
        let request = (rule.request)(host, port)?;
        let fetched = match self.transport.send(&request, &opts).await {
            Ok(answer) => (rule.read)(answer),
            Err(e) => Err(e),
        };
        fetched.or_else(|e| robots_fetch_failed(e).map(|a| (a, None)))
    }
}
