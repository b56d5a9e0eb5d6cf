//! Painting the state. Pure: reads the [`App`] (its laid-out [`Screen::frame`](crate::app::Screen::frame)) and draws into a
//! ratatui frame; never changes anything. Screen: tab bar (top row), page, status line or
//! prompt (bottom row); popups over the page. Pictures are painted by a
//! [`Painter`](crate::picture::Painter) the shell lends [`draw_with`] (it keeps their encoded
//! form between frames; the app is still only read), under the popups.

use crate::app::{App, FrameRow, Popup, Slot, View, tab_labels, truncate_cells};
use crate::keymap::Action;
use crate::layout::{Doc, Kind, display_width, each_shown, sanitize};
use crate::picture::Painter;
use crate::theme::Theme;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};
use unicode_width::UnicodeWidthChar;

const SPINNER: &[char] = &['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/// Draw everything (no pictures: see [`draw_with`]).
pub fn draw(f: &mut Frame, app: &App) {
    draw_with(f, app, None);
}

/// Draw everything, the pictures with `painter` (under the popups).
pub fn draw_with(f: &mut Frame, app: &App, painter: Option<&mut Painter>) {
    let area = f.area();
    if area.height < 3 || area.width < 10 {
        f.render_widget(Paragraph::new("window too small"), area);
        return;
    }
    let tabs = Rect::new(area.x, area.y, area.width, 1);
    let page = Rect::new(area.x, area.y + 1, area.width, area.height - 2);
    let bottom = Rect::new(area.x, area.y + area.height - 1, area.width, 1);
    draw_tabs(f, app, tabs);
    match app.current().map(|e| &e.view) {
        Some(View::Identities { selected }) => draw_identities(f, app, page, *selected),
        Some(View::Doc(_)) => {
            draw_page(f, app, page);
            if let Some(painter) = painter {
                paint_pictures(f, app, page, painter);
            }
        }
        Some(View::Unloaded { .. }) | None => {}
    }
    draw_bottom(f, app, bottom);
    draw_popups(f, app, page);
}

fn draw_tabs(f: &mut Frame, app: &App, area: Rect) {
    let t = app.theme();
    let mut spans = Vec::new();
    for (i, label) in tab_labels(app).into_iter().enumerate() {
        let style = if i == app.tabs().active {
            t.tab_active
        } else {
            t.tab_bar
        };
        spans.push(Span::styled(label, style));
        spans.push(Span::raw(" "));
    }
    f.render_widget(Paragraph::new(Line::from(spans)).style(t.tab_bar), area);
}

fn draw_page(f: &mut Frame, app: &App, area: Rect) {
    let Some(dv) = app.doc_view() else {
        return;
    };
    let (_, margin) = app.screen().text_column();
    for (y, row) in app.screen().frame().iter().enumerate() {
        let y = area.y + y as u16;
        if y >= area.y + area.height {
            break;
        }
        let x = area.x + margin as u16;
        let width = area.width.saturating_sub(margin as u16);
        let selected = row.link.is_some() && row.link == dv.selected;
        if let Some((link, 0)) = row.picture {
            // The first row of an inline picture: what is there until the picture is.
            let said = match dv.doc.link_url(link).and_then(|u| app.picture(u)) {
                Some(Slot::Loading) => Some("[loading the picture…]".to_string()),
                Some(Slot::Failed(why)) => Some(format!("[picture not shown: {why}]")),
                _ => None,
            };
            if let Some(said) = said {
                let width = area.width.saturating_sub(margin as u16);
                let text = Span::styled(truncate_cells(&said, width.into()), app.theme().alt_text);
                f.render_widget(
                    Paragraph::new(Line::from(text)),
                    Rect::new(x_of(area, margin), y, width, 1),
                );
            }
            continue;
        }
        let line = row_line(app.theme(), row, selected, dv.hscroll);
        let cut = !Doc::wraps(row.kind) && line.width() > usize::from(width);
        f.render_widget(Paragraph::new(line), Rect::new(x, y, width, 1));
        if cut && width > 0 {
            // The row goes on past the right edge.
            let cell = &mut f.buffer_mut()[(x + width - 1, y)];
            cell.set_symbol("›").set_style(app.theme().alt_text);
        }
    }
}

/// Where the pictures of the page go: the picture of a picture page fills the text column
/// under its header. (key, area) pairs.
pub(crate) fn picture_places(app: &App, page: Rect) -> Vec<(String, Rect)> {
    let Some(dv) = app.doc_view() else {
        return Vec::new();
    };
    let mut places = Vec::new();
    if dv.picture.is_some()
        && let Some(url) = app.current_url()
    {
        let (width, margin) = app.screen().text_column();
        let rows = app.screen().frame().len() as u16;
        let y = page.y + rows.min(page.height);
        let area = Rect::new(
            page.x + margin as u16,
            y,
            (width as u16).min(page.width),
            page.height.saturating_sub(y - page.y),
        );
        places.push((url.to_string(), area));
    }
    places
}

fn paint_pictures(f: &mut Frame, app: &App, page: Rect, painter: &mut Painter) {
    for (key, area) in picture_places(app, page) {
        if let Some(Slot::Ready(d)) = app.picture(&key) {
            painter.paint(f.buffer_mut(), &key, &d.image, area);
        }
    }
    for (key, area, skip, full) in inline_places(app, page) {
        if let Some(Slot::Ready(d)) = app.picture(&key) {
            painter.paint_part(f.buffer_mut(), &key, &d.image, area, skip, full);
        }
    }
}

fn x_of(area: Rect, margin: usize) -> u16 {
    area.x + margin as u16
}

/// The inline pictures on screen: (key, area on screen, rows scrolled off above, rows in all).
fn inline_places(app: &App, page: Rect) -> Vec<(String, Rect, u16, u16)> {
    let Some(dv) = app.doc_view() else {
        return Vec::new();
    };
    let (width, margin) = app.screen().text_column();
    let mut out: Vec<(String, Rect, u16, u16)> = Vec::new();
    let mut last: Option<usize> = None;
    for (y, row) in app.screen().frame().iter().enumerate() {
        let y = page.y + y as u16;
        if y >= page.y + page.height {
            break;
        }
        let Some((link, r)) = row.picture else {
            last = None;
            continue;
        };
        match out.last_mut() {
            Some(p) if last == Some(link) => p.1.height += 1,
            _ => {
                if let Some(url) = dv.doc.link_url(link) {
                    let area = Rect::new(x_of(page, margin), y, (width as u16).min(page.width), 1);
                    out.push((url.to_string(), area, r, dv.doc.below_of(link)));
                }
            }
        }
        last = Some(link);
    }
    out
}

fn kind_style(t: &Theme, row: &FrameRow) -> Style {
    match row.kind {
        Kind::Heading(1) => t.heading1,
        Kind::Heading(2) => t.heading2,
        Kind::Heading(_) => t.heading3,
        Kind::Link | Kind::MenuItem if row.external => t.link_external,
        Kind::Link | Kind::MenuItem if row.link.is_some() => t.link,
        Kind::List => t.list,
        Kind::Quote => t.quote,
        Kind::Pre => t.preformat,
        Kind::Fence => t.alt_text,
        _ => t.text,
    }
}

/// One screen row as styled spans: search matches highlighted (the current one in its own
/// style), control characters made harmless, sideways scroll applied.
pub(crate) fn row_line(t: &Theme, row: &FrameRow, selected: bool, hscroll: usize) -> Line<'static> {
    let style = kind_style(t, row);
    let prefix_style = match row.kind {
        Kind::Link | Kind::MenuItem => t.link_number,
        _ => style,
    };
    let mut spans = vec![Span::styled(row.prefix.clone(), prefix_style)];
    if !row.tag.is_empty() {
        spans.push(Span::styled(row.tag, t.menu_type));
    }
    let wraps = Doc::wraps(row.kind);
    let base = if selected {
        style.patch(t.link_selected)
    } else {
        style
    };
    let text = row.text.as_str();
    let mut pieces: Vec<(&str, Style)> = Vec::new();
    let mut at = 0;
    for m in &row.marks {
        let fits = m.start >= at
            && m.end <= text.len()
            && text.is_char_boundary(m.start)
            && text.is_char_boundary(m.end);
        if !fits {
            continue;
        }
        if m.start > at {
            pieces.push((&text[at..m.start], base));
        }
        let hl = if m.current {
            t.search_current
        } else {
            t.search_match
        };
        pieces.push((&text[m.start..m.end], base.patch(hl)));
        at = m.end;
    }
    if at < text.len() || pieces.is_empty() {
        pieces.push((&text[at..], base));
    }
    let skip = if wraps { 0 } else { hscroll };
    let mut col = 0;
    for (piece, style) in pieces {
        let mut out = String::with_capacity(piece.len());
        clean_into(&mut out, piece, !wraps, &mut col, skip);
        spans.push(Span::styled(out, style));
    }
    Line::from(spans)
}

/// Append `text` made safe to draw (see [`crate::layout::sanitize`]) from cell `skip` on,
/// counting cells in `col` (tab stops continue across pieces).
fn clean_into(out: &mut String, text: &str, expand: bool, col: &mut usize, skip: usize) {
    if skip == 0 && !text.contains(['\t', '\r']) && smolweb_core::text::is_terminal_safe(text) {
        out.push_str(text);
        *col += display_width(text);
        return;
    }
    each_shown(text, |c| {
        let start = *col;
        if c == '\t' {
            let n = if expand { 8 - start % 8 } else { 1 };
            for k in 0..n {
                if start + k >= skip {
                    out.push(' ');
                }
            }
            *col += n;
            return;
        }
        if start >= skip {
            out.push(c);
        }
        *col += c.width().unwrap_or(0);
    });
}

fn draw_identities(f: &mut Frame, app: &App, area: Rect, selected: usize) {
    let t = app.theme();
    let k = |a| app.keymap().hint(a);
    let mut lines = vec![
        Line::styled("Client identities and agent requests", t.heading1),
        Line::styled(
            format!(
                "{} new  {} import  {} agent use  {} export  {} delete",
                k(Action::IdentityCreate),
                k(Action::IdentityImport),
                k(Action::IdentityToggleAgent),
                k(Action::IdentityExport),
                k(Action::IdentityDelete),
            ),
            t.status,
        ),
        Line::styled(
            format!(
                "{} approve  {} deny  {} pinned certificates  {} what agents did (about:agents)",
                k(Action::ApprovalApprove),
                k(Action::ApprovalDeny),
                k(Action::Trust),
                k(Action::Agents)
            ),
            t.status,
        ),
    ];
    let now = time::OffsetDateTime::now_utc();
    let mut items: Vec<String> = app
        .lists()
        .approvals
        .iter()
        .map(|a| {
            format!(
                "REQUEST {}: {} (asked by {})",
                a.id,
                a.request.describe(),
                a.client
            )
        })
        .collect();
    items.extend(app.lists().identities.iter().map(|i| {
        let by = match i.created_by {
            smolweb_store::identity::CreatedBy::Human => "you",
            smolweb_store::identity::CreatedBy::Agent => "agent",
        };
        let state = if i.expired(now) { "EXPIRED" } else { "until" };
        format!(
            "{}  {}  {} {}  by {}  agent may use: {}",
            i.name,
            i.scope.url(),
            state,
            i.not_after.date(),
            by,
            if i.agent_use { "yes" } else { "no" }
        )
    }));
    if items.is_empty() {
        lines.push(Line::raw("No identities yet. A capsule that asks for one offers to create it; or press the key for a new one."));
    }
    let room = usize::from(area.height).saturating_sub(lines.len()).max(1);
    let skip = selected.saturating_sub(room - 1);
    for (i, text) in items.iter().enumerate().skip(skip).take(room) {
        let style = if i < app.lists().approvals.len() {
            t.warning
        } else {
            t.text
        };
        let style = if i == selected {
            style.patch(t.selected)
        } else {
            style
        };
        lines.push(Line::styled(
            truncate_cells(text, usize::from(area.width)),
            style,
        ));
    }
    f.render_widget(Paragraph::new(lines), area);
}

fn draw_bottom(f: &mut Frame, app: &App, area: Rect) {
    let t = app.theme();
    if let Some(p) = app.prompt() {
        let label = p.label();
        let text = p.shown_text();
        let room = usize::from(area.width).saturating_sub(1);
        let shown = tail_cells(&format!("{label}{text}"), room);
        if p.replace_on_type {
            // Show the prefilled URL as selected: typing replaces it.
            // `shown` ends with the text, so this cut is a char boundary.
            let cut = shown.len().saturating_sub(text.len());
            let cut = if shown.is_char_boundary(cut) { cut } else { 0 };
            let (head, tail) = shown.split_at(cut);
            let line = Line::from(vec![
                Span::styled(head.to_string(), t.prompt),
                Span::styled(tail.to_string(), t.prompt.add_modifier(Modifier::REVERSED)),
            ]);
            f.render_widget(Paragraph::new(line), area);
        } else {
            f.render_widget(Paragraph::new(Span::styled(shown.clone(), t.prompt)), area);
        }
        let x = area.x + display_width(&shown).min(room) as u16;
        f.set_cursor_position((x, area.y));
        return;
    }
    let mut right = String::new();
    if let Some(badge) = app.agents_badge() {
        right.push_str(&format!(" {badge} "));
    }
    if !app.lists().approvals.is_empty() {
        right.push_str(&format!(
            " {} agent request(s): {} ",
            app.lists().approvals.len(),
            app.keymap().hint(Action::Identities)
        ));
    }
    let mut info = Vec::new();
    if let Some(offline) = app.offline_badge(time::OffsetDateTime::now_utc()) {
        info.push(offline);
    }
    if let Some(web) = app.web_badge() {
        info.push(web);
    }
    // What the web page is ("article · quality 0.92"), placed after the web badge; it gives
    // way to a message that it would cut (see below).
    let reading_at = info.len();
    if let Some(who) = app.identity_badge() {
        info.push(who);
    }
    if let Some(section) = app.section() {
        info.push(format!("§ {}", truncate_cells(&section, 24)));
    }
    match app.refreshing() {
        Some((_, 0)) => info.push("feeds…".to_string()),
        Some((done, total)) => info.push(format!("feeds {done}/{total}")),
        None => {}
    }
    if app.tabs().len() > 1 {
        info.push(format!(
            "tab {}/{}",
            app.tabs().active + 1,
            app.tabs().len()
        ));
    }
    match app.screen().percent(app.doc_view()) {
        Some(_) if app.doc_view().is_some_and(|d| d.top == Default::default()) => {
            info.push("top".into())
        }
        Some(p) => info.push(format!("{p}%")),
        None => {}
    }
    let reading = app.web_reading();
    // While loading, the way to cancel is said last and never cut: the URL gives way.
    let cancel = format!("  ({} cancels)", app.keymap().hint(Action::Cancel));
    let (left, tail) = match app.tab().and_then(|t| t.loading.as_ref()) {
        Some(l) if l.upload.is_some() => {
            let frame = (app.now() / 100) as usize % SPINNER.len();
            let said = match l.upload {
                Some(0) => format!("{} deleting {}", SPINNER[frame], l.url),
                n => format!(
                    "{} uploading {} to {}",
                    SPINNER[frame],
                    smolweb_core::text::human_bytes(n.unwrap_or(0)),
                    l.url,
                ),
            };
            (said, cancel)
        }
        Some(l) => {
            let frame = (app.now() / 100) as usize % SPINNER.len();
            let said = format!(
                "{} loading {}  {}",
                SPINNER[frame],
                l.url,
                smolweb_core::text::human_bytes(l.bytes)
            );
            (said, cancel)
        }
        None if !app.typed_link().is_empty() => {
            (format!("link {}…", app.typed_link()), String::new())
        }
        None if !app.status().text.is_empty() => (app.status().text.clone(), String::new()),
        None if app.link_target().is_some() => {
            let target = app.link_target().unwrap_or_default();
            (
                format!("→ {}", smolweb_core::url::display(target)),
                String::new(),
            )
        }
        None => (
            smolweb_core::url::display(app.current_url().unwrap_or_default()),
            String::new(),
        ),
    };
    let style = if app.status().error && app.tab().is_some_and(|t| t.loading.is_none()) {
        t.status_error
    } else {
        t.status
    };
    // Messages carry remote text (status meta, URLs): never a control character.
    let clean = sanitize(&left, false);
    let said = app.tab().is_none_or(|t| t.loading.is_none()) && left == app.status().text;
    let joined = |with_reading: bool| {
        let mut parts = info.clone();
        if let Some(r) = reading.as_ref().filter(|_| with_reading) {
            parts.insert(reading_at, r.clone());
        }
        format!(" {} ", parts.join("  "))
    };
    let free = |info: &str| {
        usize::from(area.width).saturating_sub(display_width(&right) + display_width(info))
    };
    let info = match joined(true) {
        full if said && display_width(&clean) > free(&full) => joined(false),
        full => full,
    };
    let room = free(&info);
    let left = if said && display_width(&clean) > room {
        // Cut: say where the whole message is.
        let more = format!(" … ({}: all)", app.keymap().hint(Action::Messages));
        let keep = room.saturating_sub(display_width(&more));
        truncate_cells(&clean, keep)
            .trim_end_matches('…')
            .to_string()
            + &more
    } else if !tail.is_empty() && display_width(&clean) + display_width(&tail) > room {
        let keep = room.saturating_sub(display_width(&tail));
        truncate_cells(&clean, keep) + &tail
    } else {
        truncate_cells(&format!("{clean}{tail}"), room)
    };
    let pad = room.saturating_sub(display_width(&left));
    let spans = vec![
        Span::styled(left, style),
        Span::raw(" ".repeat(pad)),
        Span::styled(right, t.badge),
        Span::styled(info, t.status),
    ];
    f.render_widget(Paragraph::new(Line::from(spans)), area);
}

/// The last `max` cells of `text`, made safe to draw (a capsule's prompt is part of it).
fn tail_cells(text: &str, max: usize) -> String {
    let text = sanitize(text, false);
    let mut w = 0;
    let mut out: Vec<char> = Vec::new();
    for c in text.chars().rev() {
        let cw = c.width().unwrap_or(0);
        if w + cw > max {
            break;
        }
        out.push(c);
        w += cw;
    }
    out.into_iter().rev().collect()
}

fn draw_popups(f: &mut Frame, app: &App, page: Rect) {
    let t = app.theme();
    if let Some(p) = app.prompt() {
        draw_prompt_extras(f, app, p, page);
        if let Some(note) = &p.note {
            // Over the prompt, which hides the status line.
            let area = Rect::new(
                page.x,
                page.y + page.height.saturating_sub(1),
                page.width,
                1,
            );
            f.render_widget(Clear, area);
            let text = truncate_cells(note, usize::from(page.width));
            f.render_widget(Paragraph::new(Span::styled(text, t.status_error)), area);
        }
    }
    match &app.dialog().popup {
        Some(Popup::Info(rows)) => {
            let lines: Vec<Line> = rows
                .iter()
                .map(|(k, v)| {
                    Line::from(vec![
                        Span::styled(format!("{k:>12}: "), t.heading3),
                        Span::raw(sanitize(v, false).into_owned()),
                    ])
                })
                .collect();
            let h = (lines.len() as u16 + 2).min(page.height);
            let area = centered(page, page.width.saturating_sub(4).min(100), h);
            f.render_widget(Clear, area);
            let block = Block::default().borders(Borders::ALL).title(" Page info ");
            f.render_widget(
                Paragraph::new(lines)
                    .block(block)
                    .wrap(Wrap { trim: false })
                    .style(t.popup),
                area,
            );
        }
        Some(popup @ (Popup::Confirm(q) | Popup::Download(q))) => {
            let title = match popup {
                Popup::Download(_) => " Download ",
                _ => " Confirm ",
            };
            let w = page.width.saturating_sub(4).min(70);
            let h = (display_width(q) as u16 / w.saturating_sub(2).max(1) + 3).min(page.height);
            let area = centered(page, w, h);
            f.render_widget(Clear, area);
            let block = Block::default().borders(Borders::ALL).title(title);
            f.render_widget(
                Paragraph::new(sanitize(q, false).into_owned())
                    .block(block)
                    .wrap(Wrap { trim: true })
                    .style(t.popup),
                area,
            );
        }
        Some(Popup::Outline(o)) => draw_outline(f, app, o, page),
        Some(Popup::Engines(e)) => draw_engines(f, app, e, page),
        Some(Popup::Regions(r)) => draw_regions(f, app, r, page),
        None => {}
    }
}

/// The outline: the headings in a box, indented by level, the one under the cursor marked
/// and kept in view.
fn draw_outline(f: &mut Frame, app: &App, o: &crate::app::Outline, page: Rect) {
    let t = app.theme();
    let w = page.width.saturating_sub(4).min(70);
    let h = (o.headings.len() as u16 + 3).min(page.height);
    let area = centered(page, w, h);
    let rows = usize::from(h.saturating_sub(3)).max(1);
    let skip = o.selected.saturating_sub(rows - 1);
    let inner = usize::from(w.saturating_sub(2));
    let mut lines: Vec<Line> = o
        .headings
        .iter()
        .enumerate()
        .skip(skip)
        .take(rows)
        .map(|(i, hd)| {
            let indent = "  ".repeat(usize::from(hd.level.saturating_sub(1)));
            let text = truncate_cells(&format!("{indent}{}", hd.text), inner);
            let style = match hd.level {
                1 => t.heading1,
                2 => t.heading2,
                _ => t.heading3,
            };
            let style = if i == o.selected {
                style.patch(t.selected)
            } else {
                style
            };
            Line::styled(text, style)
        })
        .collect();
    lines.push(Line::styled(
        truncate_cells("enter: go there  esc: close", inner),
        t.status,
    ));
    f.render_widget(Clear, area);
    let block = Block::default().borders(Borders::ALL).title(" Outline ");
    f.render_widget(Paragraph::new(lines).block(block).style(t.popup), area);
}

/// The search engines: one numbered line each (name, URL, what it is), the one in use
/// marked, the one under the cursor highlighted.
fn draw_engines(f: &mut Frame, app: &App, e: &crate::app::Engines, page: Rect) {
    let t = app.theme();
    let w = page.width.saturating_sub(4).min(90);
    let h = (e.choices.len() as u16 + 4).min(page.height);
    let area = centered(page, w, h);
    let inner = usize::from(w.saturating_sub(2));
    let mut lines: Vec<Line> = e
        .choices
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let mark = if e.current == Some(i) { "*" } else { " " };
            let text = format!("{mark}{}. {} — {} ({})", i + 1, c.name, c.url, c.about);
            let text = truncate_cells(&sanitize(&text, false), inner);
            let style = if i == e.selected { t.selected } else { t.popup };
            Line::styled(text, style)
        })
        .collect();
    lines.push(Line::default());
    lines.push(Line::styled(
        truncate_cells(
            "enter or 1-9: use it for this session (* in use)  esc: close",
            inner,
        ),
        t.status,
    ));
    f.render_widget(Clear, area);
    let block = Block::default()
        .borders(Borders::ALL)
        .title(" Search engine for words in the address bar ");
    f.render_widget(Paragraph::new(lines).block(block).style(t.popup), area);
}

/// The region picker, at the bottom so the page above shows what the region under the
/// cursor keeps: a numbered line per region (selector, size, how its text starts), then "no
/// rule", then the keys.
fn draw_regions(f: &mut Frame, app: &App, r: &crate::app::Regions, page: Rect) {
    let t = app.theme();
    let lines_wanted = r.items.len() as u16 + 5;
    let h = lines_wanted.min(page.height / 2).max(5).min(page.height);
    let area = Rect::new(page.x, page.y + page.height - h, page.width, h);
    let inner = usize::from(page.width.saturating_sub(2));
    let rows = usize::from(h.saturating_sub(4));
    // Keep the cursor's line in view.
    let first = r.selected.saturating_sub(rows.saturating_sub(1));
    let mut lines: Vec<Line> = Vec::new();
    for i in first..(r.items.len() + 1).min(first + rows) {
        let text = match r.items.get(i) {
            Some(item) => {
                let many = match item.matches {
                    1 => String::new(),
                    n => format!(", {n} blocks"),
                };
                format!(
                    " {}. {} — {} characters{many} — {}",
                    i + 1,
                    item.selector,
                    item.chars,
                    item.preview
                )
            }
            None => format!(" {}. no rule: the main text smolweb finds", i + 1),
        };
        let text = truncate_cells(&sanitize(&text, false), inner);
        let style = if i == r.selected { t.selected } else { t.popup };
        lines.push(Line::styled(text, style));
    }
    lines.push(Line::default());
    let now = match &r.current {
        Some(rule) => format!("now: {rule}"),
        None => "now: no rule".into(),
    };
    lines.push(Line::styled(
        truncate_cells(
            &sanitize(
                &format!(
                    "V/↓: next (shown above)  enter: keep for {}  esc: put back  ({now})",
                    r.site
                ),
                false,
            ),
            inner,
        ),
        t.status,
    ));
    f.render_widget(Clear, area);
    let block = Block::default()
        .borders(Borders::ALL)
        .title(" The text of this site's pages: pick its region ");
    f.render_widget(Paragraph::new(lines).block(block).style(t.popup), area);
}

fn draw_prompt_extras(f: &mut Frame, app: &App, p: &crate::app::Prompt, page: Rect) {
    let t = app.theme();
    if let crate::app::Purpose::Input { label, .. } = &p.purpose
        && display_width(label) + 2 > usize::from(page.width) / 2
    {
        let w = page.width;
        let h = (display_width(label) as u16 / w.saturating_sub(2).max(1) + 3).min(page.height);
        let area = Rect::new(page.x, page.y + page.height - h, w, h);
        f.render_widget(Clear, area);
        let block = Block::default()
            .borders(Borders::ALL)
            .title(" The capsule asks ");
        f.render_widget(
            Paragraph::new(sanitize(label, false).into_owned())
                .block(block)
                .wrap(Wrap { trim: true }),
            area,
        );
        return;
    }
    if p.completions.is_empty() {
        return;
    }
    let h = (p.completions.len() as u16).min(page.height);
    let area = Rect::new(page.x, page.y + page.height - h, page.width, h);
    f.render_widget(Clear, area);
    let lines: Vec<Line> = p
        .completions
        .iter()
        .enumerate()
        .map(|(i, (url, title))| {
            let style = if Some(i) == p.selected {
                t.selected
            } else {
                t.popup
            };
            let text = if title.is_empty() {
                url.clone()
            } else {
                format!("{url}  {title}")
            };
            Line::styled(truncate_cells(&text, usize::from(page.width)), style)
        })
        .collect();
    f.render_widget(Paragraph::new(lines), area);
}

fn centered(area: Rect, w: u16, h: u16) -> Rect {
    let w = w.min(area.width);
    let h = h.min(area.height);
    Rect::new(
        area.x + (area.width - w) / 2,
        area.y + (area.height - h) / 2,
        w,
        h,
    )
}
