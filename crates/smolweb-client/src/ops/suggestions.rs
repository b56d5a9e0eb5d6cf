//! The pages agents suggest to the person, and the running browsers' presence
//! ([`smolweb_store::suggestions`]): the agent's face queues a suggestion and asks whether a
//! browser runs; the browser says it is alive (and leaving), lists the suggestions and takes
//! one when the person opens or dismisses it.

use crate::Client;
use smolweb_store::StoreError;
use smolweb_store::suggestions::Suggestion;

impl Client {
    /// The suggestions waiting, newest first.
    pub fn pending_suggestions(&self) -> Result<Vec<Suggestion>, StoreError> {
        self.suggestions.pending()
    }

    /// Suggest `url` to the person, from the MCP client named `client` in `session` (the
    /// same URL waiting is replaced: new note, new time, same id).
    pub fn suggest(
        &self,
        url: &str,
        note: Option<&str>,
        client: &str,
        session: &str,
    ) -> Result<Suggestion, StoreError> {
        self.suggestions.add(url, note, client, session, self.now())
    }

    /// Remove a suggestion the person opened or dismissed, and return it.
    pub fn take_suggestion(&self, id: &str) -> Result<Suggestion, StoreError> {
        self.suggestions.take(id)
    }

    /// This process's browser is alive now (its heartbeat in the presence file).
    pub fn browser_heartbeat(&self) -> Result<(), StoreError> {
        self.browsers.heartbeat(std::process::id(), self.now())
    }

    /// This process's browser is leaving: its heartbeat goes from the presence file.
    pub fn browser_leaving(&self) -> Result<(), StoreError> {
        self.browsers.leave(std::process::id())
    }

    /// How many browsers beat recently.
    pub fn browsers_running(&self) -> Result<usize, StoreError> {
        self.browsers.running(self.now())
    }
}
