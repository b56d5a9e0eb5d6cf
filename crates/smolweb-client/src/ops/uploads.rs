//! The person's standing permissions for an agent to upload with Titan under a scope
//! without being asked ([`smolweb_store::uploads`]): the agent's face looks one up before an
//! upload; giving or taking one back is the person's only.

use crate::Client;
use smolweb_store::StoreError;
use smolweb_store::uploads::Allowance;

impl Client {
    /// Every permission, oldest first.
    pub fn upload_allowances(&self) -> Result<Vec<Allowance>, StoreError> {
        self.uploads.list()
    }

    /// The permission that lets `agent` upload to `url` without asking, if there is one.
    pub fn upload_permit(&self, agent: &str, url: &str) -> Result<Option<Allowance>, StoreError> {
        self.uploads.permits(agent, url)
    }

    /// Let `agent` upload under the scope of `url` without asking (the person's only); false
    /// when it already could.
    pub fn allow_uploads(&self, agent: &str, url: &str) -> Result<bool, StoreError> {
        self.only_the_person("letting an agent upload without asking")?;
        self.uploads.allow(agent, url, self.now())
    }

    /// Take a permission back (the person's only); whether there was one.
    pub fn revoke_uploads(&self, agent: &str, url: &str) -> Result<bool, StoreError> {
        self.only_the_person("taking back an agent's upload permission")?;
        self.uploads.revoke(agent, url)
    }
}
