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
//!
//! [`Reading`] is what the faces say of a converted page (`fetch_url`'s `page_type` and
//! `extraction_quality`, the reader's status line and page info, `smolweb get`): the type,
//! and the figure rounded to hundredths for a main-text extraction only (for the whole page
//! asked for there is nothing to estimate, so no figure is given).

use super::extract::Signals;
use super::kind::PageType;

/// Under this figure an extraction is called poor.
pub const POOR: f32 = 0.5;

/// What the faces say of a converted page: its type and, for a main-text extraction, the
/// quality figure in hundredths (the two decimals every face shows).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Reading {
    /// What kind of page this is.
    pub page_type: PageType,
    /// The figure in hundredths (0 to 100); None when the whole page was asked for.
    pub quality: Option<u8>,
    /// How the person's rule for the site took part, if there is one.
    pub rule: Option<super::RuleUse>,
}

impl Reading {
    /// The reading of a page whose extraction figure is `quality` (None: the whole page was
    /// asked for). The figure is rounded to hundredths; one that is not a number counts as 0.
    pub fn new(page_type: PageType, quality: Option<f32>) -> Reading {
        let hundredths = |q: f32| (q.clamp(0.0, 1.0) * 100.0).round() as u8;
        Reading {
            page_type,
            quality: quality.map(|q| if q.is_nan() { 0 } else { hundredths(q) }),
            rule: None,
        }
    }

    /// The same reading, saying how the site's rule took part.
    pub fn with_rule(mut self, rule: Option<super::RuleUse>) -> Reading {
        self.rule = rule;
        self
    }

    /// The figure as a number from 0 to 1 with two decimals.
    pub fn quality(self) -> Option<f64> {
        self.quality.map(|h| f64::from(h) / 100.0)
    }

    /// Is the main text likely poor (the figure under [`POOR`])? Then the whole page is
    /// worth a look.
    pub fn is_poor(self) -> bool {
        self.quality
            .is_some_and(|h| f64::from(h) < f64::from(POOR) * 100.0)
    }

    /// A few words for a face: "article · quality 0.92", or "article" without a figure.
    /// With a site rule: "article · site rule", or "... · site rule unmatched" when it did
    /// not match.
    pub fn short(self) -> String {
        use super::RuleUse;
        let kind = self.page_type.as_str();
        match (self.rule, self.quality()) {
            (Some(RuleUse::Applied), _) => format!("{kind} · site rule"),
            (Some(RuleUse::Unmatched), Some(q)) => {
                format!("{kind} · quality {q:.2} · site rule unmatched")
            }
            (Some(RuleUse::Unmatched), None) => format!("{kind} · site rule unmatched"),
            (None, Some(q)) => format!("{kind} · quality {q:.2}"),
            (None, None) => kind.to_string(),
        }
    }
}

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
    fn a_reading_rounds_to_hundredths_and_says_poor_under_half() {
        let r = Reading::new(PageType::Forum, Some(0.4951));
        assert_eq!(r.quality, Some(50));
        assert!(!r.is_poor());
        assert_eq!(r.short(), "forum · quality 0.50");
        let r = Reading::new(PageType::Listing, Some(0.31));
        assert!(r.is_poor());
        assert_eq!(r.quality(), Some(0.31));
        assert_eq!(r.short(), "listing · quality 0.31");
        let full = Reading::new(PageType::Article, None);
        assert!(!full.is_poor());
        assert_eq!(full.short(), "article");
        assert_eq!(
            Reading::new(PageType::Other, Some(f32::NAN)).quality,
            Some(0)
        );
        assert_eq!(Reading::new(PageType::Other, Some(1.7)).quality, Some(100));
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
