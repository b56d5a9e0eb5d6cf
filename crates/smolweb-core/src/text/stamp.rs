//! Times written as RFC 3339 (`2026-12-02T07:10:00Z`): the one formatter of every timestamp
//! smolweb writes, in its files, its pages and its answers to agents.

use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

/// `t` as RFC 3339. A time RFC 3339 cannot write (a year past 9999, an offset with seconds)
/// falls back to the `time` crate's own display, so nothing is ever written as empty.
pub fn rfc3339(t: OffsetDateTime) -> String {
    t.format(&Rfc3339).unwrap_or_else(|_| t.to_string())
}

#[cfg(test)]
mod tests {
    use super::rfc3339;
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
