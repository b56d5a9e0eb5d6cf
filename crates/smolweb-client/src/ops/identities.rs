//! The person's client identities ([`smolweb_store::identity`]) as the faces use them: every
//! face lists them and reads one; making, importing, exporting or removing one, and saying
//! whether agents may present it, are the person's only. An agent's identity is made by the
//! person's approval (`approve`).

use crate::Client;
use smolweb_store::StoreError;
use smolweb_store::identity::{Identity, NewIdentity, Scan, Scope, import::Imported};
use std::path::{Path, PathBuf};

impl Client {
    /// The identities that could be read, and the files that could not (so one bad file does
    /// not hide the rest).
    pub fn scan_identities(&self) -> Result<Scan, StoreError> {
        self.identities.scan()
    }

    /// The identity with this certificate fingerprint, if any.
    pub fn identity(&self, fingerprint: &str) -> Result<Option<Identity>, StoreError> {
        self.identities.get(fingerprint)
    }

    /// Is the identity's private key there and readable, and does it belong to its
    /// certificate? Said before the key is next presented.
    pub fn check_identity_key(&self, identity: &Identity) -> Result<(), StoreError> {
        self.identities.check_key(identity)
    }

    /// Make an identity now (the person's only).
    pub fn create_identity(&self, new: NewIdentity) -> Result<Identity, StoreError> {
        self.only_the_person("making an identity")?;
        self.identities.create(new, self.now())
    }

    /// Keep an identity made elsewhere for `scope` (the person's only); see
    /// `Identities::import`.
    pub fn import_identity(
        &self,
        imported: Imported,
        scope: Scope,
        name: Option<&str>,
        agent_use: bool,
    ) -> Result<Identity, StoreError> {
        self.only_the_person("importing an identity")?;
        self.identities.import(imported, scope, name, agent_use)
    }

    /// Delete an identity (the person's only); the identity deleted.
    pub fn remove_identity(&self, fingerprint: &str) -> Result<Identity, StoreError> {
        self.only_the_person("removing an identity")?;
        self.identities.remove(fingerprint)
    }

    /// Write the identity's certificate and key as PEM files into `dir` (the person's only;
    /// never over an existing file); the two paths.
    pub fn export_identity(
        &self,
        fingerprint: &str,
        dir: &Path,
    ) -> Result<(PathBuf, PathBuf), StoreError> {
        self.only_the_person("exporting an identity")?;
        self.identities.export(fingerprint, dir)
    }

    /// Say whether agents may present the identity (the person's only); the identity as
    /// stored.
    pub fn set_identity_agent_use(
        &self,
        fingerprint: &str,
        allowed: bool,
    ) -> Result<Identity, StoreError> {
        self.only_the_person("letting agents use an identity")?;
        self.identities
            .update(fingerprint, |i| i.agent_use = allowed)
    }
}
