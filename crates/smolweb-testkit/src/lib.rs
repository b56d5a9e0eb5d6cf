//! In-process test servers shared by the integration tests (`mod support;`).
//!
//! Everything listens on 127.0.0.1 with an ephemeral port, runs on the test's tokio runtime,
//! and stops when the `Server` value is dropped.
//! - [`certs`]: self-signed certificates made with rcgen (valid, expired, not yet valid).
//! - [`gemini`]: a Gemini TLS server with routes, a handler closure, request recording (line +
//!   client certificate fingerprint), certificate swapping, TLS-1.2-only mode, misbehaviours.
//! - [`gopher`]: a Gopher server with routes, request recording, misbehaviours.
//! - [`tap`]: a TCP relay in front of any of them that counts the connections open through it.
//! - [`pdf`]: PDFs written by the tests (text, image-only, encrypted, a bomb).
// Test support: a broken fixture should fail the test where it happens.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::new_without_default
)]

pub mod certs;
pub mod gemini;
pub mod gopher;
pub mod http;
pub mod pdf;
pub mod tap;

use std::path::PathBuf;

/// A temporary data directory with the store paths smolweb uses.
pub struct TempStores {
    pub dir: tempfile::TempDir,
}

impl TempStores {
    pub fn new() -> TempStores {
        TempStores {
            dir: tempfile::tempdir().expect("temp dir"),
        }
    }
    pub fn known_hosts_path(&self) -> PathBuf {
        self.dir.path().join(smolweb_store::files::KNOWN_HOSTS)
    }
    pub fn identities_dir(&self) -> PathBuf {
        self.dir.path().join(smolweb_store::files::IDENTITIES_DIR)
    }
    pub fn known_hosts(&self) -> smolweb_store::tofu::KnownHosts {
        smolweb_store::tofu::KnownHosts::new(self.known_hosts_path())
    }
    pub fn identities(&self) -> smolweb_store::identity::Identities {
        smolweb_store::identity::Identities::new(self.identities_dir())
    }
    /// A `Net` over these stores with the given TOFU policy.
    pub fn net(&self, policy: smolweb_store::tofu::TofuPolicy) -> smolweb_net::Net {
        smolweb_net::Net::new(self.known_hosts(), self.identities(), policy)
    }
}

impl Default for TempStores {
    fn default() -> Self {
        TempStores::new()
    }
}

/// `NetOptions` for loopback tests: private addresses allowed, a short budget.
pub fn loopback_options(timeout: std::time::Duration) -> smolweb_net::NetOptions {
    smolweb_net::NetOptions {
        timeout,
        allow_private: true,
        ..smolweb_net::NetOptions::default()
    }
}
