//! URLs of every scheme through `core::url` (and the feed-side resolver that also takes
//! https bases): the first input line is a URL, host or address-bar text; the rest is a
//! reference to resolve against it. Checks the documented invariants: a parsed URL prints
//! in normalized form and parses back to itself, and a resolved gemini/gopher reference is
//! what `Url::parse` makes of it.
#![no_main]
use libfuzzer_sys::fuzz_target;
use smolweb_core::feed;
use smolweb_core::url::{
    GEMINI_MAX_URL_BYTES, Scheme, Url, gopher_item_url, host_and_port, normalize_host,
    parse_user_input, percent_encode, strip_query,
};
use smolweb_fuzz::{split_line, text};

fn check_normalized(u: &Url) {
    let shown = u.to_string();
    assert_eq!(
        Url::parse(&shown).as_ref(),
        Ok(u),
        "{shown} does not parse back to itself"
    );
    assert!(
        u.path().starts_with('/') || u.scheme() == Scheme::About,
        "{shown}"
    );
    assert_eq!(u.host(), u.host().to_ascii_lowercase(), "{shown}");
}

fuzz_target!(|data: &[u8]| {
    let (first, rest) = split_line(data);
    let (input, reference) = (text(first), text(rest));
    let _ = strip_query(&input);
    let _ = percent_encode(&input);
    if let Ok(h) = normalize_host(&input) {
        assert_eq!(
            normalize_host(&h).as_ref(),
            Ok(&h),
            "host {h} is not normalized"
        );
    }
    let _ = host_and_port(&input, 1965);
    let _ = feed::subscription_url(&input);
    let _ = feed::resolve(&input, &reference);
    for parsed in [Url::parse(&input), parse_user_input(&input)] {
        let Ok(u) = parsed else { continue };
        check_normalized(&u);
        if let Ok(line) = u.gemini_request() {
            assert!(line.len() <= GEMINI_MAX_URL_BYTES);
        }
        if let Ok(t) = u.gopher_target() {
            let again = gopher_item_url(&t.host, t.port, t.item_type, &t.selector);
            let _ = Url::parse(&again);
        }
        for other in [u.parent(), Some(u.root()), Some(u.with_input(&reference))]
            .into_iter()
            .flatten()
        {
            check_normalized(&other);
        }
        if let Ok(resolved) = u.resolve(&reference)
            && let Ok(r) = Url::parse(&resolved)
            && matches!(r.scheme(), Scheme::Gemini | Scheme::Gopher)
        {
            assert_eq!(
                r.to_string(),
                resolved,
                "resolve({reference:?}) against {u}"
            );
        }
    }
});
