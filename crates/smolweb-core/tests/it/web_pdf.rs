//! PDF text extraction (`core::pdf`) on PDFs the tests write (tests/support/pdf.rs): page
//! markers and layouts, the document's title, and the refusals and limits: encrypted,
//! image-only, a compression bomb, objects too heavy to hold, a page too large, the text cap,
//! stopping on request, and damaged files (never a panic).

use smolweb_testkit as support;

use smolweb_core::pdf::{PdfError, PdfLimits, PdfText, extract};
use support::pdf::*;

fn read(bytes: &[u8]) -> Result<PdfText, PdfError> {
    extract(bytes, &PdfLimits::for_body(bytes.len()), &|| true)
}

const PAGE1: &[&str] = &["The harbour fills slowly.", "Boats wait outside."];
const PAGE2: &[&str] = &["Second page here."];
const TEXT: &str = "--- page 1 of 2 ---\n\nThe harbour fills slowly.\nBoats wait outside.\n\n--- page 2 of 2 ---\n\nSecond page here.\n";

#[test]
fn every_layout_reads_as_the_same_lines_under_page_markers() {
    for layout in [Layout::Lines, Layout::Words, Layout::Kerned] {
        for deflate in [false, true] {
            let pdf = text_pdf("Tides", &[PAGE1, PAGE2], layout, deflate);
            let t = read(&pdf).unwrap();
            assert_eq!(t.text, TEXT, "{layout:?} deflate={deflate}");
            assert_eq!(t.pages, 2);
            assert_eq!(t.title.as_deref(), Some("Tides"));
            assert_eq!(t.author.as_deref(), Some("A. Writer"));
            assert!(!t.truncated);
        }
    }
}

#[test]
fn encrypted_and_image_only_pdfs_say_why_they_give_no_text() {
    assert_eq!(read(&encrypted_pdf()), Err(PdfError::Encrypted));
    assert_eq!(
        read(&image_only_pdf(3)),
        Err(PdfError::ImageOnly { pages: 3 })
    );
    assert_eq!(
        PdfError::ImageOnly { pages: 1 }.to_string(),
        "it has no text layer, only images on its 1 page (a scan would need OCR, which smolweb does not do)"
    );
    let blank = pages_pdf(None, &["0 0 m 10 10 l S\n".to_string()], false, false);
    assert_eq!(read(&blank), Err(PdfError::NoText { pages: 1 }));
}

#[test]
fn a_compression_bomb_stops_at_the_content_limit() {
    // 64 MiB of content from a few dozen KiB: over the page limit, refused as too large.
    let pdf = bomb_pdf(64 << 20);
    assert!(pdf.len() < 200_000, "{}", pdf.len());
    assert!(
        matches!(read(&pdf), Err(PdfError::TooLarge(_))),
        "{:?}",
        read(&pdf)
    );
    // A page over its limit beside readable pages: noted, the others read.
    let mut b = Builder::new();
    let catalog = b.reserve();
    let pages = b.reserve();
    let font = b.add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>");
    let mut big = b"BT /F1 12 Tf 72 700 Td (hidden) Tj ET\n".to_vec();
    big.resize(8 << 20, b' ');
    let big = b.stream("", &big, true);
    let small = b.stream("", b"BT /F1 12 Tf 72 700 Td (readable) Tj ET", false);
    let mut kids = Vec::new();
    for c in [big, small] {
        kids.push(b.add(format!(
            "<< /Type /Page /Parent {pages} 0 R /Contents {c} 0 R /Resources << /Font << /F1 {font} 0 R >> >> >>"
        )));
    }
    b.set(catalog, format!("<< /Type /Catalog /Pages {pages} 0 R >>"));
    b.set(
        pages,
        format!(
            "<< /Type /Pages /Kids [{} 0 R {} 0 R] /Count 2 >>",
            kids[0], kids[1]
        ),
    );
    let t = read(&b.finish(catalog, None)).unwrap();
    assert_eq!(
        t.text,
        "--- page 1 of 2 ---\n\n(this page's content is too large to read within smolweb's limits)\n\n--- page 2 of 2 ---\n\nreadable\n"
    );
}

#[test]
fn objects_too_heavy_to_hold_are_refused() {
    // Half a million numbers weigh some 60 MB in memory: past the limit for a small file.
    for objstm in [false, true] {
        let pdf = heavy_pdf(400_000, objstm);
        assert!(
            matches!(read(&pdf), Err(PdfError::TooLarge(_))),
            "objstm={objstm}: {:?}",
            read(&pdf).map(|t| t.text)
        );
        // A light one of the same shape reads.
        let t = read(&heavy_pdf(1000, objstm)).unwrap();
        assert!(t.text.contains("light"), "{}", t.text);
    }
    // An object stream that inflates past the per-stream limit is refused too.
    let pdf = heavy_pdf(2 << 20, true);
    assert!(matches!(read(&pdf), Err(PdfError::TooLarge(_))));
}

#[test]
fn the_text_stops_at_its_cap_and_the_reader_stops_when_asked() {
    let lines: Vec<String> = (0..40)
        .map(|i| format!("line number {i} of the page"))
        .collect();
    let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
    let pages: Vec<&[&str]> = vec![&lines; 30];
    let pdf = text_pdf("Long", &pages, Layout::Lines, true);
    let mut limits = PdfLimits::for_body(pdf.len());
    limits.max_text_bytes = 4000;
    let t = extract(&pdf, &limits, &|| true).unwrap();
    assert!(t.truncated);
    assert!(t.text.len() <= 4001, "{}", t.text.len());
    assert!(t.text.starts_with("--- page 1 of 30 ---"));
    let full = read(&pdf).unwrap();
    assert!(!full.truncated && full.text.contains("--- page 30 of 30 ---"));
    assert_eq!(
        extract(&pdf, &limits, &|| false),
        Err(PdfError::Stopped),
        "asked before the first page"
    );
}

#[test]
fn damaged_files_are_errors_or_partial_text_never_a_panic() {
    let pdf = text_pdf("Tides", &[PAGE1, PAGE2], Layout::Kerned, true);
    // Cut anywhere.
    for cut in (0..pdf.len()).step_by(7) {
        let _ = read(&pdf[..cut]);
    }
    // Bytes flipped anywhere (a deterministic walk).
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    for _ in 0..1500 {
        let mut bad = pdf.clone();
        for _ in 0..4 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let at = (seed % bad.len() as u64) as usize;
            bad[at] = (seed >> 32) as u8;
        }
        let _ = read(&bad);
    }
}

#[test]
fn a_pdf_cut_short_gives_the_pages_it_still_has() {
    // Cut two thirds in: no cross-reference table, the last page's objects gone.
    let pages: Vec<&[&str]> = vec![PAGE1; 6];
    let pdf = text_pdf("Cut", &pages, Layout::Lines, false);
    let t = read(&pdf[..pdf.len() * 2 / 3]).unwrap();
    let page =
        |n| format!("--- page {n} of 6 ---\n\nThe harbour fills slowly.\nBoats wait outside.\n\n");
    let want: String =
        (1..=5).map(page).collect::<String>() + "--- page 6 of 6 ---\n\n(no text on this page)\n";
    assert_eq!(t.text, want);
}
