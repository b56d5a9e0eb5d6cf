//! The MCP stdio front end: the bounded line reader over a byte stream, then the verdict on
//! each line (forward to rmcp, answer with a JSON-RPC error, or drop). Byte 0 sets the line
//! limit (1 + 16 * b0 bytes), byte 1 the read buffer (1 + b1 % 64 bytes, so lines arrive cut
//! as a pipe cuts them); the rest is what the client wrote. Checked: the reader splits
//! exactly as a plain split on LF would (a CR before the LF dropped, over-long lines refused,
//! counted and their first bytes kept, bounded), and every error reply is JSON-RPC 2.0 carrying the request's own id.
#![no_main]
use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use smolweb_fuzz::mcp::FRONT_END;
use smolweb_mcp::fuzzing::{Line, Verdict, lines};

fn expected(input: &[u8], max: usize) -> Vec<Result<&[u8], &[u8]>> {
    let mut segments: Vec<&[u8]> = input.split(|&b| b == b'\n').collect();
    if segments.last().is_some_and(|s| s.is_empty()) {
        segments.pop();
    }
    segments
        .into_iter()
        .map(|s| {
            let line = s.strip_suffix(b"\r").unwrap_or(s);
            if line.len() > max { Err(s) } else { Ok(line) }
        })
        .collect()
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 2 {
        return;
    }
    let max = 1 + 16 * usize::from(data[0]);
    let buffer = 1 + usize::from(data[1] % 64);
    let input = &data[2..];
    let read = lines(input, max, buffer).expect("reads over memory never wait");
    let (last, read) = read.split_last().expect("at least Eof");
    assert_eq!(*last, Line::Eof);
    let want = expected(input, max);
    assert_eq!(read.len(), want.len(), "{read:?}");
    for (got, want) in read.iter().zip(want) {
        match (got, want) {
            (Line::Message(m), Ok(w)) => {
                assert_eq!(m.as_slice(), w);
                judge(m);
            }
            (Line::TooLong { bytes, head }, Err(seg)) => {
                let bytes = *bytes as usize;
                assert!(
                    bytes > max && (bytes == seg.len() || bytes + 1 == seg.len()),
                    "{bytes} vs {}",
                    seg.len()
                );
                // The head kept for the reply's id is the line's first bytes, bounded.
                assert!(head.len() <= max.min(64 * 1024), "{}", head.len());
                assert!(seg.starts_with(head), "the head is not the line's start");
            }
            (got, want) => panic!("read {got:?}, expected {want:?}"),
        }
    }
});

fn judge(line: &[u8]) {
    let Verdict::Reply(reply) = FRONT_END.judge(line) else {
        return;
    };
    assert_eq!(reply["jsonrpc"], "2.0", "{reply}");
    let code = reply["error"]["code"].as_i64().unwrap_or_default();
    assert!([-32700, -32600, -32602].contains(&code), "{reply}");
    let bom = b"\xEF\xBB\xBF";
    let sent: Option<Value> = serde_json::from_slice(line.strip_prefix(bom).unwrap_or(line)).ok();
    if let Some(id @ (Value::String(_) | Value::Number(_))) =
        sent.as_ref().and_then(|m| m.get("id"))
    {
        assert_eq!(&reply["id"], id, "the reply lost the request's id: {reply}");
    }
}
