//! Gemini on the open pipeline (`pipeline`): the request (the input answer sent as the
//! query), the cache key (never for a query), robots.txt at `/robots.txt`, and the mapping of
//! status classes to [`Outcome`]s, which Scroll and Titan answers share.
//!
//! 44 SLOW DOWN is the pipeline's: the host's next slot is pushed back by the seconds in the
//! meta; if that wait fits in what is left of the timeout budget the pipeline waits and asks
//! once more, else the answer is `FetchError::SlowDown`. A second 44 is returned as a
//! `Failure` with `retry_after_seconds`.

use super::pipeline::{Answer, Plan, Protocol, RobotsRule, unexpected};
use super::{OpenOptions, Outcome, RequestInfo, error};
use smolweb_core::page::Page;
use smolweb_core::response::{StatusClass, parse_mime};
use smolweb_core::url::Url;
use smolweb_net::policy::gemini_robots_answer;
use smolweb_net::policy::robots::GEMINI_AGENTS;
use smolweb_net::{
    FetchError, GeminiResponse, InternalError, ProtocolError, Request, RequestError, Response,
};

/// Gemini (`gemini://`).
pub(crate) struct Gemini;

impl Protocol for Gemini {
    fn plan(&self, url: &Url, opts: &OpenOptions) -> Plan {
        let mut plan = query_plan(url, opts, Request::Gemini);
        plan.robots_path = Some(plan.url.path().to_string());
        plan
    }

    fn map(&self, url: &Url, info: RequestInfo, answer: Response) -> Answer {
        match answer {
            Response::Gemini(resp) => gemini_answer(url, info, resp, true),
            _ => unexpected(info, "a non-Gemini answer"),
        }
    }

    fn robots(&self) -> Option<RobotsRule> {
        Some(RobotsRule {
            request: robots_request,
            read: |answer| match answer {
                Response::Gemini(r) => Ok((
                    gemini_robots_answer(r.header.status, &r.body),
                    Some(r.tls.tofu),
                )),
                _ => Err(InternalError::WrongAnswer("a non-Gemini answer").into()),
            },
            agents: GEMINI_AGENTS,
        })
    }
}

/// The plan of a protocol whose input answer is sent as the URL's query (Gemini, Guppy): the
/// query never echoed nor cached; no robots.txt asked (the caller adds it).
pub(crate) fn query_plan(url: &Url, opts: &OpenOptions, request: fn(Url) -> Request) -> Plan {
    let url = match &opts.input {
        Some(answer) => url.with_input(answer),
        None => url.clone(),
    };
    let has_query = url.query().is_some();
    let info = RequestInfo {
        url: url.without_query(),
        host: url.host().to_string(),
        port: url.port(),
        path: Some(url.path().to_string()),
        has_query,
        ..RequestInfo::default()
    };
    Plan {
        cache_key: (!has_query).then(|| url.to_string()),
        robots_path: None,
        request: Ok(request(url.clone())),
        info,
        url,
    }
}

/// `gemini://host:port/robots.txt`.
fn robots_request(host: &str, port: u16) -> Result<Request, FetchError> {
    let host_part = if host.contains(':') {
        format!("[{host}]")
    } else {
        host.to_string()
    };
    Url::parse(&format!("gemini://{host_part}:{port}/robots.txt"))
        .map(Request::Gemini)
        .map_err(|e| RequestError::Url(e).into())
}

/// A Gemini answer (also Scroll's and Titan's) as a pipeline answer: its TLS facts into
/// `info`, a 2x page read against `url`, a 44 handed to the pipeline when `slow_down` (an
/// upload is never asked again: its 44 is a failure), the other classes as outcomes.
pub(crate) fn gemini_answer(
    url: &Url,
    mut info: RequestInfo,
    resp: GeminiResponse,
    slow_down: bool,
) -> Answer {
    let GeminiResponse {
        header,
        body,
        ending,
        tls,
    } = resp;
    info.tls = Some(tls);
    let status = header.status;
    let done = match header.class() {
        StatusClass::Input => Outcome::Input {
            info,
            prompt: header.meta,
            sensitive: status == 11,
        },
        StatusClass::Success => {
            let page = Page::from_gemini(url.clone(), parse_mime(&header.meta), body);
            // The flag travels with the page, into the memory cache too.
            return Answer::Page(info, Box::new(page.with_ending(ending)));
        }
        StatusClass::Redirect => redirect(url, info, status, &header.meta),
        StatusClass::TemporaryFailure if status == 44 && slow_down => {
            return Answer::SlowDown(info, header.meta);
        }
        StatusClass::TemporaryFailure | StatusClass::PermanentFailure => Outcome::Failure {
            info,
            status,
            meta: header.meta,
            retry_after_seconds: None,
        },
        StatusClass::ClientCertificate => Outcome::Certificate {
            info,
            status,
            message: header.meta,
        },
    };
    Answer::Done(done)
}

pub(crate) fn redirect(url: &Url, info: RequestInfo, status: u8, meta: &str) -> Outcome {
    let target = match url.resolve(meta.trim()) {
        Ok(t) => t,
        Err(source) => {
            let e = ProtocolError::RedirectTarget { status, source };
            return error(info, e.into());
        }
    };
    // The one link rule: a redirect is followed only to a scheme smolweb fetches.
    if smolweb_core::url::destination(&target) != smolweb_core::url::Destination::Fetch {
        let scheme = smolweb_core::url::refused_scheme(&target).unwrap_or_else(|| "mailto".into());
        let e = ProtocolError::RedirectScheme { status, scheme };
        return error(info, e.into());
    }
    let (scheme, cross_host) = describe_target(url, &target);
    Outcome::Redirect {
        info,
        target,
        permanent: status == 31,
        cross_host,
        scheme,
    }
}

/// The target's scheme and whether it leaves this host:port.
pub(super) fn describe_target(from: &Url, target: &str) -> (String, bool) {
    if let Ok(t) = Url::parse(target) {
        let cross = t.host() != from.host() || t.port() != from.port();
        return (t.scheme().as_str().to_string(), cross);
    }
    match url::Url::parse(target) {
        Ok(t) => {
            let same_host = t.host_str().is_some_and(|h| {
                h.trim_matches(|c| c == '[' || c == ']')
                    .eq_ignore_ascii_case(from.host())
            });
            let same = same_host && t.port_or_known_default() == Some(from.port());
            (t.scheme().to_string(), !same)
        }
        Err(_) => {
            let scheme = target.split(':').next().unwrap_or_default();
            (scheme.to_ascii_lowercase(), true)
        }
    }
}
