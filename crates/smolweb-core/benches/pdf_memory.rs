//! Peak memory of PDF text extraction: the growth of the process's peak resident set (VmHWM,
//! Linux, reset before each case) over its level before the case, for generated text PDFs
//! (a 5 MB uncompressed one, as large as the body cap of `fetch_url`, and a compressed one of
//! 2000 pages) and for hostile files: a compression bomb and objects too heavy to hold (both
//! refused). Prints the figures; run with `cargo bench --bench pdf_memory`.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::print_stdout)]

use smolweb_testkit::pdf;

use smolweb_core::pdf::{PdfLimits, extract};

/// A line of /proc/self/status (VmHWM: the peak resident set, VmRSS: the current one), bytes.
fn status(key: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with(key))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// In this process: read the file, then measure the extraction's peak growth.
fn measure(name: &str, path: &std::path::Path) {
    let file = std::fs::read(path).unwrap();
    // Reset the peak to the current level (Linux: clear_refs 5).
    let _ = std::fs::write("/proc/self/clear_refs", "5");
    let before = status("VmRSS:").unwrap_or(0);
    let read = extract(&file, &PdfLimits::for_body(file.len()), &|| true);
    let after = status("VmHWM:").unwrap_or(0);
    let growth = after.saturating_sub(before);
    let outcome = match &read {
        Ok(t) => format!("{} pages, {} bytes of text", t.pages, t.text.len()),
        Err(e) => format!("refused ({e})"),
    };
    println!(
        "pdf_memory: {name}: file {} bytes, {outcome}; peak RSS growth {:.1} MiB ({:.1}x the file)",
        file.len(),
        growth as f64 / (1 << 20) as f64,
        growth as f64 / file.len().max(1) as f64
    );
}

fn main() {
    // A case runs in a process of its own (memory freed by one case would hide the next).
    if let (Ok(name), Ok(path)) = (
        std::env::var("PDF_MEMORY_CASE"),
        std::env::var("PDF_MEMORY_FILE"),
    ) {
        measure(&name, std::path::Path::new(&path));
        return;
    }
    let lines: Vec<String> = (0..50)
        .map(|i| {
            format!("Line {i}: the harbour fills slowly because the channel is long and narrow.")
        })
        .collect();
    let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
    let cases: Vec<(&str, Vec<u8>)> = vec![
        (
            "text, 560 pages, uncompressed",
            pdf::text_pdf("Memory", &vec![&lines[..]; 560], pdf::Layout::Kerned, false),
        ),
        (
            "text, 2000 pages, compressed",
            pdf::text_pdf("Memory", &vec![&lines[..]; 2000], pdf::Layout::Kerned, true),
        ),
        (
            "compression bomb (64 MiB of content)",
            pdf::bomb_pdf(64 << 20),
        ),
        (
            "one object of 400,000 numbers",
            pdf::heavy_pdf(400_000, false),
        ),
        (
            "an object stream of 400,000 numbers",
            pdf::heavy_pdf(400_000, true),
        ),
    ];
    let dir = std::env::temp_dir().join(format!("smolweb-pdf-memory-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let me = std::env::current_exe().unwrap();
    for (i, (name, bytes)) in cases.iter().enumerate() {
        let path = dir.join(format!("{i}.pdf"));
        std::fs::write(&path, bytes).unwrap();
        let status = std::process::Command::new(&me)
            .env("PDF_MEMORY_CASE", name)
            .env("PDF_MEMORY_FILE", &path)
            .status()
            .unwrap();
        assert!(status.success(), "{name}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
