//! What a page looks like on screen, computed lazily.
//!
//! A [`Doc`] indexes a [`Page`] into display lines (16 bytes each, no text copied) and
//! numbers its links. Wrapping is done per line, only for lines that are looked at, and cached
//! for one width; a resize or a fold toggle drops the cache. Scroll positions are (line, row
//! within the line), so nothing ever needs the total number of rows: opening, scrolling and
//! resizing a 40,000-line page touch only the lines on screen.
//!
//! Widths are terminal cells (unicode-width): wide CJK and emoji count 2, combining marks 0.
//! Preformatted text, gopher menus and plain text are never wrapped (horizontal scroll instead).

use smolweb_core::gemtext::LineKind;
use smolweb_core::page::{Content, Page};
use std::borrow::Cow;
use std::sync::Arc;
use unicode_width::UnicodeWidthChar;

mod wrap;
pub(crate) use wrap::{display_width, wrap};

/// Kind of a display line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Text,
    Heading(u8),
    Link,
    List,
    Quote,
    /// A line inside a preformatted block.
    Pre,
    /// The opening fence of a block: shows the alt text, or the fold marker when folded.
    Fence,
    MenuInfo,
    MenuItem,
    /// text/plain and other text.
    Plain,
}

const NO_LINK: u32 = u32::MAX;

/// Wrapped rows of one line: byte ranges into its text.
type Rows = Box<[(u32, u32)]>;

/// One display line: an index into the page's lines, items or text lines.
#[derive(Clone, Copy, Debug)]
pub struct DLine {
    pub(crate) kind: Kind,
    src: u32,
    link: u32,
    /// Fence: the number of lines in the block.
    extra: u32,
}

impl DLine {
    /// Zero-based link index, if this line is a link.
    pub fn link(&self) -> Option<usize> {
        (self.link != NO_LINK).then_some(self.link as usize)
    }
}

/// A page indexed for display.
#[derive(Debug)]
pub struct Doc {
    page: Arc<Page>,
    /// All lines, folding ignored.
    all: Vec<DLine>,
    /// The lines shown (folded blocks removed).
    lines: Vec<DLine>,
    /// Link index -> index into `lines`.
    link_lines: Vec<usize>,
    /// Link index -> target URL.
    link_urls: Vec<Arc<str>>,
    /// Links that are Spartan prompts (`=: URL label`): following one asks for the text
    /// sent as the request's data block.
    prompt_links: Vec<usize>,
    /// Byte ranges of the text lines (plain text).
    plain: Vec<(u32, u32)>,
    folded: bool,
    /// Width of the link number column ("[12]"), as wide as the page's last number, so
    /// labels line up past `[9]`.
    num_width: usize,
    cache_width: usize,
    cache: Vec<Option<Rows>>,
    /// Rows kept under a link's line for its inline picture, by link index.
    below: std::collections::HashMap<usize, u16>,
}

/// A position: display line and row within it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Pos {
    pub line: usize,
    pub row: usize,
}

/// The pieces of one screen row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RowParts<'a> {
    pub(crate) kind: Kind,
    /// Marker or indent ("[3] ", "• ", "  ").
    pub(crate) prefix: String,
    /// Menu item type tag ("DIR ").
    pub(crate) tag: &'static str,
    pub(crate) text: Cow<'a, str>,
    /// Byte offset of `text` in the line's text (where this row starts).
    pub(crate) start: usize,
    /// Link index when the line is a link.
    pub(crate) link: Option<usize>,
    /// A row of the inline picture under a link's line: (link index, row of the picture).
    pub(crate) picture: Option<(usize, u16)>,
    /// Set on link rows: the scheme when the link leaves gemini/gopher.
    pub(crate) external: bool,
}

impl Doc {
    pub fn new(page: Arc<Page>) -> Doc {
        let mut doc = Doc {
            page,
            all: Vec::new(),
            lines: Vec::new(),
            link_lines: Vec::new(),
            link_urls: Vec::new(),
            prompt_links: Vec::new(),
            plain: Vec::new(),
            folded: false,
            num_width: 0,
            cache_width: 0,
            cache: Vec::new(),
            below: Default::default(),
        };
        doc.index();
        doc.refold();
        doc
    }

    pub fn page(&self) -> &Arc<Page> {
        &self.page
    }

    fn index(&mut self) {
        let page = Arc::clone(&self.page);
        let builtin = page.url.scheme() == smolweb_core::url::Scheme::About;
        let spartan = page.url.scheme() == smolweb_core::url::Scheme::Spartan;
        let mut urls = Vec::new();
        let line = |kind, src: usize| DLine {
            kind,
            src: src as u32,
            link: NO_LINK,
            extra: 0,
        };
        match &page.content {
            Content::Gemtext(doc) => {
                let mut open_fence: Option<usize> = None;
                for (i, l) in doc.lines.iter().enumerate() {
                    let mut d = line(gem_kind(l.kind, l.level()), i);
                    if let Some(f) = &l.fence {
                        if f.opening {
                            open_fence = Some(self.all.len());
                            d.kind = Kind::Fence;
                        } else {
                            open_fence = None;
                            continue; // closing fences are not shown
                        }
                    } else if spartan
                        && l.kind == LineKind::Text
                        && let Some((target, _)) = smolweb_core::gemtext::spartan_prompt(&l.content)
                        && let Ok(abs) = page.url.resolve(target)
                    {
                        // Only Spartan pages have prompt lines; elsewhere `=:` is text.
                        d.kind = Kind::Link;
                        d.link = urls.len() as u32;
                        self.prompt_links.push(urls.len());
                        urls.push(Arc::from(abs.as_str()));
                    } else if let Some(link) = &l.link {
                        // Only destinations are numbered; a refused scheme stays text. The
                        // browser's own pages may carry `action:` links.
                        let ours = builtin
                            && external_scheme(&link.url)
                                .is_some_and(|s| s.eq_ignore_ascii_case("action"));
                        if ours || link.destination().is_offered() {
                            d.link = urls.len() as u32;
                            urls.push(Arc::from(link.url.as_str()));
                        }
                    } else if l.kind == LineKind::Preformat
                        && let Some(f) = open_fence
                        && let Some(fence) = self.all.get_mut(f)
                    {
                        fence.extra += 1;
                    }
                    self.all.push(d);
                }
            }
            Content::Menu(items) => {
                for (i, item) in items.iter().enumerate() {
                    let mut d = line(Kind::MenuInfo, i);
                    if !item.is_info() {
                        d.kind = Kind::MenuItem;
                        if !item.next_url.is_empty() {
                            d.link = urls.len() as u32;
                            urls.push(Arc::from(item.next_url.as_str()));
                        }
                    }
                    self.all.push(d);
                }
            }
            Content::Text | Content::Binary => {
                let text = page.body.text();
                let mut start = 0usize;
                for piece in text.split_inclusive('\n') {
                    let end = start + piece.trim_end_matches(['\n', '\r']).len();
                    self.plain.push((start as u32, end as u32));
                    self.all.push(line(Kind::Plain, self.plain.len() - 1));
                    start += piece.len();
                }
            }
        }
        self.num_width = urls.len().to_string().len() + 2;
        self.link_urls = urls;
    }

    /// Rebuild the shown lines for the current fold state.
    fn refold(&mut self) {
        self.lines.clear();
        self.link_lines.clear();
        let mut skip = 0u32;
        for d in &self.all {
            if skip > 0 && d.kind == Kind::Pre {
                skip -= 1;
                continue;
            }
            skip = 0;
            if d.kind == Kind::Fence {
                let alt = self.fence_alt(d).is_some();
                if self.folded && d.extra > 0 {
                    skip = d.extra;
                } else if !alt {
                    continue;
                }
            }
            if let Some(l) = d.link() {
                debug_assert_eq!(l, self.link_lines.len());
                self.link_lines.push(self.lines.len());
            }
            self.lines.push(*d);
        }
        self.cache = vec![None; self.lines.len()];
    }

    pub fn folded(&self) -> bool {
        self.folded
    }

    /// Fold or unfold preformatted blocks. Returns whether the page has any.
    pub fn set_folded(&mut self, folded: bool) -> bool {
        let any = self.all.iter().any(|d| d.kind == Kind::Fence);
        if self.folded != folded {
            self.folded = folded;
            self.refold();
        }
        any
    }

    pub fn len(&self) -> usize {
        self.lines.len()
    }
    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }
    pub fn line(&self, i: usize) -> Option<&DLine> {
        self.lines.get(i)
    }
    pub fn link_count(&self) -> usize {
        self.link_urls.len()
    }
    /// The link is a Spartan prompt: following it asks for text to send.
    pub fn is_prompt_link(&self, link: usize) -> bool {
        self.prompt_links.contains(&link)
    }
    pub fn link_url(&self, link: usize) -> Option<&str> {
        self.link_urls.get(link).map(|u| &**u)
    }
    /// The label of the first link on this page that leads to `url` (its text as shown).
    pub fn label_of(&self, url: &str) -> Option<String> {
        let link = self.link_urls.iter().position(|u| &**u == url)?;
        let line = self.link_line(link)?;
        Some(self.text(line).into_owned())
    }
    /// The display line of a link (None when folded away).
    pub fn link_line(&self, link: usize) -> Option<usize> {
        self.link_lines.get(link).copied()
    }

    /// The scheme of a link that leaves Gemini/Gopher from this page. `action:` links stay
    /// in the browser on its own pages only; on a page from the network they are unknown.
    /// On a web page (the reader view) its web links are the norm and are not marked.
    fn leaves<'u>(&self, url: &'u str) -> Option<&'u str> {
        use smolweb_core::url::Scheme;
        let here = self.page.url.scheme();
        let builtin = here == Scheme::About;
        let on_web = matches!(here, Scheme::Http | Scheme::Https);
        external_scheme(url).filter(|s| {
            let ours = builtin && s.eq_ignore_ascii_case("action");
            let web = on_web && (s.eq_ignore_ascii_case("http") || s.eq_ignore_ascii_case("https"));
            !(ours || web)
        })
    }

    fn fence_alt(&self, d: &DLine) -> Option<&str> {
        match &self.page.content {
            Content::Gemtext(doc) => doc
                .lines
                .get(d.src as usize)
                .and_then(|l| l.fence.as_ref())
                .and_then(|f| f.alt_text.as_deref()),
            _ => None,
        }
    }

    /// The text of a line (marker stripped where the prefix replaces it).
    pub fn text(&self, i: usize) -> Cow<'_, str> {
        let Some(d) = self.lines.get(i) else {
            return Cow::Borrowed("");
        };
        match &self.page.content {
            Content::Gemtext(doc) => {
                let Some(l) = doc.lines.get(d.src as usize) else {
                    return Cow::Borrowed("");
                };
                match d.kind {
                    Kind::Link if l.link.is_none() => {
                        let (url, label) =
                            smolweb_core::gemtext::spartan_prompt(&l.content).unwrap_or_default();
                        let label = if label.is_empty() { url } else { label };
                        Cow::Owned(format!("{label} (asks for text)"))
                    }
                    Kind::Link => {
                        let link = l.link.as_ref();
                        let url = link.map_or("", |k| k.url.as_str());
                        let label = link.and_then(|k| k.text.as_deref()).unwrap_or(url);
                        if d.link().is_none() {
                            let scheme = smolweb_core::url::refused_scheme(url);
                            let scheme = scheme.as_deref().unwrap_or("unknown");
                            return Cow::Owned(format!("{label} ({scheme}: link not followed)"));
                        }
                        match self.leaves(url) {
                            Some(s) if label != url => Cow::Owned(format!("{label} ({s})")),
                            _ => Cow::Borrowed(label),
                        }
                    }
                    Kind::List | Kind::Quote => {
                        Cow::Borrowed(l.text.as_deref().unwrap_or(l.content.as_str()))
                    }
                    Kind::Fence => {
                        let alt = self.fence_alt(d).unwrap_or("preformatted text");
                        if self.folded {
                            let n = d.extra;
                            Cow::Owned(format!("{alt}  [{n} lines folded]"))
                        } else {
                            Cow::Borrowed(alt)
                        }
                    }
                    _ => Cow::Borrowed(l.content.as_str()),
                }
            }
            Content::Menu(items) => match items.get(d.src as usize) {
                Some(m) => match &m.refused_scheme {
                    Some(s) => Cow::Owned(format!("{} ({s}: link not followed)", m.title)),
                    None => Cow::Borrowed(m.title.as_str()),
                },
                None => Cow::Borrowed(""),
            },
            Content::Text | Content::Binary => {
                let (a, b) = self.plain.get(d.src as usize).copied().unwrap_or((0, 0));
                Cow::Borrowed(
                    self.page
                        .body
                        .text()
                        .get(a as usize..b as usize)
                        .unwrap_or(""),
                )
            }
        }
    }

    /// First-row prefix and the indent of continuation rows.
    fn prefix(&self, d: &DLine) -> (String, usize) {
        match d.kind {
            Kind::Link => {
                // Numbers right-aligned in a column as wide as the last one; a refused link
                // has none and is indented as if it had one.
                let p = match d.link() {
                    Some(l) => format!("{:>w$} ", format!("[{}]", l + 1), w = self.num_width),
                    None => format!("{:>w$} ", "[-]", w = self.num_width),
                };
                let w = p.len();
                (p, w)
            }
            Kind::List => ("• ".into(), 2),
            Kind::Quote => ("│ ".into(), 2),
            Kind::Fence => ("▸ ".into(), 2),
            Kind::MenuItem => match d.link() {
                Some(l) => (
                    format!("{:>w$} ", format!("[{}]", l + 1), w = self.num_width),
                    0,
                ),
                None => (" ".repeat(self.num_width + 1), 0),
            },
            Kind::MenuInfo => (" ".repeat(self.num_width + 1 + 4), 0),
            _ => (String::new(), 0),
        }
    }

    /// Does this line wrap? (Preformatted text, menus and plain text never do.)
    pub fn wraps(kind: Kind) -> bool {
        !matches!(
            kind,
            Kind::Pre | Kind::MenuInfo | Kind::MenuItem | Kind::Plain
        )
    }

    /// How many lines have been wrapped at the current width (laziness check).
    pub fn wrapped_lines(&self) -> usize {
        self.cache.iter().filter(|c| c.is_some()).count()
    }

    /// Use `width` for wrapping from now on (drops the cache when it changes).
    pub fn set_width(&mut self, width: usize) {
        let width = width.max(4);
        if width != self.cache_width {
            self.cache_width = width;
            self.cache.iter_mut().for_each(|c| *c = None);
        }
    }

    fn rows_of(&mut self, i: usize) -> &[(u32, u32)] {
        let needs = matches!(self.cache.get(i), Some(None));
        if needs {
            let d = self.lines[i];
            let ranges: Rows = if Doc::wraps(d.kind) {
                let (_, indent) = self.prefix(&d);
                let text = self.text(i);
                let avail = self.cache_width.saturating_sub(indent).max(1);
                wrap(&text, avail).into_boxed_slice()
            } else {
                let n = self.text(i).len() as u32;
                Box::new([(0, n)])
            };
            self.cache[i] = Some(ranges);
        }
        match self.cache.get(i) {
            Some(Some(r)) => r,
            _ => &[],
        }
    }

    /// Number of screen rows of line `i` at the current width (at least 1), with the rows
    /// of an inline picture under it.
    pub fn row_count(&mut self, i: usize) -> usize {
        self.rows_of(i).len().max(1) + usize::from(self.below_line(i))
    }

    /// Rows under line `i` kept for its link's inline picture.
    fn below_line(&self, i: usize) -> u16 {
        if self.below.is_empty() {
            return 0;
        }
        self.lines
            .get(i)
            .and_then(DLine::link)
            .and_then(|l| self.below.get(&l))
            .copied()
            .unwrap_or(0)
    }

    /// Rows kept under link `link`'s line for its picture.
    pub fn below_of(&self, link: usize) -> u16 {
        self.below.get(&link).copied().unwrap_or(0)
    }

    /// Keep `rows` rows under link `link`'s line for its picture (0: none). Returns whether
    /// it changed.
    pub fn set_below(&mut self, link: usize, rows: u16) -> bool {
        let old = self.below.get(&link).copied().unwrap_or(0);
        if rows == 0 {
            self.below.remove(&link);
        } else {
            self.below.insert(link, rows);
        }
        old != rows
    }

    /// Drop every inline picture's rows. Returns whether there were any.
    pub fn clear_below(&mut self) -> bool {
        let any = !self.below.is_empty();
        self.below.clear();
        any
    }

    /// The pieces of row `row` of line `i` (wrapping it if not done yet).
    pub fn row(&mut self, i: usize, row: usize) -> Option<RowParts<'_>> {
        let d = *self.lines.get(i)?;
        let text_rows = self.rows_of(i).len().max(1);
        if row >= text_rows {
            // A row of the picture under the link: nothing to write, the view paints it.
            let pic = u16::try_from(row - text_rows).unwrap_or(u16::MAX);
            return Some(RowParts {
                kind: Kind::Text,
                prefix: String::new(),
                tag: "",
                text: Cow::Borrowed(""),
                start: 0,
                link: None,
                external: false,
                picture: d.link().map(|l| (l, pic)),
            });
        }
        let (a, b) = self.rows_of(i).get(row).copied().unwrap_or((0, 0));
        let (prefix, indent) = self.prefix(&d);
        let prefix = if row == 0 { prefix } else { " ".repeat(indent) };
        let prefix = if d.kind == Kind::Quote {
            "│ ".into()
        } else {
            prefix
        };
        let tag = match (&self.page.content, d.kind) {
            (Content::Menu(items), Kind::MenuItem) => items
                .get(d.src as usize)
                .map_or("", |m| type_tag(m.item_type)),
            _ => "",
        };
        let external = d
            .link()
            .and_then(|l| self.link_url(l))
            .and_then(|u| self.leaves(u))
            .is_some();
        let text = match self.text(i) {
            Cow::Borrowed(s) => Cow::Borrowed(s.get(a as usize..b as usize).unwrap_or("")),
            Cow::Owned(s) => Cow::Owned(s.get(a as usize..b as usize).unwrap_or("").to_string()),
        };
        Some(RowParts {
            kind: d.kind,
            prefix,
            tag,
            text,
            start: a as usize,
            link: d.link(),
            external,
            picture: None,
        })
    }

    /// Move `pos` down by `n` rows, stopping at the last row.
    pub fn forward(&mut self, mut pos: Pos, mut n: usize) -> Pos {
        while n > 0 && pos.line < self.lines.len() {
            let rows = self.row_count(pos.line);
            if pos.row + 1 < rows {
                pos.row += 1;
            } else if pos.line + 1 < self.lines.len() {
                pos = Pos {
                    line: pos.line + 1,
                    row: 0,
                };
            } else {
                break;
            }
            n -= 1;
        }
        pos
    }

    /// Move `pos` up by `n` rows, stopping at the top.
    pub fn backward(&mut self, mut pos: Pos, mut n: usize) -> Pos {
        while n > 0 {
            if pos.row > 0 {
                pos.row -= 1;
            } else if pos.line > 0 {
                pos.line -= 1;
                pos.row = self.row_count(pos.line) - 1;
            } else {
                break;
            }
            n -= 1;
        }
        pos
    }

    /// The last row of the page.
    pub fn end(&mut self) -> Pos {
        match self.lines.len() {
            0 => Pos::default(),
            n => Pos {
                line: n - 1,
                row: self.row_count(n - 1) - 1,
            },
        }
    }

    /// The highest top position that still fills a screen of `height` rows.
    pub fn max_top(&mut self, height: usize) -> Pos {
        let end = self.end();
        self.backward(end, height.saturating_sub(1))
    }

    /// Clamp a top position so the screen stays full.
    pub fn clamp_top(&mut self, pos: Pos, height: usize) -> Pos {
        let pos = Pos {
            line: pos.line.min(self.lines.len().saturating_sub(1)),
            row: pos.row,
        };
        let pos = Pos {
            row: pos.row.min(self.row_count(pos.line).saturating_sub(1)),
            ..pos
        };
        pos.min(self.max_top(height))
    }

    /// The positions of the rows on a screen of `height` rows starting at `top`.
    pub fn screen(&mut self, top: Pos, height: usize) -> Vec<Pos> {
        let mut out = Vec::with_capacity(height);
        if self.lines.is_empty() {
            return out;
        }
        let mut pos = top;
        for _ in 0..height {
            out.push(pos);
            let next = self.forward(pos, 1);
            if next == pos {
                break;
            }
            pos = next;
        }
        out
    }

    /// Every occurrence of `query` in the shown lines, in page order (smart case:
    /// case-insensitive unless the query has an uppercase letter).
    pub fn search(&self, query: &str) -> Vec<Hit> {
        if query.is_empty() {
            return Vec::new();
        }
        let fold = !query.chars().any(char::is_uppercase);
        let mut out = Vec::new();
        for line in 0..self.lines.len() {
            let text = self.text(line);
            for (start, end) in find_all(&text, query, fold) {
                out.push(Hit { line, start, end });
            }
        }
        out
    }

    /// The row of line `i` that holds byte `at` of its text.
    pub fn row_at(&mut self, i: usize, at: usize) -> usize {
        let rows = self.rows_of(i);
        rows.iter()
            .rposition(|&(a, _)| a as usize <= at)
            .unwrap_or(0)
    }
}

/// One occurrence of a search: display line and byte range in its text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Hit {
    pub(crate) line: usize,
    pub(crate) start: usize,
    pub(crate) end: usize,
}

/// Byte ranges of `needle` in `text`, folding case when asked (ranges are in `text` even
/// where lowercasing changes a character's length).
pub(crate) fn find_all(text: &str, needle: &str, fold: bool) -> Vec<(usize, usize)> {
    if !fold {
        return text
            .match_indices(needle)
            .map(|(i, m)| (i, i + m.len()))
            .collect();
    }
    let needle = needle.to_lowercase();
    if text.is_ascii() {
        let lower = text.to_ascii_lowercase();
        return lower
            .match_indices(&needle)
            .map(|(i, m)| (i, i + m.len()))
            .collect();
    }
    // Lowercase with a map from each byte of the lowercase text to its source byte.
    let mut lower = String::with_capacity(text.len());
    let mut from = Vec::with_capacity(text.len() + 1);
    for (i, c) in text.char_indices() {
        for l in c.to_lowercase() {
            lower.push(l);
            from.extend(std::iter::repeat_n(i, l.len_utf8()));
        }
    }
    from.push(text.len());
    let mut out: Vec<(usize, usize)> = Vec::new();
    for (i, m) in lower.match_indices(&needle) {
        let start = from[i];
        // The end is the start of the source character after the match.
        let end = from.get(i + m.len()).copied().unwrap_or(text.len());
        let end = if end <= start {
            start + text[start..].chars().next().map_or(0, char::len_utf8)
        } else {
            end
        };
        if out.last().is_none_or(|&(_, e)| start >= e) {
            out.push((start, end));
        }
    }
    out
}

fn gem_kind(kind: LineKind, level: Option<u8>) -> Kind {
    match kind {
        LineKind::Text => Kind::Text,
        LineKind::Link => Kind::Link,
        LineKind::Heading1 | LineKind::Heading2 | LineKind::Heading3 => {
            Kind::Heading(level.unwrap_or(1))
        }
        LineKind::List => Kind::List,
        LineKind::Quote => Kind::Quote,
        LineKind::Preformat => Kind::Pre,
    }
}

/// The scheme of a link that leaves Gemini/Gopher ("https", "mailto", also "action" which
/// only the browser's own pages may use), else None.
pub(crate) fn external_scheme(url: &str) -> Option<&str> {
    let (scheme, _) = url.split_once(':')?;
    let valid = !scheme.is_empty()
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    let ours = smolweb_core::url::Scheme::from_name(scheme)
        .is_some_and(|s| s.is_followed() && !s.is_web());
    (valid && !ours).then_some(scheme)
}

/// Four-cell tag of a gopher item type.
pub(crate) fn type_tag(item_type: char) -> &'static str {
    match item_type {
        '1' => "DIR ",
        '0' => "TXT ",
        '7' => "ASK ",
        '3' => "ERR ",
        '4' | '5' | '6' | '9' | 's' | ';' | 'd' => "BIN ",
        'g' | 'I' | 'p' => "IMG ",
        'h' => "WWW ",
        '8' | 'T' | '2' => "TEL ",
        _ => "??? ",
    }
}

/// Make text safe to draw: tabs become spaces (to the next multiple of 8 when `expand`, else
/// one space, as wrapping assumed); every other character becomes what the core sanitizer
/// says a terminal is shown ([`smolweb_core::text::shown`]: controls and bidi overrides
/// marked, invisible format characters dropped).
pub(crate) fn sanitize(text: &str, expand: bool) -> Cow<'_, str> {
    if !text.contains(['\t', '\n', '\r']) && smolweb_core::text::is_terminal_safe(text) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    let mut col = 0usize;
    each_shown(text, |c| {
        if c == '\t' {
            let n = if expand { 8 - col % 8 } else { 1 };
            out.extend(std::iter::repeat_n(' ', n));
            col += n;
        } else {
            out.push(c);
            col += c.width().unwrap_or(0);
        }
    });
    Cow::Owned(out)
}

/// Call `f` with each character of `text` as a terminal is shown it: tabs as they are (the
/// caller expands them), marked characters as the replacement mark, dropped ones not at all.
pub(crate) fn each_shown(text: &str, mut f: impl FnMut(char)) {
    use smolweb_core::text::{REPLACEMENT, Shown, shown};
    let mut prev = None;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\t' {
            f(c);
        } else {
            match shown(prev, c, chars.peek().copied()) {
                Shown::Keep => f(c),
                Shown::Mark => f(REPLACEMENT),
                Shown::Drop => {}
            }
        }
        prev = Some(c);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use smolweb_core::response::parse_mime;
    use smolweb_core::url::Url;

    fn doc(body: &str) -> Doc {
        let url = Url::parse("gemini://t.test/").unwrap();
        Doc::new(Arc::new(Page::from_gemini(
            url,
            parse_mime("text/gemini"),
            body.as_bytes().to_vec(),
        )))
    }

    #[test]
    fn only_what_is_looked_at_is_wrapped() {
        let body: String = (0..10_000)
            .map(|i| format!("line {i} with a few words in it\n"))
            .collect();
        let mut d = doc(&body);
        d.set_width(20);
        let rows = d.screen(Pos::default(), 24);
        assert_eq!(rows.len(), 24);
        assert!(
            d.wrapped_lines() <= 24,
            "{} lines wrapped",
            d.wrapped_lines()
        );
        let top = d.max_top(24);
        assert_eq!(top.line, 9_988, "12 lines of 2 rows fill the last screen");
        assert!(d.wrapped_lines() <= 24 + 13);
    }

    #[test]
    fn links_are_numbered_and_folding_hides_blocks() {
        let mut d = doc("=> /a A\n```art\nx\ny\n```\n=> https://w.test/ Web\n");
        assert_eq!(d.link_count(), 2);
        assert_eq!(d.link_url(1), Some("https://w.test/"));
        assert_eq!(d.len(), 5, "link, fence, two pre lines, link");
        d.set_folded(true);
        assert_eq!(d.len(), 3);
        assert_eq!(d.text(1), "art  [2 lines folded]");
        assert_eq!(d.link_line(1), Some(2));
        d.set_width(40);
        let r = d.row(2, 0).unwrap();
        assert_eq!(
            (r.prefix.as_str(), r.text.as_ref(), r.external),
            ("[2] ", "Web (https)", true)
        );
    }

    /// Issue 33: labels moved a column right from `[10]` on. Numbers are right-aligned in a
    /// column as wide as the last one, continuation rows under the text.
    #[test]
    fn link_labels_line_up_past_nine() {
        let body: String = (1..=12).map(|i| format!("=> /{i} Link {i}\n")).collect();
        let mut d = doc(&format!("{body}=> foo:bar refused\n"));
        d.set_width(40);
        let starts: Vec<usize> = (0..13).map(|i| d.row(i, 0).unwrap().prefix.len()).collect();
        assert!(starts.iter().all(|&w| w == 5), "{starts:?}");
        assert_eq!(d.row(0, 0).unwrap().prefix, " [1] ");
        assert_eq!(d.row(11, 0).unwrap().prefix, "[12] ");
        assert_eq!(d.row(12, 0).unwrap().prefix, " [-] ");
        // A page of fewer than ten links keeps the narrow column.
        let mut small = doc("=> /a A\n");
        small.set_width(40);
        assert_eq!(small.row(0, 0).unwrap().prefix, "[1] ");
        let mut long = doc(&format!(
            "{body}=> /x one two three four five six seven eight\n"
        ));
        long.set_width(20);
        assert_eq!(long.row(12, 1).unwrap().prefix, "     ");
    }

    #[test]
    fn continuation_rows_are_indented_under_the_text() {
        let mut d = doc("* one two three four five six\n");
        d.set_width(12);
        let rows: Vec<String> = (0..d.row_count(0))
            .map(|r| {
                let p = d.row(0, r).unwrap();
                format!("{}{}", p.prefix, p.text)
            })
            .collect();
        assert_eq!(rows, ["• one two", "  three four", "  five six"]);
    }

    #[test]
    fn search_finds_every_occurrence_with_its_bytes() {
        let d = doc("Straße und STRASSE\n=> /x İstanbul strasse\n");
        let hits: Vec<(usize, usize, usize)> = d
            .search("stra")
            .into_iter()
            .map(|h| (h.line, h.start, h.end))
            .collect();
        // "Straße" is 7 bytes; "İ" is 2.
        assert_eq!(hits, [(0, 0, 4), (0, 12, 16), (1, 10, 14)]);
        assert_eq!(find_all("İx İx", "x", true), [(2, 3), (6, 7)]);
        assert!(d.search("STRA").len() == 1, "uppercase means exact case");
    }

    #[test]
    fn external_schemes() {
        for (url, want) in [
            ("https://x", Some("https")),
            ("mailto:a@b", Some("mailto")),
            ("gemini://x", None),
            ("GOPHER://x", None),
            ("/relative", None),
            ("about:home", None),
            ("action:back", Some("action")),
        ] {
            assert_eq!(external_scheme(url), want, "{url}");
        }
    }
}
