//! [`FetchError`]: why a capsule fetch gave no answer, one documented variant per failure, each
//! mapping to the contract's [`ErrorCode`]. Failures with several causes carry a sub-enum
//! ([`RequestError`], [`ProtocolError`], [`TlsError`], [`ClientCertError`],
//! [`CertStoreError`], [`InternalError`], [`BlockReason`], [`DnsError`], [`ProxyError`]) and keep their
//! source (an `io::Error`, a rustls error, a store error, a URL error) behind an `Arc`, so a
//! failure clones with its outcome. Text is kept only where another party wrote it (a capsule's
//! redirect target, a host's answer) or where it is data (a host, a path, a URL).
//! Messages name hosts and paths, never a query.

use crate::guard::AddressClass;
use crate::http::WebError;
use smolweb_core::code::ErrorCode;
use smolweb_core::response::HeaderError;
use smolweb_core::url::UrlError;
use smolweb_store::StoreError;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

/// A pinned certificate that the server no longer presents (TOFU refused the connection):
/// what the warning page shows and what "trust once" and "trust and save" act on.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "the certificate of {host}:{port} changed: pinned {pinned} (valid until {pinned_not_after}), presented {presented} (valid until {presented_not_after})"
)]
pub struct CertChange {
    /// The host, as the URL named it.
    pub host: String,
    /// The port.
    pub port: u16,
    /// Fingerprint of the pinned certificate.
    pub pinned: String,
    /// Fingerprint of the certificate presented now.
    pub presented: String,
    /// Expiry of the pinned certificate (RFC 3339, or "unknown").
    pub pinned_not_after: String,
    /// Expiry of the certificate presented now (RFC 3339).
    pub presented_not_after: String,
}

/// Why a fetch gave no answer; [`FetchError::code`] maps each to the MCP contract's error code.
#[derive(Debug, Clone, thiserror::Error)]
pub enum FetchError {
    /// The URL or the options cannot make a request; nothing was sent.
    #[error("invalid request: {0}")]
    InvalidRequest(#[from] RequestError),
    /// A Gopher item type that is a session, not a document (the type character).
    #[error("gopher item type '{0}' cannot be fetched (telnet/CSO sessions)")]
    NotFetchable(char),
    /// The address guard refused the destination.
    #[error("destination {host} is blocked: {reason}")]
    Blocked {
        /// The host asked for.
        host: String,
        /// Which rule refused it.
        reason: BlockReason,
    },
    /// The host's robots.txt disallows the path for our user agents.
    #[error("robots.txt of {host} disallows {path}")]
    BlockedByRobots {
        /// The host.
        host: String,
        /// The path (Gemini) or selector (Gopher) refused.
        path: String,
    },
    /// The host's robots.txt answered with a temporary failure; try again later.
    #[error("robots.txt of {host} is temporarily unavailable")]
    RobotsUnavailable {
        /// The host.
        host: String,
    },
    /// The host name did not resolve.
    #[error("cannot resolve {host}: {reason}")]
    Dns {
        /// The host name.
        host: String,
        /// The resolver's failure.
        #[source]
        reason: DnsError,
    },
    /// No connection could be made, or it broke (the operating system's error kept).
    #[error("cannot connect to {host}:{port}: {}", crate::io_words(source))]
    Connection {
        /// The host.
        host: String,
        /// The port.
        port: u16,
        /// The socket error.
        #[source]
        source: Arc<std::io::Error>,
    },
    /// The SOCKS5 proxy of `[network] socks5` did not carry the request (its address is the
    /// person's config, never a destination's).
    #[error("through the SOCKS5 proxy {proxy}: {reason}")]
    Proxy {
        /// The proxy's address.
        proxy: SocketAddr,
        /// What went wrong there.
        #[source]
        reason: ProxyError,
    },
    /// The request's whole budget ran out (the budget it had).
    #[error("timed out after {}", smolweb_core::text::human_duration(*.0))]
    Timeout(Duration),
    /// The TLS handshake or the encrypted stream failed.
    #[error("TLS error: {0}")]
    Tls(#[from] TlsError),
    /// The server's answer breaks the protocol (a bad header, a cut answer).
    #[error("protocol error: {0}")]
    Protocol(#[from] ProtocolError),
    /// The body went past the size limit.
    #[error("response larger than the limit of {limit} bytes")]
    TooLarge {
        /// The limit in bytes.
        limit: u64,
    },
    /// Gemini 44: the capsule asks us to wait.
    #[error("slow down: the host asks to wait {retry_after_seconds} s")]
    SlowDown {
        /// How long it asked to wait, in seconds.
        retry_after_seconds: u64,
    },
    /// TOFU refused: the pinned certificate is still valid and another one was presented.
    #[error("{change}")]
    CertificateChanged {
        /// Both certificates, for the warning and the "trust" choices.
        change: Box<CertChange>,
    },
    /// The presented certificate has expired (only when the policy refuses those).
    #[error("the certificate of {host} expired on {not_after}")]
    CertificateExpired {
        /// The host.
        host: String,
        /// The expiry, RFC 3339.
        not_after: String,
    },
    /// The presented certificate is not valid yet.
    #[error("the certificate of {host} is not valid before {not_before}")]
    CertificateNotYetValid {
        /// The host.
        host: String,
        /// The start of validity, RFC 3339.
        not_before: String,
    },
    /// The pins or the identities could not be read, so no certificate can be judged or
    /// presented.
    #[error("the certificate store is unavailable: {0}")]
    CertificateStoreUnavailable(#[from] CertStoreError),
    /// The client identity asked for cannot be presented.
    #[error("client certificate refused: {0}")]
    ClientCertRefused(#[from] ClientCertError),
    /// Another store the answer needed (bookmarks, history, subscriptions, the offline
    /// copies) could not be read; its code is the store's ([`store_code`]).
    #[error("{0}")]
    Store(#[source] Arc<StoreError>),
    /// Working offline: no request leaves, and `url` has no offline copy (the URL without
    /// its query).
    #[error("working offline: {url} is not kept offline")]
    Offline {
        /// The page asked for, without its query.
        url: String,
    },
    /// A web page could not be fetched (the web's own failure, for the faces that read
    /// every page as an outcome; `fetch_url` answers the web's codes itself).
    #[error("{0}")]
    Web(#[source] Box<WebError>),
    /// A bug or an impossible state on our side.
    #[error("internal error: {0}")]
    Internal(#[from] InternalError),
}

/// Why a request cannot be made: nothing was sent.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RequestError {
    /// The URL does not parse or cannot be used.
    #[error(transparent)]
    Url(#[from] UrlError),
    /// The URL's scheme is not the one this request is made of.
    #[error("not a {expected}:// URL: {url}")]
    WrongScheme {
        /// The scheme the request needs.
        expected: &'static str,
        /// The URL given, without its query.
        url: String,
    },
    /// A part of the request is longer than its protocol allows.
    #[error("the {what} is {len} bytes; the limit is {limit}")]
    TooLong {
        /// Which part (`gopher selector`, `nex path`, ...).
        what: &'static str,
        /// Its length in bytes.
        len: usize,
        /// The limit in bytes.
        limit: usize,
    },
    /// A part of the request breaks a rule of its protocol (a character that would end or
    /// split the request line, an empty field).
    #[error("the {what} must {rule}")]
    Field {
        /// Which part.
        what: &'static str,
        /// The rule it breaks.
        rule: &'static str,
    },
    /// A finger query that asks the host to forward it to another host, which only the person
    /// may send (never an agent).
    #[error(
        "the finger query '{query}' asks {host} to forward it to another host, which is refused unless typed by the person"
    )]
    FingerForward {
        /// The query.
        query: String,
        /// The host it was sent to.
        host: String,
    },
    /// A titan:// URL that already carries `;` parameters.
    #[error("the titan URL already carries ';' parameters; give it without them")]
    TitanParameters,
    /// A titan:// URL opened as a page: it uploads.
    #[error("a titan:// URL uploads: open its gemini:// page, or upload to it")]
    TitanOpened,
    /// A built-in page that does not exist (its name).
    #[error("unknown built-in page about:{0}")]
    UnknownPage(String),
    /// A host that TLS cannot name (SNI).
    #[error("invalid host name '{0}'")]
    HostName(String),
}

/// Why the address guard refused a destination.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BlockReason {
    /// An agent never reaches this port: a service a line of text could talk to.
    #[error("port {0} belongs to a service agents may not reach")]
    Port(u16),
    /// The host names a cloud metadata service.
    #[error(
        "it names a cloud metadata service, which smolweb never connects to, whatever the configuration"
    )]
    MetadataName,
    /// The host resolves to an address this request may not reach.
    #[error("{}", address_refusal(*ip, *class, *private_allowed))]
    Address {
        /// The address.
        ip: IpAddr,
        /// Its class.
        class: AddressClass,
        /// Private addresses were allowed (so only an allow-list entry would open this one).
        private_allowed: bool,
    },
    /// Under the SOCKS5 proxy (no lookup here): the host is a name that stands for a local
    /// host (`localhost`, `.local`, `.home.arpa`, `.internal`), which this request may not reach.
    #[error("{}", local_name_refusal(*class))]
    LocalName {
        /// The class the name stands for (loopback, or private for a local network's names).
        class: AddressClass,
    },
    /// Under the SOCKS5 proxy: Guppy travels over UDP, which the proxy does not carry.
    #[error(
        "guppy:// travels over UDP, which smolweb does not send through the SOCKS5 proxy; it is \
         not sent around the proxy either, which would show your address and ask DNS directly"
    )]
    UdpThroughProxy,
}

fn local_name_refusal(class: AddressClass) -> String {
    format!(
        "it names a {} host; under the SOCKS5 proxy smolweb cannot see the address the proxy \
         would resolve it to, so it judges the name (name the host in network.allowed_hosts to \
         reach it)",
        class.label()
    )
}

/// Why the SOCKS5 proxy did not carry a request.
#[derive(Debug, Clone, thiserror::Error)]
pub enum ProxyError {
    /// The proxy itself could not be reached (the socket error kept).
    #[error("the proxy cannot be reached: {}", crate::io_words(.0))]
    Unreachable(#[source] Arc<std::io::Error>),
    /// The connection to the proxy broke during the SOCKS5 exchange.
    #[error("the connection to the proxy broke: {}", crate::io_words(.0))]
    Broke(#[source] Arc<std::io::Error>),
    /// What answered is not a SOCKS5 proxy.
    #[error("it did not answer as a SOCKS5 proxy")]
    NotSocks5,
    /// The proxy wants a user name and password, which smolweb does not send.
    #[error("it asks for a user name and password, which smolweb does not send")]
    AuthRequired,
    /// The proxy could not open the destination (its reply code, RFC 1928).
    #[error("it could not open {host}:{port}: {}", crate::socks::reply_words(*reply))]
    Refused {
        /// The host asked for.
        host: String,
        /// The port.
        port: u16,
        /// The reply code (1 to 8, or another the proxy sent).
        reply: u8,
    },
}

fn address_refusal(ip: IpAddr, class: AddressClass, private_allowed: bool) -> String {
    let what = format!("it resolves to {ip}, a {} address", class.label());
    if class.always_refused() {
        format!("{what}, which smolweb never connects to, whatever the configuration")
    } else if private_allowed {
        format!(
            "{what}; allowing private addresses opens only loopback, RFC 1918 and unique-local \
             ones (name the host in network.allowed_hosts to reach it)"
        )
    } else {
        what
    }
}

/// Why a host name did not resolve.
#[derive(Debug, Clone, thiserror::Error)]
pub enum DnsError {
    /// The resolver failed (its error kept).
    #[error("{0}")]
    Lookup(#[source] Arc<std::io::Error>),
    /// The name resolved to no address.
    #[error("no addresses")]
    NoAddress,
}

/// Why the TLS handshake or stream failed.
#[derive(Debug, Clone, thiserror::Error)]
pub enum TlsError {
    /// The server answered, but not with TLS: another protocol listens on that port.
    #[error("{host}:{port} did not answer with TLS: {}", heard.words(host, *port))]
    NotTls {
        /// The host.
        host: String,
        /// The port.
        port: u16,
        /// What its first bytes look like.
        heard: Heard,
    },
    /// rustls refused the handshake or a record.
    #[error("{0}")]
    Rustls(#[source] rustls::Error),
    /// The server closed the connection during the handshake.
    #[error("the server closed the connection during the TLS handshake")]
    ClosedInHandshake,
    /// The encrypted stream could not be read (the error kept).
    #[error("{0}")]
    Stream(#[source] Arc<std::io::Error>),
    /// The handshake ended without a server certificate.
    #[error("the server presented no certificate")]
    NoCertificate,
    /// The server certificate does not parse as X.509.
    #[error("cannot parse the server certificate: {0}")]
    BadCertificate(#[source] Arc<dyn std::error::Error + Send + Sync>),
}

/// What a server that did not answer with TLS sent first, as far as it tells what it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Heard {
    /// An HTTP status line.
    Http,
    /// A Gopher menu or error line.
    Gopher,
    /// Something else (plain text, or nothing readable).
    Other,
}

impl Heard {
    /// Judge a server's first bytes.
    pub fn of(first: &[u8]) -> Heard {
        let gopher_line = first
            .first()
            .is_some_and(|b| matches!(b, b'0' | b'1' | b'3' | b'i' | b'h' | b'7' | b'9'))
            && first.contains(&b'\t');
        if first.starts_with(b"HTTP/") {
            Heard::Http
        } else if gopher_line {
            Heard::Gopher
        } else {
            Heard::Other
        }
    }

    fn words(self, host: &str, port: u16) -> String {
        let host = if host.contains(':') {
            format!("[{host}]")
        } else {
            host.to_string()
        };
        match self {
            Heard::Http => format!("a web server (HTTP) answered; try http://{host}:{port}/"),
            Heard::Gopher => format!("a Gopher server answered; try gopher://{host}:{port}/"),
            Heard::Other => format!(
                "another protocol is served there (perhaps Gopher, gopher://{host}:{port}/, or \
                 the web, http://{host}:{port}/)"
            ),
        }
    }
}

/// Why the server's answer breaks its protocol.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProtocolError {
    /// A Gemini header (or a Scroll or Titan one) that does not parse.
    #[error("bad response header: {0}")]
    Header(#[from] HeaderError),
    /// A Gemini header longer than its limit.
    #[error("response header longer than {limit} bytes")]
    HeaderTooLong {
        /// The limit in bytes.
        limit: usize,
    },
    /// No CRLF where the header must end.
    #[error("no CRLF within the first {limit} bytes of the response header")]
    HeaderUnterminated {
        /// The limit in bytes.
        limit: usize,
    },
    /// The server closed the connection before any answer.
    #[error("the server closed the connection without answering")]
    NoAnswer,
    /// The server closed the connection inside a line that had to end first.
    #[error("the server closed the connection inside the {0}")]
    ClosedInside(&'static str),
    /// A line longer than its limit.
    #[error("the {what} is longer than {limit} bytes")]
    LineTooLong {
        /// Which line.
        what: &'static str,
        /// The limit in bytes.
        limit: usize,
    },
    /// A Spartan status line that breaks its form (which rule).
    #[error("bad spartan status line: {0}")]
    SpartanStatus(&'static str),
    /// A Spartan redirect that does not name a path on the same host (the capsule's text).
    #[error("spartan status 3 must name a path on the same host, not '{0}'")]
    SpartanRedirect(String),
    /// A redirect whose target cannot be resolved.
    #[error("status {status} with an unusable redirect target: {source}")]
    RedirectTarget {
        /// The status.
        status: u8,
        /// Why the target is unusable.
        source: UrlError,
    },
    /// A redirect to a scheme smolweb does not follow (the target's scheme).
    #[error("status {status} redirects to a {scheme}: URL, which is not followed")]
    RedirectScheme {
        /// The status.
        status: u8,
        /// The target's scheme.
        scheme: String,
    },
    /// Redirects that come back to a URL already visited (the URL, without its query).
    #[error("redirect loop: {0}")]
    RedirectLoop(String),
    /// A Guppy status that the protocol does not define (0, 2 or 5).
    #[error(
        "guppy status {0} is not defined (1 asks for input, 3 redirects, 4 is an error, 6 and up number a document)"
    )]
    GuppyStatus(u64),
    /// Every datagram from the Guppy server was something other than a Guppy packet.
    #[error("the server answered, but not with Guppy packets (a number, a space and a meta, CRLF)")]
    NotGuppy,
    /// A Titan capsule answered success before the whole upload was sent.
    #[error("the capsule answered success before the whole upload was sent")]
    EarlySuccess,
}

/// Why the client identity asked for cannot be presented.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ClientCertError {
    /// No identity has this fingerprint.
    #[error("no client identity with fingerprint {0}")]
    Unknown(String),
    /// The identity is the person's only (`agent_use = false`).
    #[error("the identity '{0}' is reserved for the human (agent_use = false)")]
    HumanOnly(String),
    /// The server does not speak TLS 1.3, and identities are sent over TLS 1.3 only.
    #[error(
        "{host}:{port} does not speak TLS 1.3, and a client certificate is only sent over TLS 1.3 (TLS 1.2 would send it unencrypted); allow client certificates over TLS 1.2 to send it anyway"
    )]
    NeedsTls13 {
        /// The host.
        host: String,
        /// The port.
        port: u16,
    },
}

/// Why the certificate store (pins, identities) could not be used.
#[derive(Debug, Clone, thiserror::Error)]
pub enum CertStoreError {
    /// A file of the store could not be read or written.
    #[error("{0}")]
    Store(#[source] Arc<StoreError>),
    /// An identity's certificate or key does not load.
    #[error("the {part} of identity {fingerprint} does not load: {source}")]
    KeyMaterial {
        /// The identity.
        fingerprint: String,
        /// Which part ("certificate PEM", "key PEM", "key").
        part: &'static str,
        /// The parser's error.
        source: Arc<dyn std::error::Error + Send + Sync>,
    },
}

impl From<StoreError> for CertStoreError {
    fn from(e: StoreError) -> Self {
        CertStoreError::Store(Arc::new(e))
    }
}

/// A bug or an impossible state on our side.
#[derive(Debug, Clone, thiserror::Error)]
pub enum InternalError {
    /// rustls refused a configuration we built.
    #[error("TLS configuration: {0}")]
    TlsConfig(#[source] rustls::Error),
    /// A transport answered a request with the answer of another kind of request (which).
    #[error("{0} came back for another kind of request")]
    WrongAnswer(&'static str),
}

impl FetchError {
    /// A connection failure to `host:port`.
    pub fn connection(host: &str, port: u16, source: std::io::Error) -> FetchError {
        FetchError::Connection {
            host: host.to_string(),
            port,
            source: Arc::new(source),
        }
    }

    /// A store failure the answer needed (not the certificate store's).
    pub fn store(e: StoreError) -> FetchError {
        FetchError::Store(Arc::new(e))
    }

    /// The contract's error code for this failure.
    pub fn code(&self) -> ErrorCode {
        match self {
            FetchError::InvalidRequest(_) => ErrorCode::InvalidRequest,
            FetchError::NotFetchable(_) => ErrorCode::NotFetchable,
            FetchError::Blocked { .. } => ErrorCode::Blocked,
            FetchError::BlockedByRobots { .. } => ErrorCode::BlockedByRobots,
            FetchError::RobotsUnavailable { .. } => ErrorCode::RobotsUnavailable,
            FetchError::Dns { .. } => ErrorCode::DnsError,
            FetchError::Connection { .. } => ErrorCode::ConnectionError,
            FetchError::Proxy {
                reason: ProxyError::Refused { reply: 2, .. },
                ..
            } => ErrorCode::Blocked,
            FetchError::Proxy { .. } => ErrorCode::ConnectionError,
            FetchError::Timeout(_) => ErrorCode::Timeout,
            FetchError::Tls(_) => ErrorCode::TlsError,
            FetchError::Protocol(_) => ErrorCode::ProtocolError,
            FetchError::TooLarge { .. } => ErrorCode::ResponseTooLarge,
            FetchError::SlowDown { .. } => ErrorCode::SlowDown,
            FetchError::CertificateChanged { .. } => ErrorCode::CertificateChanged,
            FetchError::CertificateExpired { .. } => ErrorCode::CertificateExpired,
            FetchError::CertificateNotYetValid { .. } => ErrorCode::CertificateNotYetValid,
            FetchError::CertificateStoreUnavailable(_) => ErrorCode::CertificateStoreUnavailable,
            FetchError::ClientCertRefused(_) => ErrorCode::ClientCertRefused,
            FetchError::Store(e) => store_code(e),
            FetchError::Offline { .. } => ErrorCode::ConnectionError,
            FetchError::Web(e) => web_code(e),
            FetchError::Internal(_) => ErrorCode::InternalError,
        }
    }

    /// May the same request succeed if tried again later? (The code decides; working offline,
    /// asking again cannot help; a web failure says for itself.)
    pub fn retryable(&self) -> bool {
        match self {
            FetchError::Offline { .. } => false,
            FetchError::Web(e) => e.retryable(),
            other => other.code().retryable(),
        }
    }

    /// Is this a redirect that was refused for where it leads (a scheme smolweb does not
    /// follow, a Spartan redirect off its host, a web redirect away from http and https)?
    /// `smolweb get` exits 8 for it, as for a redirect it does not follow.
    pub fn refused_redirect(&self) -> bool {
        match self {
            FetchError::Protocol(
                ProtocolError::RedirectScheme { .. } | ProtocolError::SpartanRedirect(_),
            ) => true,
            FetchError::Web(e) => matches!(**e, WebError::RedirectRefused(_)),
            _ => false,
        }
    }

    /// Did the network not answer (the name did not resolve, no connection, the budget ran
    /// out), as opposed to an answer, a policy refusal or a TLS failure?
    pub fn network_failed(&self) -> bool {
        match self {
            FetchError::Dns { .. } | FetchError::Connection { .. } | FetchError::Timeout(_) => true,
            FetchError::Proxy { reason, .. } => !matches!(
                reason,
                ProxyError::NotSocks5
                    | ProxyError::AuthRequired
                    | ProxyError::Refused { reply: 2, .. }
            ),
            FetchError::Web(e) => {
                matches!(
                    web_code(e),
                    ErrorCode::DnsError | ErrorCode::ConnectionError | ErrorCode::Timeout
                ) && !matches!(**e, WebError::Offline { .. })
            }
            _ => false,
        }
    }
}

/// The contract code of a store failure: a file that cannot be read or written (or is
/// corrupt, not a regular file, or open to others) is the store being unavailable, which may pass (retryable);
/// a name that is missing or unusable is the request's fault; an existing entry is
/// `CERTIFICATE_EXISTS`; a failed key generation is ours.
pub fn store_code(e: &StoreError) -> ErrorCode {
    match e {
        StoreError::Exists(_) => ErrorCode::CertificateExists,
        StoreError::NotFound(_) | StoreError::Invalid(_) => ErrorCode::InvalidRequest,
        StoreError::Io { .. }
        | StoreError::Corrupt { .. }
        | StoreError::NotRegular { .. }
        | StoreError::Exposed { .. } => ErrorCode::CertificateStoreUnavailable,
        StoreError::Crypto(_) => ErrorCode::InternalError,
    }
}

/// The Gemini-side code nearest to a web failure.
fn web_code(e: &WebError) -> ErrorCode {
    match e {
        WebError::InvalidInput(_) => ErrorCode::InvalidRequest,
        WebError::PolicyRejected { .. } | WebError::RedirectRefused(_) => ErrorCode::Blocked,
        WebError::Dns { .. } => ErrorCode::DnsError,
        WebError::Connection { message, .. } if message.starts_with("TLS") => ErrorCode::TlsError,
        WebError::Connection { .. } | WebError::Offline { .. } => ErrorCode::ConnectionError,
        WebError::Timeout(_) => ErrorCode::Timeout,
        WebError::Redirect(_)
        | WebError::InvalidResponse(_)
        | WebError::Status { .. }
        | WebError::Unsupported { .. }
        | WebError::UnreadablePdf { .. } => ErrorCode::ProtocolError,
        WebError::Internal(_) => ErrorCode::InternalError,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_bytes_say_what_answered() {
        for (first, want) in [
            (&b"HTTP/1.1 400 Bad Request\r\n"[..], Heard::Http),
            (
                b"3'\x16\x03\x01' does not exist\terror.host\t1\r\n",
                Heard::Gopher,
            ),
            (b"iHello\t\terror.host\t1\r\n", Heard::Gopher),
            (b"hello there\n", Heard::Other),
            (b"", Heard::Other),
        ] {
            assert_eq!(Heard::of(first), want, "{first:?}");
        }
        let e = TlsError::NotTls {
            host: "example.org".into(),
            port: 1965,
            heard: Heard::Http,
        };
        assert!(e.to_string().contains("http://example.org:1965/"), "{e}");
    }

    #[test]
    fn store_failures_keep_their_code() {
        let io = StoreError::Io {
            path: "/x/bookmarks".into(),
            source: std::io::Error::from(std::io::ErrorKind::PermissionDenied),
        };
        let e = FetchError::store(io);
        assert_eq!(e.code(), ErrorCode::CertificateStoreUnavailable);
        assert!(e.retryable());
        assert!(
            std::error::Error::source(&e).is_some(),
            "the store error is kept"
        );
        assert!(e.to_string().contains("bookmarks"), "{e}");
        let gone = FetchError::store(StoreError::NotFound("x".into()));
        assert_eq!(gone.code(), ErrorCode::InvalidRequest);
    }
}
