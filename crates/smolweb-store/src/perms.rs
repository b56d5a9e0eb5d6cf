//! Files only their owner reads: a store file (a private key, pins, history, the activity
//! log, an offline copy, a lock) that group or others can read or write, or a directory of
//! the stores that others can write, is refused with [`StoreError::Exposed`], which names
//! the file and the `chmod` that fixes it, as ssh refuses such a key.
//!
//! Invariants:
//! - Every data file is checked when it is opened ([`check_file`], on the metadata of the
//!   open file, so what is checked is what is read), and the directory holding it
//!   ([`check_dir`]) when it is opened or written in.
//! - What smolweb creates is private whatever the umask: files 0600, directories 0700 (the
//!   modes are given at creation, and a umask can only take bits away).
//! - [`Loose::Warn`] (`[data] loose_permissions = "warn"` in the config, set once per process
//!   with [`set_policy`]) uses such a file anyway with a warning, once per path: logged, and
//!   kept for the face to show ([`take_warnings`]).
//! - Only unix has these bits; elsewhere nothing is checked.

use super::StoreError;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

/// What to do with a store file others can read, or a directory others can write.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Loose {
    /// Refuse it with [`StoreError::Exposed`] (the default).
    #[default]
    Refuse,
    /// Use it, and log a warning naming it and the fix.
    Warn,
}

static WARN_ONLY: AtomicBool = AtomicBool::new(false);

/// Set this process's policy (the client does, from its config).
pub fn set_policy(policy: Loose) {
    WARN_ONLY.store(policy == Loose::Warn, Ordering::Relaxed);
}

/// This process's policy.
pub fn policy() -> Loose {
    if WARN_ONLY.load(Ordering::Relaxed) {
        Loose::Warn
    } else {
        Loose::Refuse
    }
}

/// Bits of a data file nobody but its owner may have: group and others, read and write.
pub const FILE_LOOSE: u32 = 0o066;
/// Bits of a directory of the stores nobody but its owner's group may have: write for others.
pub const DIR_LOOSE: u32 = 0o002;

/// Create `dir` (and its parents) with mode 0700 whatever the umask, and check it when it
/// exists already ([`check_dir`]).
pub fn create_private_dir(dir: &Path) -> Result<(), StoreError> {
    super::atomic::ensure_dir(dir, super::atomic::Modes::DATA)
}

/// The file `path`, opened with `meta`, is readable or writable by others: refused (or
/// warned about, see [`Loose`]).
pub(crate) fn check_file(path: &Path, meta: &std::fs::Metadata) -> Result<(), StoreError> {
    judge(path, mode_of(meta), FILE_LOOSE, "600")
}

/// The directory `dir` is writable by others: refused (or warned about). A missing directory
/// passes (it is created private).
pub(crate) fn check_dir(dir: &Path) -> Result<(), StoreError> {
    match std::fs::metadata(dir) {
        Ok(meta) if meta.is_dir() => judge(dir, mode_of(&meta), DIR_LOOSE, "700"),
        _ => Ok(()),
    }
}

#[cfg(unix)]
fn mode_of(meta: &std::fs::Metadata) -> u32 {
    std::os::unix::fs::PermissionsExt::mode(&meta.permissions()) & 0o7777
}

#[cfg(not(unix))]
fn mode_of(_meta: &std::fs::Metadata) -> u32 {
    0
}

fn judge(path: &Path, mode: u32, loose: u32, fix: &'static str) -> Result<(), StoreError> {
    let bad = mode & loose;
    if bad == 0 {
        return Ok(());
    }
    let what = match (bad & 0o044 != 0, bad & 0o022 != 0) {
        (true, true) => "read and written",
        (true, false) => "read",
        _ => "written",
    };
    let error = StoreError::Exposed {
        path: path.to_path_buf(),
        mode: mode & 0o777,
        what,
        fix,
    };
    match policy() {
        Loose::Refuse => Err(error),
        Loose::Warn => {
            warn_once(path, || {
                format!(
                    "{} can be {what} by other users (mode {:04o}); used anyway \
                     ([data] loose_permissions = \"warn\"): run `chmod {fix} {}` to fix it",
                    path.display(),
                    mode & 0o777,
                    path.display()
                )
            });
            Ok(())
        }
    }
}

/// The paths warned about so far, and the warnings not yet taken by [`take_warnings`].
static WARNED: std::sync::Mutex<(Vec<std::path::PathBuf>, Vec<String>)> =
    std::sync::Mutex::new((Vec::new(), Vec::new()));

fn warn_once(path: &Path, text: impl FnOnce() -> String) {
    let mut warned = WARNED.lock().unwrap_or_else(|p| p.into_inner());
    if warned.0.iter().any(|p| p == path) {
        return;
    }
    warned.0.push(path.to_path_buf());
    let text = text();
    tracing::warn!("{text}");
    warned.1.push(text);
}

/// The warnings given under [`Loose::Warn`] since the last call (each path once per
/// process), for a face to show: the log has them too, but the command line and the browser
/// do not show the log.
pub fn take_warnings() -> Vec<String> {
    let mut warned = WARNED.lock().unwrap_or_else(|p| p.into_inner());
    std::mem::take(&mut warned.1)
}

/// Write `contents` to `path` as smolweb writes its own files: mode 0600 whatever the umask
/// (an existing file is set to it too). For tests and tools that put a file in the data
/// directory by hand: `std::fs::write` under a usual umask makes a file others can read, which
/// the stores refuse.
pub fn write_private(path: impl AsRef<Path>, contents: impl AsRef<[u8]>) -> std::io::Result<()> {
    use std::io::Write;
    let mut opts = std::fs::OpenOptions::new();
    opts.write(true).create(true).truncate(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut opts, 0o600);
    opts.open(path.as_ref())?.write_all(contents.as_ref())?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path.as_ref(), std::fs::Permissions::from_mode(0o600))?;
    }
    Ok(())
}

#[cfg(all(test, unix))]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn chmod(path: &Path, mode: u32) {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
    }

    #[test]
    fn loose_files_and_directories_are_named_with_their_fix() {
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join("key.pem");
        std::fs::write(&file, "k").unwrap();
        for (mode, refused) in [(0o600, false), (0o400, false), (0o640, true), (0o604, true)] {
            chmod(&file, mode);
            let meta = std::fs::metadata(&file).unwrap();
            let got = check_file(&file, &meta);
            assert_eq!(got.is_err(), refused, "{mode:o}");
            if let Err(e) = got {
                let text = e.to_string();
                assert!(text.contains(&file.display().to_string()), "{text}");
                assert!(
                    text.contains(&format!("chmod 600 {}", file.display())),
                    "{text}"
                );
                assert!(text.contains(&format!("{mode:04o}")), "{text}");
            }
        }
        for (mode, refused) in [
            (0o700, false),
            (0o755, false),
            (0o777, true),
            (0o1777, true),
        ] {
            chmod(tmp.path(), mode);
            let got = check_dir(tmp.path());
            assert_eq!(got.is_err(), refused, "{mode:o}");
            if let Err(e) = got {
                assert!(e.to_string().contains("chmod 700"), "{e}");
            }
        }
        chmod(tmp.path(), 0o700);
    }
}
