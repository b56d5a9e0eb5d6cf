//! The data files the agents' side adds: byte 0 chooses the file (shared_pages.toml,
//! suggestions.toml, browsers.toml, sync_queue.toml, upload_allowances.toml), the rest is its
//! content. A file the store accepts must write back to a file that reads back the same
//! (`store::fuzzing::round_trip`).
#![no_main]
use libfuzzer_sys::fuzz_target;
use smolweb_fuzz::split_byte;
use smolweb_store::fuzzing::{AGENT_FILES, RoundTrip, round_trip};

fuzz_target!(|data: &[u8]| {
    let (which, bytes) = split_byte(data);
    let file = AGENT_FILES[usize::from(which) % AGENT_FILES.len()];
    if let RoundTrip::Unstable { first, second } = round_trip(file, bytes) {
        panic!("{file:?} does not read back what it wrote:\n{first}\n---\n{second}");
    }
});
