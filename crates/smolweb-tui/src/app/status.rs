//! The status line room: the last message (information or error), when it was set, and its
//! expiry: information goes after [`STATUS_TTL_MS`], an error after [`ERROR_TTL_MS`], and
//! any message when a question opens over the page. Every message said is also kept in the
//! [`Log`] (the last [`LOG_MAX`]), whole and with its time, for `about:messages`.

use std::collections::VecDeque;
use time::OffsetDateTime;

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

/// How many messages the log keeps (the oldest go first).
pub(crate) const LOG_MAX: usize = 300;

/// The messages said on the status line, newest last, for `about:messages`: the status line
/// cuts a long one at the terminal's width and clears every one after a while.
#[derive(Clone, Debug, Default)]
pub struct Log {
    said: VecDeque<Status>,
    /// The wall-clock time of `at == 0` (set by the terminal shell; tests leave it unset and
    /// the page then gives seconds since start).
    started: Option<OffsetDateTime>,
}

impl Log {
    /// Keep `status` when it says something new (not the message already last kept).
    pub(crate) fn record(&mut self, status: &Status) {
        if status.text.is_empty() || self.said.back() == Some(status) {
            return;
        }
        if self.said.len() == LOG_MAX {
            self.said.pop_front();
        }
        self.said.push_back(status.clone());
    }

    /// When the browser started, so each message gets a time of day.
    pub(crate) fn set_started(&mut self, t: OffsetDateTime) {
        self.started = Some(t);
    }

    /// The messages kept, oldest first.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &Status> {
        self.said.iter()
    }

    /// `about:messages` as gemtext: newest first, each whole, with its time.
    pub(crate) fn page(&self) -> String {
        let mut g = String::from("# Messages\n\n");
        if self.said.is_empty() {
            g.push_str("Nothing was said on the status line yet.\n");
            return g;
        }
        g.push_str(&format!(
            "{} shown on the status line, newest first, in full (the last {LOG_MAX} are kept).\n\n",
            smolweb_core::text::count(self.said.len(), "message", "messages")
        ));
        for m in self.said.iter().rev() {
            let when = match self.started {
                Some(t) => {
                    let at = t + time::Duration::milliseconds(m.at as i64);
                    format!("{:02}:{:02}:{:02}", at.hour(), at.minute(), at.second())
                }
                None => format!("+{:.1} s", m.at as f64 / 1000.0),
            };
            let kind = if m.error { " error:" } else { "" };
            // A message is one line of our words around remote text: kept on one line.
            let text = m.text.replace(['\n', '\r'], " ");
            g.push_str(&format!("* {when}{kind} {text}\n"));
        }
        if self.started.is_some_and(|t| t.offset().is_utc()) {
            g.push_str("\nTimes are UTC.\n");
        }
        g
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_log_keeps_the_newest_messages_once_each_with_their_time_of_day() {
        let mut log = Log::default();
        log.record(&Status::default());
        assert_eq!(log.iter().count(), 0, "an empty status line says nothing");
        for i in 0..(LOG_MAX + 5) {
            let s = Status::info(format!("message {i}"), i as u64 * 1000);
            log.record(&s);
            log.record(&s);
        }
        assert_eq!(log.iter().count(), LOG_MAX, "bounded, each said once");
        assert_eq!(
            log.iter().next().unwrap().text,
            "message 5",
            "oldest dropped"
        );
        log.set_started(time::macros::datetime!(2026-12-02 10:00:00 UTC));
        log.record(&Status::error("it failed\nbadly", 3_723_000));
        let page = log.page();
        assert!(
            page.contains("* 11:02:03 error: it failed badly\n"),
            "{page}"
        );
        assert!(page.find("11:02:03").unwrap() < page.find("message 304").unwrap());
        assert!(page.contains("Times are UTC."));
    }
}
