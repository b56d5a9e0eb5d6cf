//! The fuzz targets' door into the stdio front end (`fuzz/fuzz_targets/mcp_*.rs`): the
//! bounded line reader over bytes in memory, and the verdict on one line against the tools'
//! published input schemas, without a session or a runtime. Hidden from the docs; not an API.

use super::lines::Lines;
use super::verdict::{self, Schemas};
use crate::mcp::SmolwebServer;
use std::future::Future;
use std::pin::pin;
use std::task::{Context, Poll, Waker};

pub use super::lines::Line;
pub use super::verdict::Verdict;

/// The front end's judge, with the schemas of a server's tools.
pub struct FrontEnd {
    schemas: Schemas,
}

impl FrontEnd {
    pub fn new(server: &SmolwebServer) -> FrontEnd {
        let schemas = server
            .tools()
            .into_iter()
            .map(|t| (t.name.to_string(), t.input_schema))
            .collect();
        FrontEnd { schemas }
    }

    /// What the front end does with one line (see `verdict::judge`).
    pub fn judge(&self, line: &[u8]) -> Verdict {
        verdict::judge(line, &self.schemas)
    }

    /// The names of the tools whose arguments are checked.
    pub fn tools(&self) -> Vec<&str> {
        let mut names: Vec<&str> = self.schemas.keys().map(String::as_str).collect();
        names.sort_unstable();
        names
    }
}

/// Every read of `input` by the line reader with limit `max`, through a read buffer of
/// `buffer` bytes (so lines arrive split as a pipe splits them), up to and including `Eof`.
/// None if a read would wait (it cannot, over bytes in memory).
pub fn lines(input: &[u8], max: usize, buffer: usize) -> Option<Vec<Line>> {
    let read = tokio::io::BufReader::with_capacity(buffer.max(1), input);
    let mut lines = Lines::new(read, max);
    let mut out = Vec::new();
    loop {
        let line = ready(lines.next())?.ok()?;
        let end = line == Line::Eof;
        out.push(line);
        if end {
            return Some(out);
        }
    }
}

/// Poll a future that never waits once.
fn ready<F: Future>(f: F) -> Option<F::Output> {
    let mut cx = Context::from_waker(Waker::noop());
    match pin!(f).poll(&mut cx) {
        Poll::Ready(v) => Some(v),
        Poll::Pending => None,
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_read_over_memory_without_a_runtime() {
        assert_eq!(
            lines(b"ab\r\n0123456789\nc", 5, 1).unwrap(),
            [
                Line::Message(b"ab".to_vec()),
                Line::TooLong { bytes: 10 },
                Line::Message(b"c".to_vec()),
                Line::Eof
            ]
        );
    }
}
