//! A Finger exchange: the first line of the input is the query (the URL's path, which a link
//! may choose), the rest the text the server sent until close. The request line
//! (`net::finger`) ends with its one CRLF; the answer is plain text, decoded.
#![no_main]
use libfuzzer_sys::fuzz_target;
use smolweb_core::page::{Page, mime_of};
use smolweb_core::url::Url;
use smolweb_fuzz::{split_line, text};

fuzz_target!(|data: &[u8]| {
    let (query, body) = split_line(data);
    let query = text(query);
    if let Ok(line) = smolweb_net::fuzzing::finger_request_line(&query) {
        assert_eq!(line.matches('\n').count(), 1);
        assert!(line.ends_with("\r\n") && line.matches('\r').count() == 1);
    }
    let url = Url::parse(&format!("finger://fuzz.example/{query}"))
        .unwrap_or_else(|_| Url::parse("finger://fuzz.example/").unwrap());
    let page = Page::from_gemini(url, mime_of("text/plain"), body.to_vec());
    assert!(!page.body.text().contains('\0') || body.contains(&0));
});
