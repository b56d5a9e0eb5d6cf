//! The certificates pinned on first use ([`smolweb_store::tofu`]) as the faces use them:
//! every face lists them and looks one up; pinning one by hand (the browser's "trust and
//! save") is the person's only, and forgetting one drops what the cache holds of its
//! capsule. An agent's pin or removal is an approval the person performs (`approve`).

use crate::Client;
use smolweb_core::url::{Url, normalize_host};
use smolweb_store::StoreError;
use smolweb_store::tofu::{CertInfo, Pin};

impl Client {
    /// Every pinned certificate.
    pub fn pinned_hosts(&self) -> Result<Vec<Pin>, StoreError> {
        self.known_hosts.list()
    }

    /// The certificate pinned for `host:port`, if any.
    pub fn pin_for(&self, host: &str, port: u16) -> Result<Option<Pin>, StoreError> {
        self.known_hosts.get(host, port)
    }

    /// Pin `cert` for `host:port` now, replacing a pin held (the person's "trust and save";
    /// refused on the agent's face). True when the stored pin changed.
    pub fn pin_certificate(
        &self,
        host: &str,
        port: u16,
        cert: &CertInfo,
    ) -> Result<bool, StoreError> {
        self.only_the_person("pinning a certificate")?;
        self.known_hosts.pin(host, port, cert, self.now())
    }

    /// [`Client::pin_certificate`] by fingerprint alone (its expiry unknown).
    pub fn pin_fingerprint(
        &self,
        host: &str,
        port: u16,
        fingerprint: &str,
    ) -> Result<bool, StoreError> {
        self.only_the_person("pinning a certificate")?;
        self.known_hosts
            .pin_fingerprint(host, port, fingerprint, self.now())
    }

    /// Forget the certificate pinned for `host:port`, and the answers of that capsule held in
    /// the cache: they were read over the forgotten trust, so the next visit checks the
    /// certificate again (and is a first visit, pinned anew). Returns whether a pin was held.
    pub fn forget_pin(&self, host: &str, port: u16) -> Result<bool, StoreError> {
        let existed = self.known_hosts.remove(host, port)?;
        let host = normalize_host(host).unwrap_or_else(|_| host.to_string());
        self.cache.remove_where(|key| {
            Url::parse(key)
                .is_ok_and(|u| u.scheme().is_tls() && u.host() == host && u.port() == port)
        });
        Ok(existed)
    }
}
