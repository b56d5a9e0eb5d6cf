//! [`WebError`]: why a web fetch gave no answer, with its `fetch_url` code.

use crate::FetchError;
use smolweb_core::code::ErrorCode;
use std::time::Duration;

/// Why a web fetch gave no usable answer (see [`WebError::code`] and [`WebError::retryable`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WebError {
    /// The URL or the arguments are unusable; says why.
    #[error("{0}")]
    InvalidInput(String),
    /// The guard, robots.txt or a redirect rule refused. `retryable` only for a robots.txt
    /// that could not be read (try again later, the same way).
    #[error("{message}")]
    PolicyRejected {
        /// Which rule refused, for the person or agent.
        message: String,
        /// Worth trying again later.
        retryable: bool,
    },
    /// A redirect to a URL the web reader does not open (another scheme than http and https,
    /// no host, user@host); says why. A policy refusal for the agent (`POLICY_REJECTED`), a
    /// refused redirect for `smolweb get` (exit 8, as Gemini's).
    #[error("a redirect was refused: {0}")]
    RedirectRefused(String),
    /// The host name did not resolve.
    #[error("cannot resolve {host}: {message}")]
    Dns {
        /// The host name.
        host: String,
        /// The resolver's reason.
        message: String,
    },
    /// No connection could be made (TCP or TLS).
    #[error("cannot connect to {host}: {message}")]
    Connection {
        /// The host.
        host: String,
        /// Why.
        message: String,
    },
    /// The one budget for every hop and the body ran out (the budget it had).
    #[error("timed out after {}", smolweb_core::text::human_duration(*.0))]
    Timeout(Duration),
    /// A redirect could not be followed (too many, a loop, a bad or refused target); says why.
    #[error("{0}")]
    Redirect(String),
    /// The answer could not be read as HTTP or as its declared encoding; says why.
    #[error("{0}")]
    InvalidResponse(String),
    /// The server answered 4xx/5xx (its page is still returned). Retryable for 408, 429, 5xx.
    #[error("{message}")]
    Status {
        /// The HTTP status code.
        status: u16,
        /// The status line's meaning, for the person or agent.
        message: String,
        /// Worth trying again later.
        retryable: bool,
    },
    /// The body is not something smolweb can turn into text (an image, an archive, ...).
    #[error("unsupported content type {content_type} ({bytes} bytes): only text can be read")]
    Unsupported {
        /// The Content-Type as sent (or sniffed).
        content_type: String,
        /// How many body bytes arrived.
        bytes: u64,
    },
    /// A PDF without text that can be read (encrypted, images only, too large); `reason` says
    /// which.
    #[error("this PDF ({bytes} bytes) has no text smolweb can read: {reason}")]
    UnreadablePdf {
        /// Why no text could be read.
        reason: String,
        /// How many body bytes arrived.
        bytes: u64,
    },
    /// Working offline: no request leaves, and `url` has no offline copy.
    #[error("working offline: {url} is not kept offline")]
    Offline {
        /// The page asked for.
        url: String,
    },
    /// A bug or an impossible state on our side; says what.
    #[error("internal error: {0}")]
    Internal(String),
}

impl WebError {
    /// The `fetch_url` contract's error code for this failure.
    pub fn code(&self) -> ErrorCode {
        match self {
            WebError::InvalidInput(_) => ErrorCode::InvalidInput,
            WebError::PolicyRejected { .. } | WebError::RedirectRefused(_) => {
                ErrorCode::PolicyRejected
            }
            WebError::Dns { .. } => ErrorCode::DnsResolutionFailed,
            WebError::Connection { .. } => ErrorCode::ConnectionFailed,
            WebError::Timeout(_) => ErrorCode::Timeout,
            WebError::Redirect(_) => ErrorCode::RedirectFailed,
            WebError::InvalidResponse(_) | WebError::Status { .. } => ErrorCode::InvalidResponse,
            WebError::Unsupported { .. } | WebError::UnreadablePdf { .. } => {
                ErrorCode::UnsupportedContentType
            }
            WebError::Offline { .. } => ErrorCode::ConnectionFailed,
            WebError::Internal(_) => ErrorCode::InternalError,
        }
    }

    /// May the same request succeed if tried again later?
    pub fn retryable(&self) -> bool {
        match self {
            WebError::PolicyRejected { retryable, .. } | WebError::Status { retryable, .. } => {
                *retryable
            }
            WebError::Offline { .. } => false,
            other => other.code().retryable(),
        }
    }

    /// The error for a 4xx/5xx answer (None below 400). Retry-After is quoted in the message.
    pub fn for_status(status: u16, retry_after: Option<&str>) -> Option<WebError> {
        if status < 400 {
            return None;
        }
        let retryable = status == 408 || status == 429 || status >= 500;
        let mut message = format!("the server answered {}", status_words(status));
        match retry_after.map(str::trim).filter(|r| !r.is_empty()) {
            Some(r) => message.push_str(&format!(
                "; Retry-After: {}",
                r.chars().take(64).collect::<String>()
            )),
            None if retryable => message.push_str("; it may work later"),
            None => {}
        }
        Some(WebError::Status {
            status,
            message,
            retryable,
        })
    }

    /// A refusal or failure of the address guard, in the web's terms.
    pub(crate) fn from_guard(e: FetchError) -> WebError {
        match e {
            FetchError::Blocked { host, reason } => WebError::PolicyRejected {
                message: format!(
                    "destination {host} is refused: {reason}; do not retry another way"
                ),
                retryable: false,
            },
            FetchError::Dns { host, reason } => WebError::Dns {
                host,
                message: reason.to_string(),
            },
            FetchError::Connection { host, source, .. } => WebError::Connection {
                host,
                message: crate::io_words(&source),
            },
            FetchError::Timeout(d) => WebError::Timeout(d),
            FetchError::InvalidRequest(m) => WebError::InvalidInput(m.to_string()),
            other => WebError::Internal(other.to_string()),
        }
    }
}

/// What reqwest's SOCKS connector said (its text is all it keeps), in the words smolweb's own
/// SOCKS5 client uses; None for a message that is not the connector's.
fn socks_words(message: &str) -> Option<String> {
    let said = message.strip_prefix("SOCKS error: ")?;
    let reply = [
        ("general server failure", 1),
        ("connection not allowed", 2),
        ("network unreachable", 3),
        ("host unreachable", 4),
        ("connection refused", 5),
        ("ttl expired", 6),
        ("command not supported", 7),
        ("address type not supported", 8),
    ]
    .iter()
    .find(|(text, _)| said == *text)
    .map(|(_, code)| crate::socks::reply_words(*code).to_string());
    Some(reply.unwrap_or_else(|| match said {
        "failed to create underlying connection" => "the proxy cannot be reached".to_string(),
        "credentials not accepted" | "server does not support user/pass authentication" => {
            "it asks for a user name and password, which smolweb does not send".to_string()
        }
        other => format!("the SOCKS5 exchange failed ({other})"),
    }))
}

/// A status code with its reason phrase, as a person reads it: `404 Not Found` (only the
/// number for a code without a standard phrase).
pub fn status_words(status: u16) -> String {
    match reqwest::StatusCode::from_u16(status)
        .ok()
        .and_then(|s| s.canonical_reason())
    {
        Some(reason) => format!("{status} {reason}"),
        None => status.to_string(),
    }
}

/// The guard's verdict carried through reqwest's error chain from the resolver.
#[derive(Debug)]
pub(super) struct GuardError(pub FetchError);

impl std::fmt::Display for GuardError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for GuardError {}

/// Map a reqwest error (its source chain decides: the guard's verdict, TLS, timeouts, connect).
pub(super) fn from_reqwest(e: &reqwest::Error, url: &url::Url, budget: Duration) -> WebError {
    let host = url.host_str().unwrap_or_default().to_string();
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(e);
    let mut messages = Vec::new();
    // The innermost socket error, in plain words: what a person is told.
    let mut plain = None;
    while let Some(s) = source {
        if let Some(g) = s.downcast_ref::<GuardError>() {
            return WebError::from_guard(g.0.clone());
        }
        // rustls errors arrive wrapped in an io::Error, whose `source()` skips the inner one.
        let tls = s.downcast_ref::<rustls::Error>().or_else(|| {
            s.downcast_ref::<std::io::Error>()
                .and_then(|io| io.get_ref())
                .and_then(|inner| inner.downcast_ref::<rustls::Error>())
        });
        if let Some(t) = tls {
            return WebError::Connection {
                host,
                message: format!("TLS: {t}"),
            };
        }
        if let Some(io) = s.downcast_ref::<std::io::Error>() {
            plain = Some(crate::io_words(io));
        }
        messages.push(s.to_string());
        source = s.source();
    }
    messages.dedup();
    let message = messages.join(": ");
    tracing::debug!(%url, error = %message, "web fetch failed");
    if e.is_connect()
        && let Some(words) = messages.iter().find_map(|m| socks_words(m))
    {
        let message = format!("through the SOCKS5 proxy: {words}");
        return WebError::Connection { host, message };
    }
    // Some connectors flatten the rustls error into text; its wording still says TLS.
    let lower = message.to_ascii_lowercase();
    if e.is_connect()
        && ["peer certificate", "certificate", "handshake", "tls"]
            .iter()
            .any(|w| lower.contains(w))
    {
        let inner = messages.last().cloned().unwrap_or(message);
        return WebError::Connection {
            host,
            message: format!("TLS: {inner}"),
        };
    }
    if e.is_timeout() {
        WebError::Timeout(budget)
    } else if e.is_connect() {
        let message = plain.unwrap_or_else(|| {
            if lower.contains("dns error") {
                "the name did not resolve".to_string()
            } else {
                messages.last().cloned().unwrap_or(message)
            }
        });
        WebError::Connection { host, message }
    } else if e.is_decode() || e.is_body() {
        WebError::InvalidResponse(format!("the body could not be read: {message}"))
    } else if e.is_builder() {
        WebError::InvalidInput(message)
    } else {
        WebError::InvalidResponse(message)
    }
}
