//! The one tokenizer of the index and of queries: words are runs of letters and digits, and
//! the scripts written without spaces between words (Han, Hiragana, Katakana, Thai, Lao,
//! Khmer, Myanmar) are cut into one token per character (with the combining marks that follow
//! it), so a word of those scripts is found as a phrase of its characters instead of being one
//! token as long as the sentence. Tokens longer than [`MAX_TOKEN_BYTES`] are dropped (a 2 MB
//! line without spaces indexes nothing of itself, and costs nothing).
//!
//! Linear in the text, no allocation per character beyond the token's own text.

use tantivy::tokenizer::{Token, TokenStream, Tokenizer};

/// Longest token kept, in bytes (longer ones are hashes, base64, or a script we cannot cut).
pub(crate) const MAX_TOKEN_BYTES: usize = 64;

/// Is `c` of a script written without spaces between words?
pub(crate) fn unspaced(c: char) -> bool {
    matches!(c as u32,
        0x0E00..=0x0EFF // Thai, Lao
        | 0x1000..=0x109F // Myanmar
        | 0x1780..=0x17FF // Khmer
        | 0x3040..=0x30FF // Hiragana, Katakana
        | 0x31F0..=0x31FF
        | 0x3400..=0x4DBF // CJK extension A
        | 0x4E00..=0x9FFF // CJK unified ideographs
        | 0xF900..=0xFAFF
        | 0xFF66..=0xFF9F // half-width Katakana
        | 0x20000..=0x2FA1F)
}

/// A combining mark that belongs to the character before it (the marks of the unspaced
/// scripts are in their own blocks, and are not alphanumeric).
fn mark(c: char) -> bool {
    !c.is_alphanumeric() && (unspaced(c) || matches!(c as u32, 0x0300..=0x036F | 0x3099..=0x309A))
}

/// The tokenizer (see the module docs).
#[derive(Clone, Default)]
pub(crate) struct SmolTokenizer {
    token: Token,
}

/// Its stream over one text.
pub(crate) struct SmolStream<'a> {
    text: &'a str,
    at: usize,
    token: &'a mut Token,
}

impl Tokenizer for SmolTokenizer {
    type TokenStream<'a> = SmolStream<'a>;
    fn token_stream<'a>(&'a mut self, text: &'a str) -> SmolStream<'a> {
        self.token.reset();
        SmolStream {
            text,
            at: 0,
            token: &mut self.token,
        }
    }
}

impl SmolStream<'_> {
    /// The next token's byte range from `self.at`, or None at the end. ASCII (most of what
    /// is indexed, and every snippet's text) is read byte by byte; any other character goes
    /// the way of [`SmolStream::next_range_chars`].
    fn next_range(&mut self) -> Option<(usize, usize)> {
        let bytes = self.text.as_bytes();
        let mut i = self.at;
        while i < bytes.len() && bytes[i].is_ascii() && !bytes[i].is_ascii_alphanumeric() {
            i += 1;
        }
        if i == bytes.len() {
            return None;
        }
        if !bytes[i].is_ascii() {
            self.at = i;
            return self.next_range_chars();
        }
        let from = i;
        while i < bytes.len() && bytes[i].is_ascii_alphanumeric() {
            i += 1;
        }
        if i < bytes.len() && !bytes[i].is_ascii() {
            // A word going on in letters beyond ASCII ("café"): as far as they go.
            for (j, n) in self.text[i..].char_indices() {
                if !n.is_alphanumeric() || unspaced(n) {
                    return Some((from, i + j));
                }
            }
            return Some((from, bytes.len()));
        }
        Some((from, i))
    }

    /// [`SmolStream::next_range`] for text that does not start with ASCII.
    fn next_range_chars(&mut self) -> Option<(usize, usize)> {
        let rest = &self.text[self.at..];
        let mut chars = rest.char_indices().peekable();
        loop {
            let (i, c) = chars.next()?;
            if !c.is_alphanumeric() {
                continue;
            }
            let from = self.at + i;
            let mut to = from + c.len_utf8();
            if unspaced(c) {
                while let Some(&(j, m)) = chars.peek() {
                    if !mark(m) {
                        break;
                    }
                    to = self.at + j + m.len_utf8();
                    chars.next();
                }
            } else {
                while let Some(&(j, n)) = chars.peek() {
                    if !n.is_alphanumeric() || unspaced(n) {
                        break;
                    }
                    to = self.at + j + n.len_utf8();
                    chars.next();
                }
            }
            return Some((from, to));
        }
    }
}

impl TokenStream for SmolStream<'_> {
    fn advance(&mut self) -> bool {
        self.token.text.clear();
        while let Some((from, to)) = self.next_range() {
            self.at = to;
            self.token.position = self.token.position.wrapping_add(1);
            if to - from > MAX_TOKEN_BYTES {
                continue;
            }
            self.token.offset_from = from;
            self.token.offset_to = to;
            self.token.text.push_str(&self.text[from..to]);
            return true;
        }
        self.at = self.text.len();
        false
    }
    fn token(&self) -> &Token {
        self.token
    }
    fn token_mut(&mut self) -> &mut Token {
        self.token
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(text: &str) -> Vec<(String, usize)> {
        let mut t = SmolTokenizer::default();
        let mut s = t.token_stream(text);
        let mut out = Vec::new();
        while s.advance() {
            out.push((s.token().text.clone(), s.token().position));
        }
        out
    }

    #[test]
    fn words_scripts_and_long_tokens() {
        let cases: &[(&str, &[&str])] = &[
            ("Tardigrades in moss!", &["Tardigrades", "in", "moss"]),
            ("v2.0-rc1", &["v2", "0", "rc1"]),
            (
                "苔の中のクマムシ",
                &["苔", "の", "中", "の", "ク", "マ", "ム", "シ"],
            ),
            ("moss苔", &["moss", "苔"]),
            ("ภาษาไทย", &["ภ", "า", "ษ", "า", "ไ", "ท", "ย"]),
            ("Café au lait, naïve", &["Café", "au", "lait", "naïve"]),
            ("ab苔cd", &["ab", "苔", "cd"]),
            ("é", &["é"]),
            ("x\u{301}y z", &["x", "y", "z"]),
            ("  \t\n42 ", &["42"]),
            ("", &[]),
            ("-- ,, ..", &[]),
        ];
        for (text, want) in cases {
            let got: Vec<String> = tokens(text).into_iter().map(|t| t.0).collect();
            assert_eq!(&got, want, "{text}");
        }
    }

    #[test]
    fn a_long_run_is_skipped_but_keeps_positions_counting() {
        let long = "x".repeat(2 * 1024 * 1024);
        let text = format!("before {long} after");
        let got = tokens(&text);
        assert_eq!(got[0], ("before".to_string(), 0));
        assert_eq!(got[1].0, "after");
        assert_eq!(got.len(), 2);
    }
}
