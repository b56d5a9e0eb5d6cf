//! Peak memory while converting a generated 5 MB article page (main content): the growth of
//! the process's peak resident set (VmHWM, Linux) over its level before the conversion, as a
//! multiple of the page size. Target: <= 10x. Prints the figure; run with
//! `cargo bench --bench web_memory`.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::print_stdout)]

#[path = "support/web_page.rs"]
mod web_page;

use smolweb_core::html::{Extract, convert_html};

/// VmHWM (peak resident set) in bytes.
fn peak_rss() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

fn main() {
    // `cargo bench` passes flags such as `--bench`; they are not ours.
    let page = web_page::article(5 * 1024 * 1024);
    let before = peak_rss().unwrap_or(0);
    let converted = convert_html(&page, "https://bench.example/a", Extract::Main);
    let after = peak_rss().unwrap_or(0);
    let growth = after.saturating_sub(before);
    println!(
        "web_memory: page {} bytes, markdown {} bytes ({}), peak RSS growth {} bytes = {:.1}x the page",
        page.len(),
        converted.markdown.len(),
        converted.extraction.as_str(),
        growth,
        growth as f64 / page.len() as f64
    );
}
