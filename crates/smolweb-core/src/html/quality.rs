//! How much to trust an extraction (`extraction_quality`, 0 to 1).
//!
//! The figure estimates the word F1 of the text given against the text a person would call
//! the page's main content (the bag-of-words F1 that public extraction benchmarks report):
//! near 1, the main text is there and little else; under [`POOR`], the extraction is likely
//! poor (most of the content missed, or much of the site around it kept) and the whole page
//! (`extract=full`) is worth reading instead. It is a logistic function of what extraction
//! saw (how much of the page's text the result holds, how much pruning left, whether a block
//! of prose was found or the page's region stood in for it, links in the chosen region) and
//! of the [`PageType`], fitted once on a public development set of pages of seven types (see
//! `benches/extract/README.md` for how well it flags poor extractions there). For
//! `extract=full` it is 1: nothing was left out.

use super::extract::Signals;
use super::kind::PageType;

/// Under this figure an extraction is called poor.
pub const POOR: f32 = 0.5;

/// The figure for a main-text extraction (`fell_back`: the whole page was given instead).
pub(super) fn estimate(s: &Signals, page: PageType, fell_back: bool) -> f32 {
    let x = features(s, page, fell_back);
    let z: f64 = WEIGHTS.iter().zip(x.iter()).map(|(w, v)| w * v).sum();
    let q = 1.0 / (1.0 + (-z).exp());
    (q as f32).clamp(0.0, 1.0)
}

/// Number of features (the first is the constant 1).
pub(super) const FEATURES: usize = 15;

/// The weights of [`features`], fitted (logistic regression on the word F1, with a little
/// shrinkage) on the tuning three quarters of the development set.
const WEIGHTS: [f64; FEATURES] = [
    -0.5, 0.674, -0.608, 0.05, 0.676, 0.589, -0.331, 0.0, -0.508, -0.433, -0.704, -0.443, 1.553,
    -0.802, 0.348,
];
/// A result under this many visible characters (e^5.3 - 1) is "tiny".
const TINY_LOG_CHARS: f64 = 5.3;
/// A result holding more than this share of what pruning left is "all of it".
const ALL_OF_IT: f64 = 0.97;

/// The model's inputs: a constant, whether the whole page was given, whether the page's
/// region stood in for a block, the result's size (log of its characters), the share of what
/// pruning left that the result holds, the share of the page that pruning left, the share of
/// links in the chosen region, the declared body used, and the page type (article and
/// documentation are the reference), the share of the page's text the result holds, a tiny
/// result, and a result that is all of what pruning left.
pub(super) fn features(s: &Signals, page: PageType, fell_back: bool) -> [f64; FEATURES] {
    let ratio = |a: u32, b: u32| {
        if b == 0 {
            0.0
        } else {
            (f64::from(a) / f64::from(b)).min(1.0)
        }
    };
    let flag = |b: bool| if b { 1.0 } else { 0.0 };
    let size = f64::from(s.result_chars.saturating_add(1)).ln();
    let coverage = ratio(s.result_chars, s.pruned_chars);
    let kept = ratio(s.pruned_chars, s.page_chars);
    [
        1.0,
        flag(fell_back),
        flag(s.region_fallback),
        size,
        coverage,
        kept,
        ratio(s.chosen_link_chars, s.chosen_chars),
        flag(s.declared),
        flag(matches!(page, PageType::Collection | PageType::Listing)),
        flag(page == PageType::Forum),
        flag(matches!(page, PageType::Product | PageType::Service)),
        flag(page == PageType::Other),
        coverage * kept,
        flag(size < TINY_LOG_CHARS),
        flag(coverage > ALL_OF_IT),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn signals(page: u32, pruned: u32, result: u32, links: u32) -> Signals {
        Signals {
            page_chars: page,
            pruned_chars: pruned,
            chosen_chars: result,
            chosen_link_chars: links,
            top_score: 40.0,
            region_fallback: false,
            declared: false,
            result_chars: result,
        }
    }

    #[test]
    fn most_of_the_text_found_is_good_a_scrap_of_a_long_page_is_poor() {
        let found = estimate(&signals(9000, 6000, 5200, 200), PageType::Article, false);
        assert!(found >= POOR, "{found}");
        let scrap = estimate(&signals(40000, 30000, 90, 0), PageType::Listing, false);
        assert!(scrap < POOR, "{scrap}");
        assert!((0.0..=1.0).contains(&scrap));
    }
}
