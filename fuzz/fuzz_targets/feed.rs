//! A fetched page read as a feed (`client::feeds::feed_of_page`, the one dispatch every face
//! uses): the first byte chooses where the page came from (0: a Gemini gemtext page, the
//! gemlog convention; 1: a Gopher menu, a phlog; 2: an https feed document, Atom / RSS / JSON
//! Feed; 3: an https HTML page, feed discovery), the rest is the body.
#![no_main]
use libfuzzer_sys::fuzz_target;
use smolweb_client::feeds::feed_of_page;
use smolweb_core::feed::MAX_TITLE_CHARS;
use smolweb_core::page::{Page, mime_of};
use smolweb_core::url::Url;
use smolweb_fuzz::split_byte;

fn url(s: &str) -> Url {
    Url::parse(s).unwrap()
}

fuzz_target!(|data: &[u8]| {
    let (source, body) = split_byte(data);
    let body = body.to_vec();
    let page = match source % 4 {
        0 => Page::from_gemini(
            url("gemini://fuzz.example/gemlog/"),
            mime_of("text/gemini"),
            body,
        ),
        1 => Page::from_gopher(url("gopher://fuzz.example/1/phlog"), '1', body),
        2 => Page::from_gemini(
            url("https://fuzz.example/feed.xml"),
            mime_of("application/xml"),
            body,
        ),
        _ => Page::from_gemini(
            url("https://fuzz.example/blog/"),
            mime_of("text/html"),
            body,
        ),
    };
    let Ok(feed) = feed_of_page(&page) else {
        return;
    };
    for title in feed
        .title
        .iter()
        .chain(feed.entries.iter().map(|e| &e.title))
    {
        assert!(
            title.chars().count() <= MAX_TITLE_CHARS,
            "a title of {} chars",
            title.chars().count()
        );
        assert!(!title.contains(['\n', '\r']), "{title:?}");
    }
    for e in &feed.entries {
        assert!(!e.url.is_empty());
    }
});
