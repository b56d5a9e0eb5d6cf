//! A Spartan answer as a fetch reads it from the wire (`net::spartan`: the bounded status
//! line, then the body of a status 2 within the cap), then as the client maps it: status 2 a
//! page by its MIME type (gemtext with its `=:` prompt lines), status 3 a path on the same
//! host (the rule of `client::smallnet`'s `spartan_redirect`: a path starting with one `/`).
#![no_main]
use libfuzzer_sys::fuzz_target;
use smolweb_core::gemtext::spartan_prompt;
use smolweb_core::page::{Content, Page};
use smolweb_core::response::parse_mime;
use smolweb_core::url::Url;
use smolweb_fuzz::ready;
use std::sync::LazyLock;

static BASE: LazyLock<Url> =
    LazyLock::new(|| Url::parse("spartan://fuzz.example/dir/page.gmi").unwrap());
const MAX_BODY: u64 = 64 * 1024;

fuzz_target!(|data: &[u8]| {
    let mut wire = data;
    let Ok(answer) = ready(smolweb_net::fuzzing::spartan_answer(&mut wire, MAX_BODY)) else {
        return;
    };
    assert!((2..=5).contains(&answer.status), "{}", answer.status);
    assert!(!answer.meta.contains(['\r', '\n']));
    assert!(answer.meta.len() <= 1029);
    assert!(answer.status == 2 || answer.body.is_empty());
    assert!(answer.body.len() as u64 <= MAX_BODY);
    match answer.status {
        2 => {
            let page = Page::from_gemini(BASE.clone(), parse_mime(&answer.meta), answer.body);
            if let Content::Gemtext(doc) = &page.content {
                for line in &doc.lines {
                    if let Some((target, label)) = spartan_prompt(&line.content) {
                        assert!(!target.is_empty() && !target.contains(char::is_whitespace));
                        assert_eq!(label.trim(), label);
                        let _ = BASE.resolve(target);
                    }
                }
                for link in doc.links() {
                    let _ = link.destination();
                }
            }
        }
        3 => {
            let meta = answer.meta.trim();
            if meta.starts_with('/')
                && !meta.starts_with("//")
                && let Some(target) = BASE.resolve(meta).ok().and_then(|t| Url::parse(&t).ok())
            {
                assert_eq!(target.host(), BASE.host(), "{meta:?} left the host");
                assert_eq!(target.port(), BASE.port(), "{meta:?} left the port");
                assert_eq!(target.scheme(), BASE.scheme(), "{meta:?} left spartan");
            }
        }
        _ => {}
    }
});
