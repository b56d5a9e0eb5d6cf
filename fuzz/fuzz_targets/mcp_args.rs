//! The MCP argument checks: the input is a JSON value used as the `arguments` of a
//! `tools/call` of every tool smolweb publishes, checked as `mcp::call` checks it against the
//! tool's published input schema, and the whole call line judged by the stdio front end.
//! Checked: the front end forwards every well-formed `tools/call` (arguments are judged per
//! protocol generation later, never dropped or answered early), and a refusal's message names
//! the field it gives (its top-level property).
#![no_main]
use libfuzzer_sys::fuzz_target;
use serde_json::{Value, json};
use smolweb_fuzz::mcp::FRONT_END;
use smolweb_mcp::fuzzing::Verdict;

fuzz_target!(|data: &[u8]| {
    let Ok(Value::Object(arguments)) = serde_json::from_slice::<Value>(data) else {
        return;
    };
    for tool in FRONT_END.tools() {
        let call = json!({
            "jsonrpc": "2.0",
            "id": 7,
            "method": "tools/call",
            "params": { "name": tool, "arguments": arguments },
        });
        let line = serde_json::to_vec(&call).unwrap();
        assert_eq!(FRONT_END.judge(&line), Verdict::Forward, "{tool}");
        let Some(Err(m)) = FRONT_END.check(tool, &arguments) else {
            continue;
        };
        let top = m.field.split(['[', '.']).next().unwrap_or_default();
        assert!(
            m.message.contains(top),
            "{tool}: the message does not name {top}: {m:?}"
        );
    }
});
