//! The last pass over the main text's markdown: blocks that a reader would see again and again
//! (a gallery's caption under each of its pictures, a teaser's line repeated by a carousel)
//! and pager runs (`<< < 1 … 14 > >>`, "Previous 1 2 3 Next") go.
//!
//! A block is what stands between blank lines (outside code fences). A block of
//! [`SHORT_WORDS`] to [`MAX_WORDS`] words is kept once when it comes [`SHORT_TIMES`] times or
//! more; a label ("Winner" under each entry), a block that comes twice (a pull quote) and a
//! longer block (a paragraph a page quotes again) stay. One pass, a set of the blocks seen: linear in the text.

use std::collections::{HashMap, HashSet};

/// A block of this many words or more ...
const SHORT_WORDS: usize = 3;
/// ... is kept once when it comes this many times.
const SHORT_TIMES: usize = 3;
/// A block of more words than this is a paragraph, kept however often it comes (a page may
/// quote itself).
const MAX_WORDS: usize = 25;
/// Fewest tokens of a pager run.
const PAGER_TOKENS: usize = 3;

/// Drop repeated blocks and pager runs from `md` (see the module docs). Blocks are counted by
/// a hash of their words, and only those of [`SHORT_WORDS`] to [`MAX_WORDS`] words: the text is
/// not copied (the markdown of a 5 MB page is large) unless a block goes.
pub(super) fn drop_repeats_and_pagers(md: &mut String) {
    let blocks = split(md);
    // For each block: the hash of its words, when it has a number of words that may repeat.
    let hashes: Vec<Option<u64>> = blocks
        .iter()
        .map(|b| (!b.code).then(|| short_key_hash(b.text)).flatten())
        .collect();
    let mut counts: HashMap<u64, usize> = HashMap::new();
    for h in hashes.iter().flatten() {
        *counts.entry(*h).or_default() += 1;
    }
    let mut seen: HashSet<u64> = HashSet::new();
    let drop: Vec<bool> = blocks
        .iter()
        .zip(&hashes)
        .map(|(b, h)| {
            let repeated = h.is_some_and(|h| counts.get(&h).is_some_and(|n| *n >= SHORT_TIMES));
            !b.code && (repeated && !seen.insert(h.unwrap_or_default()) || is_pager(b.text))
        })
        .collect();
    if !drop.contains(&true) {
        return;
    }
    let mut out = String::with_capacity(md.len());
    for (b, _) in blocks.iter().zip(&drop).filter(|(_, d)| !**d) {
        if !out.is_empty() {
            out.push_str("\n\n");
        }
        out.push_str(b.text.trim_end());
    }
    out.push('\n');
    *md = out;
}

/// The hash of a block's [`key`], when it has [`SHORT_WORDS`] to [`MAX_WORDS`] words.
fn short_key_hash(block: &str) -> Option<u64> {
    use std::hash::{Hash, Hasher};
    let k = key(block);
    let words = k.split(' ').filter(|w| !w.is_empty()).count();
    if !(SHORT_WORDS..=MAX_WORDS).contains(&words) {
        return None;
    }
    let mut h = std::collections::hash_map::DefaultHasher::new();
    k.hash(&mut h);
    Some(h.finish())
}

struct Block<'a> {
    text: &'a str,
    code: bool,
}

/// The blocks of `md`: runs of lines between blank lines; a code fence is one block.
fn split(md: &str) -> Vec<Block<'_>> {
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    let mut fence = false;
    let mut code = false;
    let mut pos = 0;
    for line in md.split_inclusive('\n') {
        let trimmed = line.trim();
        let begins_fence = trimmed.starts_with("```");
        if !fence && trimmed.is_empty() {
            if let Some(s) = start.take() {
                out.push(Block {
                    text: &md[s..pos],
                    code,
                });
                code = false;
            }
        } else {
            if start.is_none() {
                start = Some(pos);
            }
            if begins_fence {
                fence = !fence;
                code = true;
            }
        }
        pos += line.len();
    }
    if let Some(s) = start {
        out.push(Block {
            text: &md[s..],
            code,
        });
    }
    out
}

/// The words a reader sees in a block (link targets and markup left out), lowercased and
/// joined by single spaces.
fn key(block: &str) -> String {
    let mut words = Vec::new();
    for w in visible(block).split_whitespace() {
        let w: String = w
            .chars()
            .filter(|c| c.is_alphanumeric())
            .flat_map(char::to_lowercase)
            .collect();
        if !w.is_empty() {
            words.push(w);
        }
    }
    words.join(" ")
}

/// `block` without link and image targets (`[label](target)` -> `label`).
fn visible(block: &str) -> String {
    let mut out = String::with_capacity(block.len());
    let mut rest = block;
    while let Some(i) = rest.find("](") {
        out.push_str(&rest[..i]);
        let after = &rest[i + 2..];
        match after.find(')') {
            Some(j) => rest = &after[j + 1..],
            None => {
                rest = after;
                break;
            }
        }
    }
    out.push_str(rest);
    out.replace(['[', ']', '!', '*', '_', '#', '|'], " ")
}

/// Is `block` a pager: only page numbers, arrows and "previous"/"next" words, with a number
/// among them?
fn is_pager(block: &str) -> bool {
    const WORDS: &[&str] = &[
        "prev", "previous", "next", "first", "last", "page", "of", "«", "»", "‹", "›", "<", ">",
        "<<", ">>", "…", "...", "-", "←", "→",
    ];
    let text = visible(block).replace("\\<", "<").replace("\\>", ">");
    let tokens: Vec<String> = text.split_whitespace().map(|t| t.to_lowercase()).collect();
    tokens.len() >= PAGER_TOKENS
        && tokens.iter().any(|t| t.chars().all(|c| c.is_ascii_digit()))
        && tokens
            .iter()
            .all(|t| t.chars().all(|c| c.is_ascii_digit()) || WORDS.contains(&t.as_str()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_gallery_caption_repeated_under_every_picture_is_kept_once() {
        let caption = "Guests arrive at the opening of the harbour museum on Saturday evening.";
        let mut md = format!("# Opening night\n\n{}", format!("{caption}\n\n").repeat(14));
        md.push_str("The museum opened after ten years of work.\n");
        drop_repeats_and_pagers(&mut md);
        assert_eq!(md.matches("Guests arrive").count(), 1, "{md}");
        assert!(md.contains("ten years of work"), "{md}");
    }

    #[test]
    fn a_pager_run_goes_and_a_short_label_twice_stays() {
        let mut md = String::from(
            "[<<](https://a.example/1) [<](https://a.example/1) [1](https://a.example/1) … \
             [14](https://a.example/14) [>](https://a.example/2) [>>](https://a.example/14)\n\n\
             Winner\n\nThe harbour museum\n\nWinner\n\nThe old mill\n\n\
             Previous 1 2 3 Next\n",
        );
        drop_repeats_and_pagers(&mut md);
        assert!(!md.contains("a.example"), "{md}");
        assert!(!md.contains("Previous"), "{md}");
        assert_eq!(md.matches("Winner").count(), 2, "{md}");
    }

    #[test]
    fn code_is_never_dropped() {
        let block = "```\nlet x = 1; let y = 2; let z = 3; let w = 4;\n```";
        let mut md = format!("{block}\n\ntext\n\n{block}\n");
        drop_repeats_and_pagers(&mut md);
        assert_eq!(md.matches("let x").count(), 2, "{md}");
    }
}
