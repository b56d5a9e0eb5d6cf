//! Gemini and Gopher URLs (and the small protocols': nex, finger, spartan, scroll, gophers,
//! titan, guppy; the one list is [`Scheme::ALL`]): parse, normalize, resolve, percent-encode.
//!
//! Invariants of a parsed [`Url`]: scheme is one of [`Scheme`]; host is lowercase ASCII (IDNA
//! punycode for international names; IPv6 literals kept without brackets); port is explicit
//! (the scheme's default when none); path starts with "/"; dot segments resolved; no userinfo
//! (a `finger://user@host` becomes `finger://host/user`); fragment dropped.
//! `Display` renders the normalized form with the default port elided.
//! Gopher paths keep their dot segments on parse (a selector is opaque); `resolve` removes
//! them for every scheme, as RFC 3986 says.
//! Gemini request limit: the normalized URL is at most 1024 bytes (RFC-ish spec of Gemini).

use std::fmt;

mod destination;
mod display;
mod encode;
mod gopher;
mod parse;
#[cfg(test)]
mod tests;
mod web;

pub use destination::{Destination, destination, opener_may_receive, refused_scheme};
pub use display::display;
use encode::{encode_all, merge_paths, normalize_component, remove_dot_segments};
pub use gopher::gopher_item_url;
pub use web::join_web;

/// Maximum length in bytes of a Gemini request URL (without CRLF).
pub const GEMINI_MAX_URL_BYTES: usize = 1024;
/// Maximum length in bytes of a Gopher selector.
pub const GOPHER_MAX_SELECTOR_BYTES: usize = 1024;
/// Maximum length in bytes of a Finger query (the user part).
pub const FINGER_MAX_QUERY_BYTES: usize = 512;
/// Maximum length in bytes of a Gopher search string.
pub const GOPHER_MAX_SEARCH_BYTES: usize = 256;

/// A URL scheme smolweb knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scheme {
    /// `gemini://`.
    Gemini,
    /// `gopher://`.
    Gopher,
    /// Built-in pages (`about:home`, `about:help`, ...): host empty, port 0, path = the name.
    About,
    /// Web pages, fetched by `net::http` and shown converted (the reader view).
    Http,
    /// `https://`.
    Https,
    /// `nex://`: plain TCP, the path and a newline out, the body back until close.
    Nex,
    /// `finger://` (RFC 1288): plain TCP, a user query out, text back until close.
    Finger,
    /// `spartan://`: plain TCP, `host path length` and a data block out, `status meta` back.
    Spartan,
    /// `scroll://`: TLS with TOFU, the absolute URL and languages out, a Gemini-like answer
    /// with author, published and modified lines before the body.
    Scroll,
    /// `gophers://`: Gopher over TLS with TOFU (no formal spec; as the clients that speak it).
    Gophers,
    /// `titan://`: uploads over Gemini's TLS (the answer is a Gemini answer).
    Titan,
    /// `guppy://` (spec v0.4.1): UDP, the URL out in one datagram, numbered packets back, each
    /// acknowledged.
    Guppy,
}

impl Scheme {
    /// The scheme's name, lowercase (`gemini`, `gopher`, `about`, `http`, `https`).
    pub fn as_str(self) -> &'static str {
        match self {
            Scheme::Gemini => "gemini",
            Scheme::Gopher => "gopher",
            Scheme::About => "about",
            Scheme::Http => "http",
            Scheme::Https => "https",
            Scheme::Nex => "nex",
            Scheme::Finger => "finger",
            Scheme::Spartan => "spartan",
            Scheme::Scroll => "scroll",
            Scheme::Gophers => "gophers",
            Scheme::Titan => "titan",
            Scheme::Guppy => "guppy",
        }
    }
    /// Every scheme smolweb knows: the one list. The parser, the link rule
    /// ([`destination`]), the faces' words for a link that leaves, and the client's table of
    /// protocols all read it, so a scheme added here (and to the client's table, which the
    /// compiler asks for) is known everywhere.
    pub const ALL: [Scheme; 12] = [
        Scheme::Gemini,
        Scheme::Gopher,
        Scheme::About,
        Scheme::Http,
        Scheme::Https,
        Scheme::Nex,
        Scheme::Finger,
        Scheme::Spartan,
        Scheme::Scroll,
        Scheme::Gophers,
        Scheme::Titan,
        Scheme::Guppy,
    ];
    /// The scheme named `name` (any case), when smolweb knows it.
    pub fn from_name(name: &str) -> Option<Scheme> {
        Scheme::ALL
            .into_iter()
            .find(|s| s.as_str().eq_ignore_ascii_case(name))
    }
    /// May a link lead here (followed, numbered, offered)? Every scheme but Titan: following a
    /// link never uploads.
    pub fn is_followed(self) -> bool {
        self != Scheme::Titan
    }
    /// Is this the web (http, https), fetched by the web reader rather than a capsule fetcher?
    pub fn is_web(self) -> bool {
        matches!(self, Scheme::Http | Scheme::Https)
    }
    /// Does this scheme run over TLS (server certificates judged by TOFU, or by the web's
    /// certificate authorities for https)?
    pub fn is_tls(self) -> bool {
        matches!(
            self,
            Scheme::Gemini | Scheme::Https | Scheme::Scroll | Scheme::Gophers | Scheme::Titan
        )
    }
    /// Is this one of the small protocols beside Gemini and Gopher (nex, finger, spartan,
    /// scroll, gophers, guppy), which the agent fetches with `smallnet_fetch`?
    pub fn is_small_net(self) -> bool {
        matches!(
            self,
            Scheme::Nex
                | Scheme::Finger
                | Scheme::Spartan
                | Scheme::Scroll
                | Scheme::Gophers
                | Scheme::Guppy
        )
    }
    /// Does a request of this scheme carry an answer to a prompt (Gemini's, Scroll's and
    /// Guppy's query, Spartan's data block)?
    pub fn takes_input(self) -> bool {
        matches!(
            self,
            Scheme::Gemini | Scheme::Spartan | Scheme::Scroll | Scheme::Guppy
        )
    }
    /// The port used when a URL gives none (1965, 70, 80, 443; nex 1900, finger 79, spartan
    /// 300, scroll 5699, gophers 70 as curl and the TLS-aware Gopher servers use it, titan
    /// 1965, guppy 6775; 0 for about:).
    pub fn default_port(self) -> u16 {
        match self {
            Scheme::Gemini => 1965,
            Scheme::Gopher => 70,
            Scheme::About => 0,
            Scheme::Http => 80,
            Scheme::Https => 443,
            Scheme::Nex => 1900,
            Scheme::Finger => 79,
            Scheme::Spartan => 300,
            Scheme::Scroll => 5699,
            Scheme::Gophers => 70,
            Scheme::Titan => 1965,
            Scheme::Guppy => 6775,
        }
    }
}

/// Why a URL cannot be parsed or used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UrlError {
    /// The input is empty (or only whitespace).
    #[error("empty URL")]
    Empty,
    /// The input has no scheme, so it is not absolute.
    #[error("not an absolute URL: {0}")]
    NotAbsolute(String),
    /// The scheme is not one smolweb fetches.
    #[error("unsupported scheme '{0}' ({list} URLs can be opened)", list = openable())]
    UnsupportedScheme(String),
    /// The URL has no `//` authority.
    #[error("URL has no host")]
    MissingHost,
    /// The host is not a valid domain name or IP literal.
    #[error("invalid host '{0}'")]
    InvalidHost(String),
    /// The port is not a valid port number.
    #[error("invalid port '{0}'")]
    InvalidPort(String),
    /// The URL carries user information (`user@host`), which is refused.
    #[error("URLs with user information (user@host) are refused")]
    Userinfo,
    /// The URL or one of its parts is longer than its limit.
    #[error("URL is {len} bytes; the limit is {limit}")]
    TooLong {
        /// The length, in bytes.
        len: usize,
        /// The limit, in bytes.
        limit: usize,
    },
    /// A CR, LF, TAB or NUL appears in the named part.
    #[error("control characters (CR, LF, TAB or NUL) are not allowed in {0}")]
    ControlCharacter(&'static str),
    /// The URL is malformed in another way (such as `about:` without a name).
    #[error("invalid URL: {0}")]
    Invalid(String),
}

/// The schemes a URL may name, for messages: "gemini, gopher, ... and titan" (about: is a
/// built-in page, not named).
fn openable() -> String {
    let names: Vec<&str> = Scheme::ALL
        .iter()
        .filter(|s| **s != Scheme::About)
        .map(|s| s.as_str())
        .collect();
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => names.concat(),
    }
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
    /// The host to connect to.
    pub host: String,
    /// The port to connect to.
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
        parse::parse_absolute(input)
    }

    /// The scheme.
    pub fn scheme(&self) -> Scheme {
        self.scheme
    }
    /// The host, normalized (empty for about: URLs).
    pub fn host(&self) -> &str {
        &self.host
    }
    /// The port (the scheme's default when the URL gives none; 0 for about: URLs).
    pub fn port(&self) -> u16 {
        self.port
    }
    /// The path; it starts with "/" (for about: URLs it is the page name).
    pub fn path(&self) -> &str {
        &self.path
    }
    /// The raw (percent-encoded) query without the `?`, when there is one.
    pub fn query(&self) -> Option<&str> {
        self.query.as_deref()
    }

    /// The normalized URL without its query (safe to log or echo: a query may hold a secret).
    pub fn without_query(&self) -> String {
        let mut out = String::with_capacity(self.host.len() + self.path.len() + 16);
        self.write_base(&mut out);
        out
    }

    /// A copy with `answer` percent-encoded as the query (replacing any existing query).
    pub fn with_input(&self, answer: &str) -> Url {
        Url {
            query: Some(encode_all(answer)),
            ..self.clone()
        }
    }

    /// Resolve a (possibly relative) reference against this URL. Returns the absolute URL as a
    /// string, because a link may point to another scheme (https:, mailto:, ...).
    pub fn resolve(&self, reference: &str) -> Result<String, UrlError> {
        let reference = reference.trim();
        if let Some(scheme) = parse::scheme_of(reference) {
            return match scheme.to_ascii_lowercase().as_str() {
                "http" | "https" => Ok(reference.to_string()),
                s if Scheme::from_name(s).is_some() => Url::parse(reference).map(|u| u.to_string()),
                _ => Ok(reference.to_string()),
            };
        }
        if self.scheme == Scheme::About {
            return Err(UrlError::NotAbsolute(reference.to_string()));
        }
        self.resolve_relative(reference)
    }

    /// RFC 3986 section 5.2.2 for a reference without a scheme. Same-host references are built
    /// from this URL's normalized parts (no second host normalization); the output is what
    /// `Url::parse` would make of it.
    fn resolve_relative(&self, reference: &str) -> Result<String, UrlError> {
        let reference = reference.split('#').next().unwrap_or("");
        if reference.starts_with("//") {
            return Url::parse(&format!("{}:{}", self.scheme.as_str(), reference))
                .map(|u| u.to_string());
        }
        if reference.contains(['\r', '\n', '\t', '\0']) {
            return Err(UrlError::ControlCharacter("a URL"));
        }
        let (rpath, rquery) = match reference.split_once('?') {
            Some((p, q)) => (p, Some(normalize_component(q, true))),
            None => (reference, None),
        };
        let rpath = normalize_component(rpath, false);
        let (path, query) = if rpath.is_empty() {
            (self.path.clone(), rquery.or_else(|| self.query.clone()))
        } else if rpath.starts_with('/') {
            (remove_dot_segments(&rpath), rquery)
        } else {
            (
                remove_dot_segments(&merge_paths(&self.path, &rpath)),
                rquery,
            )
        };
        let mut out = String::with_capacity(self.host.len() + path.len() + 24);
        self.write_authority(&mut out);
        out.push_str(&path);
        if let Some(q) = query {
            out.push('?');
            out.push_str(&q);
        }
        Ok(out)
    }

    /// For gemini:// URLs: the request line body (normalized URL, no CRLF), checked against
    /// [`GEMINI_MAX_URL_BYTES`].
    pub fn gemini_request(&self) -> Result<String, UrlError> {
        if self.scheme != Scheme::Gemini {
            return Err(UrlError::UnsupportedScheme(self.scheme.as_str().into()));
        }
        let s = self.to_string();
        if s.len() > GEMINI_MAX_URL_BYTES {
            return Err(UrlError::TooLong {
                len: s.len(),
                limit: GEMINI_MAX_URL_BYTES,
            });
        }
        Ok(s)
    }

    /// For gopher:// URLs: the item type, selector and search of RFC 4266.
    pub fn gopher_target(&self) -> Result<GopherTarget, UrlError> {
        gopher::target(self)
    }

    /// For finger:// URLs: the query line's user part (percent-decoded path without its
    /// leading `/`; `finger://user@host` was turned into `finger://host/user` on parse), and
    /// whether it asks the server to forward (`user@otherhost`, RFC 1288's `{Q2}`).
    pub fn finger_query(&self) -> Result<(String, bool), UrlError> {
        if self.scheme != Scheme::Finger {
            return Err(UrlError::UnsupportedScheme(self.scheme.as_str().into()));
        }
        let raw = encode::decode_bytes(self.path.strip_prefix('/').unwrap_or(&self.path));
        let user = String::from_utf8(raw)
            .map_err(|_| UrlError::Invalid("a finger query that is not UTF-8".into()))?;
        if user.contains(['\r', '\n', '\t', '\0']) {
            return Err(UrlError::ControlCharacter("a finger query"));
        }
        if user.len() > FINGER_MAX_QUERY_BYTES {
            return Err(UrlError::TooLong {
                len: user.len(),
                limit: FINGER_MAX_QUERY_BYTES,
            });
        }
        let forward = user.contains('@');
        Ok((user, forward))
    }

    /// The path percent-decoded (lossy for bytes that are not UTF-8): what Nex and Spartan
    /// send on their request lines.
    pub fn decoded_path(&self) -> String {
        encode::decode_lossy(&self.path)
    }

    /// A copy on another scheme with the same host, port, path and query (Titan's `gemini://`
    /// twin, for the identity scope and the TOFU pin).
    pub fn with_scheme(&self, scheme: Scheme) -> Url {
        Url {
            scheme,
            ..self.clone()
        }
    }

    /// The parent directory URL ("go up"), or None at the root.
    pub fn parent(&self) -> Option<Url> {
        if self.scheme == Scheme::About || self.path == "/" {
            return None;
        }
        let trimmed = self.path.strip_suffix('/').unwrap_or(&self.path);
        let cut = trimmed.rfind('/').map_or(0, |i| i + 1);
        let path = if cut == 0 { "/" } else { &trimmed[..cut] };
        Some(Url {
            path: path.to_string(),
            query: None,
            ..self.clone()
        })
    }

    /// The root URL of this host ("/").
    pub fn root(&self) -> Url {
        if self.scheme == Scheme::About {
            return self.clone();
        }
        Url {
            path: "/".into(),
            query: None,
            ..self.clone()
        }
    }

    /// `scheme://host[:port]` (or `about:`), the default port elided.
    fn write_authority(&self, out: &mut String) {
        out.push_str(self.scheme.as_str());
        if self.scheme == Scheme::About {
            out.push(':');
            return;
        }
        out.push_str("://");
        if self.host.contains(':') {
            out.push('[');
            out.push_str(&self.host);
            out.push(']');
        } else {
            out.push_str(&self.host);
        }
        if self.port != self.scheme.default_port() {
            out.push(':');
            out.push_str(&self.port.to_string());
        }
    }

    fn write_base(&self, out: &mut String) {
        self.write_authority(out);
        out.push_str(&self.path);
    }
}

impl fmt::Display for Url {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = String::with_capacity(self.host.len() + self.path.len() + 16);
        self.write_base(&mut out);
        if let Some(q) = &self.query {
            out.push('?');
            out.push_str(q);
        }
        f.write_str(&out)
    }
}

impl std::str::FromStr for Url {
    type Err = UrlError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Url::parse(s)
    }
}

/// A URL string without its query: everything from the first `?` on is dropped (a fragment
/// after the query goes with it). The one form for URL text that may not parse but must be
/// shown, stored or logged without a secret (history, request info, status lines); a parsed
/// [`Url`] has [`Url::without_query`].
pub fn strip_query(url: &str) -> &str {
    url.split_once('?').map_or(url, |(base, _)| base)
}

/// The one host normalizer: every path that names a host (pins, allow lists, identities'
/// scopes, commands) turns what was typed into the form a parsed [`Url`] carries, so a stored
/// host is the one the next fetch looks up. Accepts a registered name (IDNA-mapped:
/// lowercase, punycode; one final dot dropped) or an IP literal (IPv6 with or without
/// brackets, kept without them). Refuses a scheme (`gemini://host`), a port (`host:1966`,
/// `[::1]:1966`), a path, a query, user information, spaces and control characters: a
/// caller that takes a port takes it apart (see [`host_and_port`]).
pub fn normalize_host(input: &str) -> Result<String, UrlError> {
    let s = input.trim();
    let bad = |why: &str| UrlError::InvalidHost(format!("{s} ({why})"));
    if s.is_empty() {
        return Err(UrlError::MissingHost);
    }
    if s.chars().any(|c| c.is_control() || c.is_whitespace()) {
        return Err(UrlError::ControlCharacter("a host"));
    }
    if s.contains("://") || parse::scheme_of(s).is_some_and(|sc| s[sc.len() + 1..].is_empty()) {
        return Err(bad("a host, not a URL: leave out the scheme"));
    }
    if s.contains(['/', '?', '#']) {
        return Err(bad("a host, not a URL: leave out the path"));
    }
    if s.contains('@') {
        return Err(UrlError::Userinfo);
    }
    if let Some(inner) = s.strip_prefix('[') {
        return match inner.strip_suffix(']') {
            Some(lit) => parse::ipv6_host(lit),
            None if inner.contains("]:") => Err(bad("a host without a port")),
            None => Err(bad("unclosed '['")),
        };
    }
    if let Ok(v6) = s.parse::<::core::net::Ipv6Addr>() {
        return Ok(v6.to_string());
    }
    if s.contains(':') {
        return Err(bad("a host without a port"));
    }
    parse::domain_host(s)
}

/// `HOST[:PORT]` as typed on a command line (`example.org`, `example.org:1966`, `[::1]:1966`,
/// `::1`): the host through [`normalize_host`], the port checked, `default_port` when none.
/// A scheme or a path is refused, as in [`normalize_host`].
pub fn host_and_port(input: &str, default_port: u16) -> Result<(String, u16), UrlError> {
    let s = input.trim();
    let (host, port) = if let Some(inner) = s.strip_prefix('[') {
        match inner.split_once("]:") {
            Some((lit, port)) => (&s[..lit.len() + 2], Some(port)),
            None => (s, None),
        }
    } else if s.parse::<::core::net::Ipv6Addr>().is_ok() {
        (s, None)
    } else {
        match s.rsplit_once(':') {
            Some((h, p)) if !h.contains(':') && !p.contains('/') => (h, Some(p)),
            _ => (s, None),
        }
    };
    let port = match port {
        Some(p) => parse::parse_port(p)?,
        None => default_port,
    };
    Ok((normalize_host(host)?, port))
}

/// Parse what a human types in an address bar: a full URL as [`Url::parse`]; `about:NAME`; or
/// a bare `host[:port][/path]`, taken as gemini:// unless the host starts with "gopher.".
pub fn parse_user_input(s: &str) -> Result<Url, UrlError> {
    let s = s.trim();
    if s.is_empty() {
        return Err(UrlError::Empty);
    }
    if let Some(scheme) = parse::scheme_of(s) {
        let after = &s[scheme.len() + 1..];
        let looks_like_port = after.starts_with(|c: char| c.is_ascii_digit());
        if !looks_like_port || s.contains("://") {
            return Url::parse(s);
        }
    }
    let bare = s.strip_prefix("//").unwrap_or(s);
    let gopher_host = bare
        .get(..7)
        .is_some_and(|p| p.eq_ignore_ascii_case("gopher."));
    let scheme = if gopher_host { "gopher" } else { "gemini" };
    Url::parse(&format!("{scheme}://{bare}"))
}

/// Percent-decode a URL component into its bytes (an invalid `%` sequence is kept as is).
pub fn percent_decode(s: &str) -> Vec<u8> {
    encode::decode_bytes(s)
}

/// Percent-encode a string for use as a Gemini query or gopher selector component
/// (everything but RFC 3986 unreserved characters is encoded).
pub fn percent_encode(s: &str) -> String {
    encode_all(s)
}
