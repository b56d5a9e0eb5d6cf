//! The upload room: a person publishing to a capsule with Titan. From a gemini:// page (or a
//! titan:// URL typed or followed) a small dialog offers to edit the page's source in
//! `$VISUAL`/`$EDITOR`, to send a file, or to delete the resource (size 0, asked twice); then
//! the target, size and MIME type are shown (the MIME type can be changed), a masked prompt
//! asks for the capsule's token (empty for none), and the upload is sent on a worker like a
//! fetch: its answer is shown in the tab as a page.
//!
//! Invariants: nothing is sent unless the person went through every step (any `esc`, a "no",
//! an unchanged or empty text, a body over [`UPLOAD_MAX`] sends nothing and says so); the
//! token goes from its masked prompt straight into the request, never into a message, the
//! history, the flow's state or a file.

use super::dialog::Pending;
use super::{Ctx, Effect, Purpose, Special, Then, View};
use crate::keymap::{Code, Key};
use smolweb_client::smallnet::{TITAN_DEFAULT_MIME, Upload};
use smolweb_core::url::{Scheme, Url};

/// The largest body the browser uploads (8 MiB): a file or a text above it is refused with a
/// message, before anything is read whole or sent.
pub const UPLOAD_MAX: u64 = 8 * 1024 * 1024;

/// A question of the upload dialog.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ask {
    /// Edit, file, delete, or cancel.
    Choose,
    /// The first of the two delete confirmations.
    DeleteFirst,
    /// The second delete confirmation.
    DeleteSecond,
    /// Send this body (y), change its MIME type (m), or cancel.
    Send,
}

/// An answer to an [`Ask`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    /// Edit the page's source (or a new file) in the editor.
    Edit,
    /// Pick a file to send.
    File,
    /// Delete the resource (size 0).
    Delete,
    /// Change the MIME type before sending.
    ChangeMime,
    /// Yes (delete, send).
    Yes,
    /// No, cancel.
    No,
}

impl Ask {
    /// What `key` answers (None: no answer, the question stays). A delete is confirmed only
    /// by `y`: any other key keeps the resource.
    pub(crate) fn choice(self, key: Key) -> Option<Choice> {
        let ch = match key.code {
            Code::Char(c) if !key.ctrl && !key.alt => Some(c.to_ascii_lowercase()),
            _ => None,
        };
        let cancel = key.code == Code::Esc || (key.ctrl && key.code == Code::Char('c'));
        match self {
            Ask::DeleteFirst | Ask::DeleteSecond => Some(match ch {
                Some('y') => Choice::Yes,
                _ => Choice::No,
            }),
            _ if cancel => Some(Choice::No),
            Ask::Choose => match ch {
                Some('e') => Some(Choice::Edit),
                Some('f') => Some(Choice::File),
                Some('d') => Some(Choice::Delete),
                Some('n' | 'c') => Some(Choice::No),
                _ => None,
            },
            Ask::Send => match (key.code, ch) {
                (Code::Enter, _) | (_, Some('y')) => Some(Choice::Yes),
                (_, Some('m')) => Some(Choice::ChangeMime),
                (_, Some('n')) => Some(Choice::No),
                _ => None,
            },
        }
    }
}

/// A step of the flow, routed to the room by the app.
#[derive(Clone, Debug)]
pub(crate) enum Step {
    /// Upload to this titan:// URL (typed in the address bar or followed as a link).
    Begin(String),
    /// The dialog's question was answered.
    Chose(Ask, Choice),
    /// The path of the file to send was typed.
    Path(String),
    /// A new MIME type was typed.
    Mime(String),
    /// The token was typed (empty: none); it is sent, never kept.
    Token(String),
    /// A prompt of the flow was closed with esc.
    Cancelled,
}

/// Where the body comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Source {
    /// Written in the editor.
    Edited,
    /// A file (its path as typed).
    File(String),
    /// Nothing: a delete.
    Delete,
}

/// What will be sent, once confirmed.
#[derive(Clone, PartialEq, Eq)]
struct Draft {
    body: Vec<u8>,
    mime: String,
    source: Source,
}

impl std::fmt::Debug for Draft {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Draft")
            .field("size", &self.body.len())
            .field("mime", &self.mime)
            .field("source", &self.source)
            .finish()
    }
}

/// An upload being prepared.
#[derive(Clone, Debug)]
struct Flow {
    /// The tab whose page the answer replaces.
    tab: u64,
    /// The titan:// URL, without query.
    target: String,
    /// The page's text as received (None: a new file, the editor starts empty).
    source: Option<String>,
    /// The body, once written, read or chosen (a delete).
    draft: Option<Draft>,
    /// The question or prompt the flow waits on.
    waiting: Waiting,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Waiting {
    Ask(Ask),
    Editor,
    Path,
    File,
    Mime,
    Token,
}

/// The upload room: the flow being prepared, if any.
#[derive(Debug, Default)]
pub(crate) struct Uploads {
    flow: Option<Flow>,
}

/// The titan:// URL of a gemini:// (or titan://) URL: same host, port and path, no query.
pub fn titan_url(url: &str) -> Option<String> {
    let u = Url::parse(url).ok()?;
    match u.scheme() {
        Scheme::Gemini | Scheme::Titan => Some(u.with_scheme(Scheme::Titan).without_query()),
        _ => None,
    }
}

/// The MIME type a file is sent as unless the person changes it: text/gemini for `.gmi`, the
/// type its extension names, else text/plain for text (UTF-8 without NUL), else
/// application/octet-stream.
pub fn guess_mime(path: &str, bytes: &[u8]) -> String {
    let name = path.rsplit('/').next().unwrap_or(path);
    let by_name = if name.contains('.') {
        smolweb_client::smallnet::nex_mime(name)
    } else {
        "application/octet-stream"
    };
    let text = std::str::from_utf8(bytes).is_ok_and(|t| !t.contains('\0'));
    match by_name {
        "application/octet-stream" | "text/plain" if text => "text/plain".into(),
        "text/plain" => "application/octet-stream".into(),
        other => other.into(),
    }
}

/// Is this a MIME type that can go on a Titan request line (`type/subtype`, with optional
/// parameters; no spaces, no control characters)?
fn usable_mime(mime: &str) -> bool {
    let essence = mime.split(';').next().unwrap_or("");
    let mut parts = essence.split('/');
    let (Some(t), Some(s), None) = (parts.next(), parts.next(), parts.next()) else {
        return false;
    };
    !t.is_empty()
        && !s.is_empty()
        && mime
            .chars()
            .all(|c| c.is_ascii_graphic() && c != '?' && c != '#')
}

impl Uploads {
    /// The upload key on a page: to the page's titan:// URL, editing from its source.
    pub(crate) fn begin_here(&mut self, ctx: &mut Ctx) -> Vec<Effect> {
        let Some(url) = ctx.current_url().map(str::to_string) else {
            ctx.info("no page to upload to");
            return Vec::new();
        };
        match titan_url(&url) {
            Some(target) => self.start(ctx, target),
            None => {
                ctx.info(format!(
                    "uploads go to a gemini:// page's titan:// address, not to {}",
                    super::nav::strip_query(&url)
                ));
                Vec::new()
            }
        }
    }

    /// Open the dialog for `target` (a titan:// URL without query).
    fn start(&mut self, ctx: &mut Ctx, target: String) -> Vec<Effect> {
        let source = page_source(ctx, &target);
        let what = if source.is_some() {
            "this page's source"
        } else {
            "a new file"
        };
        self.flow = Some(Flow {
            tab: ctx.tab_id(),
            target: target.clone(),
            source,
            draft: None,
            waiting: Waiting::Ask(Ask::Choose),
        });
        ctx.ask(
            format!(
                "Upload to {target} (Titan): e edits {what} in $VISUAL/$EDITOR, f sends a file, \
                 d deletes it (asks twice), esc cancels"
            ),
            Pending::Upload(Ask::Choose),
        )
    }

    /// A step of the flow.
    pub(crate) fn step(&mut self, step: Step, ctx: &mut Ctx) -> Vec<Effect> {
        if let Step::Begin(url) = step {
            return match titan_url(&url) {
                Some(target) => self.start(ctx, target),
                None => Vec::new(),
            };
        }
        let Some(mut flow) = self.flow.take() else {
            return Vec::new();
        };
        match step {
            Step::Begin(_) => Vec::new(),
            Step::Cancelled => {
                ctx.info(format!("upload to {} cancelled: nothing sent", flow.target));
                Vec::new()
            }
            // An answer to a question the flow no longer asks: the flow ends, nothing sent.
            Step::Chose(ask, _) if flow.waiting != Waiting::Ask(ask) => Vec::new(),
            Step::Chose(ask, choice) => self.chose(flow, ask, choice, ctx),
            Step::Path(path) if flow.waiting == Waiting::Path => {
                let path = path.trim().to_string();
                if path.is_empty() {
                    ctx.info("no file named: nothing sent");
                    return Vec::new();
                }
                ctx.info(format!("reading {path}…"));
                flow.waiting = Waiting::File;
                self.flow = Some(flow);
                vec![Effect::ReadUploadFile {
                    path,
                    max: UPLOAD_MAX,
                }]
            }
            Step::Mime(mime) if flow.waiting == Waiting::Mime => {
                let mime = mime.trim().to_string();
                let mut note = None;
                if let Some(d) = flow.draft.as_mut() {
                    if usable_mime(&mime) {
                        d.mime = mime;
                    } else {
                        let shown = smolweb_core::text::one_line(&mime, Some(60));
                        note = Some(format!("'{shown}' is not a MIME type (type/subtype). "));
                    }
                }
                self.flow = Some(flow);
                self.confirm(ctx, note)
            }
            Step::Token(token) if flow.waiting == Waiting::Token => {
                let Some(draft) = flow.draft.take() else {
                    return Vec::new();
                };
                let token = Some(token).filter(|t| !t.is_empty());
                let size = draft.body.len();
                let upload = Upload {
                    url: flow.target.clone(),
                    body: draft.body,
                    mime: Some(draft.mime.clone()),
                    token,
                };
                let doing = if draft.source == Source::Delete {
                    format!("deleting {}…", flow.target)
                } else {
                    format!(
                        "uploading {size} bytes of {} to {}…",
                        draft.mime, flow.target
                    )
                };
                ctx.info(doing);
                ctx.then(Then::SendUpload {
                    tab: flow.tab,
                    upload: Box::new(upload),
                });
                Vec::new()
            }
            // A step the flow is not waiting for (a stale prompt): nothing happens.
            Step::Path(_) | Step::Mime(_) | Step::Token(_) => {
                self.flow = Some(flow);
                Vec::new()
            }
        }
    }

    fn chose(&mut self, mut flow: Flow, ask: Ask, choice: Choice, ctx: &mut Ctx) -> Vec<Effect> {
        let target = flow.target.clone();
        match (ask, choice) {
            (Ask::Choose, Choice::Edit) => {
                flow.waiting = Waiting::Editor;
                let initial = flow.source.clone().unwrap_or_default();
                self.flow = Some(flow);
                vec![Effect::EditText {
                    purpose: Purpose::UploadText,
                    initial,
                }]
            }
            (Ask::Choose, Choice::File) => {
                flow.waiting = Waiting::Path;
                self.flow = Some(flow);
                ctx.prompt(Purpose::UploadPath);
                Vec::new()
            }
            (Ask::Choose, Choice::Delete) => {
                flow.waiting = Waiting::Ask(Ask::DeleteFirst);
                self.flow = Some(flow);
                ctx.ask(
                    format!(
                        "Delete {target}? The capsule is asked to remove it (an upload of size 0). \
                         y deletes, any other key keeps it"
                    ),
                    Pending::Upload(Ask::DeleteFirst),
                )
            }
            (Ask::DeleteFirst, Choice::Yes) => {
                flow.waiting = Waiting::Ask(Ask::DeleteSecond);
                self.flow = Some(flow);
                ctx.ask(
                    format!(
                        "Really delete {target}? This cannot be undone. \
                         y deletes, any other key keeps it"
                    ),
                    Pending::Upload(Ask::DeleteSecond),
                )
            }
            (Ask::DeleteSecond, Choice::Yes) => {
                flow.draft = Some(Draft {
                    body: Vec::new(),
                    mime: TITAN_DEFAULT_MIME.into(),
                    source: Source::Delete,
                });
                flow.waiting = Waiting::Token;
                self.flow = Some(flow);
                ctx.prompt(Purpose::UploadToken);
                Vec::new()
            }
            (Ask::DeleteFirst | Ask::DeleteSecond, _) => {
                ctx.info(format!("kept {target}: nothing sent"));
                Vec::new()
            }
            (Ask::Send, Choice::Yes) => {
                flow.waiting = Waiting::Token;
                self.flow = Some(flow);
                ctx.prompt(Purpose::UploadToken);
                Vec::new()
            }
            (Ask::Send, Choice::ChangeMime) => {
                let current = flow.draft.as_ref().map(|d| d.mime.clone());
                flow.waiting = Waiting::Mime;
                self.flow = Some(flow);
                ctx.prompt(Purpose::UploadMime {
                    current: current.unwrap_or_else(|| TITAN_DEFAULT_MIME.into()),
                });
                Vec::new()
            }
            _ => {
                ctx.info(format!("upload to {target} cancelled: nothing sent"));
                Vec::new()
            }
        }
    }

    /// Show what will be sent and ask to go on (the size is checked first); `note` goes
    /// before the question (a refused MIME type).
    fn confirm(&mut self, ctx: &mut Ctx, note: Option<String>) -> Vec<Effect> {
        let Some(flow) = self.flow.as_mut() else {
            return Vec::new();
        };
        let Some(d) = flow.draft.as_ref() else {
            return Vec::new();
        };
        let size = d.body.len() as u64;
        if size > UPLOAD_MAX {
            ctx.error(format!(
                "{} is {size} bytes; an upload from the browser is at most {UPLOAD_MAX} bytes \
                 ({}): nothing sent",
                what_of(&d.source),
                smolweb_core::text::human_bytes(UPLOAD_MAX)
            ));
            self.flow = None;
            return Vec::new();
        }
        // The size said once: exact bytes, and the short form beside them when it differs.
        let amount = if size < 1024 {
            format!("{size} bytes")
        } else {
            format!("{} ({size} bytes)", smolweb_core::text::human_bytes(size))
        };
        let question = format!(
            "{}Upload {amount} of {} from {} to {}? y goes on (a token is asked next, \
             empty for none), m changes the MIME type, n cancels",
            note.unwrap_or_default(),
            d.mime,
            what_of(&d.source),
            flow.target
        );
        flow.waiting = Waiting::Ask(Ask::Send);
        ctx.ask(question, Pending::Upload(Ask::Send))
    }

    /// The editor returned (for [`Purpose::UploadText`]).
    pub(crate) fn edited(
        &mut self,
        result: Result<String, super::ShellError>,
        ctx: &mut Ctx,
    ) -> Vec<Effect> {
        let Some(mut flow) = self.flow.take().filter(|f| f.waiting == Waiting::Editor) else {
            return Vec::new();
        };
        let text = match result {
            Ok(text) => text,
            Err(e) => {
                ctx.error(e.to_string());
                return Vec::new();
            }
        };
        if text.trim().is_empty() {
            ctx.info(format!(
                "the editor left the file empty: nothing sent to {} (d in the upload dialog \
                 deletes)",
                flow.target
            ));
            return Vec::new();
        }
        let before = flow.source.as_deref().unwrap_or("");
        let trim = |s: &str| s.trim_end_matches(['\n', '\r']).to_string();
        if trim(&text) == trim(before) {
            ctx.info(format!(
                "the text is unchanged: nothing sent to {}",
                flow.target
            ));
            return Vec::new();
        }
        flow.draft = Some(Draft {
            body: text.into_bytes(),
            mime: TITAN_DEFAULT_MIME.into(),
            source: Source::Edited,
        });
        self.flow = Some(flow);
        self.confirm(ctx, None)
    }

    /// The file to send was read (or not).
    pub(crate) fn file_read(
        &mut self,
        path: String,
        result: Result<Vec<u8>, super::ShellError>,
        ctx: &mut Ctx,
    ) -> Vec<Effect> {
        let Some(mut flow) = self.flow.take().filter(|f| f.waiting == Waiting::File) else {
            return Vec::new();
        };
        let bytes = match result {
            Ok(b) => b,
            Err(e) => {
                ctx.error(format!("{e}: nothing sent"));
                return Vec::new();
            }
        };
        flow.draft = Some(Draft {
            mime: guess_mime(&path, &bytes),
            body: bytes,
            source: Source::File(path),
        });
        self.flow = Some(flow);
        self.confirm(ctx, None)
    }
}

fn what_of(source: &Source) -> String {
    match source {
        Source::Edited => "the edited text".into(),
        Source::File(path) => path.clone(),
        Source::Delete => "nothing (a delete)".into(),
    }
}

/// The text the editor starts from: the shown page's body as received, when the page is the
/// gemini:// twin of `target` and an ordinary text page (not an error page, not made by
/// smolweb); None otherwise (a new file).
fn page_source(ctx: &Ctx, target: &str) -> Option<String> {
    let entry = ctx.current()?;
    let View::Doc(dv) = &entry.view else {
        return None;
    };
    if dv.special != Special::None || dv.builtin() {
        return None;
    }
    let page = dv.doc.page();
    if page.url.scheme() != Scheme::Gemini || titan_url(&page.url.to_string())? != target {
        return None;
    }
    page.charset?;
    Some(match std::str::from_utf8(&page.raw) {
        Ok(text) => text.to_string(),
        Err(_) => page.body.text().to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn titan_urls_keep_host_port_and_path_and_drop_the_query() {
        assert_eq!(
            titan_url("gemini://example.org:1966/notes/a.gmi?x=1").as_deref(),
            Some("titan://example.org:1966/notes/a.gmi")
        );
        assert_eq!(
            titan_url("titan://example.org/a").as_deref(),
            Some("titan://example.org/a")
        );
        assert_eq!(titan_url("gopher://example.org/"), None);
        assert_eq!(titan_url("about:home"), None);
    }

    #[test]
    fn mime_types_are_guessed_from_the_name_then_the_bytes() {
        assert_eq!(guess_mime("/tmp/post.gmi", b"# hi"), "text/gemini");
        assert_eq!(guess_mime("notes.txt", b"plain"), "text/plain");
        assert_eq!(guess_mime("README", b"plain words"), "text/plain");
        assert_eq!(guess_mime("pic.png", b"\x89PNG\0"), "image/png");
        assert_eq!(
            guess_mime("blob", b"\0\x01\x02"),
            "application/octet-stream"
        );
        assert_eq!(
            guess_mime("odd.zzz", b"\xff\xfe"),
            "application/octet-stream"
        );
        assert_eq!(guess_mime("odd.zzz", b"words"), "text/plain");
        assert_eq!(
            guess_mime("bad.txt", b"\xff\x00"),
            "application/octet-stream"
        );
    }

    #[test]
    fn mime_types_typed_are_checked() {
        assert!(usable_mime("text/plain"));
        assert!(usable_mime("text/plain;charset=utf-8"));
        assert!(!usable_mime("text"));
        assert!(!usable_mime("text/plain extra"));
        assert!(!usable_mime("a/b/c"));
        assert!(!usable_mime(""));
    }

    #[test]
    fn a_delete_is_confirmed_only_by_y() {
        for ask in [Ask::DeleteFirst, Ask::DeleteSecond] {
            assert_eq!(ask.choice(Key::ch('y')), Some(Choice::Yes));
            assert_eq!(ask.choice(Key::ch('Y')), Some(Choice::Yes));
            for k in [
                Key::ch('n'),
                Key::ch('d'),
                Key::plain(Code::Enter),
                Key::plain(Code::Esc),
            ] {
                assert_eq!(ask.choice(k), Some(Choice::No), "{k:?}");
            }
        }
        assert_eq!(Ask::Choose.choice(Key::ch('x')), None);
        assert_eq!(Ask::Choose.choice(Key::plain(Code::Esc)), Some(Choice::No));
        assert_eq!(Ask::Send.choice(Key::plain(Code::Enter)), Some(Choice::Yes));
        assert_eq!(Ask::Send.choice(Key::ch('m')), Some(Choice::ChangeMime));
        assert_eq!(Ask::Send.choice(Key::ch('z')), None);
    }
}
