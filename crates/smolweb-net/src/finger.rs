//! Finger (RFC 1288, port 79): send `query` CRLF, read text until close.
//!
//! Invariants: the query never holds CR, LF or NUL and is at most
//! [`smolweb_core::url::FINGER_MAX_QUERY_BYTES`]; a forwarding query (`user@host`) is refused
//! above this layer unless the person typed it (the client's `finger_forward` option).

use super::FetchError;
use smolweb_core::url::FINGER_MAX_QUERY_BYTES;

/// The request line for `query` (pure), with CRLF.
pub(crate) fn request_line(query: &str) -> Result<String, FetchError> {
    if query.contains(['\r', '\n', '\0']) {
        return Err(FetchError::InvalidRequest(
            "a finger query must not contain CR, LF or NUL".into(),
        ));
    }
    if query.len() > FINGER_MAX_QUERY_BYTES {
        return Err(FetchError::InvalidRequest(format!(
            "the finger query is {} bytes; the limit is {FINGER_MAX_QUERY_BYTES}",
            query.len()
        )));
    }
    Ok(format!("{query}\r\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_lines() {
        assert_eq!(request_line("").unwrap(), "\r\n");
        assert_eq!(request_line("alice").unwrap(), "alice\r\n");
        assert_eq!(request_line("/W alice").unwrap(), "/W alice\r\n");
        assert!(request_line("a\r\nb").is_err());
        assert!(request_line(&"u".repeat(513)).is_err());
    }
}
