//! PDFs made for the tests, written object by object with a cross-reference table (no
//! fetched files): text pages in Helvetica (optionally Flate-compressed, one word per `TJ`
//! run or per positioned `Tj`), pages that only draw an image (a scan without a text layer),
//! a PDF that needs a password (encrypted by lopdf, RC4 128-bit), a compression bomb, and a
//! PDF carrying one object too heavy to hold.

use std::io::Write;

/// How the text of a page is written in its content stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// One `Tj` per line, lines moved with `Td`.
    Lines,
    /// Every word placed on its own with `Tm` (as some generators do).
    Words,
    /// Every line one `TJ` array whose word gaps are kerning numbers, no space glyphs.
    Kerned,
}

/// A PDF under construction: objects numbered from 1 in the order added.
pub struct Builder {
    objects: Vec<Vec<u8>>,
}

impl Builder {
    /// An empty PDF: no objects yet.
    pub fn new() -> Builder {
        Builder {
            objects: Vec::new(),
        }
    }

    /// Add an object (its body only: the `n 0 obj` / `endobj` wrapper is written by
    /// [`Builder::finish`]); returns its number.
    pub fn add(&mut self, body: impl Into<Vec<u8>>) -> usize {
        self.objects.push(body.into());
        self.objects.len()
    }

    /// Reserve a number, filled later with [`Builder::set`].
    pub fn reserve(&mut self) -> usize {
        self.add(Vec::new())
    }

    /// Replace the body of object `n` (a number [`Builder::add`] or [`Builder::reserve`]
    /// returned). Panics if `n` is 0 or no such object exists yet.
    pub fn set(&mut self, n: usize, body: impl Into<Vec<u8>>) {
        self.objects[n - 1] = body.into();
    }

    /// Add a stream object holding `data` (Flate-compressed when `deflate`); returns its
    /// number. `dict` is the inside of its dictionary without `<< >>`, `/Length` and
    /// `/Filter`, which are added here (`""` for a plain content stream).
    pub fn stream(&mut self, dict: &str, data: &[u8], deflate: bool) -> usize {
        let (data, filter) = if deflate {
            let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
            z.write_all(data).unwrap();
            (z.finish().unwrap(), " /Filter /FlateDecode")
        } else {
            (data.to_vec(), "")
        };
        let mut body =
            format!("<< {dict} /Length {}{filter} >>\nstream\n", data.len()).into_bytes();
        body.extend_from_slice(&data);
        body.extend_from_slice(b"\nendstream");
        self.add(body)
    }

    /// The file: header, objects, xref table, trailer naming `root` (and `info`) and a fixed
    /// file identifier. The builder is left as it was.
    pub fn finish(&self, root: usize, info: Option<usize>) -> Vec<u8> {
        let mut out = b"%PDF-1.7\n%\xE2\xE3\xCF\xD3\n".to_vec();
        let mut offsets = Vec::new();
        for (i, body) in self.objects.iter().enumerate() {
            offsets.push(out.len());
            out.extend_from_slice(format!("{} 0 obj\n", i + 1).as_bytes());
            out.extend_from_slice(body);
            out.extend_from_slice(b"\nendobj\n");
        }
        let xref = out.len();
        out.extend_from_slice(format!("xref\n0 {}\n", self.objects.len() + 1).as_bytes());
        out.extend_from_slice(b"0000000000 65535 f \n");
        for o in offsets {
            out.extend_from_slice(format!("{o:010} 00000 n \n").as_bytes());
        }
        let info = info.map(|i| format!(" /Info {i} 0 R")).unwrap_or_default();
        out.extend_from_slice(
            format!(
                "trailer\n<< /Size {} /Root {root} 0 R{info} /ID [<{ID}> <{ID}>] >>\nstartxref\n{xref}\n%%EOF\n",
                self.objects.len() + 1
            )
            .as_bytes(),
        );
        out
    }
}

/// The file identifier every test PDF carries (encryption keys are derived from it).
const ID: &str = "736d6f6c7765622074657374207064660a";

/// Escape text for a PDF literal string.
fn literal(text: &str) -> String {
    let mut s = String::from("(");
    for c in text.chars() {
        match c {
            '(' | ')' | '\\' => {
                s.push('\\');
                s.push(c);
            }
            _ => s.push(c),
        }
    }
    s.push(')');
    s
}

/// The content stream of a page of lines.
fn text_content(lines: &[&str], layout: Layout) -> String {
    let mut c = String::from("BT\n/F1 12 Tf\n");
    match layout {
        Layout::Lines => {
            c.push_str("72 720 Td\n");
            for (i, line) in lines.iter().enumerate() {
                if i > 0 {
                    c.push_str("0 -16 Td\n");
                }
                c.push_str(&format!("{} Tj\n", literal(line)));
            }
        }
        Layout::Words => {
            for (i, line) in lines.iter().enumerate() {
                let y = 720 - 16 * i as i32;
                let mut x = 72;
                for word in line.split(' ') {
                    c.push_str(&format!("1 0 0 1 {x} {y} Tm {} Tj\n", literal(word)));
                    x += 8 * word.len() as i32 + 4;
                }
            }
        }
        Layout::Kerned => {
            c.push_str("72 720 Td\n");
            for (i, line) in lines.iter().enumerate() {
                if i > 0 {
                    c.push_str("0 -16 Td\n");
                }
                let runs: Vec<String> = line.split(' ').map(literal).collect();
                c.push_str(&format!("[{}] TJ\n", runs.join(" -333 ")));
            }
        }
    }
    c.push_str("ET\n");
    c
}

/// A PDF whose pages hold these lines, with this title: `pages[i]` is the lines of page
/// `i + 1`, set in 12 pt Helvetica as `layout` says, content streams Flate-compressed when
/// `deflate`. The title (and the author `A. Writer`) go in the document information.
pub fn text_pdf(title: &str, pages: &[&[&str]], layout: Layout, deflate: bool) -> Vec<u8> {
    let contents: Vec<String> = pages.iter().map(|p| text_content(p, layout)).collect();
    pages_pdf(Some(title), &contents, deflate, false)
}

/// A PDF of page content streams (`image`: each page's resources name a 2x2 image /Im1).
pub fn pages_pdf(title: Option<&str>, contents: &[String], deflate: bool, image: bool) -> Vec<u8> {
    let mut b = Builder::new();
    let catalog = b.reserve();
    let pages = b.reserve();
    let font =
        b.add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>");
    let im = image.then(|| {
        b.stream(
            "/Type /XObject /Subtype /Image /Width 2 /Height 2 /ColorSpace /DeviceGray /BitsPerComponent 8",
            &[0, 255, 255, 0],
            false,
        )
    });
    let mut kids = Vec::new();
    for content in contents {
        let c = b.stream("", content.as_bytes(), deflate);
        let xobject = im
            .map(|i| format!(" /XObject << /Im1 {i} 0 R >>"))
            .unwrap_or_default();
        let page = b.add(format!(
            "<< /Type /Page /Parent {pages} 0 R /MediaBox [0 0 612 792] /Contents {c} 0 R \
             /Resources << /Font << /F1 {font} 0 R >>{xobject} >> >>"
        ));
        kids.push(format!("{page} 0 R"));
    }
    b.set(catalog, format!("<< /Type /Catalog /Pages {pages} 0 R >>"));
    b.set(
        pages,
        format!(
            "<< /Type /Pages /Kids [{}] /Count {} >>",
            kids.join(" "),
            kids.len()
        ),
    );
    let info = title.map(|t| b.add(format!("<< /Title {} /Author (A. Writer) >>", literal(t))));
    b.finish(catalog, info)
}

/// A scan: every page draws an image and nothing else.
pub fn image_only_pdf(pages: usize) -> Vec<u8> {
    let contents = vec!["q 612 0 0 792 0 0 cm /Im1 Do Q\n".to_string(); pages];
    pages_pdf(Some("Scanned"), &contents, true, true)
}

/// A one-page text PDF (title `Locked`) that opens only with the user password `secret`
/// (owner password `owner`).
pub fn encrypted_pdf() -> Vec<u8> {
    use lopdf::{Document, EncryptionState, EncryptionVersion, Permissions};
    let plain = text_pdf(
        "Locked",
        &[&["The secret minutes of the harbour board."]],
        Layout::Lines,
        false,
    );
    let mut doc = Document::load_mem(&plain).unwrap();
    let state = EncryptionState::try_from(EncryptionVersion::V2 {
        document: &doc,
        owner_password: "owner",
        user_password: "secret",
        key_length: 128,
        permissions: Permissions::all(),
    })
    .unwrap();
    doc.encrypt(&state).unwrap();
    let mut out = Vec::new();
    doc.save_to(&mut out).unwrap();
    out
}

/// One page whose content stream inflates to `inflated` bytes of spaces from a few KiB.
pub fn bomb_pdf(inflated: usize) -> Vec<u8> {
    let mut content = b"BT /F1 12 Tf 72 720 Td (before the padding) Tj ET\n".to_vec();
    content.resize(inflated, b' ');
    let mut b = Builder::new();
    let catalog = b.reserve();
    let pages = b.reserve();
    let font = b.add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>");
    let c = b.stream("", &content, true);
    let page = b.add(format!(
        "<< /Type /Page /Parent {pages} 0 R /MediaBox [0 0 612 792] /Contents {c} 0 R \
         /Resources << /Font << /F1 {font} 0 R >> >> >>"
    ));
    b.set(catalog, format!("<< /Type /Catalog /Pages {pages} 0 R >>"));
    b.set(
        pages,
        format!("<< /Type /Pages /Kids [{page} 0 R] /Count 1 >>"),
    );
    b.finish(catalog, None)
}

/// A one-page PDF whose catalog also names an array of `n` zeros. When `objstm`, the array is
/// packed instead into a Flate-compressed object stream (the xref table lists that object
/// as `null`), so a reader meets the weight when it unpacks object streams.
pub fn heavy_pdf(n: usize, objstm: bool) -> Vec<u8> {
    let mut b = Builder::new();
    let catalog = b.reserve();
    let pages = b.reserve();
    let content = b.stream("", b"BT /F1 12 Tf 72 700 Td (light) Tj ET", false);
    let font = b.add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>");
    let page = b.add(format!(
        "<< /Type /Page /Parent {pages} 0 R /Contents {content} 0 R /Resources << /Font << /F1 {font} 0 R >> >> >>"
    ));
    let zeros = format!("[{}]", "0 ".repeat(n));
    let heavy = if objstm {
        let n_obj = b.reserve();
        let header = format!("{n_obj} 0 ");
        let data = format!("{header}{zeros}");
        let s = b.stream(
            &format!("/Type /ObjStm /N 1 /First {}", header.len()),
            data.as_bytes(),
            true,
        );
        b.set(n_obj, "null");
        let _ = s;
        n_obj
    } else {
        b.add(zeros)
    };
    b.set(
        catalog,
        format!("<< /Type /Catalog /Pages {pages} 0 R /Heavy {heavy} 0 R >>"),
    );
    b.set(
        pages,
        format!("<< /Type /Pages /Kids [{page} 0 R] /Count 1 >>"),
    );
    b.finish(catalog, None)
}
