//! An in-process Gopher server (plain TCP).
//!
//! ```ignore
//! let server = support::gopher::Server::start(
//!     Routes::new().route("", Reply::menu(&[("0", "About", "/about")])),
//! ).await;
//! server.url('1', "");                // gopher://127.0.0.1:PORT/1
//! server.requests();                  // selector + search of every request
//! ```

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::AsyncWriteExt;
use tokio::net::{TcpListener, TcpStream};

/// What the server answers to one request. Gopher has no header or status: the reply is the
/// whole byte stream the client reads before the close.
#[derive(Clone, Debug)]
pub enum Reply {
    /// These bytes, then close.
    Bytes(Vec<u8>),
    /// These bytes one at a time, `interval` apart, then close. Stops early if the client
    /// goes away.
    Drip {
        /// Everything sent.
        bytes: Vec<u8>,
        /// The pause after each byte.
        interval: Duration,
    },
    /// Bytes without end: `x`s in 16 KiB writes until a write fails (the client closed).
    Endless,
    /// Never answer: the connection is kept open for 60 s, then closed.
    Silent,
}

impl Reply {
    /// This text as-is, then close (no `.` line is added: write it yourself if the test
    /// wants one).
    pub fn text(text: &str) -> Reply {
        Reply::Bytes(text.as_bytes().to_vec())
    }
    /// A menu of `(type, display, selector)` items, terminated by ".". Every item names the
    /// placeholder host `127.0.0.1` port `70`, not this server's port: a test that follows a
    /// link must map it to the server itself.
    pub fn menu(items: &[(&str, &str, &str)]) -> Reply {
        let mut out = String::new();
        for (t, display, selector) in items {
            out.push_str(&format!("{t}{display}\t{selector}\t127.0.0.1\t70\r\n"));
        }
        out.push_str(".\r\n");
        Reply::Bytes(out.into_bytes())
    }
}

/// One received request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    /// The raw line without CRLF.
    pub raw: String,
    /// The line up to the first TAB (the whole line without one): what routes match.
    pub selector: String,
    /// The part after a TAB, if any.
    pub search: Option<String>,
}

type Handler = Arc<dyn Fn(&Request) -> Reply + Send + Sync>;

/// Selector -> reply, with an optional fallback handler (default: a type-3 error line).
///
/// A route matches [`Request::selector`] exactly (a search after a TAB plays no part); the
/// root menu is the empty selector `""`.
#[derive(Clone, Default)]
pub struct Routes {
    map: HashMap<String, Reply>,
    handler: Option<Handler>,
}

impl Routes {
    /// No routes and no handler: every request gets a type-3 `not found` menu.
    pub fn new() -> Routes {
        Routes::default()
    }
    /// Answer requests for exactly `selector` with `reply`. A second route for the same
    /// selector replaces the first.
    pub fn route(mut self, selector: &str, reply: Reply) -> Routes {
        self.map.insert(selector.to_string(), reply);
        self
    }
    /// Called for selectors without a route, with the request as recorded. It runs on the
    /// connection's task, so it should answer at once; a later call replaces the handler.
    pub fn handler(mut self, f: impl Fn(&Request) -> Reply + Send + Sync + 'static) -> Routes {
        self.handler = Some(Arc::new(f));
        self
    }
    fn reply(&self, req: &Request) -> Reply {
        if let Some(r) = self.map.get(&req.selector) {
            return r.clone();
        }
        match &self.handler {
            Some(f) => f(req),
            None => Reply::text("3not found\t\terror.host\t1\r\n.\r\n"),
        }
    }
}

struct State {
    routes: Routes,
    requests: Mutex<Vec<Request>>,
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
    /// Serve `routes` on 127.0.0.1 with an ephemeral port. Each connection carries one
    /// request line; the server records it, then answers and closes.
    ///
    /// Must run inside a tokio runtime; panics if the listening socket cannot be bound.
    pub async fn start(routes: Routes) -> Server {
        let state = Arc::new(State {
            routes,
            requests: Mutex::new(Vec::new()),
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
    /// `gopher://127.0.0.1:PORT/<type><selector>` (selector used as given: encode it yourself).
    pub fn url(&self, item_type: char, selector: &str) -> String {
        format!("gopher://127.0.0.1:{}/{item_type}{selector}", self.port())
    }
    /// Every request received so far, in order. A request is recorded before it is answered,
    /// and only when a full line (at most 4096 bytes) arrived within 5 s of the connection.
    pub fn requests(&self) -> Vec<Request> {
        self.state.requests.lock().unwrap().clone()
    }
}

async fn accept_loop(listener: TcpListener, state: Arc<State>) {
    loop {
        let Ok((tcp, _)) = listener.accept().await else {
            continue;
        };
        let _ = tcp.set_nodelay(true);
        tokio::spawn(serve(tcp, state.clone()));
    }
}

async fn serve(mut tcp: TcpStream, state: Arc<State>) {
    let Some(raw) = super::gemini::read_line(&mut tcp).await else {
        return;
    };
    let (selector, search) = match raw.split_once('\t') {
        Some((s, q)) => (s.to_string(), Some(q.to_string())),
        None => (raw.clone(), None),
    };
    let req = Request {
        raw,
        selector,
        search,
    };
    state.requests.lock().unwrap().push(req.clone());
    match state.routes.reply(&req) {
        Reply::Bytes(bytes) => {
            let _ = tcp.write_all(&bytes).await;
            let _ = tcp.shutdown().await;
        }
        Reply::Drip { bytes, interval } => {
            for b in bytes {
                if tcp.write_all(&[b]).await.is_err() {
                    return;
                }
                tokio::time::sleep(interval).await;
            }
        }
        Reply::Endless => {
            let chunk = vec![b'x'; 16 * 1024];
            while tcp.write_all(&chunk).await.is_ok() {}
        }
        Reply::Silent => tokio::time::sleep(Duration::from_secs(60)).await,
    }
}
