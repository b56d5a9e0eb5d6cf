//! Gemini response headers: `<2 digits><space><meta><CRLF>`, meta at most 1024 bytes.
//!
//! Strict: status must be two ASCII digits in 10..=69; anything else is a typed error. The
//! space is required only when meta follows (`20\r\n` is a header with an empty meta). The line
//! must end in CRLF (a bare LF is refused), meta must be UTF-8. [`header_end`] finds the end of
//! the header in a buffer being read, so the reader never needs more than [`MAX_HEADER_BYTES`].

/// Maximum meta length in bytes.
pub const MAX_META_BYTES: usize = 1024;
/// Longest valid header line: status, space, meta, CRLF.
pub const MAX_HEADER_BYTES: usize = 2 + 1 + MAX_META_BYTES + 2;

/// The kind of answer a status stands for: its first digit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StatusClass {
    /// 1x: the server asks for input.
    Input,
    /// 2x: success; meta is the MIME type.
    Success,
    /// 3x: redirect; meta is the new URL.
    Redirect,
    /// 4x: temporary failure.
    TemporaryFailure,
    /// 5x: permanent failure.
    PermanentFailure,
    /// 6x: a client certificate is required.
    ClientCertificate,
}

/// A parsed Gemini response header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// The two-digit status code (10..=69).
    pub status: u8,
    /// The meta after the status (possibly empty).
    pub meta: String,
}

impl Header {
    /// The status class (from the status's first digit).
    pub fn class(&self) -> StatusClass {
        match self.status / 10 {
            1 => StatusClass::Input,
            2 => StatusClass::Success,
            3 => StatusClass::Redirect,
            4 => StatusClass::TemporaryFailure,
            5 => StatusClass::PermanentFailure,
            _ => StatusClass::ClientCertificate,
        }
    }
}

/// Why a response header is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HeaderError {
    /// The line does not end in CRLF (or holds a bare LF).
    #[error("response header is not terminated by CRLF")]
    MissingCrlf,
    /// The meta is longer than [`MAX_META_BYTES`] (its length in bytes).
    #[error("response header is longer than allowed ({0} bytes of meta)")]
    TooLong(usize),
    /// The status is not two digits in 10..=69 (the token, cut to 16 bytes).
    #[error("invalid status code '{0}'")]
    InvalidStatus(String),
    /// Something other than a space follows the status.
    #[error("missing space after the status code")]
    MissingSpace,
    /// The meta is not valid UTF-8.
    #[error("response header is not valid UTF-8")]
    NotUtf8,
}

/// Parse a complete header line (including the trailing CRLF).
pub fn parse_header(line: &[u8]) -> Result<Header, HeaderError> {
    let body = line.strip_suffix(b"\r\n").ok_or(HeaderError::MissingCrlf)?;
    if body.contains(&b'\n') {
        return Err(HeaderError::MissingCrlf);
    }
    let status = parse_status(body)?;
    let meta = match &body[2..] {
        [] => &[][..],
        [b' ', meta @ ..] => meta,
        _ => return Err(HeaderError::MissingSpace),
    };
    if meta.len() > MAX_META_BYTES {
        return Err(HeaderError::TooLong(meta.len()));
    }
    let meta = std::str::from_utf8(meta).map_err(|_| HeaderError::NotUtf8)?;
    Ok(Header {
        status,
        meta: meta.to_string(),
    })
}

/// Exactly two ASCII digits, the first 1-6, not followed by another digit.
fn parse_status(body: &[u8]) -> Result<u8, HeaderError> {
    match body {
        [a @ b'1'..=b'6', b @ b'0'..=b'9', rest @ ..]
            if !rest.first().is_some_and(u8::is_ascii_digit) =>
        {
            Ok((a - b'0') * 10 + (b - b'0'))
        }
        _ => {
            let token = body.split(|&b| b == b' ').next().unwrap_or(body);
            let token = &token[..token.len().min(16)];
            Err(HeaderError::InvalidStatus(
                String::from_utf8_lossy(token).into_owned(),
            ))
        }
    }
}

/// The index just past the first LF in `buf` (the end of the header line), or None when no LF
/// has arrived yet. Give up reading when this is None and `buf.len() >= MAX_HEADER_BYTES`.
pub fn header_end(buf: &[u8]) -> Option<usize> {
    buf.iter().position(|&b| b == b'\n').map(|i| i + 1)
}

/// Parsed MIME type from a 2x meta. Type and subtype lowercase.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mime {
    /// The type, lowercase (`text`).
    pub mime_type: String,
    /// The subtype, lowercase (`gemini`).
    pub subtype: String,
    /// The `charset` parameter, lowercase, when given.
    pub charset: Option<String>,
    /// The `lang` parameter, when given.
    pub lang: Option<String>,
}

impl Mime {
    /// `type/subtype`.
    pub fn essence(&self) -> String {
        format!("{}/{}", self.mime_type, self.subtype)
    }
    /// Is this `text/gemini`?
    pub fn is_gemtext(&self) -> bool {
        self.mime_type == "text" && self.subtype == "gemini"
    }
    /// Is this a `text/*` type?
    pub fn is_text(&self) -> bool {
        self.mime_type == "text"
    }
}

/// Parse a success meta; an empty meta means `text/gemini; charset=utf-8`. Tolerant: a meta
/// without a valid `type/subtype` is `application/octet-stream`; broken parameters are skipped.
pub fn parse_mime(meta: &str) -> Mime {
    let meta = meta.trim();
    if meta.is_empty() {
        return Mime {
            mime_type: "text".into(),
            subtype: "gemini".into(),
            charset: Some("utf-8".into()),
            lang: None,
        };
    }
    let (essence, params) = meta.split_once(';').unwrap_or((meta, ""));
    let (mime_type, subtype) = match essence.trim().split_once('/') {
        Some((t, s)) if is_token(t) && is_token(s.trim()) => {
            (t.to_ascii_lowercase(), s.trim().to_ascii_lowercase())
        }
        _ => ("application".to_string(), "octet-stream".to_string()),
    };
    let mut mime = Mime {
        mime_type,
        subtype,
        charset: None,
        lang: None,
    };
    for (name, value) in Params(params) {
        if value.is_empty() {
            continue;
        }
        if name.eq_ignore_ascii_case("charset") && mime.charset.is_none() {
            mime.charset = Some(value.to_ascii_lowercase());
        } else if name.eq_ignore_ascii_case("lang") && mime.lang.is_none() {
            mime.lang = Some(value);
        }
    }
    mime
}

/// RFC 2045 token: non-empty, printable ASCII without spaces or tspecials.
fn is_token(s: &str) -> bool {
    !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_graphic() && !b"()<>@,;:\\\"/[]?=".contains(&b))
}

/// Iterator over `; name=value` parameters; quoted values may hold `;` and `\"` escapes.
struct Params<'a>(&'a str);

impl Iterator for Params<'_> {
    type Item = (String, String);
    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let s = self.0.trim_start_matches([' ', '\t', ';']);
            if s.is_empty() {
                return None;
            }
            let name_end = s.find(['=', ';']).unwrap_or(s.len());
            let name = s[..name_end].trim().to_string();
            let rest = &s[name_end..];
            let Some(rest) = rest.strip_prefix('=') else {
                self.0 = rest;
                continue;
            };
            let rest = rest.trim_start();
            let (value, remaining) = match rest.strip_prefix('"') {
                Some(quoted) => read_quoted(quoted),
                None => {
                    let end = rest.find(';').unwrap_or(rest.len());
                    (rest[..end].trim().to_string(), &rest[end..])
                }
            };
            self.0 = remaining;
            return Some((name, value));
        }
    }
}

/// Read a quoted string body (after the opening quote) up to the closing quote; returns the
/// unescaped value and what follows up to the next `;` (junk after the quote is dropped).
fn read_quoted(s: &str) -> (String, &str) {
    let mut value = String::new();
    let mut chars = s.char_indices();
    let mut end = s.len();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => {
                end = i + 1;
                break;
            }
            '\\' => {
                if let Some((_, e)) = chars.next() {
                    value.push(e);
                }
            }
            c => value.push(c),
        }
    }
    let after = &s[end.min(s.len())..];
    let next = after.find(';').unwrap_or(after.len());
    (value, &after[next..])
}

#[cfg(test)]
mod tests;
