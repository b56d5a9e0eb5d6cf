//! Spartan (port 300, plain TCP): send `host SP path SP length` CRLF and then exactly `length`
//! bytes of data; read `status SP meta` CRLF, then (status 2 only) the body until close.
//!
//! Invariants: the host goes without its port, as the URL normalized it (lowercase,
//! punycode); the path is the URL's percent-encoded path (no spaces, no control characters);
//! the header line is at most [`MAX_HEADER_BYTES`] and its status one digit 2 to 5, anything
//! else is a protocol error; the body is bounded by `max_body`.

use super::{FetchError, NetOptions, ProtocolError, RequestError};
use tokio::io::AsyncWriteExt;

/// Longest status line read (one digit, a space, 1024 bytes of meta, CRLF).
pub(crate) const MAX_HEADER_BYTES: usize = 1029;
/// Longest path sent.
pub(crate) const MAX_PATH_BYTES: usize = 1024;

/// The request head for `host`, `path` and a data block of `len` bytes (pure), with CRLF.
pub(crate) fn request_head(host: &str, path: &str, len: usize) -> Result<String, FetchError> {
    let bad = |what, rule| FetchError::from(RequestError::Field { what, rule });
    if host.is_empty() || host.bytes().any(|b| b <= b' ' || b == 0x7f) {
        let rule = "not be empty or hold a space or control character";
        return Err(bad("spartan host", rule));
    }
    if !path.starts_with('/') || path.bytes().any(|b| b <= b' ' || b == 0x7f) {
        let rule = "start with / and hold no space or control character";
        return Err(bad("spartan path", rule));
    }
    if path.len() > MAX_PATH_BYTES {
        let (what, len, limit) = ("spartan path", path.len(), MAX_PATH_BYTES);
        return Err(RequestError::TooLong { what, len, limit }.into());
    }
    Ok(format!("{host} {path} {len}\r\n"))
}

/// Parse a status line (without its line end): `digit SP meta`.
pub(crate) fn parse_status(line: &[u8]) -> Result<(u8, String), FetchError> {
    let bad = |why| FetchError::Protocol(ProtocolError::SpartanStatus(why));
    let (&first, rest) = line.split_first().ok_or_else(|| bad("empty"))?;
    if !(b'2'..=b'5').contains(&first) {
        return Err(bad("the status is not 2, 3, 4 or 5"));
    }
    let meta = match rest.split_first() {
        None => &[][..],
        Some((b' ', meta)) => meta,
        Some(_) => return Err(bad("no space after the one-digit status")),
    };
    let meta = std::str::from_utf8(meta).map_err(|_| bad("the meta is not UTF-8"))?;
    if meta.chars().any(|c| c.is_control() && c != '\t') {
        return Err(bad("control characters in the meta"));
    }
    Ok((first - b'0', meta.to_string()))
}

/// One Spartan request and its answer. The caller holds the timeout.
pub(crate) async fn fetch(
    host: &str,
    port: u16,
    path: &str,
    data: &[u8],
    opts: &NetOptions,
) -> Result<super::SpartanResponse, FetchError> {
    let head = request_head(host, path, data.len())?;
    let mut stream = super::dial(host, port, opts).await?;
    let io_err = |e| FetchError::connection(host, port, e);
    let mut request = head.into_bytes();
    request.extend_from_slice(data);
    stream.write_all(&request).await.map_err(io_err)?;
    read_answer(&mut stream, opts, io_err).await
}

/// Read an answer from `reader`: the bounded status line, then (status 2) the body within
/// `opts.max_body`.
pub(crate) async fn read_answer<R: tokio::io::AsyncRead + Unpin>(
    reader: &mut R,
    opts: &NetOptions,
    io_err: impl Fn(std::io::Error) -> FetchError + Copy,
) -> Result<super::SpartanResponse, FetchError> {
    let mut buf = Vec::new();
    let line = super::request::read_line(
        reader,
        &mut buf,
        MAX_HEADER_BYTES,
        "spartan status line",
        io_err,
    )
    .await?;
    let (status, meta) = parse_status(&line)?;
    let mut body = Vec::new();
    if status == 2 {
        body = buf;
        let progress = opts.progress.as_ref();
        super::read_body(reader, &mut body, opts.max_body, progress, io_err).await?;
    }
    Ok(super::SpartanResponse { status, meta, body })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_heads() {
        assert_eq!(
            request_head("example.org", "/", 0).unwrap(),
            "example.org / 0\r\n"
        );
        assert_eq!(
            request_head("xn--bcher-kva.example", "/a%20b", 5).unwrap(),
            "xn--bcher-kva.example /a%20b 5\r\n"
        );
        assert!(request_head("example.org", "/a b", 0).is_err());
        assert!(request_head("example.org", "a", 0).is_err());
        assert!(request_head("exa mple", "/", 0).is_err());
    }

    #[test]
    fn status_lines() {
        assert_eq!(
            parse_status(b"2 text/gemini").unwrap(),
            (2, "text/gemini".into())
        );
        assert_eq!(parse_status(b"3 /new").unwrap(), (3, "/new".into()));
        assert_eq!(parse_status(b"5").unwrap(), (5, String::new()));
        for bad in [
            &b""[..],
            b"20 text/gemini",
            b"1 prompt",
            b"6 x",
            b"2\xff",
            b"2 \xff",
            b"2 a\x1bb",
        ] {
            assert!(parse_status(bad).is_err(), "{bad:?}");
        }
    }
}
