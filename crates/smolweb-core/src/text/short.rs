//! Short forms for people: a byte count in IEC units ([`human_bytes`]), a rounded duration
//! ([`human_duration`]), an age in its largest whole unit ([`human_age`]), a count with its
//! noun ([`count`]) and remote text put on one line ([`one_line`]), the one copy every face
//! and page uses.

use core::time::Duration;
use std::borrow::Cow;

/// A duration for people: whole seconds from 10 s on ("30 s" for 29.9999 s), one decimal
/// below ("1.5 s"), milliseconds under a second ("250 ms").
pub fn human_duration(d: Duration) -> String {
    let secs = d.as_secs_f64();
    let tenths = (secs * 10.0).round() as u64;
    if tenths >= 100 {
        format!("{} s", secs.round() as u64)
    } else if tenths >= 10 {
        match tenths % 10 {
            0 => format!("{} s", tenths / 10),
            t => format!("{}.{t} s", tenths / 10),
        }
    } else {
        format!("{} ms", (secs * 1000.0).round() as u64)
    }
}

/// An age for people, in its largest whole unit: "42 s", "3 min", "2 h", "1 day", "5 days".
pub fn human_age(seconds: u64) -> String {
    match seconds {
        s if s < 60 => format!("{s} s"),
        s if s < 3600 => format!("{} min", s / 60),
        s if s < 86_400 => format!("{} h", s / 3600),
        s if s < 2 * 86_400 => "1 day".to_string(),
        s => format!("{} days", s / 86_400),
    }
}

/// `n` and the noun that fits it: "1 feed", "0 feeds", "3 feeds".
pub fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// A byte count for people, in IEC units: "512 B", "1.5 KiB", "200.0 MiB", "3.2 GiB" (one
/// decimal above a KiB; counts past the GiB stay in GiB).
pub fn human_bytes(n: u64) -> String {
    const UNITS: [&str; 3] = ["KiB", "MiB", "GiB"];
    if n < 1024 {
        return format!("{n} B");
    }
    let mut v = n as f64 / 1024.0;
    let mut unit = 0;
    while v >= 1024.0 && unit < UNITS.len() - 1 {
        v /= 1024.0;
        unit += 1;
    }
    format!("{v:.1} {}", UNITS[unit])
}

/// Untrusted text on one line.
///
/// - `max_chars: None` (a message, a label or a line of a built-in page, shown as it is):
///   through the one sanitizer, [`super::sanitize_line`]: line breaks and tabs become spaces
///   (so the text cannot start a line of its own), terminal controls and bidi overrides are
///   marked, invisible characters dropped; borrowed when already clean.
/// - `max_chars: Some(n)` (text that is kept, such as a feed or entry title): terminal
///   controls ([`super::is_terminal_control`]) and every whitespace become spaces, runs
///   collapse to one, the ends are trimmed, and the result is cut to at most `n` characters
///   (never right after a space).
pub fn one_line(text: &str, max_chars: Option<usize>) -> Cow<'_, str> {
    let Some(max) = max_chars else {
        return super::sanitize_line(text);
    };
    let mut out = String::with_capacity(text.len().min(max.saturating_mul(4)));
    let mut count = 0;
    let mut pending_space = false;
    for c in text.chars() {
        if c.is_whitespace() || super::is_terminal_control(c) {
            pending_space = !out.is_empty();
            continue;
        }
        // The space owed before this char counts too: never cut after a space.
        if count + usize::from(pending_space) >= max {
            break;
        }
        if pending_space {
            out.push(' ');
            count += 1;
            pending_space = false;
        }
        out.push(c);
        count += 1;
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_are_rounded_for_people() {
        let cases = [
            (Duration::from_secs_f64(29.999_917_224), "30 s"),
            (Duration::from_secs(5), "5 s"),
            (Duration::from_millis(1500), "1.5 s"),
            (Duration::from_millis(9990), "10 s"),
            (Duration::from_millis(250), "250 ms"),
            (Duration::from_millis(999), "1 s"),
        ];
        for (d, want) in cases {
            assert_eq!(human_duration(d), want, "{d:?}");
        }
    }

    #[test]
    fn ages_for_people() {
        let cases = [
            (0, "0 s"),
            (59, "59 s"),
            (60, "1 min"),
            (3599, "59 min"),
            (3600, "1 h"),
            (86_399, "23 h"),
            (86_400, "1 day"),
            (10 * 86_400, "10 days"),
        ];
        for (s, want) in cases {
            assert_eq!(human_age(s), want, "{s}");
        }
    }

    #[test]
    fn counts_take_the_noun_that_fits() {
        assert_eq!(count(1, "feed", "feeds"), "1 feed");
        assert_eq!(count(0, "feed", "feeds"), "0 feeds");
        assert_eq!(count(2, "entry", "entries"), "2 entries");
    }

    #[test]
    fn byte_counts_in_iec_units() {
        let cases = [
            (0, "0 B"),
            (1023, "1023 B"),
            (1024, "1.0 KiB"),
            (1536, "1.5 KiB"),
            (200 * 1024 * 1024, "200.0 MiB"),
            (3 * 1024 * 1024 * 1024 + 200 * 1024 * 1024, "3.2 GiB"),
            (5000 * 1024 * 1024 * 1024, "5000.0 GiB"),
        ];
        for (n, want) in cases {
            assert_eq!(human_bytes(n), want, "{n}");
        }
    }

    #[test]
    fn one_line_marks_or_collapses_and_cuts() {
        // Shown as it is: breaks folded, controls marked, nothing cut.
        assert_eq!(one_line("a\tb\nc\x1b", None), "a b c\u{fffd}");
        assert!(matches!(one_line("clean", None), Cow::Borrowed(_)));
        let long = "y".repeat(1000);
        assert_eq!(one_line(&long, None).chars().count(), 1000);
        // Kept: runs collapse, controls become spaces, trimmed and cut.
        assert_eq!(one_line("  a\n\tb\x1b[31m  c ", Some(300)), "a b [31m c");
        assert_eq!(one_line(&long, Some(10)), "y".repeat(10));
        assert_eq!(one_line("ab cd", Some(3)), "ab", "no space at the cut");
        assert_eq!(one_line("\n\n", Some(5)), "");
    }
}
