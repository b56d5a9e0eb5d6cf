//! The browser's own pages as gemtext: help (from the live keymap), messages, errors, the
//! changed-certificate warning and the client-certificate requests (60/61/62). Pure. Every
//! page made from the stores (about:bookmarks, about:history, about:tour, about:trust,
//! about:agents and the rest) has one owner, the client's `about` router, which adds the
//! browser's notes when asked for them (`about_browser::Notes::Browser`).

use super::{PageAction, Reach, Special};
use crate::keymap::Keymap;
use smolweb_client::RequestInfo;
use smolweb_core::page::Page;
use smolweb_core::url::Url;
use smolweb_net::{CertChange, FetchError};
use smolweb_store::identity::Identity;
use std::fmt::Write;
use std::sync::Arc;

/// A gemtext page built here.
pub(crate) fn synth(name: &str, gemtext: &str) -> Option<Arc<Page>> {
    let url = Url::parse(&format!("about:{name}")).ok()?;
    Some(Arc::new(Page::builtin(url, gemtext)))
}

/// The help page, generated from the live keymap.
pub fn help_page(keymap: &Keymap) -> Option<Arc<Page>> {
    let mut g = String::from("# Keys\n\n");
    g.push_str("Every key can be changed in the config file: [tui.keys] maps an action name to a list of keys, e.g. quit = [\"q\", \"ctrl-q\"].\n\n");
    for (keys, what) in crate::keymap::NOT_ACTIONS {
        let _ = writeln!(g, "* {keys}: {what}");
    }
    g.push('\n');
    for (title, rows) in keymap.sections() {
        let _ = writeln!(g, "## {title}\n");
        for (keys, help, name) in rows {
            let _ = writeln!(g, "* {keys}: {help} ({name})");
        }
        g.push('\n');
    }
    g.push_str("## Pages\n\n=> about:home Start page\n=> about:bookmarks Bookmarks\n=> about:history History\n=> about:identities Client identities and agent requests\n=> about:feeds Feeds you follow\n=> about:offline Pages saved for offline reading\n=> about:tour The tour: links to read next\n=> about:messages Messages the status line said\n");
    synth("help", &g)
}

/// A page that says `text` under `title`, with a way back.
pub(crate) fn message_page(title: &str, text: &str) -> Option<Arc<Page>> {
    let back = PageAction::Back.link("Go back");
    synth("error", &format!("# {title}\n\n{text}\n\n{back}"))
}

fn back_and_retry() -> String {
    PageAction::Back.link("Go back") + &PageAction::Retry.link("Try again")
}

/// The page for a capsule's failure answer (4x, 5x), with its status, meta and retry hint.
pub(crate) fn failure_page(
    url: &str,
    status: u8,
    meta: &str,
    retry: Option<u64>,
) -> Option<Arc<Page>> {
    // A web URL that answers with a Gemini status was asked of the Gemini proxy.
    let web = url.starts_with("http://") || url.starts_with("https://");
    let what = match status {
        43 if web => "The Gemini proxy could not fetch the page",
        53 if web => "The Gemini proxy refused the request",
        43 => "The capsule could not fetch this address for you",
        40..=49 => "The capsule had a temporary problem",
        51 => "Not found",
        52 => "Gone",
        53 => "The capsule refuses to proxy this request",
        59 => "The capsule says the request was malformed",
        _ => "The capsule refused the request",
    };
    let url = smolweb_core::url::display(url);
    let mut g = format!("# {what}\n\n{url}\n\nStatus {status}: {meta}\n");
    if let Some(words) = smolweb_client::proxy_status_words(status, web) {
        let _ = write!(g, "\nThat is: {words}.\n");
    }
    if let Some(s) = retry {
        let _ = write!(
            g,
            "\nThe capsule asks to wait {s} seconds before trying again.\n"
        );
    }
    g.push('\n');
    g.push_str(&back_and_retry());
    synth("error", &g)
}

/// The page for a fetch that failed (network, TLS, protocol).
pub(crate) fn error_page(url: &str, error: &FetchError) -> Option<Arc<Page>> {
    let url = smolweb_core::url::display(url);
    let g = format!(
        "# Could not load the page\n\n{url}\n\n{error}\n\n{}",
        back_and_retry()
    );
    synth("error", &g)
}

/// The warning shown when a pinned certificate changed, with its choices.
pub(crate) fn cert_changed_page(change: &CertChange) -> Option<Arc<Page>> {
    let CertChange {
        host,
        port,
        pinned,
        presented,
        pinned_not_after,
        presented_not_after,
    } = change;
    let g = format!(
        "# Warning: the certificate of {host} changed\n\n\
The server at {host}:{port} presented a different certificate from the one you trusted before, and the old one has not expired. This can be an ordinary renewal, or someone between you and the capsule pretending to be it.\n\n\
## Trusted before\n\n```\n{pinned}\nvalid until {pinned_not_after}\n```\n\n\
## Presented now\n\n```\n{presented}\nvalid until {presented_not_after}\n```\n\n\
If you can, check the new fingerprint with the capsule's author before you trust it.\n\n{}{}{}",
        PageAction::Back.link("Go back (recommended)"),
        PageAction::TrustOnce.link("Trust the new certificate for this session only"),
        PageAction::TrustSave.link("Trust the new certificate and remember it"),
    );
    synth("certificate-changed", &g)
}

/// The page for 60/61/62, and its context.
pub(crate) fn client_cert_page(
    identities: &[Identity],
    url: &str,
    info: &RequestInfo,
    status: u8,
    message: &str,
) -> (Option<Arc<Page>>, Special) {
    let presented = info.tls.as_ref().and_then(|t| t.client_cert.clone());
    let shown = smolweb_core::url::display(url);
    let mut g = String::new();
    match status {
        60 => {
            let _ = write!(
                g,
                "# This page asks for a client identity\n\n{shown}\n\nThe capsule says: {message}\n\nAn identity is a certificate that lets the capsule recognise you on your next visits (like an account without a password). Pick where the new identity applies:\n\n{}{}{}",
                PageAction::NewIdentity(Reach::Capsule).link("New identity for this whole capsule"),
                PageAction::NewIdentity(Reach::Directory).link("New identity for this directory"),
                PageAction::NewIdentity(Reach::Page).link("New identity for this page only"),
            );
            if !identities.is_empty() {
                g.push_str("\n## Or use an existing identity\n\n");
                for id in identities {
                    let label = format!("{} ({})", id.name, id.scope.url());
                    g.push_str(&PageAction::UseIdentity(id.fingerprint.clone()).link(&label));
                }
            }
        }
        61 if presented.is_none() => {
            let _ = write!(
                g,
                "# The capsule says you are not allowed here\n\n{shown}\n\nNo identity was sent with this request, and the capsule answered that it is not authorised (status 61): {message}\n\nIf this was an upload, its token may be wrong or missing; otherwise the capsule may want an identity it knows.\n\n{}{}",
                PageAction::Back.link("Go back"),
                PageAction::NewIdentity(Reach::Capsule).link("New identity for this whole capsule"),
            );
        }
        61 => {
            let _ = write!(
                g,
                "# This identity is not allowed here\n\n{shown}\n\nThe capsule recognised the identity you presented but says it may not see this page: {message}\n\nYou can go back, or try another identity.\n\n{}{}",
                PageAction::Back.link("Go back"),
                PageAction::NewIdentity(Reach::Capsule).link("New identity for this whole capsule"),
            );
        }
        _ if presented.is_none() => {
            let _ = write!(
                g,
                "# The capsule asks for an identity\n\n{shown}\n\nNo identity was sent with this request, yet the capsule answered that the certificate is not valid (status 62): {message}\n\nIt probably wants one: you can make an identity for it.\n\n{}{}",
                PageAction::NewIdentity(Reach::Capsule).link("New identity for this whole capsule"),
                PageAction::Back.link("Go back"),
            );
        }
        _ => {
            let _ = write!(
                g,
                "# The capsule did not accept your identity\n\n{shown}\n\nThe capsule says the certificate you presented is not valid (it may have expired or be malformed): {message}\n\n{}{}",
                PageAction::ReplaceIdentity
                    .link("Replace it with a new identity for the same place"),
                PageAction::Back.link("Go back"),
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
