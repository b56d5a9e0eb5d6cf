//! The network edge: Gemini over TLS (TOFU decided inside the certificate verifier, client
//! certificates by scope, TLS 1.3 only for them by default), Gopher over TCP, the small
//! protocols (Nex, Finger, Spartan over TCP; Scroll, gophers, Titan over the same TLS; Guppy
//! over UDP), one request type for all of them ([`Request`], [`Net::send`]), the address
//! guard, limits and one timeout budget. Every failure is a typed [`FetchError`] that maps to
//! the MCP error codes.

#![warn(missing_docs)]

pub mod cache;
mod error;
pub(crate) mod finger;
pub(crate) mod gemini;
pub(crate) mod gopher;
pub(crate) mod guard;
mod guppy;
pub mod http;
pub(crate) mod nex;
pub mod policy;
mod request;
pub(crate) mod scroll;
pub(crate) mod socks;
pub(crate) mod spartan;
pub mod titan;
pub(crate) mod tls;

pub use error::{
    BlockReason, CertChange, CertStoreError, ClientCertError, DnsError, FetchError, Heard,
    InternalError, ProtocolError, ProxyError, RequestError, TlsError, store_code,
};
pub use guard::AddressClass;
pub use guppy::GuppyResponse;
pub use request::{Request, Response, ScrollResponse, SpartanResponse};

/// The fuzz targets' door to wire parsers that are not part of the API (`fuzz/`). Hidden from
/// the docs; not an API.
#[cfg(feature = "fuzzing")]
#[doc(hidden)]
pub mod fuzzing {
    use crate::{FetchError, NetOptions};
    use smolweb_core::response::Header;
    use smolweb_store::tofu::CertInfo;
    use tokio::io::AsyncRead;

    /// The Gemini response header read from `reader` as a fetch reads it, with the bytes
    /// read past it.
    pub async fn read_header<R: AsyncRead + Unpin>(
        reader: &mut R,
        map_err: impl Fn(std::io::Error) -> FetchError,
    ) -> Result<(Header, Vec<u8>), FetchError> {
        crate::gemini::read_header(reader, map_err).await
    }

    /// Guppy datagrams, in the order given, through the reassembly a fetch uses: the answer
    /// when one came whole, None when more is awaited, or the failure.
    pub fn guppy_datagrams(
        datagrams: &[&[u8]],
        max_body: u64,
    ) -> Result<Option<crate::GuppyResponse>, FetchError> {
        let mut transfer = crate::guppy::Transfer::new(max_body);
        for d in datagrams {
            if let crate::guppy::Step::Done { answer, .. } = transfer.take(d)? {
                return Ok(Some(answer));
            }
        }
        Ok(None)
    }

    /// A server certificate (DER) as the TOFU verifier reads it; None when it does not parse.
    pub fn cert_details(der: &[u8]) -> Option<CertInfo> {
        crate::tls::verifier::cert_details(der).ok()
    }

    /// A Spartan answer read from `reader` as a fetch reads it (the body within `max_body`).
    pub async fn spartan_answer<R: AsyncRead + Unpin>(
        reader: &mut R,
        max_body: u64,
    ) -> Result<crate::SpartanResponse, FetchError> {
        let opts = NetOptions {
            max_body,
            ..NetOptions::default()
        };
        crate::spartan::read_answer(reader, &opts, from_read).await
    }

    /// A Scroll answer read from `reader` as a fetch reads it: the header, the metadata lines
    /// (success only), the body within `max_body` and how it ended.
    pub async fn scroll_answer<R: AsyncRead + Unpin>(
        reader: &mut R,
        max_body: u64,
    ) -> Result<
        (
            Header,
            Option<smolweb_core::page::DocumentMeta>,
            Vec<u8>,
            crate::Ending,
        ),
        FetchError,
    > {
        let opts = NetOptions {
            max_body,
            ..NetOptions::default()
        };
        crate::scroll::read_answer(reader, &opts, from_read).await
    }

    /// The Nex request line for `path` (as sent: without its leading `/`).
    pub fn nex_request_line(path: &str) -> Result<String, FetchError> {
        crate::nex::request_line(path)
    }

    /// The Finger request line for `query`.
    pub fn finger_request_line(query: &str) -> Result<String, FetchError> {
        crate::finger::request_line(query)
    }

    /// A Titan request line for an upload of `size` bytes (the body is never looked at).
    pub fn titan_request_line(
        url: &smolweb_core::url::Url,
        size: usize,
        mime: &str,
        token: Option<&str>,
    ) -> Result<String, FetchError> {
        crate::titan::request_line(&crate::titan::TitanUpload {
            url: url.clone(),
            body: vec![0; size],
            mime: mime.to_string(),
            token: token.map(str::to_string),
        })
    }

    /// A read error of the fuzz targets' in-memory readers (never happens there).
    fn from_read(e: std::io::Error) -> FetchError {
        FetchError::connection("fuzz input", 0, e)
    }
}

pub use smolweb_core::code::ErrorCode;

/// Would a fetch of `host:port` with `opts` pass the address guard? Resolves the host once
/// (the caller bounds the time) and judges every address, as a fetch does before it
/// connects; under the SOCKS5 proxy judges what it can without a lookup, as a fetch does
/// then. Nothing is connected to.
pub async fn check_destination(host: &str, port: u16, opts: &NetOptions) -> Result<(), FetchError> {
    guard::judge(host, port, opts).await
}
pub use smolweb_core::page::Ending;
use std::time::Duration;

/// TOFU state of the server certificate for this fetch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TofuState {
    /// First visit: the certificate was pinned now.
    FirstUse,
    /// The certificate matches its pin.
    Trusted,
    /// The pinned certificate had expired; the new one was pinned per policy.
    ReplacedExpired {
        /// The fingerprint of the expired pin that was replaced.
        previous: String,
    },
    /// The human chose "trust once" for a changed certificate (not saved).
    TrustedOnce,
}

/// TLS facts of a Gemini fetch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TlsInfo {
    /// "TLSv1.3" / "TLSv1.2".
    pub version: String,
    /// IANA cipher suite name.
    pub cipher: String,
    /// `sha256:<hex>` of the server certificate DER.
    pub cert_fingerprint: String,
    /// The server certificate's expiry, RFC 3339.
    pub cert_not_after: String,
    /// What trust-on-first-use decided about the certificate.
    pub tofu: TofuState,
    /// Fingerprint of the client identity presented, if any.
    pub client_cert: Option<String>,
    /// Set when an identity was withheld or sent with a caveat (e.g. TLS 1.2).
    pub client_cert_warning: Option<String>,
    /// Set when the certificate was accepted but its pin could not be saved (disk full):
    /// why. The pin then lasts only as long as this process.
    pub pin_warning: Option<String>,
    /// Web pages only: the trusted root that verified the chain, with its source (e.g.
    /// `ISRG Root X1 (Internet Security Research Group), from the system trust store and the
    /// bundled WebPKI roots`). None for Gemini (trust on first use) or when not known.
    pub root: Option<String>,
}

impl TlsInfo {
    /// The `tofu_warning` text of the MCP contract, when there is something to say.
    pub fn tofu_warning(&self) -> Option<String> {
        if let Some(why) = &self.pin_warning {
            return Some(format!(
                "the server certificate was accepted but its pin could not be saved ({why}); \
                 the next run will treat this host as a first visit again"
            ));
        }
        match &self.tofu {
            TofuState::FirstUse => {
                Some("first visit: the server certificate was pinned (trust on first use)".into())
            }
            TofuState::Trusted => None,
            TofuState::ReplacedExpired { previous } => Some(format!(
                "the pinned certificate {previous} had expired; the new certificate was pinned"
            )),
            TofuState::TrustedOnce => {
                Some("a changed certificate was trusted for this session only".into())
            }
        }
    }
}

/// Which client identity to present.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum IdentityChoice {
    /// The identity whose scope covers the URL (longest prefix), if any.
    #[default]
    Auto,
    /// Present none.
    None,
    /// Present this fingerprint.
    Fingerprint(String),
}

/// Why a request is held back before it is sent (told to [`NetOptions::waits`], for a caller
/// that reports progress: a batch says which of its URLs waits and for what).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Wait {
    /// All of the host's in-flight slots (`network.max_in_flight_per_host`) are taken.
    HostSlot {
        /// The host.
        host: String,
        /// How many requests it may have in flight.
        limit: usize,
    },
    /// All of the process's in-flight slots (`network.max_in_flight`) are taken.
    AnySlot {
        /// How many requests the process may have in flight.
        limit: usize,
    },
    /// The host's next paced turn is `wait` away (`politeness.per_host_interval_ms`, or a 44).
    Paced {
        /// The host.
        host: String,
        /// How long until its turn.
        wait: Duration,
    },
}

/// Where waits are told; a send that finds no receiver is ignored.
pub type WaitNotices = tokio::sync::mpsc::UnboundedSender<Wait>;

/// Tell `notices` (if any) about a wait.
pub fn tell_wait(notices: Option<&WaitNotices>, wait: Wait) {
    if let Some(n) = notices {
        let _ = n.send(wait);
    }
}

/// Per-request knobs (filled by `client` from the config and the face).
#[derive(Clone, Debug)]
pub struct NetOptions {
    /// The whole budget of the request: connect, handshake, header and body.
    pub timeout: Duration,
    /// The most body bytes read; more is [`FetchError::TooLarge`].
    pub max_body: u64,
    /// Let loopback and private (RFC 1918, ULA) addresses through the guard.
    pub allow_private: bool,
    /// Hosts the guard lets through to any address but the never-reached ones.
    pub allowed_hosts: Vec<String>,
    /// An agent's request: identities with agent_use = false are never presented.
    pub for_agent: bool,
    /// Which client identity to present.
    pub identity: IdentityChoice,
    /// Present a client identity over TLS 1.2 too (by default only over TLS 1.3).
    pub allow_client_cert_over_tls12: bool,
    /// Accept this exact changed certificate once (human "trust once"), without saving it.
    pub trust_once: Option<String>,
    /// Receives the count of body bytes read so far (loading indicators).
    pub progress: Option<tokio::sync::watch::Sender<u64>>,
    /// Told when the request waits for a slot or a paced turn before it is sent.
    pub waits: Option<WaitNotices>,
    /// Send every TCP connection through this SOCKS5 proxy, which resolves the names
    /// (`[network] socks5`); the guard then judges what it can see (`guard::check_unresolved`)
    /// and Guppy (UDP) is refused.
    pub socks5: Option<std::net::SocketAddr>,
}

impl Default for NetOptions {
    fn default() -> Self {
        NetOptions {
            timeout: Duration::from_secs(30),
            max_body: 1024 * 1024,
            allow_private: false,
            allowed_hosts: Vec::new(),
            for_agent: true,
            identity: IdentityChoice::Auto,
            allow_client_cert_over_tls12: false,
            trust_once: None,
            progress: None,
            waits: None,
            socks5: None,
        }
    }
}

/// A raw Gemini answer.
#[derive(Clone, Debug)]
pub struct GeminiResponse {
    /// The status and meta line.
    pub header: smolweb_core::response::Header,
    /// Body bytes (2x only; empty otherwise).
    pub body: Vec<u8>,
    /// The TLS facts of the connection (TOFU verdict, identity presented).
    pub tls: TlsInfo,
    /// How the body ended: `NoCloseNotify` when the server closed without TLS close_notify
    /// (2x only; `Clean` otherwise).
    pub ending: Ending,
}

/// The network stack of one process: TLS configurations (one per identity, kept for session
/// resumption), the shared TOFU and identity stores.
pub struct Net {
    known_hosts: smolweb_store::tofu::KnownHosts,
    identities: smolweb_store::identity::Identities,
    tofu_policy: smolweb_store::tofu::TofuPolicy,
    tls: tls::TlsState,
}

impl Net {
    /// The network stack over these stores and this policy; nothing is connected yet.
    pub fn new(
        known_hosts: smolweb_store::tofu::KnownHosts,
        identities: smolweb_store::identity::Identities,
        tofu_policy: smolweb_store::tofu::TofuPolicy,
    ) -> Net {
        Net {
            tls: tls::TlsState::new(known_hosts.clone(), tofu_policy),
            known_hosts,
            identities,
            tofu_policy,
        }
    }

    /// The pins this stack checks server certificates against.
    pub fn known_hosts(&self) -> &smolweb_store::tofu::KnownHosts {
        &self.known_hosts
    }

    /// The client identities this stack may present.
    pub fn identities(&self) -> &smolweb_store::identity::Identities {
        &self.identities
    }

    /// The TOFU policy this stack applies.
    pub fn tofu_policy(&self) -> smolweb_store::tofu::TofuPolicy {
        self.tofu_policy
    }

    /// Drop all remembered TLS sessions: the next Gemini fetches do full handshakes (and so
    /// run the TOFU verifier again).
    pub fn forget_sessions(&self) {
        self.tls.forget_sessions();
    }

    /// Fetch a gemini:// URL (its query included) and return the raw answer.
    pub async fn gemini(
        &self,
        url: &smolweb_core::url::Url,
        opts: &NetOptions,
    ) -> Result<GeminiResponse, FetchError> {
        gemini::fetch(self, url, opts).await
    }

    /// Fetch a gopher item: send `selector[TAB search]CRLF`, read to close (bounded).
    pub async fn gopher(
        &self,
        target: &smolweb_core::url::GopherTarget,
        opts: &NetOptions,
    ) -> Result<Vec<u8>, FetchError> {
        gopher::fetch(target, opts).await
    }
}

/// Why a socket failed, in plain words ("connection refused"), without the operating system's
/// error number; the raw error is for the log. Other kinds keep their own text.
pub(crate) fn io_words(e: &std::io::Error) -> String {
    use std::io::ErrorKind as K;
    let words = match e.kind() {
        K::ConnectionRefused => "connection refused",
        K::ConnectionReset => "connection reset",
        K::ConnectionAborted => "connection aborted",
        K::TimedOut => "timed out",
        K::HostUnreachable => "host unreachable",
        K::NetworkUnreachable => "network unreachable",
        K::AddrNotAvailable => "address not available",
        K::BrokenPipe => "connection closed",
        K::UnexpectedEof => "connection closed early",
        _ => {
            let text = e.to_string();
            return match text.find(" (os error") {
                Some(at) => text[..at].to_string(),
                None => text,
            };
        }
    };
    words.to_string()
}

/// A TCP connection to `host:port` for one request: through the SOCKS5 proxy when
/// `opts.socks5` names one (after the guard's judgement of the unresolved host), else to the
/// first address the guard resolved and checked that answers. Every fetcher over TCP opens its
/// connection here. The caller holds the timeout.
pub(crate) async fn dial(
    host: &str,
    port: u16,
    opts: &NetOptions,
) -> Result<tokio::net::TcpStream, FetchError> {
    match opts.socks5 {
        Some(proxy) => {
            guard::check_unresolved(host, port, opts)?;
            socks::connect(proxy, host, port).await
        }
        None => {
            let addrs = guard::resolve_checked(host, port, opts).await?;
            connect(host, port, &addrs).await
        }
    }
}

/// Connect to the first checked address that answers (never to anything unchecked).
async fn connect(
    host: &str,
    port: u16,
    addrs: &[std::net::SocketAddr],
) -> Result<tokio::net::TcpStream, FetchError> {
    let mut last = std::io::Error::from(std::io::ErrorKind::AddrNotAvailable);
    for addr in addrs {
        match tokio::net::TcpStream::connect(addr).await {
            Ok(stream) => {
                // Small request, small answers: never wait for Nagle.
                stream
                    .set_nodelay(true)
                    .map_err(|e| FetchError::connection(host, port, e))?;
                return Ok(stream);
            }
            Err(e) => {
                tracing::debug!(%addr, error = %e, "connect failed");
                last = e;
            }
        }
    }
    Err(FetchError::connection(host, port, last))
}

/// Read until EOF into `body` (which may already hold bytes), refusing more than `max` bytes
/// and reporting progress. An `UnexpectedEof` (the peer closed without TLS close_notify; only
/// a TLS stream reports it) ends the body too, since many capsules close that way, but the
/// answer says so: [`Ending::NoCloseNotify`]. Other read errors go through `map_err`.
async fn read_body<R: tokio::io::AsyncRead + Unpin>(
    reader: &mut R,
    body: &mut Vec<u8>,
    max: u64,
    progress: Option<&tokio::sync::watch::Sender<u64>>,
    map_err: impl Fn(std::io::Error) -> FetchError,
) -> Result<Ending, FetchError> {
    use tokio::io::AsyncReadExt;
    let too_large = || FetchError::TooLarge { limit: max };
    if body.len() as u64 > max {
        return Err(too_large());
    }
    let mut chunk = vec![0u8; 16 * 1024];
    loop {
        if let Some(p) = progress {
            p.send_replace(body.len() as u64);
        }
        let n = match reader.read(&mut chunk).await {
            Ok(0) => return Ok(Ending::Clean),
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => {
                return Ok(Ending::NoCloseNotify);
            }
            Err(e) => return Err(map_err(e)),
        };
        if (body.len() + n) as u64 > max {
            return Err(too_large());
        }
        body.extend_from_slice(&chunk[..n]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn internal(e: std::io::Error) -> FetchError {
        FetchError::connection("test.example", 1965, e)
    }

    #[tokio::test]
    async fn body_is_bounded_and_progress_reported() {
        let (tx, rx) = tokio::sync::watch::channel(0u64);
        let mut body = b"ab".to_vec();
        let mut input: &[u8] = b"cdef";
        let ending = read_body(&mut input, &mut body, 6, Some(&tx), internal)
            .await
            .unwrap();
        assert_eq!(ending, Ending::Clean);
        assert_eq!(body, b"abcdef");
        assert_eq!(*rx.borrow(), 6);
        let mut body = Vec::new();
        let mut input: &[u8] = b"1234567";
        let err = read_body(&mut input, &mut body, 6, None, internal)
            .await
            .unwrap_err();
        assert!(matches!(err, FetchError::TooLarge { limit: 6 }), "{err}");
    }

    #[tokio::test]
    async fn unexpected_eof_ends_the_body_and_says_so() {
        let mut reader = tokio_test_reader(b"xyz", std::io::ErrorKind::UnexpectedEof);
        let mut body = Vec::new();
        let ending = read_body(&mut reader, &mut body, 100, None, internal)
            .await
            .unwrap();
        assert_eq!(body, b"xyz");
        assert_eq!(ending, Ending::NoCloseNotify);
        let mut reader = tokio_test_reader(b"xyz", std::io::ErrorKind::ConnectionReset);
        let err = read_body(&mut reader, &mut Vec::new(), 100, None, internal).await;
        assert!(err.is_err());
    }

    /// A reader that yields `data` and then fails with `kind`.
    fn tokio_test_reader(
        data: &'static [u8],
        kind: std::io::ErrorKind,
    ) -> impl tokio::io::AsyncRead + Unpin {
        use tokio::io::AsyncReadExt;
        data.chain(FailingReader(kind))
    }

    struct FailingReader(std::io::ErrorKind);

    impl tokio::io::AsyncRead for FailingReader {
        fn poll_read(
            self: std::pin::Pin<&mut Self>,
            _cx: &mut std::task::Context<'_>,
            _buf: &mut tokio::io::ReadBuf<'_>,
        ) -> std::task::Poll<std::io::Result<()>> {
            std::task::Poll::Ready(Err(std::io::Error::from(self.0)))
        }
    }
}
