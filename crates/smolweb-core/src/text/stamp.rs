//! Times written as RFC 3339 (`2026-12-02T07:10:00Z`): the one formatter of every timestamp
//! smolweb writes, in its files and its answers to agents. A time a person reads is
//! [`readable_time`] instead (`2026-12-02 07:10 UTC`).

use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

/// `t` as RFC 3339. A time RFC 3339 cannot write (a year past 9999, an offset with seconds)
/// falls back to the `time` crate's own display, so nothing is ever written as empty.
pub fn rfc3339(t: OffsetDateTime) -> String {
    t.format(&Rfc3339).unwrap_or_else(|_| t.to_string())
}

/// `t` as a person reads it, to the minute: `2026-12-02 07:10` in `t`'s own offset, marked
/// ` UTC` when that offset is UTC (a caller that knows the local offset converts first, and
/// the mark then tells a local time from UTC). Never for files or agents: see [`rfc3339`].
pub fn readable_time(t: OffsetDateTime) -> String {
    let mut out = format!(
        "{:04}-{:02}-{:02} {:02}:{:02}",
        t.year(),
        u8::from(t.month()),
        t.day(),
        t.hour(),
        t.minute()
    );
    if t.offset().is_utc() {
        out.push_str(" UTC");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{readable_time, rfc3339};

    #[test]
    fn people_read_times_to_the_minute() {
        let cases = [
            (
                datetime!(2026-12-01 21:38:59.030369618 UTC),
                "2026-12-01 21:38 UTC",
            ),
            (datetime!(2026-12-01 22:38:59 +01:00), "2026-12-01 22:38"),
        ];
        for (t, want) in cases {
            assert_eq!(readable_time(t), want);
        }
    }
    use time::macros::datetime;

    #[test]
    fn writes_rfc3339_and_never_nothing() {
        assert_eq!(
            rfc3339(datetime!(2026-12-02 07:10:00 UTC)),
            "2026-12-02T07:10:00Z"
        );
        assert_eq!(
            rfc3339(datetime!(2026-12-02 07:10:00.5 +01:00)),
            "2026-12-02T07:10:00.5+01:00"
        );
        let far = datetime!(2026-01-01 00:00 UTC).replace_year(10_000);
        if let Ok(far) = far {
            assert!(!rfc3339(far).is_empty());
        }
    }
}
