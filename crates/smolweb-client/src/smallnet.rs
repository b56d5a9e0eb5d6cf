//! The small protocols in the client: nex, finger, spartan, scroll and gophers (fetches) and
//! titan (uploads), with the same cache rules, pacing, in-flight limits and budget as Gemini
//! and Gopher.
//!
//! - Cache: by the normalized URL, never when the request carries a query or an input answer
//!   (a Spartan data block, a Scroll query), since those may be secrets; never for an upload.
//! - robots.txt: only gophers has a convention (Gopher's `robots.txt` selector, fetched over
//!   the same TLS); nex, finger, spartan and scroll have none, so none is asked for.
//! - Finger: a forwarding query (`user@host` sent to another host) is refused unless the
//!   caller sets [`OpenOptions::finger_forward`] (the browser sets it only for an address the
//!   person typed; the agent's face never does).
//! - Spartan statuses map onto Gemini's classes: 2 is a page, 3 a same-host redirect, 4
//!   (client error) a failure reported as 59 and 5 (server error) one reported as 40, with
//!   `spartan_status` in the message.
//! - Nex: a path that is empty or ends in `/` is a directory, read as gemtext (its `=>`
//!   lines are the links); otherwise the type comes from the extension (plain text when
//!   there is none).

use super::budget::Budget;
use super::pipeline::{self, Answer, Call, Plan, Protocol, RobotsRule, unexpected};
use super::{Client, OpenOptions, Outcome, RequestInfo, error};
use smolweb_core::page::{Page, mime_of};
use smolweb_core::response::{StatusClass, parse_mime};
use smolweb_core::url::{Scheme, Url};
use smolweb_net::policy::gopher_robots_answer;
use smolweb_net::policy::robots::GOPHER_AGENTS;
use smolweb_net::titan::TitanUpload;
use smolweb_net::{
    FetchError, GeminiResponse, InternalError, ProtocolError, Request, RequestError, Response,
};

/// The language list a Scroll request asks for.
pub const SCROLL_LANGUAGES: &str = "en";

/// What a Nex path names: the MIME type by extension (directories are gemtext).
pub fn nex_mime(path: &str) -> &'static str {
    if path.is_empty() || path.ends_with('/') {
        return "text/gemini";
    }
    let name = path.rsplit('/').next().unwrap_or(path);
    let Some((_, ext)) = name.rsplit_once('.') else {
        return "text/plain";
    };
    match ext.to_ascii_lowercase().as_str() {
        "gmi" | "gemini" => "text/gemini",
        "txt" | "text" | "log" | "nex" => "text/plain",
        "md" | "markdown" => "text/markdown",
        "html" | "htm" => "text/html",
        "xml" | "atom" | "rss" => "application/xml",
        "json" => "application/json",
        "csv" => "text/csv",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "svg" => "image/svg+xml",
        "pdf" => "application/pdf",
        "mp3" => "audio/mpeg",
        "ogg" | "oga" => "audio/ogg",
        "flac" => "audio/flac",
        "wav" => "audio/wav",
        "mp4" => "video/mp4",
        "webm" => "video/webm",
        "zip" => "application/zip",
        "gz" | "tgz" => "application/gzip",
        "tar" => "application/x-tar",
        _ => "application/octet-stream",
    }
}

/// The request `url` makes (with `opts`), or why it is refused before anything is sent.
fn request_of(url: &Url, opts: &OpenOptions) -> Result<Request, FetchError> {
    let invalid = |e| FetchError::from(RequestError::Url(e));
    let (host, port) = (url.host().to_string(), url.port());
    Ok(match url.scheme() {
        Scheme::Nex => {
            let decoded = url.decoded_path();
            let path = decoded.strip_prefix('/').unwrap_or(&decoded).to_string();
            Request::Nex { host, port, path }
        }
        Scheme::Finger => {
            let (query, forward) = url.finger_query().map_err(invalid)?;
            if forward && !opts.finger_forward {
                return Err(RequestError::FingerForward { query, host }.into());
            }
            Request::Finger { host, port, query }
        }
        Scheme::Spartan => {
            let data = match (&opts.input, url.query()) {
                (Some(answer), _) => answer.as_bytes().to_vec(),
                (None, Some(q)) => smolweb_core::url::percent_decode(q),
                (None, None) => Vec::new(),
            };
            let path = url.path().to_string();
            Request::Spartan {
                host,
                port,
                path,
                data,
            }
        }
        Scheme::Scroll => {
            let url = match &opts.input {
                Some(answer) => url.with_input(answer),
                None => url.clone(),
            };
            Request::Scroll {
                url,
                languages: SCROLL_LANGUAGES.to_string(),
            }
        }
        Scheme::Gophers => {
            let mut target = url.gopher_target().map_err(invalid)?;
            if let Some(s) = &opts.search {
                target.search = Some(s.clone());
            }
            if target.item_type != '7' {
                target.search = None;
            }
            if !smolweb_core::gopher::is_fetchable(target.item_type) {
                return Err(FetchError::NotFetchable(target.item_type));
            }
            Request::Gophers(target)
        }
        _ => {
            return Err(RequestError::WrongScheme {
                expected: "nex, finger, spartan, scroll or gophers",
                url: url.without_query(),
            }
            .into());
        }
    })
}

/// Does this request carry something that must not be cached or echoed (a query, an answer)?
fn carries_input(url: &Url, opts: &OpenOptions) -> bool {
    match url.scheme() {
        Scheme::Spartan | Scheme::Scroll => opts.input.is_some() || url.query().is_some(),
        Scheme::Gophers => opts.search.is_some() || url.query().is_some(),
        _ => false,
    }
}

/// Nex, Finger, Spartan and Scroll: no robots.txt convention.
pub(crate) struct SmallNet;

/// gophers: Gopher's robots.txt over the same TLS.
pub(crate) struct Gophers;

impl Protocol for SmallNet {
    fn plan(&self, url: &Url, opts: &OpenOptions) -> Plan {
        small_plan(url, opts)
    }

    fn map(&self, url: &Url, info: RequestInfo, answer: Response) -> Answer {
        small_answer(url, info, answer)
    }
}

impl Protocol for Gophers {
    fn plan(&self, url: &Url, opts: &OpenOptions) -> Plan {
        small_plan(url, opts)
    }

    fn map(&self, url: &Url, info: RequestInfo, answer: Response) -> Answer {
        small_answer(url, info, answer)
    }

    fn robots(&self) -> Option<RobotsRule> {
        Some(RobotsRule {
            request: |host, port| Ok(Request::Gophers(super::gopher::robots_target(host, port))),
            read: |answer| match answer {
                Response::Gophers { body, tls, .. } => {
                    Ok((gopher_robots_answer(&body), Some(tls.tofu)))
                }
                _ => Err(InternalError::WrongAnswer("a non-gophers answer").into()),
            },
            agents: GOPHER_AGENTS,
        })
    }
}

/// What a small-protocol URL asks (see the module docs for the cache rule).
fn small_plan(url: &Url, opts: &OpenOptions) -> Plan {
    let secret = carries_input(url, opts) && url.scheme() != Scheme::Gophers;
    let mut info = RequestInfo {
        url: if secret {
            url.without_query()
        } else {
            url.to_string()
        },
        host: url.host().to_string(),
        port: url.port(),
        path: Some(url.path().to_string()),
        has_query: secret,
        ..RequestInfo::default()
    };
    let request = request_of(url, opts);
    let mut robots_path = None;
    if let Ok(Request::Gophers(t)) = &request {
        info.item_type = Some(t.item_type);
        info.selector = Some(t.selector.clone());
        info.path = None;
        robots_path = Some(t.selector.clone());
    }
    Plan {
        url: url.clone(),
        info,
        request,
        cache_key: (!carries_input(url, opts)).then(|| url.to_string()),
        robots_path,
    }
}

/// A small-protocol answer as a page or an outcome.
fn small_answer(url: &Url, mut info: RequestInfo, answer: Response) -> Answer {
    let page = match answer {
        Response::Body(raw) => {
            let mime = match url.scheme() {
                Scheme::Nex => nex_mime(&url.decoded_path()),
                _ => "text/plain",
            };
            Page::from_gemini(url.clone(), mime_of(mime), raw)
        }
        Response::Gophers { body, tls, ending } => {
            info.tls = Some(tls);
            let item_type = info.item_type.unwrap_or('1');
            let page = Page::from_gopher(url.clone(), item_type, body);
            if ending.is_clean() {
                page
            } else {
                page.with_ending(ending)
            }
        }
        Response::Spartan(resp) => match resp.status {
            2 => Page::from_gemini(url.clone(), parse_mime(&resp.meta), resp.body),
            3 => return Answer::Done(spartan_redirect(url, info, &resp.meta)),
            status => {
                let gemini_status = if status == 4 { 59 } else { 40 };
                return Answer::Done(Outcome::Failure {
                    info,
                    status: gemini_status,
                    meta: format!("spartan status {status}: {}", resp.meta),
                    retry_after_seconds: None,
                });
            }
        },
        Response::Scroll(resp) => {
            if resp.header.class() != StatusClass::Success {
                let gemini = GeminiResponse {
                    header: resp.header,
                    body: Vec::new(),
                    tls: resp.tls,
                    ending: resp.ending,
                };
                return super::gemini::gemini_answer(url, info, gemini, true);
            }
            info.tls = Some(resp.tls);
            Page::from_gemini(url.clone(), parse_mime(&resp.header.meta), resp.body)
                .with_ending(resp.ending)
                .with_document_meta(resp.metadata)
        }
        _ => return unexpected(info, "an answer of another protocol"),
    };
    Answer::Page(info, Box::new(page))
}

/// Spartan 3: the meta is a path on the same host (anything else is a protocol error).
fn spartan_redirect(url: &Url, info: RequestInfo, meta: &str) -> Outcome {
    let meta = meta.trim();
    if !meta.starts_with('/') || meta.starts_with("//") {
        let e = ProtocolError::SpartanRedirect(meta.to_string());
        return error(info, e.into());
    }
    match url.resolve(meta) {
        Ok(target) => Outcome::Redirect {
            info,
            target,
            permanent: false,
            cross_host: false,
            scheme: "spartan".into(),
        },
        Err(source) => {
            let e = ProtocolError::RedirectTarget { status: 3, source };
            error(info, e.into())
        }
    }
}

/// What to upload with [`Client::titan_upload`].
#[derive(Clone)]
pub struct Upload {
    /// The titan:// URL (without `;` parameters).
    pub url: String,
    /// The bytes (empty: delete the resource).
    pub body: Vec<u8>,
    /// The MIME type (`text/gemini` when None).
    pub mime: Option<String>,
    /// The capsule's token, if it asks for one: sent, never stored or logged.
    pub token: Option<String>,
}

impl std::fmt::Debug for Upload {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Upload")
            .field("url", &smolweb_core::url::strip_query(&self.url))
            .field("size", &self.body.len())
            .field("mime", &self.mime)
            .field("token", &self.token.as_ref().map(|_| "<secret>"))
            .finish()
    }
}

/// The MIME type an upload is sent as when none is given.
pub const TITAN_DEFAULT_MIME: &str = "text/gemini";

impl Client {
    /// Upload with Titan: the same TLS, pin and identity scope as the `gemini://` URL of the
    /// same host, port and path; the answer mapped as a Gemini answer (a success page, a
    /// redirect to the uploaded resource, a failure). Never cached; the in-flight limits and
    /// the one budget apply; an agent's face is paced. The person's consent for an agent's
    /// upload is the caller's business (the MCP gate), before this is called.
    pub async fn titan_upload(&self, upload: &Upload) -> Outcome {
        let started = std::time::Instant::now();
        let budget = Budget::from(
            started,
            std::time::Duration::from_secs(self.config.network.timeout_seconds),
        );
        let parsed = Url::parse(&upload.url)
            .map_err(RequestError::Url)
            .and_then(|u| {
                if u.scheme() == Scheme::Titan {
                    Ok(u)
                } else {
                    Err(RequestError::WrongScheme {
                        expected: "titan",
                        url: u.without_query(),
                    })
                }
            });
        let url = match parsed {
            Ok(u) => u,
            Err(e) => {
                let info = RequestInfo {
                    url: smolweb_core::url::strip_query(&upload.url).to_string(),
                    ..RequestInfo::default()
                };
                return error(info, e.into());
            }
        };
        tracing::debug!(
            host = url.host(),
            port = url.port(),
            size = upload.body.len(),
            "titan upload"
        );
        let titan = Titan(upload);
        let call = Call {
            refresh: false,
            net: self.net_options(&OpenOptions::default()),
            waits: None,
            budget,
        };
        pipeline::run(
            self,
            &titan,
            titan.plan(&url, &OpenOptions::default()),
            &call,
        )
        .await
    }
}

/// A Titan upload on the pipeline: never cached, no robots.txt, a 44 not asked again.
struct Titan<'a>(&'a Upload);

impl Protocol for Titan<'_> {
    fn plan(&self, url: &Url, _opts: &OpenOptions) -> Plan {
        let upload = self.0;
        let info = RequestInfo {
            url: url.without_query(),
            host: url.host().to_string(),
            port: url.port(),
            path: Some(url.path().to_string()),
            has_query: url.query().is_some(),
            ..RequestInfo::default()
        };
        let request = Request::Titan(TitanUpload {
            url: url.clone(),
            body: upload.body.clone(),
            mime: upload
                .mime
                .clone()
                .unwrap_or_else(|| TITAN_DEFAULT_MIME.to_string()),
            token: upload.token.clone(),
        });
        Plan {
            // Mapped against the gemini:// twin, so a relative redirect lands on the capsule.
            url: url.with_scheme(Scheme::Gemini),
            info,
            request: Ok(request),
            cache_key: None,
            robots_path: None,
        }
    }

    fn map(&self, url: &Url, mut info: RequestInfo, answer: Response) -> Answer {
        let Response::Titan { response, early } = answer else {
            return unexpected(info, "a fetch's answer to an upload");
        };
        if early && response.header.class() == StatusClass::Success {
            info.tls = Some(response.tls);
            return Answer::Done(error(info, ProtocolError::EarlySuccess.into()));
        }
        super::gemini::gemini_answer(url, info, response, false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nex_types() {
        for (path, want) in [
            ("", "text/gemini"),
            ("/", "text/gemini"),
            ("/docs/", "text/gemini"),
            ("/about", "text/plain"),
            ("/a.txt", "text/plain"),
            ("/a.gmi", "text/gemini"),
            ("/pic.PNG", "image/png"),
            ("/a.weird", "application/octet-stream"),
            ("/dir.d/file", "text/plain"),
        ] {
            assert_eq!(nex_mime(path), want, "{path}");
        }
    }

    #[test]
    fn finger_forward_is_refused_unless_asked() {
        let url = Url::parse("finger://example.org/alice@elsewhere.example").unwrap();
        let opts = OpenOptions::default();
        let err = request_of(&url, &opts).unwrap_err();
        assert_eq!(err.code(), smolweb_net::ErrorCode::InvalidRequest);
        let opts = OpenOptions {
            finger_forward: true,
            ..OpenOptions::default()
        };
        assert!(matches!(
            request_of(&url, &opts),
            Ok(Request::Finger { query, .. }) if query == "alice@elsewhere.example"
        ));
        let url = Url::parse("finger://alice@example.org").unwrap();
        assert!(matches!(
            request_of(&url, &OpenOptions::default()),
            Ok(Request::Finger { query, .. }) if query == "alice"
        ));
    }

    #[test]
    fn spartan_query_is_the_data_block() {
        let url = Url::parse("spartan://example.org/post?hello%20world").unwrap();
        let Ok(Request::Spartan { data, path, .. }) = request_of(&url, &OpenOptions::default())
        else {
            panic!("not spartan");
        };
        assert_eq!(
            (data.as_slice(), path.as_str()),
            (&b"hello world"[..], "/post")
        );
        assert!(carries_input(&url, &OpenOptions::default()));
    }
}
