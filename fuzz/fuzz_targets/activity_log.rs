//! The agents' activity log (`agent_activity.jsonl`) as the browser and `smolweb agents log`
//! read it: whole lines only, each an entry or skipped; and each entry as a writer would
//! write it: sanitized once for good, read back from its JSON as itself, described on one
//! line without control characters (`store::fuzzing::activity_log` checks and panics).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = smolweb_store::fuzzing::activity_log(data);
});
