//! `smolweb get`: print an outcome as readable text (links numbered) or raw bytes.

use super::outcome_code;
use anyhow::Result;
use smolweb_client::Outcome;
use smolweb_core::gemtext::LineKind;
use smolweb_core::gopher::MenuItem;
use smolweb_core::page::{Content, LazyDocument, Page};
use smolweb_core::text::{one_line, sanitize, sanitize_line};
use std::io::Write;

/// Print the outcome; returns the exit code for its class.
pub(super) fn print_outcome(outcome: &Outcome, offset: usize, raw: bool) -> Result<u8> {
    match outcome {
        Outcome::Page { fetched, info } => {
            if let Some(tls) = info.tls.as_ref().filter(|t| t.pin_warning.is_some()) {
                let warning = tls.tofu_warning().unwrap_or_default();
                eprintln!("smolweb: warning: {}", one_line(&warning, None));
            }
            let page = &fetched.page;
            if raw && !page.ending.is_clean() {
                // The bytes are likely to be kept as a file: say so before writing them.
                eprintln!("smolweb: warning: {}", page.ending.describe());
            }
            let mut out = std::io::BufWriter::with_capacity(64 * 1024, std::io::stdout().lock());
            if raw {
                out.write_all(&page.raw)?;
            } else {
                write_page(&mut out, page, offset)?;
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
            eprintln!(
                "smolweb: the capsule asks for {kind}: {}",
                one_line(prompt, None)
            );
            eprintln!("answer with: smolweb get URL --input TEXT");
        }
        Outcome::Redirect {
            target, permanent, ..
        } => {
            let how = if *permanent { "permanent" } else { "temporary" };
            eprintln!(
                "smolweb: {how} redirect to {} (not followed: another host or scheme)",
                one_line(&target.to_string(), None)
            );
        }
        Outcome::Certificate {
            status, message, ..
        } => {
            let what = match status {
                60 => "a client certificate is required",
                61 => "the client certificate is not authorised",
                _ => "the client certificate is not valid",
            };
            eprintln!("smolweb: {what} ({status}): {}", one_line(message, None));
            if *status == 60 {
                eprintln!("create one with: smolweb identity create URL");
            }
        }
        Outcome::Failure {
            info, status, meta, ..
        } => {
            let words = smolweb_client::web::failure_words(&info.url, *status, meta);
            eprintln!("smolweb: {}", one_line(&words, None));
        }
        Outcome::Error { error, .. } => {
            eprintln!(
                "smolweb: {} ({})",
                one_line(&error.to_string(), None),
                error.code()
            );
        }
    }
    Ok(outcome_code(outcome))
}

/// Write a page as plain text with numbered links, starting at a char offset. Remote text is
/// passed through the core sanitizer. The page is streamed line by line from its body: no
/// whole-page string and no per-line document is built, so memory stays near the body size.
pub(super) fn write_page(out: &mut impl Write, page: &Page, offset: usize) -> std::io::Result<()> {
    if let Some(meta) = page.document_meta.as_ref().filter(|_| offset == 0) {
        // Scroll's metadata lines, said as ours: "Author:" and the dates, sanitized.
        for (label, value) in [
            ("Author", &meta.author),
            ("Published", &meta.published),
            ("Modified", &meta.modified),
        ] {
            if let Some(v) = value {
                writeln!(out, "{label}: {}", sanitize_line(v))?;
            }
        }
        writeln!(out)?;
    }
    match &page.content {
        Content::Gemtext(doc) if offset == 0 => write_gemtext(out, doc),
        Content::Gemtext(_) | Content::Text => {
            let text = page.body.text();
            let start = page.body.byte_at(offset);
            write_text(out, text.get(start..).unwrap_or(""))
        }
        Content::Menu(menu) => write_menu(out, menu.stream().skip(offset)),
        Content::Binary => writeln!(
            out,
            "[{} bytes of {}; use --raw to write them]",
            page.size(),
            page.mime.essence()
        ),
    }
}

/// Text as it is, sanitized a line at a time.
fn write_text(out: &mut impl Write, text: &str) -> std::io::Result<()> {
    for line in text.split_inclusive('\n') {
        out.write_all(sanitize(line).as_bytes())?;
    }
    Ok(())
}

fn write_gemtext(out: &mut impl Write, doc: &LazyDocument) -> std::io::Result<()> {
    let mut n = 0;
    for line in doc.views() {
        match (line.kind, line.link) {
            (LineKind::Link, Some((_, label))) => {
                let url = line.resolved_url(Some(doc.base())).unwrap_or_default();
                if let Some(scheme) = smolweb_core::url::refused_scheme(&url) {
                    // Not a destination: shown as text, unnumbered, its target not printed.
                    let label = sanitize_line(label.unwrap_or(&url));
                    writeln!(out, "    {label} ({scheme}: link not followed)")?;
                    continue;
                }
                n += 1;
                let url = sanitize_line(&url);
                match label {
                    Some(label) => writeln!(out, "[{n}] {} <{url}>", sanitize(label))?,
                    None => writeln!(out, "[{n}] {url}")?,
                }
            }
            (LineKind::List, _) => {
                writeln!(out, "• {}", sanitize(line.text.unwrap_or("")))?;
            }
            _ => writeln!(out, "{}", sanitize(line.content))?,
        }
    }
    Ok(())
}

fn write_menu(out: &mut impl Write, items: impl Iterator<Item = MenuItem>) -> std::io::Result<()> {
    let mut n = 0;
    for item in items {
        let title = sanitize(&item.title);
        if item.invalid_port {
            writeln!(out, "     {title} (invalid port: not followed)")?;
        } else if let Some(scheme) = &item.refused_scheme {
            writeln!(out, "     {title} ({scheme}: link not followed)")?;
        } else if item.is_info() || item.next_url.is_empty() {
            writeln!(out, "     {title}")?;
        } else {
            n += 1;
            let kind = smolweb_core::gopher::type_name(item.item_type);
            let url = sanitize_line(&item.next_url);
            writeln!(out, "[{n}] {title} ({kind}) <{url}>")?;
        }
    }
    Ok(())
}
