//! Incremental reading of a Gemini response header: `<2 digits><space><meta><CRLF>` with at
//! most 1024 bytes of meta, so the CRLF must appear within [`MAX_HEADER_BYTES`]. Bytes read
//! past the header are handed back as the start of the body.

use crate::{FetchError, ProtocolError};
use smolweb_core::response::{Header, parse_header};
use smolweb_core::response::{MAX_HEADER_BYTES, header_end};
use tokio::io::{AsyncRead, AsyncReadExt};

/// Read the header; returns it with the bytes that followed it.
pub(crate) async fn read_header<R: AsyncRead + Unpin>(
    reader: &mut R,
    map_err: impl Fn(std::io::Error) -> FetchError,
) -> Result<(Header, Vec<u8>), FetchError> {
    let mut buf = Vec::with_capacity(2048);
    let mut chunk = [0u8; 2048];
    loop {
        if let Some(end) = header_end(&buf) {
            if end > MAX_HEADER_BYTES {
                return Err(ProtocolError::HeaderTooLong {
                    limit: MAX_HEADER_BYTES,
                }
                .into());
            }
            let header = parse_header(&buf[..end]).map_err(ProtocolError::from)?;
            return Ok((header, buf.split_off(end)));
        }
        if buf.len() >= MAX_HEADER_BYTES {
            return Err(ProtocolError::HeaderUnterminated {
                limit: MAX_HEADER_BYTES,
            }
            .into());
        }
        let n = match reader.read(&mut chunk).await {
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => 0,
            Err(e) => return Err(map_err(e)),
        };
        if n == 0 {
            return Err(FetchError::Protocol(if buf.is_empty() {
                ProtocolError::NoAnswer
            } else {
                ProtocolError::ClosedInside("response header")
            }));
        }
        buf.extend_from_slice(&chunk[..n]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn internal(e: std::io::Error) -> FetchError {
        FetchError::connection("test.example", 1965, e)
    }

    #[tokio::test]
    async fn reads_a_header_and_keeps_the_body_start() {
        let mut input: &[u8] = b"20 text/gemini\r\n# Hi";
        let (header, rest) = read_header(&mut input, internal).await.unwrap();
        assert_eq!((header.status, header.meta.as_str()), (20, "text/gemini"));
        assert_eq!(rest, b"# Hi");
    }

    #[tokio::test]
    async fn header_limits_and_line_ends() {
        let mut meta = vec![b'a'; 1024];
        let mut ok = b"20 ".to_vec();
        ok.append(&mut meta);
        ok.extend_from_slice(b"\r\n");
        assert!(read_header(&mut ok.as_slice(), internal).await.is_ok());
        let mut over = b"20 a".to_vec();
        over.extend_from_slice(&ok[3..]);
        let err = read_header(&mut over.as_slice(), internal)
            .await
            .unwrap_err();
        assert_eq!(err.code(), "PROTOCOL_ERROR");
        // A bare LF ends the line at once (no waiting for more bytes) and is refused.
        let mut bare: &[u8] = b"20 text/gemini\nbody";
        let err = read_header(&mut bare, internal).await.unwrap_err();
        assert_eq!(err.code(), "PROTOCOL_ERROR");
    }

    #[tokio::test]
    async fn oversize_or_unterminated_headers_are_protocol_errors() {
        let mut big: &[u8] = &[b'2'; 5000];
        let err = read_header(&mut big, internal).await.unwrap_err();
        assert_eq!(err.code(), "PROTOCOL_ERROR");
        let mut cut: &[u8] = b"20 text/gem";
        let err = read_header(&mut cut, internal).await.unwrap_err();
        assert_eq!(err.code(), "PROTOCOL_ERROR");
        let mut empty: &[u8] = b"";
        let err = read_header(&mut empty, internal).await.unwrap_err();
        assert!(err.to_string().contains("without answering"), "{err}");
    }
}
