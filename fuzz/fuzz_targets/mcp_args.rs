//! The MCP argument checks: the input is a JSON value used as the `arguments` of a
//! `tools/call` of every tool smolweb publishes, judged by the stdio front end against the
//! tool's input schema. Checked: a refusal is a `-32602` naming a field, with the call's id.
#![no_main]
use libfuzzer_sys::fuzz_target;
use serde_json::{Value, json};
use smolweb::mcp::fuzzing::Verdict;
use smolweb_fuzz::mcp::FRONT_END;

fuzz_target!(|data: &[u8]| {
    let Ok(arguments) = serde_json::from_slice::<Value>(data) else {
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
        match FRONT_END.judge(&line) {
            Verdict::Forward => {}
            Verdict::Reply(reply) => {
                assert_eq!(reply["id"], 7, "{reply}");
                assert_eq!(reply["error"]["code"], -32602, "{reply}");
                assert!(reply["error"]["data"]["field"].is_string(), "{reply}");
            }
            Verdict::Drop => panic!("a tools/call request was dropped without a reply"),
        }
    }
});
