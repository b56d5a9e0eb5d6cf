//! The stdio front end: smolweb's own reader and writer around rmcp.
//!
//! rmcp's stdio transport ignores a line that is not JSON, drops an over-long line with a note
//! on stderr only, and answers a malformed message without its id. So the front end owns stdin
//! and stdout, and talks to rmcp through an in-memory pipe (tool arguments are checked later,
//! in `mcp::call`, where the session's protocol generation is known):
//! - the reader takes one line at a time with a byte limit (`mcp.max_message_bytes`, default
//!   4 MiB; a longer line is discarded while counted, so memory stays bounded, and answered
//!   with the id found in its first bytes, `head`), judges it (`verdict`) and either hands it
//!   to rmcp or answers it with a JSON-RPC error itself;
//! - one writer task owns stdout and writes whole lines from both rmcp and the reader, so
//!   replies never interleave; before each line it waits for the activity log's writer to be
//!   done with what was queued (`Activity::flush`, free when nothing is pending), so a call
//!   that was answered is recorded even if the process is killed right after;
//! - when stdin ends, the session ends at once: rmcp and the tool calls in flight are dropped
//!   (the client that would read their answers is gone), only lines already queued for stdout
//!   are flushed, within a short bound.
//!
//! Both protocol generations (initialize-style and 2026-07-28) use the same JSON-RPC framing,
//! so the front end needs no knowledge of either.

#[cfg(any(test, feature = "fuzzing"))]
#[doc(hidden)]
pub mod fuzzing;
mod head;
mod lines;
pub(crate) mod verdict;

use super::SmolwebServer;
use lines::{Line, Lines};
use rmcp::service::ServerInitializeError;
use serde_json::Value;
use smolweb_client::Client;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;
use verdict::Verdict;

/// Why a session could not run.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error("MCP handshake failed: {0}")]
    Handshake(String),
    #[error("MCP session failed: {0}")]
    Session(String),
    #[error("cannot read stdin: {0}")]
    Read(#[source] std::io::Error),
}

/// How long queued output may take to reach stdout once stdin has closed.
const FLUSH_BOUND: Duration = Duration::from_millis(500);
/// Lines waiting for stdout (each is one whole message).
const OUT_QUEUE: usize = 64;
/// Bytes rmcp may write ahead of the front end: a whole window's reply (a 50,000-char window
/// and its structured twin, a 1,000-item menu: a few hundred KB) goes through in one write
/// instead of a task switch every 64 KiB. The buffer grows only as far as a reply needs.
const PIPE_BYTES: usize = 1024 * 1024;
/// The front end's read buffer over rmcp's side of the pipe.
const READ_BYTES: usize = 64 * 1024;

/// Serve MCP over the process's stdin and stdout.
pub async fn run(client: Arc<Client>) -> Result<(), ServeError> {
    let (stdin, stdout) = rmcp::transport::io::stdio_pipes();
    serve(client, stdin, stdout).await
}

/// Serve MCP over any byte streams (stdin/stdout in production, pipes in tests).
pub(crate) async fn serve<R, W>(client: Arc<Client>, input: R, output: W) -> Result<(), ServeError>
where
    R: AsyncRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
{
    let max = client.config().mcp.max_message_bytes.max(1024);
    let activity = Arc::clone(&client);
    let server = SmolwebServer::new(client);
    // The session's end is written when the front end closes (rmcp's task is aborted then).
    let log = std::sync::Arc::clone(server.session_log());

    let (ours, theirs) = tokio::io::duplex(PIPE_BYTES);
    let (from_rmcp, mut to_rmcp) = tokio::io::split(ours);
    let (out_tx, out_rx) = mpsc::channel::<Vec<u8>>(OUT_QUEUE);
    let writer = tokio::spawn(write_lines(output, out_rx, activity));
    let mut forward = tokio::spawn(forward_lines(from_rmcp, out_tx.clone()));
    let mut session = tokio::spawn(session(server, theirs, max));
    let mut ended = None;

    let mut lines = Lines::new(BufReader::new(input), max);
    let read_result = loop {
        let step = tokio::select! {
            line = lines.next() => line,
            done = &mut session => {
                ended = Some(done);
                break Ok(());
            }
        };
        let reply = match step {
            Ok(Line::Message(bytes)) => match verdict::judge(&bytes) {
                Verdict::Forward => {
                    let mut framed = bytes;
                    framed.push(b'\n');
                    if to_rmcp.write_all(&framed).await.is_err() {
                        break Ok(());
                    }
                    continue;
                }
                Verdict::Reply(v) => v,
                Verdict::Drop => continue,
            },
            Ok(Line::TooLong { bytes, head }) => {
                tracing::warn!(bytes, max, "refused a message over the size limit");
                verdict::too_long(bytes, max, &head)
            }
            Ok(Line::Eof) => break Ok(()),
            Err(e) => break Err(ServeError::Read(e)),
        };
        if out_tx.send(encode(&reply)).await.is_err() {
            break Ok(());
        }
    };

    // The client is gone (or the session ended): stop everything still running.
    session.abort();
    if ended.is_some() {
        // rmcp stopped on its own: let its last lines out.
        let _ = tokio::time::timeout(FLUSH_BOUND, &mut forward).await;
    }
    forward.abort();
    drop(to_rmcp);
    drop(out_tx);
    let _ = tokio::time::timeout(FLUSH_BOUND, writer).await;
    log.end();
    match ended {
        Some(Ok(Err(e))) => Err(e),
        _ => read_result,
    }
}

/// rmcp's side of the pipe: handshake, then serve until the pipe closes.
async fn session(
    server: SmolwebServer,
    io: tokio::io::DuplexStream,
    max: usize,
) -> Result<(), ServeError> {
    // rmcp reads only lines the front end let through; its own limit must not be lower.
    let (read, write) = tokio::io::split(io);
    let transport = rmcp::transport::async_rw::AsyncRwTransport::new_server(read, write)
        .with_max_line_length(max.saturating_add(1));
    let running = match rmcp::serve_server(server, transport).await {
        Ok(r) => r,
        Err(ServerInitializeError::ConnectionClosed(_))
        | Err(ServerInitializeError::ExpectedInitializeRequest(None))
        | Err(ServerInitializeError::Cancelled) => {
            tracing::debug!("the client left before the handshake");
            return Ok(());
        }
        Err(e) => return Err(ServeError::Handshake(e.to_string())),
    };
    match running.waiting().await {
        Ok(reason) => {
            tracing::debug!("MCP session ended: {reason:?}");
            Ok(())
        }
        Err(e) => Err(ServeError::Session(e.to_string())),
    }
}

fn encode(v: &Value) -> Vec<u8> {
    let mut line = serde_json::to_vec(v).unwrap_or_else(|_| b"{}".to_vec());
    line.push(b'\n');
    line
}

/// rmcp's output, line by line, into the writer's queue.
async fn forward_lines<R: AsyncRead + Unpin>(read: R, out: mpsc::Sender<Vec<u8>>) {
    let mut read = BufReader::with_capacity(READ_BYTES, read);
    // Replies to a walk through windows are alike in size: start each line at the last's.
    let mut last = 0;
    loop {
        let mut line = Vec::with_capacity(last);
        match read.read_until(b'\n', &mut line).await {
            Ok(0) | Err(_) => return,
            Ok(_) => {
                if !line.ends_with(b"\n") {
                    line.push(b'\n');
                }
                last = line.len().min(PIPE_BYTES);
                if out.send(line).await.is_err() {
                    return;
                }
            }
        }
    }
}

/// The only writer of stdout: whole lines, flushed one by one, each once the activity lines
/// queued before it are in the log (the entry of the call a reply answers is queued before
/// rmcp renders the reply).
async fn write_lines<W: AsyncWrite + Unpin>(
    mut out: W,
    mut queue: mpsc::Receiver<Vec<u8>>,
    client: Arc<Client>,
) {
    while let Some(line) = queue.recv().await {
        client.flush_activity();
        if out.write_all(&line).await.is_err() || out.flush().await.is_err() {
            return;
        }
    }
}
