//! A bounded line reader: one JSON-RPC message per `\n`-terminated line, never more than
//! `max` bytes held. A longer line is discarded up to its newline while its length is counted,
//! so a 50 MB request costs no more memory than the limit; only its first [`HEAD_BYTES`] (at
//! most `max`) are kept, for the reply to find the request's id in (`head`).

use tokio::io::{AsyncBufRead, AsyncBufReadExt};

/// How much of an over-long line is kept to look for its id.
pub(crate) const HEAD_BYTES: usize = 64 * 1024;

/// One read from the stream.
// Public for the fuzz targets' door (`stdio::fuzzing`), which only tests and the `fuzzing`
// feature build.
#[cfg_attr(not(any(test, feature = "fuzzing")), allow(unreachable_pub))]
#[derive(Debug, PartialEq, Eq)]
pub enum Line {
    /// A whole line, without its `\n` (nor a `\r` before it).
    Message(Vec<u8>),
    /// A line longer than the limit, dropped; `bytes` is its length without the newline,
    /// `head` its first bytes (at most [`HEAD_BYTES`], never more than the limit).
    TooLong {
        /// The line's length without its newline.
        bytes: u64,
        /// Its first bytes.
        head: Vec<u8>,
    },
    /// The stream ended (a last line without a newline is still delivered first).
    Eof,
}

pub(super) struct Lines<R> {
    read: R,
    max: usize,
    buf: Vec<u8>,
}

/// An over-long line being skipped: its length so far and its first bytes.
struct Skipped {
    bytes: u64,
    head: Vec<u8>,
}

impl Skipped {
    fn line(self) -> Line {
        Line::TooLong {
            bytes: self.bytes,
            head: self.head,
        }
    }
}

impl<R: AsyncBufRead + Unpin> Lines<R> {
    pub(super) fn new(read: R, max: usize) -> Lines<R> {
        Lines {
            read,
            max,
            buf: Vec::new(),
        }
    }

    /// The next line. Not cancellation-safe: the caller awaits it to completion.
    pub(super) async fn next(&mut self) -> std::io::Result<Line> {
        self.buf.clear();
        let mut skipped: Option<Skipped> = None;
        loop {
            let available = self.read.fill_buf().await?;
            if available.is_empty() {
                return Ok(match skipped {
                    Some(s) => s.line(),
                    None if self.buf.is_empty() => Line::Eof,
                    None => self.finish(),
                });
            }
            let newline = available.iter().position(|b| *b == b'\n');
            let chunk = &available[..newline.unwrap_or(available.len())];
            let consumed = chunk.len() + usize::from(newline.is_some());
            match skipped.as_mut() {
                Some(s) => s.bytes += chunk.len() as u64,
                None if self.buf.len() + chunk.len() > self.max.saturating_add(1) => {
                    // One byte of slack for a `\r` before the newline.
                    let bytes = (self.buf.len() + chunk.len()) as u64;
                    let head = head_of(&self.buf, chunk, HEAD_BYTES.min(self.max));
                    self.buf = Vec::new();
                    skipped = Some(Skipped { bytes, head });
                }
                None => self.buf.extend_from_slice(chunk),
            }
            self.read.consume(consumed);
            if newline.is_some() {
                return Ok(match skipped {
                    Some(s) => s.line(),
                    None => self.finish(),
                });
            }
        }
    }

    /// The buffered line, unless it is over the limit once a final `\r` is removed.
    fn finish(&mut self) -> Line {
        let line = strip_cr(std::mem::take(&mut self.buf));
        if line.len() > self.max {
            let bytes = line.len() as u64;
            let head = head_of(&line, &[], HEAD_BYTES.min(self.max));
            Line::TooLong { bytes, head }
        } else {
            Line::Message(line)
        }
    }
}

/// The first `keep` bytes of `a` followed by `b`.
fn head_of(a: &[u8], b: &[u8], keep: usize) -> Vec<u8> {
    let mut head = Vec::with_capacity(keep);
    head.extend(a.iter().chain(b).take(keep));
    head
}

fn strip_cr(mut line: Vec<u8>) -> Vec<u8> {
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn all(input: &[u8], max: usize) -> Vec<Line> {
        let mut lines = Lines::new(tokio::io::BufReader::with_capacity(4, input), max);
        let mut out = Vec::new();
        loop {
            let l = lines.next().await.unwrap();
            let end = l == Line::Eof;
            out.push(l);
            if end {
                return out;
            }
        }
    }

    #[tokio::test]
    async fn splits_bounds_and_counts() {
        let got = all(b"ab\r\n0123456789\nxyz\n\nlast", 5).await;
        assert_eq!(
            got,
            [
                Line::Message(b"ab".to_vec()),
                Line::TooLong {
                    bytes: 10,
                    head: b"01234".to_vec()
                },
                Line::Message(b"xyz".to_vec()),
                Line::Message(Vec::new()),
                Line::Message(b"last".to_vec()),
                Line::Eof,
            ]
        );
        assert_eq!(
            all(b"12345\r\n123456", 5).await,
            [
                Line::Message(b"12345".to_vec()),
                Line::TooLong {
                    bytes: 6,
                    head: b"12345".to_vec()
                },
                Line::Eof
            ]
        );
    }
}
