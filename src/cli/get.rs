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
pub(super) fn print_outcome(
    outcome: &Outcome,
    offset: usize,
    raw: bool,
    width: Option<usize>,
) -> Result<u8> {
    match outcome {
        Outcome::Page { fetched, info } => {
            if let Some(tls) = &info.tls {
                tofu_note(tls, &info.host, info.port);
            }
            if !raw {
                reading_note(info);
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
                let mut sink = Sink::new(&mut out, width);
                write_page(&mut sink, page, offset)?;
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
            status,
            message,
            info,
        } => {
            let what = smolweb_client::certificate_words(*status, info.identity_sent());
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

/// Say on stderr what a converted web page is and how far to trust its main text ("article ·
/// quality 0.92"); under 0.5, that `--full` gives the whole page. Stdout stays the page.
fn reading_note(info: &smolweb_client::RequestInfo) {
    let Some((shown, reading)) = info.web.and_then(|w| Some((w, w.reading?))) else {
        return;
    };
    let said = reading.short();
    if shown.is_fallback() {
        eprintln!("smolweb: {said} (no main text found: the whole page follows)");
    } else if reading.is_poor() {
        eprintln!(
            "smolweb: {said}: the main text found is likely poor; --full gives the whole page"
        );
    } else {
        eprintln!("smolweb: {said}");
    }
}

/// Say on stderr what trust on first use did: a new host's certificate pinned (a note, with
/// its fingerprint to compare), an expired pin replaced or a pin not saved (warnings).
fn tofu_note(tls: &smolweb_net::TlsInfo, host: &str, port: u16) {
    use smolweb_net::TofuState;
    let Some(said) = tls.tofu_warning() else {
        return;
    };
    if tls.pin_warning.is_none() && tls.tofu == TofuState::FirstUse {
        eprintln!(
            "smolweb: first visit to {}:{port}: its certificate was pinned (trust on first use), {}",
            one_line(host, None),
            tls.cert_fingerprint
        );
    } else {
        eprintln!("smolweb: warning: {}", one_line(&said, None));
    }
}

/// Where `smolweb get` writes text: straight through, or wrapped to a width for a pipe that
/// wants short lines (`--width N`). Preformatted lines are never wrapped; a wrapped row after
/// the first takes the hanging indent of its line (list bullet, link number, quote mark); a
/// URL is never cut (a row of its own, longer than N when it must be).
pub(super) struct Sink<'a, W: Write> {
    out: &'a mut W,
    width: Option<usize>,
}

impl<'a, W: Write> Sink<'a, W> {
    pub(super) fn new(out: &'a mut W, width: Option<usize>) -> Self {
        Sink {
            out,
            width: width.filter(|&w| w > 0),
        }
    }

    /// One logical line: `first` before its first row, `rest` before each later one.
    fn line(&mut self, first: &str, rest: &str, text: &str) -> std::io::Result<()> {
        use smolweb_core::text::wrap::{display_width, wrap_keeping_urls};
        let Some(width) = self.width else {
            return writeln!(self.out, "{first}{text}");
        };
        let room = width.saturating_sub(display_width(first)).max(8);
        for (i, (a, b)) in wrap_keeping_urls(text, room).into_iter().enumerate() {
            let lead = if i == 0 { first } else { rest };
            writeln!(self.out, "{lead}{}", &text[a as usize..b as usize])?;
        }
        Ok(())
    }

    /// A line kept as it is (preformatted text, a fence).
    fn verbatim(&mut self, text: &str) -> std::io::Result<()> {
        writeln!(self.out, "{text}")
    }
}

/// Write a page as plain text with numbered links, starting at a char offset. Remote text is
/// passed through the core sanitizer. The page is streamed line by line from its body: no
/// whole-page string and no per-line document is built, so memory stays near the body size.
pub(super) fn write_page<W: Write>(
    out: &mut Sink<'_, W>,
    page: &Page,
    offset: usize,
) -> std::io::Result<()> {
    if let Some(meta) = page.document_meta.as_ref().filter(|_| offset == 0) {
        // Scroll's metadata lines, said as ours: "Author:" and the dates, sanitized.
        for (label, value) in [
            ("Author", &meta.author),
            ("Published", &meta.published),
            ("Modified", &meta.modified),
        ] {
            if let Some(v) = value {
                writeln!(out.out, "{label}: {}", sanitize_line(v))?;
            }
        }
        writeln!(out.out)?;
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
            out.out,
            "[{} bytes of {}; use --raw to write them]",
            page.size(),
            page.mime.essence()
        ),
    }
}

/// Text as it is, sanitized a line at a time (wrapped when a width is asked).
fn write_text<W: Write>(out: &mut Sink<'_, W>, text: &str) -> std::io::Result<()> {
    for line in text.split_inclusive('\n') {
        let clean = sanitize(line);
        if out.width.is_none() {
            out.out.write_all(clean.as_bytes())?;
        } else {
            out.line("", "", clean.trim_end_matches(['\n', '\r']))?;
        }
    }
    Ok(())
}

fn write_gemtext<W: Write>(out: &mut Sink<'_, W>, doc: &LazyDocument) -> std::io::Result<()> {
    let mut n = 0;
    let spartan = doc.base().scheme() == smolweb_core::url::Scheme::Spartan;
    for line in doc.views() {
        // On a Spartan page a `=:` line is a prompt: a link whose answer is the data block.
        let prompt = (spartan && line.kind == LineKind::Text)
            .then(|| smolweb_core::gemtext::spartan_prompt(line.content))
            .flatten()
            .and_then(|(target, label)| Some((doc.base().resolve(target).ok()?, label)));
        if let Some((url, label)) = prompt {
            n += 1;
            let url = sanitize_line(url.as_str());
            let label = if label.is_empty() {
                url.clone()
            } else {
                sanitize(label)
            };
            let first = format!("[{n}] ");
            let rest = " ".repeat(first.len());
            out.line(
                &first,
                &rest,
                &format!("{label} (asks for text: get --input TEXT) <{url}>"),
            )?;
            continue;
        }
        match (line.kind, line.link) {
            (LineKind::Link, Some((_, label))) => {
                let url = line.resolved_url(Some(doc.base())).unwrap_or_default();
                if let Some(scheme) = smolweb_core::url::refused_scheme(&url) {
                    // Not a destination: shown as text, unnumbered, its target not printed.
                    let label = sanitize_line(label.unwrap_or(&url));
                    out.line(
                        "    ",
                        "    ",
                        &format!("{label} ({scheme}: link not followed)"),
                    )?;
                    continue;
                }
                n += 1;
                let url = sanitize_line(&url);
                let first = format!("[{n}] ");
                let rest = " ".repeat(first.len());
                match label {
                    Some(label) => {
                        out.line(&first, &rest, &format!("{} <{url}>", sanitize(label)))?
                    }
                    None => out.line(&first, &rest, &url)?,
                }
            }
            (LineKind::List, _) => {
                out.line("• ", "  ", &sanitize(line.text.unwrap_or("")))?;
            }
            (LineKind::Quote, _) => {
                let text = sanitize(line.content);
                match text.strip_prefix('>') {
                    Some(body) => out.line(">", "> ", body)?,
                    None => out.line("", "", &text)?,
                }
            }
            (LineKind::Preformat, _) => out.verbatim(&sanitize(line.content))?,
            _ => out.line("", "", &sanitize(line.content))?,
        }
    }
    Ok(())
}

fn write_menu<W: Write>(
    out: &mut Sink<'_, W>,
    items: impl Iterator<Item = MenuItem>,
) -> std::io::Result<()> {
    let mut n = 0;
    for item in items {
        let title = sanitize(&item.title);
        if item.invalid_port {
            out.line(
                "     ",
                "     ",
                &format!("{title} (invalid port: not followed)"),
            )?;
        } else if let Some(scheme) = &item.refused_scheme {
            out.line(
                "     ",
                "     ",
                &format!("{title} ({scheme}: link not followed)"),
            )?;
        } else if item.is_info() || item.next_url.is_empty() {
            // Info lines are often drawn art: kept as they are.
            out.verbatim(&format!("     {title}"))?;
        } else {
            n += 1;
            let kind = smolweb_core::gopher::type_name(item.item_type);
            let url = sanitize_line(&item.next_url);
            let first = format!("[{n}] ");
            let rest = " ".repeat(first.len());
            out.line(&first, &rest, &format!("{title} ({kind}) <{url}>"))?;
        }
    }
    Ok(())
}
