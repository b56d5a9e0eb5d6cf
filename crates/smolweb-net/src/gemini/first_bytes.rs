//! [`FirstBytes`]: a TCP stream that keeps the first bytes the server sent, so a TLS handshake
//! that fails because another protocol answered (a Gopher menu, an HTTP status line) can say
//! which one (`TlsError::NotTls`). At most [`KEPT`] bytes are kept; reads and writes pass
//! through unchanged.

use std::io;
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;

/// How many of the first bytes are kept.
pub(crate) const KEPT: usize = 64;

/// The first bytes read, shared with whoever judges a failed handshake.
pub(crate) type Heard = Arc<Mutex<Vec<u8>>>;

/// A TCP stream that keeps its first [`KEPT`] bytes read.
pub(crate) struct FirstBytes {
    inner: TcpStream,
    heard: Heard,
}

impl FirstBytes {
    /// Wrap `inner`; the second value fills as the first bytes arrive.
    pub(crate) fn new(inner: TcpStream) -> (FirstBytes, Heard) {
        let heard = Heard::default();
        let stream = FirstBytes {
            inner,
            heard: heard.clone(),
        };
        (stream, heard)
    }
}

impl AsyncRead for FirstBytes {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.inner).poll_read(cx, buf);
        if let Poll::Ready(Ok(())) = &polled {
            let mut heard = self.heard.lock().unwrap_or_else(PoisonError::into_inner);
            let room = KEPT.saturating_sub(heard.len());
            let new = &buf.filled()[before..];
            heard.extend_from_slice(&new[..new.len().min(room)]);
        }
        polled
    }
}

impl AsyncWrite for FirstBytes {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write(cx, data)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }
}
