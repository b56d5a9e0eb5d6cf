//! In-process test servers shared by the integration tests (`mod support;`).
//!
//! Everything listens on 127.0.0.1 with an ephemeral port, runs on the test's tokio runtime,
//! and stops when the `Server` value is dropped.
//! - [`certs`]: self-signed certificates made with rcgen (valid, expired, not yet valid).
//! - [`gemini`]: a Gemini TLS server with routes, a handler closure, request recording (line +
//!   client certificate fingerprint), certificate swapping, TLS-1.2-only mode, misbehaviours.
//! - [`gopher`]: a Gopher server with routes, request recording, misbehaviours.
//! - [`tap`]: a TCP relay in front of any of them that counts the connections open through it.
//! - [`smallnet`]: Nex, Finger, Spartan, Scroll, gophers and Titan servers with their framing.
//! - [`guppy`]: a Guppy server over UDP, with knobs that lose, repeat, reorder and flood.
//! - [`pdf`]: PDFs written by the tests (text, image-only, encrypted, a bomb).
//! - [`socks`]: a SOCKS5 proxy that resolves names from its own table and records what it was
//!   asked; [`gemini_proxy`]: a Gemini proxy for http(s) URLs (answers 20, 53 and 43).
//! - [`crash`]: every store's write path, numbered, and the check after a SIGKILL or a full
//!   disk; the `smolweb-store-writer` binary runs one store's writes for the driver.
#![warn(missing_docs)]
// Test support: a broken fixture should fail the test where it happens.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::new_without_default
)]

pub mod certs;
pub mod crash;
pub mod gemini;
pub mod gemini_proxy;
pub mod gopher;
pub mod guppy;
pub mod http;
pub mod pdf;
pub mod smallnet;
pub mod socks;
pub mod tap;

use std::path::PathBuf;

/// A temporary data directory with the store paths smolweb uses.
///
/// Nothing is created inside the directory until a store writes to it; the whole directory is
/// deleted when the value is dropped, so keep it alive as long as anything uses its paths.
pub struct TempStores {
    /// The temporary directory itself (removed on drop). Use `dir.path()` to put other files
    /// next to the stores, e.g. a config file or a cache.
    pub dir: tempfile::TempDir,
}

impl TempStores {
    /// A fresh, empty temporary directory.
    ///
    /// Panics if the system cannot create a temporary directory.
    pub fn new() -> TempStores {
        TempStores {
            dir: tempfile::tempdir().expect("temp dir"),
        }
    }
    /// Where the known-hosts (TOFU pins) file lives inside the directory, named as smolweb
    /// names it. The file may not exist yet.
    pub fn known_hosts_path(&self) -> PathBuf {
        self.dir.path().join(smolweb_store::files::KNOWN_HOSTS)
    }
    /// Where the client-certificate identities live inside the directory, named as smolweb
    /// names it. The directory may not exist yet.
    pub fn identities_dir(&self) -> PathBuf {
        self.dir.path().join(smolweb_store::files::IDENTITIES_DIR)
    }
    /// A known-hosts store over [`TempStores::known_hosts_path`]. Every call returns a new
    /// handle on the same file: pins one handle saved there are read by the next one.
    pub fn known_hosts(&self) -> smolweb_store::tofu::KnownHosts {
        smolweb_store::tofu::KnownHosts::new(self.known_hosts_path())
    }
    /// An identities store over [`TempStores::identities_dir`]; like
    /// [`TempStores::known_hosts`], every call is a new handle on the same directory.
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
