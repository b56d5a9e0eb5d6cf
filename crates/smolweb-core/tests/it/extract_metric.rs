//! The extraction bench's metric and data (smolweb-core's benches/extract): the scorer counts
//! what it should, and every page of the manifest loads with a non-empty expected text.

#[path = "../../benches/support/extract_bench.rs"]
mod extract_bench;

use extract_bench::{markdown_text, score, tokens};

#[test]
fn identical_texts_score_one_and_disjoint_zero() {
    let a = "the tides at Vell run late because the bay is long";
    assert!((score(a, a).f1 - 1.0).abs() < 1e-9);
    assert_eq!(
        score(a, "nothing in common with that sentence here").f1,
        0.0
    );
}

#[test]
fn extra_text_costs_precision_not_recall() {
    let exp = "one two three four five six";
    let s = score("one two three four five six seven eight nine", exp);
    assert!((s.r - 1.0).abs() < 1e-9);
    assert!((s.p - 0.5).abs() < 1e-9, "{s:?}");
}

#[test]
fn repeated_text_is_paid_for() {
    let exp = "one two three four five six";
    let s = score(&format!("{exp} {exp}"), exp);
    assert!(s.p < 0.6, "{s:?}");
}

#[test]
fn markdown_links_and_images_are_not_words() {
    let t = markdown_text("See [the notes](https://example.org/n) ![a bay](https://x/b.jpg)");
    assert_eq!(tokens(&t), ["See", "the", "notes"]);
}

#[test]
fn every_bench_page_loads() {
    let pages = extract_bench::load();
    assert!(pages.len() > 250, "{}", pages.len());
    for p in &pages {
        assert!(!p.html.is_empty(), "{} {}", p.source, p.id);
        // Reference outputs of the small unit pages can be a few words; hand-made ones are not.
        let min = if p.expected_path_is_text { 20 } else { 1 };
        assert!(
            tokens(&p.expected).len() >= min,
            "{} {}: expected text too short",
            p.source,
            p.id
        );
    }
    let articles = pages
        .iter()
        .filter(|p| p.source == "trafilatura" && p.is_article())
        .count();
    assert!(articles >= 60, "{articles}");
}
