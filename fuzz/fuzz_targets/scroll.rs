//! A Scroll answer as a fetch reads it from the wire (`net::scroll`: the Gemini header, on
//! success the three metadata lines, each bounded, then the body within the cap), then the
//! page with its document metadata.
#![no_main]
use libfuzzer_sys::fuzz_target;
use smolweb_core::page::Page;
use smolweb_core::response::{StatusClass, parse_mime};
use smolweb_core::url::Url;
use smolweb_fuzz::ready;
use std::sync::LazyLock;

static BASE: LazyLock<Url> = LazyLock::new(|| Url::parse("scroll://fuzz.example/a").unwrap());
const MAX_BODY: u64 = 64 * 1024;

fuzz_target!(|data: &[u8]| {
    let mut wire = data;
    let Ok((header, meta, body, _ending)) =
        ready(smolweb_net::fuzzing::scroll_answer(&mut wire, MAX_BODY))
    else {
        return;
    };
    assert!((10..=69).contains(&header.status), "{}", header.status);
    let success = header.class() == StatusClass::Success;
    assert_eq!(meta.is_some(), success);
    assert!(success || body.is_empty());
    assert!(body.len() as u64 <= MAX_BODY);
    if let Some(m) = &meta {
        for line in [&m.author, &m.published, &m.modified].into_iter().flatten() {
            assert!(!line.contains('\n') && line.len() <= 1024 * 3, "{line:?}");
            assert_eq!(line.trim(), line);
        }
    }
    let page = Page::from_gemini(BASE.clone(), parse_mime(&header.meta), body)
        .with_document_meta(meta);
    let _ = page.body.text().len();
});
