//! The web through a Gemini proxy (`[web] gemini_proxy`), as Lagrange and amfora offer: on the
//! person's faces (the browser, `smolweb get`) an http(s) URL is not fetched but asked of the
//! proxy, the URL itself as the Gemini request line, over TLS to the proxy's host and port.
//! The answer is a Gemini answer read against the http(s) URL (so the page's relative links
//! stay on the web page's site), through the open pipeline like a capsule's: cache, in-flight
//! limits, the work-offline gate, the guard (the proxy's address, or the SOCKS5 proxy under
//! `[network] socks5`) and TOFU, which pins the proxy's certificate under its host and port.
//!
//! What the outcome says: `info.url` is the web page's; `info.host`, `info.port` and
//! `info.tls` are the proxy's, since that is the connection that was made and the certificate
//! that was judged. A 53 (the proxy refuses to fetch that URL) and a 43 (it could not) come
//! back as failures, which the faces word ([`crate::web::failure_words`]).
//!
//! The agent's `fetch_url` never uses the Gemini proxy: it fetches the web itself, through the
//! SOCKS5 proxy when one is set, and converts what it gets for an agent.

use super::gemini::{gemini_answer, query_plan};
use super::pipeline::{Answer, Plan, Protocol, unexpected};
use super::{OpenOptions, RequestInfo};
use smolweb_core::url::Url;
use smolweb_net::{Request, Response};

/// http(s) through the proxy at `proxy` (gemini://host:port/).
pub(crate) struct GeminiProxy {
    pub(crate) proxy: Url,
}

impl Protocol for GeminiProxy {
    fn plan(&self, url: &Url, opts: &OpenOptions) -> Plan {
        let proxy = self.proxy.clone();
        let mut plan = query_plan(url, opts, |url| Request::GeminiProxy { proxy, url });
        // The connection, and so its certificate, is the proxy's.
        plan.info.host = self.proxy.host().to_string();
        plan.info.port = self.proxy.port();
        // The proxy's answer to a URL, kept apart from a direct fetch's.
        plan.cache_key = plan
            .cache_key
            .map(|url| format!("{url} via {}", self.proxy));
        plan
    }

    fn map(&self, url: &Url, info: RequestInfo, answer: Response) -> Answer {
        match answer {
            Response::Gemini(resp) => gemini_answer(url, info, resp, true),
            _ => unexpected(info, "a non-Gemini answer"),
        }
    }
}

/// A proxy status of Gemini (43 proxy error, 53 proxy request refused) in plain words:
/// `asked_of_proxy` when the request was an http(s) URL asked of the person's Gemini proxy,
/// else a capsule's answer to a gemini:// request (53 there usually means the capsule does not
/// serve that host name). None for any other status.
pub fn proxy_status_words(status: u8, asked_of_proxy: bool) -> Option<&'static str> {
    let words = match (status, asked_of_proxy) {
        (53, true) => {
            "the Gemini proxy refused to fetch this web page for you (53, proxy request refused)"
        }
        (53, false) => {
            "the capsule refused to fetch this address for you (53, proxy request refused): it \
             does not serve this host name; check the address"
        }
        (43, true) => {
            "the Gemini proxy could not fetch this web page (43, proxy error): the site may be \
             down or out of the proxy's reach; try again later"
        }
        (43, false) => {
            "the capsule could not fetch this address from elsewhere (43, proxy error); try \
             again later"
        }
        _ => return None,
    };
    Some(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proxy_statuses_have_words_and_others_none() {
        for status in [43, 53] {
            for asked in [true, false] {
                let words = proxy_status_words(status, asked).unwrap();
                assert!(words.contains(&status.to_string()), "{words}");
                assert_eq!(words.contains("Gemini proxy"), asked, "{words}");
            }
        }
        assert_eq!(proxy_status_words(51, true), None);
        assert_eq!(proxy_status_words(44, false), None);
    }
}
