//! The files smolweb reads from its data, cache and config directories: byte 0 chooses the
//! file (known_hosts.toml, an identity's metadata, approvals.toml, bookmarks.gmi,
//! history.toml, subscriptions.toml, the offline index.toml, an offline page file, and
//! config.toml), the rest is its content. A store file the store accepts must write back to
//! a file that reads back the same (`store::fuzzing::round_trip`).
#![no_main]
use libfuzzer_sys::fuzz_target;
use smolweb_client::config::Config;
use smolweb_fuzz::split_byte;
use smolweb_store::fuzzing::{FILES, RoundTrip, round_trip};

fuzz_target!(|data: &[u8]| {
    let (which, bytes) = split_byte(data);
    let which = usize::from(which) % (FILES.len() + 1);
    let Some(&file) = FILES.get(which) else {
        if let Ok(text) = std::str::from_utf8(bytes) {
            let _ = Config::from_toml(text);
        }
        return;
    };
    if let RoundTrip::Unstable { first, second } = round_trip(file, bytes) {
        panic!("{file:?} does not read back what it wrote:\n{first}\n---\n{second}");
    }
});
