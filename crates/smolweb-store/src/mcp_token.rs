//! The bearer token of the MCP server over HTTP (`smolweb --mcp --http`): `mcp-token` in the
//! data directory, 32 random bytes as 64 lowercase hex digits and a newline, mode 0600.
//!
//! It is made on first use, under the file's lock, so two processes starting at once agree on
//! one token; later uses read it back. A file that is not a token (edited by hand, truncated)
//! is [`StoreError::Corrupt`] and is left as it is: the person removes it to get a new one.
//! A file others can read is refused like every store file ([`crate::perms`]); when the config
//! says to only warn about it, it is used and narrowed back to 0600.
//! The token is a secret: never logged, never part of an error.

use super::StoreError;
use super::atomic::{self, Modes};
use std::path::Path;

/// Digits of a token (32 bytes in hex).
const HEX_LEN: usize = 64;

/// The server's bearer token. Its `Debug` form does not show it.
#[derive(Clone, PartialEq, Eq)]
pub struct McpToken(String);

impl std::fmt::Debug for McpToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("McpToken(..)")
    }
}

impl McpToken {
    /// The token as a client sends it (`Authorization: Bearer <token>`).
    pub fn expose(&self) -> &str {
        &self.0
    }
}

/// Read the token at `path`, making it first when the file does not exist.
pub fn load_or_create(path: &Path) -> Result<McpToken, StoreError> {
    atomic::with_lock(&atomic::lock_path(path), true, || {
        if let Some(text) = atomic::read_text(path)? {
            let token = parse(&text).ok_or_else(|| StoreError::Corrupt {
                path: path.to_path_buf(),
                reason: format!(
                    "not a token ({HEX_LEN} hexadecimal digits); remove the file to make a new one"
                ),
            })?;
            narrow_mode(path)?;
            return Ok(token);
        }
        let token = generate()?;
        let mut text = token.0.clone();
        text.push('\n');
        atomic::write_file(path, text.as_bytes(), Modes::DATA)?;
        Ok(token)
    })
}

fn parse(text: &str) -> Option<McpToken> {
    let t = text.trim_end_matches(['\n', '\r']);
    (t.len() == HEX_LEN && t.bytes().all(|b| b.is_ascii_hexdigit()))
        .then(|| McpToken(t.to_ascii_lowercase()))
}

fn generate() -> Result<McpToken, StoreError> {
    use ring::rand::SecureRandom;
    let mut bytes = [0u8; HEX_LEN / 2];
    ring::rand::SystemRandom::new()
        .fill(&mut bytes)
        .map_err(|_| StoreError::Crypto("the system random source failed".into()))?;
    Ok(McpToken(hex_lower(&bytes)))
}

fn hex_lower(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        s.push(char::from(DIGITS[usize::from(b >> 4)]));
        s.push(char::from(DIGITS[usize::from(b & 0x0f)]));
    }
    s
}

/// A token file others may read (used under `loose_permissions = "warn"`) is set back to
/// owner-only.
fn narrow_mode(path: &Path) -> Result<(), StoreError> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::symlink_metadata(path)
            .map_err(|source| StoreError::Io {
                path: path.to_path_buf(),
                source,
            })?
            .permissions()
            .mode();
        if mode & 0o077 != 0 {
            atomic::set_mode(path, 0o600)?;
        }
    }
    #[cfg(not(unix))]
    let _ = path;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn made_once_then_read_back() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("data").join("mcp-token");
        let first = load_or_create(&path).unwrap();
        assert_eq!(first.expose().len(), HEX_LEN);
        assert!(first.expose().bytes().all(|b| b.is_ascii_hexdigit()));
        assert_eq!(load_or_create(&path).unwrap(), first);
        assert_eq!(format!("{first:?}"), "McpToken(..)");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
            let e = load_or_create(&path).unwrap_err();
            assert!(matches!(e, StoreError::Exposed { .. }), "{e}");
            assert!(e.to_string().contains("chmod 600"), "{e}");
            assert!(!e.to_string().contains(first.expose()), "never quoted: {e}");
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
            assert_eq!(load_or_create(&path).unwrap(), first);
        }
        let other = dir.path().join("other");
        assert_ne!(load_or_create(&other).unwrap(), first, "random per file");
    }

    #[test]
    fn a_broken_file_is_corrupt_and_kept() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("mcp-token");
        crate::perms::write_private(&path, "hunter2\n").unwrap();
        let e = load_or_create(&path).unwrap_err();
        assert!(matches!(e, StoreError::Corrupt { .. }), "{e}");
        assert!(!e.to_string().contains("hunter2"), "never quoted: {e}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "hunter2\n");
    }
}
