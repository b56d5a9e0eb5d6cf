//! A Gopher answer as the client turns it into a page: the first byte is the item type that
//! was asked for, the rest the bytes the server sent. Menus (1, 7) are decoded and parsed
//! (both the streamed items and the whole list); text items are decoded and un-dotted (the
//! final "." line cut, dot-stuffing undone); binaries sniffed.
#![no_main]
use libfuzzer_sys::fuzz_target;
use smolweb_core::charset::{Origin, decode};
use smolweb_core::gopher;
use smolweb_core::page::{Content, Page};
use smolweb_core::url::Url;
use smolweb_fuzz::split_byte;
use std::sync::LazyLock;

static BASE: LazyLock<Url> = LazyLock::new(|| Url::parse("gopher://fuzz.example/1/dir").unwrap());

fuzz_target!(|data: &[u8]| {
    let (item_type, raw) = split_byte(data);
    let item_type = char::from(item_type);
    let page = Page::from_gopher(BASE.clone(), item_type, raw.to_vec());
    match &page.content {
        Content::Menu(menu) => {
            let streamed: Vec<_> = menu.stream().collect();
            assert_eq!(&streamed, &**menu);
            for item in menu.iter() {
                assert!(!item.title.contains('\n') && !item.selector.contains('\n'));
                if item.invalid_port {
                    assert!(item.next_url.is_empty());
                }
                let _ = (
                    gopher::type_name(item.item_type),
                    gopher::is_fetchable(item.item_type),
                );
            }
        }
        Content::Text => {
            // Un-dotting only ever removes bytes.
            assert!(page.body.text().len() <= decode(raw, None, Origin::Gopher).text.len());
        }
        Content::Gemtext(_) | Content::Binary => {}
    }
});
