//! The identities screen: its cursor over approvals then identities, and what its keys do
//! (create, allow agent use, export, delete after a question, approve or deny a request).

use super::dialog::Pending;
use super::loads::Request;
use super::{App, Effect, FetchOptions, Purpose, StoreOp, View};
use crate::keymap::Action;
use smolweb_net::IdentityChoice;
use smolweb_store::approvals::Request as AskRequest;
use smolweb_store::identity::Identity;

/// Rows above the list on the identities screen.
pub(super) const IDENTITY_LIST_TOP: usize = 2;

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

impl App {
    /// The approval or identity under the cursor on the identities screen.
    pub fn identity_selection(&self) -> Option<usize> {
        match self.current().map(|e| &e.view) {
            Some(View::Identities { selected }) => Some(*selected),
            _ => None,
        }
    }

    /// Move or set the cursor (clamped to the list).
    pub(super) fn set_identity_selection(&mut self, pick: impl FnOnce(usize) -> usize) -> bool {
        let n = self.lists.identity_rows();
        match self.tabs.active_mut().and_then(|t| t.current.as_mut()) {
            Some(super::Entry {
                view: View::Identities { selected },
                ..
            }) => {
                *selected = pick(*selected).min(n.saturating_sub(1));
                true
            }
            _ => false,
        }
    }

    pub(super) fn clamp_identity_selection(&mut self) {
        self.set_identity_selection(|s| s);
    }

    pub(super) fn identity_action(&mut self, action: Action) -> Vec<Effect> {
        if action == Action::IdentityCreate {
            self.open_prompt(Purpose::IdentityScope);
            return Vec::new();
        }
        let Some(sel) = self.identity_selection() else {
            return Vec::new();
        };
        let approval = self.lists.approvals.get(sel).cloned();
        let identity = sel
            .checked_sub(self.lists.approvals.len())
            .and_then(|i| self.lists.identities.get(i))
            .cloned();
        match (action, approval, identity) {
            (Action::ApprovalApprove, Some(a), _) => {
                let question = format!(
                    "{} asks to {}. {} Approve? (y/n)",
                    a.client,
                    a.request.describe(),
                    what_changes(&a.request)
                );
                self.ask(question, Pending::Approve(a.id))
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
            (Action::IdentityDelete, _, Some(i)) => self.ask(
                format!(
                    "Delete identity '{}' ({}) and its private key? (y/n)",
                    i.name,
                    i.scope.url()
                ),
                Pending::DeleteIdentity(i.fingerprint),
            ),
            _ => {
                self.set_status("nothing selected for that");
                Vec::new()
            }
        }
    }

    pub(super) fn on_identity_created(
        &mut self,
        result: Result<Identity, super::ShellError>,
        then: Option<(u64, String)>,
    ) -> Vec<Effect> {
        let id = match result {
            Ok(id) => id,
            Err(e) => {
                self.set_error(format!("could not create the identity: {e}"));
                return Vec::new();
            }
        };
        self.set_status(format!(
            "created identity '{}' for {}",
            id.name,
            id.scope.url()
        ));
        let fingerprint = id.fingerprint.clone();
        self.lists.identities.push(id);
        let mut fx = vec![Effect::Store(StoreOp::LoadLists)];
        if let Some((tab, url)) = then {
            let opts = FetchOptions {
                identity: IdentityChoice::Fingerprint(fingerprint),
                ..FetchOptions::default()
            };
            fx.extend(self.fetch(Request::new(tab, &url, opts).replacing()));
        }
        fx
    }
}
