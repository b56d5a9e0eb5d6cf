//! The dialog room: the popup over the page (page info, a yes/no question) and what a "yes"
//! will do. A key answers the question or closes the popup; nothing else reaches the page
//! while a question is open.

use super::loads::Request;
use super::{Ctx, Effect, Special, StoreOp, Then};
use crate::keymap::{Action, Code, Key};
use std::sync::Arc;

/// A popup over the page.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Popup {
    /// Lines of the page info box.
    Info(Vec<(String, String)>),
    /// A yes/no question.
    Confirm(String),
    /// What to do with a download (open, save, cancel).
    Download(String),
    /// The page's headings, one under the cursor (the outline key).
    Outline(super::outline::Outline),
    /// The search engines to choose from (the engine key).
    Engines(super::engines::Engines),
    /// The regions of a web page to keep as its site's rule (the region key).
    Regions(super::regions::Regions),
}

/// What a "yes" does.
#[derive(Clone, Debug)]
pub enum Pending {
    External(String),
    Redirect(Box<Request>),
    DeleteIdentity(String),
    ForgetPin {
        host: String,
        port: u16,
    },
    /// Copy a URL that could not be opened.
    Copy(String),
    DeleteBookmark(String),
    /// Approve an agent's request (by id).
    Approve(String),
    /// A non-text answer: open (when a program for it exists), save or cancel.
    Download {
        page: std::sync::Arc<smolweb_core::page::Page>,
        name: String,
        /// A program opens it (a handler for its type, or xdg-open installed).
        openable: bool,
    },
    /// Save a page for offline reading: y with its links, n the page only, esc cancels.
    SaveOffline(String),
    /// Stop following a feed.
    Unsubscribe(String),
    /// Take a page off the reading list.
    Unsave(String),
    /// Forget one visit.
    DeleteVisit(String),
    /// Forget every visit.
    ClearHistory,
    /// Mark every entry read (of one feed, or of all).
    MarkAllRead(Option<String>),
    /// A question of the upload dialog (the upload room knows what it is about).
    Upload(super::upload::Ask),
    /// Take every link off the tour.
    TourClear,
    /// Queue a page that is not kept for the next sync (working offline).
    QueueSync {
        url: String,
        from: Option<String>,
    },
}

impl Pending {
    /// A removal: only "y" does it, any other key keeps what it would remove.
    fn removes(&self) -> bool {
        matches!(
            self,
            Pending::DeleteBookmark(_)
                | Pending::Unsubscribe(_)
                | Pending::Unsave(_)
                | Pending::DeleteVisit(_)
                | Pending::ClearHistory
                | Pending::MarkAllRead(_)
                | Pending::TourClear
        )
    }

    /// What the status line says when a removal is declined.
    fn kept(&self) -> Option<String> {
        match self {
            Pending::DeleteBookmark(url) => Some(format!("kept the bookmark of {url}")),
            Pending::Unsubscribe(url) => Some(format!("still following {url}")),
            Pending::Unsave(url) => Some(format!("{url} stays on the reading list")),
            Pending::DeleteVisit(url) => Some(format!("kept the visit of {url}")),
            Pending::ClearHistory => Some("history kept".into()),
            Pending::MarkAllRead(_) => Some("unread entries kept unread".into()),
            Pending::TourClear => Some("the tour is kept".into()),
            _ => None,
        }
    }
}

/// The answer to a question.
#[derive(Debug)]
pub enum Answer {
    Yes(Pending),
    /// "Open" for a download.
    Open(Pending),
    /// "View as text" for a download of a textual type.
    AsText(Pending),
    /// No (to what was asked).
    No(Pending),
    /// The answer to a question of the upload dialog.
    Upload(super::upload::Ask, super::upload::Choice),
}

#[derive(Debug, Default)]
/// The dialog room: the popup over the page and the question waiting for an answer.
pub struct Dialog {
    /// What is shown over the page.
    pub popup: Option<Popup>,
    pending: Option<Pending>,
}

impl Dialog {
    /// Ask a yes/no question.
    pub fn ask(&mut self, question: String, pending: Pending) {
        self.popup = Some(Popup::Confirm(question));
        self.pending = Some(pending);
    }

    /// Show a popup (closed by the next key).
    pub fn show(&mut self, popup: Popup) {
        self.popup = Some(popup);
    }

    /// Is a question waiting for y/n?
    pub fn asking(&self) -> bool {
        self.pending.is_some()
    }

    /// A key while a question is open: None when the key is no answer. A download is
    /// answered with o (open), s or Enter (save), c (cancel); a removal only by y, any other
    /// key keeping what it would remove.
    pub fn answer(&mut self, key: Key) -> Option<Answer> {
        if let Some(Pending::Upload(ask)) = self.pending {
            // None: no answer to this question, which stays open.
            let choice = ask.choice(key)?;
            self.popup = None;
            self.pending = None;
            return Some(Answer::Upload(ask, choice));
        }
        if self.pending.as_ref().is_some_and(Pending::removes) {
            self.popup = None;
            let pending = self.pending.take()?;
            return Some(if matches!(key.code, Code::Char('y' | 'Y')) {
                Answer::Yes(pending)
            } else {
                Answer::No(pending)
            });
        }
        let download = matches!(self.pending, Some(Pending::Download { .. }));
        let openable = matches!(self.pending, Some(Pending::Download { openable: true, .. }));
        let save_offline = matches!(self.pending, Some(Pending::SaveOffline(_)));
        let (yes, open, no) = if save_offline {
            (
                matches!(key.code, Code::Char('y' | 'Y')),
                matches!(key.code, Code::Char('n' | 'N') | Code::Enter),
                matches!(key.code, Code::Char('c' | 'C') | Code::Esc),
            )
        } else if download {
            (
                matches!(key.code, Code::Char('s' | 'S') | Code::Enter),
                openable && matches!(key.code, Code::Char('o' | 'O')),
                matches!(key.code, Code::Char('c' | 'C' | 'n' | 'N') | Code::Esc),
            )
        } else {
            (
                matches!(key.code, Code::Char('y' | 'Y') | Code::Enter),
                false,
                matches!(key.code, Code::Char('n' | 'N') | Code::Esc),
            )
        };
        if download && matches!(key.code, Code::Char('t' | 'T')) {
            self.popup = None;
            return self.pending.take().map(Answer::AsText);
        }
        if !yes && !open && !no {
            return None;
        }
        self.popup = None;
        let pending = self.pending.take()?;
        Some(match (yes, open) {
            (true, _) => Answer::Yes(pending),
            (_, true) => Answer::Open(pending),
            _ => Answer::No(pending),
        })
    }

    /// Close the popup; true when one was open.
    pub fn close(&mut self) -> bool {
        self.popup.take().is_some()
    }
}

/// Carry out the answer to the question (None: the key was no answer).
pub(super) fn answered(answer: Option<Answer>, ctx: &mut Ctx) -> Vec<Effect> {
    match answer {
        None => Vec::new(),
        Some(Answer::No(pending)) => {
            ctx.info(pending.kept().unwrap_or_else(|| "cancelled".into()));
            Vec::new()
        }
        Some(Answer::Yes(Pending::External(url))) => {
            ctx.info(format!("opening {url}"));
            vec![Effect::OpenExternal { url }]
        }
        Some(Answer::Yes(Pending::Redirect(req))) => {
            ctx.then(Then::FollowRedirect(*req));
            Vec::new()
        }
        Some(Answer::Yes(Pending::DeleteIdentity(fingerprint))) => {
            vec![Effect::Store(StoreOp::DeleteIdentity { fingerprint })]
        }
        Some(Answer::Yes(Pending::Copy(url))) => ctx.copy(url),
        Some(Answer::Yes(Pending::QueueSync { url, from })) => {
            vec![Effect::Store(StoreOp::QueueSync { url, from })]
        }
        Some(Answer::Yes(Pending::DeleteVisit(url))) => {
            ctx.lists.history.retain(|(u, _)| *u != url);
            vec![Effect::Store(StoreOp::RemoveVisit { url })]
        }
        Some(Answer::Yes(Pending::MarkAllRead(feed))) => {
            vec![Effect::Feeds(super::FeedOp::MarkAllRead { feed })]
        }
        Some(Answer::Yes(Pending::TourClear)) => vec![Effect::Store(StoreOp::TourClear)],
        Some(Answer::Yes(Pending::ClearHistory)) => {
            ctx.lists.history.clear();
            vec![Effect::Store(StoreOp::ClearHistory)]
        }
        Some(Answer::Yes(Pending::DeleteBookmark(url))) => {
            ctx.lists.remove_bookmark(&url);
            vec![Effect::Store(StoreOp::RemoveBookmark { url })]
        }
        Some(Answer::Yes(Pending::Download { page, name, .. })) => {
            ctx.info(format!("saving {name}…"));
            vec![Effect::Save { page, name }]
        }
        Some(Answer::Open(Pending::Download { page, name, .. })) => {
            ctx.info(format!("opening {name}…"));
            vec![Effect::Open { page, name }]
        }
        Some(Answer::AsText(Pending::Download { page, name, .. })) => {
            match smolweb_client::web::readable_page(&page) {
                Some(text) => {
                    let (tab, url) = (ctx.tab_id(), page.url.to_string());
                    let info = None;
                    ctx.show_doc(tab, &url, Some(Arc::new(text)), Special::None, info, false);
                    ctx.info(format!("{name} as text ({})", page.mime.essence()));
                }
                None => ctx.info(format!("{name} is not text: o opens it, s saves it")),
            }
            Vec::new()
        }
        Some(Answer::AsText(_)) => Vec::new(),
        // Upload questions are answered as `Answer::Upload`.
        Some(Answer::Yes(Pending::Upload(_))) => Vec::new(),
        Some(Answer::Upload(ask, choice)) => {
            ctx.then(Then::Upload(super::upload::Step::Chose(ask, choice)));
            Vec::new()
        }
        Some(Answer::Yes(Pending::SaveOffline(url))) => {
            ctx.then(Then::SaveOffline {
                url,
                with_links: true,
            });
            Vec::new()
        }
        Some(Answer::Open(Pending::SaveOffline(url))) => {
            ctx.then(Then::SaveOffline {
                url,
                with_links: false,
            });
            Vec::new()
        }
        Some(Answer::Yes(Pending::Unsubscribe(url))) => {
            ctx.info(format!("unfollowing {url}…"));
            ctx.then(Then::Unsubscribe(url));
            Vec::new()
        }
        Some(Answer::Yes(Pending::Unsave(url))) => {
            ctx.info(format!("taking {url} off the reading list…"));
            ctx.then(Then::Unsave(url));
            Vec::new()
        }
        Some(Answer::Open(_)) => Vec::new(),
        Some(Answer::Yes(Pending::Approve(id))) => {
            vec![Effect::Store(StoreOp::Approve { id })]
        }
        Some(Answer::Yes(Pending::ForgetPin { host, port })) => {
            vec![Effect::Store(StoreOp::Forget { host, port })]
        }
    }
}

/// Lines of the page info popup.
pub(super) fn page_info(ctx: &Ctx) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let Some(e) = ctx.current() else {
        return out;
    };
    out.push(("URL".into(), e.url.clone()));
    if let Some(dv) = ctx.doc_view() {
        let p = dv.doc.page();
        out.push(("Type".into(), p.mime.essence()));
        out.push(("Size".into(), format!("{} bytes", p.size())));
        if let Some(c) = p.charset {
            let shown = match &p.unknown_charset {
                Some(label) => format!("{} (the declared \"{label}\" is unknown)", c.name()),
                None => c.name(),
            };
            out.push(("Charset".into(), shown));
        }
        if let Some(l) = &p.lang {
            out.push(("Language".into(), l.clone()));
        }
        if let Some(t) = transfer(p) {
            out.push(("Transfer".into(), t.into()));
        }
        if let Some(meta) = &p.document_meta {
            // Scroll's author, publish and modification lines: the server's text.
            for (label, value) in [
                ("Author", &meta.author),
                ("Published", &meta.published),
                ("Modified", &meta.modified),
            ] {
                if let Some(v) = value {
                    let v = smolweb_core::text::sanitize_line(v).into_owned();
                    out.push((label.into(), v));
                }
            }
        }
    }
    if let Some(rows) = super::web::Reader.info_rows(ctx.current(), &ctx.hint(Action::ReaderFull)) {
        out.extend(rows);
        return out;
    }
    let tls = e.info.as_ref().and_then(|i| i.tls.as_ref());
    match tls {
        Some(t) => {
            out.push(("TLS".into(), format!("{} {}", t.version, t.cipher)));
            out.push(("Certificate".into(), t.cert_fingerprint.clone()));
            out.push(("Expires".into(), t.cert_not_after.clone()));
            let trust = match &t.tofu {
                smolweb_net::TofuState::FirstUse => "pinned on this visit (first use)",
                smolweb_net::TofuState::Trusted => "matches the pinned certificate",
                smolweb_net::TofuState::ReplacedExpired { .. } => "replaced an expired pin",
                smolweb_net::TofuState::TrustedOnce => "changed; trusted for this session only",
            };
            out.push(("Trust".into(), trust.into()));
            let ident = match &t.client_cert {
                Some(fp) => ctx
                    .lists
                    .identity(fp)
                    .map_or(fp.clone(), |i| format!("{} ({})", i.name, fp)),
                None => "none".into(),
            };
            out.push(("Identity".into(), ident));
            if let Some(w) = &t.client_cert_warning {
                out.push(("Note".into(), w.clone()));
            }
        }
        None => {
            use smolweb_core::url::Scheme;
            let why = match smolweb_core::url::Url::parse(&e.url).map(|u| u.scheme()) {
                Ok(Scheme::Gemini) => "not checked on this visit (a kept offline copy)",
                Ok(Scheme::Gopher) => "none (Gopher is not encrypted)",
                Ok(Scheme::About) => "none (a built-in page)",
                Ok(s) if s.is_small_net() && !s.is_tls() => "none (this protocol is not encrypted)",
                Ok(s) if s.is_tls() => "not checked on this visit (a kept copy)",
                _ => "none",
            };
            out.push(("TLS".into(), why.into()));
        }
    }
    out
}

/// How a fetched page's transfer ended, for page info (None for pages not fetched over
/// Gemini or Gopher: built-in pages, the web, whose framing the HTTP client checks).
fn transfer(p: &smolweb_core::page::Page) -> Option<&'static str> {
    use smolweb_core::page::{Content, Ending};
    use smolweb_core::url::Scheme;
    match (p.ending, p.url.scheme(), &p.content) {
        (Ending::Clean, Scheme::Gemini, _) => Some("complete (TLS close_notify seen)"),
        (Ending::Clean, Scheme::Gopher, Content::Menu(_)) => Some("complete (final \".\" line)"),
        (Ending::Clean, Scheme::Gopher, _) => {
            Some("ended with the connection (Gopher sends no end marker for this type)")
        }
        (Ending::Clean, _, _) => None,
        (ending, _, _) => Some(ending.describe()),
    }
}
