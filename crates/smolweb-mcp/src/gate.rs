//! The one flow of every consent-gated change (identity create/remove, trust pin/remove):
//! ask the human (elicitation on either protocol generation) or queue the request for their
//! approval, perform an approved change through `Client::approve` (the same path the CLI takes),
//! and reply.
//!
//! A gated tool supplies two things: a `Plan` (its checked parameters: either an answer with
//! nothing to change, or the approval `Request`, the question and the call digest), and a
//! result type implementing `Gated` (how a queued or a performed change reads). A new gated
//! tool is those two and one call to [`run`].

use super::ask::{Ask, Retry, ask};
use super::results::{ErrorCode, ErrorOut, err, store_err};
use super::seal::Sealer;
use rmcp::RoleServer;
use rmcp::model::InputRequiredResult;
use rmcp::service::RequestContext;
use schemars::JsonSchema;
use serde::Deserialize;
use smolweb_client::{Approved, Client, Decider};
use smolweb_store::activity::ConsentStep;
use smolweb_store::approvals::{Approval, Request};

/// Elicitation form: a yes/no question.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
pub(crate) struct Confirm {
    /// Tick to allow the change.
    pub approve: bool,
}
rmcp::elicit_safe!(Confirm);

/// A finished result or a question for a 2026-07-28 client.
pub(crate) enum Reply<T> {
    Done(T),
    NeedInput(InputRequiredResult),
}

/// Everything a consent round needs.
pub(crate) struct ConsentCtx<'a> {
    pub client: &'a Client,
    pub(crate) sealer: &'a Sealer,
    pub ctx: &'a RequestContext<RoleServer>,
    pub retry: &'a Retry,
    /// The session's activity log (each consent step is recorded).
    pub(crate) log: &'a crate::session::SessionLog,
}

/// A gated change with its parameters checked.
pub(crate) enum Plan<O> {
    /// Nothing to change (already so); the answer as it is.
    Nothing(O),
    /// Ask for `request`; `out` is the result to complete.
    Ask {
        out: O,
        request: Request,
        question: String,
        /// Binds a 2026-07-28 answer to this very call (see `seal`).
        digest: String,
    },
}

/// How the result of a gated change reports a queued or a performed change.
pub(crate) trait Gated {
    /// The change waits in the approval queue as `approval_id`.
    fn queued(&mut self, message: String, approval_id: String);
    /// The human approved and the change was made.
    fn performed(&mut self, client: &Client, done: Approved);
}

/// What asking for consent came to.
enum Consent {
    Approved(Approved),
    Pending(Approval),
    NeedInput(InputRequiredResult),
    Failed(ErrorOut),
}

impl ConsentCtx<'_> {
    /// The MCP client's name as the human will read it in a question or the queue.
    pub(crate) fn client_name(&self) -> String {
        self.ctx
            .client_info()
            .map(|i| i.name)
            .filter(|n| !n.is_empty())
            .unwrap_or_else(|| "an MCP client".into())
    }

    async fn consent(&self, request: Request, call_digest: &str, question: String) -> Consent {
        let tool = if request.is_identity() {
            "gemini_client_cert_update"
        } else {
            "gemini_trust_update"
        };
        let what = request.describe();
        let step = |s: ConsentStep| self.log.consent(tool, s, &what);
        let answer = ask::<Confirm>(
            self.ctx,
            self.retry,
            (self.sealer, self.client.config().mcp.consent_timeout()),
            "consent",
            call_digest,
            question,
        )
        .await;
        let client = self.client;
        let add = || client.queue_approval(request, &self.client_name());
        // Asked: the question reached the person (a 2026-07-28 retry carries the answer to a
        // question logged on its first round; a client that cannot ask asked nothing).
        let asked_now = match &answer {
            Ask::NeedInput(_) => true,
            Ask::Answer(_) | Ask::Declined | Ask::TimedOut => self.retry.state.is_none(),
            Ask::Unsupported | Ask::Invalid(_) => false,
        };
        if asked_now {
            step(ConsentStep::Asked);
        }
        match &answer {
            Ask::Answer(Confirm { approve: true }) => step(ConsentStep::Approved),
            Ask::Answer(Confirm { approve: false }) | Ask::Declined => step(ConsentStep::Denied),
            Ask::TimedOut => step(ConsentStep::TimedOut),
            Ask::Unsupported | Ask::NeedInput(_) | Ask::Invalid(_) => {}
        }
        match answer {
            Ask::Answer(Confirm { approve: true }) => {
                match add().and_then(|queued| client.approve(&queued.id, Decider::AgentClient)) {
                    Ok(done) => Consent::Approved(done),
                    Err(e) => Consent::Failed(store_err(&e)),
                }
            }
            Ask::Unsupported | Ask::TimedOut => match add() {
                Ok(queued) => {
                    // With its id, so the person's decision on it is logged under this session.
                    self.log.queued(tool, &what, &queued.id);
                    Consent::Pending(queued)
                }
                Err(e) => Consent::Failed(store_err(&e)),
            },
            Ask::NeedInput(r) => Consent::NeedInput(r),
            Ask::Invalid(m) => Consent::Failed(err(ErrorCode::InvalidRequest, m)),
            Ask::Answer(Confirm { approve: false }) | Ask::Declined => Consent::Failed(err(
                ErrorCode::UserDeclined,
                "the user declined the change; do not ask again unless they bring it up",
            )),
        }
    }
}

/// What asking for a yes to an act that cannot wait in the queue came to.
pub(crate) enum Confirmed {
    /// The person said yes to this very call.
    Yes,
    /// A 2026-07-28 client must put the question and call again.
    NeedInput(InputRequiredResult),
    /// No: declined, or the person could not be asked (says which).
    No(ErrorOut),
}

/// Ask the person about an act performed now or never (a Titan upload: its body and token
/// are not stored, so it cannot wait in the approval queue). The same question form and
/// protocol rounds as [`run`]; a client that cannot ask its user is told so, and nothing is
/// done.
pub(crate) async fn confirm(
    c: &ConsentCtx<'_>,
    call_digest: &str,
    question: String,
    what: &str,
) -> Confirmed {
    let how = (c.sealer, c.client.config().mcp.consent_timeout());
    let answer = ask::<Confirm>(c.ctx, c.retry, how, "consent", call_digest, question).await;
    let step = |s: ConsentStep| c.log.consent("titan_upload", s, what);
    let asked_now = match &answer {
        Ask::NeedInput(_) => true,
        Ask::Answer(_) | Ask::Declined | Ask::TimedOut => c.retry.state.is_none(),
        Ask::Unsupported | Ask::Invalid(_) => false,
    };
    if asked_now {
        step(ConsentStep::Asked);
    }
    match answer {
        Ask::Answer(Confirm { approve: true }) => {
            step(ConsentStep::Approved);
            Confirmed::Yes
        }
        Ask::NeedInput(r) => Confirmed::NeedInput(r),
        Ask::Invalid(m) => Confirmed::No(err(ErrorCode::InvalidRequest, m)),
        Ask::Unsupported => Confirmed::No(err(
            ErrorCode::UserDeclined,
            "this MCP client cannot ask its user (no elicitation), and an upload is only \
             sent after the user approves it; nothing was sent",
        )),
        Ask::TimedOut => {
            step(ConsentStep::TimedOut);
            Confirmed::No(err(
                ErrorCode::UserDeclined,
                "the user did not answer in time; nothing was sent. An upload is never queued: \
                 ask again only if the user brings it up",
            ))
        }
        Ask::Answer(Confirm { approve: false }) | Ask::Declined => {
            step(ConsentStep::Denied);
            Confirmed::No(err(
                ErrorCode::UserDeclined,
                "the user declined the upload; nothing was sent. Do not ask again unless they \
                 bring it up",
            ))
        }
    }
}

/// Run a planned change: ask or queue, perform, reply.
pub(crate) async fn run<O: Gated>(c: &ConsentCtx<'_>, plan: Plan<O>) -> Result<Reply<O>, ErrorOut> {
    let (mut out, request, question, digest) = match plan {
        Plan::Nothing(out) => return Ok(Reply::Done(out)),
        Plan::Ask {
            out,
            request,
            question,
            digest,
        } => (out, request, question, digest),
    };
    match c.consent(request, &digest, question).await {
        Consent::NeedInput(r) => return Ok(Reply::NeedInput(r)),
        Consent::Failed(e) => return Err(e),
        Consent::Pending(a) => {
            let message = format!("waiting for the user's approval: {}", a.request.describe());
            out.queued(message, a.id);
        }
        Consent::Approved(done) => out.performed(c.client, done),
    }
    Ok(Reply::Done(out))
}

/// Wrap a gated flow's outcome in a tool's result enum.
pub(crate) fn finish<O, R>(
    r: Result<Reply<O>, ErrorOut>,
    ok: fn(O) -> R,
    error: fn(ErrorOut) -> R,
) -> Reply<R> {
    match r {
        Ok(Reply::Done(out)) => Reply::Done(ok(out)),
        Ok(Reply::NeedInput(r)) => Reply::NeedInput(r),
        Err(e) => Reply::Done(error(e)),
    }
}
