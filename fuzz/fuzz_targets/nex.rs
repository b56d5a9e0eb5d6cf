//! A Nex answer: the first line of the input is the path asked for (a link of a Nex
//! directory chooses it), the rest the bytes the server sent until close. The request line
//! (`net::nex`) holds one newline, at its end; the page takes its type from the path
//! (`client::smallnet::nex_mime`: a directory is gemtext, whose links resolve against it).
#![no_main]
use libfuzzer_sys::fuzz_target;
use smolweb_client::smallnet::nex_mime;
use smolweb_core::page::{Content, Page, mime_of};
use smolweb_core::url::Url;
use smolweb_fuzz::{split_line, text};

fuzz_target!(|data: &[u8]| {
    let (path, body) = split_line(data);
    let Ok(url) = Url::parse(&format!("nex://fuzz.example/{}", text(path))) else {
        return;
    };
    let sent = url.decoded_path();
    let sent = sent.strip_prefix('/').unwrap_or(&sent);
    if let Ok(line) = smolweb_net::fuzzing::nex_request_line(sent) {
        assert_eq!(line.matches('\n').count(), 1);
        assert!(line.ends_with('\n') && !line.contains(['\r', '\0']));
    }
    let page = Page::from_gemini(url.clone(), mime_of(nex_mime(&url.decoded_path())), body.to_vec());
    if let Content::Gemtext(doc) = &page.content {
        for link in doc.links() {
            let _ = link.destination();
        }
    }
});
