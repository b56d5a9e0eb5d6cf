//! Peak memory of PDF text extraction: the growth of the process's peak resident set (VmHWM,
//! Linux) over its level before each case, for a generated 5 MB text PDF (uncompressed, so
//! the file is as large as the body cap of `fetch_url`) and for hostile files of the same
//! class: a compression bomb and an object too heavy to hold (refused). Prints the figures
//! as multiples of the file size; run with `cargo bench --bench pdf_memory`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

#[allow(dead_code)]
#[path = "../tests/support/pdf.rs"]
mod pdf;

use smolweb::core::pdf::{PdfLimits, extract};

/// VmHWM (peak resident set) in bytes.
fn peak_rss() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

fn measure(name: &str, file: &[u8]) {
    let before = peak_rss().unwrap_or(0);
    let read = extract(file, &PdfLimits::for_body(file.len()), &|| true);
    let after = peak_rss().unwrap_or(0);
    let growth = after.saturating_sub(before);
    let outcome = match &read {
        Ok(t) => format!("{} pages, {} bytes of text", t.pages, t.text.len()),
        Err(e) => format!("refused: {e}"),
    };
    println!(
        "pdf_memory: {name}: file {} bytes, {outcome}; peak RSS growth {} bytes = {:.1}x the file",
        file.len(),
        growth,
        growth as f64 / file.len().max(1) as f64
    );
}

fn main() {
    // Smallest first: the peak only grows, so each case must exceed the ones before it.
    let bomb = pdf::bomb_pdf(64 << 20);
    measure("compression bomb (64 MiB of content)", &bomb);
    let lines: Vec<String> = (0..50)
        .map(|i| {
            format!("Line {i}: the harbour fills slowly because the channel is long and narrow.")
        })
        .collect();
    let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
    let pages: Vec<&[&str]> = vec![&lines; 1200];
    let doc = pdf::text_pdf("Memory", &pages, pdf::Layout::Kerned, false);
    measure("text, 1200 pages", &doc);
}
