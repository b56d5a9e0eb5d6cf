//! The one text block per result: a compact rendering for a model, not a JSON copy.
//!
//! Shape: a one-line header (kind, URL without query, window position, cache age), then the
//! window's text — gemtext with links resolved and numbered `[n]`, menus as numbered items,
//! plain text as is. Numbers of menu items count from the menu start, so they stay stable
//! across windows; gemtext link numbers match the order of `document.links` in this window.

use super::results::*;
use std::fmt::Write;

fn url_of(info: &RequestInfoOut) -> &str {
    info.url.as_deref().unwrap_or("(no URL)")
}

fn cache_note(c: &CacheMeta) -> String {
    match (c.cached, c.cache_age_seconds) {
        (true, Some(age)) => format!(" · cached {}s ago", age.round() as u64),
        (true, None) => " · cached".into(),
        _ => String::new(),
    }
}

/// Said in the header when the body's end was not confirmed (`request_info.ended_cleanly`).
fn ending_note(info: &RequestInfoOut) -> &'static str {
    if info.ended_cleanly == Some(false) {
        " · end not confirmed (no TLS close_notify or menu terminator): may be incomplete"
    } else {
        ""
    }
}

fn position(unit: &str, offset: u64, next: Option<u64>, total: u64) -> String {
    if offset > 0 && offset >= total {
        return format!(" · offset {offset} is past the end ({total} {unit})");
    }
    let end = next.unwrap_or(total);
    let more = match next {
        Some(n) => format!(" · next offset {n}"),
        None => " · end".into(),
    };
    format!(" · {unit} {offset}-{end} of {total}{more}")
}

/// `[n] label <url>` (or `[n] <url>` without a label).
fn numbered_link(out: &mut String, n: usize, l: &LinkOut) {
    let _ = match l.text.filter(|t| !t.is_empty()) {
        Some(t) => writeln!(out, "[{n}] {t} <{}>", l.url),
        None => writeln!(out, "[{n}] <{}>", l.url),
    };
}

fn gemtext(out: &mut String, g: &GemtextOut, offset: u64) {
    let _ = writeln!(
        out,
        "gemtext {}{}{}{}{}",
        url_of(&g.request_info),
        position("chars", offset, g.window.next_offset, g.window.total_chars),
        if g.partial_line {
            " · partial line"
        } else {
            ""
        },
        cache_note(&g.cache),
        ending_note(&g.request_info)
    );
    hints_line(out, &g.hints);
    let mut n = 0;
    for line in g.document.line_outs() {
        match &line.link {
            Some(link) if link.refused_scheme.is_none() => {
                n += 1;
                numbered_link(out, n, link);
            }
            Some(link) => {
                let scheme = link.refused_scheme.as_deref().unwrap_or_default();
                let _ = writeln!(
                    out,
                    "{} (refused {scheme}: link, not followed)",
                    line.content
                );
            }
            None => {
                out.push_str(line.content);
                out.push('\n');
            }
        }
    }
}

/// One line naming the hints, when there are any.
fn hints_line(out: &mut String, hints: &[TextHint]) {
    if hints.is_empty() {
        return;
    }
    let names: Vec<&str> = hints.iter().map(|h| h.as_str()).collect();
    let _ = writeln!(out, "hints: {} (the text is as sent)", names.join(", "));
}

fn menu(out: &mut String, m: &MenuOut, offset: u64) {
    let _ = writeln!(
        out,
        "menu {}{}{}{}",
        url_of(&m.request_info),
        position("items", offset, m.next_offset, m.total_items),
        cache_note(&m.cache),
        ending_note(&m.request_info)
    );
    hints_line(out, &m.hints);
    for (i, item) in m.items.items().iter().enumerate() {
        if let Some(scheme) = &item.refused_scheme {
            let _ = writeln!(
                out,
                "    {} (refused {scheme}: link, not followed)",
                item.title
            );
        } else if item.item_type == 'i' || item.next_url.is_empty() {
            let _ = writeln!(out, "    {}", item.title);
        } else {
            let n = offset + i as u64 + 1;
            let _ = writeln!(
                out,
                "[{n}] ({}) {} <{}>",
                smolweb_core::gopher::type_name(item.item_type),
                item.title,
                item.next_url
            );
        }
    }
}

fn error(out: &mut String, e: &ErrorOut) {
    let b = &e.error;
    let retry = if b.retryable {
        "retryable"
    } else {
        "not retryable"
    };
    let _ = writeln!(
        out,
        "error {} {} · {retry}\n{}",
        b.code,
        url_of(&e.request_info),
        b.message
    );
    if let Some(meta) = b.meta.as_deref().filter(|m| !m.is_empty()) {
        let _ = writeln!(out, "capsule says (untrusted): {meta}");
    }
    if let Some(s) = b.retry_after_seconds {
        let _ = writeln!(out, "retry after {s} s");
    }
}

fn gemini(out: &mut String, r: &GeminiResult, offset: u64) {
    match r {
        GeminiResult::Gemtext(g) => gemtext(out, g, offset),
        GeminiResult::Success(s) => {
            let _ = writeln!(
                out,
                "success {}/{} {}{}{}{}",
                s.mime_type.mime_type,
                s.mime_type.subtype,
                url_of(&s.request_info),
                position("chars", offset, s.window.next_offset, s.window.total_chars),
                cache_note(&s.cache),
                ending_note(&s.request_info)
            );
            hints_line(out, &s.hints);
            out.push_str(&s.content);
        }
        GeminiResult::Binary(b) => {
            let (url, end) = (url_of(&b.request_info), ending_note(&b.request_info));
            let _ = writeln!(out, "binary {url}{end}\n{}", b.note);
        }
        GeminiResult::Input(i) => {
            let kind = if i.sensitive {
                "sensitive input (11)"
            } else {
                "input (10)"
            };
            let _ = writeln!(
                out,
                "{kind} {}\ncapsule prompt (untrusted): {}\nAnswer with gemini_fetch(url, input=...){}",
                url_of(&i.request_info),
                i.prompt,
                if i.sensitive {
                    ", or ask_user=true so the user types it"
                } else {
                    ""
                }
            );
        }
        GeminiResult::Redirect(r) => {
            let _ = writeln!(
                out,
                "redirect ({}) {} -> {}{}",
                if r.permanent {
                    "permanent"
                } else {
                    "temporary"
                },
                url_of(&r.request_info),
                r.new_url,
                if r.cross_host { " · cross-host" } else { "" }
            );
        }
        GeminiResult::Certificate(c) => {
            let _ = writeln!(
                out,
                "certificate {} {}\ncapsule says (untrusted): {}\nnext step: {}",
                c.status,
                url_of(&c.request_info),
                c.message,
                c.next_step
            );
        }
        GeminiResult::Error(e) => error(out, e),
    }
}

fn gopher(out: &mut String, r: &GopherResult, offset: u64) {
    match r {
        GopherResult::Menu(m) => menu(out, m, offset),
        GopherResult::Text(t) => {
            let _ = writeln!(
                out,
                "text {}{}{}{}",
                url_of(&t.request_info),
                position("chars", offset, t.window.next_offset, t.window.total_chars),
                cache_note(&t.cache),
                ending_note(&t.request_info)
            );
            hints_line(out, &t.hints);
            out.push_str(&t.text);
        }
        GopherResult::Binary(b) => {
            let (url, end) = (url_of(&b.request_info), ending_note(&b.request_info));
            let _ = writeln!(out, "binary {url}{end}\n{}", b.note);
        }
        GopherResult::Error(e) => error(out, e),
    }
}

/// Render one fetch result; `offset` is the window start that was asked for.
pub(crate) fn fetch(r: &FetchResult, offset: u64) -> String {
    let mut out = String::new();
    match r {
        FetchResult::Gemini(g) => gemini(&mut out, g, offset),
        FetchResult::Gopher(g) => gopher(&mut out, g, offset),
    }
    out
}

/// Render an error of a store tool.
pub(crate) fn store_error(e: &ErrorOut) -> String {
    let mut out = String::new();
    error(&mut out, e);
    out
}

/// The lines of a change that waits for the person's approval.
pub(crate) fn pending_lines(out: &mut String, id: Option<&str>, next: Option<&str>) {
    if let Some(id) = id {
        let _ = writeln!(out, "pending approval {id}");
    }
    if let Some(n) = next {
        let _ = writeln!(out, "next step: {n}");
    }
}
