//! The person's site rules as the faces use them: which part of a site's web pages the
//! reader keeps ([`smolweb_core::html::SiteRule`], kept in `site_rules.toml` by
//! [`smolweb_store::site_rules`]).
//!
//! Every face reads web pages by the rules (the reader view, `smolweb get`, an agent's
//! `fetch_url`); only the human face changes them: an agent's client refuses to. The rule
//! in force for a page is part of the cache key of its converted text, so a page held from
//! before a rule was made, changed or removed is converted again, never served stale. A
//! rules file that cannot be read is reported in the log and pages are read without rules
//! (`smolweb rules list` says what is wrong with it).

use super::{Client, Face};
use smolweb_core::html::SiteRule;
use smolweb_store::StoreError;
use smolweb_store::site_rules::{SiteRuleEntry, SiteRules};

/// The part of a cache key that tells conversions under different rules apart (empty
/// without a rule).
pub(crate) fn rule_tag(rule: Option<&SiteRuleEntry>) -> String {
    match rule {
        Some(r) => format!("rule:{}\u{1f}{}", r.content, r.remove.join("\u{1e}")),
        None => String::new(),
    }
}

impl Client {
    fn site_rules_store(&self) -> SiteRules {
        SiteRules::new(self.paths.site_rules())
    }

    /// The rule for the site of `host`, if the person made one (see the module docs for a
    /// file that cannot be read).
    pub fn site_rule_for(&self, host: &str) -> Option<SiteRuleEntry> {
        match self.site_rules_store().for_host(host) {
            Ok(rule) => rule,
            Err(e) => {
                tracing::warn!("site rules not used: {e}");
                None
            }
        }
    }

    /// Every site rule, by site.
    pub fn site_rules(&self) -> Result<Vec<SiteRuleEntry>, StoreError> {
        self.site_rules_store().list()
    }

    /// Make or replace the rule for the site of `host` (the human face only).
    pub fn set_site_rule(&self, host: &str, rule: &SiteRule) -> Result<SiteRuleEntry, StoreError> {
        self.human_only()?;
        self.site_rules_store().set(host, rule, self.now())
    }

    /// Remove the rule for the site of `host` (the human face only); the rule removed.
    pub fn remove_site_rule(&self, host: &str) -> Result<SiteRuleEntry, StoreError> {
        self.human_only()?;
        self.site_rules_store().remove(host)
    }

    fn human_only(&self) -> Result<(), StoreError> {
        match self.face {
            Face::Human => Ok(()),
            Face::Agent => Err(StoreError::Invalid(
                "site rules are the person's: an agent reads pages by them but cannot change them"
                    .into(),
            )),
        }
    }
}
