//! The Gemini response header as `net::gemini` reads it from the wire (bounded incremental
//! read, strict parse), then the success meta as a MIME type.
#![no_main]
use libfuzzer_sys::fuzz_target;
use smolweb_core::response::{MAX_HEADER_BYTES, MAX_META_BYTES, parse_mime};
use smolweb_fuzz::ready;

fuzz_target!(|data: &[u8]| {
    let mut wire = data;
    let read = ready(smolweb_net::fuzzing::read_header(&mut wire, |e| {
        smolweb_net::FetchError::connection("fuzz.example", 1965, e)
    }));
    let Ok((header, rest)) = read else { return };
    assert!((10..=69).contains(&header.status), "{}", header.status);
    assert!(header.meta.len() <= MAX_META_BYTES);
    // What was read is the header line, then the start of the body handed back; what the
    // reader did not take is still in `wire`.
    let consumed = data.len() - wire.len();
    let header_len = consumed - rest.len();
    assert!(header_len <= MAX_HEADER_BYTES);
    assert_eq!(&data[header_len..consumed], rest.as_slice());
    let _ = header.class();
    let mime = parse_mime(&header.meta);
    let _ = (mime.essence(), mime.is_gemtext(), mime.is_text());
});
