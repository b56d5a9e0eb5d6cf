//! The store operations the faces call, one module per store: the client hands out
//! operations, never a raw store, so what a face may do with the person's data is said here,
//! in one place for every face.
//!
//! Each operation is a method of [`Client`](crate::Client) that opens no new store (the
//! client's own, built once for its data directory), takes the time from the client's clock
//! when the store wants one, and answers the store's own error ([`smolweb_store::StoreError`]).
//! What changes the person's trust (pinning a certificate, making, importing, exporting or
//! removing an identity, letting an agent upload without asking) is for the human face only:
//! on the agent's face it is refused; an agent asks for it through an approval instead, which
//! the person performs (`approve`).

mod activity;
mod approvals;
mod bookmarks;
mod history;
mod identities;
mod pins;
mod shared;
mod subscriptions;
mod suggestions;
mod uploads;

use crate::{Client, Face};
use smolweb_store::StoreError;

impl Client {
    /// Refuse `what` on the agent's face: it is the person's to do (the agent asks for it
    /// through an approval).
    pub(crate) fn only_the_person(&self, what: &str) -> Result<(), StoreError> {
        match self.face {
            Face::Human => Ok(()),
            Face::Agent => Err(StoreError::Invalid(format!(
                "{what} is the person's to do: an agent asks for it through an approval"
            ))),
        }
    }
}
