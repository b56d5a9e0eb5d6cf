//! `fetch_url`'s parameters and `structuredContent`, with the names of safe-fetch-mcp-server's
//! tool of that name (camelCase results). A success is a page object; a failure is an object
//! with `error` (`code`, `retryable`, `message`) and, when the server did answer (4xx/5xx),
//! the page fields too.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use smolweb_core::code::ErrorCode;

fn default_max_chars() -> i64 {
    20_000
}

/// How the body is given.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum FormatParam {
    /// HTML converted to markdown (other text as it is).
    #[default]
    Markdown,
    /// The text as the server sent it (decoded, not converted).
    Raw,
}

/// Which part of an HTML page is kept.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum ExtractParam {
    /// The main text (the article, or a non-article page's content) without navigation,
    /// banners and footers; the whole page only when no main text is found.
    #[default]
    Main,
    /// The whole page.
    Full,
}

// Unknown properties are refused (`additionalProperties: false` in the schema), as in
// safe-fetch-mcp-server's.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct FetchUrlParams {
    /// The absolute http:// or https:// URL to read.
    pub url: String,
    /// `markdown` (default) or `raw`.
    #[serde(default)]
    pub format: FormatParam,
    /// `main` (default) or `full`; ignored for raw.
    #[serde(default)]
    pub extract: ExtractParam,
    /// Most characters returned by this call (1 to 1000000, default 20000).
    #[serde(default = "default_max_chars")]
    #[schemars(range(min = 1, max = 1_000_000))]
    pub max_chars: i64,
    /// Character offset to start from; pass the previous `nextStartIndex` to read on.
    #[serde(default)]
    #[schemars(range(min = 0))]
    pub start_index: i64,
    /// Download at most this many bytes (lowers the configured limit, never raises it).
    #[serde(default)]
    #[schemars(range(min = 1))]
    pub max_bytes: Option<i64>,
}

/// One window of a fetched page and what is known about it. Page metadata is untrusted text.
#[derive(Clone, Debug, Default, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct PageOut {
    /// This window of the text (the same as the text block, without its first line).
    pub text: String,
    /// The final HTTP status.
    pub status: u16,
    /// The URL the text came from, after redirects.
    pub final_url: String,
    pub content_type: Option<String>,
    /// Bytes downloaded (after decompression).
    pub bytes: u64,
    /// True when the byte limit cut the download.
    pub truncated: bool,
    /// Characters in the whole converted text.
    pub total_chars: u64,
    pub start_index: u64,
    /// Where the next window starts; null at the end.
    pub(crate) next_start_index: Option<u64>,
    /// True when served from smolweb's copy (no new request).
    pub from_cache: bool,
    /// Present (true) only when smolweb works offline (`[offline] work_offline`): the page
    /// came from the offline cache the person keeps.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub offline: Option<bool>,
    /// Working offline: when the kept copy was downloaded (ISO-8601).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub offline_fetched_at: Option<String>,
    /// Working offline: the kept copy's age in seconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub offline_age_seconds: Option<u64>,
    /// `main`, `full`, `fallback-full` or `none`.
    pub extraction: String,
    /// `suspicious-hidden-content-removed`, `likely-requires-javascript`.
    pub hints: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub byline: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub site_name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lang: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub published_at: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub canonical_url: Option<String>,
    /// The token count the site announced for its markdown (`x-markdown-tokens`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub markdown_tokens: Option<u64>,
    /// https: the request's TLS facts (the contract's `request_info` keys).
    #[serde(rename = "request_info", skip_serializing_if = "Option::is_none")]
    pub request_info: Option<WebRequestInfo>,
}

/// What is known about the https connection of a page (absent for plain http).
#[derive(Clone, Debug, Default, PartialEq, Serialize, JsonSchema)]
pub(crate) struct WebRequestInfo {
    /// "TLSv1.3" or "TLSv1.2".
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tls_version: Option<String>,
    /// `sha256:<hex>` of the server certificate DER.
    pub cert_fingerprint: String,
    /// The trusted root that verified the certificate chain and where smolweb found it
    /// (the bundled WebPKI roots, the system trust store, SSL_CERT_FILE, SSL_CERT_DIR, or
    /// the config's web.extra_root_certificates).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tls_root: Option<String>,
}

/// Why there is no (usable) page.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub(crate) struct WebErrorOut {
    /// INVALID_INPUT, POLICY_REJECTED, DNS_RESOLUTION_FAILED, CONNECTION_FAILED, TIMEOUT,
    /// REDIRECT_FAILED, INVALID_RESPONSE, UNSUPPORTED_CONTENT_TYPE or INTERNAL_ERROR.
    #[schemars(schema_with = "crate::results::error_code_schema")]
    pub code: ErrorCode,
    /// True when the same call may succeed later.
    pub retryable: bool,
    pub message: String,
}

/// A failure; for a 4xx/5xx answer the page fields are present too.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct FailureOut {
    pub error: WebErrorOut,
    #[serde(flatten)]
    pub page: Option<PageOut>,
}

/// The `structuredContent` of `fetch_url`.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
#[serde(untagged)]
pub(crate) enum FetchUrlOut {
    Page(PageOut),
    Failure(FailureOut),
}

impl FetchUrlOut {
    pub(crate) fn is_error(&self) -> bool {
        matches!(self, FetchUrlOut::Failure(_))
    }
}
