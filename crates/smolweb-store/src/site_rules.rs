//! Site rules: which part of a site's web pages the reader keeps, as the person taught it.
//!
//! One file in the data directory, `site_rules.toml`, of `[[rule]]` tables: the site (a
//! host, normalized), the content selector, the selectors to remove inside it, and when it
//! was made. People may edit it by hand; it is read and written like the other list files
//! (locked, merged, replaced atomically; a corrupt file is an error naming it, never
//! replaced). A rule for `example.org` also serves `www.example.org` and the other way
//! round; a rule for a host with more labels is its own. Only the person writes rules (the
//! browser, `smolweb rules`); agents read pages by them and cannot change them.
//! A rule whose selectors do not parse is refused when made; one spoiled by hand is still
//! listed and can be removed, and extraction treats it as not matching.

use super::StoreError;
use super::list_file::{ListFile, ListItem};
use smolweb_core::html::SiteRule;
use std::path::PathBuf;
use time::OffsetDateTime;

/// One site's rule.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SiteRuleEntry {
    /// The host the rule is for (normalized: lowercase, IDNA, no `www.` kept apart).
    pub site: String,
    /// The content: a CSS selector; every element it matches is kept.
    pub content: String,
    /// CSS selectors removed inside the content.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub remove: Vec<String>,
    /// When it was made or last changed (whole seconds).
    #[serde(with = "time::serde::rfc3339")]
    pub added: OffsetDateTime,
}

impl SiteRuleEntry {
    /// The rule as extraction uses it.
    pub fn rule(&self) -> SiteRule {
        SiteRule {
            content: self.content.clone(),
            remove: self.remove.clone(),
        }
    }
}

/// On disk: `[[rule]]` tables.
impl ListItem for SiteRuleEntry {
    const TABLE: &'static str = "rule";
    fn header() -> String {
        "# smolweb site rules: which part of a site's web pages the reader view, `smolweb get`\n\
         # and agents' fetch_url keep. `content` is a CSS selector (every match is kept, in\n\
         # page order); `remove` lists selectors dropped inside it. Made in the browser (R on\n\
         # a web page), listed and removed with `smolweb rules`; you may edit this file.\n"
            .to_string()
    }
}

/// The host a rule is filed under: normalized, without a leading `www.`.
fn site_key(host: &str) -> Result<String, StoreError> {
    let host = smolweb_core::url::normalize_host(host.trim())
        .map_err(|e| StoreError::Invalid(e.to_string()))?;
    Ok(host.strip_prefix("www.").unwrap_or(&host).to_string())
}

/// The site rules file.
#[derive(Clone, Debug)]
pub struct SiteRules {
    file: ListFile<SiteRuleEntry>,
}

impl SiteRules {
    /// The rules file at `path` (nothing is read or created yet).
    pub fn new(path: PathBuf) -> SiteRules {
        SiteRules {
            file: ListFile::new(path),
        }
    }

    /// The file this store reads and writes.
    pub fn path(&self) -> &std::path::Path {
        self.file.path()
    }

    /// Every rule, by site.
    pub fn list(&self) -> Result<Vec<SiteRuleEntry>, StoreError> {
        let mut rules = self.file.read()?;
        rules.sort_by(|a, b| a.site.cmp(&b.site));
        Ok(rules)
    }

    /// The rule for the site of `host`, if any (a host that cannot be a site has none).
    pub fn for_host(&self, host: &str) -> Result<Option<SiteRuleEntry>, StoreError> {
        let Ok(key) = site_key(host) else {
            return Ok(None);
        };
        let rules = self.file.read()?;
        Ok(rules
            .into_iter()
            .find(|r| site_key(&r.site).is_ok_and(|k| k == key)))
    }

    /// Make or replace the rule for the site of `host`. A rule whose selectors do not parse
    /// is refused ([`StoreError::Invalid`]).
    pub fn set(
        &self,
        host: &str,
        rule: &SiteRule,
        now: OffsetDateTime,
    ) -> Result<SiteRuleEntry, StoreError> {
        rule.check()
            .map_err(|e| StoreError::Invalid(format!("site rule: {e}")))?;
        let site = site_key(host)?;
        let entry = SiteRuleEntry {
            site: site.clone(),
            content: rule.content.trim().to_string(),
            remove: rule.remove.iter().map(|s| s.trim().to_string()).collect(),
            added: now.replace_nanosecond(0).unwrap_or(now),
        };
        let stored = entry.clone();
        self.file.update(move |rules| {
            rules.retain(|r| site_key(&r.site).map_or(r.site != site, |k| k != site));
            rules.push(stored);
            Ok(((), true))
        })?;
        Ok(entry)
    }

    /// Remove the rule for the site of `host`; the rule removed, or NotFound.
    pub fn remove(&self, host: &str) -> Result<SiteRuleEntry, StoreError> {
        let site = site_key(host).unwrap_or_else(|_| host.trim().to_ascii_lowercase());
        let taken = self.file.update(|rules| {
            let at = rules
                .iter()
                .position(|r| r.site == site || site_key(&r.site).is_ok_and(|k| k == site));
            Ok(match at {
                Some(i) => (Some(rules.remove(i)), true),
                None => (None, false),
            })
        })?;
        taken.ok_or_else(|| StoreError::NotFound(format!("site rule for {site}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn now() -> OffsetDateTime {
        OffsetDateTime::from_unix_timestamp(1_796_000_000).unwrap()
    }

    #[test]
    fn a_rule_is_kept_per_site_with_and_without_www() {
        let dir = tempfile::tempdir().unwrap();
        let rules = SiteRules::new(dir.path().join("site_rules.toml"));
        let rule = SiteRule {
            content: "div.post".into(),
            remove: vec![".share".into()],
        };
        let made = rules.set("WWW.Forum.Example", &rule, now()).unwrap();
        assert_eq!(made.site, "forum.example");
        for host in ["forum.example", "www.forum.example", "FORUM.example"] {
            let got = rules.for_host(host).unwrap().unwrap();
            assert_eq!(got.rule(), rule, "{host}");
        }
        assert_eq!(rules.for_host("other.forum.example").unwrap(), None);
        // Made again: replaced, not doubled.
        rules
            .set("forum.example", &SiteRule::content("main"), now())
            .unwrap();
        let all = rules.list().unwrap();
        assert_eq!(all.len(), 1);
        assert_eq!(all[0].content, "main");
        let text = std::fs::read_to_string(rules.path()).unwrap();
        assert!(text.starts_with("# smolweb site rules"), "{text}");
        assert!(text.contains("[[rule]]") && text.contains("site = \"forum.example\""));
        assert_eq!(rules.remove("www.forum.example").unwrap().content, "main");
        assert!(matches!(
            rules.remove("forum.example"),
            Err(StoreError::NotFound(_))
        ));
        assert!(rules.list().unwrap().is_empty());
    }

    #[test]
    fn a_bad_selector_is_refused_and_nothing_is_written() {
        let dir = tempfile::tempdir().unwrap();
        let rules = SiteRules::new(dir.path().join("site_rules.toml"));
        let err = rules
            .set("a.example", &SiteRule::content("div["), now())
            .unwrap_err();
        assert!(err.to_string().contains("not a CSS selector"), "{err}");
        assert!(!rules.path().exists());
        assert!(
            rules
                .set("not a host", &SiteRule::content("main"), now())
                .is_err()
        );
    }

    #[test]
    fn a_corrupt_file_is_named_and_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("site_rules.toml");
        crate::perms::write_private(&path, "[[rule]]\nsite = 3\n").unwrap();
        let rules = SiteRules::new(path.clone());
        let err = rules.list().unwrap_err();
        assert!(matches!(err, StoreError::Corrupt { .. }), "{err}");
        assert!(
            rules
                .set("a.example", &SiteRule::content("main"), now())
                .is_err()
        );
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "[[rule]]\nsite = 3\n"
        );
    }
}
