//! Built-in pages and the decisions they offer: help (from the live keymap), errors, the
//! changed-certificate warning (back / trust once / trust and save), client-certificate
//! requests (60/61/62), yes/no questions, and the identities screen's actions.
//!
//! The choices on built-in pages are ordinary numbered links to `action:` URLs, so they can
//! be picked by number, Tab + Enter or a click, like any link.

use super::{App, Effect, FetchOptions, Popup, Purpose, Request, StoreOp, View};
use crate::client::RequestInfo;
use crate::core::page::Page;
use crate::core::url::Url;
use crate::net::{FetchError, IdentityChoice};
use crate::store::identity::Scope;
use crate::tui::keymap::{Action, Code, Context, Key, Keymap};
use std::fmt::Write;
use std::sync::Arc;

/// Links on built-in pages that do something instead of going somewhere.
pub const ACTION_PREFIX: &str = "action:";
/// Rows above the list on the identities screen.
pub const IDENTITY_LIST_TOP: usize = 2;

/// What a built-in page is about (the context its `action:` links act on).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Special {
    #[default]
    None,
    Error,
    CertChanged {
        url: String,
        host: String,
        port: u16,
        pinned: String,
        presented: String,
        pinned_not_after: String,
        presented_not_after: String,
    },
    ClientCert {
        url: String,
        status: u8,
        /// The identity that was presented (61/62).
        presented: Option<String>,
    },
}

/// A question waiting for y/n.
#[derive(Clone, Debug)]
pub(super) enum Pending {
    External(String),
    Redirect(Box<Request>),
    DeleteIdentity(String),
}

/// A gemtext page built here.
pub fn synth(name: &str, gemtext: &str) -> Option<Arc<Page>> {
    let url = Url::parse(&format!("about:{name}")).ok()?;
    Some(Arc::new(Page::builtin(url, gemtext)))
}

/// The help page, generated from the live keymap.
pub fn help_page(keymap: &Keymap) -> Option<Arc<Page>> {
    let mut g = String::from("# Keys\n\n");
    g.push_str("Every key can be changed in the config file: [tui.keys] maps an action name to a list of keys, e.g. quit = [\"q\", \"ctrl-q\"].\n\n");
    g.push_str("* 1-9: type a link number, then Enter (it is followed at once when no longer number exists)\n");
    g.push_str("* mouse: click a link to follow it; the wheel scrolls\n\n");
    let mut section = |title: &str, ctx: Context| {
        let _ = writeln!(g, "## {title}\n");
        for &a in Action::ALL.iter().filter(|a| a.context() == ctx) {
            let help = a.help().trim_start_matches("identities: ");
            let _ = writeln!(g, "* {}: {} ({})", keymap.describe(a), help, a.name());
        }
        g.push('\n');
    };
    section("Everywhere", Context::Global);
    section("On the identities screen", Context::Identities);
    g.push_str("## Pages\n\n=> about:home Start page\n=> about:bookmarks Bookmarks\n=> about:history History\n=> about:identities Client identities and agent requests\n");
    synth("help", &g)
}

pub fn message_page(title: &str, text: &str) -> Option<Arc<Page>> {
    synth(
        "error",
        &format!("# {title}\n\n{text}\n\n=> action:back Go back\n"),
    )
}

pub fn failure_page(url: &str, status: u8, meta: &str, retry: Option<u64>) -> Option<Arc<Page>> {
    let what = match status {
        40..=49 => "The capsule had a temporary problem",
        51 => "Not found",
        52 => "Gone",
        53 => "The capsule refuses to proxy this request",
        59 => "The capsule says the request was malformed",
        _ => "The capsule refused the request",
    };
    let mut g = format!("# {what}\n\n{url}\n\nStatus {status}: {meta}\n");
    if let Some(s) = retry {
        let _ = write!(
            g,
            "\nThe capsule asks to wait {s} seconds before trying again.\n"
        );
    }
    g.push_str("\n=> action:back Go back\n=> action:retry Try again\n");
    synth("error", &g)
}

pub fn error_page(url: &str, error: &FetchError) -> Option<Arc<Page>> {
    let g = format!(
        "# Could not load the page\n\n{url}\n\n{error}\n\n=> action:back Go back\n=> action:retry Try again\n"
    );
    synth("error", &g)
}

pub fn cert_changed_page(s: &Special) -> Option<Arc<Page>> {
    let Special::CertChanged {
        host,
        port,
        pinned,
        presented,
        pinned_not_after,
        presented_not_after,
        ..
    } = s
    else {
        return None;
    };
    let g = format!(
        "# Warning: the certificate of {host} changed\n\n\
The server at {host}:{port} presented a different certificate from the one you trusted before, and the old one has not expired. This can be an ordinary renewal, or someone between you and the capsule pretending to be it.\n\n\
## Trusted before\n\n```\n{pinned}\nvalid until {pinned_not_after}\n```\n\n\
## Presented now\n\n```\n{presented}\nvalid until {presented_not_after}\n```\n\n\
If you can, check the new fingerprint with the capsule's author before you trust it.\n\n\
=> action:back Go back (recommended)\n\
=> action:trust-once Trust the new certificate for this session only\n\
=> action:trust-save Trust the new certificate and remember it\n"
    );
    synth("certificate-changed", &g)
}

/// The page for 60/61/62, and its context.
pub fn client_cert_page(
    app: &App,
    url: &str,
    info: &RequestInfo,
    status: u8,
    message: &str,
) -> (Option<Arc<Page>>, Special) {
    let presented = info.tls.as_ref().and_then(|t| t.client_cert.clone());
    let mut g = String::new();
    match status {
        60 => {
            let _ = write!(
                g,
                "# This page asks for a client identity\n\n{url}\n\nThe capsule says: {message}\n\nAn identity is a certificate that lets the capsule recognise you on your next visits (like an account without a password). Pick where the new identity applies:\n\n=> action:identity-domain New identity for this whole capsule\n=> action:identity-directory New identity for this directory\n=> action:identity-page New identity for this page only\n"
            );
            let usable: Vec<_> = app.identities.iter().collect();
            if !usable.is_empty() {
                g.push_str("\n## Or use an existing identity\n\n");
                for id in usable {
                    let _ = writeln!(
                        g,
                        "=> action:identity-use:{} {} ({})",
                        id.fingerprint,
                        id.name,
                        id.scope.url()
                    );
                }
            }
        }
        61 => {
            let _ = write!(
                g,
                "# This identity is not allowed here\n\n{url}\n\nThe capsule recognised the identity you presented but says it may not see this page: {message}\n\nYou can go back, or try another identity.\n\n=> action:back Go back\n=> action:identity-domain New identity for this whole capsule\n"
            );
        }
        _ => {
            let _ = write!(
                g,
                "# The capsule did not accept your identity\n\n{url}\n\nThe capsule says the certificate you presented is not valid (it may have expired or be malformed): {message}\n\n=> action:identity-replace Replace it with a new identity for the same place\n=> action:back Go back\n"
            );
        }
    }
    let special = Special::ClientCert {
        url: url.to_string(),
        status,
        presented,
    };
    (synth("identity", &g), special)
}

impl App {
    pub(super) fn ask(&mut self, question: String, pending: Pending) -> Vec<Effect> {
        self.popup = Some(Popup::Confirm(question));
        self.confirm = Some(pending);
        Vec::new()
    }

    pub(super) fn confirm_key(&mut self, key: Key) -> Vec<Effect> {
        let yes = matches!(key.code, Code::Char('y' | 'Y') | Code::Enter);
        let no = matches!(key.code, Code::Char('n' | 'N') | Code::Esc);
        if !yes && !no {
            return Vec::new();
        }
        self.popup = None;
        let Some(pending) = self.confirm.take() else {
            return Vec::new();
        };
        if no {
            self.set_status("cancelled");
            return Vec::new();
        }
        match pending {
            Pending::External(url) => {
                self.set_status(format!("opening {url}"));
                vec![Effect::OpenExternal { url }]
            }
            Pending::Redirect(req) => self.follow_redirect(*req),
            Pending::DeleteIdentity(fingerprint) => {
                vec![Effect::Store(StoreOp::DeleteIdentity { fingerprint })]
            }
        }
    }

    /// An `action:` link on a built-in page.
    pub(super) fn page_action(&mut self, action: &str) -> Vec<Effect> {
        let special = self
            .doc_view()
            .map(|d| d.special.clone())
            .unwrap_or_default();
        let tab = self.tab().map_or(0, |t| t.id);
        let req = |url: &str, opts: FetchOptions| Request {
            tab,
            url: url.to_string(),
            replace: true,
            chain: Vec::new(),
            sensitive: false,
            pin_after: false,
            opts,
        };
        match (action, &special) {
            ("back", _) => self.go_back(),
            ("retry", _) => self.reload(),
            (
                "trust-once",
                Special::CertChanged {
                    url,
                    host,
                    port,
                    presented,
                    ..
                },
            ) => {
                self.trusted_once
                    .insert((host.clone(), *port), presented.clone());
                let opts = FetchOptions {
                    trust_once: Some(presented.clone()),
                    ..FetchOptions::default()
                };
                self.fetch(req(url, opts))
            }
            ("trust-save", Special::CertChanged { url, presented, .. }) => {
                let opts = FetchOptions {
                    trust_once: Some(presented.clone()),
                    ..FetchOptions::default()
                };
                let mut r = req(url, opts);
                r.pin_after = true;
                self.fetch(r)
            }
            (
                "identity-domain" | "identity-directory" | "identity-page",
                Special::ClientCert { url, .. },
            ) => {
                match scope_for(url, action) {
                    Some(scope) => self.open_prompt(Purpose::IdentityName {
                        scope,
                        then: Some((tab, url.clone())),
                    }),
                    None => self.set_error(format!("cannot make a scope from {url}")),
                }
                Vec::new()
            }
            ("identity-replace", Special::ClientCert { url, presented, .. }) => {
                let old = presented
                    .as_ref()
                    .and_then(|fp| self.identities.iter().find(|i| &i.fingerprint == fp));
                let scope = old
                    .map(|i| i.scope.clone())
                    .or_else(|| scope_for(url, "identity-domain"));
                if let Some(scope) = scope {
                    self.open_prompt(Purpose::IdentityName {
                        scope,
                        then: Some((tab, url.clone())),
                    });
                }
                Vec::new()
            }
            (a, Special::ClientCert { url, .. }) if a.starts_with("identity-use:") => {
                let fp = a.trim_start_matches("identity-use:").to_string();
                if let Ok(u) = Url::parse(url) {
                    self.identity_for
                        .insert((u.host().to_string(), u.port()), fp.clone());
                }
                let opts = FetchOptions {
                    identity: IdentityChoice::Fingerprint(fp),
                    ..FetchOptions::default()
                };
                self.fetch(req(url, opts))
            }
            _ => {
                self.set_error(format!("nothing to do for {action} here"));
                Vec::new()
            }
        }
    }

    pub(super) fn on_identity_created(
        &mut self,
        result: Result<crate::store::identity::Identity, String>,
        then: Option<(u64, String)>,
    ) -> Vec<Effect> {
        let id = match result {
            Ok(id) => id,
            Err(e) => {
                self.set_error(format!("could not create the identity: {e}"));
                return Vec::new();
            }
        };
        self.set_status(format!(
            "created identity '{}' for {}",
            id.name,
            id.scope.url()
        ));
        let fingerprint = id.fingerprint.clone();
        self.identities.push(id);
        let mut fx = vec![Effect::Store(StoreOp::LoadLists)];
        if let Some((tab, url)) = then {
            fx.extend(self.fetch(Request {
                tab,
                url,
                replace: true,
                chain: Vec::new(),
                sensitive: false,
                pin_after: false,
                opts: FetchOptions {
                    identity: IdentityChoice::Fingerprint(fingerprint),
                    ..FetchOptions::default()
                },
            }));
        }
        fx
    }

    /// The approval or identity under the cursor on the identities screen.
    pub fn identity_selection(&self) -> Option<usize> {
        match self.current().map(|e| &e.view) {
            Some(View::Identities { selected }) => Some(*selected),
            _ => None,
        }
    }

    pub(super) fn identity_action(&mut self, action: Action) -> Vec<Effect> {
        if action == Action::IdentityCreate {
            self.open_prompt(Purpose::IdentityScope);
            return Vec::new();
        }
        let Some(sel) = self.identity_selection() else {
            return Vec::new();
        };
        let approval = self.approvals.get(sel).cloned();
        let identity = sel
            .checked_sub(self.approvals.len())
            .and_then(|i| self.identities.get(i))
            .cloned();
        match (action, approval, identity) {
            (Action::ApprovalApprove, Some(a), _) => {
                vec![Effect::Store(StoreOp::Approve { id: a.id })]
            }
            (Action::ApprovalDeny | Action::IdentityDelete, Some(a), _) => {
                vec![Effect::Store(StoreOp::Deny { id: a.id })]
            }
            (Action::IdentityToggleAgent, _, Some(i)) => {
                vec![Effect::Store(StoreOp::SetAgentUse {
                    fingerprint: i.fingerprint,
                    allowed: !i.agent_use,
                })]
            }
            (Action::IdentityExport, _, Some(i)) => vec![Effect::Store(StoreOp::ExportIdentity {
                fingerprint: i.fingerprint,
            })],
            (Action::IdentityDelete, _, Some(i)) => self.ask(
                format!(
                    "Delete identity '{}' ({}) and its private key? (y/n)",
                    i.name,
                    i.scope.url()
                ),
                Pending::DeleteIdentity(i.fingerprint),
            ),
            _ => {
                self.set_status("nothing selected for that");
                Vec::new()
            }
        }
    }

    /// Lines of the page info popup.
    pub fn page_info(&self) -> Vec<(String, String)> {
        let mut out = Vec::new();
        let Some(e) = self.current() else {
            return out;
        };
        out.push(("URL".into(), e.url.clone()));
        if let Some(dv) = self.doc_view() {
            let p = dv.doc.page();
            out.push(("Type".into(), p.mime.essence()));
            out.push(("Size".into(), format!("{} bytes", p.size())));
            if let Some(c) = p.charset {
                out.push(("Charset".into(), c.as_str().into()));
            }
            if let Some(l) = &p.lang {
                out.push(("Language".into(), l.clone()));
            }
        }
        let tls = e.info.as_ref().and_then(|i| i.tls.as_ref());
        match tls {
            Some(t) => {
                out.push(("TLS".into(), format!("{} {}", t.version, t.cipher)));
                out.push(("Certificate".into(), t.cert_fingerprint.clone()));
                out.push(("Expires".into(), t.cert_not_after.clone()));
                let trust = match &t.tofu {
                    crate::net::TofuState::FirstUse => "pinned on this visit (first use)",
                    crate::net::TofuState::Trusted => "matches the pinned certificate",
                    crate::net::TofuState::ReplacedExpired { .. } => "replaced an expired pin",
                    crate::net::TofuState::TrustedOnce => "changed; trusted for this session only",
                };
                out.push(("Trust".into(), trust.into()));
                let ident = match &t.client_cert {
                    Some(fp) => self
                        .identities
                        .iter()
                        .find(|i| &i.fingerprint == fp)
                        .map_or(fp.clone(), |i| format!("{} ({})", i.name, fp)),
                    None => "none".into(),
                };
                out.push(("Identity".into(), ident));
                if let Some(w) = &t.client_cert_warning {
                    out.push(("Note".into(), w.clone()));
                }
            }
            None => out.push(("TLS".into(), "none (not a Gemini page)".into())),
        }
        out
    }
}

fn scope_for(url: &str, which: &str) -> Option<Scope> {
    let u = Url::parse(url).ok()?;
    let path = match which {
        "identity-domain" => "/".to_string(),
        "identity-directory" => {
            let p = u.path();
            p[..p.rfind('/').map_or(1, |i| i + 1)].to_string()
        }
        _ => u.path().to_string(),
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
