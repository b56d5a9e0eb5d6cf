//! The loopback servers of the MCP benchmark (`benches/mcp_sdk_bench.py`), as a process of its
//! own: a Gemini server (TLS, a fresh self-signed certificate) and a Gopher server on
//! 127.0.0.1 with ephemeral ports, serving the pages the benchmark's cases read. Prints one
//! JSON line with their base URLs on stdout, then serves until stdin closes.
//!
//! Gemini: `/small` (a 2 KB gemtext page), `/big` (a 2 MiB gemtext page: prose, links,
//! headings, list items, quotes and a preformatted block every 500 lines), `/page/...` (a
//! short page per path: batches and warm-ups). Gopher: `/small` (a 20-item menu), `/big` (a
//! 5,053-item menu), any other selector a short text.

// The one line of output is this program's answer to the script that started it.
#![allow(clippy::print_stdout)]

use smolweb_testkit::{gemini, gopher};
use tokio::io::AsyncReadExt;

/// The size of the big gemtext page, in bytes (all ASCII, so also its chars).
const BIG_PAGE: usize = 2 * 1024 * 1024;
/// Items in the big menu.
const BIG_MENU: usize = 5053;

fn small_page() -> String {
    let mut page = String::from("# A small capsule\n\nSome words about the capsule.\n\n");
    let mut i = 0;
    while page.len() < 2000 {
        page.push_str(&format!("=> /post/{i} Post number {i}: a short title\n"));
        page.push_str("A line of ordinary text between the links of this page.\n");
        if i % 4 == 0 {
            page.push_str(&format!("## Section {i}\n* a list item\n> a quote\n"));
        }
        i += 1;
    }
    page
}

fn big_page() -> String {
    let mut page = String::with_capacity(BIG_PAGE + 256);
    page.push_str("# A long page\n\n");
    let mut i = 0usize;
    while page.len() < BIG_PAGE {
        match i % 10 {
            0 => page.push_str(&format!("## Part {i}\n")),
            3 => page.push_str(&format!(
                "=> /page/{i} A link to page {i} of the long page\n"
            )),
            5 => page.push_str("* an item of a list, with a few words in it\n"),
            7 => page.push_str("> a quoted line that someone wrote a while ago\n"),
            _ => page.push_str(&format!(
                "Line {i}: ordinary prose that fills a long page, sentence after sentence.\n"
            )),
        }
        if i % 500 == 250 {
            page.push_str("```text\npreformatted\n  text\n```\n");
        }
        i += 1;
    }
    page.truncate(BIG_PAGE);
    page
}

fn menu(count: usize) -> gopher::Reply {
    let items: Vec<(String, String, String)> = (0..count)
        .map(|i| {
            let t = if i % 7 == 0 { "1" } else { "0" };
            (
                t.to_string(),
                format!("Item {i}: a title of moderate length"),
                format!("/item/{i}"),
            )
        })
        .collect();
    let refs: Vec<(&str, &str, &str)> = items
        .iter()
        .map(|(t, d, s)| (t.as_str(), d.as_str(), s.as_str()))
        .collect();
    gopher::Reply::menu(&refs)
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let gem = gemini::Server::start(
        gemini::Routes::new()
            .route("/small", gemini::Reply::gemtext(&small_page()))
            .route("/big", gemini::Reply::gemtext(&big_page()))
            .handler(|req| gemini::Reply::gemtext(&format!("# {}\nsome text\n", req.path))),
    )
    .await;
    let hole = gopher::Server::start(
        gopher::Routes::new()
            .route("/small", menu(20))
            .route("/big", menu(BIG_MENU))
            .handler(|req| gopher::Reply::text(&format!("{}\r\nsome text\r\n.\r\n", req.selector))),
    )
    .await;
    println!(
        "{{\"gemini\": \"gemini://127.0.0.1:{}\", \"gopher\": \"gopher://127.0.0.1:{}\"}}",
        gem.port(),
        hole.port()
    );
    // Serve until whoever started us closes our stdin (or goes away).
    let mut sink = Vec::new();
    let _ = tokio::io::stdin().read_to_end(&mut sink).await;
}
