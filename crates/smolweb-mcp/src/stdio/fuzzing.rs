//! The fuzz targets' door into the stdio front end (`fuzz/fuzz_targets/mcp_*.rs`): the
//! bounded line reader over bytes in memory, the verdict on one line, and the argument check
//! against the tools' published input schemas, without a session or a runtime. Hidden from the
//! docs; not an API.

use super::lines::Lines;
use super::verdict;
use crate::SmolwebServer;
use rmcp::model::JsonObject;
use smolweb_client::Client;
use std::collections::BTreeMap;
use std::future::Future;
use std::pin::pin;
use std::sync::Arc;
use std::task::{Context, Poll, Waker};

pub use super::lines::Line;
pub use super::verdict::Verdict;
pub use crate::args::Mismatch;

/// The front end's checks, with the input schemas of a real server's tools.
pub struct FrontEnd {
    schemas: BTreeMap<String, Arc<JsonObject>>,
}

impl FrontEnd {
    /// The tools and schemas a server over `client` publishes.
    pub fn new(client: Arc<Client>) -> FrontEnd {
        let server = SmolwebServer::new(client);
        let schemas = server
            .router()
            .list_all()
            .into_iter()
            .map(|t| (t.name.to_string(), t.input_schema))
            .collect();
        FrontEnd { schemas }
    }

    /// What the front end does with one line (see `verdict::judge`).
    pub fn judge(&self, line: &[u8]) -> Verdict {
        verdict::judge(line)
    }

    /// The argument check `mcp::call` runs before `tool`; None for a tool that is not published.
    pub fn check(&self, tool: &str, arguments: &JsonObject) -> Option<Result<(), Mismatch>> {
        let schema = self.schemas.get(tool)?;
        Some(crate::args::check(schema, arguments).map_err(|m| Mismatch {
            field: m.field,
            message: m.message,
        }))
    }

    /// The names of the tools whose arguments are checked.
    pub fn tools(&self) -> Vec<&str> {
        self.schemas.keys().map(String::as_str).collect()
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
mod tests {
    use super::*;

    #[test]
    fn lines_are_read_over_memory_without_a_runtime() {
        assert_eq!(
            lines(b"ab\r\n0123456789\nc", 5, 1).unwrap(),
            [
                Line::Message(b"ab".to_vec()),
                Line::TooLong {
                    bytes: 10,
                    head: b"01234".to_vec()
                },
                Line::Message(b"c".to_vec()),
                Line::Eof
            ]
        );
    }
}
