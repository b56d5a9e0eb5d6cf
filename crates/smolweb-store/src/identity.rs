//! Client identities (Gemini client certificates), shared by both faces.
//!
//! Layout: `<dir>/<fingerprint-hex>.toml` (metadata + certificate PEM) and
//! `<dir>/<fingerprint-hex>.key` (private key PEM, mode 0600); `<dir>` has mode 0700.
//! Scope = host + port + path prefix matched by whole segments ("/a" covers "/a" and "/a/b",
//! not "/ab"); the longest matching prefix wins. Certificates are made with rcgen (ECDSA P-256
//! by default, Ed25519 on request).
//!
//! One unreadable metadata file spoils nothing else: [`Identities::scan`] returns the readable
//! identities and names the others; finding an identity for a fetch, creating and updating
//! one work around such a file (it is never rewritten or removed), and [`Identities::list`]
//! is the strict form that fails naming it.

mod cert;
mod files;
pub mod import;

#[cfg(any(test, feature = "fuzzing"))]
pub(super) use files::round_trip;

use super::StoreError;
use std::path::PathBuf;
use time::OffsetDateTime;

/// Who made an identity (agents may only make them through an approval).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CreatedBy {
    /// The human, in the browser or with the CLI.
    Human,
    /// An agent's request, approved by the human.
    Agent,
}

/// Key algorithm of an identity; on disk and in config: "ecdsa-p256" or "ed25519" (what new
/// identities are made with), "ecdsa-p384" or "rsa" (imported ones may have them too).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum KeyAlgorithm {
    /// ECDSA on P-256 (the default: what most servers accept).
    #[default]
    EcdsaP256,
    /// Ed25519.
    Ed25519,
    /// ECDSA on P-384 (imported identities).
    EcdsaP384,
    /// RSA (imported identities: RSA keys are not made here).
    Rsa,
}

impl KeyAlgorithm {
    /// Parse a config/CLI name of what new identities are made with ("ecdsa-p256",
    /// "ed25519"; case-insensitive).
    pub fn from_name(name: &str) -> Option<KeyAlgorithm> {
        match name.trim().to_ascii_lowercase().as_str() {
            "ecdsa-p256" => Some(KeyAlgorithm::EcdsaP256),
            "ed25519" => Some(KeyAlgorithm::Ed25519),
            _ => None,
        }
    }
    /// The config/CLI name ("ecdsa-p256", "ed25519", "ecdsa-p384", "rsa").
    pub fn name(self) -> &'static str {
        match self {
            KeyAlgorithm::EcdsaP256 => "ecdsa-p256",
            KeyAlgorithm::Ed25519 => "ed25519",
            KeyAlgorithm::EcdsaP384 => "ecdsa-p384",
            KeyAlgorithm::Rsa => "rsa",
        }
    }
}

/// Where an identity applies.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Scope {
    /// The host, normalized.
    pub host: String,
    /// The port (1965 for Gemini's default).
    pub port: u16,
    /// Starts with "/"; "/" covers the whole capsule.
    pub path: String,
}

impl Scope {
    /// Does this scope cover `host:port` + `path` (whole path segments)?
    pub fn covers(&self, host: &str, port: u16, path: &str) -> bool {
        self.port == port && self.host.eq_ignore_ascii_case(host) && path_covers(&self.path, path)
    }
    /// How specific the scope is: the length of its path without a trailing "/".
    fn specificity(&self) -> usize {
        self.path.trim_end_matches('/').len()
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
    /// The human's name for it, also the certificate's common name.
    pub name: String,
    /// `sha256:<hex>` of the certificate DER.
    pub fingerprint: String,
    /// Where it is presented.
    pub scope: Scope,
    /// The certificate's start of validity.
    #[serde(with = "time::serde::rfc3339")]
    pub not_before: OffsetDateTime,
    /// The certificate's expiry.
    #[serde(with = "time::serde::rfc3339")]
    pub not_after: OffsetDateTime,
    /// Who made it.
    pub created_by: CreatedBy,
    /// May an agent's request present this identity?
    pub agent_use: bool,
    /// The key's algorithm.
    pub algorithm: KeyAlgorithm,
    /// Certificate PEM.
    pub cert_pem: String,
}

impl Identity {
    /// Has the certificate expired at `now`?
    pub fn expired(&self, now: OffsetDateTime) -> bool {
        now > self.not_after
    }
    /// Is the certificate not valid yet at `now`?
    pub fn not_yet_valid(&self, now: OffsetDateTime) -> bool {
        now < self.not_before
    }
}

/// A metadata file that could not be read or parsed; it is left as it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unreadable {
    /// The metadata file.
    pub path: PathBuf,
    /// Why it could not be used (never quotes the file).
    pub reason: String,
}

impl Unreadable {
    /// The error a strict caller reports.
    pub fn into_error(self) -> StoreError {
        StoreError::Corrupt {
            path: self.path,
            reason: self.reason,
        }
    }
}

/// What [`Identities::scan`] found.
#[derive(Clone, Debug, Default)]
pub struct Scan {
    /// Readable identities, sorted by scope (host, port, path) then name.
    pub identities: Vec<Identity>,
    /// Files that could not be read, by path.
    pub unreadable: Vec<Unreadable>,
}

/// Parameters for a new identity.
#[derive(Clone, Debug)]
pub struct NewIdentity {
    /// The name (and common name); must be unique among the identities.
    pub name: String,
    /// Where it will be presented.
    pub scope: Scope,
    /// How many days the certificate is valid from now.
    pub days: u32,
    /// The key's algorithm.
    pub algorithm: KeyAlgorithm,
    /// Who asks for it.
    pub created_by: CreatedBy,
    /// May an agent's request present it?
    pub agent_use: bool,
}

/// Certificate + private key PEM, for presenting in TLS.
#[derive(Clone)]
pub struct KeyMaterial {
    /// The certificate, PEM.
    pub cert_pem: String,
    /// The private key, PEM (PKCS#8). Never logged: [`KeyMaterial`]'s Debug hides it.
    pub key_pem: String,
}

impl std::fmt::Debug for KeyMaterial {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("KeyMaterial { .. }")
    }
}

/// Does the scope path `scope` cover the request path `path` by whole segments?
fn path_covers(scope: &str, path: &str) -> bool {
    let scope = scope.trim_end_matches('/');
    if scope.is_empty() {
        return true;
    }
    match path.strip_prefix(scope) {
        Some(rest) => rest.is_empty() || rest.starts_with('/'),
        None => false,
    }
}

/// The identities directory.
#[derive(Clone, Debug)]
pub struct Identities {
    dir: PathBuf,
}

impl Identities {
    /// The identities directory `dir` (nothing is read or created yet).
    pub fn new(dir: PathBuf) -> Identities {
        Identities { dir }
    }
    /// The directory this store reads and writes.
    pub fn dir(&self) -> &std::path::Path {
        &self.dir
    }
    /// All identities, sorted by scope (host, port, path) then name. A corrupt metadata file
    /// is an error naming it.
    pub fn list(&self) -> Result<Vec<Identity>, StoreError> {
        files::with_dir_lock(&self.dir, false, || files::load_all(&self.dir))
    }
    /// The readable identities and the files that are not (named, left untouched). For
    /// listings that show both, and for every path that must keep working around a bad file.
    pub fn scan(&self) -> Result<Scan, StoreError> {
        files::with_dir_lock(&self.dir, false, || files::scan(&self.dir))
    }
    /// Is `identity`'s private key private? The refusal its use would meet when group or
    /// others can read or write it ([`StoreError::Exposed`], naming the key and the chmod),
    /// so a listing can say so before the key is needed. Only a regular file is judged.
    pub fn check_key(&self, identity: &Identity) -> Result<(), StoreError> {
        let key = self
            .dir
            .join(format!("{}.key", files::stem(&identity.fingerprint)?));
        match std::fs::symlink_metadata(&key) {
            Ok(meta) if meta.is_file() => super::perms::check_file(&key, &meta),
            // Missing, or not a regular file: its use says so in its own words.
            _ => Ok(()),
        }
    }
    /// Generate a key pair and a self-signed certificate (CN = name, valid from one minute
    /// before `now` for `days` days) and store both. Refuses a second identity with the same
    /// name and scope.
    pub fn create(&self, new: NewIdentity, now: OffsetDateTime) -> Result<Identity, StoreError> {
        let scope = normalize_scope(new.scope)?;
        let name = new.name.trim().to_string();
        if name.is_empty() || name.chars().any(char::is_control) {
            return Err(StoreError::Invalid(
                "identity name must be a non-empty line".into(),
            ));
        }
        if new.days == 0 {
            return Err(StoreError::Invalid(
                "identity validity must be at least one day".into(),
            ));
        }
        let made = cert::generate(&name, new.algorithm, new.days, now)?;
        let identity = Identity {
            name,
            fingerprint: made.fingerprint,
            scope,
            not_before: made.not_before,
            not_after: made.not_after,
            created_by: new.created_by,
            agent_use: new.agent_use,
            algorithm: new.algorithm,
            cert_pem: made.cert_pem,
        };
        files::with_dir_lock(&self.dir, true, || {
            // An unreadable file cannot be this new one (its name is the new fingerprint).
            let all = files::scan(&self.dir)?.identities;
            if all.iter().any(|i| same_slot(i, &identity)) {
                return Err(StoreError::Exists(format!(
                    "identity '{}' for {}",
                    identity.name,
                    identity.scope.url()
                )));
            }
            files::write_identity(&self.dir, &identity, Some(&made.key_pem))?;
            Ok(identity)
        })
    }
    /// Keep an identity made elsewhere ([`import::read`] checked that its key belongs to its
    /// certificate) for `scope`, named `name` (else the certificate's common name), agents
    /// allowed to present it when `agent_use`. The key is written 0600 as created keys are;
    /// refuses a certificate that is already here, and a second identity with the same name
    /// and scope.
    pub fn import(
        &self,
        imported: import::Imported,
        scope: Scope,
        name: Option<&str>,
        agent_use: bool,
    ) -> Result<Identity, StoreError> {
        let scope = normalize_scope(scope)?;
        let name = name
            .map(str::trim)
            .filter(|n| !n.is_empty())
            .map(str::to_string)
            .or_else(|| imported.common_name.clone())
            .ok_or_else(|| {
                StoreError::Invalid(
                    "the certificate has no common name: give the identity a name".into(),
                )
            })?;
        if name.chars().any(char::is_control) {
            return Err(StoreError::Invalid(
                "identity name must be a non-empty line".into(),
            ));
        }
        let identity = Identity {
            name,
            fingerprint: imported.fingerprint.clone(),
            scope,
            not_before: imported.not_before,
            not_after: imported.not_after,
            created_by: CreatedBy::Human,
            agent_use,
            algorithm: imported.algorithm,
            cert_pem: imported.cert_pem.clone(),
        };
        files::with_dir_lock(&self.dir, true, || {
            let all = files::scan(&self.dir)?.identities;
            if let Some(same) = all.iter().find(|i| i.fingerprint == identity.fingerprint) {
                return Err(StoreError::Exists(format!(
                    "this certificate is already the identity '{}' for {}",
                    same.name,
                    same.scope.url()
                )));
            }
            if all.iter().any(|i| same_slot(i, &identity)) {
                return Err(StoreError::Exists(format!(
                    "identity '{}' for {}",
                    identity.name,
                    identity.scope.url()
                )));
            }
            files::write_identity(&self.dir, &identity, Some(&imported.key_pem))?;
            Ok(identity)
        })
    }
    /// The identity whose scope covers the URL with the longest prefix. `for_agent` skips
    /// identities with `agent_use == false`. Expired identities are returned too: the server
    /// then answers 62 and the faces explain, instead of silently sending no certificate.
    pub fn find_for(
        &self,
        host: &str,
        port: u16,
        path: &str,
        for_agent: bool,
    ) -> Result<Option<Identity>, StoreError> {
        let scan = self.scan()?;
        for bad in &scan.unreadable {
            tracing::warn!(path = %bad.path.display(), "skipping an unreadable identity file: {}", bad.reason);
        }
        let best = scan
            .identities
            .into_iter()
            .filter(|i| i.scope.covers(host, port, path) && (!for_agent || i.agent_use))
            .max_by_key(|i| i.scope.specificity());
        Ok(best)
    }
    /// The identity with this fingerprint (`sha256:<hex>` or bare hex), if there is one.
    pub fn get(&self, fingerprint: &str) -> Result<Option<Identity>, StoreError> {
        let stem = files::stem(fingerprint)?;
        files::with_dir_lock(&self.dir, false, || files::load_one(&self.dir, &stem))
    }
    /// Certificate and private key of an identity.
    pub fn key_material(&self, fingerprint: &str) -> Result<KeyMaterial, StoreError> {
        let stem = files::stem(fingerprint)?;
        files::with_dir_lock(&self.dir, false, || {
            let identity = files::load_one(&self.dir, &stem)?
                .ok_or_else(|| StoreError::NotFound(fingerprint.to_string()))?;
            let key_pem = files::read_key(&self.dir, &stem)?;
            Ok(KeyMaterial {
                cert_pem: identity.cert_pem,
                key_pem,
            })
        })
    }
    /// Delete the identity and its key file; returns the removed metadata.
    pub fn remove(&self, fingerprint: &str) -> Result<Identity, StoreError> {
        let stem = files::stem(fingerprint)?;
        files::with_dir_lock(&self.dir, true, || {
            let identity = files::load_one(&self.dir, &stem)?
                .ok_or_else(|| StoreError::NotFound(fingerprint.to_string()))?;
            files::remove_identity(&self.dir, &stem)?;
            Ok(identity)
        })
    }
    /// Change name, scope or agent_use of an identity (other fields are fixed by the
    /// certificate: changing them is refused). Written atomically under the lock.
    pub fn update(
        &self,
        fingerprint: &str,
        change: impl FnOnce(&mut Identity),
    ) -> Result<Identity, StoreError> {
        let stem = files::stem(fingerprint)?;
        files::with_dir_lock(&self.dir, true, || {
            let old = files::load_one(&self.dir, &stem)?
                .ok_or_else(|| StoreError::NotFound(fingerprint.to_string()))?;
            let mut new = old.clone();
            change(&mut new);
            new.scope = normalize_scope(new.scope)?;
            new.name = new.name.trim().to_string();
            if new.name.is_empty() || new.name.chars().any(char::is_control) {
                return Err(StoreError::Invalid(
                    "identity name must be a non-empty line".into(),
                ));
            }
            if !same_certificate(&old, &new) {
                return Err(StoreError::Invalid(
                    "only name, scope and agent_use of an identity can change".into(),
                ));
            }
            let others = files::scan(&self.dir)?.identities;
            if others
                .iter()
                .any(|i| i.fingerprint != new.fingerprint && same_slot(i, &new))
            {
                return Err(StoreError::Exists(format!(
                    "identity '{}' for {}",
                    new.name,
                    new.scope.url()
                )));
            }
            files::write_identity(&self.dir, &new, None)?;
            Ok(new)
        })
    }
    /// Write `<name>.crt` and `<name>.key` PEM files into `dir`; returns the two paths. The
    /// name is made filesystem-safe; existing files are never overwritten (Exists).
    pub fn export(
        &self,
        fingerprint: &str,
        dir: &std::path::Path,
    ) -> Result<(PathBuf, PathBuf), StoreError> {
        let identity = self
            .get(fingerprint)?
            .ok_or_else(|| StoreError::NotFound(fingerprint.to_string()))?;
        let km = self.key_material(fingerprint)?;
        files::export(dir, &identity.name, &km)
    }
}

/// The fields fixed by the certificate itself.
fn same_certificate(a: &Identity, b: &Identity) -> bool {
    a.fingerprint == b.fingerprint
        && a.not_before == b.not_before
        && a.not_after == b.not_after
        && a.created_by == b.created_by
        && a.algorithm == b.algorithm
        && a.cert_pem == b.cert_pem
}

/// Same name and same scope: the pair that must be unique.
fn same_slot(a: &Identity, b: &Identity) -> bool {
    a.name == b.name && a.scope == b.scope
}

/// Lowercase host; path must start with "/".
fn normalize_scope(scope: Scope) -> Result<Scope, StoreError> {
    if scope.host.is_empty() || !scope.path.starts_with('/') {
        return Err(StoreError::Invalid(format!(
            "scope needs a host and a path starting with '/': {}",
            scope.url()
        )));
    }
    Ok(Scope {
        host: scope.host.to_ascii_lowercase(),
        port: scope.port,
        path: scope.path,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scope_covers_table() {
        let s = |path: &str| Scope {
            host: "example.org".into(),
            port: 1965,
            path: path.into(),
        };
        let cases = [
            ("/a", "example.org", 1965, "/a", true),
            ("/a", "example.org", 1965, "/a/", true),
            ("/a", "example.org", 1965, "/a/b/c", true),
            ("/a", "example.org", 1965, "/ab", false),
            ("/a", "example.org", 1965, "/", false),
            ("/a/", "example.org", 1965, "/a", true),
            ("/a/", "example.org", 1965, "/a/b", true),
            ("/a/", "example.org", 1965, "/ab", false),
            ("/", "example.org", 1965, "/", true),
            ("/", "example.org", 1965, "/anything/at/all", true),
            ("/", "example.org", 1965, "", true),
            ("/", "EXAMPLE.org", 1965, "/x", true),
            ("/", "example.org", 1966, "/x", false),
            ("/", "other.org", 1965, "/x", false),
            ("/", "sub.example.org", 1965, "/x", false),
        ];
        for (scope, host, port, path, want) in cases {
            assert_eq!(
                s(scope).covers(host, port, path),
                want,
                "{scope} vs {host}:{port}{path}"
            );
        }
    }

    #[test]
    fn algorithm_names_round_trip() {
        for alg in [KeyAlgorithm::EcdsaP256, KeyAlgorithm::Ed25519] {
            assert_eq!(KeyAlgorithm::from_name(alg.name()), Some(alg));
        }
        assert_eq!(
            KeyAlgorithm::from_name("ECDSA-P256"),
            Some(KeyAlgorithm::EcdsaP256)
        );
        assert_eq!(KeyAlgorithm::from_name("rsa"), None);
        let v = toml::Value::try_from(KeyAlgorithm::EcdsaP256).unwrap();
        assert_eq!(v.as_str(), Some("ecdsa-p256"));
    }

    #[test]
    fn scope_url() {
        let s = Scope {
            host: "h".into(),
            port: 1965,
            path: "/p".into(),
        };
        assert_eq!(s.url(), "gemini://h/p");
        let s = Scope {
            host: "h".into(),
            port: 7,
            path: "/".into(),
        };
        assert_eq!(s.url(), "gemini://h:7/");
    }
}
