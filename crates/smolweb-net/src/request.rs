//! One request type for every protocol, the client's one way to the network ([`Net::send`]):
//! Gemini, Scroll and gophers over TLS with TOFU, Titan uploads over Gemini's TLS, Gopher,
//! Nex, Finger and Spartan over plain TCP, Guppy over UDP. A new protocol is a variant of [`Request`] and of
//! [`Response`] and its fetcher module, called from [`Net::send`].
//!
//! Invariants (every protocol here): the host is resolved through the guard and only checked
//! addresses are connected; one timeout (`opts.timeout`) covers DNS, connect, TLS, the request
//! and the answer; a reply is bounded by `opts.max_body` (a header line by its own limit); a
//! reply that breaks its protocol's framing is [`FetchError::Protocol`], never a panic.

use super::{FetchError, GeminiResponse, Net, NetOptions, ProtocolError, TlsInfo};
use smolweb_core::page::Ending;
use smolweb_core::response::Header;
use smolweb_core::url::{GopherTarget, Url};

/// One request, of any protocol.
#[derive(Clone, Debug)]
pub enum Request {
    /// Gemini: the gemini:// URL (query included) as the request line.
    Gemini(Url),
    /// Gopher: the item (type, selector and the search for type 7).
    Gopher(GopherTarget),
    /// Nex: send `path` (without its leading `/`) and a newline; the body comes back.
    Nex {
        /// The host.
        host: String,
        /// The port.
        port: u16,
        /// The path as sent (percent-decoded, no leading `/`).
        path: String,
    },
    /// Finger (RFC 1288): send `query` and CRLF; text comes back until close.
    Finger {
        /// The host.
        host: String,
        /// The port.
        port: u16,
        /// The query line without its CRLF (`user`, or `user@host` for a forward the person
        /// typed).
        query: String,
    },
    /// Spartan: `host path length` CRLF and `data`; a `status meta` line comes back.
    Spartan {
        /// The host (no port on the request line).
        host: String,
        /// The port.
        port: u16,
        /// The path (percent-encoded, starting with `/`).
        path: String,
        /// The data block (an `=:` prompt's answer or the URL's decoded query).
        data: Vec<u8>,
    },
    /// Scroll: the absolute URL and the language list; a Gemini-like answer comes back.
    Scroll {
        /// The scroll:// URL.
        url: Url,
        /// Languages asked for, comma separated (`en`).
        languages: String,
    },
    /// Gopher over TLS.
    Gophers(GopherTarget),
    /// A Titan upload.
    Titan(super::titan::TitanUpload),
    /// Guppy: the guppy:// URL (query included) in one datagram.
    Guppy(Url),
}

impl Request {
    /// The host the request goes to (for the in-flight limits).
    pub fn host(&self) -> &str {
        match self {
            Request::Nex { host, .. }
            | Request::Finger { host, .. }
            | Request::Spartan { host, .. } => host,
            Request::Gemini(url) | Request::Scroll { url, .. } | Request::Guppy(url) => url.host(),
            Request::Gopher(t) | Request::Gophers(t) => &t.host,
            Request::Titan(t) => t.url.host(),
        }
    }

    /// The address asked, for a refusal's message (no query, no search: never a secret).
    pub fn shown(&self) -> String {
        match self {
            Request::Gemini(url) | Request::Scroll { url, .. } | Request::Guppy(url) => {
                url.without_query()
            }
            Request::Titan(t) => t.url.without_query(),
            Request::Gopher(t) | Request::Gophers(t) => {
                let scheme = if matches!(self, Request::Gopher(_)) {
                    "gopher"
                } else {
                    "gophers"
                };
                format!(
                    "{scheme}://{}:{}/{}{}",
                    t.host, t.port, t.item_type, t.selector
                )
            }
            Request::Nex { host, port, .. }
            | Request::Finger { host, port, .. }
            | Request::Spartan { host, port, .. } => format!("{host}:{port}"),
        }
    }
}

/// A Spartan answer: the one-digit status, the meta, and the body (status 2 only).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpartanResponse {
    /// 2 success, 3 redirect, 4 client error, 5 server error.
    pub status: u8,
    /// The MIME type (2), the new path (3) or the error text (4, 5); untrusted.
    pub meta: String,
    /// The body (status 2 only; empty otherwise).
    pub body: Vec<u8>,
}

/// A Scroll answer: a Gemini header, on success the three metadata lines, the body.
#[derive(Clone, Debug)]
pub struct ScrollResponse {
    /// The status and meta line (Gemini's status codes).
    pub header: Header,
    /// On success: the author, published and modified lines, as sent (untrusted).
    pub metadata: Option<smolweb_core::page::DocumentMeta>,
    /// The body (2x only).
    pub body: Vec<u8>,
    /// The TLS facts (TOFU verdict).
    pub tls: TlsInfo,
    /// How the body ended.
    pub ending: Ending,
}

/// What a request brought back.
#[derive(Clone, Debug)]
pub enum Response {
    /// Gemini's answer.
    Gemini(GeminiResponse),
    /// Gopher: the bytes until close.
    Gopher(Vec<u8>),
    /// Nex and Finger: the bytes until close.
    Body(Vec<u8>),
    /// Spartan.
    Spartan(SpartanResponse),
    /// Scroll.
    Scroll(ScrollResponse),
    /// gophers: the bytes until close, with the TLS facts and how the stream ended.
    Gophers {
        /// The item's bytes.
        body: Vec<u8>,
        /// The TLS facts.
        tls: TlsInfo,
        /// How the stream ended.
        ending: Ending,
    },
    /// Titan: the capsule's Gemini answer, and whether it came before the whole upload was
    /// sent (a refusal before the body).
    Titan {
        /// The answer.
        response: GeminiResponse,
        /// The answer arrived before all of the upload was written.
        early: bool,
    },
    /// Guppy's answer.
    Guppy(super::guppy::GuppyResponse),
}

impl Response {
    /// The TLS facts of the connection that brought the answer (None over plain TCP).
    pub fn tls_mut(&mut self) -> Option<&mut TlsInfo> {
        match self {
            Response::Gemini(r) | Response::Titan { response: r, .. } => Some(&mut r.tls),
            Response::Scroll(r) => Some(&mut r.tls),
            Response::Gophers { tls, .. } => Some(tls),
            Response::Gopher(_) | Response::Body(_) | Response::Spartan(_) | Response::Guppy(_) => {
                None
            }
        }
    }
}

impl Net {
    /// Send one request within `opts.timeout` and read its answer.
    pub async fn send(&self, request: &Request, opts: &NetOptions) -> Result<Response, FetchError> {
        let work = async {
            match request {
                Request::Gemini(url) => super::gemini::fetch(self, url, opts)
                    .await
                    .map(Response::Gemini),
                Request::Gopher(target) => super::gopher::fetch(target, opts)
                    .await
                    .map(Response::Gopher),
                Request::Nex { host, port, path } => {
                    let line = super::nex::request_line(path)?;
                    plain_exchange(host, *port, line.as_bytes(), opts)
                        .await
                        .map(Response::Body)
                }
                Request::Finger { host, port, query } => {
                    let line = super::finger::request_line(query)?;
                    plain_exchange(host, *port, line.as_bytes(), opts)
                        .await
                        .map(Response::Body)
                }
                Request::Spartan {
                    host,
                    port,
                    path,
                    data,
                } => super::spartan::fetch(host, *port, path, data, opts)
                    .await
                    .map(Response::Spartan),
                Request::Scroll { url, languages } => {
                    super::scroll::fetch(self, url, languages, opts)
                        .await
                        .map(Response::Scroll)
                }
                Request::Gophers(target) => super::gopher::fetch_tls(self, target, opts).await,
                Request::Titan(upload) => super::titan::upload(self, upload, opts).await,
                Request::Guppy(url) => super::guppy::fetch(url, opts).await.map(Response::Guppy),
            }
        };
        tokio::time::timeout(opts.timeout, work)
            .await
            .unwrap_or(Err(FetchError::Timeout(opts.timeout)))
    }
}

/// Plain TCP: guard, connect, write `request`, read to close (bounded by `opts.max_body`).
/// The caller holds the timeout.
pub(crate) async fn plain_exchange(
    host: &str,
    port: u16,
    request: &[u8],
    opts: &NetOptions,
) -> Result<Vec<u8>, FetchError> {
    use tokio::io::AsyncWriteExt;
    let addrs = super::guard::resolve_checked(host, port, opts).await?;
    let mut stream = super::connect(host, port, &addrs).await?;
    let io_err = |e| FetchError::connection(host, port, e);
    stream.write_all(request).await.map_err(io_err)?;
    let mut body = Vec::new();
    super::read_body(
        &mut stream,
        &mut body,
        opts.max_body,
        opts.progress.as_ref(),
        io_err,
    )
    .await?;
    Ok(body)
}

/// Read one line ending in LF (a CR before it dropped) of at most `limit` bytes; the bytes
/// after it stay in `buf`. `what` names the line in errors.
pub(crate) async fn read_line<R: tokio::io::AsyncRead + Unpin>(
    reader: &mut R,
    buf: &mut Vec<u8>,
    limit: usize,
    what: &'static str,
    map_err: impl Fn(std::io::Error) -> FetchError,
) -> Result<Vec<u8>, FetchError> {
    use tokio::io::AsyncReadExt;
    let mut chunk = [0u8; 1024];
    loop {
        if let Some(lf) = buf.iter().position(|&b| b == b'\n') {
            if lf > limit {
                break;
            }
            let mut line: Vec<u8> = buf.drain(..=lf).collect();
            line.pop();
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            return Ok(line);
        }
        if buf.len() > limit {
            break;
        }
        let n = match reader.read(&mut chunk).await {
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => 0,
            Err(e) => return Err(map_err(e)),
        };
        if n == 0 {
            return Err(ProtocolError::ClosedInside(what).into());
        }
        buf.extend_from_slice(&chunk[..n]);
    }
    Err(ProtocolError::LineTooLong { what, limit }.into())
}
