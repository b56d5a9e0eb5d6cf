//! Incremental reading of a Gemini response header: `<2 digits><space><meta><CRLF>` with at
//! most 1024 bytes of meta, so the CRLF must appear within [`MAX_HEADER_BYTES`]. Bytes read
//! past the header are handed back as the start of the body.

use crate::core::response::{Header, MAX_META_BYTES, parse_header};
use crate::net::FetchError;
use tokio::io::{AsyncRead, AsyncReadExt};

/// Status (2) + space (1) + meta (1024) + CRLF (2).
pub const MAX_HEADER_BYTES: usize = MAX_META_BYTES + 5;

/// Length of the header line including its CRLF, if `buf` holds one within the cap.
pub fn header_end(buf: &[u8]) -> Option<usize> {
    let window = &buf[..buf.len().min(MAX_HEADER_BYTES)];
    window.windows(2).position(|w| w == b"\r\n").map(|i| i + 2)
}

/// Read the header; returns it with the bytes that followed it.
pub async fn read_header<R: AsyncRead + Unpin>(
    reader: &mut R,
    map_err: impl Fn(std::io::Error) -> FetchError,
) -> Result<(Header, Vec<u8>), FetchError> {
    let mut buf = Vec::with_capacity(2048);
    let mut chunk = [0u8; 2048];
    loop {
        if let Some(end) = header_end(&buf) {
            let header = parse_header(&buf[..end])
                .map_err(|e| FetchError::Protocol(format!("bad response header: {e}")))?;
            return Ok((header, buf.split_off(end)));
        }
        if buf.len() >= MAX_HEADER_BYTES {
            return Err(FetchError::Protocol(format!(
                "no CRLF within the first {MAX_HEADER_BYTES} bytes of the response header"
            )));
        }
        let n = match reader.read(&mut chunk).await {
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => 0,
            Err(e) => return Err(map_err(e)),
        };
        if n == 0 {
            return Err(FetchError::Protocol(if buf.is_empty() {
                "the server closed the connection without answering".into()
            } else {
                "the server closed the connection inside the response header".into()
            }));
        }
        buf.extend_from_slice(&chunk[..n]);
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    fn internal(e: std::io::Error) -> FetchError {
        FetchError::Internal(e.to_string())
    }

    #[test]
    fn finds_the_end_within_the_cap() {
        let cases: &[(&[u8], Option<usize>)] = &[
            (b"20 text/gemini\r\nbody", Some(16)),
            (b"20 text/gemini\n", None),
            (b"20 text/gemini\r", None),
            (b"", None),
            (b"\r\n", Some(2)),
        ];
        for (input, want) in cases {
            assert_eq!(
                header_end(input),
                *want,
                "{:?}",
                String::from_utf8_lossy(input)
            );
        }
        let mut long = vec![b'a'; MAX_HEADER_BYTES - 2];
        long.extend_from_slice(b"\r\n");
        assert_eq!(header_end(&long), Some(MAX_HEADER_BYTES));
        let mut longer = vec![b'a'; MAX_HEADER_BYTES - 1];
        longer.extend_from_slice(b"\r\n");
        assert_eq!(header_end(&longer), None);
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
