//! The person's standing permissions for agents to upload with Titan without asking each
//! time: one entry per agent (its declared client name) and capsule scope
//! (`gemini://host[:port]/path`, the same scopes as identities). Kept in
//! `upload_allowances.toml`; made and removed only by the person (`smolweb titan allow|revoke`).

use super::StoreError;
use super::list_file::{ListFile, ListItem};
use smolweb_core::url::{Scheme, Url};
use std::path::PathBuf;
use time::OffsetDateTime;

/// One standing permission.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Allowance {
    /// The agent's declared client name, as the consent question shows it.
    pub agent: String,
    /// The scope: `gemini://host[:port]/path` (the path a prefix at a segment boundary).
    pub scope: String,
    /// When the person allowed it.
    #[serde(with = "time::serde::rfc3339")]
    pub added: OffsetDateTime,
}

impl ListItem for Allowance {
    const TABLE: &'static str = "allow";
    fn header() -> String {
        "# Agents the person allows to upload (Titan) under a scope without asking each time.\n"
            .into()
    }
}

/// The scope of a gemini:// or titan:// URL: its host, port and path, as `gemini://…`.
pub fn scope_of(url: &str) -> Result<String, StoreError> {
    let u = Url::parse(url.trim()).map_err(|e| StoreError::Invalid(e.to_string()))?;
    if !matches!(u.scheme(), Scheme::Gemini | Scheme::Titan) {
        return Err(StoreError::Invalid(format!(
            "an upload scope is a gemini:// or titan:// URL, not {}",
            u.without_query()
        )));
    }
    let port = if u.port() == 1965 {
        String::new()
    } else {
        format!(":{}", u.port())
    };
    Ok(format!("gemini://{}{port}{}", u.host(), u.path()))
}

/// `scope` covers `target` (both from [`scope_of`]): same host and port, and the scope's path
/// is the target's or one of its parent directories.
fn covers(scope: &str, target: &str) -> bool {
    if scope == target {
        return true;
    }
    target.starts_with(scope) && (scope.ends_with('/') || target[scope.len()..].starts_with('/'))
}

/// The allowances file.
#[derive(Clone, Debug)]
pub struct Uploads {
    file: ListFile<Allowance>,
}

impl Uploads {
    /// The file at `path` (nothing is read or created yet).
    pub fn new(path: PathBuf) -> Uploads {
        Uploads {
            file: ListFile::new(path),
        }
    }
    /// Every allowance, oldest first.
    pub fn list(&self) -> Result<Vec<Allowance>, StoreError> {
        self.file.read()
    }
    /// Allow `agent` to upload under the scope of `url`. Returns false when it already was.
    pub fn allow(&self, agent: &str, url: &str, now: OffsetDateTime) -> Result<bool, StoreError> {
        let agent = agent.trim();
        if agent.is_empty() || agent.chars().any(char::is_control) {
            return Err(StoreError::Invalid("an agent's name is needed".into()));
        }
        let scope = scope_of(url)?;
        let now = now.replace_nanosecond(0).unwrap_or(now);
        self.file.update(|list| {
            if list.iter().any(|a| a.agent == agent && a.scope == scope) {
                return Ok((false, false));
            }
            list.push(Allowance {
                agent: agent.to_string(),
                scope,
                added: now,
            });
            Ok((true, true))
        })
    }
    /// Take an allowance back. Returns whether there was one.
    pub fn revoke(&self, agent: &str, url: &str) -> Result<bool, StoreError> {
        let scope = scope_of(url)?;
        let agent = agent.trim().to_string();
        self.file.update(|list| {
            let before = list.len();
            list.retain(|a| !(a.agent == agent && a.scope == scope));
            let gone = list.len() != before;
            Ok((gone, gone))
        })
    }
    /// The allowance that lets `agent` upload to `url` without asking, if there is one.
    pub fn permits(&self, agent: &str, url: &str) -> Result<Option<Allowance>, StoreError> {
        let target = scope_of(url)?;
        Ok(self
            .list()?
            .into_iter()
            .find(|a| a.agent == agent && covers(&a.scope, &target)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    #[test]
    fn an_allowance_covers_its_scope_and_below_for_that_agent_only() {
        let tmp = tempfile::tempdir().unwrap();
        let u = Uploads::new(tmp.path().join("upload_allowances.toml"));
        let now = datetime!(2026-12-02 12:00 UTC);
        assert!(
            u.allow("agent-a", "gemini://cap.example/log/", now)
                .unwrap()
        );
        assert!(
            !u.allow("agent-a", "titan://cap.example:1965/log/", now)
                .unwrap(),
            "same scope"
        );
        let ok = |agent: &str, url: &str| u.permits(agent, url).unwrap().is_some();
        assert!(ok("agent-a", "titan://cap.example/log/post.gmi;size=3"));
        assert!(ok("agent-a", "titan://cap.example/log/"));
        assert!(
            !ok("agent-a", "titan://cap.example/logbook.gmi"),
            "a segment boundary"
        );
        assert!(!ok("agent-a", "titan://cap.example/other.gmi"));
        assert!(
            !ok("agent-a", "titan://cap.example:1966/log/x.gmi"),
            "another port"
        );
        assert!(
            !ok("agent-b", "titan://cap.example/log/x.gmi"),
            "another agent"
        );
        assert!(u.revoke("agent-a", "gemini://cap.example/log/").unwrap());
        assert!(!ok("agent-a", "titan://cap.example/log/post.gmi"));
        assert!(u.allow("agent-a", "https://cap.example/", now).is_err());
        assert!(u.allow(" ", "gemini://cap.example/", now).is_err());
    }
}
