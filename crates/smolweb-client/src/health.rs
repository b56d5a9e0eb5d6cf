//! The health of a subscription, read from its store row at a time (pure: no IO, no clock).
//!
//! [`health`] says what every face shows of it (`about:feeds?health`, the marks on
//! `about:feeds`, `smolweb feeds health`, `smolweb sync`'s summary): the last success, the
//! failures in a row since when with the last error (the client's own words for it, as the
//! refresh recorded them), the entries kept and the newest entry's date, and the [`Sign`]s
//! of a sick one: failing, moved (a permanent redirect: `smolweb feeds adopt` follows it),
//! empty (a feed read without error that lists nothing), quiet (a feed whose newest entry is
//! [`QUIET_DAYS`] old or more), restless (a followed page that changes at every refresh).

use smolweb_store::subscriptions::Subscription;
use time::OffsetDateTime;

/// How old a feed's newest entry must be for the feed to be quiet, in days (three months).
pub const QUIET_DAYS: i64 = 91;

/// Something wrong with a subscription.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Sign {
    /// The last refreshes failed.
    Failing {
        /// How many in a row.
        failures: u32,
        /// When the first of them ended (None: recorded before 0.4).
        since: Option<OffsetDateTime>,
        /// The last error, in the client's words.
        error: String,
    },
    /// A permanent redirect names another address.
    Moved(String),
    /// A feed read without error that lists no entry.
    Empty,
    /// A feed whose newest entry is this many whole months old.
    Quiet {
        /// Months (of 30 days) since the newest entry.
        months: i64,
    },
    /// A followed page that changes at every refresh: its changes are not listed.
    Restless,
}

impl Sign {
    /// One line for people.
    pub fn words(&self) -> String {
        use smolweb_core::text::{count, readable_time};
        match self {
            Sign::Failing {
                failures,
                since,
                error,
            } => {
                let since = since
                    .map(|t| format!(" since {}", readable_time(t)))
                    .unwrap_or_default();
                format!(
                    "failing: {} in a row{since}: {error}",
                    count(*failures as usize, "refresh", "refreshes")
                )
            }
            Sign::Moved(to) => format!("moved to {to}"),
            Sign::Empty => "empty: read without error, but it lists nothing".into(),
            Sign::Quiet { months } => {
                format!("quiet for {}", count(*months as usize, "month", "months"))
            }
            Sign::Restless => {
                "changes at every refresh: its changes are not listed (a clock, a random \
                 quote, two versions taking turns)"
                    .into()
            }
        }
    }
    /// A short tag: `failing`, `moved`, `empty`, `quiet`, `restless`.
    pub fn tag(&self) -> &'static str {
        match self {
            Sign::Failing { .. } => "failing",
            Sign::Moved(_) => "moved",
            Sign::Empty => "empty",
            Sign::Quiet { .. } => "quiet",
            Sign::Restless => "restless",
        }
    }
}

/// What is known of one subscription's health.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Health {
    /// When the last successful refresh ended.
    pub last_success: Option<OffsetDateTime>,
    /// Entries kept (a followed page: its kept changes).
    pub entries: usize,
    /// The newest entry's date (its own, else when it was first seen).
    pub newest: Option<OffsetDateTime>,
    /// What is wrong; empty when healthy.
    pub signs: Vec<Sign>,
}

impl Health {
    /// Is something wrong?
    pub fn sick(&self) -> bool {
        !self.signs.is_empty()
    }
}

/// The health of `sub` at `now` (see the module docs).
pub fn health(sub: &Subscription, now: OffsetDateTime) -> Health {
    use time::format_description::well_known::Rfc3339;
    let newest = sub
        .entries
        .iter()
        .map(|e| e.sort_key())
        .max()
        .and_then(|k| OffsetDateTime::parse(&k, &Rfc3339).ok());
    let mut signs = Vec::new();
    if let Some(error) = &sub.error {
        signs.push(Sign::Failing {
            failures: sub.failures.max(1),
            since: sub.failing_since,
            error: smolweb_core::feed::one_line(error),
        });
    }
    if let Some(to) = &sub.moved_to {
        signs.push(Sign::Moved(smolweb_core::feed::one_line(to)));
    }
    let feed_read = !sub.is_page() && sub.last_success().is_some();
    match newest {
        None if feed_read => signs.push(Sign::Empty),
        Some(t) if feed_read && (now - t).whole_days() >= QUIET_DAYS => signs.push(Sign::Quiet {
            months: (now - t).whole_days() / 30,
        }),
        _ => {}
    }
    if sub.restless {
        signs.push(Sign::Restless);
    }
    Health {
        last_success: sub.last_success(),
        entries: sub.entries.len(),
        newest,
        signs,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use smolweb_store::subscriptions::StoredEntry;
    use time::macros::datetime;

    const NOW: OffsetDateTime = datetime!(2026-07-28 12:00 UTC);

    fn feed(entries: &[&str]) -> Subscription {
        let mut sub = Subscription::new(
            "gemini://log.example/".into(),
            datetime!(2026-01-01 00:00 UTC),
            None,
        );
        sub.refreshed = Some(datetime!(2026-07-28 11:00 UTC));
        sub.entries = entries
            .iter()
            .map(|d| StoredEntry {
                url: format!("gemini://log.example/{d}"),
                title: (*d).into(),
                published: Some(format!("{d}T00:00:00Z")),
                first_seen: NOW,
                read: false,
            })
            .collect();
        sub
    }

    #[test]
    fn the_signs_of_a_sick_subscription() {
        let fine = health(&feed(&["2026-07-20"]), NOW);
        assert!(!fine.sick());
        assert_eq!(fine.entries, 1);
        assert_eq!(fine.newest, Some(datetime!(2026-07-20 00:00 UTC)));
        assert_eq!(health(&feed(&[]), NOW).signs, [Sign::Empty]);
        assert_eq!(
            health(&feed(&["2026-01-02", "2025-12-01"]), NOW).signs,
            [Sign::Quiet { months: 6 }]
        );
        let mut failing = feed(&["2026-07-20"]);
        failing.error = Some("connection refused".into());
        failing.failures = 4;
        failing.failing_since = Some(datetime!(2026-07-25 08:00 UTC));
        failing.moved_to = Some("gemini://new.example/".into());
        let h = health(&failing, NOW);
        assert_eq!(
            h.signs.iter().map(Sign::tag).collect::<Vec<_>>(),
            ["failing", "moved"]
        );
        assert_eq!(
            h.signs[0].words(),
            "failing: 4 refreshes in a row since 2026-07-25 08:00 UTC: connection refused"
        );
        assert_eq!(h.last_success, None);
        // A never-refreshed feed is not empty, and a followed page is never quiet or empty.
        let mut new = feed(&[]);
        new.refreshed = None;
        assert!(!health(&new, NOW).sick());
        let mut page = feed(&[]);
        page.changes = Some(smolweb_core::follow::Watch::Links);
        page.restless = true;
        assert_eq!(health(&page, NOW).signs, [Sign::Restless]);
    }
}
