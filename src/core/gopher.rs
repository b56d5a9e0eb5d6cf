//! Gopher (RFC 1436) menus and text: menu parsing, text un-dotting, charset detection.
//!
//! Menu parsing is tolerant: unknown types are kept, missing fields get defaults (selector "",
//! host "", port 70), a bad or zero port becomes 70, empty lines are skipped, Gopher+ fields
//! after the port are ignored, and parsing stops at a line holding only ".". Decoding never
//! loses bytes silently: valid UTF-8 stays UTF-8; otherwise CP437 or latin-1 is chosen by a
//! heuristic and reported (see [`charset`]). Magic-byte sniffing lives in [`sniff`].

mod charset;
mod sniff;

pub use charset::{decode, decode_as};
pub use sniff::sniff_mime;

/// Port used when a menu line has none or an unusable one.
pub const DEFAULT_PORT: u16 = 70;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MenuItem {
    pub item_type: char,
    pub title: String,
    pub selector: String,
    pub host: String,
    pub port: u16,
    /// Where following this item leads: a gopher:// URL, the target of an `h` item with a
    /// `URL:` selector, a telnet:// URL for types 8/T, or "" for info lines (`i`), errors
    /// (`3`) and items without a host.
    pub next_url: String,
}

impl MenuItem {
    pub fn is_info(&self) -> bool {
        self.item_type == 'i'
    }
}

/// How a body was decoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Charset {
    Utf8,
    Latin1,
    Cp437,
}

impl Charset {
    pub fn as_str(self) -> &'static str {
        match self {
            Charset::Utf8 => "utf-8",
            Charset::Latin1 => "iso-8859-1",
            Charset::Cp437 => "cp437",
        }
    }
}

/// Parse a decoded menu. Lines end at LF or CRLF; a line that is exactly "." ends the menu.
pub fn parse_menu(text: &str) -> Vec<MenuItem> {
    let mut items = Vec::new();
    for line in text.split('\n') {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line == "." {
            break;
        }
        if let Some(item) = parse_menu_line(line) {
            items.push(item);
        }
    }
    items
}

/// One menu line; None for an empty line.
fn parse_menu_line(line: &str) -> Option<MenuItem> {
    let mut chars = line.chars();
    let item_type = chars.next()?;
    let mut fields = chars.as_str().split('\t');
    let title = fields.next().unwrap_or("").to_string();
    let selector = fields.next().unwrap_or("").to_string();
    let host = fields.next().unwrap_or("").trim().to_string();
    let port = fields
        .next()
        .and_then(|p| p.trim().parse::<u16>().ok())
        .filter(|&p| p != 0)
        .unwrap_or(DEFAULT_PORT);
    let next_url = next_url(item_type, &selector, &host, port);
    Some(MenuItem {
        item_type,
        title,
        selector,
        host,
        port,
        next_url,
    })
}

/// Where an item leads (see [`MenuItem::next_url`]).
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
        _ => crate::core::url::gopher_item_url(host, port, item_type, selector),
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

/// Strip a "." terminator line (and anything after it) from a text item and undo the
/// dot-stuffing ("..x" -> ".x"). CRLF line ends become LF. Un-stuffing is applied only when a
/// terminator line is present: servers that do not send one (gophernicus) do not stuff dots
/// either, and a line that really starts with ".." must then stay as it is.
pub fn undot_text(text: &str) -> String {
    let normalized = text.replace("\r\n", "\n");
    let lines: Vec<&str> = normalized.split('\n').collect();
    let Some(end) = lines.iter().position(|l| *l == ".") else {
        return normalized;
    };
    let mut out = String::with_capacity(normalized.len());
    for line in &lines[..end] {
        out.push_str(
            line.strip_prefix('.')
                .filter(|r| r.starts_with('.'))
                .unwrap_or(line),
        );
        out.push('\n');
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
pub fn is_text_type(item_type: char) -> bool {
    matches!(
        item_type,
        '0' | '2' | '3' | '+' | 'h' | 'c' | 'X' | 'r' | 'i'
    )
}

/// Item types whose body is binary (kept as bytes, never rendered).
pub fn is_binary_type(item_type: char) -> bool {
    matches!(
        item_type,
        '4' | '5' | '6' | '9' | 'g' | 'I' | 's' | 'd' | 'p' | ';' | ':' | '<' | 'M' | 'P'
    )
}

#[cfg(test)]
mod tests;
