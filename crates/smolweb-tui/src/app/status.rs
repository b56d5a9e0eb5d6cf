//! The status line room: the last message (information or error), when it was set, and its
//! expiry: information goes after [`STATUS_TTL_MS`], an error after [`ERROR_TTL_MS`], and
//! any message when a question opens over the page.

/// How long an information message stays.
pub(super) const STATUS_TTL_MS: u64 = 5_000;
/// How long an error message stays.
pub(super) const ERROR_TTL_MS: u64 = 10_000;

/// A status line message.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Status {
    /// The message.
    pub text: String,
    /// It says something failed.
    pub error: bool,
    /// When it was set (milliseconds since start).
    pub(crate) at: u64,
}

impl Status {
    /// A message shown at `at` (ms).
    pub fn info(text: impl Into<String>, at: u64) -> Status {
        Status {
            text: text.into(),
            error: false,
            at,
        }
    }
    /// An error shown at `at` (ms).
    pub fn error(text: impl Into<String>, at: u64) -> Status {
        Status {
            text: text.into(),
            error: true,
            at,
        }
    }
    /// Nothing on the status line.
    pub fn clear(&mut self) {
        *self = Status::default();
    }
    /// Clear the message once it has been shown long enough.
    pub fn expire(&mut self, now: u64) {
        let ttl = if self.error {
            ERROR_TTL_MS
        } else {
            STATUS_TTL_MS
        };
        if !self.text.is_empty() && now.saturating_sub(self.at) >= ttl {
            self.clear();
        }
    }
}
