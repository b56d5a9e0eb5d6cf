//! Scroll (port 5699): TLS 1.2+ with TOFU and SNI, as Gemini's (the same verifier, pins per
//! host and port); the request is `absolute-URL SP languages` CRLF; the answer a Gemini
//! header, and on success three lines (author, publish date, modification date) before the
//! body.
//!
//! Invariants: the request URL is the normalized URL, at most 1024 bytes; no client identity
//! is presented; each metadata line is at most [`MAX_METADATA_LINE`] bytes and is kept as
//! sent (lossy UTF-8), for the faces to sanitize.

use super::gemini::{Target, open_tls, read_error, read_header};
use super::{FetchError, Net, NetOptions, RequestError, ScrollResponse};
use smolweb_core::page::DocumentMeta;
use smolweb_core::response::Header;
use smolweb_core::response::StatusClass;
use smolweb_core::url::{GEMINI_MAX_URL_BYTES, Scheme, Url};

/// Longest metadata line read.
pub(crate) const MAX_METADATA_LINE: usize = 1024;

/// The request line body for `url` and `languages` (pure), without CRLF.
pub(crate) fn request_line(url: &Url, languages: &str) -> Result<String, FetchError> {
    if url.scheme() != Scheme::Scroll {
        let url = url.without_query();
        return Err(RequestError::WrongScheme {
            expected: "scroll",
            url,
        }
        .into());
    }
    let s = url.to_string();
    if s.len() > GEMINI_MAX_URL_BYTES {
        let (what, len, limit) = ("scroll URL", s.len(), GEMINI_MAX_URL_BYTES);
        return Err(RequestError::TooLong { what, len, limit }.into());
    }
    if languages.bytes().any(|b| b <= b' ' || b == 0x7f) {
        let what = "scroll language list";
        let rule = "hold no space or control character";
        return Err(RequestError::Field { what, rule }.into());
    }
    Ok(format!("{s} {languages}"))
}

/// One Scroll request and its answer. The caller holds the timeout.
pub(crate) async fn fetch(
    net: &Net,
    url: &Url,
    languages: &str,
    opts: &NetOptions,
) -> Result<ScrollResponse, FetchError> {
    let line = request_line(url, languages)?;
    let t = Target {
        host: url.host(),
        port: url.port(),
        path: url.path(),
    };
    let (mut tls, info) = open_tls(net, &t, None, &line, opts).await?;
    let (header, metadata, body, ending) =
        read_answer(&mut tls, opts, |e| read_error(e, &t)).await?;
    Ok(ScrollResponse {
        header,
        metadata,
        body,
        tls: info,
        ending,
    })
}

/// A Scroll answer as read: the header, the metadata lines (success only), the body and how
/// it ended.
pub(crate) type Answer = (Header, Option<DocumentMeta>, Vec<u8>, super::Ending);

/// Read an answer from `reader`: the Gemini header, then on success the three metadata lines
/// (each bounded) and the body within `opts.max_body`.
pub(crate) async fn read_answer<R: tokio::io::AsyncRead + Unpin>(
    reader: &mut R,
    opts: &NetOptions,
    io_err: impl Fn(std::io::Error) -> FetchError + Copy,
) -> Result<Answer, FetchError> {
    let (header, mut rest) = read_header(reader, io_err).await?;
    let mut body = Vec::new();
    let mut metadata = None;
    let mut ending = super::Ending::Clean;
    if header.class() == StatusClass::Success {
        let mut lines: [String; 3] = Default::default();
        let names = ["author line", "publish-date line", "modification-date line"];
        for (slot, what) in lines.iter_mut().zip(names) {
            let raw = super::request::read_line(reader, &mut rest, MAX_METADATA_LINE, what, io_err)
                .await?;
            *slot = String::from_utf8_lossy(&raw).into_owned();
        }
        let [author, published, modified] = lines;
        metadata = Some(DocumentMeta::from_lines(&author, &published, &modified));
        body = rest;
        let progress = opts.progress.as_ref();
        ending = super::read_body(reader, &mut body, opts.max_body, progress, io_err).await?;
    }
    Ok((header, metadata, body, ending))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_lines() {
        let u = Url::parse("scroll://example.org/a").unwrap();
        assert_eq!(request_line(&u, "en").unwrap(), "scroll://example.org/a en");
        assert!(request_line(&u, "en fr").is_err());
        let g = Url::parse("gemini://example.org/").unwrap();
        assert!(request_line(&g, "en").is_err());
    }
}
