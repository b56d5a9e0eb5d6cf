//! Guppy datagrams (split on 0xFF bytes, which no packet line holds) through the reassembly a
//! fetch uses: never a panic, a document never larger than the body limit, and the same
//! datagrams read twice give the same answer (duplicates change nothing).
#![no_main]
use libfuzzer_sys::fuzz_target;
use smolweb_net::GuppyResponse;
use smolweb_net::fuzzing::guppy_datagrams;

const MAX_BODY: u64 = 4096;

fuzz_target!(|data: &[u8]| {
    let datagrams: Vec<&[u8]> = data.split(|&b| b == 0xff).collect();
    let once = guppy_datagrams(&datagrams, MAX_BODY);
    if let Ok(Some(GuppyResponse::Document { body, .. })) = &once {
        assert!(body.len() as u64 <= MAX_BODY);
    }
    let twice: Vec<&[u8]> = datagrams.iter().flat_map(|d| [*d, *d]).collect();
    let again = guppy_datagrams(&twice, MAX_BODY);
    if let (Ok(a), Ok(b)) = (&once, &again) {
        assert_eq!(a, b, "duplicates changed the answer");
    }
});
