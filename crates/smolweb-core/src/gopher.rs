//! Gopher (RFC 1436) menus and text: menu parsing, text un-dotting, charset detection.
//!
//! Menu parsing is tolerant: unknown types are kept, missing fields get defaults (selector "",
//! host "", port 70 when the port field is absent or empty), empty lines are skipped, and
//! Gopher+ fields after the port are ignored. A port field that is present but not a port
//! (0, 99999, -1, `abc`) keeps the item but invents no destination: `port` is 0,
//! `invalid_port` is set and `next_url` is "". Only a final "." line (followed by nothing but
//! whitespace) ends a menu or a text item: servers such as gophernicus send files without a
//! terminator, and a "." line inside them is content. Bodies are decoded by the one decoder,
//! [`crate::charset`] (Gopher declares no charset: it detects without losing a byte).
//! Magic-byte sniffing lives in [`sniff`].

mod sniff;

pub(crate) use sniff::sniff_mime;

/// Port used when a menu line has no port field (or an empty one).
pub(crate) const DEFAULT_PORT: u16 = 70;

/// One line of a Gopher menu.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MenuItem {
    /// The item type, the line's first character (`0` text, `1` menu, `i` info, ...).
    pub item_type: char,
    /// The display string (the first tab-separated field), as sent.
    pub title: String,
    /// The selector sent to the host to fetch the item ("" when absent).
    pub selector: String,
    /// The host the item lives on, trimmed ("" when absent).
    pub host: String,
    /// The port; 0 when the line's port field is not a usable port (see `invalid_port`).
    pub port: u16,
    /// Set when the port field is present but not a port in 1..=65535 (`0`, `99999`, `-1`,
    /// `abc`): the item is shown, but it leads nowhere (`next_url` is "").
    pub invalid_port: bool,
    /// Where following this item leads: a gopher:// URL, or the target of an `h` item with a
    /// `URL:` selector when [`crate::url::destination`] offers it; "" for info lines
    /// (`i`), errors (`3`), items without a host or with an invalid port, and items whose
    /// target has a refused scheme (see `refused_scheme`).
    pub next_url: String,
    /// The scheme of a target that is not offered (`URL:javascript:...`, `URL:file:...`, the
    /// telnet:// of types 8 and T): the item is shown as text, never followed.
    pub refused_scheme: Option<String>,
}

impl MenuItem {
    /// Is this an info line (type `i`), which leads nowhere?
    pub fn is_info(&self) -> bool {
        self.item_type == 'i'
    }
}

/// Parse a decoded menu (see [`menu_items`]).
pub fn parse_menu(text: &str) -> Vec<MenuItem> {
    menu_items(text).collect()
}

/// Lines at the head of a menu searched for its title.
const TITLE_LINES: usize = 20;

/// The name a menu gives itself: the display text of its first info (`i`) line that holds a
/// word (three letters or digits or more, so a rule of `=` or a blank line is passed over),
/// among the info lines that open the menu, before its first item. None when the menu opens
/// with an item: its title is then unknown.
pub(crate) fn menu_title(text: &str) -> Option<&str> {
    for line in text.split('\n').take(TITLE_LINES) {
        let line = line.strip_suffix('\r').unwrap_or(line);
        let rest = line.strip_prefix('i')?;
        let display = rest.split('\t').next().unwrap_or("").trim();
        if display.chars().filter(|c| c.is_alphanumeric()).count() >= 3 {
            return Some(display);
        }
    }
    None
}

/// The items of a decoded menu, parsed one line at a time (a streaming renderer never holds
/// them all). Lines end at LF or CRLF; empty lines and "." lines are skipped; the menu ends
/// at its final "." line (see [`terminator_at`]).
pub(crate) fn menu_items(text: &str) -> impl Iterator<Item = MenuItem> + '_ {
    let body = &text[..terminator_at(text).unwrap_or(text.len())];
    body.split('\n').filter_map(|line| {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line == "." {
            return None;
        }
        parse_menu_line(line)
    })
}

/// Byte index where the final "." terminator line starts: a line that is exactly "." (CRLF or
/// LF ended, or at the end) followed by nothing but whitespace. None when the text has no
/// terminator. A "." line followed by more text is content, not a terminator.
pub(crate) fn terminator_at(text: &str) -> Option<usize> {
    let trimmed = text.trim_end();
    let dot = trimmed.len().checked_sub(1)?;
    let before = trimmed.strip_suffix('.')?;
    (before.is_empty() || before.ends_with('\n')).then_some(dot)
}

/// One menu line; None for an empty line.
fn parse_menu_line(line: &str) -> Option<MenuItem> {
    let mut chars = line.chars();
    let item_type = chars.next()?;
    let mut fields = chars.as_str().split('\t');
    let title = fields.next().unwrap_or("").to_string();
    let selector = fields.next().unwrap_or("").to_string();
    let host = fields.next().unwrap_or("").trim().to_string();
    let (port, invalid_port) = match fields.next().map(str::trim) {
        None | Some("") => (DEFAULT_PORT, false),
        Some(p) => match p.parse::<u16>() {
            Ok(n) if n != 0 => (n, false),
            // Info and error lines lead nowhere whatever they say (`fake (NULL) 0` is usual).
            _ => (0, !matches!(item_type, 'i' | '3')),
        },
    };
    let mut next_url = if invalid_port {
        String::new()
    } else {
        next_url(item_type, &selector, &host, port)
    };
    let refused_scheme = crate::url::refused_scheme(&next_url);
    if refused_scheme.is_some() {
        next_url.clear();
    }
    Some(MenuItem {
        item_type,
        title,
        selector,
        host,
        port,
        invalid_port,
        next_url,
        refused_scheme,
    })
}

/// Where an item would lead, before the destination rule (see [`MenuItem::next_url`]).
fn next_url(item_type: char, selector: &str, host: &str, port: u16) -> String {
    if item_type == 'h'
        && let Some(target) = url_selector(selector)
    {
        return target.to_string();
    }
    if matches!(item_type, 'i' | '3') || host.is_empty() {
        return String::new();
    }
    match item_type {
        '8' | 'T' => format!("telnet://{host}:{port}"),
        _ => crate::url::gopher_item_url(host, port, item_type, selector),
    }
}

/// The target of a `URL:` selector (also accepts the "/URL:" form some servers send).
fn url_selector(selector: &str) -> Option<&str> {
    let rest = selector
        .strip_prefix("URL:")
        .or_else(|| selector.strip_prefix("/URL:"))?;
    let rest = rest.trim();
    (!rest.is_empty()).then_some(rest)
}

/// Undo the Gopher text framing: cut the final "." terminator line (see [`terminator_at`])
/// and undo the dot-stuffing before it ("..x" -> ".x"); CRLF line ends become LF. Without a
/// terminator nothing is cut and nothing un-stuffed: servers that send none (gophernicus) do
/// not stuff dots either, so a "." or ".." line in such a text is content and stays.
pub(crate) fn undot_text(text: &str) -> String {
    let Some(end) = terminator_at(text) else {
        return text.replace("\r\n", "\n");
    };
    let mut out = String::with_capacity(end);
    for line in text[..end].split_inclusive('\n') {
        let line = line
            .strip_prefix('.')
            .filter(|r| r.starts_with('.'))
            .unwrap_or(line);
        match line.strip_suffix("\r\n") {
            Some(l) => {
                out.push_str(l);
                out.push('\n');
            }
            None => out.push_str(line),
        }
    }
    out
}

/// Item types that cannot be fetched over Gopher (2 CSO, 8 telnet, T tn3270).
pub fn is_fetchable(item_type: char) -> bool {
    !matches!(item_type, '2' | '8' | 'T')
}

/// A short name for an item type ("menu", "text", "search", "binary", "image", ...).
pub fn type_name(item_type: char) -> &'static str {
    match item_type {
        '0' => "text",
        '1' => "menu",
        '2' => "cso",
        '3' => "error",
        '4' => "binhex",
        '5' => "dos",
        '6' => "uuencode",
        '7' => "search",
        '8' => "telnet",
        '9' => "binary",
        '+' => "mirror",
        'g' => "gif",
        'I' => "image",
        'T' => "tn3270",
        'h' => "html",
        'i' => "info",
        's' => "sound",
        'd' => "document",
        'p' => "png",
        ';' => "video",
        ':' => "bitmap",
        '<' => "sound",
        'M' => "mime",
        'P' => "pdf",
        'r' => "rtf",
        'X' => "xml",
        'c' => "calendar",
        _ => "unknown",
    }
}

/// Item types whose body is text (decoded and shown); menus ('1', '7') are handled apart.
pub(crate) fn is_text_type(item_type: char) -> bool {
    matches!(
        item_type,
        '0' | '2' | '3' | '+' | 'h' | 'c' | 'X' | 'r' | 'i'
    )
}

/// Item types whose body is binary (kept as bytes, never rendered).
pub(crate) fn is_binary_type(item_type: char) -> bool {
    matches!(
        item_type,
        '4' | '5' | '6' | '9' | 'g' | 'I' | 's' | 'd' | 'p' | ';' | ':' | '<' | 'M' | 'P'
    )
}

#[cfg(test)]
mod tests;
