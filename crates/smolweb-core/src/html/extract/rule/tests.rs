use crate::html::{
    Extract, Extraction, RuleError, RuleUse, SiteRule, convert_html, convert_html_with, regions,
};

/// A forum thread the main-text search reads as its first post only would be a poor test:
/// this page's posts sit beside a long "about the forum" box that wins without a rule.
fn thread() -> String {
    let post = |n: u32| {
        format!(
            "<div class=\"post\"><p class=\"who\">user{n}</p><p>Post number {n} says that moss \
             keeps water between its leaves, and that tardigrades live there for years.</p>\
             <div class=\"share\">Share this post</div></div>"
        )
    };
    let posts: String = (1..=4).map(post).collect();
    let about = "<p>About the forum: this board has talked about small animals since the \
                 early days of the web, with long threads on every kind of water bear, their \
                 habits, their homes and the people who study them in labs and in gardens. \
                 Members write in many languages and the moderators keep the peace. </p>"
        .repeat(4);
    format!(
        "<html><head><title>Moss thread</title></head><body><nav><a href=\"/\">Home</a></nav>\
         <div id=\"thread\">{posts}</div><aside class=\"about\">{about}</aside>\
         <footer>(c) forum</footer></body></html>"
    )
}

#[test]
fn a_rule_keeps_every_element_it_selects_and_removes_what_it_names() {
    let rule = SiteRule {
        content: "div.post".into(),
        remove: vec![".share".into()],
    };
    let c = convert_html_with(
        &thread(),
        "https://f.example/t/1",
        Extract::Main,
        Some(&rule),
    );
    assert_eq!(c.rule, Some(RuleUse::Applied));
    assert_eq!(c.extraction, Extraction::Main);
    for n in 1..=4 {
        assert!(
            c.markdown.contains(&format!("Post number {n}")),
            "{}",
            c.markdown
        );
    }
    assert!(!c.markdown.contains("Share this post"), "{}", c.markdown);
    assert!(!c.markdown.contains("About the forum"), "{}", c.markdown);
    assert!(!c.markdown.contains("(c) forum"), "{}", c.markdown);
    assert_eq!(
        c.reading().short(),
        format!("{} · site rule", c.page_type.as_str())
    );
}

#[test]
fn a_rule_that_matches_nothing_falls_back_and_says_so() {
    let rule = SiteRule::content("div.gone-in-the-redesign");
    let with = convert_html_with(
        &thread(),
        "https://f.example/t/1",
        Extract::Main,
        Some(&rule),
    );
    let without = convert_html(&thread(), "https://f.example/t/1", Extract::Main);
    assert_eq!(with.rule, Some(RuleUse::Unmatched));
    assert_eq!(with.markdown, without.markdown);
    assert!(with.reading().short().ends_with("site rule unmatched"));
    // An element that matches but holds no text is no match either.
    let html = thread().replace("<footer>", "<div class=\"empty\"> </div><footer>");
    let c = convert_html_with(
        &html,
        "https://f.example/t/1",
        Extract::Main,
        Some(&SiteRule::content("div.empty")),
    );
    assert_eq!(c.rule, Some(RuleUse::Unmatched));
}

#[test]
fn the_whole_page_ignores_the_rule() {
    let rule = SiteRule::content("div.post");
    let c = convert_html_with(
        &thread(),
        "https://f.example/t/1",
        Extract::Full,
        Some(&rule),
    );
    assert_eq!(c.rule, None);
    assert!(c.markdown.contains("About the forum"));
}

#[test]
fn bad_selectors_are_refused_by_check_and_never_panic_in_use() {
    for bad in ["div[", "::nope(", "", "a >> b"] {
        let rule = SiteRule::content(bad);
        assert!(rule.check().is_err(), "{bad:?} passed");
        // Used anyway (a hand-edited file): the normal extraction, no panic.
        let c = convert_html_with(&thread(), "https://f.example/", Extract::Main, Some(&rule));
        assert_eq!(c.rule, Some(RuleUse::Unmatched), "{bad:?}");
    }
    let long = SiteRule::content(&"div ".repeat(200));
    assert_eq!(long.check(), Err(RuleError::TooLong));
    let many = SiteRule {
        content: "main".into(),
        remove: vec!["p".into(); 40],
    };
    assert_eq!(many.check(), Err(RuleError::TooManyRemovals));
    assert_eq!(SiteRule::content("#thread > div.post").check(), Ok(()));
    // One bad selector to remove spoils the whole rule: not half applied.
    let half = SiteRule {
        content: "div.post".into(),
        remove: vec![".share".into(), "div[".into()],
    };
    let c = convert_html_with(&thread(), "https://f.example/", Extract::Main, Some(&half));
    assert_eq!(c.rule, Some(RuleUse::Unmatched));
}

#[test]
fn regions_offer_the_named_blocks_with_the_most_text_first() {
    let found = regions(&thread(), "https://f.example/t/1");
    let selectors: Vec<&str> = found.iter().map(|r| r.selector.as_str()).collect();
    assert!(selectors.contains(&"div#thread"), "{selectors:?}");
    assert!(selectors.contains(&"aside.about"), "{selectors:?}");
    // The about box has more text than the posts: it comes first, and says how it starts.
    assert_eq!(found[0].selector, "aside.about");
    assert!(found[0].preview.starts_with("About the forum"));
    assert!(found.iter().all(|r| r.chars >= 200 && r.matches >= 1));
    // Each region's selector, used as a rule, keeps that region's text.
    let thread_region = found.iter().find(|r| r.selector == "div#thread").unwrap();
    let c = convert_html_with(
        &thread(),
        "https://f.example/t/1",
        Extract::Main,
        Some(&SiteRule::content(&thread_region.selector)),
    );
    assert!(c.markdown.contains("Post number 4"));
}

#[test]
fn generated_names_are_not_offered_as_selectors() {
    let text = "Words that make a region long enough to be offered to the person. ".repeat(8);
    let html = format!(
        "<html><body><div class=\"css-1x2y345 jsx-20231207\"><p>{text}</p></div>\
         <section id=\"story\"><p>{text}</p></section></body></html>"
    );
    let found = regions(&html, "https://g.example/");
    let selectors: Vec<&str> = found.iter().map(|r| r.selector.as_str()).collect();
    assert_eq!(selectors, vec!["section#story"], "{selectors:?}");
}

#[test]
fn regions_of_a_deep_page_are_found_without_recursion() {
    let depth = 2_000;
    let mut html = String::from("<html><body>");
    for i in 0..depth {
        html.push_str(&format!("<div class=\"d{}\">", i % 10));
    }
    html.push_str(&"Deep text that is long enough to count. ".repeat(10));
    for _ in 0..depth {
        html.push_str("</div>");
    }
    html.push_str("</body></html>");
    let found = regions(&html, "https://d.example/");
    assert!(!found.is_empty());
    let rule = SiteRule::content(&found[0].selector);
    let c = convert_html_with(&html, "https://d.example/", Extract::Main, Some(&rule));
    assert_eq!(c.rule, Some(RuleUse::Applied));
}
