//! An in-process Gemini server over TLS (tokio-rustls, ring provider).
//!
//! ```ignore
//! let server = support::gemini::Server::start(
//!     Routes::new().route("/", Reply::gemtext("# hi\n")).route("/x", Reply::status(51, "gone")),
//! ).await;
//! let url = server.url("/");          // gemini://127.0.0.1:PORT/
//! server.requests();                  // every request line + client cert fingerprint
//! server.set_cert(TestCert::new());   // later connections see a changed certificate
//! ```

use super::certs::{TestCert, fingerprint};
use rustls::pki_types::{CertificateDer, UnixTime};
use rustls::server::ServerConfig;
use rustls::server::danger::{ClientCertVerified, ClientCertVerifier};
use rustls::{DigitallySignedStruct, DistinguishedName, SignatureScheme};
use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// What the server answers to one request.
#[derive(Clone, Debug)]
pub enum Reply {
    /// `<status> <meta>\r\n<body>`, then close_notify.
    Response {
        /// The status code, written as given (two digits for a well-formed answer).
        status: u8,
        /// The text after the status: a MIME type for 2x, a prompt for 1x, a URL for 3x, an
        /// error message otherwise.
        meta: String,
        /// The bytes after the header line (usually empty when the status is not 2x).
        body: Vec<u8>,
    },
    /// These bytes as-is, then close_notify.
    Raw(Vec<u8>),
    /// These bytes, then the TCP connection is dropped without close_notify.
    NoCloseNotify(Vec<u8>),
    /// These bytes one at a time, `interval` apart, then close_notify. Stops early if the
    /// client goes away.
    Drip {
        /// Everything sent, header line included.
        bytes: Vec<u8>,
        /// The pause after each byte.
        interval: Duration,
    },
    /// This header, then a body that never ends.
    Endless {
        /// The bytes sent first, CRLF included; then `a`s in 16 KiB writes until a write
        /// fails (the client closed).
        header: Vec<u8>,
    },
    /// Never answer: the connection is kept open (and counts as open) for 60 s, then dropped
    /// without close_notify.
    Silent,
}

impl Reply {
    /// `<status> <meta>` and a body: a well-formed [`Reply::Response`].
    pub fn new(status: u8, meta: &str, body: impl Into<Vec<u8>>) -> Reply {
        Reply::Response {
            status,
            meta: meta.into(),
            body: body.into(),
        }
    }
    /// `20 <mime>` with a body.
    pub fn ok(mime: &str, body: impl Into<Vec<u8>>) -> Reply {
        Reply::new(20, mime, body)
    }
    /// `20 text/gemini` with a body.
    pub fn gemtext(body: &str) -> Reply {
        Reply::ok("text/gemini", body.as_bytes().to_vec())
    }
    /// Any status without a body.
    pub fn status(status: u8, meta: &str) -> Reply {
        Reply::new(status, meta, Vec::new())
    }
    /// A header line far above 1024 bytes of meta.
    pub fn oversize_header() -> Reply {
        let mut bytes = b"20 text/gemini; x=".to_vec();
        bytes.extend(std::iter::repeat_n(b'a', 4000));
        bytes.extend_from_slice(b"\r\n");
        Reply::Raw(bytes)
    }
    /// A header without CRLF, then close.
    pub fn no_crlf() -> Reply {
        Reply::Raw(b"20 text/gemini".to_vec())
    }
    /// A header whose status is not two digits.
    pub fn invalid_status() -> Reply {
        Reply::Raw(b"2x text/gemini\r\nhello\r\n".to_vec())
    }
    /// `20 text/plain; charset=utf-8` with a body that is not valid UTF-8.
    pub fn invalid_utf8_body() -> Reply {
        Reply::ok(
            "text/plain; charset=utf-8",
            vec![b'o', b'k', 0xff, 0xfe, 0xc3, 0x28, b'\n'],
        )
    }
    /// A complete answer, then the TCP connection dropped without close_notify.
    pub fn close_without_notify(status: u8, meta: &str, body: &[u8]) -> Reply {
        let mut bytes = format!("{status} {meta}\r\n").into_bytes();
        bytes.extend_from_slice(body);
        Reply::NoCloseNotify(bytes)
    }
    /// A gemtext answer sent one byte per `interval`.
    pub fn drip(body: &str, interval: Duration) -> Reply {
        Reply::Drip {
            bytes: format!("20 text/gemini\r\n{body}").into_bytes(),
            interval,
        }
    }
    /// `20 text/plain` and a body that never ends.
    pub fn endless() -> Reply {
        Reply::Endless {
            header: b"20 text/plain\r\n".to_vec(),
        }
    }
}

/// One request the server received.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    /// The request line without CRLF.
    pub line: String,
    /// Path of the requested URL, without query and not percent-decoded; `/` when the URL
    /// has none.
    pub path: String,
    /// The part of the requested URL after `?`, as sent (not percent-decoded); `None` when
    /// the URL has no `?`.
    pub query: Option<String>,
    /// `sha256:<hex>` of the client certificate presented (or carried by the resumed
    /// session), if any.
    pub client_cert: Option<String>,
    /// Was this connection a resumed TLS session?
    pub resumed: bool,
}

type Handler = Arc<dyn Fn(&Request) -> Reply + Send + Sync>;

/// Path -> reply table with an optional fallback handler (default: `51 not found`).
///
/// A route matches [`Request::path`] exactly (the query plays no part), and its reply is the
/// same for every request; use [`Routes::handler`] for answers that depend on the request.
#[derive(Clone, Default)]
pub struct Routes {
    map: HashMap<String, Reply>,
    handler: Option<Handler>,
}

impl Routes {
    /// No routes and no handler: every request gets `51 not found`.
    pub fn new() -> Routes {
        Routes::default()
    }
    /// Answer requests for exactly `path` (e.g. `/` or `/dir/page.gmi`) with `reply`. A
    /// second route for the same path replaces the first.
    pub fn route(mut self, path: &str, reply: Reply) -> Routes {
        self.map.insert(path.to_string(), reply);
        self
    }
    /// Called for paths without a route, with the request as recorded. It runs on the
    /// connection's task, so it should answer at once; a later call replaces the handler.
    pub fn handler(mut self, f: impl Fn(&Request) -> Reply + Send + Sync + 'static) -> Routes {
        self.handler = Some(Arc::new(f));
        self
    }
    fn reply(&self, req: &Request) -> Reply {
        if let Some(reply) = self.map.get(&req.path) {
            return reply.clone();
        }
        match &self.handler {
            Some(f) => f(req),
            None => Reply::status(51, "not found"),
        }
    }
}

/// Server modes for [`Server::start_with`]; `Options::default()` is a normal server.
#[derive(Clone, Debug)]
pub struct Options {
    /// Certificate to start with (default: a fresh valid one).
    pub cert: Option<TestCert>,
    /// Speak TLS 1.2 only (default: TLS 1.3 and 1.2).
    pub tls12_only: bool,
    /// Answer every connection with plain bytes (an HTTP 400) instead of a TLS handshake,
    /// then close. Such connections count in [`Server::connections`], never in
    /// [`Server::handshakes`] or [`Server::requests`].
    pub tls_garbage: bool,
    /// Ask clients for an (optional) certificate. Default true. Any certificate offered is
    /// accepted; when false, [`Request::client_cert`] is always `None`.
    pub request_client_cert: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            cert: None,
            tls12_only: false,
            tls_garbage: false,
            request_client_cert: true,
        }
    }
}

struct State {
    routes: Routes,
    options: Options,
    cert: Mutex<TestCert>,
    config: Mutex<Arc<ServerConfig>>,
    requests: Mutex<Vec<Request>>,
    connections: Mutex<usize>,
    handshakes: Mutex<usize>,
    /// Connections open now, and the most ever open at once.
    open: Mutex<(usize, usize)>,
}

/// A running server; stops accepting when dropped (connections already accepted are still
/// answered).
pub struct Server {
    addr: SocketAddr,
    state: Arc<State>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Server {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl Server {
    /// Serve `routes` with the default [`Options`]: a fresh valid certificate, TLS 1.3 and
    /// 1.2, client certificates requested.
    ///
    /// Must run inside a tokio runtime; panics if the listening socket cannot be bound.
    pub async fn start(routes: Routes) -> Server {
        Server::start_with(routes, Options::default()).await
    }

    /// Serve `routes` in the modes `options` chooses, on 127.0.0.1 with an ephemeral port.
    /// Each connection carries one request; the server records it, then answers and closes.
    ///
    /// Must run inside a tokio runtime; panics if the listening socket cannot be bound.
    pub async fn start_with(routes: Routes, options: Options) -> Server {
        let cert = options.cert.clone().unwrap_or_default();
        let config = server_config(&cert, &options);
        let state = Arc::new(State {
            routes,
            options,
            cert: Mutex::new(cert),
            config: Mutex::new(config),
            requests: Mutex::new(Vec::new()),
            connections: Mutex::new(0),
            handshakes: Mutex::new(0),
            open: Mutex::new((0, 0)),
        });
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = listener.local_addr().expect("addr");
        let task = tokio::spawn(accept_loop(listener, state.clone()));
        Server { addr, state, task }
    }

    /// The listening address (127.0.0.1 and the port), e.g. for a [`crate::tap::Tap`].
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }
    /// Always `127.0.0.1`: the host part of this server's URLs.
    pub fn host(&self) -> &'static str {
        "127.0.0.1"
    }
    /// The ephemeral port the server listens on.
    pub fn port(&self) -> u16 {
        self.addr.port()
    }
    /// `gemini://127.0.0.1:PORT<path>` (`path` starts with "/", may carry `?query`).
    pub fn url(&self, path: &str) -> String {
        format!("gemini://127.0.0.1:{}{}", self.port(), path)
    }
    /// Every request received so far, in order. A request is recorded before it is answered,
    /// and only when a full line (at most 4096 bytes) arrived within 5 s of the handshake.
    pub fn requests(&self) -> Vec<Request> {
        self.state.requests.lock().unwrap().clone()
    }
    /// Just the request lines (URLs without CRLF) of [`Server::requests`], in order.
    pub fn request_lines(&self) -> Vec<String> {
        self.requests().into_iter().map(|r| r.line).collect()
    }
    /// TCP connections accepted so far, including those whose handshake failed.
    pub fn connections(&self) -> usize {
        *self.state.connections.lock().unwrap()
    }
    /// The most TLS connections that were ever open at the same time. A connection counts
    /// from its completed handshake until the server has written its answer (before the
    /// close the client sees), so a client that waits for one answer before the next
    /// request keeps this at 1.
    pub fn max_open(&self) -> usize {
        self.state.open.lock().unwrap().1
    }
    /// TLS handshakes that completed on the server side.
    pub fn handshakes(&self) -> usize {
        *self.state.handshakes.lock().unwrap()
    }
    /// A copy of the certificate served now (the latest [`Server::set_cert`], else the one
    /// the server started with).
    pub fn cert(&self) -> TestCert {
        self.state.cert.lock().unwrap().clone()
    }
    /// The `sha256:<hex>` fingerprint of the certificate served now: what a client pins.
    pub fn fingerprint(&self) -> String {
        self.cert().fingerprint()
    }
    /// Serve another certificate in every handshake that starts from now on (new TLS config,
    /// so no earlier session resumes); a handshake already under way keeps the old one.
    pub fn set_cert(&self, cert: TestCert) {
        let config = server_config(&cert, &self.state.options);
        *self.state.config.lock().unwrap() = config;
        *self.state.cert.lock().unwrap() = cert;
    }
}

/// Accepts any client certificate (optional), verifying only its signatures.
#[derive(Debug)]
struct AnyClientCert {
    provider: Arc<rustls::crypto::CryptoProvider>,
}

impl ClientCertVerifier for AnyClientCert {
    fn offer_client_auth(&self) -> bool {
        true
    }
    fn client_auth_mandatory(&self) -> bool {
        false
    }
    fn root_hint_subjects(&self) -> &[DistinguishedName] {
        &[]
    }
    fn verify_client_cert(
        &self,
        _end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _now: UnixTime,
    ) -> Result<ClientCertVerified, rustls::Error> {
        Ok(ClientCertVerified::assertion())
    }
    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<rustls::client::danger::HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(
            message,
            cert,
            dss,
            &self.provider.signature_verification_algorithms,
        )
    }
    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<rustls::client::danger::HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(
            message,
            cert,
            dss,
            &self.provider.signature_verification_algorithms,
        )
    }
    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.provider
            .signature_verification_algorithms
            .supported_schemes()
    }
}

fn server_config(cert: &TestCert, options: &Options) -> Arc<ServerConfig> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let versions: &[&rustls::SupportedProtocolVersion] = if options.tls12_only {
        &[&rustls::version::TLS12]
    } else {
        &[&rustls::version::TLS13, &rustls::version::TLS12]
    };
    let builder = ServerConfig::builder_with_provider(provider.clone())
        .with_protocol_versions(versions)
        .expect("versions");
    let builder = if options.request_client_cert {
        builder.with_client_cert_verifier(Arc::new(AnyClientCert { provider }))
    } else {
        builder.with_no_client_auth()
    };
    let config = builder
        .with_single_cert(vec![cert.der.clone()], cert.key())
        .expect("server cert");
    Arc::new(config)
}

/// Counts a TLS connection as open while it lives.
struct Open<'a>(&'a State);

impl<'a> Open<'a> {
    fn enter(state: &'a State) -> Open<'a> {
        let mut open = state.open.lock().unwrap();
        open.0 += 1;
        open.1 = open.1.max(open.0);
        Open(state)
    }
}

impl Drop for Open<'_> {
    fn drop(&mut self) {
        self.0.open.lock().unwrap().0 -= 1;
    }
}

async fn accept_loop(listener: TcpListener, state: Arc<State>) {
    loop {
        let Ok((tcp, _)) = listener.accept().await else {
            continue;
        };
        *state.connections.lock().unwrap() += 1;
        let _ = tcp.set_nodelay(true);
        tokio::spawn(serve(tcp, state.clone()));
    }
}

async fn serve(mut tcp: TcpStream, state: Arc<State>) {
    if state.options.tls_garbage {
        let _ = tcp
            .write_all(b"HTTP/1.1 400 Bad Request\r\n\r\nnot TLS\r\n")
            .await;
        return;
    }
    let config = state.config.lock().unwrap().clone();
    let Ok(mut tls) = tokio_rustls::TlsAcceptor::from(config).accept(tcp).await else {
        return;
    };
    // Handed to `write_reply`, which ends it before closing: a connection stops counting as
    // open before the client can see it close.
    let open = Open::enter(&state);
    *state.handshakes.lock().unwrap() += 1;
    let Some(line) = read_line(&mut tls).await else {
        return;
    };
    let conn = tls.get_ref().1;
    let resumed = conn.handshake_kind() == Some(rustls::HandshakeKind::Resumed);
    let client_cert = conn
        .peer_certificates()
        .and_then(|c| c.first())
        .map(|c| fingerprint(c.as_ref()));
    let (path, query) = split_url(&line);
    let req = Request {
        line,
        path,
        query,
        client_cert,
        resumed,
    };
    state.requests.lock().unwrap().push(req.clone());
    let reply = state.routes.reply(&req);
    write_reply(tls, reply, open).await;
}

/// Read up to CRLF (at most 4096 bytes, 5 s).
pub(crate) async fn read_line<S: AsyncRead + Unpin>(stream: &mut S) -> Option<String> {
    let read = async {
        let mut buf = Vec::new();
        let mut byte = [0u8; 1];
        while buf.len() < 4096 {
            if stream.read(&mut byte).await.ok()? == 0 {
                return None;
            }
            buf.push(byte[0]);
            if buf.ends_with(b"\n") {
                let text = String::from_utf8_lossy(&buf);
                return Some(text.trim_end_matches(['\r', '\n']).to_string());
            }
        }
        None
    };
    tokio::time::timeout(Duration::from_secs(5), read)
        .await
        .ok()
        .flatten()
}

fn split_url(line: &str) -> (String, Option<String>) {
    let rest = line.split_once("://").map_or(line, |(_, r)| r);
    let path_and_query = rest.find('/').map_or("/", |i| &rest[i..]);
    match path_and_query.split_once('?') {
        Some((p, q)) => (p.to_string(), Some(q.to_string())),
        None => (path_and_query.to_string(), None),
    }
}

async fn write_reply<S: AsyncWrite + Unpin>(mut tls: S, reply: Reply, open: Open<'_>) {
    match reply {
        Reply::Response { status, meta, body } => {
            let mut bytes = format!("{status} {meta}\r\n").into_bytes();
            bytes.extend_from_slice(&body);
            let _ = tls.write_all(&bytes).await;
            drop(open);
            let _ = tls.shutdown().await;
        }
        Reply::Raw(bytes) => {
            let _ = tls.write_all(&bytes).await;
            drop(open);
            let _ = tls.shutdown().await;
        }
        Reply::NoCloseNotify(bytes) => {
            let _ = tls.write_all(&bytes).await;
            let _ = tls.flush().await;
            drop(open);
            drop(tls);
        }
        Reply::Drip { bytes, interval } => {
            for b in bytes {
                if tls.write_all(&[b]).await.is_err() || tls.flush().await.is_err() {
                    return;
                }
                tokio::time::sleep(interval).await;
            }
            drop(open);
            let _ = tls.shutdown().await;
        }
        Reply::Endless { header } => {
            if tls.write_all(&header).await.is_err() {
                return;
            }
            let chunk = vec![b'a'; 16 * 1024];
            while tls.write_all(&chunk).await.is_ok() {}
        }
        Reply::Silent => {
            tokio::time::sleep(Duration::from_secs(60)).await;
        }
    }
}
