//! Titan uploads (over Gemini's TLS, port 1965): the request line
//! `titan://host[:port]/path;size=N;mime=T[;token=X][?query]` CRLF, then exactly N bytes; the
//! answer is an ordinary Gemini answer, which may come before the body is sent (a capsule that
//! refuses early), so the body is written while the header is read.
//!
//! Invariants: the same TLS as Gemini (the one verifier, the pin of this host and port, the
//! identity whose scope covers the path); the request line is at most
//! [`smolweb_core::url::GEMINI_MAX_URL_BYTES`] bytes, the MIME type and the token hold no
//! space, `;`, `?`, `#` or control character; the token is sent but never logged or kept;
//! `size=0` (an empty body) asks the capsule to delete the resource.

use super::gemini::{Target, open_tls, read_error, read_header};
use super::{FetchError, GeminiResponse, Net, NetOptions, RequestError, Response};
use smolweb_core::response::StatusClass;
use smolweb_core::url::{GEMINI_MAX_URL_BYTES, Scheme, Url, percent_encode};
use tokio::io::AsyncWriteExt;

/// One upload: where, what, as which type, with which token.
#[derive(Clone)]
pub struct TitanUpload {
    /// The titan:// URL, without `;` parameters (its query is kept after them).
    pub url: Url,
    /// The bytes to upload (empty: delete).
    pub body: Vec<u8>,
    /// The MIME type sent (`text/gemini` when the caller has none).
    pub mime: String,
    /// The capsule's token, when it asks for one (a secret: never logged).
    pub token: Option<String>,
}

impl std::fmt::Debug for TitanUpload {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TitanUpload")
            .field("url", &self.url.without_query())
            .field("size", &self.body.len())
            .field("mime", &self.mime)
            .field("token", &self.token.as_ref().map(|_| "<secret>"))
            .finish()
    }
}

fn clean(what: &'static str, value: &str) -> Result<(), FetchError> {
    if value.is_empty() || value.chars().any(|c| c.is_control() || " ;?#".contains(c)) {
        let rule = "be non-empty and hold no space, ';', '?', '#' or control character";
        return Err(RequestError::Field { what, rule }.into());
    }
    Ok(())
}

/// The request line for `upload` (pure), without CRLF.
pub(crate) fn request_line(upload: &TitanUpload) -> Result<String, FetchError> {
    let url = &upload.url;
    if url.scheme() != Scheme::Titan {
        let url = url.without_query();
        return Err(RequestError::WrongScheme {
            expected: "titan",
            url,
        }
        .into());
    }
    if url.path().contains(';') {
        return Err(RequestError::TitanParameters.into());
    }
    clean("titan MIME type", &upload.mime)?;
    let mut line = url.without_query();
    line.push_str(&format!(";size={};mime={}", upload.body.len(), upload.mime));
    if let Some(token) = &upload.token {
        line.push_str(";token=");
        line.push_str(&percent_encode(token));
    }
    if let Some(q) = url.query() {
        line.push('?');
        line.push_str(q);
    }
    if line.len() > GEMINI_MAX_URL_BYTES {
        let (what, len, limit) = ("titan request line", line.len(), GEMINI_MAX_URL_BYTES);
        return Err(RequestError::TooLong { what, len, limit }.into());
    }
    Ok(line)
}

/// Upload, reading the answer while the body is written. The caller holds the timeout.
pub(crate) async fn upload(
    net: &Net,
    upload: &TitanUpload,
    opts: &NetOptions,
) -> Result<Response, FetchError> {
    let line = request_line(upload)?;
    let url = &upload.url;
    let t = Target {
        host: url.host(),
        port: url.port(),
        path: url.path(),
    };
    let (tls, info) = open_tls(net, &t, Some(url.path()), &line, opts).await?;
    let io_err = |e| read_error(e, &t);
    let (mut rd, mut wr) = tokio::io::split(tls);
    let (header, written) = {
        let write = async {
            wr.write_all(&upload.body).await?;
            wr.flush().await
        };
        let read = read_header(&mut rd, io_err);
        tokio::pin!(write, read);
        let mut written: Option<Result<(), std::io::Error>> = None;
        // Biased towards the write: when the body went out and the answer is in, both are
        // ready, and a random pick would call a complete upload early.
        let header = loop {
            tokio::select! {
                biased;
                w = &mut write, if written.is_none() => written = Some(w),
                h = &mut read => break h,
            }
        };
        (header, written)
    };
    // A delete (size 0) has nothing to send, so no answer to it comes early.
    let early = !upload.body.is_empty() && !matches!(written, Some(Ok(())));
    let (header, rest) = match (header, written) {
        (Ok(h), _) => h,
        // The write failed and no answer came: the write's error says more.
        (Err(_), Some(Err(e))) => return Err(read_error(e, &t)),
        (Err(e), _) => return Err(e),
    };
    let mut body = Vec::new();
    let mut ending = super::Ending::Clean;
    if header.class() == StatusClass::Success {
        body = rest;
        let progress = opts.progress.as_ref();
        ending = super::read_body(&mut rd, &mut body, opts.max_body, progress, io_err).await?;
    }
    Ok(Response::Titan {
        response: GeminiResponse {
            header,
            body,
            tls: info,
            ending,
        },
        early,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn up(url: &str, body: &[u8], mime: &str, token: Option<&str>) -> TitanUpload {
        TitanUpload {
            url: Url::parse(url).unwrap(),
            body: body.to_vec(),
            mime: mime.into(),
            token: token.map(str::to_string),
        }
    }

    #[test]
    fn request_lines() {
        let line = request_line(&up(
            "titan://example.org/a.gmi",
            b"hello",
            "text/gemini",
            None,
        ));
        assert_eq!(
            line.unwrap(),
            "titan://example.org/a.gmi;size=5;mime=text/gemini"
        );
        let line = request_line(&up(
            "titan://example.org:1966/a?x=1",
            b"",
            "text/plain",
            Some("s e"),
        ));
        assert_eq!(
            line.unwrap(),
            "titan://example.org:1966/a;size=0;mime=text/plain;token=s%20e?x=1"
        );
        for bad in [
            up("titan://example.org/a;size=3", b"abc", "text/gemini", None),
            up("titan://example.org/a", b"abc", "text/ gemini", None),
            up("titan://example.org/a", b"abc", "", None),
            up("gemini://example.org/a", b"abc", "text/gemini", None),
        ] {
            assert!(request_line(&bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn debug_hides_the_token() {
        let u = up(
            "titan://example.org/a",
            b"x",
            "text/gemini",
            Some("hunter2"),
        );
        assert!(!format!("{u:?}").contains("hunter2"));
    }
}
