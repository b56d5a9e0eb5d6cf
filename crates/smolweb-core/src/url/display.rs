//! The one form in which a URL is shown to a person: the address as smolweb fetches it
//! (normalized: lowercase host, no default port), with an IDN host in its own script and
//! percent-encoded letters of the path decoded (`caf%C3%A9.gmi` reads `café.gmi`). What is
//! copied, saved or sent stays the exact URL; this is for eyes only. Encoded bytes that would
//! change the address's structure or hide something (`/`, `?`, `#`, `%`, spaces, controls,
//! invisible or bidirectional characters) stay encoded.

use super::Url;
use crate::text::invisible;

/// `url` as a person reads it (see the module docs); the input when it does not parse.
pub fn display(url: &str) -> String {
    let Ok(parsed) = Url::parse(url) else {
        return url.to_string();
    };
    let exact = parsed.to_string();
    let host = parsed.host();
    let mut out = if host.split('.').any(|l| l.starts_with("xn--")) {
        let (unicode, result) = idna::domain_to_unicode(host);
        if result.is_ok() && unicode.chars().all(readable) {
            exact.replacen(host, &unicode, 1)
        } else {
            exact
        }
    } else {
        exact
    };
    if out.contains('%') {
        out = decode_readable(&out);
    }
    out
}

/// A character that may be shown decoded: a letter, digit or mark of any script, or an
/// unreserved ASCII punctuation mark.
fn readable(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphanumeric() || "-._~".contains(c);
    }
    !c.is_control()
        && !c.is_whitespace()
        && !invisible::is_invisible(c)
        && !invisible::is_bidi_control(c)
        && !invisible::is_bidi_mark(c)
        && !invisible::is_joiner(c)
}

/// Decode the `%XX` runs that spell readable characters; leave every other byte as it is.
fn decode_readable(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'%' {
            let next = s[i..].find('%').map_or(s.len(), |k| i + k);
            out.push_str(&s[i..next]);
            i = next;
            continue;
        }
        // The run of %XX triplets from here.
        let mut run = Vec::new();
        let mut j = i;
        while j + 2 < bytes.len() && bytes[j] == b'%' {
            match u8::from_str_radix(s.get(j + 1..j + 3).unwrap_or(""), 16) {
                Ok(b) => run.push(b),
                Err(_) => break,
            }
            j += 3;
        }
        if run.is_empty() {
            out.push('%');
            i += 1;
            continue;
        }
        // Decode char by char: a readable char is shown, anything else keeps its triplets.
        let mut k = 0;
        while k < run.len() {
            let len = utf8_len(run[k]);
            let piece = run
                .get(k..k + len)
                .and_then(|b| std::str::from_utf8(b).ok());
            match piece.and_then(|p| p.chars().next()) {
                Some(c) if len > 0 && readable(c) => out.push(c),
                _ => {
                    let n = len.max(1).min(run.len() - k);
                    for b in &run[k..k + n] {
                        out.push_str(&format!("%{b:02X}"));
                    }
                    k += n;
                    continue;
                }
            }
            k += len;
        }
        i = j;
    }
    out
}

/// Bytes of the UTF-8 sequence a lead byte starts (0 for a continuation or invalid byte).
fn utf8_len(b: u8) -> usize {
    match b {
        0x00..=0x7f => 1,
        0xc2..=0xdf => 2,
        0xe0..=0xef => 3,
        0xf0..=0xf4 => 4,
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::display;

    #[test]
    fn one_display_form() {
        let cases = [
            (
                "gemini://Cap.Example:1965/caf%C3%A9.gmi",
                "gemini://cap.example/café.gmi",
            ),
            ("gemini://cap.example:1966/", "gemini://cap.example:1966/"),
            (
                "gemini://xn--bcher-kva.example/",
                "gemini://bücher.example/",
            ),
            // Structure and hidden things stay encoded.
            (
                "gemini://c.example/a%2Fb%20c%3F",
                "gemini://c.example/a%2Fb%20c%3F",
            ),
            (
                "gemini://c.example/x%E2%80%AEy",
                "gemini://c.example/x%E2%80%AEy",
            ),
            ("gemini://c.example/%00%0A", "gemini://c.example/%00%0A"),
            // Broken or partial sequences are left as they came.
            ("gemini://c.example/%C3", "gemini://c.example/%C3"),
            ("gemini://c.example/%zz", "gemini://c.example/%25zz"),
            ("gopher://h.example:70/1/", "gopher://h.example/1/"),
            ("not a url", "not a url"),
        ];
        for (input, shown) in cases {
            assert_eq!(display(input), shown, "{input}");
        }
    }
}
