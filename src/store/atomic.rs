//! The one helper every persisted file uses: lock, re-read, mutate, write temp, fsync, rename.

use super::StoreError;
use std::path::Path;

/// Read a file under the lock and parse it with `parse`; a missing file gives `T::default()`.
pub fn read<T: Default>(
    path: &Path,
    parse: impl FnOnce(&str) -> Result<T, String>,
) -> Result<T, StoreError> {
    let _ = (path, parse);
    Ok(T::default())
}

/// Under an exclusive lock: read the current contents (missing = default), apply `mutate`,
/// and atomically replace the file with `render(&value)`. Returns what `mutate` returned.
pub fn update<T: Default, R>(
    path: &Path,
    parse: impl FnOnce(&str) -> Result<T, String>,
    render: impl FnOnce(&T) -> String,
    mutate: impl FnOnce(&mut T) -> Result<R, StoreError>,
) -> Result<R, StoreError> {
    let _ = (path, parse, render);
    let mut v = T::default();
    mutate(&mut v)
}
