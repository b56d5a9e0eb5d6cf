//! Parse failures of data files, described without quoting the file.
//!
//! A parser's own error text may quote what it read: the TOML crate's `Display` prints the
//! offending source line, and serde's messages quote values (`invalid type: string "..."`) and
//! unknown keys. A data file may be something else than it should be (a link or a copy of
//! another file), and its error reaches the terminal, the log and the agent, so
//! [`ParseFailure::describe`] says where (line and column) and what went wrong in the parser's
//! words with every quoted fragment replaced by `…`. Only the parser's expectation after
//! "expected" stays as it is: it comes from the schema, never from the file.
//!
//! [`describe_toml`] with [`Quote::Keys`] is for the person's own config file: it still names
//! the key in question when it looks like a key (letters, digits, `_`, `-`, `.`, `+`), so a
//! typo is easy to find, but never a line or a string value.

use std::convert::Infallible;

/// What may be repeated from the file in a description.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quote {
    /// Nothing (store files).
    Nothing,
    /// Key names and numbers the parser quotes, never a string value or a line (the config).
    Keys,
}

/// A parse error that can say what went wrong without quoting the text it parsed.
pub trait ParseFailure {
    /// Where and what, with nothing of `text` in it.
    fn describe(&self, text: &str) -> String;
}

impl ParseFailure for toml::de::Error {
    fn describe(&self, text: &str) -> String {
        describe_toml(self, text, Quote::Nothing)
    }
}

impl ParseFailure for Infallible {
    fn describe(&self, _text: &str) -> String {
        match *self {}
    }
}

/// "line L, column C: message" for a TOML error (see the module docs).
pub fn describe_toml(e: &toml::de::Error, text: &str, quote: Quote) -> String {
    let message = mask(&e.message().lines().collect::<Vec<_>>().join("; "), quote);
    match e.span().and_then(|s| position(text, s.start)) {
        Some((line, column)) => format!("line {line}, column {column}: {message}"),
        None => message,
    }
}

/// 1-based line and column (in characters) of byte offset `at`.
fn position(text: &str, at: usize) -> Option<(usize, usize)> {
    let before = text.get(..at)?;
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
    Some((line, column))
}

/// A fragment a [`Quote::Keys`] description may repeat.
fn looks_like_key(fragment: &str) -> bool {
    (1..=64).contains(&fragment.len())
        && fragment
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '+'))
}

/// Replace the quoted fragments of `message` before its "expected ..." part.
fn mask(message: &str, quote: Quote) -> String {
    let split = message.find("expected ").unwrap_or(message.len());
    let (head, tail) = message.split_at(split);
    let mut out = String::with_capacity(message.len());
    let mut chars = head.chars();
    while let Some(c) = chars.next() {
        if c != '`' && c != '"' {
            out.push(c);
            continue;
        }
        let mut fragment = String::new();
        let mut escaped = false;
        for d in chars.by_ref() {
            if d == c && !escaped {
                break;
            }
            escaped = c == '"' && d == '\\' && !escaped;
            fragment.push(d);
        }
        if c == '`' && quote == Quote::Keys && looks_like_key(&fragment) {
            out.push('`');
            out.push_str(&fragment);
            out.push('`');
        } else {
            out.push('…');
        }
    }
    out.push_str(tail);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Pin {
        host: String,
        port: u16,
    }

    fn describe(text: &str, quote: Quote) -> String {
        let e = toml::from_str::<Pin>(text).unwrap_err();
        describe_toml(&e, text, quote)
    }

    #[test]
    fn descriptions_say_where_and_what_but_quote_nothing_of_the_file() {
        let cases: &[(&str, &str, &str)] = &[
            (
                "root:x:0:0:root:/root:/bin/bash\n",
                "line 1, column 32: key with no value, expected `=`",
                "root",
            ),
            (
                "host = \"a\"\nport = \"se\\\"cret\"\n",
                "line 2, column 8: invalid type: string …, expected u16",
                "cret",
            ),
            (
                "host = 'a'\nport = 1\nsecret_token = 'abc'\n",
                "line 3, column 1: unknown field …, expected `host` or `port`",
                "secret_token",
            ),
            (
                "host = 'a'\nport = 99999\n",
                "line 2, column 8: invalid value: integer …, expected u16",
                "99999",
            ),
            (
                "[x\n",
                "line 1, column 3: unclosed table, expected `]`",
                "[x",
            ),
        ];
        for (text, want, secret) in cases {
            let got = describe(text, Quote::Nothing);
            assert_eq!(&got, want, "{text:?}");
            assert!(!got.contains(secret), "{got}");
        }
    }

    #[test]
    fn the_config_mode_names_keys_but_not_strings_or_lines() {
        let got = describe("host = 'a'\nport = 1\ntimeoutt = 3\n", Quote::Keys);
        assert_eq!(
            got,
            "line 3, column 1: unknown field `timeoutt`, expected `host` or `port`"
        );
        let got = describe("host = 'a'\nport = \"hunter2\"\n", Quote::Keys);
        assert!(!got.contains("hunter2"), "{got}");
        let got = describe("root:x:0:0:root:/root:/bin/bash\n", Quote::Keys);
        assert!(!got.contains("/bin/bash"), "{got}");
    }

    #[test]
    fn unterminated_quotes_and_odd_offsets_do_not_leak() {
        assert_eq!(mask("bad `abc", Quote::Nothing), "bad …");
        assert_eq!(
            mask("bad \"a\\\\\" then `k`", Quote::Nothing),
            "bad … then …"
        );
        assert_eq!(position("ab\ncd", 4), Some((2, 2)));
        assert_eq!(position("é", 1), None);
        assert_eq!(position("ab", 9), None);
    }
}
