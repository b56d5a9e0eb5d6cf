//! Gemini response headers: `<2 digits><space><meta><CRLF>`, meta at most 1024 bytes.
//!
//! Strict: status must be two ASCII digits in 10..=69; anything else is a typed error.

/// Maximum meta length in bytes.
pub const MAX_META_BYTES: usize = 1024;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StatusClass {
    Input,
    Success,
    Redirect,
    TemporaryFailure,
    PermanentFailure,
    ClientCertificate,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    pub status: u8,
    pub meta: String,
}

impl Header {
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

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HeaderError {
    #[error("response header is not terminated by CRLF")]
    MissingCrlf,
    #[error("response header is longer than allowed ({0} bytes of meta)")]
    TooLong(usize),
    #[error("invalid status code '{0}'")]
    InvalidStatus(String),
    #[error("missing space after the status code")]
    MissingSpace,
    #[error("response header is not valid UTF-8")]
    NotUtf8,
}

/// Parse a complete header line (including the trailing CRLF).
pub fn parse_header(line: &[u8]) -> Result<Header, HeaderError> {
    let _ = line;
    Err(HeaderError::MissingCrlf)
}

/// Parsed MIME type from a 2x meta. Type and subtype lowercase.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mime {
    pub mime_type: String,
    pub subtype: String,
    pub charset: Option<String>,
    pub lang: Option<String>,
}

impl Mime {
    /// `type/subtype`.
    pub fn essence(&self) -> String {
        format!("{}/{}", self.mime_type, self.subtype)
    }
    pub fn is_gemtext(&self) -> bool {
        self.mime_type == "text" && self.subtype == "gemini"
    }
    pub fn is_text(&self) -> bool {
        self.mime_type == "text"
    }
}

/// Parse a success meta; an empty meta means `text/gemini; charset=utf-8`.
pub fn parse_mime(meta: &str) -> Mime {
    let _ = meta;
    Mime {
        mime_type: "text".into(),
        subtype: "gemini".into(),
        charset: None,
        lang: None,
    }
}
