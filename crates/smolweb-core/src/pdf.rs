//! A PDF's text (pure: bytes in, text out), read with lopdf (pure Rust) and smolweb's own
//! content walker ([`content`]).
//!
//! A body is a PDF when it starts with `%PDF-` ([`is_pdf`]), whatever its Content-Type says.
//! [`extract`] loads the document, refuses one that needs a password ([`PdfError::Encrypted`]),
//! reads each page's text in order under a `--- page N of M ---` marker line, and refuses a
//! document with no text at all ([`PdfError::ImageOnly`] when its pages draw images: a scan).
//!
//! Limits ([`PdfLimits`], scaled from the body size): every stream lopdf decompresses while
//! loading is bounded ([`MAX_STREAM_BYTES`]); the objects it keeps are weighed as they load and
//! the load fails past `max_object_bytes` ([`PdfError::TooLarge`]; lopdf does not pass the
//! objects of an encrypted file through that filter, so there only the per-stream bound
//! holds); page and form contents are decompressed from one shared allowance
//! (`max_content_bytes`), a page over its share is left out with a note; the text stops at
//! `max_text_bytes` (`truncated`). `keep_going` is asked between pages and every few thousand
//! operators, so a caller with a deadline can stop the work ([`PdfError::Stopped`]); the load
//! itself is not interrupted (its cost follows the body size and the per-stream bound). The
//! caller runs this off its async runtime: it is CPU work.

mod content;

use content::{PageText, Resources, XObject};
use lopdf::{Dictionary, Document, Encoding, LoadOptions, Object, ObjectId};
use std::cell::Cell;
use std::collections::BTreeMap;

/// Largest decompressed size of one stream while loading (object and xref streams).
pub(crate) const MAX_STREAM_BYTES: usize = 1 << 20;
/// Largest decompressed content of one page (its streams together) or one form.
pub(crate) const MAX_PAGE_CONTENT_BYTES: usize = 4 << 20;
/// Largest decompressed font encoding data (a `/ToUnicode` CMap).
const MAX_CMAP_BYTES: usize = 1 << 20;

/// The bounds of one extraction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PdfLimits {
    /// What the loaded objects may weigh in memory (estimated), in bytes.
    pub(crate) max_object_bytes: usize,
    /// Page and form content decompressed, all pages together, in bytes.
    pub(crate) max_content_bytes: usize,
    /// Text produced, in bytes.
    pub max_text_bytes: usize,
}

impl PdfLimits {
    /// Limits for a body of `len` bytes: a few times its size, with a floor for small files.
    pub fn for_body(len: usize) -> PdfLimits {
        PdfLimits {
            max_object_bytes: len.saturating_mul(6).max(32 << 20),
            max_content_bytes: len.saturating_mul(8).max(32 << 20),
            max_text_bytes: len.saturating_mul(2).max(8 << 20),
        }
    }
}

/// The text of a PDF.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdfText {
    /// Page by page, each under its marker line.
    pub text: String,
    /// How many pages the document has.
    pub pages: usize,
    /// The document's own title and author (untrusted, as written).
    pub title: Option<String>,
    /// The document's own author (untrusted, as written).
    pub author: Option<String>,
    /// The text limit was reached: later pages are missing.
    pub truncated: bool,
}

/// Why a PDF gives no text (each message reads after "this PDF ...: ").
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PdfError {
    /// The document is encrypted and needs a password.
    #[error("it is encrypted and cannot be read without its password")]
    Encrypted,
    /// No text layer, only images (a scan); `pages` is the document's page count.
    #[error(
        "it has no text layer, only images on its {} (a scan would need OCR, which smolweb does not do)",
        pages_words(*pages)
    )]
    ImageOnly {
        /// How many pages the document has.
        pages: usize,
    },
    /// No text at all; `pages` is the document's page count.
    #[error("it has no text to extract ({})", pages_words(*pages))]
    NoText {
        /// How many pages the document has.
        pages: usize,
    },
    /// The document could not be read (the reason).
    #[error("it could not be read: {0}")]
    Malformed(String),
    /// Reading it would go past one of the limits (which one).
    #[error("it is too large or too complex to read within smolweb's limits ({0})")]
    TooLarge(String),
    /// `keep_going` said to stop before the text was read.
    #[error("reading it was stopped before it ended")]
    Stopped,
}

/// "1 page", "3 pages".
pub(crate) fn pages_words(pages: usize) -> String {
    if pages == 1 {
        "1 page".into()
    } else {
        format!("{pages} pages")
    }
}

/// Does this body look like a PDF (its first bytes are the `%PDF-` header)?
pub fn is_pdf(body: &[u8]) -> bool {
    body.starts_with(b"%PDF-")
}

/// The marker line that opens page `n` of `total`.
pub(crate) fn page_marker(n: usize, total: usize) -> String {
    format!("--- page {n} of {total} ---")
}

thread_local! {
    /// What the objects still being loaded on this thread may weigh (None: over the limit).
    static LOAD_ALLOWANCE: Cell<Option<usize>> = const { Cell::new(None) };
}

/// The load filter: weigh each object and drop everything once the allowance is spent.
fn weigh_filter(id: ObjectId, obj: &mut Object) -> Option<(ObjectId, Object)> {
    LOAD_ALLOWANCE.with(|a| {
        let left = a.get()?;
        match left.checked_sub(weight(obj, left)) {
            Some(rest) => {
                a.set(Some(rest));
                Some((id, obj.clone()))
            }
            None => {
                a.set(None);
                None
            }
        }
    })
}

/// An estimate of what an object holds in memory (nodes and their bytes), stopping early
/// once it passes `cap`.
fn weight(obj: &Object, cap: usize) -> usize {
    let node = std::mem::size_of::<Object>();
    let mut total = 0usize;
    let mut stack = vec![obj];
    while let Some(o) = stack.pop() {
        total = total.saturating_add(node);
        match o {
            Object::String(s, _) | Object::Name(s) => total = total.saturating_add(s.len()),
            Object::Array(items) => stack.extend(items.iter()),
            Object::Dictionary(d) => {
                for (k, v) in d.iter() {
                    total = total.saturating_add(k.len());
                    stack.push(v);
                }
            }
            Object::Stream(s) => {
                total = total.saturating_add(s.content.len());
                for (k, v) in s.dict.iter() {
                    total = total.saturating_add(k.len());
                    stack.push(v);
                }
            }
            _ => {}
        }
        if total > cap {
            return total;
        }
    }
    total
}

fn load(bytes: &[u8], limits: &PdfLimits) -> Result<Document, PdfError> {
    LOAD_ALLOWANCE.with(|a| a.set(Some(limits.max_object_bytes)));
    let options = LoadOptions {
        filter: Some(weigh_filter),
        max_decompressed_size: Some(MAX_STREAM_BYTES),
        ..LoadOptions::default()
    };
    let loaded = Document::load_mem_with_options(bytes, options);
    let spent = LOAD_ALLOWANCE.with(|a| a.replace(None)).is_none();
    if spent {
        return Err(PdfError::TooLarge("its objects".into()));
    }
    loaded.map_err(|e| match e {
        lopdf::Error::Decompress(lopdf::DecompressError::MemoryLimitExceeded { .. }) => {
            PdfError::TooLarge("a stream inflates past the limit".into())
        }
        other => PdfError::Malformed(other.to_string()),
    })
}

/// Read the text of a PDF (see the module docs).
pub fn extract(
    bytes: &[u8],
    limits: &PdfLimits,
    keep_going: &dyn Fn() -> bool,
) -> Result<PdfText, PdfError> {
    let doc = load(bytes, limits)?;
    if doc.is_encrypted() {
        return Err(PdfError::Encrypted);
    }
    let pages = doc.get_pages();
    if pages.is_empty() {
        return Err(PdfError::Malformed("it has no pages".into()));
    }
    let total = pages.len();
    let shared = Shared {
        content_left: Cell::new(limits.max_content_bytes),
    };
    let mut out = String::new();
    let mut any_text = false;
    let mut saw_image = false;
    let mut skipped = false;
    let mut truncated = false;
    for (n, page_id) in pages.values().enumerate() {
        if !keep_going() {
            return Err(PdfError::Stopped);
        }
        if out.len() >= limits.max_text_bytes {
            truncated = true;
            break;
        }
        let page = read_page(&doc, *page_id, &shared, keep_going);
        if page.stopped {
            return Err(PdfError::Stopped);
        }
        saw_image |= page.saw_image;
        if !out.is_empty() {
            out.push_str("\n\n");
        }
        out.push_str(&page_marker(n + 1, total));
        out.push_str("\n\n");
        match page.note {
            Some(note) => {
                skipped = true;
                out.push_str(note);
            }
            None => {
                let text = tidy(&page.text.text);
                any_text |= !text.is_empty();
                out.push_str(if text.is_empty() {
                    "(no text on this page)"
                } else {
                    &text
                });
            }
        }
    }
    if !any_text {
        return Err(if skipped {
            PdfError::TooLarge("its page content inflates past the limit".into())
        } else if saw_image {
            PdfError::ImageOnly { pages: total }
        } else {
            PdfError::NoText { pages: total }
        });
    }
    if out.len() > limits.max_text_bytes {
        let mut cut = limits.max_text_bytes;
        while !out.is_char_boundary(cut) {
            cut -= 1;
        }
        out.truncate(cut);
        truncated = true;
    }
    out.push('\n');
    let (title, author) = info(&doc);
    Ok(PdfText {
        text: out,
        pages: total,
        title,
        author,
        truncated,
    })
}

/// What every page's reading draws on: the content allowance left.
struct Shared {
    content_left: Cell<usize>,
}

impl Shared {
    /// What the next page or form may decompress to.
    fn allowance(&self) -> usize {
        self.content_left.get().min(MAX_PAGE_CONTENT_BYTES)
    }

    fn spend(&self, n: usize) {
        self.content_left
            .set(self.content_left.get().saturating_sub(n));
    }
}

struct PageRead {
    text: PageText,
    saw_image: bool,
    stopped: bool,
    /// Why the page's text is missing.
    note: Option<&'static str>,
}

fn read_page(
    doc: &Document,
    page_id: ObjectId,
    shared: &Shared,
    keep_going: &dyn Fn() -> bool,
) -> PageRead {
    let mut read = PageRead {
        text: PageText::default(),
        saw_image: false,
        stopped: false,
        note: None,
    };
    let allowance = shared.allowance();
    let content = match doc.get_page_content_with_limit(page_id, allowance) {
        Ok(c) => c,
        Err(_) => {
            read.note = Some("(this page's content is too large to read within smolweb's limits)");
            return read;
        }
    };
    shared.spend(content.len());
    let fonts = doc
        .get_page_fonts(page_id)
        .map(|f| encodings(doc, &f))
        .unwrap_or_default();
    let res = DocResources {
        doc,
        fonts,
        parent: None,
        xobjects: page_xobjects(doc, page_id),
        shared,
    };
    read.text.read(&content, &res, keep_going);
    read.saw_image = read.text.saw_image;
    read.stopped = read.text.stopped;
    read
}

type Fonts<'d> = BTreeMap<Vec<u8>, Encoding<'d>>;

fn encodings<'d>(doc: &'d Document, fonts: &BTreeMap<Vec<u8>, &'d Dictionary>) -> Fonts<'d> {
    fonts
        .iter()
        .filter_map(|(name, font)| {
            let enc = font
                .get_font_encoding_with_limit(doc, MAX_CMAP_BYTES)
                .ok()?;
            Some((name.clone(), enc))
        })
        .collect()
}

fn deref<'d>(doc: &'d Document, obj: &'d Object) -> Option<&'d Object> {
    doc.dereference(obj).ok().map(|(_, o)| o)
}

/// The `/XObject` dictionaries of a page (its own resources, then the inherited ones).
fn page_xobjects(doc: &Document, page_id: ObjectId) -> Vec<&Dictionary> {
    let Ok((own, inherited)) = doc.get_page_resources(page_id) else {
        return Vec::new();
    };
    own.into_iter()
        .chain(
            inherited
                .iter()
                .filter_map(|id| doc.get_dictionary(*id).ok()),
        )
        .filter_map(|r| xobjects_of(doc, r))
        .collect()
}

fn xobjects_of<'d>(doc: &'d Document, resources: &'d Dictionary) -> Option<&'d Dictionary> {
    deref(doc, resources.get(b"XObject").ok()?)?.as_dict().ok()
}

/// A page's or a form's fonts and XObjects.
struct DocResources<'d, 'p> {
    doc: &'d Document,
    fonts: Fonts<'d>,
    /// The resources of what drew this form (fonts it does not name itself).
    parent: Option<&'p (dyn Resources + 'p)>,
    xobjects: Vec<&'d Dictionary>,
    shared: &'p Shared,
}

impl Resources for DocResources<'_, '_> {
    fn decode(&self, font: &[u8], bytes: &[u8], out: &mut String) -> bool {
        match self.fonts.get(font) {
            Some(enc) => enc.write_to_string(bytes, out).is_ok(),
            None => self.parent.is_some_and(|p| p.decode(font, bytes, out)),
        }
    }

    fn xobject(&self, name: &[u8]) -> XObject<'_> {
        let found = self.xobjects.iter().find_map(|d| {
            let obj = d.get(name).ok()?;
            deref(self.doc, obj)?.as_stream().ok()
        });
        let Some(stream) = found else {
            return XObject::Unknown;
        };
        let subtype = stream.dict.get(b"Subtype").and_then(Object::as_name).ok();
        match subtype {
            Some(b"Image") => XObject::Image,
            Some(b"Form") => {
                let Ok(content) = stream.decompressed_content_with_limit(self.shared.allowance())
                else {
                    return XObject::Unknown;
                };
                self.shared.spend(content.len());
                let resources = stream
                    .dict
                    .get(b"Resources")
                    .ok()
                    .and_then(|r| deref(self.doc, r))
                    .and_then(|r| r.as_dict().ok());
                let fonts = resources
                    .and_then(|r| deref(self.doc, r.get(b"Font").ok()?)?.as_dict().ok())
                    .map(|f| {
                        let named: BTreeMap<Vec<u8>, &Dictionary> = f
                            .iter()
                            .filter_map(|(k, v)| {
                                Some((k.clone(), deref(self.doc, v)?.as_dict().ok()?))
                            })
                            .collect();
                        encodings(self.doc, &named)
                    })
                    .unwrap_or_default();
                let xobjects = resources
                    .and_then(|r| xobjects_of(self.doc, r))
                    .into_iter()
                    .collect();
                XObject::Form(
                    content,
                    Box::new(DocResources {
                        doc: self.doc,
                        fonts,
                        parent: Some(self),
                        xobjects,
                        shared: self.shared,
                    }),
                )
            }
            _ => XObject::Unknown,
        }
    }
}

/// The `/Info` title and author.
fn info(doc: &Document) -> (Option<String>, Option<String>) {
    let Some(info) = doc
        .trailer
        .get(b"Info")
        .ok()
        .and_then(|i| deref(doc, i))
        .and_then(|i| i.as_dict().ok())
    else {
        return (None, None);
    };
    let field = |key: &[u8]| {
        let obj = deref(doc, info.get(key).ok()?)?;
        let text = lopdf::decode_text_string(obj).ok()?;
        let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
        (!text.is_empty()).then_some(text)
    };
    (field(b"Title"), field(b"Author"))
}

/// Trailing spaces off every line, runs of blank lines down to one, no blank edges.
fn tidy(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut blank = false;
    for line in text.lines().map(str::trim_end) {
        if line.is_empty() {
            blank = !out.is_empty();
            continue;
        }
        if !out.is_empty() {
            out.push_str(if blank { "\n\n" } else { "\n" });
        }
        blank = false;
        out.push_str(line);
    }
    out
}

#[cfg(test)]
mod tests;
