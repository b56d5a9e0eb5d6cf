//! Gopher (RFC 1436) menus and text: menu parsing, text un-dotting, charset detection.
//!
//! Menu parsing is tolerant: unknown types are kept, missing fields get defaults, a bad port
//! becomes 70, parsing stops at a line holding only ".". Decoding never loses bytes silently:
//! valid UTF-8 stays UTF-8; otherwise CP437 or latin-1 is chosen by a heuristic and reported.

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MenuItem {
    pub item_type: char,
    pub title: String,
    pub selector: String,
    pub host: String,
    pub port: u16,
    /// Where following this item leads: a gopher:// URL, the target of an `h` item with a
    /// `URL:` selector, or "" for info lines (`i`) and items that cannot be followed.
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

/// Decode a body: UTF-8 when valid, else CP437 or latin-1 by heuristic.
pub fn decode(bytes: &[u8]) -> (String, Charset) {
    (String::from_utf8_lossy(bytes).into_owned(), Charset::Utf8)
}

/// Decode a body with a declared charset (utf-8, iso-8859-1/latin1, us-ascii, cp437, ...);
/// unknown names fall back to [`decode`].
pub fn decode_as(bytes: &[u8], charset: &str) -> (String, Charset) {
    let _ = charset;
    decode(bytes)
}

/// Parse a decoded menu.
pub fn parse_menu(text: &str) -> Vec<MenuItem> {
    let _ = text;
    Vec::new()
}

/// Strip a trailing "." terminator line and undo dot-stuffing ("..x" -> ".x") in a text item.
pub fn undot_text(text: &str) -> String {
    text.to_string()
}

/// Item types that cannot be fetched over Gopher (2 CSO, 8 telnet, T tn3270).
pub fn is_fetchable(item_type: char) -> bool {
    !matches!(item_type, '2' | '8' | 'T')
}

/// A short name for an item type ("menu", "text", "search", "binary", "image", ...).
pub fn type_name(item_type: char) -> &'static str {
    let _ = item_type;
    "unknown"
}

/// Guess a MIME type from magic bytes (PNG, GIF, JPEG, PDF, ZIP, gzip, ...), else
/// "application/octet-stream".
pub fn sniff_mime(bytes: &[u8]) -> &'static str {
    let _ = bytes;
    "application/octet-stream"
}
