//! A web answer as the client builds its page (`smolweb_client::web::web_page`: the Content-Type
//! decides the path, the charset the decoding, HTML is converted), then the reader view the
//! person sees. Byte 0: bit 0 chooses the extraction (main / full), bit 1 the format
//! (markdown / raw), bit 2 keeps binaries (the person's face), bits 3-5 pick a Content-Type
//! from a table, and with bit 7 set the Content-Type is instead the first line of the rest.
//! The rest is the body as received. Run with `-max_len=200000` (fuzz/run.sh does).
#![no_main]
use libfuzzer_sys::fuzz_target;
use smolweb_client::web::{WebFetched, WebFormat, reader_page, web_page};
use smolweb_core::html::Extract;
use smolweb_core::url::Url;
use smolweb_fuzz::{split_byte, split_line, text};
use smolweb_net::http::HttpResponse;
use std::sync::Arc;
use time::OffsetDateTime;

const PAGE: &str = "https://fuzz.example/dir/page.html";
const TYPES: [Option<&str>; 8] = [
    Some("text/html"),
    Some("text/html; charset=iso-8859-1"),
    None,
    Some("application/xhtml+xml"),
    Some("text/plain; charset=utf-16"),
    Some("text/markdown"),
    Some("text/html; charset=\"shift_jis\""),
    Some("image/png"),
];

fuzz_target!(|data: &[u8]| {
    let (mode, rest) = split_byte(data);
    let (content_type, body) = if mode & 0x80 != 0 {
        let (line, body) = split_line(rest);
        (Some(text(line)), body)
    } else {
        (
            TYPES[usize::from((mode >> 3) & 7)].map(str::to_string),
            rest,
        )
    };
    let extract = if mode & 1 == 0 {
        Extract::Main
    } else {
        Extract::Full
    };
    let format = if mode & 2 == 0 {
        WebFormat::Markdown
    } else {
        WebFormat::Raw
    };
    let resp = HttpResponse {
        status: 200,
        final_url: PAGE.to_string(),
        content_type,
        retry_after: None,
        markdown_tokens: None,
        body: body.to_vec(),
        truncated: false,
        tls: None,
        redirects: Vec::new(),
        validators: Default::default(),
        moved_to: None,
    };
    let Ok(page) = web_page(
        resp,
        format,
        extract,
        OffsetDateTime::UNIX_EPOCH,
        mode & 4 != 0,
    ) else {
        return;
    };
    let fetched = WebFetched {
        page: Arc::new(page),
        from_cache: false,
    };
    let reader = reader_page(Url::parse(PAGE).unwrap(), &fetched);
    let _ = reader.title();
});
