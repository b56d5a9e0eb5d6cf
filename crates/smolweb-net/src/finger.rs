//! Finger (RFC 1288, port 79): send `query` CRLF, read text until close.
//!
//! Invariants: the query never holds CR, LF or NUL and is at most
//! [`smolweb_core::url::FINGER_MAX_QUERY_BYTES`]; a forwarding query (`user@host`) is refused
//! above this layer unless the person typed it (the client's `finger_forward` option).

use super::{FetchError, RequestError};
use smolweb_core::url::FINGER_MAX_QUERY_BYTES;

/// The request line for `query` (pure), with CRLF.
pub(crate) fn request_line(query: &str) -> Result<String, FetchError> {
    let what = "finger query";
    if query.contains(['\r', '\n', '\0']) {
        let rule = "not contain CR, LF or NUL";
        return Err(RequestError::Field { what, rule }.into());
    }
    if query.len() > FINGER_MAX_QUERY_BYTES {
        let (len, limit) = (query.len(), FINGER_MAX_QUERY_BYTES);
        return Err(RequestError::TooLong { what, len, limit }.into());
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
