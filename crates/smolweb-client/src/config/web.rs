//! The `[web]` section: the http(s) face (`fetch_url`, `smolweb get https://…`, the reader
//! view). Address rules come from `[network]` (the same guard as Gemini); these keys are what
//! only the web needs.

use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct Web {
    /// PEM files of extra trusted root certificates (besides the bundled WebPKI roots).
    pub extra_root_certificates: Vec<String>,
    /// Body cap of a web page for the agent face, in decompressed bytes.
    pub max_response_bytes: u64,
    /// Body cap of a web page in the terminal browser and `smolweb get`.
    pub(crate) tui_max_response_bytes: u64,
    /// Terminal browser: open http(s) links in the external browser instead of the reader view.
    pub open_external: bool,
    /// The browser and `smolweb get` ask this Gemini proxy (`gemini://host:port/`) for http(s)
    /// URLs instead of fetching them (the URL is the request line, over TLS with trust on first
    /// use for the proxy's certificate); empty: the web is fetched directly.
    #[serde(deserialize_with = "super::proxy::gemini_proxy")]
    pub gemini_proxy: String,
}

impl Default for Web {
    fn default() -> Self {
        Web {
            extra_root_certificates: Vec::new(),
            max_response_bytes: 5 * 1024 * 1024,
            tui_max_response_bytes: 16 * 1024 * 1024,
            open_external: false,
            gemini_proxy: String::new(),
        }
    }
}
