//! The files following pages, the tour and site rules add to the data directory: byte 0
//! chooses the file (a followed page's kept copy in `follows/`, with its text, memory and
//! last changes; `tour.toml`; `site_rules.toml`), the rest is its content. A file the store accepts must write back to a file
//! that reads back the same (`store::fuzzing::round_trip`).
#![no_main]
use libfuzzer_sys::fuzz_target;
use smolweb_fuzz::split_byte;
use smolweb_store::fuzzing::{FOLLOW_TOUR_FILES, RoundTrip, round_trip};

fuzz_target!(|data: &[u8]| {
    let (which, bytes) = split_byte(data);
    let file = FOLLOW_TOUR_FILES[usize::from(which) % FOLLOW_TOUR_FILES.len()];
    if let RoundTrip::Unstable { first, second } = round_trip(file, bytes) {
        panic!("{file:?} does not read back what it wrote:\n{first}\n---\n{second}");
    }
});
