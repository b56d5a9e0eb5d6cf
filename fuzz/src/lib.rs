//! Helpers shared by the fuzz targets: how an input is cut into its parts, and polling a
//! future that never waits (readers over bytes in memory).

use std::future::Future;
use std::pin::pin;
use std::task::{Context, Poll, Waker};

/// The input cut at its first LF: (first line without the LF, the rest). Without an LF the
/// whole input is the first part and the rest is empty.
pub fn split_line(data: &[u8]) -> (&[u8], &[u8]) {
    match data.iter().position(|&b| b == b'\n') {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (data, &[]),
    }
}

/// The first byte (0 when empty) and the rest.
pub fn split_byte(data: &[u8]) -> (u8, &[u8]) {
    match data.split_first() {
        Some((&b, rest)) => (b, rest),
        None => (0, &[]),
    }
}

/// Text as a fetcher would hand it on: lossy UTF-8.
pub fn text(data: &[u8]) -> String {
    String::from_utf8_lossy(data).into_owned()
}

/// Poll `f` once; a future over bytes in memory is ready at once. Panics if it would wait
/// (that is a finding: a reader over memory must never wait).
pub fn ready<F: Future>(f: F) -> F::Output {
    let mut cx = Context::from_waker(Waker::noop());
    match pin!(f).poll(&mut cx) {
        Poll::Ready(v) => v,
        Poll::Pending => panic!("a read over bytes in memory waited"),
    }
}

/// The MCP front end the targets judge lines with: the tools and schemas of a real server
/// over a client whose data directory is a fresh temporary one.
pub mod mcp {
    use smolweb_client::config::Config;
    use smolweb_client::{Client, Face};
    use smolweb_mcp::fuzzing::FrontEnd;
    use smolweb_store::paths::Paths;
    use std::sync::{Arc, LazyLock};

    pub static FRONT_END: LazyLock<FrontEnd> = LazyLock::new(|| {
        // Under the fuzz package's own target/, reused by every run (the client creates it).
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/mcp-data");
        let paths = Paths::resolve(
            Some(dir.join("data")),
            Some(dir.join("config.toml")),
            None,
            None,
        )
        .expect("paths");
        let client = Client::new(Config::default(), paths, Face::Agent).expect("a client");
        FrontEnd::new(Arc::new(client))
    });
}

/// The small search index queries run over (`search_query`), built once per process.
pub mod search {
    use smolweb_search::fuzzing::Index;
    use std::sync::LazyLock;

    pub static INDEX: LazyLock<Index> = LazyLock::new(|| {
        // Under the fuzz package's own target/, rebuilt by every run.
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/search-data");
        let _ = std::fs::remove_dir_all(&dir);
        Index::new(dir).expect("the fuzzing index")
    });
}
