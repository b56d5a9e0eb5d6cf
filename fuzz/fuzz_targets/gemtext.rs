//! A Gemini 2x body as the client turns it into a page: the first input line is the header's
//! meta (MIME type, charset, lang), the rest the body bytes. The page is decoded and its
//! gemtext parsed both ways the faces read it (the whole document, and streamed views).
#![no_main]
use libfuzzer_sys::fuzz_target;
use smolweb_core::page::{Content, Page};
use smolweb_core::response::parse_mime;
use smolweb_core::url::Url;
use smolweb_fuzz::{split_line, text};
use std::sync::LazyLock;

static BASE: LazyLock<Url> =
    LazyLock::new(|| Url::parse("gemini://fuzz.example/dir/page.gmi").unwrap());

fuzz_target!(|data: &[u8]| {
    let (meta, body) = split_line(data);
    let page = Page::from_gemini(BASE.clone(), parse_mime(&text(meta)), body.to_vec());
    let Content::Gemtext(doc) = &page.content else {
        return;
    };
    let views: Vec<_> = doc.views().collect();
    assert_eq!(views.len(), doc.lines.len());
    for (view, line) in views.iter().zip(&doc.lines) {
        assert_eq!(view.kind, line.kind);
        assert_eq!(view.content, line.content);
        assert!(!line.content.contains('\n'));
    }
    assert_eq!(page.title(), doc.title());
    for link in doc.links() {
        let _ = link.url.len();
    }
});
