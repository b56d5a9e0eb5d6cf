//! The approval queue ([`smolweb_store::approvals`]) as the faces use it: an agent's face
//! queues a request for the person, every face lists what waits. Performing or denying one
//! is [`Client::approve`] and [`Client::deny`] (`approve`).

use crate::Client;
use smolweb_store::StoreError;
use smolweb_store::approvals::{Approval, Request};

impl Client {
    /// The requests waiting for the person, the expired ones left out.
    pub fn pending_approvals(&self) -> Result<Vec<Approval>, StoreError> {
        self.approvals.pending(self.now())
    }

    /// Queue `request` for the person, asked by the MCP client named `client` (an identical
    /// pending request is reused, same id).
    pub fn queue_approval(&self, request: Request, client: &str) -> Result<Approval, StoreError> {
        self.approvals.add(request, client, self.now())
    }
}
