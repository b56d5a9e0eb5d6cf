//! A Gemini proxy for http(s) URLs, as duckling-proxy and the like serve Lagrange and amfora:
//! the request line is the http(s) URL itself, sent over TLS to the proxy.
//!
//! It answers from its own table, not from the web: a URL it holds is `20 text/gemini` with
//! its page; a URL on a host it refuses, or a request line that is not http(s), is `53`
//! (proxy request refused); any other http(s) URL is `43` (proxy error: it could not fetch it
//! upstream). Its [`crate::gemini::Server`] records the request lines and serves its own
//! certificate, so a test sees what was asked and what the client pinned.

use crate::gemini::{Reply, Routes, Server};

/// A running proxy; stops accepting when dropped.
pub struct GeminiProxy {
    server: Server,
}

impl GeminiProxy {
    /// A proxy that holds `pages` (URL, gemtext) and refuses every URL on `refused_hosts`.
    ///
    /// Must run inside a tokio runtime; panics if the listening socket cannot be bound.
    pub async fn start(pages: &[(&str, &str)], refused_hosts: &[&str]) -> GeminiProxy {
        let pages: Vec<(String, String)> = pages
            .iter()
            .map(|(u, p)| (u.to_string(), p.to_string()))
            .collect();
        let refused: Vec<String> = refused_hosts.iter().map(|h| h.to_string()).collect();
        let routes = Routes::new().handler(move |req| {
            let line = req.line.as_str();
            let Some(rest) = line
                .strip_prefix("https://")
                .or_else(|| line.strip_prefix("http://"))
            else {
                return Reply::status(53, "this proxy fetches http and https URLs only");
            };
            let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
            let host = authority.rsplit_once(':').map_or(authority, |(h, _)| h);
            if refused.iter().any(|r| r.eq_ignore_ascii_case(host)) {
                return Reply::status(53, &format!("proxying to {host} is not allowed here"));
            }
            match pages.iter().find(|(u, _)| u == line) {
                Some((_, page)) => Reply::gemtext(page),
                None => Reply::status(43, &format!("could not reach {host} upstream")),
            }
        });
        GeminiProxy {
            server: Server::start(routes).await,
        }
    }

    /// `gemini://127.0.0.1:PORT/`, as `[web] gemini_proxy` names it.
    pub fn url(&self) -> String {
        self.server.url("/")
    }

    /// The underlying server: its request lines, connections and certificate.
    pub fn server(&self) -> &Server {
        &self.server
    }
}
