//! On-disk layout of the identities directory: `<hex>.toml` metadata (with the certificate
//! PEM) and `<hex>.key` private key PEM, both 0600, in a 0700 directory whose modes are
//! re-applied on every write. One directory lock (`<dir>/.lock`) covers all of them, so
//! "no two identities with the same name and scope" holds across processes.
//!
//! An identity exists when its metadata file does: the key is written before the metadata
//! and removed after it, so a process killed between the two steps leaves a key without
//! metadata, never metadata without its key. Such a key belongs to no identity (a create
//! or a removal that did not finish); the next write under the directory lock removes it,
//! with any temp file a killed writer left.

use super::{Identity, KeyMaterial, Scan, Unreadable};
use crate::StoreError;
use crate::atomic::{self, Modes};
use crate::parse_failure::ParseFailure;
use std::path::{Path, PathBuf};

fn io_err(path: &Path, source: std::io::Error) -> StoreError {
    StoreError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// The file stem of a fingerprint: its 64 lowercase hex digits. Accepts `sha256:<hex>` or the
/// bare hex (either case); anything else is Invalid (never becomes a path).
pub(super) fn stem(fingerprint: &str) -> Result<String, StoreError> {
    let fp = fingerprint.trim();
    let hex = fp
        .get(..7)
        .filter(|p| p.eq_ignore_ascii_case("sha256:"))
        .map_or(fp, |_| &fp[7..]);
    if hex.len() == 64 && hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        Ok(hex.to_ascii_lowercase())
    } else {
        Err(StoreError::Invalid(format!(
            "not an identity fingerprint (sha256:<64 hex>): {fingerprint}"
        )))
    }
}

pub(super) fn with_dir_lock<R>(
    dir: &Path,
    exclusive: bool,
    f: impl FnOnce() -> Result<R, StoreError>,
) -> Result<R, StoreError> {
    if exclusive {
        atomic::ensure_dir(dir, Modes::SECRET)?;
    }
    atomic::with_lock(&dir.join(".lock"), exclusive, f)
}

fn parse_file(path: &Path) -> Result<Option<Identity>, StoreError> {
    let Some(text) = atomic::read_text(path)? else {
        return Ok(None);
    };
    atomic::parse_toml::<Identity>(&text)
        .map(Some)
        .map_err(|e| StoreError::Corrupt {
            path: path.to_path_buf(),
            reason: e.describe(&text),
        })
}

pub(super) fn load_one(dir: &Path, stem: &str) -> Result<Option<Identity>, StoreError> {
    parse_file(&dir.join(format!("{stem}.toml")))
}

/// Every `*.toml` in the directory (a missing directory = none), sorted by scope then name;
/// a file that cannot be read or parsed is the error, naming it.
pub(super) fn load_all(dir: &Path) -> Result<Vec<Identity>, StoreError> {
    let scan = scan(dir)?;
    match scan.unreadable.into_iter().next() {
        // A file others can read is reported as such (with its chmod), not as corrupt.
        Some(bad) => Err(match parse_file(&bad.path) {
            Err(e @ StoreError::Exposed { .. }) => e,
            _ => bad.into_error(),
        }),
        None => Ok(scan.identities),
    }
}

/// Every `*.toml` in the directory, the readable ones parsed and the others named (left
/// untouched). Only a directory that cannot be listed is an error.
pub(super) fn scan(dir: &Path) -> Result<Scan, StoreError> {
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Scan::default()),
        Err(e) => return Err(io_err(dir, e)),
    };
    let mut out = Scan::default();
    for entry in entries {
        let path = entry.map_err(|e| io_err(dir, e))?.path();
        if path.extension().is_none_or(|x| x != "toml") {
            continue;
        }
        match parse_file(&path) {
            Ok(found) => out.identities.extend(found),
            Err(StoreError::Corrupt { path, reason }) => {
                out.unreadable.push(Unreadable { path, reason })
            }
            Err(StoreError::Io { path, source }) => out.unreadable.push(Unreadable {
                path,
                reason: source.to_string(),
            }),
            Err(StoreError::NotRegular { path, kind }) => out.unreadable.push(Unreadable {
                path,
                reason: format!("it is {kind}, not a regular file"),
            }),
            Err(e @ StoreError::Exposed { .. }) => out.unreadable.push(Unreadable {
                path,
                reason: e.to_string(),
            }),
            Err(e) => return Err(e),
        }
    }
    out.identities.sort_by(|a, b| {
        (&a.scope.host, a.scope.port, &a.scope.path, &a.name).cmp(&(
            &b.scope.host,
            b.scope.port,
            &b.scope.path,
            &b.name,
        ))
    });
    out.unreadable.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(out)
}

pub(super) fn read_key(dir: &Path, stem: &str) -> Result<String, StoreError> {
    let path = dir.join(format!("{stem}.key"));
    atomic::read_text(&path)?
        .ok_or_else(|| io_err(&path, std::io::Error::from(std::io::ErrorKind::NotFound)))
}

/// The metadata file's text: a comment naming the identity and its key file, then the TOML.
fn render(identity: &Identity) -> Result<String, StoreError> {
    let stem = stem(&identity.fingerprint)?;
    let body = atomic::render_toml(identity)?;
    Ok(format!(
        "# smolweb client identity {}. The private key is in {stem}.key.\n\n{body}",
        identity.name.replace(['\r', '\n'], " ")
    ))
}

/// Read, write and read again (the fuzz targets' check; see [`crate::fuzzing`]). A
/// file whose fingerprint is not one is listed but never rewritten (every write path takes
/// the file name from the fingerprint and refuses it), so it counts as refused here.
#[cfg(any(test, feature = "fuzzing"))]
pub(crate) fn round_trip(text: &str) -> crate::fuzzing::RoundTrip {
    let parse = |text: &str| {
        let identity =
            atomic::parse_toml::<Identity>(text).map_err(|e| StoreError::Invalid(e.to_string()))?;
        stem(&identity.fingerprint)?;
        Ok::<_, StoreError>(identity)
    };
    crate::fuzzing::check(text, parse, render)
}

/// Remove the keys that have no metadata file (see the module docs) and the temp files of
/// killed writers. Caller holds the exclusive directory lock. Best effort: a file that cannot
/// be removed is tried again next time.
fn remove_orphan_keys(dir: &Path) {
    atomic::sweep_temps(dir, None);
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let ours = path.extension().is_some_and(|x| x == "key")
            && path
                .file_stem()
                .and_then(|s| s.to_str())
                .is_some_and(|s| stem(s).is_ok_and(|hex| hex == s));
        let meta = path.with_extension("toml");
        if ours && std::fs::symlink_metadata(&meta).is_err() {
            let _ = std::fs::remove_file(&path);
        }
    }
}

/// Write the metadata (and, for a new identity, the key first, so metadata never exists
/// without its key). Caller holds the exclusive directory lock.
pub(super) fn write_identity(
    dir: &Path,
    identity: &Identity,
    key_pem: Option<&str>,
) -> Result<(), StoreError> {
    remove_orphan_keys(dir);
    let stem = stem(&identity.fingerprint)?;
    let key_path = dir.join(format!("{stem}.key"));
    if let Some(key) = key_pem {
        atomic::write_file(&key_path, key.as_bytes(), Modes::SECRET)?;
    } else if key_path.exists() {
        atomic::set_mode(&key_path, Modes::SECRET.file)?;
    }
    let text = render(identity)?;
    let meta = dir.join(format!("{stem}.toml"));
    let written = atomic::write_file(&meta, text.as_bytes(), Modes::SECRET);
    if written.is_err() && key_pem.is_some() {
        let _ = std::fs::remove_file(&key_path);
    }
    written
}

/// Delete the metadata, then the key (see the module docs: a key left by a failed or killed
/// second step is removed by the next write). Caller holds the exclusive directory lock.
pub(super) fn remove_identity(dir: &Path, stem: &str) -> Result<(), StoreError> {
    remove_orphan_keys(dir);
    for ext in ["toml", "key"] {
        let path = dir.join(format!("{stem}.{ext}"));
        match std::fs::remove_file(&path) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(io_err(&path, e)),
        }
    }
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// A file name made of the identity name: letters, digits, '-', '_' and '.' kept, the rest
/// '_'; never empty, never starting with '.'.
pub(super) fn safe_name(name: &str) -> String {
    let cleaned: String = name
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect();
    let trimmed = cleaned.trim_start_matches('.');
    if trimmed.is_empty() {
        "identity".into()
    } else {
        trimmed.into()
    }
}

pub(super) fn export(
    dir: &Path,
    name: &str,
    km: &KeyMaterial,
) -> Result<(PathBuf, PathBuf), StoreError> {
    let base = safe_name(name);
    let crt = dir.join(format!("{base}.crt"));
    let key = dir.join(format!("{base}.key"));
    for p in [&crt, &key] {
        if p.exists() {
            return Err(StoreError::Exists(p.display().to_string()));
        }
    }
    let private = Modes {
        enforce_dir: false,
        ..Modes::SECRET
    };
    atomic::write_file(&key, km.key_pem.as_bytes(), private)?;
    atomic::write_file(&crt, km.cert_pem.as_bytes(), Modes::PUBLIC)?;
    Ok((crt, key))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stems() {
        let hex = "ab".repeat(32);
        assert_eq!(stem(&format!("sha256:{hex}")).unwrap(), hex);
        assert_eq!(
            stem(&format!("SHA256:{}", hex.to_uppercase())).unwrap(),
            hex
        );
        assert_eq!(stem(&hex).unwrap(), hex);
        for bad in [
            "",
            "sha256:",
            "../../etc/passwd",
            "sha256:abc",
            &format!("{hex}/"),
        ] {
            assert!(stem(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn safe_names() {
        let cases = [
            ("alice", "alice"),
            ("my id/../x", "my_id_.._x"),
            ("..hidden", "hidden"),
            ("", "identity"),
            ("é-ok_1.2", "é-ok_1.2"),
        ];
        for (input, want) in cases {
            assert_eq!(safe_name(input), want, "{input}");
        }
    }
}
