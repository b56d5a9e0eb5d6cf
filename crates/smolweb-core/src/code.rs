//! The contract's error codes, as one type.
//!
//! Every face names a failure with an [`ErrorCode`]: the Gemini/Gopher tools use the codes of
//! the MCP contract's "Error codes" list, `fetch_url` uses its own (web) list; both lists live
//! here so that a code is never a string literal and its retryability is decided in one place.
//! The serialized form (serde and [`ErrorCode::as_str`]) is the contract name, e.g.
//! `"INVALID_REQUEST"`. [`ErrorCode::retryable`] is the default for the code; a few answers
//! decide per instance (a web 4xx/5xx: only 408, 429 and 5xx are retryable) and say so where
//! they are made.

use serde::{Deserialize, Serialize};

/// One code of the contract (Gemini/Gopher list, then the web list).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum ErrorCode {
    /// The request itself is invalid.
    InvalidRequest,
    /// A Gopher item of a type that cannot be fetched (telnet and CSO sessions).
    NotFetchable,
    /// The destination host is blocked.
    Blocked,
    /// The host's robots.txt disallows the path.
    BlockedByRobots,
    /// The host's robots.txt is temporarily unavailable.
    RobotsUnavailable,
    /// The host name could not be resolved.
    DnsError,
    /// The connection to the host could not be made.
    ConnectionError,
    /// The request took longer than its time limit.
    Timeout,
    /// The TLS handshake or connection failed.
    TlsError,
    /// The server's answer breaks the protocol.
    ProtocolError,
    /// The response is larger than the size limit.
    ResponseTooLarge,
    /// A capsule's temporary failure (a Gemini 4x status other than 44).
    TemporaryError,
    /// A capsule's permanent failure (a Gemini 5x status).
    PermanentError,
    /// The host asks to wait before the next request (Gemini status 44).
    SlowDown,
    /// The host's certificate differs from the one pinned for it.
    CertificateChanged,
    /// The host's certificate has expired.
    CertificateExpired,
    /// The host's certificate is not valid yet.
    CertificateNotYetValid,
    /// The certificate store is unavailable.
    CertificateStoreUnavailable,
    /// The server refused the client certificate.
    ClientCertRefused,
    /// The fingerprint given does not match the identity or pinned certificate it names.
    FingerprintMismatch,
    /// An identity already exists for that scope.
    CertificateExists,
    /// The user declined the change asked for.
    UserDeclined,
    /// A failure inside smolweb itself.
    InternalError,
    // The web list (`fetch_url`); TIMEOUT and INTERNAL_ERROR are shared with the list above.
    /// The `fetch_url` input is invalid.
    InvalidInput,
    /// The guard, robots.txt or a redirect rule refused the request.
    PolicyRejected,
    /// The host name could not be resolved (web).
    DnsResolutionFailed,
    /// The connection to the host could not be made (web).
    ConnectionFailed,
    /// A redirect could not be followed.
    RedirectFailed,
    /// The web server's answer is malformed, or its status is an error.
    InvalidResponse,
    /// The content type cannot be turned into text (including an unreadable PDF).
    UnsupportedContentType,
}

impl ErrorCode {
    /// Every code, in contract order.
    pub const ALL: [ErrorCode; 30] = [
        ErrorCode::InvalidRequest,
        ErrorCode::NotFetchable,
        ErrorCode::Blocked,
        ErrorCode::BlockedByRobots,
        ErrorCode::RobotsUnavailable,
        ErrorCode::DnsError,
        ErrorCode::ConnectionError,
        ErrorCode::Timeout,
        ErrorCode::TlsError,
        ErrorCode::ProtocolError,
        ErrorCode::ResponseTooLarge,
        ErrorCode::TemporaryError,
        ErrorCode::PermanentError,
        ErrorCode::SlowDown,
        ErrorCode::CertificateChanged,
        ErrorCode::CertificateExpired,
        ErrorCode::CertificateNotYetValid,
        ErrorCode::CertificateStoreUnavailable,
        ErrorCode::ClientCertRefused,
        ErrorCode::FingerprintMismatch,
        ErrorCode::CertificateExists,
        ErrorCode::UserDeclined,
        ErrorCode::InternalError,
        ErrorCode::InvalidInput,
        ErrorCode::PolicyRejected,
        ErrorCode::DnsResolutionFailed,
        ErrorCode::ConnectionFailed,
        ErrorCode::RedirectFailed,
        ErrorCode::InvalidResponse,
        ErrorCode::UnsupportedContentType,
    ];

    /// The contract name.
    pub const fn as_str(self) -> &'static str {
        match self {
            ErrorCode::InvalidRequest => "INVALID_REQUEST",
            ErrorCode::NotFetchable => "NOT_FETCHABLE",
            ErrorCode::Blocked => "BLOCKED",
            ErrorCode::BlockedByRobots => "BLOCKED_BY_ROBOTS",
            ErrorCode::RobotsUnavailable => "ROBOTS_UNAVAILABLE",
            ErrorCode::DnsError => "DNS_ERROR",
            ErrorCode::ConnectionError => "CONNECTION_ERROR",
            ErrorCode::Timeout => "TIMEOUT",
            ErrorCode::TlsError => "TLS_ERROR",
            ErrorCode::ProtocolError => "PROTOCOL_ERROR",
            ErrorCode::ResponseTooLarge => "RESPONSE_TOO_LARGE",
            ErrorCode::TemporaryError => "TEMPORARY_ERROR",
            ErrorCode::PermanentError => "PERMANENT_ERROR",
            ErrorCode::SlowDown => "SLOW_DOWN",
            ErrorCode::CertificateChanged => "CERTIFICATE_CHANGED",
            ErrorCode::CertificateExpired => "CERTIFICATE_EXPIRED",
            ErrorCode::CertificateNotYetValid => "CERTIFICATE_NOT_YET_VALID",
            ErrorCode::CertificateStoreUnavailable => "CERTIFICATE_STORE_UNAVAILABLE",
            ErrorCode::ClientCertRefused => "CLIENT_CERT_REFUSED",
            ErrorCode::FingerprintMismatch => "FINGERPRINT_MISMATCH",
            ErrorCode::CertificateExists => "CERTIFICATE_EXISTS",
            ErrorCode::UserDeclined => "USER_DECLINED",
            ErrorCode::InternalError => "INTERNAL_ERROR",
            ErrorCode::InvalidInput => "INVALID_INPUT",
            ErrorCode::PolicyRejected => "POLICY_REJECTED",
            ErrorCode::DnsResolutionFailed => "DNS_RESOLUTION_FAILED",
            ErrorCode::ConnectionFailed => "CONNECTION_FAILED",
            ErrorCode::RedirectFailed => "REDIRECT_FAILED",
            ErrorCode::InvalidResponse => "INVALID_RESPONSE",
            ErrorCode::UnsupportedContentType => "UNSUPPORTED_CONTENT_TYPE",
        }
    }

    /// May the same request succeed when tried again later (the default for this code)?
    pub const fn retryable(self) -> bool {
        matches!(
            self,
            ErrorCode::DnsError
                | ErrorCode::ConnectionError
                | ErrorCode::Timeout
                | ErrorCode::RobotsUnavailable
                | ErrorCode::SlowDown
                | ErrorCode::TemporaryError
                | ErrorCode::CertificateStoreUnavailable
                | ErrorCode::DnsResolutionFailed
                | ErrorCode::ConnectionFailed
        )
    }
}

/// A code equals its contract name (`ErrorCode::Timeout == "TIMEOUT"`), so tests and logs can
/// compare with the names the contract documents.
impl PartialEq<&str> for ErrorCode {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<str> for ErrorCode {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl std::fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::ErrorCode;

    #[test]
    fn serde_name_is_the_contract_name() {
        for code in ErrorCode::ALL {
            let json = serde_json::to_string(&code).unwrap_or_default();
            assert_eq!(json, format!("\"{}\"", code.as_str()));
            let back: ErrorCode = serde_json::from_str(&json).unwrap_or(ErrorCode::InternalError);
            assert_eq!(back, code);
        }
    }

    #[test]
    fn names_are_unique() {
        let mut names: Vec<&str> = ErrorCode::ALL.iter().map(|c| c.as_str()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), ErrorCode::ALL.len());
    }

    #[test]
    fn policy_refusals_are_never_retryable() {
        for c in [
            ErrorCode::Blocked,
            ErrorCode::BlockedByRobots,
            ErrorCode::PolicyRejected,
            ErrorCode::UserDeclined,
            ErrorCode::InvalidRequest,
            ErrorCode::InvalidInput,
        ] {
            assert!(!c.retryable(), "{c}");
        }
        assert!(ErrorCode::Timeout.retryable());
    }
}
