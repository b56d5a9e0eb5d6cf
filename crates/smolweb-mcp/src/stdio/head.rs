//! The id of a request from the first bytes of its line, for the reply to a line too long to
//! read whole: a bounded scan over the top-level object, no full parse.
//!
//! The scan walks the top-level members in order, skipping every value that is not `id`
//! (nested objects, arrays and strings with their escapes), and decodes the `id` value only: a
//! JSON string (escapes and `\u` pairs included) or a number. It gives up (None, so the reply
//! carries `id: null`) when the bytes are not an object, when `id` is not a string or a number,
//! or when the head ends before the `id` value is complete. Cost: one pass over at most the
//! head's bytes; nesting is counted, not recursed into.

use serde_json::Value;

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// The request id in `head` (the first bytes of a message), if it is there whole.
pub(crate) fn request_id(head: &[u8]) -> Option<Value> {
    let mut s = Scan {
        b: head.strip_prefix(BOM).unwrap_or(head),
        i: 0,
    };
    s.ws();
    s.eat(b'{')?;
    loop {
        s.ws();
        let key = s.string_token()?;
        s.ws();
        s.eat(b':')?;
        s.ws();
        if serde_json::from_slice::<String>(key).ok()? == "id" {
            return s.id();
        }
        s.skip_value()?;
        s.ws();
        s.eat(b',')?;
    }
}

struct Scan<'a> {
    b: &'a [u8],
    i: usize,
}

impl<'a> Scan<'a> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.i += 1;
        }
    }

    fn eat(&mut self, c: u8) -> Option<()> {
        (self.peek()? == c).then(|| self.i += 1)
    }

    /// The bytes of a string token, quotes included (not decoded).
    fn string_token(&mut self) -> Option<&'a [u8]> {
        let start = self.i;
        self.eat(b'"')?;
        loop {
            match self.peek()? {
                b'"' => {
                    self.i += 1;
                    return self.b.get(start..self.i);
                }
                b'\\' => self.i += 2,
                _ => self.i += 1,
            }
        }
    }

    /// A scalar token (number, `true`, `false`, `null`): up to the next delimiter, which must
    /// be in the head (else the token may be cut).
    fn scalar_token(&mut self) -> Option<&'a [u8]> {
        let start = self.i;
        while !matches!(
            self.peek()?,
            b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r'
        ) {
            self.i += 1;
        }
        (self.i > start).then(|| self.b.get(start..self.i))?
    }

    fn id(&mut self) -> Option<Value> {
        if self.peek()? == b'"' {
            let token = self.string_token()?;
            return serde_json::from_slice::<String>(token)
                .ok()
                .map(Value::String);
        }
        let token = self.scalar_token()?;
        match serde_json::from_slice::<Value>(token).ok()? {
            n @ Value::Number(_) => Some(n),
            _ => None,
        }
    }

    /// Past one value of any kind.
    fn skip_value(&mut self) -> Option<()> {
        match self.peek()? {
            b'"' => self.string_token().map(|_| ()),
            b'{' | b'[' => self.skip_nested(),
            _ => self.scalar_token().map(|_| ()),
        }
    }

    /// Past an object or array, counting brackets (strings inside are skipped whole).
    fn skip_nested(&mut self) -> Option<()> {
        let mut depth = 0usize;
        loop {
            match self.peek()? {
                b'"' => {
                    self.string_token()?;
                    continue;
                }
                b'{' | b'[' => depth += 1,
                b'}' | b']' => {
                    depth = depth.checked_sub(1)?;
                    if depth == 0 {
                        self.i += 1;
                        return Some(());
                    }
                }
                _ => {}
            }
            self.i += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::json;

    #[test]
    fn finds_the_id_where_it_is() {
        let cases: [(&str, Value); 14] = [
            (
                r#"{"jsonrpc":"2.0","id":5,"method":"x","params":{"a":"#,
                json!(5),
            ),
            (r#"{ "id" : 5 , "x"#, json!(5)),
            (r#"{"id":"abc","params":"#, json!("abc")),
            (
                r#"{"id":"a\"b\\c\u00e9\ud83d\ude00","#,
                json!("a\"b\\c\u{e9}\u{1f600}"),
            ),
            (
                r#"{"jsonrpc":"2.0","method":"tools/call","id":-7,"params""#,
                json!(-7),
            ),
            (
                r#"{"params":{"id":1,"s":"}\"]"},"list":[{"id":2}],"id":3,"x":"#,
                json!(3),
            ),
            ("\u{feff}{\"id\":9,", json!(9)),
            (
                r#"{"jsonrpc":"2.0","method":"x","params":{"huge":"aaaa"#,
                Value::Null,
            ),
            (r#"{"jsonrpc":"2.0","id":12"#, Value::Null),
            (r#"{"id":"unterminated"#, Value::Null),
            (r#"{"id":null,"#, Value::Null),
            (r#"{"id":{"x":1},"#, Value::Null),
            (r#"[{"id":1}]"#, Value::Null),
            (r#"{"a":1 "id":2,"#, Value::Null),
        ];
        for (head, want) in cases {
            let got = request_id(head.as_bytes()).unwrap_or(Value::Null);
            assert_eq!(got, want, "{head}");
        }
    }

    proptest! {
        /// Any request serialized whole gives back its id, wherever the id sits.
        #[test]
        fn a_whole_message_gives_its_id(
            id in prop_oneof![
                any::<i64>().prop_map(Value::from),
                "\\PC{0,20}".prop_map(Value::from),
            ],
            before in proptest::collection::vec(("[a-z]{1,6}", "\\PC{0,12}"), 0..4),
            nested in "\\PC{0,30}",
        ) {
            let mut obj = serde_json::Map::new();
            for (k, v) in before {
                if k != "id" {
                    obj.insert(k, json!({"id": 0, "v": [v, {"s": "}]"}]}));
                }
            }
            obj.insert("id".into(), id.clone());
            obj.insert("params".into(), json!({"text": nested}));
            let line = serde_json::to_vec(&Value::Object(obj)).unwrap();
            prop_assert_eq!(request_id(&line), Some(id));
        }

        /// Arbitrary bytes never panic.
        #[test]
        fn any_bytes_are_safe(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
            let _ = request_id(&bytes);
        }
    }
}
