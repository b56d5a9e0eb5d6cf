//! A TCP relay in front of a test server that counts the connections open through it, so a
//! test can see when the client really closed its upstream connection (whatever the protocol:
//! TLS passes through untouched).
//!
//! ```ignore
//! let tap = support::tap::Tap::start(server.addr()).await;
//! tap.port();          // connect here instead of to the server
//! tap.open();          // connections open now (client side not yet closed)
//! tap.accepted();      // connections accepted so far
//! ```
//!
//! A connection counts as open until the client's side of it ends (EOF or an error on reading
//! from the client): smolweb never half-closes a connection, so that is the client closing it.
//! The relay then stops writing upstream; the server sees the close on its next write.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use tokio::io::AsyncWriteExt;
use tokio::net::{TcpListener, TcpStream};

#[derive(Default)]
struct Counts {
    open: usize,
    accepted: usize,
}

/// A running relay; stops accepting when dropped. Connections already open through it keep
/// being relayed until one side ends them.
pub struct Tap {
    addr: SocketAddr,
    counts: Arc<Mutex<Counts>>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Tap {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl Tap {
    /// Listen on 127.0.0.1 with an ephemeral port and relay every connection made there to
    /// `upstream` (usually a test server's `addr()`). If `upstream` refuses, the client's
    /// connection is dropped; it still counts in [`Tap::accepted`].
    ///
    /// Must run inside a tokio runtime; panics if the listening socket cannot be bound.
    pub async fn start(upstream: SocketAddr) -> Tap {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = listener.local_addr().expect("addr");
        let counts = Arc::new(Mutex::new(Counts::default()));
        let task_counts = counts.clone();
        let task = tokio::spawn(async move {
            loop {
                let Ok((client, _)) = listener.accept().await else {
                    continue;
                };
                let counts = task_counts.clone();
                {
                    let mut c = counts.lock().unwrap();
                    c.open += 1;
                    c.accepted += 1;
                }
                tokio::spawn(relay(client, upstream, counts));
            }
        });
        Tap { addr, counts, task }
    }

    /// The relay's own port on 127.0.0.1: point the client here instead of at the server.
    pub fn port(&self) -> u16 {
        self.addr.port()
    }

    /// Connections open through the relay now: accepted, and the client has not yet closed
    /// its side.
    pub fn open(&self) -> usize {
        self.counts.lock().unwrap().open
    }

    /// Connections accepted so far, open or closed (it never goes down).
    pub fn accepted(&self) -> usize {
        self.counts.lock().unwrap().accepted
    }
}

async fn relay(client: TcpStream, upstream: SocketAddr, counts: Arc<Mutex<Counts>>) {
    let closed = || counts.lock().unwrap().open -= 1;
    let Ok(server) = TcpStream::connect(upstream).await else {
        closed();
        return;
    };
    let _ = client.set_nodelay(true);
    let _ = server.set_nodelay(true);
    let (mut from_client, mut to_client) = client.into_split();
    let (mut from_server, mut to_server) = server.into_split();
    let up = async {
        let _ = tokio::io::copy(&mut from_client, &mut to_server).await;
        closed();
        let _ = to_server.shutdown().await;
    };
    let down = async {
        let _ = tokio::io::copy(&mut from_server, &mut to_client).await;
        let _ = to_client.shutdown().await;
    };
    tokio::join!(up, down);
}
