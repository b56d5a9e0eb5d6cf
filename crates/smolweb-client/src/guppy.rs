//! Guppy on the open pipeline (`pipeline`): the request (the input answer sent as the query,
//! as Gemini's), the cache rule (never when a query is sent: it may be an answer), no
//! robots.txt (Guppy has no convention), and the answer's mapping: a document is a page read
//! as a Gemini body of its MIME type, status 1 an input prompt, 3 a redirect (resolved and
//! judged as a Gemini one), 4 a failure reported as 50 with `guppy error` in its meta.

use super::pipeline::{Answer, Plan, Protocol, unexpected};
use super::{OpenOptions, Outcome, RequestInfo};
use smolweb_core::page::Page;
use smolweb_core::response::parse_mime;
use smolweb_core::url::Url;
use smolweb_net::{GuppyResponse, Request, Response};

/// Guppy (`guppy://`).
pub(crate) struct Guppy;

impl Protocol for Guppy {
    fn plan(&self, url: &Url, opts: &OpenOptions) -> Plan {
        super::gemini::query_plan(url, opts, Request::Guppy)
    }

    fn map(&self, url: &Url, info: RequestInfo, answer: Response) -> Answer {
        let Response::Guppy(answer) = answer else {
            return unexpected(info, "a non-Guppy answer");
        };
        let outcome = match answer {
            GuppyResponse::Document { mime, body } => {
                let page = Page::from_gemini(url.clone(), parse_mime(&mime), body);
                return Answer::Page(info, Box::new(page));
            }
            GuppyResponse::Input(prompt) => Outcome::Input {
                info,
                prompt,
                sensitive: false,
            },
            GuppyResponse::Redirect(target) => super::gemini::redirect(url, info, 3, &target),
            GuppyResponse::Error(message) => Outcome::Failure {
                info,
                status: 50,
                meta: format!("guppy error: {message}"),
                retry_after_seconds: None,
            },
        };
        Answer::Done(outcome)
    }
}
