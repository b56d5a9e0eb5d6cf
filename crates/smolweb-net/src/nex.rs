//! Nex (port 1900): send the path and a newline, read the body until close. No status, no
//! MIME: the client decides from the path (a directory when it is empty or ends in `/`, else
//! by extension).
//!
//! Invariants: the path sent is the URL's path without its leading `/`, percent-decoded,
//! never with CR, LF or NUL (it would end the request early), at most 1024 bytes.

use super::{FetchError, RequestError};

/// Longest path sent.
pub(crate) const MAX_PATH_BYTES: usize = 1024;

/// The request line for `path` (pure): the path and a newline.
pub(crate) fn request_line(path: &str) -> Result<String, FetchError> {
    let what = "nex path";
    if path.contains(['\r', '\n', '\0']) {
        let rule = "not contain CR, LF or NUL";
        return Err(RequestError::Field { what, rule }.into());
    }
    if path.len() > MAX_PATH_BYTES {
        let (len, limit) = (path.len(), MAX_PATH_BYTES);
        return Err(RequestError::TooLong { what, len, limit }.into());
    }
    Ok(format!("{path}\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_lines() {
        assert_eq!(request_line("").unwrap(), "\n");
        assert_eq!(request_line("docs/a b.txt").unwrap(), "docs/a b.txt\n");
        assert!(request_line("a\nb").is_err());
        assert!(request_line(&"p".repeat(1025)).is_err());
    }
}
