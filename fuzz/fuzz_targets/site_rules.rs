//! A site rule as the person writes it (or as a hand-edited `site_rules.toml` spoils it) over
//! a web page: line 1 is the content selector, line 2 the selectors to remove (split at `;`),
//! the rest the HTML. The page's regions are listed, and the page is converted under the
//! rule for the main text and for the whole page. Nothing may panic or hang; a rule that
//! `check`s keeps only text of the page; each region's selector parses and keeps text.
#![no_main]
use libfuzzer_sys::fuzz_target;
use smolweb_core::html::{Extract, RuleUse, SiteRule, convert_html_with, regions};
use smolweb_fuzz::{split_line, text};

const PAGE: &str = "https://fuzz.example/t/1";

fuzz_target!(|data: &[u8]| {
    let (content, rest) = split_line(data);
    let (remove, html) = split_line(rest);
    let html = text(html);
    let rule = SiteRule {
        content: text(content),
        remove: text(remove)
            .split(';')
            .filter(|s| !s.trim().is_empty())
            .map(str::to_string)
            .collect(),
    };
    let ruled = convert_html_with(&html, PAGE, Extract::Main, Some(&rule));
    if rule.check().is_err() {
        assert_ne!(ruled.rule, Some(RuleUse::Applied), "a bad rule was applied");
    }
    let full = convert_html_with(&html, PAGE, Extract::Full, Some(&rule));
    assert_eq!(full.rule, None, "the whole page ignores rules");
    for r in regions(&html, PAGE).iter().take(3) {
        let c = convert_html_with(&html, PAGE, Extract::Main, Some(&SiteRule::content(&r.selector)));
        assert_eq!(c.rule, Some(RuleUse::Applied), "region {} keeps no text", r.selector);
    }
});
