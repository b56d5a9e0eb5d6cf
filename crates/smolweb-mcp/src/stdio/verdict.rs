//! What the front end does with one incoming line: hand it to rmcp, answer it with a
//! JSON-RPC error itself, or drop it.
//!
//! Replies follow JSON-RPC 2.0: `-32700` (id null) for a line that is not JSON, `-32600` for a
//! message that is not a valid request (carrying the request's id when it has a usable one),
//! `-32602` for a known method whose params do not fit its type (a `tools/call` without a
//! string `name`, or whose `arguments` is not an object). Whether tool arguments match the
//! tool's input schema is decided later, per protocol generation (`mcp::call`).
//! Notifications and responses never get a reply (JSON-RPC forbids it); broken ones are dropped.

use rmcp::model::ClientJsonRpcMessage;
use serde_json::{Value, json};

pub(crate) const PARSE_ERROR: i64 = -32700;
pub(super) const INVALID_REQUEST: i64 = -32600;
pub(super) const INVALID_PARAMS: i64 = -32602;

/// What the front end does with one line.
// Public for the fuzz targets' door (`stdio::fuzzing`), which only tests and the `fuzzing`
// feature build.
#[cfg_attr(not(any(test, feature = "fuzzing")), allow(unreachable_pub))]
#[derive(Debug, PartialEq)]
pub enum Verdict {
    /// Handed to rmcp.
    Forward,
    /// Answered by the front end itself (a JSON-RPC error).
    Reply(Value),
    /// Dropped without a reply (a notification or response that is broken).
    Drop,
}

/// A JSON-RPC error reply.
pub(crate) fn error_reply(id: Value, code: i64, message: String, data: Option<Value>) -> Value {
    let mut error = json!({ "code": code, "message": message });
    if let (Some(d), Some(obj)) = (data, error.as_object_mut()) {
        obj.insert("data".into(), d);
    }
    json!({ "jsonrpc": "2.0", "id": id, "error": error })
}

/// The reply to a line over the size limit, with the request's id when its first bytes
/// (`head`) hold it.
pub(crate) fn too_long(bytes: u64, max: usize, head: &[u8]) -> Value {
    error_reply(
        super::head::request_id(head).unwrap_or(Value::Null),
        INVALID_REQUEST,
        format!("Invalid Request: the message is {bytes} bytes, over the limit of {max} bytes"),
        Some(json!({ "limit_bytes": max, "message_bytes": bytes })),
    )
}

const BOM: &[u8] = b"\xEF\xBB\xBF";

pub(crate) fn judge(line: &[u8]) -> Verdict {
    let line = line.strip_prefix(BOM).unwrap_or(line);
    if line.iter().all(u8::is_ascii_whitespace) {
        return Verdict::Drop;
    }
    let value: Value = match serde_json::from_slice(line) {
        Ok(v) => v,
        Err(e) => {
            let m = format!("Parse error: {e}");
            return Verdict::Reply(error_reply(Value::Null, PARSE_ERROR, m, None));
        }
    };
    let Value::Object(msg) = &value else {
        let m = "Invalid Request: a message is one JSON object (batches are not supported)";
        return Verdict::Reply(error_reply(Value::Null, INVALID_REQUEST, m.into(), None));
    };
    let id = msg.get("id");
    let reply_id = match id {
        Some(v @ (Value::String(_) | Value::Number(_))) => v.clone(),
        _ => Value::Null,
    };
    let invalid = |m: &str| {
        let m = format!("Invalid Request: {m}");
        Verdict::Reply(error_reply(reply_id.clone(), INVALID_REQUEST, m, None))
    };
    if msg.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return invalid("`jsonrpc` must be \"2.0\"");
    }
    if id.is_some() && reply_id.is_null() {
        return invalid("`id` must be a string or an integer");
    }
    let typed = serde_json::from_slice::<ClientJsonRpcMessage>(line);
    match (msg.get("method"), id) {
        (Some(Value::String(method)), Some(_)) => match typed {
            Err(e) => {
                let m = format!("Invalid params for {method}: {e}");
                Verdict::Reply(error_reply(reply_id, INVALID_PARAMS, m, None))
            }
            Ok(_) if method == "tools/call" => tool_call_shape(msg)
                .map(|(m, data)| Verdict::Reply(error_reply(reply_id, INVALID_PARAMS, m, data)))
                .unwrap_or(Verdict::Forward),
            Ok(_) => Verdict::Forward,
        },
        (Some(Value::String(_)), None) => match typed {
            Ok(_) => Verdict::Forward,
            Err(e) => {
                tracing::debug!("dropping a malformed notification: {e}");
                Verdict::Drop
            }
        },
        (Some(_), _) => invalid("`method` must be a string"),
        (None, Some(_)) if msg.contains_key("result") || msg.contains_key("error") => match typed {
            Ok(_) => Verdict::Forward,
            Err(e) => {
                tracing::debug!("dropping a malformed response: {e}");
                Verdict::Drop
            }
        },
        (None, _) => invalid("neither a request, a notification nor a response"),
    }
}

/// For a `tools/call`: why its params are malformed (`name` not a string, `arguments` not an
/// object), if they are.
fn tool_call_shape(msg: &serde_json::Map<String, Value>) -> Option<(String, Option<Value>)> {
    let params = msg.get("params");
    let Some(name) = params.and_then(|p| p.get("name")?.as_str()) else {
        let m = "Invalid params for tools/call: `name` (the tool) must be a string";
        return Some((m.to_string(), Some(json!({ "field": "name" }))));
    };
    match params?.get("arguments") {
        None | Some(Value::Null | Value::Object(_)) => None,
        Some(_) => {
            let m = format!("Invalid params for {name}: `arguments` must be an object");
            Some((m, Some(json!({ "tool": name, "field": "arguments" }))))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reply(line: &str) -> Value {
        match judge(line.as_bytes()) {
            Verdict::Reply(v) => v,
            other => panic!("expected a reply to {line}, got {other:?}"),
        }
    }

    #[test]
    fn replies_carry_the_right_code_and_id() {
        let cases = [
            ("{not json", PARSE_ERROR, Value::Null),
            ("[1,2]", INVALID_REQUEST, Value::Null),
            (
                r#"{"jsonrpc":"1.0","id":7,"method":"ping"}"#,
                INVALID_REQUEST,
                json!(7),
            ),
            (
                r#"{"jsonrpc":"2.0","id":"a","method":3}"#,
                INVALID_REQUEST,
                json!("a"),
            ),
            (
                r#"{"jsonrpc":"2.0","id":{"x":1},"method":"ping"}"#,
                INVALID_REQUEST,
                Value::Null,
            ),
            (r#"{"jsonrpc":"2.0","id":9}"#, INVALID_REQUEST, json!(9)),
            (
                r#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"gemini_fetch","arguments":[]}}"#,
                INVALID_PARAMS,
                json!(5),
            ),
            (
                r#"{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"arguments":{}}}"#,
                INVALID_PARAMS,
                json!(6),
            ),
        ];
        for (line, code, id) in cases {
            let r = reply(line);
            assert_eq!(r["error"]["code"], code, "{line}: {r}");
            assert_eq!(r["id"], id, "{line}: {r}");
        }
    }

    #[test]
    fn good_messages_pass_and_broken_notifications_drop() {
        for line in [
            r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#,
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"gemini_fetch","arguments":{"url":"gemini://a/"}}}"#,
            r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"gemini_fetch","arguments":{"url":5}}}"#,
            r#"{"jsonrpc":"2.0","id":"s1","result":{}}"#,
        ] {
            assert_eq!(judge(line.as_bytes()), Verdict::Forward, "{line}");
        }
        assert_eq!(judge(b"   "), Verdict::Drop);
        assert_eq!(
            judge(br#"{"jsonrpc":"2.0","method":"notifications/progress","params":7}"#),
            Verdict::Drop
        );
    }
}
