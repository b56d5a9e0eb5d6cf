//! The identities screen: its cursor over approvals then identities, and what its keys do
//! (create, allow agent use, export, delete after a question, approve or deny a request),
//! and the identity messages from the shell.

use super::dialog::Pending;
use super::loads::Request;
use super::{Ctx, Effect, Entry, FetchOptions, Msg, Purpose, StoreOp, Then, View};
use crate::keymap::Action;
use smolweb_net::IdentityChoice;
use smolweb_store::approvals::Request as AskRequest;
use smolweb_store::identity::Identity;

/// Rows above the list on the identities screen.
pub(super) const IDENTITY_LIST_TOP: usize = 3;

/// What approving a request changes, in a sentence.
fn what_changes(request: &AskRequest) -> String {
    match request {
        AskRequest::IdentityCreate { scope, .. } => format!(
            "A new client certificate is made for {}; the capsule will recognise you by it, in the browser too, and agents may use it.",
            scope.url()
        ),
        AskRequest::IdentityRemove { scope, .. } => format!(
            "The identity and its private key are deleted; {} will no longer recognise you by it.",
            scope.url()
        ),
        AskRequest::TrustPin { host, port, .. } => format!(
            "This certificate replaces the one pinned for {host}:{port}, for you and for agents."
        ),
        AskRequest::TrustRemove { host, port } => {
            format!("The next visit to {host}:{port} pins whatever certificate it presents.")
        }
    }
}

/// The identities room: stateless (the cursor is in the tab's history entry, the lists are
/// what the stores last said).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Identities;

impl Identities {
    /// The identity and approval messages from the shell.
    pub(crate) fn update(self, msg: Msg, ctx: &mut Ctx) -> Vec<Effect> {
        match msg {
            Msg::Identities(list) => ctx.lists.identities = list,
            Msg::Approvals(list) => ctx.lists.approvals = list,
            Msg::IdentityCreated { result, then } => return self.created(result, then, ctx),
            Msg::IdentityImported(result) => return self.imported(result, ctx),
            _ => return Vec::new(),
        }
        self.select(ctx, |s| s);
        Vec::new()
    }

    /// The approval or identity under the cursor on the identities screen.
    pub(crate) fn selection(self, e: Option<&Entry>) -> Option<usize> {
        match e.map(|e| &e.view) {
            Some(View::Identities { selected }) => Some(*selected),
            _ => None,
        }
    }

    /// Move or set the cursor (clamped to the list); false when not on the screen.
    pub(crate) fn select(self, ctx: &mut Ctx, pick: impl FnOnce(usize) -> usize) -> bool {
        let n = ctx.lists.identity_rows();
        match ctx.tabs.active_mut().and_then(|t| t.current.as_mut()) {
            Some(Entry {
                view: View::Identities { selected },
                ..
            }) => {
                *selected = pick(*selected).min(n.saturating_sub(1));
                true
            }
            _ => false,
        }
    }

    /// The keys of the identities screen.
    pub(crate) fn act(self, action: Action, ctx: &mut Ctx) -> Vec<Effect> {
        if action == Action::IdentityCreate {
            ctx.then(Then::Prompt(Purpose::IdentityScope));
            return Vec::new();
        }
        if action == Action::IdentityImport {
            ctx.then(Then::Prompt(Purpose::ImportCert));
            return Vec::new();
        }
        let Some(sel) = self.selection(ctx.current()) else {
            return Vec::new();
        };
        let approval = ctx.lists.approvals.get(sel).cloned();
        let identity = sel
            .checked_sub(ctx.lists.approvals.len())
            .and_then(|i| ctx.lists.identities.get(i))
            .cloned();
        match (action, approval, identity) {
            (Action::ApprovalApprove, Some(a), _) => {
                let question = format!(
                    "{} asks to {}. {} Approve? (y/n)",
                    a.client,
                    a.request.describe(),
                    what_changes(&a.request)
                );
                ctx.ask(question, Pending::Approve(a.id));
                Vec::new()
            }
            (Action::ApprovalDeny | Action::IdentityDelete, Some(a), _) => {
                vec![Effect::Store(StoreOp::Deny { id: a.id })]
            }
            (Action::IdentityToggleAgent, _, Some(i)) => {
                vec![Effect::Store(StoreOp::SetAgentUse {
                    fingerprint: i.fingerprint,
                    allowed: !i.agent_use,
                })]
            }
            (Action::IdentityExport, _, Some(i)) => vec![Effect::Store(StoreOp::ExportIdentity {
                fingerprint: i.fingerprint,
            })],
            (Action::IdentityDelete, _, Some(i)) => {
                ctx.ask(
                    format!(
                        "Delete identity '{}' ({}) and its private key? (y/n)",
                        i.name,
                        i.scope.url()
                    ),
                    Pending::DeleteIdentity(i.fingerprint),
                );
                Vec::new()
            }
            _ => {
                ctx.info("nothing selected for that");
                Vec::new()
            }
        }
    }

    fn imported(self, result: Result<Identity, super::ShellError>, ctx: &mut Ctx) -> Vec<Effect> {
        match result {
            Ok(id) => {
                let agents = if id.agent_use { "may" } else { "may not" };
                ctx.info(format!(
                    "imported identity '{}' for {}; agents {agents} use it",
                    id.name,
                    id.scope.url(),
                ));
                ctx.lists.identities.push(id);
                vec![Effect::Store(StoreOp::LoadLists)]
            }
            Err(e) => {
                ctx.error(format!("could not import the identity: {e}"));
                Vec::new()
            }
        }
    }

    fn created(
        self,
        result: Result<Identity, super::ShellError>,
        then: Option<(u64, String)>,
        ctx: &mut Ctx,
    ) -> Vec<Effect> {
        let id = match result {
            Ok(id) => id,
            Err(e) => {
                ctx.error(format!("could not create the identity: {e}"));
                return Vec::new();
            }
        };
        ctx.info(format!(
            "created identity '{}' for {}",
            id.name,
            id.scope.url()
        ));
        let fingerprint = id.fingerprint.clone();
        ctx.lists.identities.push(id);
        if let Some((tab, url)) = then {
            let opts = FetchOptions {
                identity: IdentityChoice::Fingerprint(fingerprint),
                ..FetchOptions::default()
            };
            ctx.then(Then::Fetch(Request::new(tab, &url, opts).replacing()));
        }
        vec![Effect::Store(StoreOp::LoadLists)]
    }
}
