//! The Gopher fetcher: validate the request, guard, TCP (nodelay), send
//! `selector[TAB search]CRLF`, read to close (the close is the end over plain TCP; whether a
//! menu ended with its "." line is judged from the bytes, in `core::page`).
//!
//! Invariants: types 2 (CSO), 8 and T (telnet sessions) are never fetched; the selector is at
//! most 1024 bytes and the search at most 256, neither with CR, LF or TAB (they would end or
//! split the request line); the search is sent only for type 7; one timeout budget covers DNS,
//! connect and transfer; the body is bounded by `max_body`.

use super::{FetchError, NetOptions, RequestError, guard};
use smolweb_core::url::{GOPHER_MAX_SEARCH_BYTES, GOPHER_MAX_SELECTOR_BYTES, GopherTarget};
use tokio::io::AsyncWriteExt;

/// Item types that open interactive sessions instead of returning a document.
pub(crate) const NOT_FETCHABLE: &[char] = &['2', '8', 'T'];

fn check_field(what: &'static str, value: &str, limit: usize) -> Result<(), FetchError> {
    if value.len() > limit {
        let len = value.len();
        return Err(RequestError::TooLong { what, len, limit }.into());
    }
    if value.contains(['\r', '\n', '\t']) {
        let rule = "not contain CR, LF or TAB";
        return Err(RequestError::Field { what, rule }.into());
    }
    Ok(())
}

/// The request line for `target` (pure): validated, with CRLF.
pub(crate) fn request_line(target: &GopherTarget) -> Result<String, FetchError> {
    if NOT_FETCHABLE.contains(&target.item_type) {
        return Err(FetchError::NotFetchable(target.item_type));
    }
    check_field(
        "gopher selector",
        &target.selector,
        GOPHER_MAX_SELECTOR_BYTES,
    )?;
    match (&target.search, target.item_type) {
        (Some(search), '7') => {
            check_field("gopher search", search, GOPHER_MAX_SEARCH_BYTES)?;
            Ok(format!("{}\t{search}\r\n", target.selector))
        }
        _ => Ok(format!("{}\r\n", target.selector)),
    }
}

/// Fetch a gopher item within `opts.timeout`.
pub(crate) async fn fetch(target: &GopherTarget, opts: &NetOptions) -> Result<Vec<u8>, FetchError> {
    let line = request_line(target)?;
    tokio::time::timeout(opts.timeout, fetch_in_budget(target, &line, opts))
        .await
        .unwrap_or(Err(FetchError::Timeout(opts.timeout)))
}

async fn fetch_in_budget(
    target: &GopherTarget,
    line: &str,
    opts: &NetOptions,
) -> Result<Vec<u8>, FetchError> {
    let (host, port) = (target.host.as_str(), target.port);
    let addrs = guard::resolve_checked(host, port, opts).await?;
    let mut stream = super::connect(host, port, &addrs).await?;
    let io_err = |e| FetchError::connection(host, port, e);
    stream.write_all(line.as_bytes()).await.map_err(io_err)?;
    let mut body = Vec::new();
    let progress = opts.progress.as_ref();
    // Plain TCP has no close_notify: the connection's close is the end.
    super::read_body(&mut stream, &mut body, opts.max_body, progress, io_err).await?;
    Ok(body)
}

/// Fetch a gopher item over TLS (gophers://): the same request line, after a handshake judged
/// by TOFU like Gemini's (the one verifier, the pin of this host and port), no identity. The
/// caller holds the timeout.
pub(crate) async fn fetch_tls(
    net: &super::Net,
    target: &GopherTarget,
    opts: &NetOptions,
) -> Result<super::Response, FetchError> {
    use super::gemini::{Target, open_tls, read_error};
    let line = request_line(target)?;
    let t = Target {
        host: &target.host,
        port: target.port,
        path: &target.selector,
    };
    // open_tls adds the CRLF of a Gemini line; the gopher line carries its own.
    let line = line.strip_suffix("\r\n").unwrap_or(&line);
    let (mut tls, info) = open_tls(net, &t, None, line, opts).await?;
    let mut body = Vec::new();
    let progress = opts.progress.as_ref();
    let io_err = |e| read_error(e, &t);
    let ending = super::read_body(&mut tls, &mut body, opts.max_body, progress, io_err).await?;
    Ok(super::Response::Gophers {
        body,
        tls: info,
        ending,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use smolweb_core::code::ErrorCode;

    fn target(item_type: char, selector: &str, search: Option<&str>) -> GopherTarget {
        GopherTarget {
            host: "example.org".into(),
            port: 70,
            item_type,
            selector: selector.into(),
            search: search.map(str::to_string),
            search_ignored: false,
        }
    }

    #[test]
    fn request_lines() {
        let cases: &[(GopherTarget, Result<&str, ErrorCode>)] = &[
            (target('1', "", None), Ok("\r\n")),
            (target('0', "/a b", None), Ok("/a b\r\n")),
            (
                target('7', "/find", Some("smol web")),
                Ok("/find\tsmol web\r\n"),
            ),
            (target('7', "/find", None), Ok("/find\r\n")),
            (target('0', "/doc", Some("ignored")), Ok("/doc\r\n")),
            (target('2', "/cso", None), Err(ErrorCode::NotFetchable)),
            (target('8', "", None), Err(ErrorCode::NotFetchable)),
            (target('T', "", None), Err(ErrorCode::NotFetchable)),
            (target('0', "a\tb", None), Err(ErrorCode::InvalidRequest)),
            (target('0', "a\r\nb", None), Err(ErrorCode::InvalidRequest)),
            (
                target('7', "/s", Some("x\ny")),
                Err(ErrorCode::InvalidRequest),
            ),
            (
                target('0', &"s".repeat(1025), None),
                Err(ErrorCode::InvalidRequest),
            ),
            (
                target('7', "/s", Some(&"q".repeat(257))),
                Err(ErrorCode::InvalidRequest),
            ),
        ];
        for (t, want) in cases {
            let got = request_line(t).map_err(|e| e.code());
            assert_eq!(got.as_deref(), want.as_deref(), "{t:?}");
        }
        assert!(request_line(&target('0', &"s".repeat(1024), None)).is_ok());
        assert!(request_line(&target('7', "/s", Some(&"q".repeat(256)))).is_ok());
    }
}
