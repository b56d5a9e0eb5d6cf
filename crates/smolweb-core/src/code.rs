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

/// Declares [`ErrorCode`] from one list of `Variant = "CONTRACT_NAME"` lines, and derives
/// [`ErrorCode::ALL`] and [`ErrorCode::as_str`] from it, so the three can never disagree.
/// serde's name is the same literal.
macro_rules! error_codes {
    ($($(#[doc = $doc:literal])* $variant:ident = $name:literal,)+) => {
        /// One code of the contract (Gemini/Gopher list, then the web list).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
        pub enum ErrorCode {
            $($(#[doc = $doc])* #[serde(rename = $name)] $variant,)+
        }

        impl ErrorCode {
            /// Every code, in contract order.
            pub const ALL: [ErrorCode; [$($name),+].len()] = [$(ErrorCode::$variant,)+];

            /// The contract name.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $(ErrorCode::$variant => $name,)+
                }
            }
        }
    };
}

error_codes! {
    /// The request itself is invalid.
    InvalidRequest = "INVALID_REQUEST",
    /// A Gopher item of a type that cannot be fetched (telnet and CSO sessions).
    NotFetchable = "NOT_FETCHABLE",
    /// The destination host is blocked.
    Blocked = "BLOCKED",
    /// The host's robots.txt disallows the path.
    BlockedByRobots = "BLOCKED_BY_ROBOTS",
    /// The host's robots.txt is temporarily unavailable.
    RobotsUnavailable = "ROBOTS_UNAVAILABLE",
    /// The host name could not be resolved.
    DnsError = "DNS_ERROR",
    /// The connection to the host could not be made.
    ConnectionError = "CONNECTION_ERROR",
    /// The request took longer than its time limit.
    Timeout = "TIMEOUT",
    /// The TLS handshake or connection failed.
    TlsError = "TLS_ERROR",
    /// The server's answer breaks the protocol.
    ProtocolError = "PROTOCOL_ERROR",
    /// The response is larger than the size limit.
    ResponseTooLarge = "RESPONSE_TOO_LARGE",
    /// A capsule's temporary failure (a Gemini 4x status other than 44).
    TemporaryError = "TEMPORARY_ERROR",
    /// A capsule's permanent failure (a Gemini 5x status).
    PermanentError = "PERMANENT_ERROR",
    /// The host asks to wait before the next request (Gemini status 44).
    SlowDown = "SLOW_DOWN",
    /// The host's certificate differs from the one pinned for it.
    CertificateChanged = "CERTIFICATE_CHANGED",
    /// The host's certificate has expired.
    CertificateExpired = "CERTIFICATE_EXPIRED",
    /// The host's certificate is not valid yet.
    CertificateNotYetValid = "CERTIFICATE_NOT_YET_VALID",
    /// The certificate store is unavailable.
    CertificateStoreUnavailable = "CERTIFICATE_STORE_UNAVAILABLE",
    /// The server refused the client certificate.
    ClientCertRefused = "CLIENT_CERT_REFUSED",
    /// The fingerprint given does not match the identity or pinned certificate it names.
    FingerprintMismatch = "FINGERPRINT_MISMATCH",
    /// An identity already exists for that scope.
    CertificateExists = "CERTIFICATE_EXISTS",
    /// The user declined the change asked for.
    UserDeclined = "USER_DECLINED",
    /// A failure inside smolweb itself.
    InternalError = "INTERNAL_ERROR",
    // The web list (`fetch_url`); TIMEOUT and INTERNAL_ERROR are shared with the list above.
    /// The `fetch_url` input is invalid.
    InvalidInput = "INVALID_INPUT",
    /// The guard, robots.txt or a redirect rule refused the request.
    PolicyRejected = "POLICY_REJECTED",
    /// The host name could not be resolved (web).
    DnsResolutionFailed = "DNS_RESOLUTION_FAILED",
    /// The connection to the host could not be made (web).
    ConnectionFailed = "CONNECTION_FAILED",
    /// A redirect could not be followed.
    RedirectFailed = "REDIRECT_FAILED",
    /// The web server's answer is malformed, or its status is an error.
    InvalidResponse = "INVALID_RESPONSE",
    /// The content type cannot be turned into text (including an unreadable PDF).
    UnsupportedContentType = "UNSUPPORTED_CONTENT_TYPE",
}

impl ErrorCode {
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
