//! The trust anchors of the web fetcher and where each one came from.
//!
//! Four sources, in this order of precedence for naming (a root found in several keeps them
//! all, the first named first):
//! - the config's `web.extra_root_certificates` ([`RootSource::Config`]);
//! - `SSL_CERT_FILE` and each directory of `SSL_CERT_DIR` when either is set: like OpenSSL
//!   and rustls-native-certs, they then *replace* the system store ([`RootSource::CertFile`],
//!   [`RootSource::CertDir`]);
//! - otherwise the system store as rustls-native-certs finds it (on Linux the bundle and
//!   directory openssl-probe locates) ([`RootSource::System`]);
//! - the bundled WebPKI roots, always ([`RootSource::Bundled`]), so a machine without a CA
//!   store still works.
//!
//! A store that cannot be read (a missing file, a bad PEM section, an unreadable directory)
//! gives warnings, never a failure: the other sources still count.

use rustls::pki_types::{CertificateDer, TrustAnchor};
use std::collections::HashMap;
use std::ffi::OsString;
use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;

/// Where a trusted root came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RootSource {
    /// The WebPKI roots compiled into smolweb.
    Bundled,
    /// The system trust store (rustls-native-certs).
    System,
    /// The PEM file named by `SSL_CERT_FILE`.
    CertFile(PathBuf),
    /// A directory named in `SSL_CERT_DIR`.
    CertDir(PathBuf),
    /// A file of `web.extra_root_certificates`.
    Config,
}

impl fmt::Display for RootSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RootSource::Bundled => f.write_str("the bundled WebPKI roots"),
            RootSource::System => f.write_str("the system trust store"),
            RootSource::CertFile(p) => write!(f, "SSL_CERT_FILE ({})", p.display()),
            RootSource::CertDir(p) => write!(f, "SSL_CERT_DIR ({})", p.display()),
            RootSource::Config => f.write_str("web.extra_root_certificates"),
        }
    }
}

/// A trust anchor as a person reads it: its name and every source that holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrustRoot {
    /// The subject's common name and organisation, e.g. `ISRG Root X1 (Internet Security
    /// Research Group)`; the whole subject when it has neither.
    pub name: String,
    /// The sources holding this root, most specific first (never empty).
    pub sources: Vec<RootSource>,
}

impl fmt::Display for TrustRoot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}, from ", self.name)?;
        for (i, s) in self.sources.iter().enumerate() {
            if i > 0 {
                f.write_str(" and ")?;
            }
            write!(f, "{s}")?;
        }
        Ok(())
    }
}

/// Where to look besides the config and the bundle: the `SSL_CERT_FILE` / `SSL_CERT_DIR`
/// values, passed in (so a test can name its own) instead of read deep inside.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SystemRoots {
    /// `SSL_CERT_FILE`.
    pub cert_file: Option<PathBuf>,
    /// `SSL_CERT_DIR`, split on the platform's path separator.
    pub cert_dirs: Vec<PathBuf>,
    /// Read the platform store when neither variable is set (false: bundled + config only).
    pub platform: bool,
}

impl SystemRoots {
    /// The values of this process's environment, with the platform store.
    pub fn from_env() -> SystemRoots {
        SystemRoots::from_values(
            std::env::var_os("SSL_CERT_FILE"),
            std::env::var_os("SSL_CERT_DIR"),
        )
    }

    /// These variable values (unset: `None`); empty values count as unset, as in OpenSSL.
    pub(crate) fn from_values(file: Option<OsString>, dirs: Option<OsString>) -> SystemRoots {
        SystemRoots {
            cert_file: file.filter(|f| !f.is_empty()).map(PathBuf::from),
            cert_dirs: dirs
                .map(|d| {
                    std::env::split_paths(&d)
                        .filter(|p| !p.as_os_str().is_empty())
                        .collect()
                })
                .unwrap_or_default(),
            platform: true,
        }
    }
}

/// Every trusted anchor, each with its sources (same index). Names are read from an
/// anchor's subject only when a chain ends there (parsing ~300 names per client is waste).
pub(crate) struct Anchors {
    pub(crate) anchors: Vec<TrustAnchor<'static>>,
    pub(crate) sources: Vec<Vec<RootSource>>,
    /// What could not be read, in words (logged as warnings by the caller).
    pub(crate) warnings: Vec<String>,
}

impl fmt::Debug for Anchors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Anchors")
            .field("count", &self.anchors.len())
            .field("warnings", &self.warnings)
            .finish()
    }
}

impl Anchors {
    /// The root of the anchor with this subject and key, if it is one of ours.
    pub(crate) fn root_of(&self, anchor: &TrustAnchor<'_>) -> Option<TrustRoot> {
        let i = self.anchors.iter().position(|a| {
            a.subject.as_ref() == anchor.subject.as_ref()
                && a.subject_public_key_info.as_ref() == anchor.subject_public_key_info.as_ref()
        })?;
        Some(TrustRoot {
            name: subject_name(self.anchors.get(i)?.subject.as_ref()),
            sources: self.sources.get(i)?.clone(),
        })
    }

    fn add(&mut self, anchor: TrustAnchor<'static>, source: &RootSource, index: &mut Index) {
        let key = (
            anchor.subject.as_ref().to_vec(),
            anchor.subject_public_key_info.as_ref().to_vec(),
        );
        match index.get(&key) {
            Some(&i) => {
                if let Some(sources) = self.sources.get_mut(i)
                    && !sources.contains(source)
                {
                    sources.push(source.clone());
                }
            }
            None => {
                index.insert(key, self.anchors.len());
                self.sources.push(vec![source.clone()]);
                self.anchors.push(anchor);
            }
        }
    }

    fn add_certs(&mut self, certs: &[CertificateDer<'_>], source: &RootSource, index: &mut Index) {
        let mut unusable = 0;
        for der in certs {
            match webpki::anchor_from_trusted_cert(der) {
                Ok(a) => self.add(a.to_owned(), source, index),
                Err(_) => unusable += 1,
            }
        }
        if unusable > 0 {
            self.warnings.push(format!(
                "{unusable} certificate(s) from {source} are not usable as roots and were skipped"
            ));
        }
    }
}

type Index = HashMap<(Vec<u8>, Vec<u8>), usize>;

/// Gather the anchors: `extra` (from the config), then the system's (see the module docs),
/// then the bundled roots. An extra root that is not a usable certificate is an error (the
/// config named it on purpose); everything else that fails is a warning.
pub(crate) fn load(
    extra: &[CertificateDer<'static>],
    system: &SystemRoots,
) -> Result<Anchors, webpki::Error> {
    let mut out = Anchors {
        anchors: Vec::new(),
        sources: Vec::new(),
        warnings: Vec::new(),
    };
    let mut index = Index::new();
    for der in extra {
        let a = webpki::anchor_from_trusted_cert(der)?.to_owned();
        out.add(a, &RootSource::Config, &mut index);
    }
    for (source, got) in read_system(system).iter() {
        out.warnings.extend(got.warnings.iter().cloned());
        out.add_certs(&got.certs, source, &mut index);
    }
    for a in webpki_roots::TLS_SERVER_ROOTS {
        out.add(a.clone(), &RootSource::Bundled, &mut index);
    }
    Ok(out)
}

/// What one system source gave: its certificates and what could not be read.
struct Read {
    certs: Vec<CertificateDer<'static>>,
    warnings: Vec<String>,
}

impl From<rustls_native_certs::CertificateResult> for Read {
    fn from(r: rustls_native_certs::CertificateResult) -> Read {
        Read {
            certs: r.certs,
            warnings: r
                .errors
                .iter()
                .map(|e| format!("trust store: {e}"))
                .collect(),
        }
    }
}

type SystemRead = Arc<Vec<(RootSource, Read)>>;

/// The system's certificates for `system`, read once per process for each set of values
/// (every client of the process shares them; a changed store is read by a new process).
fn read_system(system: &SystemRoots) -> SystemRead {
    static READ: std::sync::Mutex<Vec<(SystemRoots, SystemRead)>> =
        std::sync::Mutex::new(Vec::new());
    let mut cache = match READ.lock() {
        Ok(c) => c,
        Err(poisoned) => poisoned.into_inner(),
    };
    if let Some((_, got)) = cache.iter().find(|(k, _)| k == system) {
        return got.clone();
    }
    let mut got = Vec::new();
    if system.cert_file.is_some() || !system.cert_dirs.is_empty() {
        if let Some(file) = &system.cert_file {
            let r = rustls_native_certs::load_certs_from_paths(Some(file), None);
            got.push((RootSource::CertFile(file.clone()), r.into()));
        }
        for dir in &system.cert_dirs {
            let r = rustls_native_certs::load_certs_from_paths(None, Some(dir));
            got.push((RootSource::CertDir(dir.clone()), r.into()));
        }
    } else if system.platform {
        let r = rustls_native_certs::load_native_certs();
        got.push((RootSource::System, r.into()));
    }
    let got = Arc::new(got);
    cache.push((system.clone(), got.clone()));
    got
}

/// The common name and organisation of a subject (the DER contents of its Name SEQUENCE, as
/// a trust anchor holds it), without control characters.
fn subject_name(contents: &[u8]) -> String {
    use x509_parser::prelude::FromDer;
    let der = wrap_sequence(contents);
    let Ok((_, name)) = x509_parser::x509::X509Name::from_der(&der) else {
        return "(an unreadable subject name)".into();
    };
    let cn = name
        .iter_common_name()
        .next()
        .and_then(|a| a.as_str().ok())
        .map(clean);
    let org = name
        .iter_organization()
        .next()
        .and_then(|a| a.as_str().ok())
        .map(clean);
    match (cn, org) {
        (Some(cn), Some(o)) if cn != o => format!("{cn} ({o})"),
        (Some(cn), _) => cn,
        (None, Some(o)) => o,
        (None, None) => clean(&name.to_string()),
    }
}

fn clean(s: &str) -> String {
    s.chars().filter(|c| !c.is_control()).collect()
}

/// `contents` inside a DER SEQUENCE header.
fn wrap_sequence(contents: &[u8]) -> Vec<u8> {
    let len = contents.len();
    let mut out = vec![0x30];
    if len < 0x80 {
        out.push(len as u8);
    } else {
        let bytes: Vec<u8> = len
            .to_be_bytes()
            .into_iter()
            .skip_while(|b| *b == 0)
            .collect();
        out.push(0x80 | bytes.len() as u8);
        out.extend(bytes);
    }
    out.extend_from_slice(contents);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bundled_roots_have_names() {
        let a = load(&[], &SystemRoots::default()).unwrap();
        assert_eq!(a.anchors.len(), webpki_roots::TLS_SERVER_ROOTS.len());
        assert!(a.warnings.is_empty());
        let roots: Vec<TrustRoot> = a.anchors.iter().filter_map(|x| a.root_of(x)).collect();
        assert_eq!(roots.len(), a.anchors.len());
        let isrg = roots
            .iter()
            .find(|r| r.name.starts_with("ISRG Root X1"))
            .unwrap();
        assert_eq!(isrg.name, "ISRG Root X1 (Internet Security Research Group)");
        assert_eq!(isrg.sources, vec![RootSource::Bundled]);
        assert!(
            roots
                .iter()
                .all(|r| !r.name.is_empty() && !r.name.starts_with('('))
        );
    }

    #[test]
    fn a_missing_cert_file_is_a_warning_and_the_bundle_stays() {
        let system = SystemRoots {
            cert_file: Some("/nonexistent/smolweb-roots.pem".into()),
            ..SystemRoots::default()
        };
        let a = load(&[], &system).unwrap();
        assert_eq!(a.anchors.len(), webpki_roots::TLS_SERVER_ROOTS.len());
        assert_eq!(a.warnings.len(), 1, "{:?}", a.warnings);
        assert!(
            a.warnings[0].contains("smolweb-roots.pem"),
            "{:?}",
            a.warnings
        );
    }

    #[test]
    fn a_root_in_two_sources_names_both_most_specific_first() {
        let ca = smolweb_testkit::http::TestCa::new();
        let dir = tempfile::tempdir().unwrap();
        let pem = ca.write_pem(dir.path());
        let der = super::super::tls::roots_from_pem(ca.ca_pem.as_bytes()).unwrap();
        let system = SystemRoots {
            cert_file: Some(pem.clone()),
            ..SystemRoots::default()
        };
        let a = load(&der, &system).unwrap();
        assert!(a.warnings.is_empty(), "{:?}", a.warnings);
        assert_eq!(a.anchors.len(), webpki_roots::TLS_SERVER_ROOTS.len() + 1);
        let root = a.root_of(&a.anchors[0]).unwrap();
        assert_eq!(root.name, "smolweb test CA");
        assert_eq!(
            root.sources,
            vec![RootSource::Config, RootSource::CertFile(pem.clone())]
        );
        assert_eq!(
            root.to_string(),
            format!(
                "smolweb test CA, from web.extra_root_certificates and SSL_CERT_FILE ({})",
                pem.display()
            )
        );
        let anchor = webpki::anchor_from_trusted_cert(&der[0]).unwrap();
        assert_eq!(a.root_of(&anchor), Some(root));
    }

    #[test]
    fn empty_variables_count_as_unset() {
        let s = SystemRoots::from_values(Some("".into()), Some("".into()));
        assert!(s.cert_file.is_none() && s.cert_dirs.is_empty());
        let s = SystemRoots::from_values(Some("/a.pem".into()), Some("/x:/y".into()));
        assert_eq!(s.cert_file, Some("/a.pem".into()));
        assert_eq!(s.cert_dirs, vec![PathBuf::from("/x"), PathBuf::from("/y")]);
    }

    #[test]
    fn long_names_are_wrapped_with_a_long_length() {
        let body = vec![7u8; 300];
        let w = wrap_sequence(&body);
        assert_eq!(&w[..4], &[0x30, 0x82, 0x01, 0x2c]);
        assert_eq!(w.len(), 304);
        assert_eq!(wrap_sequence(&[1, 2]), vec![0x30, 2, 1, 2]);
    }
}
