//! Gemini and Gopher URLs: parse, normalize, resolve, percent-encode.
//!
//! Invariants of a parsed [`Url`]: scheme is gemini or gopher; host is lowercase ASCII (IDNA
//! punycode for international names; IPv6 literals kept without brackets); port is explicit
//! (default 1965 / 70); path starts with "/"; dot segments resolved; no userinfo; fragment dropped.
//! `Display` renders the normalized form with the default port elided.
//! Gemini request limit: the normalized URL is at most 1024 bytes (RFC-ish spec of Gemini).

use std::fmt;

/// Maximum length in bytes of a Gemini request URL (without CRLF).
pub const GEMINI_MAX_URL_BYTES: usize = 1024;
/// Maximum length in bytes of a Gopher selector.
pub const GOPHER_MAX_SELECTOR_BYTES: usize = 1024;
/// Maximum length in bytes of a Gopher search string.
pub const GOPHER_MAX_SEARCH_BYTES: usize = 256;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scheme {
    Gemini,
    Gopher,
    /// Built-in pages (`about:home`, `about:help`, ...): host empty, port 0, path = the name.
    About,
}

impl Scheme {
    pub fn as_str(self) -> &'static str {
        match self {
            Scheme::Gemini => "gemini",
            Scheme::Gopher => "gopher",
            Scheme::About => "about",
        }
    }
    pub fn default_port(self) -> u16 {
        match self {
            Scheme::Gemini => 1965,
            Scheme::Gopher => 70,
            Scheme::About => 0,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UrlError {
    #[error("empty URL")]
    Empty,
    #[error("not an absolute URL: {0}")]
    NotAbsolute(String),
    #[error("unsupported scheme '{0}' (only gemini:// and gopher:// can be fetched)")]
    UnsupportedScheme(String),
    #[error("URL has no host")]
    MissingHost,
    #[error("invalid host '{0}'")]
    InvalidHost(String),
    #[error("invalid port '{0}'")]
    InvalidPort(String),
    #[error("URLs with user information (user@host) are refused")]
    Userinfo,
    #[error("URL is {len} bytes; the limit is {limit}")]
    TooLong { len: usize, limit: usize },
    #[error("control characters (CR, LF, TAB or NUL) are not allowed in {0}")]
    ControlCharacter(&'static str),
    #[error("invalid URL: {0}")]
    Invalid(String),
}

/// A normalized absolute gemini:// or gopher:// URL.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Url {
    scheme: Scheme,
    host: String,
    port: u16,
    /// Starts with "/"; percent-encoding kept as normalized.
    path: String,
    /// Raw (percent-encoded) query without the '?'.
    query: Option<String>,
}

/// What a gopher:// URL asks for (RFC 4266): item type, decoded selector, optional search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GopherTarget {
    pub host: String,
    pub port: u16,
    /// Item type character; '1' when the path is empty or "/".
    pub item_type: char,
    /// Percent-decoded selector (may be empty).
    pub selector: String,
    /// Percent-decoded search string (from `%09` in the path, or the `?` query).
    pub search: Option<String>,
    /// True when a search string was present but the type is not '7' (it is not sent).
    pub search_ignored: bool,
}

impl Url {
    /// Parse an absolute gemini://, gopher:// or about: URL and normalize it.
    pub fn parse(input: &str) -> Result<Url, UrlError> {
        let _ = input;
        Err(UrlError::Invalid("not implemented".into()))
    }

    pub fn scheme(&self) -> Scheme {
        self.scheme
    }
    pub fn host(&self) -> &str {
        &self.host
    }
    pub fn port(&self) -> u16 {
        self.port
    }
    pub fn path(&self) -> &str {
        &self.path
    }
    pub fn query(&self) -> Option<&str> {
        self.query.as_deref()
    }

    /// The normalized URL without its query (safe to log or echo: a query may hold a secret).
    pub fn without_query(&self) -> String {
        String::new()
    }

    /// A copy with `answer` percent-encoded as the query (replacing any existing query).
    pub fn with_input(&self, answer: &str) -> Url {
        let _ = answer;
        self.clone()
    }

    /// Resolve a (possibly relative) reference against this URL. Returns the absolute URL as a
    /// string, because a link may point to another scheme (https:, mailto:, ...).
    pub fn resolve(&self, reference: &str) -> Result<String, UrlError> {
        let _ = reference;
        Err(UrlError::Invalid("not implemented".into()))
    }

    /// For gemini:// URLs: the request line body (normalized URL, no CRLF), checked against
    /// [`GEMINI_MAX_URL_BYTES`].
    pub fn gemini_request(&self) -> Result<String, UrlError> {
        Err(UrlError::Invalid("not implemented".into()))
    }

    /// For gopher:// URLs: the item type, selector and search of RFC 4266.
    pub fn gopher_target(&self) -> Result<GopherTarget, UrlError> {
        Err(UrlError::Invalid("not implemented".into()))
    }

    /// The parent directory URL ("go up"), or None at the root.
    pub fn parent(&self) -> Option<Url> {
        None
    }

    /// The root URL of this host ("/").
    pub fn root(&self) -> Url {
        self.clone()
    }
}

impl fmt::Display for Url {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}://{}", self.scheme.as_str(), self.host)
    }
}

impl std::str::FromStr for Url {
    type Err = UrlError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Url::parse(s)
    }
}

/// Percent-encode a string for use as a Gemini query or gopher selector component
/// (everything but RFC 3986 unreserved characters is encoded).
pub fn percent_encode(s: &str) -> String {
    s.to_string()
}

/// Build a gopher:// URL for a menu item (host, port, type, selector).
pub fn gopher_item_url(host: &str, port: u16, item_type: char, selector: &str) -> String {
    let _ = (host, port, item_type, selector);
    String::new()
}
