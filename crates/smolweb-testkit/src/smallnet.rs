//! In-process servers for the small protocols, one kind per protocol (plain TCP or TLS with a
//! self-signed certificate), each with the framing of its protocol on the server's side:
//!
//! - [`Protocol::Nex`], [`Protocol::Finger`]: one request line (to LF), then the reply.
//! - [`Protocol::Spartan`]: the line `host path length`, then exactly `length` bytes of data.
//! - [`Protocol::Scroll`], [`Protocol::Gophers`]: TLS, one request line, then the reply.
//! - [`Protocol::Titan`]: TLS, the line with its `;size=N`, then N bytes; an
//!   [`Reply::Early`] is written before the body is read (a capsule refusing early).
//!
//! ```ignore
//! let server = smallnet::Server::start(Protocol::Nex, |req| Reply::text("hello")).await;
//! server.url("/a.txt");   // nex://127.0.0.1:PORT/a.txt
//! server.requests();      // what arrived (line and data block)
//! ```

use crate::certs::TestCert;
use rustls::server::ServerConfig;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::TcpListener;

/// Which protocol the server speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// nex:// (TCP).
    Nex,
    /// finger:// (TCP).
    Finger,
    /// spartan:// (TCP, a data block after the request line).
    Spartan,
    /// scroll:// (TLS).
    Scroll,
    /// gophers:// (TLS).
    Gophers,
    /// titan:// (TLS, an upload after the request line).
    Titan,
}

impl Protocol {
    /// The URL scheme.
    pub fn scheme(self) -> &'static str {
        match self {
            Protocol::Nex => "nex",
            Protocol::Finger => "finger",
            Protocol::Spartan => "spartan",
            Protocol::Scroll => "scroll",
            Protocol::Gophers => "gophers",
            Protocol::Titan => "titan",
        }
    }
    fn tls(self) -> bool {
        matches!(self, Protocol::Scroll | Protocol::Gophers | Protocol::Titan)
    }
}

/// What the server answers.
#[derive(Clone, Debug)]
pub enum Reply {
    /// These bytes, then close.
    Bytes(Vec<u8>),
    /// Titan: these bytes before the upload is read, then close.
    Early(Vec<u8>),
    /// These bytes one at a time, `interval` apart.
    Drip {
        /// Everything sent.
        bytes: Vec<u8>,
        /// The pause after each byte.
        interval: Duration,
    },
    /// `x`s without end until the client goes away.
    Endless,
    /// Nothing for 60 s.
    Silent,
}

impl Reply {
    /// This text, then close.
    pub fn text(text: &str) -> Reply {
        Reply::Bytes(text.as_bytes().to_vec())
    }
}

/// One request as received.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    /// The request line without its line end.
    pub line: String,
    /// The data block (Spartan) or the upload (Titan) that followed, as far as it was read.
    pub data: Vec<u8>,
}

type Handler = Arc<dyn Fn(&Request) -> Reply + Send + Sync>;

struct State {
    protocol: Protocol,
    handler: Handler,
    tls: Option<Arc<ServerConfig>>,
    requests: Mutex<Vec<Request>>,
}

/// A running server; stops accepting when dropped.
pub struct Server {
    addr: SocketAddr,
    state: Arc<State>,
    cert: Option<TestCert>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Server {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl Server {
    /// Serve `protocol` on 127.0.0.1 with an ephemeral port, answering each request with
    /// `handler` (TLS protocols present a fresh self-signed certificate).
    pub async fn start(
        protocol: Protocol,
        handler: impl Fn(&Request) -> Reply + Send + Sync + 'static,
    ) -> Server {
        let cert = protocol.tls().then(TestCert::new);
        let tls = cert.as_ref().map(config);
        let state = Arc::new(State {
            protocol,
            handler: Arc::new(handler),
            tls,
            requests: Mutex::new(Vec::new()),
        });
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = listener.local_addr().expect("addr");
        let task = tokio::spawn(accept_loop(listener, state.clone()));
        Server {
            addr,
            state,
            cert,
            task,
        }
    }
    /// The listening port.
    pub fn port(&self) -> u16 {
        self.addr.port()
    }
    /// `scheme://127.0.0.1:PORT` followed by `path`.
    pub fn url(&self, path: &str) -> String {
        format!(
            "{}://127.0.0.1:{}{path}",
            self.state.protocol.scheme(),
            self.port()
        )
    }
    /// The certificate's fingerprint (TLS protocols).
    pub fn fingerprint(&self) -> Option<String> {
        self.cert.as_ref().map(TestCert::fingerprint)
    }
    /// Every request so far, in order (recorded before it is answered).
    pub fn requests(&self) -> Vec<Request> {
        self.state.requests.lock().unwrap().clone()
    }
}

fn config(cert: &TestCert) -> Arc<ServerConfig> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = ServerConfig::builder_with_provider(provider)
        .with_protocol_versions(&[&rustls::version::TLS13, &rustls::version::TLS12])
        .expect("versions")
        .with_no_client_auth()
        .with_single_cert(vec![cert.der.clone()], cert.key())
        .expect("server cert");
    Arc::new(config)
}

async fn accept_loop(listener: TcpListener, state: Arc<State>) {
    loop {
        let Ok((tcp, _)) = listener.accept().await else {
            continue;
        };
        let _ = tcp.set_nodelay(true);
        let state = state.clone();
        tokio::spawn(async move {
            match &state.tls {
                Some(config) => {
                    let acceptor = tokio_rustls::TlsAcceptor::from(config.clone());
                    if let Ok(tls) = acceptor.accept(tcp).await {
                        serve(tls, &state).await;
                    }
                }
                None => serve(tcp, &state).await,
            }
        });
    }
}

/// Read to LF (at most 4096 bytes, within 5 s); returns the line and the bytes after it.
async fn read_line<S: AsyncRead + Unpin>(s: &mut S) -> Option<(String, Vec<u8>)> {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 1024];
    let read = async {
        loop {
            if let Some(lf) = buf.iter().position(|&b| b == b'\n') {
                let rest = buf.split_off(lf + 1);
                buf.truncate(lf);
                if buf.last() == Some(&b'\r') {
                    buf.pop();
                }
                return Some((String::from_utf8_lossy(&buf).into_owned(), rest));
            }
            if buf.len() > 4096 {
                return None;
            }
            let n = s.read(&mut chunk).await.ok()?;
            if n == 0 {
                return None;
            }
            buf.extend_from_slice(&chunk[..n]);
        }
    };
    tokio::time::timeout(Duration::from_secs(5), read)
        .await
        .ok()
        .flatten()
}

/// How many data bytes follow the request line.
fn data_len(protocol: Protocol, line: &str) -> usize {
    match protocol {
        Protocol::Spartan => line
            .rsplit(' ')
            .next()
            .and_then(|n| n.parse().ok())
            .unwrap_or(0),
        Protocol::Titan => line
            .split('?')
            .next()
            .unwrap_or("")
            .split(';')
            .find_map(|p| p.strip_prefix("size="))
            .and_then(|n| n.parse().ok())
            .unwrap_or(0),
        _ => 0,
    }
}

async fn serve<S: AsyncRead + AsyncWrite + Unpin>(mut s: S, state: &State) {
    let Some((line, mut data)) = read_line(&mut s).await else {
        return;
    };
    let want = data_len(state.protocol, &line).min(64 * 1024 * 1024);
    let probe = Request {
        line: line.clone(),
        data: Vec::new(),
    };
    let reply = (state.handler)(&probe);
    if let Reply::Early(bytes) = &reply {
        state.requests.lock().unwrap().push(Request { line, data });
        let _ = s.write_all(bytes).await;
        let _ = s.shutdown().await;
        return;
    }
    let mut chunk = vec![0u8; 16 * 1024];
    while data.len() < want {
        let read = tokio::time::timeout(Duration::from_secs(5), s.read(&mut chunk)).await;
        match read {
            Ok(Ok(n)) if n > 0 => data.extend_from_slice(&chunk[..n]),
            _ => break,
        }
    }
    let req = Request { line, data };
    state.requests.lock().unwrap().push(req.clone());
    let reply = (state.handler)(&req);
    match reply {
        Reply::Bytes(bytes) | Reply::Early(bytes) => {
            let _ = s.write_all(&bytes).await;
            let _ = s.shutdown().await;
        }
        Reply::Drip { bytes, interval } => {
            for b in bytes {
                if s.write_all(&[b]).await.is_err() || s.flush().await.is_err() {
                    return;
                }
                tokio::time::sleep(interval).await;
            }
            let _ = s.shutdown().await;
        }
        Reply::Endless => {
            let chunk = vec![b'x'; 16 * 1024];
            while s.write_all(&chunk).await.is_ok() {}
        }
        Reply::Silent => tokio::time::sleep(Duration::from_secs(60)).await,
    }
}
