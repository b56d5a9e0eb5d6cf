//! `smolweb get`: print an outcome as readable text (links numbered) or raw bytes.

use super::outcome_code;
use anyhow::Result;
use smolweb::client::Outcome;
use smolweb::core::gemtext::{Document, LineKind};
use smolweb::core::gopher::MenuItem;
use smolweb::core::page::{Content, Page};
use std::io::Write;

/// Print the outcome; returns the exit code for its class.
pub fn print_outcome(outcome: &Outcome, offset: usize, raw: bool) -> Result<u8> {
    match outcome {
        Outcome::Page { fetched, .. } => {
            let page = &fetched.page;
            let mut out = std::io::stdout().lock();
            if raw {
                out.write_all(&page.raw)?;
            } else {
                out.write_all(render_page(page, offset).as_bytes())?;
            }
            out.flush()?;
        }
        Outcome::Input {
            prompt, sensitive, ..
        } => {
            let kind = if *sensitive {
                "sensitive input"
            } else {
                "input"
            };
            eprintln!("smolweb: the capsule asks for {kind}: {}", one_line(prompt));
            eprintln!("answer with: smolweb get URL --input TEXT");
        }
        Outcome::Redirect {
            target, permanent, ..
        } => {
            let how = if *permanent { "permanent" } else { "temporary" };
            eprintln!("smolweb: {how} redirect to {target} (not followed: another host or scheme)");
        }
        Outcome::Certificate {
            status, message, ..
        } => {
            let what = match status {
                60 => "a client certificate is required",
                61 => "the client certificate is not authorised",
                _ => "the client certificate is not valid",
            };
            eprintln!("smolweb: {what} ({status}): {}", one_line(message));
            if *status == 60 {
                eprintln!("create one with: smolweb identity create URL");
            }
        }
        Outcome::Failure { status, meta, .. } => {
            eprintln!("smolweb: the capsule answered {status}: {}", one_line(meta));
        }
        Outcome::Error { error, .. } => {
            eprintln!("smolweb: {} ({})", error, error.code());
        }
    }
    Ok(outcome_code(outcome))
}

/// Capsule text on one line, control characters removed (it is untrusted).
fn one_line(s: &str) -> String {
    s.chars().filter(|c| !c.is_control()).collect()
}

/// Render a page as plain text with numbered links, starting at a char offset.
pub fn render_page(page: &Page, offset: usize) -> String {
    match &page.content {
        Content::Gemtext(doc) if offset == 0 => render_gemtext(doc),
        Content::Gemtext(_) | Content::Text => {
            let text = page.body.text();
            let start = page.body.byte_at(offset);
            text.get(start..).unwrap_or("").to_string()
        }
        Content::Menu(items) => render_menu(items.get(offset..).unwrap_or(&[])),
        Content::Binary => format!(
            "[{} bytes of {}; use --raw to write them]\n",
            page.size(),
            page.mime.essence()
        ),
    }
}

fn render_gemtext(doc: &Document) -> String {
    let mut out = String::new();
    let mut n = 0;
    for line in &doc.lines {
        match (line.kind, &line.link) {
            (LineKind::Link, Some(link)) => {
                n += 1;
                let label = link.text.as_deref().unwrap_or(&link.url);
                if link.text.is_some() {
                    out.push_str(&format!("[{n}] {label} <{}>\n", link.url));
                } else {
                    out.push_str(&format!("[{n}] {label}\n"));
                }
            }
            (LineKind::List, _) => {
                out.push_str("• ");
                out.push_str(line.text.as_deref().unwrap_or(""));
                out.push('\n');
            }
            _ => {
                out.push_str(&line.content);
                out.push('\n');
            }
        }
    }
    out
}

fn render_menu(items: &[MenuItem]) -> String {
    let mut out = String::new();
    let mut n = 0;
    for item in items {
        if item.is_info() || item.next_url.is_empty() {
            out.push_str(&format!("     {}\n", item.title));
        } else {
            n += 1;
            let kind = smolweb::core::gopher::type_name(item.item_type);
            out.push_str(&format!(
                "[{n}] {} ({kind}) <{}>\n",
                item.title, item.next_url
            ));
        }
    }
    out
}
