//! A SOCKS5 proxy (RFC 1928) on 127.0.0.1 for the proxy tests: no authentication, CONNECT
//! only, with the domain-name address type, IPv4 and IPv6.
//!
//! It resolves names from its own table (names a test made up, which no DNS server knows), so
//! a page that arrives through it shows that the name was resolved by the proxy, and its
//! record of what it was asked ([`Proxy::requests`]) shows the form the name came in. Knobs:
//! answer every CONNECT with a refusal code ([`Proxy::refuse_with`]), or ask for a user name
//! and password ([`Proxy::start_with_auth`]), which the client is expected to refuse.
//!
//! ```ignore
//! let proxy = socks::Proxy::start(&[("capsule.test", server.addr())]).await;
//! // config: [network] socks5 = proxy.addr()
//! proxy.requests(); // [Target::Name("capsule.test", PORT)]
//! ```

use std::collections::HashMap;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::{Arc, Mutex};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// What a client asked the proxy to connect to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// A name, for the proxy to resolve (address type 3), and the port.
    Name(String, u16),
    /// An address (type 1 or 4) and the port.
    Address(SocketAddr),
}

struct State {
    names: HashMap<String, SocketAddr>,
    requests: Mutex<Vec<Target>>,
    greetings: Mutex<usize>,
    refuse: Mutex<Option<u8>>,
    want_auth: bool,
}

/// A running proxy; stops accepting when dropped.
pub struct Proxy {
    addr: SocketAddr,
    state: Arc<State>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Proxy {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl Proxy {
    /// A proxy that resolves the names of `names` (compared without case) to their addresses;
    /// any other name is answered "host unreachable" (reply 4), as Tor answers a name it
    /// cannot resolve. Addresses are connected to as given.
    ///
    /// Must run inside a tokio runtime; panics if the listening socket cannot be bound.
    pub async fn start(names: &[(&str, SocketAddr)]) -> Proxy {
        Proxy::start_inner(names, false).await
    }

    /// A proxy that accepts only user name and password authentication (method 2), so a
    /// client that offers none is answered "no acceptable methods".
    pub async fn start_with_auth() -> Proxy {
        Proxy::start_inner(&[], true).await
    }

    async fn start_inner(names: &[(&str, SocketAddr)], want_auth: bool) -> Proxy {
        let state = Arc::new(State {
            names: names
                .iter()
                .map(|(n, a)| (n.to_ascii_lowercase(), *a))
                .collect(),
            requests: Mutex::new(Vec::new()),
            greetings: Mutex::new(0),
            refuse: Mutex::new(None),
            want_auth,
        });
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = listener.local_addr().expect("addr");
        let task = tokio::spawn(accept_loop(listener, state.clone()));
        Proxy { addr, state, task }
    }

    /// The proxy's address, as `[network] socks5` names it.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Every CONNECT received so far, in order (recorded before it is answered).
    pub fn requests(&self) -> Vec<Target> {
        self.state.requests.lock().unwrap().clone()
    }

    /// Method negotiations received so far (one per connection that spoke SOCKS5).
    pub fn greetings(&self) -> usize {
        *self.state.greetings.lock().unwrap()
    }

    /// Answer every later CONNECT with this reply code (2: not allowed by the rules, 4: host
    /// unreachable, ...) instead of connecting; None connects again.
    pub fn refuse_with(&self, reply: Option<u8>) {
        *self.state.refuse.lock().unwrap() = reply;
    }
}

async fn accept_loop(listener: TcpListener, state: Arc<State>) {
    loop {
        let Ok((tcp, _)) = listener.accept().await else {
            continue;
        };
        tokio::spawn(serve(tcp, state.clone()));
    }
}

/// A reply with an IPv4 bound address of zeros.
fn reply(code: u8) -> [u8; 10] {
    [5, code, 0, 1, 0, 0, 0, 0, 0, 0]
}

async fn serve(mut tcp: TcpStream, state: Arc<State>) {
    let mut head = [0u8; 2];
    if tcp.read_exact(&mut head).await.is_err() || head[0] != 5 {
        return;
    }
    let mut methods = vec![0u8; usize::from(head[1])];
    if tcp.read_exact(&mut methods).await.is_err() {
        return;
    }
    *state.greetings.lock().unwrap() += 1;
    let wanted = if state.want_auth { 2 } else { 0 };
    if !methods.contains(&wanted) {
        let _ = tcp.write_all(&[5, 0xff]).await;
        return;
    }
    if tcp.write_all(&[5, wanted]).await.is_err() || state.want_auth {
        return;
    }
    let Some((command, target)) = read_request(&mut tcp).await else {
        return;
    };
    state.requests.lock().unwrap().push(target.clone());
    if command != 1 {
        let _ = tcp.write_all(&reply(7)).await;
        return;
    }
    let refusal = *state.refuse.lock().unwrap();
    if let Some(code) = refusal {
        let _ = tcp.write_all(&reply(code)).await;
        return;
    }
    let dest = match target {
        Target::Address(a) => a,
        Target::Name(name, port) => match state.names.get(&name.to_ascii_lowercase()) {
            Some(a) => SocketAddr::new(a.ip(), port),
            None => {
                let _ = tcp.write_all(&reply(4)).await;
                return;
            }
        },
    };
    let Ok(mut upstream) = TcpStream::connect(dest).await else {
        let _ = tcp.write_all(&reply(5)).await;
        return;
    };
    if tcp.write_all(&reply(0)).await.is_err() {
        return;
    }
    let _ = tokio::io::copy_bidirectional(&mut tcp, &mut upstream).await;
}

/// The CONNECT request: the command and the target.
async fn read_request(tcp: &mut TcpStream) -> Option<(u8, Target)> {
    let mut head = [0u8; 4];
    tcp.read_exact(&mut head).await.ok()?;
    if head[0] != 5 {
        return None;
    }
    let target = match head[3] {
        kind @ (1 | 4) => {
            let mut ip = [0u8; 16];
            let len = if kind == 1 { 4 } else { 16 };
            tcp.read_exact(&mut ip[..len]).await.ok()?;
            let ip = match kind {
                1 => IpAddr::V4(Ipv4Addr::new(ip[0], ip[1], ip[2], ip[3])),
                _ => IpAddr::V6(Ipv6Addr::from(ip)),
            };
            Target::Address(SocketAddr::new(ip, read_port(tcp).await?))
        }
        3 => {
            let mut len = [0u8; 1];
            tcp.read_exact(&mut len).await.ok()?;
            let mut name = vec![0u8; usize::from(len[0])];
            tcp.read_exact(&mut name).await.ok()?;
            let name = String::from_utf8(name).ok()?;
            Target::Name(name, read_port(tcp).await?)
        }
        _ => return None,
    };
    Some((head[1], target))
}

async fn read_port(tcp: &mut TcpStream) -> Option<u16> {
    let mut port = [0u8; 2];
    tcp.read_exact(&mut port).await.ok()?;
    Some(u16::from_be_bytes(port))
}
