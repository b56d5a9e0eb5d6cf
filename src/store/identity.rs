//! Client identities (Gemini client certificates), shared by both faces.
//!
//! Layout: `<dir>/<fingerprint-hex>.toml` (metadata + certificate PEM) and
//! `<dir>/<fingerprint-hex>.key` (private key PEM, mode 0600); `<dir>` has mode 0700.
//! Scope = host + port + path prefix matched by whole segments ("/a" covers "/a" and "/a/b",
//! not "/ab"); the longest matching prefix wins. Certificates are made with rcgen (ECDSA P-256
//! by default, Ed25519 on request).

use super::StoreError;
use std::path::PathBuf;
use time::OffsetDateTime;

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CreatedBy {
    Human,
    Agent,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum KeyAlgorithm {
    #[default]
    EcdsaP256,
    Ed25519,
}

/// Where an identity applies.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Scope {
    pub host: String,
    pub port: u16,
    /// Starts with "/"; "/" covers the whole capsule.
    pub path: String,
}

impl Scope {
    /// Does this scope cover `host:port` + `path` (whole path segments)?
    pub fn covers(&self, host: &str, port: u16, path: &str) -> bool {
        let _ = (host, port, path);
        false
    }
    /// `gemini://host[:port]/path` rendering.
    pub fn url(&self) -> String {
        if self.port == 1965 {
            format!("gemini://{}{}", self.host, self.path)
        } else {
            format!("gemini://{}:{}{}", self.host, self.port, self.path)
        }
    }
}

/// Metadata of one identity (never the private key).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Identity {
    pub name: String,
    /// `sha256:<hex>` of the certificate DER.
    pub fingerprint: String,
    pub scope: Scope,
    #[serde(with = "time::serde::rfc3339")]
    pub not_before: OffsetDateTime,
    #[serde(with = "time::serde::rfc3339")]
    pub not_after: OffsetDateTime,
    pub created_by: CreatedBy,
    /// May an agent's request present this identity?
    pub agent_use: bool,
    pub algorithm: KeyAlgorithm,
    /// Certificate PEM.
    pub cert_pem: String,
}

impl Identity {
    pub fn expired(&self, now: OffsetDateTime) -> bool {
        now > self.not_after
    }
    pub fn not_yet_valid(&self, now: OffsetDateTime) -> bool {
        now < self.not_before
    }
}

/// Parameters for a new identity.
#[derive(Clone, Debug)]
pub struct NewIdentity {
    pub name: String,
    pub scope: Scope,
    pub days: u32,
    pub algorithm: KeyAlgorithm,
    pub created_by: CreatedBy,
    pub agent_use: bool,
}

/// Certificate + private key PEM, for presenting in TLS.
#[derive(Clone)]
pub struct KeyMaterial {
    pub cert_pem: String,
    pub key_pem: String,
}

impl std::fmt::Debug for KeyMaterial {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("KeyMaterial { .. }")
    }
}

#[derive(Clone, Debug)]
pub struct Identities {
    dir: PathBuf,
}

impl Identities {
    pub fn new(dir: PathBuf) -> Identities {
        Identities { dir }
    }
    pub fn dir(&self) -> &std::path::Path {
        &self.dir
    }
    pub fn list(&self) -> Result<Vec<Identity>, StoreError> {
        Ok(Vec::new())
    }
    pub fn create(&self, new: NewIdentity, now: OffsetDateTime) -> Result<Identity, StoreError> {
        let _ = (new, now);
        Err(StoreError::Invalid("not implemented".into()))
    }
    /// The identity whose scope covers the URL with the longest prefix. `for_agent` skips
    /// identities with `agent_use == false`.
    pub fn find_for(
        &self,
        host: &str,
        port: u16,
        path: &str,
        for_agent: bool,
    ) -> Result<Option<Identity>, StoreError> {
        let _ = (host, port, path, for_agent);
        Ok(None)
    }
    pub fn get(&self, fingerprint: &str) -> Result<Option<Identity>, StoreError> {
        let _ = fingerprint;
        Ok(None)
    }
    /// Certificate and private key of an identity.
    pub fn key_material(&self, fingerprint: &str) -> Result<KeyMaterial, StoreError> {
        Err(StoreError::NotFound(fingerprint.to_string()))
    }
    /// Delete the identity and its key file; returns the removed metadata.
    pub fn remove(&self, fingerprint: &str) -> Result<Identity, StoreError> {
        Err(StoreError::NotFound(fingerprint.to_string()))
    }
    /// Change name, scope or agent_use of an identity.
    pub fn update(
        &self,
        fingerprint: &str,
        change: impl FnOnce(&mut Identity),
    ) -> Result<Identity, StoreError> {
        let _ = change;
        Err(StoreError::NotFound(fingerprint.to_string()))
    }
    /// Write `<name>.crt` and `<name>.key` PEM files into `dir`; returns the two paths.
    pub fn export(
        &self,
        fingerprint: &str,
        dir: &std::path::Path,
    ) -> Result<(PathBuf, PathBuf), StoreError> {
        let _ = dir;
        Err(StoreError::NotFound(fingerprint.to_string()))
    }
}
