//! An in-process HTTP/1.1 server (plain or TLS) on 127.0.0.1 with an ephemeral port, for the
//! web tests: a handler closure per request, a log of every request seen (so a test can assert
//! that a refused destination was never contacted), and misbehaviours (slow drip, endless
//! body, raw precompressed bodies). Each response closes its connection. The TLS mode uses a
//! test CA ([`TestCa`]) whose PEM file a test names in `[web] extra_root_certificates`.
//! [`chrome_only_page`] is a page for the extraction's quality figure: almost no text of its own.

use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::TcpListener;

/// A request as the server saw it.
#[derive(Clone, Debug)]
///
/// Only the request head is parsed: a request body is neither waited for nor recorded.
pub struct Request {
    /// The method as sent, e.g. `GET` or `HEAD`.
    pub method: String,
    /// Path and query as sent.
    pub target: String,
    /// Every header line in the order sent: the name as spelled by the client and the value,
    /// both trimmed.
    pub headers: Vec<(String, String)>,
}

impl Request {
    /// The target without its query (everything before the first `?`).
    pub fn path(&self) -> &str {
        self.target.split('?').next().unwrap_or_default()
    }
    /// The value of the first header called `name`, compared case-insensitively.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// How the body is sent.
#[derive(Clone, Debug)]
pub enum Body {
    /// These bytes with a matching Content-Length, sent as-is: give raw precompressed bytes
    /// together with your own Content-Encoding header. In answer to `HEAD` only the
    /// Content-Length is sent, not the bytes.
    Bytes(Vec<u8>),
    /// `chunk` every `interval`, `count` times, then close (no Content-Length).
    Drip {
        /// The bytes of each write.
        chunk: Vec<u8>,
        /// The pause after each write.
        interval: Duration,
        /// How many writes; the body is `count` copies of `chunk`.
        count: usize,
    },
    /// Bytes until the client goes away (no Content-Length).
    Endless,
}

/// What the handler answers to one request.
///
/// The server adds `Connection: close` and, for [`Body::Bytes`], `Content-Length` itself; the
/// status line's reason phrase is always `Test`.
#[derive(Clone, Debug)]
pub struct Reply {
    /// The status code, written as given.
    pub status: u16,
    /// Header lines written in this order, as given (duplicates are kept).
    pub headers: Vec<(String, String)>,
    /// The body and how it is sent.
    pub body: Body,
}

impl Reply {
    /// This status with a `Content-Type` header and these bytes as the body.
    pub fn new(status: u16, content_type: &str, body: impl Into<Vec<u8>>) -> Reply {
        Reply {
            status,
            headers: vec![("Content-Type".into(), content_type.into())],
            body: Body::Bytes(body.into()),
        }
    }
    /// `200` with `text/html; charset=utf-8` and this page.
    pub fn html(body: &str) -> Reply {
        Reply::new(200, "text/html; charset=utf-8", body)
    }
    /// A redirect: this status (301, 302, 307...) with `Location: <location>` and a short
    /// text/plain body. `location` is written as given, relative or absolute.
    pub fn redirect(status: u16, location: &str) -> Reply {
        Reply::new(status, "text/plain", "moved").header("Location", location)
    }
    /// Add one header line after those already there (an existing one of the same name is
    /// not replaced).
    pub fn header(mut self, name: &str, value: &str) -> Reply {
        self.headers.push((name.into(), value.into()));
        self
    }
    /// Replace the body, e.g. with a [`Body::Drip`] or [`Body::Endless`]; the headers stay.
    pub fn with_body(mut self, body: Body) -> Reply {
        self.body = body;
        self
    }
}

type Handler = Arc<dyn Fn(&Request) -> Reply + Send + Sync>;

/// A test certificate authority and a server certificate it issued for 127.0.0.1/localhost.
///
/// A client trusts [`Server::start_tls`] servers only once this CA is among its roots; each
/// `TestCa` is a new CA, so a client trusting one does not trust another.
pub struct TestCa {
    /// The CA certificate (common name `smolweb test CA`) in PEM form.
    pub ca_pem: String,
    /// The server certificate the CA issued (names `localhost` and `127.0.0.1`), in DER form.
    pub leaf: CertificateDer<'static>,
    leaf_key: PrivatePkcs8KeyDer<'static>,
}

impl TestCa {
    /// A new CA with fresh keys and its server certificate, both with rcgen's default
    /// validity (1975 to 4096, so they never expire during a test).
    ///
    /// Panics if rcgen cannot generate a key or sign a certificate.
    pub fn new() -> TestCa {
        let ca_key = rcgen::KeyPair::generate().unwrap();
        let mut ca_params = rcgen::CertificateParams::new(Vec::<String>::new()).unwrap();
        ca_params.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
        ca_params
            .distinguished_name
            .push(rcgen::DnType::CommonName, "smolweb test CA");
        let ca = ca_params.self_signed(&ca_key).unwrap();
        let issuer = rcgen::Issuer::new(ca_params, ca_key);
        let leaf_key = rcgen::KeyPair::generate().unwrap();
        let mut leaf_params = rcgen::CertificateParams::new(vec!["localhost".to_string()]).unwrap();
        leaf_params
            .subject_alt_names
            .push(rcgen::SanType::IpAddress([127, 0, 0, 1].into()));
        let leaf = leaf_params.signed_by(&leaf_key, &issuer).unwrap();
        TestCa {
            ca_pem: ca.pem(),
            leaf: leaf.der().clone(),
            leaf_key: PrivatePkcs8KeyDer::from(leaf_key.serialize_der()),
        }
    }

    /// Write the CA certificate as PEM into `dir` (file `test-ca.pem`, replaced if present)
    /// and return its path, e.g. for `[web] extra_root_certificates`.
    ///
    /// Panics if the file cannot be written.
    pub fn write_pem(&self, dir: &std::path::Path) -> PathBuf {
        let path = dir.join("test-ca.pem");
        std::fs::write(&path, &self.ca_pem).unwrap();
        path
    }

    fn acceptor(&self) -> tokio_rustls::TlsAcceptor {
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let mut config = rustls::ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .unwrap()
            .with_no_client_auth()
            .with_single_cert(
                vec![self.leaf.clone()],
                PrivateKeyDer::Pkcs8(self.leaf_key.clone_key()),
            )
            .unwrap();
        config.alpn_protocols = vec![b"http/1.1".to_vec()];
        tokio_rustls::TlsAcceptor::from(Arc::new(config))
    }
}

/// A running HTTP server; stops accepting when dropped (connections already accepted are
/// still answered).
///
/// Each connection carries one request: the server reads its head (at most 64 KiB, else the
/// connection is dropped unrecorded), records it, calls the handler and writes the reply,
/// then closes.
pub struct Server {
    addr: SocketAddr,
    tls: bool,
    log: Arc<Mutex<Vec<Request>>>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Server {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl Server {
    /// Plain HTTP on 127.0.0.1 with an ephemeral port; `handler` answers every request. It
    /// runs on the connection's task, so it should answer at once.
    ///
    /// Must run inside a tokio runtime; panics if the listening socket cannot be bound.
    pub async fn start(handler: impl Fn(&Request) -> Reply + Send + Sync + 'static) -> Server {
        Server::spawn(Arc::new(handler), None).await
    }

    /// HTTPS with the server certificate issued by `ca` (TLS 1.2 or 1.3, ALPN `http/1.1`),
    /// otherwise as [`Server::start`]. A failed handshake is not recorded.
    ///
    /// Must run inside a tokio runtime; panics if the listening socket cannot be bound.
    pub async fn start_tls(
        ca: &TestCa,
        handler: impl Fn(&Request) -> Reply + Send + Sync + 'static,
    ) -> Server {
        Server::spawn(Arc::new(handler), Some(ca.acceptor())).await
    }

    async fn spawn(handler: Handler, tls: Option<tokio_rustls::TlsAcceptor>) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let log = Arc::new(Mutex::new(Vec::new()));
        let is_tls = tls.is_some();
        let task_log = log.clone();
        let task = tokio::spawn(async move {
            loop {
                let Ok((stream, _)) = listener.accept().await else {
                    return;
                };
                let handler = handler.clone();
                let log = task_log.clone();
                let tls = tls.clone();
                tokio::spawn(async move {
                    match tls {
                        Some(acceptor) => {
                            if let Ok(s) = acceptor.accept(stream).await {
                                serve(s, handler, log).await;
                            }
                        }
                        None => serve(stream, handler, log).await,
                    }
                });
            }
        });
        Server {
            addr,
            tls: is_tls,
            log,
            task,
        }
    }

    /// The ephemeral port the server listens on.
    pub fn port(&self) -> u16 {
        self.addr.port()
    }

    /// `http(s)://127.0.0.1:PORT` + path (`https` for a [`Server::start_tls`] server); `path`
    /// should start with `/` and may carry a query.
    pub fn url(&self, path: &str) -> String {
        let scheme = if self.tls { "https" } else { "http" };
        format!("{scheme}://127.0.0.1:{}{path}", self.addr.port())
    }

    /// Every request seen so far, in order (each is recorded before the handler runs).
    pub fn requests(&self) -> Vec<Request> {
        self.log.lock().unwrap().clone()
    }

    /// How many requests were seen for this path ([`Request::path`], query ignored).
    pub fn hits(&self, path: &str) -> usize {
        self.requests().iter().filter(|r| r.path() == path).count()
    }
}

async fn serve<S: AsyncRead + AsyncWrite + Unpin>(
    mut stream: S,
    handler: Handler,
    log: Arc<Mutex<Vec<Request>>>,
) {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    let head_end = loop {
        if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break i;
        }
        match stream.read(&mut chunk).await {
            Ok(0) | Err(_) => return,
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
        }
        if buf.len() > 64 * 1024 {
            return;
        }
    };
    let head = String::from_utf8_lossy(&buf[..head_end]).to_string();
    let mut lines = head.split("\r\n");
    let first = lines.next().unwrap_or_default();
    let mut parts = first.split(' ');
    let method = parts.next().unwrap_or_default().to_string();
    let target = parts.next().unwrap_or_default().to_string();
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_string(), v.trim().to_string()))
        .collect();
    let req = Request {
        method,
        target,
        headers,
    };
    log.lock().unwrap().push(req.clone());
    let reply = handler(&req);
    let mut out = format!("HTTP/1.1 {} Test\r\nConnection: close\r\n", reply.status);
    for (n, v) in &reply.headers {
        out.push_str(&format!("{n}: {v}\r\n"));
    }
    if let Body::Bytes(b) = &reply.body {
        out.push_str(&format!("Content-Length: {}\r\n", b.len()));
    }
    out.push_str("\r\n");
    if stream.write_all(out.as_bytes()).await.is_err() {
        return;
    }
    match reply.body {
        Body::Bytes(b) => {
            if req.method != "HEAD" {
                let _ = stream.write_all(&b).await;
            }
        }
        Body::Drip {
            chunk,
            interval,
            count,
        } => {
            for _ in 0..count {
                if stream.write_all(&chunk).await.is_err() || stream.flush().await.is_err() {
                    return;
                }
                tokio::time::sleep(interval).await;
            }
        }
        Body::Endless => {
            let block = vec![b'a'; 16 * 1024];
            while stream.write_all(&block).await.is_ok() {}
        }
    }
    let _ = stream.flush().await;
    let _ = stream.shutdown().await;
}

/// A page that is nearly all chrome (a menu of 40 links, a footer of links) with one line of
/// its own: the main text found on it is likely poor (`extraction_quality` under 0.5).
pub fn chrome_only_page() -> String {
    let menu: String = (0..40)
        .map(|i| format!("<li><a href=\"/section/{i}\">Section number {i} of the site</a></li>"))
        .collect();
    let footer: String = (0..30)
        .map(|i| format!("<a href=\"/legal/{i}\">Legal notice {i}</a> "))
        .collect();
    format!(
        "<!doctype html><html><head><title>Welcome</title></head><body>\
         <header><nav><ul>{menu}</ul></nav></header>\
         <div id=\"app\"><p>Loading.</p></div>\
         <footer><p>{footer}</p><p>Copyright the company, all rights reserved, every year \
         since the company began.</p></footer></body></html>"
    )
}
