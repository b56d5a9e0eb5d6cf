//! Long text in the person's own editor: a temporary file only they can read (0600), prefilled;
//! `$VISUAL`, else `$EDITOR`, else `vi` on it; what it holds when the editor exits read back;
//! the file removed whatever happened. The shell hands the terminal over around [`edit`].

use crate::app::ShellError;
use std::io::{ErrorKind, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::PathBuf;
use std::sync::Arc;

/// The editor command: `$VISUAL`, else `$EDITOR`, else `vi` (it may carry arguments, as
/// `code -w`; the shell splits it, as other programs that run an editor do).
pub(super) fn editor_command() -> String {
    ["VISUAL", "EDITOR"]
        .iter()
        .filter_map(|var| std::env::var(var).ok())
        .find(|v| !v.trim().is_empty())
        .unwrap_or_else(|| "vi".into())
}

/// The editor's file: made new (never an existing one), private, removed when dropped.
struct TempText {
    path: PathBuf,
}

impl TempText {
    fn create(initial: &str) -> Result<TempText, ShellError> {
        let dir = std::env::temp_dir();
        let stamp = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        for n in 0..64u32 {
            let path = dir.join(format!(
                "smolweb-input-{}-{stamp:x}-{n}.txt",
                std::process::id()
            ));
            let opened = std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .mode(0o600)
                .open(&path);
            match opened {
                Ok(mut f) => {
                    let file = TempText { path };
                    f.write_all(initial.as_bytes())
                        .and_then(|()| f.sync_all())
                        .map_err(|e| file.error(e))?;
                    return Ok(file);
                }
                Err(e) if e.kind() == ErrorKind::AlreadyExists => continue,
                Err(e) => {
                    return Err(ShellError::EditorFile {
                        path,
                        source: Arc::new(e),
                    });
                }
            }
        }
        Err(ShellError::EditorFile {
            path: dir,
            source: Arc::new(std::io::Error::new(
                ErrorKind::AlreadyExists,
                "no free name for the editor's file",
            )),
        })
    }

    fn error(&self, e: std::io::Error) -> ShellError {
        ShellError::EditorFile {
            path: self.path.clone(),
            source: Arc::new(e),
        }
    }

    fn read(&self) -> Result<String, ShellError> {
        let bytes = std::fs::read(&self.path).map_err(|e| self.error(e))?;
        String::from_utf8(bytes).map_err(|_| {
            self.error(std::io::Error::new(
                ErrorKind::InvalidData,
                "it is not UTF-8 text",
            ))
        })
    }
}

impl Drop for TempText {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// Run the editor on a file holding `initial` and return what the file holds when it exits
/// successfully. Blocks until the editor exits; the terminal must be handed over first.
pub(super) fn edit(initial: &str) -> Result<String, ShellError> {
    let file = TempText::create(initial)?;
    let program = editor_command();
    let status = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("{program} \"$1\""))
        .arg("sh")
        .arg(&file.path)
        .status()
        .map_err(|e| ShellError::EditorStart {
            program: program.clone(),
            source: Arc::new(e),
        })?;
    if !status.success() {
        let status = match status.code() {
            Some(n) => format!("status {n}"),
            None => "a signal".to_string(),
        };
        return Err(ShellError::EditorFailed { status });
    }
    file.read()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_file_is_private_prefilled_and_removed() {
        use std::os::unix::fs::PermissionsExt;
        let file = TempText::create("typed so far").unwrap();
        let path = file.path.clone();
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
        assert_eq!(file.read().unwrap(), "typed so far");
        drop(file);
        assert!(!path.exists());
    }
}
