//! Following a page that is not a feed: the one text kept of it, what changed between two
//! copies, and when a page changes too often for its changes to be worth listing. Pure: no
//! IO, no clock.
//!
//! - [`snapshot`] makes the *follow text* of a page, the form kept and compared: gemtext with
//!   every link absolute (`=> URL label`), as the reader view shows the page. A gemtext page is
//!   its own lines (fence alt texts dropped); a Gopher menu is a link line per item and a text
//!   line per info line; plain text is one preformatted block. Control characters become
//!   spaces, so a kept line can never split into two when shown again. A binary answer has no
//!   follow text ([`NotText`]), nor has one called text whose first characters hold a NUL or
//!   are more than a tenth control characters or bytes that did not decode. The text is cut at [`MAX_TEXT_BYTES`] at a line end
//!   ([`Snapshot::cut`]): a page that grows without end is compared on its beginning only.
//! - [`diff`] compares two follow texts in time linear in their size (see [`diff`]'s module:
//!   a multiset of normalised items by hash, reported in page order) and gives a bounded
//!   [`Diff`]: at most [`MAX_LISTED`] items per list, each cut to [`MAX_ITEM_CHARS`], with the
//!   full counts beside them.
//! - [`judge`] keeps a page's [`Memory`] across refreshes and says whether a change is listed:
//!   a page that changed most of its items ([`CHURN_SHARE`]) or came back to a version seen
//!   among the last [`RECENT`], [`RESTLESS_AFTER`] refreshes in a row, is *restless* (a clock,
//!   a random quote, two alternating versions): that change is listed once, saying so, and the
//!   next ones are not, until a refresh finds an ordinary change or none.
//!
//! What is not a change (noise): links whose URLs are the same, in any order (labels are not
//! compared); whitespace; an item that differs from a removed one only in its digits and its
//! English month and weekday names (a date, a counter, a clock in the page's chrome); a link
//! that differs from a removed one only in the digits of its query or fragment (a cache
//! buster, a session number) with the same label. Noise is counted, never listed.

pub mod diff;

pub use diff::{Block, BlockKind, Counts, Diff, DiffLink, diff};

use crate::page::{Content, Page};
use serde::{Deserialize, Serialize};

/// Longest follow text kept and compared, in bytes (cut at a line end).
pub const MAX_TEXT_BYTES: usize = 512 * 1024;
/// Most items listed per list of a [`Diff`] (links added, links removed, paragraphs added,
/// paragraphs removed); the counts say how many there were.
pub const MAX_LISTED: usize = 30;
/// Longest item (a paragraph, a link label) listed, in characters.
pub const MAX_ITEM_CHARS: usize = 300;
/// Refreshes in a row that churn before a page is restless.
pub const RESTLESS_AFTER: u32 = 3;
/// The share of a page's items (old and new together) a change must touch to churn.
pub const CHURN_SHARE: f64 = 0.5;
/// Versions remembered to notice a page coming back to an earlier one.
pub const RECENT: usize = 4;

/// What counts as a change of a followed page.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Watch {
    /// Only links added or removed.
    Links,
    /// Links and paragraphs added or removed.
    Text,
}

impl Watch {
    /// `links` or `text`.
    pub fn as_str(self) -> &'static str {
        match self {
            Watch::Links => "links",
            Watch::Text => "text",
        }
    }
    /// The watch named `links` or `text`.
    pub fn parse(name: &str) -> Option<Watch> {
        match name {
            "links" => Some(Watch::Links),
            "text" => Some(Watch::Text),
            _ => None,
        }
    }
}

/// A page's follow text (see the module docs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snapshot {
    /// The follow text.
    pub text: String,
    /// The page was longer than [`MAX_TEXT_BYTES`]: only its beginning is kept.
    pub cut: bool,
    /// The page's title, when it has one (one line).
    pub title: Option<String>,
}

/// Why a page has no follow text: it is not text (an image, an archive, ...).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the page is not text ({mime}): there is nothing to compare")]
pub struct NotText {
    /// The answer's media type.
    pub mime: String,
}

/// The follow text of a page (see the module docs).
pub fn snapshot(page: &Page) -> Result<Snapshot, NotText> {
    if !matches!(page.content, Content::Binary) && looks_binary(page.body.text()) {
        return Err(NotText {
            mime: format!("{} with binary bytes", page.mime.essence()),
        });
    }
    let mut out = Writer::default();
    match &page.content {
        Content::Gemtext(doc) => {
            let base = doc.base();
            for v in doc.views() {
                if out.full() {
                    break;
                }
                match (v.link, v.fence) {
                    (Some((_, label)), _) => {
                        let url = v.resolved_url(Some(base)).unwrap_or_default();
                        out.link(&url, label.unwrap_or(""));
                    }
                    (None, Some(_)) => out.line("```"),
                    (None, None) => out.line(v.content),
                }
            }
        }
        Content::Menu(menu) => {
            for item in menu.stream() {
                if out.full() {
                    break;
                }
                if item.is_info() || item.next_url.is_empty() {
                    out.line(&item.title);
                } else {
                    out.link(&item.next_url, &item.title);
                }
            }
        }
        Content::Text => {
            out.line("```");
            for line in page.body.text().lines() {
                if out.full() {
                    break;
                }
                if line.starts_with("```") {
                    out.line(&format!(" {line}"));
                } else {
                    out.line(line);
                }
            }
            out.text.push_str("```\n");
        }
        Content::Binary => {
            return Err(NotText {
                mime: page.mime.essence(),
            });
        }
    }
    Ok(Snapshot {
        text: out.text,
        cut: out.cut,
        title: page.title().map(crate::feed::one_line),
    })
}

/// Bytes called text that are not (an image or an archive served as `text/plain`): a NUL,
/// or more than one in ten of the first characters a control character or one that did not
/// decode.
fn looks_binary(text: &str) -> bool {
    let mut odd = 0usize;
    let mut seen = 0usize;
    for c in text.chars().take(8192) {
        seen += 1;
        match c {
            '\0' => return true,
            '\t' | '\n' | '\r' | '\x0c' => {}
            c if c.is_control() || c == char::REPLACEMENT_CHARACTER => odd += 1,
            _ => {}
        }
    }
    odd * 10 > seen
}

/// Builds a follow text, line by line, up to [`MAX_TEXT_BYTES`].
#[derive(Default)]
struct Writer {
    text: String,
    cut: bool,
}

impl Writer {
    fn full(&self) -> bool {
        self.cut
    }

    fn line(&mut self, line: &str) {
        // Room for a closing fence after a cut inside a preformatted block.
        if self.text.len() + line.len() + 1 > MAX_TEXT_BYTES - 4 {
            self.cut = true;
            return;
        }
        self.text.extend(
            line.chars()
                .map(|c| if c.is_control() && c != '\t' { ' ' } else { c }),
        );
        self.text.push('\n');
    }

    fn link(&mut self, url: &str, label: &str) {
        if url.is_empty() || url.contains(char::is_whitespace) {
            // Not a URL that can stand on a link line: kept as text.
            self.line(&format!("{url} {label}"));
            return;
        }
        let label = label.trim();
        if label.is_empty() {
            self.line(&format!("=> {url}"));
        } else {
            self.line(&format!("=> {url} {label}"));
        }
    }
}

/// What a page's refreshes remember between them (kept with its copy).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Memory {
    /// Digests of the last versions seen ([`RECENT`] at most), newest last: 16 hex digits
    /// each, order-free sums of the items' noise-blind hashes (see [`diff::digest`]).
    #[serde(default)]
    pub recent: Vec<String>,
    /// Refreshes in a row that churned.
    #[serde(default)]
    pub streak: u32,
    /// The page is restless: its changes are not listed.
    #[serde(default)]
    pub restless: bool,
}

impl Memory {
    /// The memory of a page whose first copy is `text`.
    pub fn first(text: &str, watch: Watch) -> Memory {
        let mut m = Memory::default();
        m.remember(diff::digest(text, watch));
        m
    }

    fn remember(&mut self, digest: u64) {
        let hex = format!("{digest:016x}");
        self.recent.retain(|d| *d != hex);
        self.recent.push(hex);
        if self.recent.len() > RECENT {
            let extra = self.recent.len() - RECENT;
            self.recent.drain(..extra);
        }
    }

    /// A version seen before the current one.
    fn seen_before(&self, digest: u64) -> bool {
        let hex = format!("{digest:016x}");
        let earlier = self.recent.len().saturating_sub(1);
        self.recent[..earlier].contains(&hex)
    }
}

/// What a refresh found, as [`judge`] decides it.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    /// Nothing that counts changed (`noise` items changed only in what is not a change).
    Same {
        /// Items paired as noise.
        noise: u64,
    },
    /// A change to list.
    Changed(Diff),
    /// A change that makes the page restless: listed once, saying so.
    BecameRestless(Diff),
    /// A change of a restless page: not listed.
    Restless(Diff),
}

/// Compare the kept copy `old` with the new text, update the page's memory and say what
/// the change is (see the module docs).
pub fn judge(old: &str, new: &str, watch: Watch, memory: &mut Memory) -> Verdict {
    let (d, share, digest) = diff::compare(old, new, watch);
    if !d.counts.any() {
        memory.streak = 0;
        memory.restless = false;
        memory.remember(digest);
        return Verdict::Same {
            noise: d.counts.noise,
        };
    }
    let churn = share >= CHURN_SHARE || memory.seen_before(digest);
    memory.remember(digest);
    if !churn {
        memory.streak = 0;
        memory.restless = false;
        return Verdict::Changed(d);
    }
    memory.streak = memory.streak.saturating_add(1);
    match (memory.streak >= RESTLESS_AFTER, memory.restless) {
        (false, _) => Verdict::Changed(d),
        (true, false) => {
            memory.restless = true;
            Verdict::BecameRestless(d)
        }
        (true, true) => Verdict::Restless(d),
    }
}

#[cfg(test)]
mod tests;
