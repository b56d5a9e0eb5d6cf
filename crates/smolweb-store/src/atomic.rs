//! The one helper every persisted file uses: lock, re-read, mutate, write temp, fsync, rename.
//!
//! Invariants:
//! - Writers serialize on an exclusive lock of a sidecar `<file>.lock` (std `File::lock`, an
//!   advisory `flock` on unix), so two processes (browser + MCP server) merge instead of
//!   overwriting each other. Readers take the shared lock.
//! - The target is only ever replaced by `rename` of a fully written, `sync_all`ed temp file
//!   in the same directory: a reader sees the old or the new file, never half of one.
//! - A file that does not parse is [`StoreError::Corrupt`] naming it, and is never rewritten;
//!   the reason says where and what ([`ParseFailure`]) and never quotes the file.
//! - Data files and their locks are opened without following a final symbolic link
//!   (`O_NOFOLLOW`, and `O_NONBLOCK` so a FIFO cannot hang the open) and must be regular files;
//!   anything else is [`StoreError::NotRegular`] naming it. A write never replaces a link
//!   (and `rename` would replace the link itself, never write through it); the temp file is
//!   created with `create_new`, which refuses an existing name, link or not.
//! - A writer killed between its temp file and the rename leaves the temp file; the next
//!   writer of the same file, holding the same lock, removes it before writing its own.
//! - A missing parent directory is created with mode 0700 (unix); existing directories keep
//!   their mode unless the caller asks for it ([`Modes::enforce_dir`]). An opened file others
//!   can read or write, or a directory others can write, is refused ([`super::perms`]).

use super::StoreError;
use super::file_cache::FileCache;
use super::parse_failure::ParseFailure;
use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// File and directory modes (unix permission bits; ignored elsewhere).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Modes {
    /// Mode of the written file.
    pub(crate) file: u32,
    /// Mode of a directory this helper creates.
    pub(crate) dir: u32,
    /// Also chmod the parent directory to `dir` on every write (key material).
    pub(crate) enforce_dir: bool,
}

impl Modes {
    /// Ordinary data files (pins, history, bookmarks): owner read/write only.
    pub(crate) const DATA: Modes = Modes {
        file: 0o600,
        dir: 0o700,
        enforce_dir: false,
    };
    /// Private keys and their directory: 0600 files in a 0700 directory, enforced each write.
    pub(crate) const SECRET: Modes = Modes {
        file: 0o600,
        dir: 0o700,
        enforce_dir: true,
    };
    /// Files meant to be shared (exported certificates).
    pub(crate) const PUBLIC: Modes = Modes {
        file: 0o644,
        dir: 0o700,
        enforce_dir: false,
    };
}

fn io_err(path: &Path, source: std::io::Error) -> StoreError {
    StoreError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// `<file>.lock`, the sidecar every writer of `path` locks.
pub(crate) fn lock_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".lock");
    path.with_file_name(name)
}

/// Create `dir` (and parents) if missing, with `modes.dir`; chmod it when `enforce_dir`. An
/// existing directory others can write is refused ([`super::perms`]).
pub(crate) fn ensure_dir(dir: &Path, modes: Modes) -> Result<(), StoreError> {
    if !dir.is_dir() {
        let mut builder = std::fs::DirBuilder::new();
        builder.recursive(true);
        #[cfg(unix)]
        std::os::unix::fs::DirBuilderExt::mode(&mut builder, modes.dir);
        builder.create(dir).map_err(|e| io_err(dir, e))?;
    } else {
        super::perms::check_dir(dir)?;
        if modes.enforce_dir {
            set_mode(dir, modes.dir)?;
        }
    }
    Ok(())
}

/// Set unix permission bits (no-op elsewhere).
pub(crate) fn set_mode(path: &Path, mode: u32) -> Result<(), StoreError> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))
            .map_err(|e| io_err(path, e))?;
    }
    #[cfg(not(unix))]
    let _ = (path, mode);
    Ok(())
}

fn parent_of(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// What a path that should hold a data file is instead (None: a regular file).
fn not_regular(meta: &std::fs::Metadata) -> Option<&'static str> {
    let t = meta.file_type();
    if t.is_file() {
        None
    } else if t.is_symlink() {
        Some("a symbolic link")
    } else if t.is_dir() {
        Some("a directory")
    } else {
        Some("a FIFO, socket or device")
    }
}

fn refuse(path: &Path, kind: &'static str) -> StoreError {
    StoreError::NotRegular {
        path: path.to_path_buf(),
        kind,
    }
}

/// An open failure: [`StoreError::NotRegular`] when the path is a link (`O_NOFOLLOW` failed
/// on it) or a directory, else the I/O error.
fn open_error(path: &Path, e: std::io::Error) -> StoreError {
    match std::fs::symlink_metadata(path)
        .ok()
        .as_ref()
        .and_then(not_regular)
    {
        Some(kind) => refuse(path, kind),
        None => io_err(path, e),
    }
}

/// Do not follow a final symbolic link; do not block on a FIFO.
fn no_follow(opts: &mut OpenOptions) {
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(opts, libc::O_NOFOLLOW | libc::O_NONBLOCK);
    #[cfg(not(unix))]
    let _ = opts;
}

/// Open a data file with `opts` (plus [`no_follow`]) and check that it is a regular file.
fn open_checked(path: &Path, mut opts: OpenOptions) -> Result<File, StoreError> {
    #[cfg(not(unix))]
    if let Some(kind) = std::fs::symlink_metadata(path)
        .ok()
        .as_ref()
        .and_then(not_regular)
    {
        return Err(refuse(path, kind));
    }
    no_follow(&mut opts);
    let file = opts.open(path).map_err(|e| open_error(path, e))?;
    let meta = file.metadata().map_err(|e| io_err(path, e))?;
    if let Some(kind) = not_regular(&meta) {
        return Err(refuse(path, kind));
    }
    super::perms::check_file(path, &meta)?;
    super::perms::check_dir(parent_of(path))?;
    Ok(file)
}

/// Open an existing data file for reading (None: it does not exist). A symbolic link or
/// anything but a regular file is [`StoreError::NotRegular`].
pub(crate) fn open_data_file(path: &Path) -> Result<Option<File>, StoreError> {
    let mut opts = OpenOptions::new();
    opts.read(true);
    open_existing(path, opts)
}

/// [`open_checked`], with a missing file as None.
fn open_existing(path: &Path, opts: OpenOptions) -> Result<Option<File>, StoreError> {
    match open_checked(path, opts) {
        Ok(file) => Ok(Some(file)),
        Err(StoreError::Io { source, .. }) if source.kind() == std::io::ErrorKind::NotFound => {
            Ok(None)
        }
        Err(e) => Err(e),
    }
}

/// Open `lock_file` (created, with its directory, if missing; refused like a data file when
/// it is a link), unlocked: for [`with_lock`], and for an appender that keeps it open.
pub(crate) fn open_lock(lock_file: &Path) -> Result<File, StoreError> {
    ensure_dir(parent_of(lock_file), Modes::DATA)?;
    let mut opts = OpenOptions::new();
    opts.read(true).write(true).create(true).truncate(false);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut opts, 0o600);
    open_checked(lock_file, opts)
}

/// Open an existing data file for reading and writing in place (None: it does not exist);
/// refused like [`open_data_file`] when it is a link or not a regular file.
pub(crate) fn open_data_file_rw(path: &Path) -> Result<Option<File>, StoreError> {
    let mut opts = OpenOptions::new();
    opts.read(true).write(true);
    open_existing(path, opts)
}

/// Run `f` while holding the lock on `lock_file` (exclusive or shared). The lock file and its
/// directory are created if missing; a lock file that is a link is refused like a data file.
/// The lock is released when `f` returns.
pub(crate) fn with_lock<R>(
    lock_file: &Path,
    exclusive: bool,
    f: impl FnOnce() -> Result<R, StoreError>,
) -> Result<R, StoreError> {
    let file = open_lock(lock_file)?;
    let locked = if exclusive {
        file.lock()
    } else {
        file.lock_shared()
    };
    locked.map_err(|e| io_err(lock_file, e))?;
    let result = f();
    // Closing the file releases the lock too; unlock explicitly to say so.
    let _ = file.unlock();
    result
}

/// Take the exclusive lock on `lock_file` if nobody holds it (None: held elsewhere). The
/// caller keeps the file: closing it releases the lock.
pub(crate) fn try_lock(lock_file: &Path) -> Result<Option<File>, StoreError> {
    let file = open_lock(lock_file)?;
    match file.try_lock() {
        Ok(()) => Ok(Some(file)),
        Err(std::fs::TryLockError::WouldBlock) => Ok(None),
        Err(std::fs::TryLockError::Error(e)) => Err(io_err(lock_file, e)),
    }
}

/// Wait for the exclusive lock on `lock_file`; the caller keeps the file.
pub(crate) fn lock_blocking(lock_file: &Path) -> Result<File, StoreError> {
    let file = open_lock(lock_file)?;
    file.lock().map_err(|e| io_err(lock_file, e))?;
    Ok(file)
}

/// Remove the temp files ([`write_file`]'s `.NAME.PID.N.tmp`) in `dir` older than `age`: a
/// killed writer's leftovers, where no lock says the writers are done. Best effort.
pub(crate) fn sweep_old_temps(dir: &Path, age: std::time::Duration) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if !(name.starts_with('.') && name.ends_with(".tmp")) {
            continue;
        }
        let old = entry
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|elapsed| elapsed >= age);
        if old {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// Read the file's text; `None` when it does not exist. Never through a link.
pub(crate) fn read_text(path: &Path) -> Result<Option<String>, StoreError> {
    let Some(mut file) = open_data_file(path)? else {
        return Ok(None);
    };
    let mut text = String::new();
    file.read_to_string(&mut text)
        .map_err(|e| io_err(path, e))?;
    Ok(Some(text))
}

/// Read the file's bytes; `None` when it does not exist. Never through a link.
pub(crate) fn read_bytes(path: &Path) -> Result<Option<Vec<u8>>, StoreError> {
    let Some(mut file) = open_data_file(path)? else {
        return Ok(None);
    };
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes).map_err(|e| io_err(path, e))?;
    Ok(Some(bytes))
}

fn parse_or_default<T: Default, E: ParseFailure>(
    path: &Path,
    parse: impl FnOnce(&str) -> Result<T, E>,
) -> Result<T, StoreError> {
    match read_text(path)? {
        None => Ok(T::default()),
        Some(text) => parse(&text).map_err(|e| StoreError::Corrupt {
            path: path.to_path_buf(),
            reason: e.describe(&text),
        }),
    }
}

static TEMP_COUNTER: AtomicU64 = AtomicU64::new(0);

/// Is `entry` a temp file as [`write_file`] names them (`.<name>.<pid>.<n>.tmp`), of `name`
/// (None: of any file)?
fn is_temp_of(entry: &str, name: Option<&str>) -> bool {
    let Some((stem, counter)) = entry
        .strip_prefix('.')
        .and_then(|e| e.strip_suffix(".tmp"))
        .and_then(|e| e.rsplit_once('.'))
    else {
        return false;
    };
    let Some((target, pid)) = stem.rsplit_once('.') else {
        return false;
    };
    let digits = |d: &str| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit());
    digits(pid) && digits(counter) && !target.is_empty() && name.is_none_or(|n| n == target)
}

/// Remove the temp files of `name` (None: of every file) in `dir`: the leftovers of a writer
/// killed between writing its temp file and renaming it. The caller holds the lock every
/// writer of those files holds, so none of them is in use. Best effort.
pub(crate) fn sweep_temps(dir: &Path, name: Option<&str>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        if is_temp_of(&entry.file_name().to_string_lossy(), name) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// Atomically replace `path` with `contents` (temp file in the same directory, `sync_all`,
/// rename, best-effort directory fsync). Does NOT lock: callers hold the lock every writer of
/// `path` takes, so the temp files of `path` that a killed writer left are removed first.
pub(crate) fn write_file(path: &Path, contents: &[u8], modes: Modes) -> Result<(), StoreError> {
    let dir = parent_of(path);
    ensure_dir(dir, modes)?;
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    sweep_temps(dir, Some(&name));
    let n = TEMP_COUNTER.fetch_add(1, Ordering::Relaxed);
    let temp = dir.join(format!(".{name}.{}.{n}.tmp", std::process::id()));
    let result = write_temp(&temp, contents, modes).and_then(|()| {
        // A link in place of the file is refused, not replaced (the person may have made it).
        if let Some(kind) = std::fs::symlink_metadata(path)
            .ok()
            .as_ref()
            .and_then(not_regular)
        {
            return Err(refuse(path, kind));
        }
        std::fs::rename(&temp, path).map_err(|e| io_err(path, e))
    });
    if result.is_err() {
        let _ = std::fs::remove_file(&temp);
        return result;
    }
    // Make the rename durable; some filesystems refuse fsync on a directory: best effort.
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

fn write_temp(temp: &Path, contents: &[u8], modes: Modes) -> Result<(), StoreError> {
    let mut opts = OpenOptions::new();
    opts.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut opts, modes.file);
    let mut file = opts.open(temp).map_err(|e| io_err(temp, e))?;
    // The umask may have narrowed the mode; a wider one is never wanted either way.
    set_mode(temp, modes.file)?;
    file.write_all(contents).map_err(|e| io_err(temp, e))?;
    file.sync_all().map_err(|e| io_err(temp, e))
}

/// Read a file under the lock and parse it with `parse`; a missing file gives `T::default()`.
pub(crate) fn read<T: Default, E: ParseFailure>(
    path: &Path,
    parse: impl FnOnce(&str) -> Result<T, E>,
) -> Result<T, StoreError> {
    with_lock(&lock_path(path), false, || parse_or_default(path, parse))
}

/// Under an exclusive lock: read the current contents (missing = default), apply `mutate`,
/// and atomically replace the file with `render(&value)`. Returns what `mutate` returned.
/// (The stores call [`update_if`]; this plain form is what the unit tests below exercise.)
#[cfg(test)]
pub(crate) fn update<T: Default, R, E: ParseFailure>(
    path: &Path,
    parse: impl FnOnce(&str) -> Result<T, E>,
    render: impl FnOnce(&T) -> String,
    mutate: impl FnOnce(&mut T) -> Result<R, StoreError>,
) -> Result<R, StoreError> {
    update_if(
        path,
        Modes::DATA,
        parse,
        |v| Ok(render(v)),
        |v| mutate(v).map(|r| (r, true)),
    )
}

/// Like [`update`], with explicit modes, and `mutate` says whether anything changed: the file
/// is only rewritten when it returns `true` (so frequent no-op checks do not churn the disk).
/// `render` may fail (then nothing is written).
pub(crate) fn update_if<T: Default, R, E: ParseFailure>(
    path: &Path,
    modes: Modes,
    parse: impl FnOnce(&str) -> Result<T, E>,
    render: impl FnOnce(&T) -> Result<String, StoreError>,
    mutate: impl FnOnce(&mut T) -> Result<(R, bool), StoreError>,
) -> Result<R, StoreError> {
    locked_update(
        path,
        modes,
        || parse_or_default(path, parse),
        render,
        mutate,
        |_, _| (),
    )
}

/// Under the exclusive lock: `load` the value, `mutate` it, and when it says something changed
/// replace the file with `render(&value)` and hand the text and value to `wrote`.
fn locked_update<T, R>(
    path: &Path,
    modes: Modes,
    load: impl FnOnce() -> Result<T, StoreError>,
    render: impl FnOnce(&T) -> Result<String, StoreError>,
    mutate: impl FnOnce(&mut T) -> Result<(R, bool), StoreError>,
    wrote: impl FnOnce(String, T),
) -> Result<R, StoreError> {
    ensure_dir(parent_of(path), modes)?;
    with_lock(&lock_path(path), true, || {
        let mut value = load()?;
        let (result, changed) = mutate(&mut value)?;
        if changed {
            let text = render(&value)?;
            write_file(path, text.as_bytes(), modes)?;
            wrote(text, value);
        }
        Ok(result)
    })
}

/// [`read`] through `cache`: the parsed copy while the file is the one it was parsed from
/// (see [`super::file_cache`]), shared, not copied.
pub(crate) fn read_cached<T: Default, E: ParseFailure>(
    path: &Path,
    cache: &FileCache<T>,
    parse: impl FnOnce(&str) -> Result<T, E>,
) -> Result<Arc<T>, StoreError> {
    with_lock(&lock_path(path), false, || cache.load(path, parse))
}

/// [`update_if`] through `cache`: the re-read under the exclusive lock takes the parsed copy
/// when the file has not changed, and what is written is kept as the new copy.
pub(crate) fn update_cached<T: Default + Clone, R, E: ParseFailure>(
    path: &Path,
    modes: Modes,
    cache: &FileCache<T>,
    parse: impl FnOnce(&str) -> Result<T, E>,
    render: impl FnOnce(&T) -> Result<String, StoreError>,
    mutate: impl FnOnce(&mut T) -> Result<(R, bool), StoreError>,
) -> Result<R, StoreError> {
    locked_update(
        path,
        modes,
        || cache.load(path, parse).map(|copy| T::clone(&copy)),
        render,
        mutate,
        |text, value| cache.wrote(path, text, value),
    )
}

/// Parse TOML text into `T`, for use as a `parse` argument (the TOML error, described without
/// quoting the file, becomes the `Corrupt` reason).
pub(crate) fn parse_toml<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, toml::de::Error> {
    toml::from_str(text)
}

/// Render `T` as TOML, for use as an [`update_if`] `render` argument.
pub(crate) fn render_toml<T: serde::Serialize>(value: &T) -> Result<String, StoreError> {
    toml::to_string_pretty(value).map_err(|e| StoreError::Invalid(format!("cannot render: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    impl ParseFailure for std::num::ParseIntError {
        fn describe(&self, _text: &str) -> String {
            self.to_string()
        }
    }

    fn parse_num(s: &str) -> Result<u32, std::num::ParseIntError> {
        let t = s.trim();
        if t.is_empty() {
            return Ok(0);
        }
        t.parse()
    }

    /// [`update`] of a number file with `f`.
    fn change(path: &Path, f: impl FnOnce(&mut u32)) {
        update(
            path,
            parse_num,
            |n| n.to_string(),
            |n| {
                f(n);
                Ok(())
            },
        )
        .unwrap();
    }

    #[test]
    fn update_creates_dir_and_file_and_merges() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("sub/dir/n.txt");
        for _ in 0..3 {
            change(&path, |n| *n += 1);
        }
        assert_eq!(read(&path, parse_num).unwrap(), 3);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let m = std::fs::metadata(path.parent().unwrap()).unwrap();
            assert_eq!(m.permissions().mode() & 0o777, 0o700);
        }
        // Only the file and its lock remain: no temp files left behind.
        let mut names: Vec<_> = std::fs::read_dir(path.parent().unwrap())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        assert_eq!(names, vec!["n.txt", "n.txt.lock"]);
    }

    #[test]
    fn a_killed_writers_temp_files_are_removed_by_the_next_write() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("n.txt");
        // What a writer killed after writing its temp file leaves (pids of dead processes),
        // and names that only look alike: another file's temp, a person's file.
        let left = [".n.txt.4242.0.tmp", ".n.txt.17.3.tmp"];
        let kept = [
            ".m.txt.4242.0.tmp",
            ".n.txt.x.0.tmp",
            "n.txt.4242.0.tmp",
            ".n.txt.tmp",
            ".n.txt.4242.tmp",
        ];
        for name in left.iter().chain(&kept) {
            crate::perms::write_private(tmp.path().join(name), "half").unwrap();
        }
        change(&path, |n| *n = 4);
        assert_eq!(read(&path, parse_num).unwrap(), 4);
        for name in left {
            assert!(!tmp.path().join(name).exists(), "{name} left behind");
        }
        for name in kept {
            assert!(tmp.path().join(name).exists(), "{name} removed");
        }
    }

    #[test]
    fn missing_file_reads_as_default() {
        let tmp = tempfile::tempdir().unwrap();
        assert_eq!(read(&tmp.path().join("none"), parse_num).unwrap(), 0);
    }

    #[test]
    fn corrupt_file_is_named_and_left_alone() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("n.txt");
        crate::perms::write_private(&path, "not a number").unwrap();
        let err = update(
            &path,
            parse_num,
            |n| n.to_string(),
            |n| {
                *n = 7;
                Ok(())
            },
        )
        .unwrap_err();
        assert!(matches!(err, StoreError::Corrupt { .. }));
        assert!(err.to_string().contains("n.txt"), "{err}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "not a number");
    }

    #[test]
    fn mutate_error_leaves_file_unchanged() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("n.txt");
        crate::perms::write_private(&path, "5").unwrap();
        let r: Result<(), _> = update(
            &path,
            parse_num,
            |n| n.to_string(),
            |n| {
                *n = 9;
                Err(StoreError::Invalid("no".into()))
            },
        );
        assert!(r.is_err());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "5");
    }

    #[test]
    fn update_if_unchanged_does_not_write() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("n.txt");
        update_if(
            &path,
            Modes::DATA,
            parse_num,
            |n| Ok(n.to_string()),
            |_| Ok(((), false)),
        )
        .unwrap();
        assert!(!path.exists());
    }

    #[cfg(unix)]
    #[test]
    fn a_linked_target_is_refused_and_left_as_a_link() {
        let tmp = tempfile::tempdir().unwrap();
        let target = tmp.path().join("elsewhere");
        crate::perms::write_private(&target, "41").unwrap();
        let path = tmp.path().join("n.txt");
        std::os::unix::fs::symlink(&target, &path).unwrap();
        let err = read(&path, parse_num).unwrap_err();
        assert!(matches!(err, StoreError::NotRegular { .. }), "{err:?}");
        assert!(err.to_string().contains("n.txt"), "{err}");
        let err = write_file(&path, b"7", Modes::DATA).unwrap_err();
        assert!(matches!(err, StoreError::NotRegular { .. }), "{err:?}");
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "41");
        assert!(
            std::fs::symlink_metadata(&path)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        // No temp file is left behind by the refused write.
        let left: Vec<_> = std::fs::read_dir(tmp.path()).unwrap().collect();
        assert_eq!(left.len(), 3, "the target, the link and its lock: {left:?}");
    }

    #[cfg(unix)]
    #[test]
    fn secret_mode_is_0600() {
        use std::os::unix::fs::PermissionsExt;
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("k/key.pem");
        write_file(&path, b"secret", Modes::SECRET).unwrap();
        let m = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(m & 0o777, 0o600);
        let d = std::fs::metadata(path.parent().unwrap()).unwrap();
        assert_eq!(d.permissions().mode() & 0o777, 0o700);
    }
}
