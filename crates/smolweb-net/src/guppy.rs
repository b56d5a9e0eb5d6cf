//! Guppy (spec v0.4.1; UDP, port 6775): Gemini's small-document idea over UDP, without TLS.
//!
//! The request is one datagram: the absolute URL (its query is the input answer) and CRLF.
//! The answer comes in datagrams, each opening with a line that ends in CRLF:
//! - `1 prompt`: the server asks for input; `3 URL`: a redirect; `4 message`: an error. These
//!   come alone and are not acknowledged.
//! - `SEQ mime-type`, then the first chunk of the document: SEQ is the first packet's number (at
//!   least 6, so it never reads as a status); each next chunk comes as `SEQ+1`, `SEQ+2`, ... with
//!   no meta; the chunk after the last is empty: the end-of-file packet.
//! - Every numbered packet (the end-of-file one too) is acknowledged with `SEQ` CRLF; the
//!   server sends a chunk again until it is acknowledged.
//!
//! Invariants of this client:
//! - The host is resolved and every address checked by the guard before any datagram is sent;
//!   the socket is connected to the checked address, so the kernel drops datagrams from any
//!   other address (a flood from elsewhere never reaches the reader).
//! - One deadline (`opts.timeout`) bounds the whole exchange: the request is sent again after
//!   [`RESEND`] of silence until the first answer, and the last acknowledgement is sent again
//!   after a silence later, never past the deadline; a peer that never answers is a
//!   `TIMEOUT`, one that only sent what is not Guppy is a `PROTOCOL_ERROR`.
//! - Lost, duplicated and reordered packets are handled: a duplicate is acknowledged again (its
//!   first acknowledgement may have been lost) and never appended twice; a packet ahead of the
//!   next one is kept (at most [`MAX_AHEAD`] packets ahead, the rest dropped unacknowledged,
//!   so the server sends them again); packets before the first or after the end are ignored.
//! - The body, with what is kept ahead, is bounded by `opts.max_body`: a server that never
//!   sends the end (endless packets) is `RESPONSE_TOO_LARGE` or a `TIMEOUT`, whichever first.
//! - A datagram that does not parse is ignored (counted), never a panic.

use super::{FetchError, NetOptions, ProtocolError, RequestError, guard};
use smolweb_core::url::{Scheme, Url};
use std::collections::BTreeMap;
use std::time::Duration;
use tokio::net::UdpSocket;
use tokio::time::Instant;

/// The longest request URL: with its CRLF the request fits a 1024-byte datagram buffer.
pub(crate) const MAX_URL_BYTES: usize = 1022;
/// The longest header line of a packet read (a number, a space, a meta of 1024 bytes).
pub(crate) const MAX_HEADER_BYTES: usize = 1100;
/// How many packets beyond the next one expected are kept.
pub(crate) const MAX_AHEAD: u64 = 1024;
/// Silence after which the request (or the last acknowledgement) is sent again.
pub(crate) const RESEND: Duration = Duration::from_millis(500);
/// The largest datagram read.
const MAX_DATAGRAM: usize = 65_535;

/// A Guppy answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GuppyResponse {
    /// A document: its MIME type and its bytes.
    Document {
        /// The MIME type of the first packet (`text/gemini` when it gave none).
        mime: String,
        /// The chunks, in order.
        body: Vec<u8>,
    },
    /// Status 1: the server asks for input (its prompt, untrusted).
    Input(String),
    /// Status 3: a redirect (the target as sent, untrusted).
    Redirect(String),
    /// Status 4: an error (the server's message, untrusted).
    Error(String),
}

/// The request datagram for `url` (pure): the URL and CRLF.
pub(crate) fn request_line(url: &Url) -> Result<String, FetchError> {
    if url.scheme() != Scheme::Guppy {
        let url = url.without_query();
        return Err(RequestError::WrongScheme {
            expected: "guppy",
            url,
        }
        .into());
    }
    let s = url.to_string();
    if s.len() > MAX_URL_BYTES {
        let (what, len, limit) = ("guppy URL", s.len(), MAX_URL_BYTES);
        return Err(RequestError::TooLong { what, len, limit }.into());
    }
    Ok(format!("{s}\r\n"))
}

/// One Guppy exchange. The caller holds the timeout too; this one stops at the same deadline
/// with the more precise error.
pub(crate) async fn fetch(url: &Url, opts: &NetOptions) -> Result<GuppyResponse, FetchError> {
    let deadline = Instant::now() + opts.timeout;
    let request = request_line(url)?;
    let (host, port) = (url.host(), url.port());
    let addrs = guard::resolve_checked(host, port, opts).await?;
    let io_err = |e| FetchError::connection(host, port, e);
    let mut last = std::io::Error::from(std::io::ErrorKind::AddrNotAvailable);
    for addr in addrs {
        let local = if addr.is_ipv4() {
            "0.0.0.0:0"
        } else {
            "[::]:0"
        };
        let socket = UdpSocket::bind(local).await.map_err(io_err)?;
        // Connected: only datagrams from the checked address are delivered.
        socket.connect(addr).await.map_err(io_err)?;
        match exchange(&socket, request.as_bytes(), opts, deadline).await {
            // Nothing listens on that address (ICMP port unreachable): try the next one.
            Err(Exchange::Refused(e)) => last = e,
            Err(Exchange::Io(e)) => return Err(io_err(e)),
            Err(Exchange::Failed(e)) => return Err(e),
            Ok(answer) => return Ok(answer),
        }
    }
    Err(io_err(last))
}

/// Why an exchange with one address ended without an answer.
enum Exchange {
    /// The address refused the datagrams.
    Refused(std::io::Error),
    /// Another socket error.
    Io(std::io::Error),
    /// A Guppy failure (timeout, protocol, too large).
    Failed(FetchError),
}

impl From<std::io::Error> for Exchange {
    fn from(e: std::io::Error) -> Self {
        if e.kind() == std::io::ErrorKind::ConnectionRefused {
            Exchange::Refused(e)
        } else {
            Exchange::Io(e)
        }
    }
}

async fn exchange(
    socket: &UdpSocket,
    request: &[u8],
    opts: &NetOptions,
    deadline: Instant,
) -> Result<GuppyResponse, Exchange> {
    let mut transfer = Transfer::new(opts.max_body);
    let mut buf = vec![0u8; MAX_DATAGRAM];
    socket.send(request).await?;
    let mut last_sent = Instant::now();
    loop {
        let wake = (last_sent + RESEND).min(deadline);
        let n = match tokio::time::timeout_at(wake, socket.recv(&mut buf)).await {
            Ok(received) => received?,
            Err(_) if Instant::now() >= deadline => {
                return Err(Exchange::Failed(transfer.gave_up(opts.timeout)));
            }
            Err(_) => {
                // Silence: ask again, or say again what arrived last.
                match transfer.last_ack() {
                    None => socket.send(request).await?,
                    Some(seq) => socket.send(ack(seq).as_bytes()).await?,
                };
                last_sent = Instant::now();
                continue;
            }
        };
        let step = transfer.take(&buf[..n]).map_err(Exchange::Failed)?;
        if let Some(p) = &opts.progress {
            p.send_replace(transfer.received());
        }
        match step {
            Step::Ignore => {}
            Step::Ack(seq) => {
                socket.send(ack(seq).as_bytes()).await?;
                last_sent = Instant::now();
            }
            Step::Done { ack: seq, answer } => {
                if let Some(seq) = seq {
                    // The last acknowledgement may be lost; the server then gives up on its own.
                    let _ = socket.send(ack(seq).as_bytes()).await;
                }
                return Ok(answer);
            }
        }
    }
}

fn ack(seq: u64) -> String {
    format!("{seq}\r\n")
}

/// What to do after a datagram.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// Nothing (a stray, late or malformed datagram).
    Ignore,
    /// Acknowledge packet `seq`, and keep reading.
    Ack(u64),
    /// The answer is whole; acknowledge `ack` first when set.
    Done {
        /// The packet to acknowledge.
        ack: Option<u64>,
        /// The answer.
        answer: GuppyResponse,
    },
}

/// One datagram's opening line: a number and, after a space, a meta.
struct Packet<'a> {
    number: u64,
    meta: Option<&'a [u8]>,
    data: &'a [u8],
}

fn parse_packet(datagram: &[u8]) -> Option<Packet<'_>> {
    let window = &datagram[..datagram.len().min(MAX_HEADER_BYTES + 2)];
    let end = window.windows(2).position(|w| w == b"\r\n")?;
    let (line, data) = (&datagram[..end], &datagram[end + 2..]);
    let (digits, meta) = match line.iter().position(|&b| b == b' ') {
        Some(space) => (&line[..space], Some(&line[space + 1..])),
        None => (line, None),
    };
    let valid = !digits.is_empty() && digits.len() <= 19 && digits.iter().all(u8::is_ascii_digit);
    let number = std::str::from_utf8(digits)
        .ok()?
        .parse()
        .ok()
        .filter(|_| valid)?;
    Some(Packet { number, meta, data })
}

/// The reassembly of one answer (pure, so every hostile order is testable without sockets).
pub(crate) struct Transfer {
    max_body: u64,
    /// The first packet's number and MIME type, once it arrived.
    first: Option<(u64, String)>,
    /// The next packet to append.
    next: u64,
    body: Vec<u8>,
    /// Packets that arrived ahead of `next` (or before the first packet).
    ahead: BTreeMap<u64, Vec<u8>>,
    ahead_bytes: u64,
    /// The end-of-file packet's number, once seen.
    eof: Option<u64>,
    /// The last packet acknowledged.
    last_ack: Option<u64>,
    /// Datagrams that were not Guppy.
    malformed: u64,
    /// Datagrams that were.
    valid: u64,
}

impl Transfer {
    pub(crate) fn new(max_body: u64) -> Transfer {
        Transfer {
            max_body,
            first: None,
            next: 0,
            body: Vec::new(),
            ahead: BTreeMap::new(),
            ahead_bytes: 0,
            eof: None,
            last_ack: None,
            malformed: 0,
            valid: 0,
        }
    }

    /// The last packet acknowledged (to say again after a silence).
    pub(crate) fn last_ack(&self) -> Option<u64> {
        self.last_ack
    }

    /// Bytes received so far.
    pub(crate) fn received(&self) -> u64 {
        self.body.len() as u64 + self.ahead_bytes
    }

    /// The error when the deadline passed without a whole answer.
    pub(crate) fn gave_up(&self, budget: Duration) -> FetchError {
        if self.valid == 0 && self.malformed > 0 {
            ProtocolError::NotGuppy.into()
        } else {
            FetchError::Timeout(budget)
        }
    }

    /// Take one datagram.
    pub(crate) fn take(&mut self, datagram: &[u8]) -> Result<Step, FetchError> {
        let Some(packet) = parse_packet(datagram) else {
            self.malformed += 1;
            return Ok(Step::Ignore);
        };
        self.valid += 1;
        if packet.number < 6 {
            return self.status(packet);
        }
        let seq = packet.number;
        match (packet.meta, &self.first) {
            // A first packet (it carries the MIME type).
            (Some(mime), None) => {
                let mime = String::from_utf8_lossy(mime).trim().to_string();
                let mime = if mime.is_empty() {
                    "text/gemini".to_string()
                } else {
                    mime
                };
                self.first = Some((seq, mime));
                self.next = seq;
                // What came before it and is not after it belongs to no answer of ours.
                let stray: Vec<u64> = self.ahead.range(..=seq).map(|(k, _)| *k).collect();
                for k in stray {
                    self.drop_ahead(k);
                }
                if self.eof.is_some_and(|e| e <= seq) {
                    self.eof = None;
                }
                self.keep(seq, packet.data.to_vec())?;
            }
            // The first packet again: its acknowledgement was lost.
            (Some(_), Some((first, _))) if seq == *first => {}
            // Another answer's first packet: not ours.
            (Some(_), Some(_)) => return Ok(Step::Ignore),
            (None, first) => {
                let first = first.as_ref().map(|(f, _)| *f);
                let past_end = self
                    .eof
                    .is_some_and(|e| seq > e || (seq == e && !packet.data.is_empty()));
                if first.is_some_and(|f| seq <= f) || past_end {
                    return Ok(Step::Ignore);
                }
                if first.is_some() && seq < self.next {
                    // Appended already: acknowledge again (the first acknowledgement was lost).
                    return Ok(self.ack(seq));
                }
                let base = first.map_or(seq, |_| self.next);
                if seq - base > MAX_AHEAD
                    || (first.is_none() && self.ahead.len() as u64 > MAX_AHEAD)
                {
                    // Too far ahead to keep: not acknowledged, so it comes again later.
                    return Ok(Step::Ignore);
                }
                if packet.data.is_empty() {
                    if self.eof.is_some_and(|e| e != seq) {
                        return Ok(Step::Ignore);
                    }
                    self.eof = Some(seq);
                } else {
                    self.keep(seq, packet.data.to_vec())?;
                }
            }
        }
        self.advance();
        match (&self.first, self.eof) {
            (Some((_, mime)), Some(eof)) if self.next == eof => {
                self.last_ack = Some(seq);
                let answer = GuppyResponse::Document {
                    mime: mime.clone(),
                    body: std::mem::take(&mut self.body),
                };
                Ok(Step::Done {
                    ack: Some(seq),
                    answer,
                })
            }
            _ => Ok(self.ack(seq)),
        }
    }

    fn ack(&mut self, seq: u64) -> Step {
        self.last_ack = Some(seq);
        Step::Ack(seq)
    }

    /// A status packet (1 input, 3 redirect, 4 error); others are not Guppy's.
    fn status(&mut self, packet: Packet<'_>) -> Result<Step, FetchError> {
        if self.first.is_some() {
            // A document is under way: a status now belongs to no request of ours.
            return Ok(Step::Ignore);
        }
        let meta = String::from_utf8_lossy(packet.meta.unwrap_or_default()).into_owned();
        let answer = match packet.number {
            1 => GuppyResponse::Input(meta),
            3 => GuppyResponse::Redirect(meta),
            4 => GuppyResponse::Error(meta),
            other => return Err(ProtocolError::GuppyStatus(other).into()),
        };
        Ok(Step::Done { ack: None, answer })
    }

    /// Keep packet `seq` ahead (once), within the body limit.
    fn keep(&mut self, seq: u64, data: Vec<u8>) -> Result<(), FetchError> {
        if self.ahead.contains_key(&seq) {
            return Ok(());
        }
        let size = data.len() as u64;
        if self.body.len() as u64 + self.ahead_bytes + size > self.max_body {
            return Err(FetchError::TooLarge {
                limit: self.max_body,
            });
        }
        self.ahead_bytes += size;
        self.ahead.insert(seq, data);
        Ok(())
    }

    fn drop_ahead(&mut self, seq: u64) {
        if let Some(data) = self.ahead.remove(&seq) {
            self.ahead_bytes -= data.len() as u64;
        }
    }

    /// Append what follows the body in order.
    fn advance(&mut self) {
        if self.first.is_none() {
            return;
        }
        while let Some(data) = self.ahead.remove(&self.next) {
            self.ahead_bytes -= data.len() as u64;
            self.body.extend_from_slice(&data);
            self.next += 1;
        }
    }
}

#[cfg(test)]
mod tests;
