//! The special-screens room: what a built-in page is about ([`Special`]), the decisions its
//! links offer ([`PageAction`], parsed once from an `action:` URL), and carrying them out.
//!
//! Built-in pages (help, errors, the changed-certificate warning, client-certificate
//! requests) offer their choices as ordinary numbered links to `action:` URLs, so they are
//! picked by number, Tab + Enter or a click like any link. Only built-in pages act on them:
//! on a page from the network an `action:` link is a link of an unknown scheme.

pub mod pages;

use super::dialog::Pending;
use super::loads::Request;
use super::{Ctx, Effect, FetchOptions, Purpose, Then};
use smolweb_core::url::Url;
use smolweb_net::{CertChange, IdentityChoice};
use smolweb_store::identity::Scope;
use std::fmt;

/// The scheme of links on built-in pages that do something instead of going somewhere.
pub(super) const ACTION_SCHEME: &str = "action";

/// What a built-in page is about (the context its `action:` links act on).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Special {
    #[default]
    /// An ordinary page.
    None,
    /// An error page (retry, offline copy).
    Error,
    /// The changed-certificate warning.
    CertChanged {
        /// The URL that was asked for.
        url: String,
        /// The pinned and the presented certificate.
        change: CertChange,
    },
    /// A capsule asks for a client certificate (60, 61, 62).
    ClientCert {
        /// The URL that asked.
        url: String,
        /// The status (60, 61 or 62).
        status: u8,
        /// The identity that was presented (61/62).
        presented: Option<String>,
    },
    /// The pins page (about:trust).
    Trust,
}

/// Where a new identity applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reach {
    /// The whole capsule (host and port).
    Capsule,
    /// The page's directory.
    Directory,
    /// This page only.
    Page,
}

impl Reach {
    fn name(self) -> &'static str {
        match self {
            Reach::Capsule => "domain",
            Reach::Directory => "directory",
            Reach::Page => "page",
        }
    }

    /// The scope of an identity for `url` with this reach.
    pub fn scope(self, url: &str) -> Option<Scope> {
        let u = Url::parse(url).ok()?;
        let path = match self {
            Reach::Capsule => "/".to_string(),
            Reach::Directory => {
                let p = u.path();
                p[..p.rfind('/').map_or(1, |i| i + 1)].to_string()
            }
            Reach::Page => u.path().to_string(),
        };
        let path = if path.len() > 1 {
            path.trim_end_matches('/').to_string()
        } else {
            "/".to_string()
        };
        Some(Scope {
            host: u.host().to_string(),
            port: u.port(),
            path,
        })
    }
}

/// A choice offered by a built-in page.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PageAction {
    /// Go back.
    Back,
    /// Fetch the page again.
    Retry,
    /// Accept the changed certificate for this session.
    TrustOnce,
    /// Accept the changed certificate and pin it.
    TrustSave,
    /// Make a new identity with this reach.
    NewIdentity(Reach),
    /// A new identity in place of the one the capsule refused (62).
    ReplaceIdentity,
    /// Present this existing identity (by fingerprint).
    UseIdentity(String),
    /// Forget the pinned certificate of a host (asks first).
    ForgetPin {
        /// The host.
        host: String,
        /// Its port.
        port: u16,
    },
    /// Follow this feed (the choice page of the subscribe key).
    Subscribe(String),
    /// Follow this page for its changes (the choice page of the subscribe key on a page
    /// without a feed).
    Follow {
        /// The page.
        url: String,
        /// What counts as a change.
        watch: smolweb_core::follow::Watch,
    },
    /// Follow a subscription that moved at its new address (`about:feeds?health`).
    Adopt(String),
    /// Show the offline copy offered on a network error page.
    OfflineCopy,
    /// Turn the work-offline mode on or off (the start page's link).
    WorkOffline,
    /// Open an agent's suggestion (about:agents).
    SuggestionOpen(String),
    /// Dismiss an agent's suggestion (about:agents).
    SuggestionDismiss(String),
    /// Stop sharing a page with agents (about:agents).
    Unshare(String),
}

impl PageAction {
    /// The action of an `action:` URL; None for any other URL or an unknown action.
    pub fn parse(url: &str) -> Option<PageAction> {
        let (scheme, name) = url.split_once(':')?;
        if !scheme.eq_ignore_ascii_case(ACTION_SCHEME) {
            return None;
        }
        let action = match name {
            "back" => PageAction::Back,
            "retry" => PageAction::Retry,
            "trust-once" => PageAction::TrustOnce,
            "trust-save" => PageAction::TrustSave,
            "identity-domain" => PageAction::NewIdentity(Reach::Capsule),
            "identity-directory" => PageAction::NewIdentity(Reach::Directory),
            "identity-page" => PageAction::NewIdentity(Reach::Page),
            "identity-replace" => PageAction::ReplaceIdentity,
            "offline-copy" => PageAction::OfflineCopy,
            "work-offline" => PageAction::WorkOffline,
            other => {
                if let Some(fp) = other.strip_prefix("identity-use:") {
                    PageAction::UseIdentity(fp.to_string())
                } else if let Some(feed) = other.strip_prefix("subscribe:") {
                    PageAction::Subscribe(feed.to_string())
                } else if let Some(url) = other.strip_prefix("follow-links:") {
                    PageAction::Follow {
                        url: url.to_string(),
                        watch: smolweb_core::follow::Watch::Links,
                    }
                } else if let Some(url) = other.strip_prefix("follow-text:") {
                    PageAction::Follow {
                        url: url.to_string(),
                        watch: smolweb_core::follow::Watch::Text,
                    }
                } else if let Some(url) = other.strip_prefix("adopt:") {
                    PageAction::Adopt(url.to_string())
                } else if let Some(id) = other.strip_prefix("suggestion-open:") {
                    PageAction::SuggestionOpen(id.to_string())
                } else if let Some(id) = other.strip_prefix("suggestion-dismiss:") {
                    PageAction::SuggestionDismiss(id.to_string())
                } else if let Some(id) = other.strip_prefix("unshare:") {
                    PageAction::Unshare(id.to_string())
                } else {
                    let (host, port) = other.strip_prefix("forget-pin:")?.rsplit_once(':')?;
                    PageAction::ForgetPin {
                        host: host.to_string(),
                        port: port.parse().ok()?,
                    }
                }
            }
        };
        Some(action)
    }

    /// Is this an `action:` URL (known or not)?
    pub(crate) fn is_action(url: &str) -> bool {
        url.split_once(':')
            .is_some_and(|(s, _)| s.eq_ignore_ascii_case(ACTION_SCHEME))
    }

    /// A gemtext link line to this action.
    pub fn link(&self, label: &str) -> String {
        format!("=> {self} {label}\n")
    }
}

impl fmt::Display for PageAction {
    /// The `action:` URL.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{ACTION_SCHEME}:")?;
        match self {
            PageAction::Back => f.write_str("back"),
            PageAction::Retry => f.write_str("retry"),
            PageAction::TrustOnce => f.write_str("trust-once"),
            PageAction::TrustSave => f.write_str("trust-save"),
            PageAction::NewIdentity(r) => write!(f, "identity-{}", r.name()),
            PageAction::ReplaceIdentity => f.write_str("identity-replace"),
            PageAction::UseIdentity(fp) => write!(f, "identity-use:{fp}"),
            PageAction::ForgetPin { host, port } => write!(f, "forget-pin:{host}:{port}"),
            PageAction::Subscribe(url) => write!(f, "subscribe:{url}"),
            PageAction::Follow { url, watch } => write!(f, "follow-{}:{url}", watch.as_str()),
            PageAction::Adopt(url) => write!(f, "adopt:{url}"),
            PageAction::OfflineCopy => f.write_str("offline-copy"),
            PageAction::WorkOffline => f.write_str("work-offline"),
            PageAction::SuggestionOpen(id) => write!(f, "suggestion-open:{id}"),
            PageAction::SuggestionDismiss(id) => write!(f, "suggestion-dismiss:{id}"),
            PageAction::Unshare(id) => write!(f, "unshare:{id}"),
        }
    }
}

impl super::nav::Nav {
    /// An `action:` link followed on a built-in page.
    pub(super) fn page_action(&mut self, ctx: &mut Ctx, url: &str) -> Vec<Effect> {
        let special = ctx
            .doc_view()
            .map(|d| d.special.clone())
            .unwrap_or_default();
        let Some(action) = PageAction::parse(url) else {
            ctx.error(format!("nothing to do for {url} here"));
            return Vec::new();
        };
        let tab = ctx.tabs.active().map_or(0, |t| t.id);
        let again = |url: &str, opts: FetchOptions| Request::new(tab, url, opts).replacing();
        match (action, &special) {
            (PageAction::Back, _) => self.go_back(ctx, ),
            (PageAction::Retry, _) => self.reload(ctx, ),
            (PageAction::TrustOnce, Special::CertChanged { url, change }) => {
                self.loads
                    .trust_once(&change.host, change.port, &change.presented);
                let opts = FetchOptions {
                    trust_once: Some(change.presented.clone()),
                    ..FetchOptions::default()
                };
                self.fetch(ctx, again(url, opts))
            }
            (PageAction::TrustSave, Special::CertChanged { url, change }) => {
                let opts = FetchOptions {
                    trust_once: Some(change.presented.clone()),
                    ..FetchOptions::default()
                };
                let mut r = again(url, opts);
                r.pin_after = true;
                self.fetch(ctx, r)
            }
            (PageAction::NewIdentity(reach), Special::ClientCert { url, .. }) => {
                match reach.scope(url) {
                    Some(scope) => ctx.prompt(Purpose::IdentityName {
                        scope,
                        then: Some((tab, url.clone())),
                    }),
                    None => ctx.error(format!("cannot make a scope from {url}")),
                }
                Vec::new()
            }
            (PageAction::ReplaceIdentity, Special::ClientCert { url, presented, .. }) => {
                let scope = presented
                    .as_deref()
                    .and_then(|fp| ctx.lists.identity(fp))
                    .map(|i| i.scope.clone())
                    .or_else(|| Reach::Capsule.scope(url));
                if let Some(scope) = scope {
                    ctx.prompt(Purpose::IdentityName {
                        scope,
                        then: Some((tab, url.clone())),
                    });
                }
                Vec::new()
            }
            (PageAction::UseIdentity(fp), Special::ClientCert { url, .. }) => {
                self.loads.use_identity(url, &fp);
                let opts = FetchOptions {
                    identity: IdentityChoice::Fingerprint(fp),
                    ..FetchOptions::default()
                };
                self.fetch(ctx, again(url, opts))
            }
            (PageAction::ForgetPin { host, port }, Special::Trust) => ctx.ask(
                format!(
                    "Forget the pinned certificate of {host}:{port}? The next visit pins whatever it presents. (y/n)"
                ),
                Pending::ForgetPin { host, port },
            ),
            (PageAction::Subscribe(feed), _) if ctx.current_url() == Some(super::CHOOSE_FEED) => {
                ctx.then(Then::Subscribe(feed));
                ctx.then(Then::BackKeepingStatus);
                Vec::new()
            }
            (PageAction::Follow { url, watch }, _)
                if ctx.current_url() == Some(super::CHOOSE_FEED) =>
            {
                ctx.then(Then::Follow { url, watch });
                ctx.then(Then::BackKeepingStatus);
                Vec::new()
            }
            (PageAction::Adopt(url), _) if ctx.current_url() == Some(super::FEEDS_HEALTH) => {
                ctx.then(Then::Adopt(url));
                Vec::new()
            }
            (PageAction::WorkOffline, _) => {
                // The mode changes first, then the start page is made again to say so.
                let mut fx = super::feeds::toggle_work_offline(ctx);
                fx.extend(self.reload(ctx));
                fx
            }
            (PageAction::OfflineCopy, Special::Error) => {
                ctx.then(Then::ReadOfflineCopy);
                Vec::new()
            }
            (
                a @ (PageAction::SuggestionOpen(_)
                | PageAction::SuggestionDismiss(_)
                | PageAction::Unshare(_)),
                _,
            ) if ctx.current_url() == Some(super::agents::PAGE) => super::agents::act(a, ctx),
            (action, _) => {
                ctx.error(format!("nothing to do for {action} here"));
                Vec::new()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn actions_round_trip_through_their_urls() {
        let all = [
            PageAction::Back,
            PageAction::Retry,
            PageAction::TrustOnce,
            PageAction::TrustSave,
            PageAction::NewIdentity(Reach::Capsule),
            PageAction::NewIdentity(Reach::Directory),
            PageAction::NewIdentity(Reach::Page),
            PageAction::ReplaceIdentity,
            PageAction::UseIdentity("sha256:beef".into()),
            PageAction::ForgetPin {
                host: "::1".into(),
                port: 1965,
            },
            PageAction::Subscribe("gemini://cap.test/atom.xml".into()),
            PageAction::Follow {
                url: "gemini://cap.test/".into(),
                watch: smolweb_core::follow::Watch::Links,
            },
            PageAction::Follow {
                url: "https://example.org/wiki/Page".into(),
                watch: smolweb_core::follow::Watch::Text,
            },
            PageAction::Adopt("gemini://cap.test/log/".into()),
            PageAction::OfflineCopy,
            PageAction::SuggestionOpen("0a1b2c3d".into()),
            PageAction::SuggestionDismiss("0a1b2c3d".into()),
            PageAction::Unshare("0a1b2c3d".into()),
        ];
        for a in all {
            assert_eq!(PageAction::parse(&a.to_string()), Some(a.clone()), "{a}");
        }
        assert_eq!(PageAction::parse("action:fly"), None);
        assert_eq!(PageAction::parse("gemini://x/back"), None);
    }

    #[test]
    fn identity_scopes_by_reach() {
        let url = "gemini://h.test/a/b/page.gmi";
        let path = |r: Reach| r.scope(url).unwrap().path;
        assert_eq!(path(Reach::Capsule), "/");
        assert_eq!(path(Reach::Directory), "/a/b");
        assert_eq!(path(Reach::Page), "/a/b/page.gmi");
    }
}
