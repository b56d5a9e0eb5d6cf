//! A Guppy server (spec v0.4.1) on 127.0.0.1 UDP with an ephemeral port, with knobs that make
//! the network (or the server) misbehave: lost requests and packets, duplicates, reordering,
//! endless documents, silence, acknowledgements ignored, garbage, and a flood of datagrams from
//! another address.
//!
//! A document is cut into chunks of [`Knobs::chunk`] bytes: the first packet is
//! `SEQ mime CRLF chunk`, the next ones `SEQ+i CRLF chunk`, the last one `SEQ+n CRLF` (the end).
//! Every packet not acknowledged is sent again every [`RESEND`] until the session ends (all
//! acknowledged, or [`SESSION`] after it began). A status answer (`1`, `3`, `4`) is sent once,
//! and again on each repeated request.
//!
//! ```ignore
//! let server = guppy::Server::start(Knobs::default(), |path| Reply::text("# Hi\n")).await;
//! server.url("/a");       // guppy://127.0.0.1:PORT/a
//! server.requests();      // the request lines received (repeats included)
//! server.acks();          // the acknowledgements received
//! ```

use std::collections::{BTreeMap, HashMap, HashSet};
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::net::UdpSocket;

/// How often an unacknowledged packet is sent again.
pub const RESEND: Duration = Duration::from_millis(100);
/// How long a session lasts at most.
pub const SESSION: Duration = Duration::from_secs(10);

/// What the server answers to a request.
#[derive(Clone, Debug)]
pub enum Reply {
    /// A document of this MIME type.
    Document {
        /// The MIME type of the first packet.
        mime: String,
        /// The bytes, cut into chunks.
        body: Vec<u8>,
    },
    /// `1 prompt`: ask for input.
    Input(String),
    /// `3 target`: a redirect.
    Redirect(String),
    /// `4 message`: an error.
    Error(String),
    /// These raw datagrams, once each (a hand-made answer).
    Raw(Vec<Vec<u8>>),
}

impl Reply {
    /// A `text/gemini` document.
    pub fn gemtext(text: &str) -> Reply {
        Reply::Document {
            mime: "text/gemini".into(),
            body: text.as_bytes().to_vec(),
        }
    }
}

/// How the server (or the network before it) misbehaves.
#[derive(Clone, Debug)]
pub struct Knobs {
    /// Bytes per chunk.
    pub chunk: usize,
    /// The first packet's number (6 or more).
    pub first_seq: u64,
    /// Requests ignored before one is answered (lost on the way).
    pub drop_requests: usize,
    /// Packets (by index in their answer: 0 is the first) whose first sending by this server
    /// is lost (once per index, whichever answer it belongs to).
    pub drop_first_send: Vec<usize>,
    /// Every packet is sent twice.
    pub duplicate: bool,
    /// The packets of the first sending go out last first.
    pub reverse: bool,
    /// No end: new chunks keep coming, whatever is acknowledged.
    pub endless: bool,
    /// Nothing is ever answered.
    pub silent: bool,
    /// Acknowledgements are ignored: every packet is sent again and again until the session
    /// ends.
    pub ignore_acks: bool,
    /// Datagrams of junk sent to the client from the server's own address before the answer.
    pub garbage_first: usize,
    /// Datagrams of junk (looking like packets) sent to the client from another socket on
    /// loopback before the answer: a flood from another address.
    pub flood_from_elsewhere: usize,
}

impl Default for Knobs {
    fn default() -> Self {
        Knobs {
            chunk: 512,
            first_seq: 1_000_006,
            drop_requests: 0,
            drop_first_send: Vec::new(),
            duplicate: false,
            reverse: false,
            endless: false,
            silent: false,
            ignore_acks: false,
            garbage_first: 0,
            flood_from_elsewhere: 0,
        }
    }
}

type Handler = Arc<dyn Fn(&str) -> Reply + Send + Sync>;

#[derive(Default)]
struct Seen {
    requests: Vec<String>,
    acks: Vec<u64>,
    floods_sent: usize,
}

/// A running server; stops when dropped.
pub struct Server {
    addr: SocketAddr,
    seen: Arc<Mutex<Seen>>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Server {
    fn drop(&mut self) {
        self.task.abort();
    }
}

struct Session {
    started: Instant,
    /// Packets by number, with when each was last sent and whether it was acknowledged.
    packets: BTreeMap<u64, Packet>,
    /// Endless mode: the next number to make.
    next: u64,
    sent_once: bool,
    /// A status or hand-made answer: each datagram goes once (and again on a repeated
    /// request), never waiting for an acknowledgement.
    unnumbered: bool,
}

struct Packet {
    bytes: Vec<u8>,
    index: usize,
    last_sent: Option<Instant>,
    acked: bool,
}

impl Server {
    /// Serve on 127.0.0.1 (an ephemeral UDP port); `handler` gets the request's path (with its
    /// `?query` when there is one).
    pub async fn start(
        knobs: Knobs,
        handler: impl Fn(&str) -> Reply + Send + Sync + 'static,
    ) -> Server {
        let socket = UdpSocket::bind("127.0.0.1:0").await.expect("bind udp");
        let addr = socket.local_addr().expect("udp addr");
        let seen = Arc::new(Mutex::new(Seen::default()));
        let handler: Handler = Arc::new(handler);
        let task = tokio::spawn(serve(socket, knobs, handler, seen.clone()));
        Server { addr, seen, task }
    }

    /// `guppy://127.0.0.1:PORT{path}`.
    pub fn url(&self, path: &str) -> String {
        format!("guppy://127.0.0.1:{}{path}", self.addr.port())
    }

    /// The port.
    pub fn port(&self) -> u16 {
        self.addr.port()
    }

    /// The request lines received, without CRLF (repeats included).
    pub fn requests(&self) -> Vec<String> {
        self.seen.lock().unwrap().requests.clone()
    }

    /// The acknowledgements received, in order.
    pub fn acks(&self) -> Vec<u64> {
        self.seen.lock().unwrap().acks.clone()
    }

    /// How many datagrams the flood from elsewhere sent.
    pub fn floods_sent(&self) -> usize {
        self.seen.lock().unwrap().floods_sent
    }
}

async fn serve(socket: UdpSocket, knobs: Knobs, handler: Handler, seen: Arc<Mutex<Seen>>) {
    let mut sessions: HashMap<SocketAddr, Session> = HashMap::new();
    let mut lost = HashSet::new();
    let mut requests_seen = 0usize;
    let mut buf = vec![0u8; 65_535];
    let mut tick = tokio::time::interval(RESEND / 2);
    loop {
        tokio::select! {
            got = socket.recv_from(&mut buf) => {
                let Ok((n, peer)) = got else { continue };
                let text = String::from_utf8_lossy(&buf[..n]).into_owned();
                let Some(line) = text.strip_suffix("\r\n") else { continue };
                if let Ok(seq) = line.parse::<u64>() {
                    seen.lock().unwrap().acks.push(seq);
                    if !knobs.ignore_acks
                        && let Some(p) = sessions.get_mut(&peer).and_then(|s| s.packets.get_mut(&seq))
                    {
                        p.acked = true;
                    }
                    continue;
                }
                seen.lock().unwrap().requests.push(line.to_string());
                requests_seen += 1;
                if knobs.silent || requests_seen <= knobs.drop_requests {
                    continue;
                }
                if let Some(session) = sessions.get_mut(&peer) {
                    // A repeated request: what is not acknowledged goes out again.
                    for p in session.packets.values_mut() {
                        p.last_sent = None;
                    }
                    continue;
                }
                let path = line
                    .strip_prefix("guppy://")
                    .and_then(|rest| rest.find('/').map(|i| rest[i..].to_string()))
                    .unwrap_or_else(|| "/".into());
                for i in 0..knobs.garbage_first {
                    let _ = socket.send_to(format!("junk {i} without a line end").as_bytes(), peer).await;
                }
                flood(&knobs, peer, &seen).await;
                let session = open(&knobs, handler(&path));
                sessions.insert(peer, session);
                send_due(&socket, &knobs, &mut lost, peer, sessions.get_mut(&peer)).await;
            }
            _ = tick.tick() => {
                let peers: Vec<SocketAddr> = sessions.keys().copied().collect();
                for peer in peers {
                    send_due(&socket, &knobs, &mut lost, peer, sessions.get_mut(&peer)).await;
                }
                sessions.retain(|_, s| {
                    s.started.elapsed() < SESSION && (knobs.endless || s.packets.values().any(|p| !p.acked))
                });
            }
        }
    }
}

/// Junk that looks like Guppy packets, sent to `peer` from another socket on loopback.
async fn flood(knobs: &Knobs, peer: SocketAddr, seen: &Mutex<Seen>) {
    if knobs.flood_from_elsewhere == 0 {
        return;
    }
    let Ok(other) = UdpSocket::bind("127.0.0.1:0").await else {
        return;
    };
    let seq = knobs.first_seq;
    for i in 0..knobs.flood_from_elsewhere {
        let fake = match i % 3 {
            0 => format!("{seq} text/gemini\r\n# Forged from elsewhere\n"),
            1 => format!("{}\r\nforged chunk\n", seq + 1),
            _ => format!("{}\r\n", seq + 2),
        };
        if other.send_to(fake.as_bytes(), peer).await.is_ok() {
            seen.lock().unwrap().floods_sent += 1;
        }
    }
}

fn open(knobs: &Knobs, reply: Reply) -> Session {
    let mut packets = BTreeMap::new();
    let mut add = |seq: u64, bytes: Vec<u8>| {
        let index = packets.len();
        packets.insert(
            seq,
            Packet {
                bytes,
                index,
                last_sent: None,
                acked: false,
            },
        );
    };
    let seq = knobs.first_seq;
    let mut next = seq;
    let unnumbered = !matches!(reply, Reply::Document { .. });
    match reply {
        Reply::Input(p) => add(1, format!("1 {p}\r\n").into_bytes()),
        Reply::Redirect(t) => add(3, format!("3 {t}\r\n").into_bytes()),
        Reply::Error(m) => add(4, format!("4 {m}\r\n").into_bytes()),
        Reply::Raw(datagrams) => {
            for (i, d) in datagrams.into_iter().enumerate() {
                add(i as u64, d);
            }
        }
        Reply::Document { mime, body } => {
            let mut chunks = body.chunks(knobs.chunk.max(1));
            let head = chunks.next().unwrap_or_default();
            let mut first = format!("{seq} {mime}\r\n").into_bytes();
            first.extend_from_slice(head);
            add(seq, first);
            next += 1;
            for c in chunks {
                let mut p = format!("{next}\r\n").into_bytes();
                p.extend_from_slice(c);
                add(next, p);
                next += 1;
            }
            if !knobs.endless {
                add(next, format!("{next}\r\n").into_bytes());
                next += 1;
            }
        }
    }
    Session {
        started: Instant::now(),
        packets,
        next,
        sent_once: false,
        unnumbered,
    }
}

async fn send_due(
    socket: &UdpSocket,
    knobs: &Knobs,
    lost: &mut HashSet<usize>,
    peer: SocketAddr,
    session: Option<&mut Session>,
) {
    let Some(session) = session else { return };
    if knobs.endless {
        // Eight new chunks a round, whatever was acknowledged.
        for _ in 0..8 {
            let seq = session.next;
            let mut p = format!("{seq}\r\n").into_bytes();
            p.extend(std::iter::repeat_n(b'x', knobs.chunk.max(1)));
            let index = session.packets.len();
            session.packets.insert(
                seq,
                Packet {
                    bytes: p,
                    index,
                    last_sent: None,
                    acked: false,
                },
            );
            session.next += 1;
        }
    }
    let now = Instant::now();
    let mut due: Vec<&mut Packet> = session
        .packets
        .values_mut()
        .filter(|p| !p.acked && p.last_sent.is_none_or(|t| now - t >= RESEND))
        .collect();
    let first_round = !session.sent_once;
    let unnumbered = session.unnumbered;
    if first_round && knobs.reverse {
        due.reverse();
    }
    for p in due {
        let dropped = knobs.drop_first_send.contains(&p.index) && lost.insert(p.index);
        p.last_sent = Some(now);
        p.acked |= unnumbered;
        if dropped {
            continue;
        }
        let times = if knobs.duplicate { 2 } else { 1 };
        for _ in 0..times {
            let _ = socket.send_to(&p.bytes, peer).await;
        }
    }
    session.sent_once = true;
}
