//! Charset detection and decoding of remote bodies: the first input line is a declared
//! charset label (a Content-Type or Gemini `charset` parameter), the rest the body. Both
//! decoders are run: the Gemini/Gopher one (`core::gopher`, which never drops a byte) and
//! the web one (`core::html::charset`, WHATWG labels, BOM, `<meta>`, a guess).
#![no_main]
use libfuzzer_sys::fuzz_target;
use smolweb::core::gopher::{self, Charset};
use smolweb::core::html::charset;
use smolweb_fuzz::{split_line, text};

fuzz_target!(|data: &[u8]| {
    let (label, body) = split_line(data);
    let label = text(label);
    for (decoded, cs) in [gopher::decode(body), gopher::decode_as(body, &label)] {
        // Latin-1 and CP437 map every byte to exactly one char.
        if cs != Charset::Utf8 {
            assert_eq!(
                decoded.chars().count(),
                body.len(),
                "{cs:?} lost or added chars"
            );
        }
    }
    for html in [false, true] {
        let d = charset::decode(body, Some(&label), html);
        assert!(!d.encoding.is_empty());
        let _ = charset::decode(body, None, html);
    }
});
