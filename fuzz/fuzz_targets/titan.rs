//! A Titan upload: the input's first line is the titan:// URL, the second the MIME type, the
//! third the token (none when empty), the next two bytes the size, the rest the capsule's
//! answer. The request line (`net::titan`) is one line within the URL limit that carries the
//! size and MIME type as given; the answer is a Gemini header read from the wire, a success
//! a page, a redirect resolved against the upload's gemini:// twin.
#![no_main]
use libfuzzer_sys::fuzz_target;
use smolweb_core::page::Page;
use smolweb_core::response::{StatusClass, parse_mime};
use smolweb_core::url::{Scheme, Url};
use smolweb_fuzz::{ready, split_line, text};
use smolweb_net::FetchError;

fuzz_target!(|data: &[u8]| {
    let (url, rest) = split_line(data);
    let (mime, rest) = split_line(rest);
    let (token, rest) = split_line(rest);
    let (size, answer) = match rest {
        [a, b, answer @ ..] => (usize::from(u16::from_le_bytes([*a, *b])), answer),
        _ => (0, &[][..]),
    };
    let Ok(url) = Url::parse(&text(url)) else { return };
    let (mime, token) = (text(mime), text(token));
    let token = (!token.is_empty()).then_some(token.as_str());
    if let Ok(line) = smolweb_net::fuzzing::titan_request_line(&url, size, &mime, token) {
        assert!(line.starts_with("titan://"), "{line}");
        assert!(!line.contains(|c: char| c.is_control() || c == ' '), "{line:?}");
        assert!(line.len() <= 1024);
        assert!(line.contains(&format!(";size={size};mime={mime}")));
    }
    let mut wire = answer;
    let read = ready(smolweb_net::fuzzing::read_header(&mut wire, |e| {
        FetchError::connection("fuzz.example", 1965, e)
    }));
    let Ok((header, body)) = read else { return };
    let twin = url.with_scheme(Scheme::Gemini);
    match header.class() {
        StatusClass::Success => {
            let page = Page::from_gemini(twin, parse_mime(&header.meta), body);
            let _ = page.body.text().len();
        }
        StatusClass::Redirect => {
            let _ = twin.resolve(&header.meta);
        }
        _ => {}
    }
});
