//! A web page through the conversion both faces use: the first byte chooses the extraction
//! (even: main, odd: full), the rest is the HTML (already decoded; lossy UTF-8). The markdown
//! is then turned into the reader's gemtext, and the page's feed announcements are read.
//! Run with `-max_len=200000` (fuzz/run.sh does).
#![no_main]
use libfuzzer_sys::fuzz_target;
use smolweb::client::web::reader_gemtext;
use smolweb::core::feed::discover;
use smolweb::core::html::{Extract, convert_html};
use smolweb_fuzz::{split_byte, text};

const PAGE: &str = "https://fuzz.example/dir/page.html";

fuzz_target!(|data: &[u8]| {
    let (mode, html) = split_byte(data);
    let extract = if mode % 2 == 0 {
        Extract::Main
    } else {
        Extract::Full
    };
    let html = text(html);
    let converted = convert_html(&html, PAGE, extract);
    let _ = reader_gemtext(&converted.markdown, converted.meta.title.as_deref());
    let _ = discover::alternates(&html, PAGE);
});
