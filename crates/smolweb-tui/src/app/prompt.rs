//! The prompt room: the one-line prompt and what its text is for: the address bar (with
//! completion from history and bookmarks), search, Gemini input (10; 11 masked and never
//! kept), gopher search, and the identity creation steps.

use super::loads::Request;
use super::{Ctx, Effect, FetchOptions, StoreOp, Then};
use crate::keymap::{Action, Code, Context, Key};
use smolweb_core::url::Url;
use smolweb_store::identity::{CreatedBy, KeyAlgorithm, NewIdentity, Scope};

/// What the typed text is for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// The address bar.
    Address,
    /// Search the page.
    Search,
    /// Gemini input (status 10; 11 is sensitive).
    Input {
        /// The tab that asked.
        tab: u64,
        /// The URL that asked (without query).
        url: String,
        /// Status 11: masked, never kept.
        sensitive: bool,
        /// What the capsule asks.
        label: String,
    },
    /// A gopher search (type 7).
    GopherSearch {
        /// The tab.
        tab: u64,
        /// The search's URL.
        url: String,
        /// What the menu calls the search ("Veronica-2"), when it was followed from one.
        label: Option<String>,
    },
    /// The URL a new identity is for.
    IdentityScope,
    /// The certificate file of an identity to import.
    ImportCert,
    /// The key file of an identity to import.
    ImportKey {
        /// The certificate file, as typed.
        cert: String,
    },
    /// The URL an imported identity is for.
    ImportScope {
        /// The certificate file, as typed.
        cert: String,
        /// The key file, as typed.
        key: String,
    },
    /// The name of a new identity.
    IdentityName {
        /// Where it applies.
        scope: Scope,
        /// Where to go with it (tab id, URL).
        then: Option<(u64, String)>,
    },
    /// How many days a new identity is valid.
    IdentityDays {
        /// Where it applies.
        scope: Scope,
        /// Its name.
        name: String,
        /// Where to go with it (tab id, URL).
        then: Option<(u64, String)>,
    },
    /// The name of a new (or renamed) bookmark.
    BookmarkName {
        /// The page bookmarked.
        url: String,
        /// Its current name.
        title: String,
    },
    /// The folder a bookmark is filed in (empty: the top level).
    BookmarkFolder {
        /// The bookmarked page.
        url: String,
        /// Its current folder.
        folder: String,
    },
    /// The note of a page shared with agents.
    ShareNote {
        /// The page shared.
        url: String,
        /// Its title, when it has one.
        title: Option<String>,
    },
    /// The text of a Titan upload, written in the editor (never a prompt of its own).
    UploadText,
    /// The path of a file to upload with Titan.
    UploadPath,
    /// The MIME type of an upload.
    UploadMime {
        /// The type it has now.
        current: String,
    },
    /// The capsule's token for an upload: masked, sent once, never kept.
    UploadToken,
}

impl Purpose {
    /// A prompt of the upload flow (its esc cancels the upload).
    fn uploads(&self) -> bool {
        matches!(
            self,
            Purpose::UploadText
                | Purpose::UploadPath
                | Purpose::UploadMime { .. }
                | Purpose::UploadToken
        )
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
/// The one-line prompt and its text.
pub struct Prompt {
    /// What the text is for.
    pub purpose: Purpose,
    /// What was typed.
    pub text: String,
    /// Address completion candidates (url, title).
    pub completions: Vec<(String, String)>,
    pub(crate) selected: Option<usize>,
    /// The prefilled text is selected: typing replaces it, Backspace clears it (as in a
    /// web browser's address bar); any editing key keeps it instead.
    pub(crate) replace_on_type: bool,
    /// A word about the last key, shown over the prompt (which hides the status line) until
    /// the next key.
    pub note: Option<String>,
}

impl Prompt {
    /// Shown before the text.
    pub fn label(&self) -> String {
        match &self.purpose {
            Purpose::Address => "Go to: ".into(),
            Purpose::Search => "/".into(),
            Purpose::Input { label, .. } => format!("{label}: "),
            Purpose::GopherSearch { label: None, .. } => "Search for: ".into(),
            Purpose::GopherSearch {
                label: Some(label), ..
            } => format!("{}: ", smolweb_core::text::one_line(label, Some(80))),
            Purpose::IdentityScope => "New identity for (URL): ".into(),
            Purpose::ImportCert => "Import: certificate file (PEM; ~ is your home): ".into(),
            Purpose::ImportKey { .. } => {
                "Import: its private key file (PEM, not encrypted): ".into()
            }
            Purpose::ImportScope { .. } => "Import: present it at (URL): ".into(),
            Purpose::IdentityName { scope, .. } => {
                format!("Name of the identity for {}: ", scope.url())
            }
            Purpose::IdentityDays { .. } => "Valid for (days): ".into(),
            Purpose::BookmarkName { .. } => "Bookmark name: ".into(),
            Purpose::BookmarkFolder { .. } => "Folder (empty: top level): ".into(),
            Purpose::ShareNote { url, .. } => {
                format!("Share {url} with agents; note (optional, Enter shares): ")
            }
            Purpose::UploadText => "Text to upload: ".into(),
            Purpose::UploadPath => "File to upload (~ is your home): ".into(),
            Purpose::UploadMime { .. } => "MIME type of the upload: ".into(),
            Purpose::UploadToken => "Token (empty for none): ".into(),
        }
    }
    /// Is the text masked (status 11)?
    pub fn masked(&self) -> bool {
        matches!(
            self.purpose,
            Purpose::Input {
                sensitive: true,
                ..
            } | Purpose::UploadToken
        )
    }
    /// The text as drawn.
    pub fn shown_text(&self) -> String {
        if self.masked() {
            "*".repeat(self.text.chars().count())
        } else {
            self.text.clone()
        }
    }
}

/// Turn what the user typed in the address bar into a URL: full URLs as they are, a bare
/// host or host/path gets gemini://.
pub fn user_url(input: &str) -> String {
    let t = input.trim();
    if t.contains("://") || t.starts_with("about:") {
        return t.to_string();
    }
    if let Some(rest) = t.strip_prefix("//") {
        return format!("gemini://{rest}");
    }
    if t.contains(':') && !t.contains('.') && !t.contains('/') {
        return t.to_string(); // mailto:x and the like
    }
    format!("gemini://{t}")
}

/// The prompt room: the prompt when one is open.
#[derive(Debug, Default)]
pub(crate) struct PromptBar {
    open: Option<Prompt>,
}

impl PromptBar {
    /// The open prompt.
    pub(crate) fn get(&self) -> Option<&Prompt> {
        self.open.as_ref()
    }

    /// Pasted text goes into the prompt (on one line), when one is open.
    pub(crate) fn paste(&mut self, text: &str, ctx: &mut Ctx) {
        if let Some(p) = self.open.as_mut() {
            p.text.push_str(&text.replace(['\n', '\r'], " "));
            self.update_completions(ctx);
        }
    }

    /// Open the prompt for `purpose`, prefilled as it suits (the address bar with the URL).
    pub(crate) fn open(&mut self, purpose: Purpose, ctx: &mut Ctx) {
        let text = match &purpose {
            Purpose::Address => ctx.current_url().unwrap_or_default().to_string(),
            Purpose::IdentityDays { .. } => ctx.settings.identity_days.to_string(),
            Purpose::IdentityName { scope, .. } => scope.host.clone(),
            Purpose::IdentityScope | Purpose::ImportScope { .. } => last_gemini_url(ctx),
            Purpose::BookmarkName { title, .. } => title.clone(),
            Purpose::BookmarkFolder { folder, .. } => folder.clone(),
            Purpose::UploadMime { current } => current.clone(),
            _ => String::new(),
        };
        let replace_on_type =
            matches!(purpose, Purpose::Address | Purpose::BookmarkName { .. }) && !text.is_empty();
        self.open = Some(Prompt {
            purpose,
            text,
            completions: Vec::new(),
            selected: None,
            replace_on_type,
            note: None,
        });
        self.update_completions(ctx);
    }

    fn update_completions(&mut self, ctx: &Ctx) {
        let Some(p) = self.open.as_mut() else {
            return;
        };
        if p.purpose != Purpose::Address {
            return;
        }
        p.completions = ctx.lists.completions(&p.text);
        p.selected = None;
    }

    /// A key while the prompt is open.
    pub(crate) fn key(&mut self, key: Key, ctx: &mut Ctx) -> Vec<Effect> {
        let Some(p) = self.open.as_mut() else {
            return Vec::new();
        };
        let replace = std::mem::take(&mut p.replace_on_type);
        p.note = None;
        if replace && matches!(key.code, Code::Backspace | Code::Char(_)) && !key.ctrl && !key.alt {
            p.text.clear();
            if key.code == Code::Backspace {
                self.update_completions(ctx);
                return Vec::new();
            }
        }
        if matches!(p.purpose, Purpose::Input { .. })
            && ctx.keymap.lookup(key, Context::Global) == Some(Action::EditInput)
        {
            return self.edit(ctx);
        }
        match (key.code, key.ctrl) {
            (Code::Esc, _) | (Code::Char('c'), true) => {
                if self.open.take().is_some_and(|p| p.purpose.uploads()) {
                    ctx.then(Then::Upload(super::upload::Step::Cancelled));
                }
                return Vec::new();
            }
            (Code::Enter, _) => return self.submit(ctx),
            (Code::Backspace, _) => {
                p.text.pop();
            }
            (Code::Char('u'), true) => p.text.clear(),
            (Code::Char('w'), true) => {
                let keep = p.text.trim_end().rfind([' ', '/']).map_or(0, |i| i + 1);
                p.text.truncate(keep);
            }
            (Code::Tab | Code::Down, _) if !p.completions.is_empty() => {
                let n = p.completions.len();
                p.selected = Some(p.selected.map_or(0, |s| (s + 1) % n));
                if key.code == Code::Tab
                    && let Some((url, _)) = p.selected.and_then(|s| p.completions.get(s))
                {
                    p.text = url.clone();
                }
                return Vec::new();
            }
            (Code::BackTab | Code::Up, _) if !p.completions.is_empty() => {
                let n = p.completions.len();
                p.selected = Some(p.selected.map_or(n - 1, |s| (s + n - 1) % n));
                return Vec::new();
            }
            (Code::Char(c), false) if !key.alt => p.text.push(c),
            _ => return Vec::new(),
        }
        self.update_completions(ctx);
        Vec::new()
    }

    /// The editor key at an input prompt: a status-10 prompt hands its text to the shell to
    /// edit in `$VISUAL`/`$EDITOR` (the prompt closes meanwhile); a sensitive one (11) never
    /// goes to a file, so it stays open and says why.
    fn edit(&mut self, ctx: &mut Ctx) -> Vec<Effect> {
        match self.open.take() {
            Some(p) if !p.masked() => vec![Effect::EditText {
                purpose: p.purpose,
                initial: p.text,
            }],
            mut other => {
                // The prompt hides the status line: the note is said over the prompt too.
                let why = "a sensitive answer is typed here only, never in an editor's file";
                if let Some(p) = other.as_mut() {
                    p.note = Some(format!(
                        "{} does nothing here: {why}",
                        ctx.keymap.hint(Action::EditInput)
                    ));
                }
                self.open = other;
                ctx.info(why);
                Vec::new()
            }
        }
    }

    /// The editor returned: its text is sent as if typed and submitted (the newlines after
    /// the last line trimmed). When it failed or wrote nothing, nothing is sent and the status
    /// line says why.
    pub(crate) fn edited(
        &mut self,
        purpose: Purpose,
        result: Result<String, super::ShellError>,
        ctx: &mut Ctx,
    ) -> Vec<Effect> {
        match result {
            Ok(text) => {
                let text = text.trim_end_matches(['\n', '\r']).to_string();
                if text.trim().is_empty() {
                    ctx.error("the editor left the file empty: nothing sent");
                    return Vec::new();
                }
                self.open = Some(Prompt {
                    purpose,
                    text,
                    completions: Vec::new(),
                    selected: None,
                    replace_on_type: false,
                    note: None,
                });
                self.submit(ctx)
            }
            Err(e) => {
                ctx.error(e.to_string());
                Vec::new()
            }
        }
    }

    fn submit(&mut self, ctx: &mut Ctx) -> Vec<Effect> {
        let Some(p) = self.open.take() else {
            return Vec::new();
        };
        let chosen = p
            .selected
            .and_then(|s| p.completions.get(s))
            .map(|c| c.0.clone());
        let text = p.text;
        match p.purpose {
            Purpose::Address => {
                if text.trim().is_empty() && chosen.is_none() {
                    return Vec::new();
                }
                let typed = chosen.is_none();
                let target = chosen.unwrap_or_else(|| user_url(&text));
                ctx.then(Then::Go {
                    url: target,
                    opts: FetchOptions {
                        typed,
                        ..FetchOptions::default()
                    },
                    replace: false,
                });
                Vec::new()
            }
            Purpose::Search => {
                ctx.then(Then::Search(text));
                Vec::new()
            }
            Purpose::Input {
                tab,
                url,
                sensitive,
                ..
            } => {
                let opts = FetchOptions {
                    input: Some(text),
                    ..FetchOptions::default()
                };
                let mut req = Request::new(tab, &url, opts);
                req.sensitive = sensitive;
                ctx.then(Then::Fetch(req));
                Vec::new()
            }
            Purpose::GopherSearch { tab, url, .. } => {
                let opts = FetchOptions {
                    search: Some(text),
                    ..FetchOptions::default()
                };
                let req = Request::new(tab, &url, opts);
                ctx.then(Then::Fetch(req));
                Vec::new()
            }
            Purpose::IdentityScope => {
                match Url::parse(&user_url(&text)) {
                    Ok(u) => ctx.prompt(Purpose::IdentityName {
                        scope: Scope {
                            host: u.host().to_string(),
                            port: u.port(),
                            path: u.path().to_string(),
                        },
                        then: None,
                    }),
                    Err(e) => ctx.error(format!("not a gemini URL: {e}")),
                }
                Vec::new()
            }
            Purpose::ImportCert => {
                let cert = text.trim().to_string();
                if !cert.is_empty() {
                    ctx.prompt(Purpose::ImportKey { cert });
                }
                Vec::new()
            }
            Purpose::ImportKey { cert } => {
                let key = text.trim().to_string();
                if !key.is_empty() {
                    ctx.prompt(Purpose::ImportScope { cert, key });
                }
                Vec::new()
            }
            Purpose::ImportScope { cert, key } => match Url::parse(&user_url(&text)) {
                Ok(u) if u.scheme() == smolweb_core::url::Scheme::Gemini => {
                    ctx.info("importing the identity…");
                    let scope = Scope {
                        host: u.host().to_string(),
                        port: u.port(),
                        path: u.path().to_string(),
                    };
                    vec![Effect::Store(StoreOp::ImportIdentity { cert, key, scope })]
                }
                Ok(_) => {
                    ctx.error("identities are for gemini:// URLs");
                    Vec::new()
                }
                Err(e) => {
                    ctx.error(format!("not a gemini URL: {e}"));
                    Vec::new()
                }
            },
            Purpose::IdentityName { scope, then } => {
                let name = text.trim().to_string();
                if name.is_empty() {
                    ctx.error("an identity needs a name");
                    return Vec::new();
                }
                ctx.prompt(Purpose::IdentityDays { scope, name, then });
                Vec::new()
            }
            Purpose::BookmarkFolder { url, .. } => {
                let folder = text.trim().to_string();
                if let Some(b) = ctx.lists.bookmarks.iter_mut().find(|b| b.url == url) {
                    b.folder = folder.clone();
                }
                vec![Effect::Store(StoreOp::MoveBookmark { url, folder })]
            }
            Purpose::ShareNote { url, title } => {
                let note = Some(text.trim().to_string()).filter(|n| !n.is_empty());
                ctx.info(format!("sharing {url} with agents…"));
                vec![Effect::Store(StoreOp::Share { url, title, note })]
            }
            Purpose::UploadText => Vec::new(),
            Purpose::UploadPath => {
                ctx.then(Then::Upload(super::upload::Step::Path(text)));
                Vec::new()
            }
            Purpose::UploadMime { .. } => {
                ctx.then(Then::Upload(super::upload::Step::Mime(text)));
                Vec::new()
            }
            Purpose::UploadToken => {
                ctx.then(Then::Upload(super::upload::Step::Token(text)));
                Vec::new()
            }
            Purpose::BookmarkName { url, .. } => {
                let title = text.trim().to_string();
                ctx.lists.set_bookmark(&url, &title);
                vec![Effect::Store(StoreOp::AddBookmark { url, title })]
            }
            Purpose::IdentityDays { scope, name, then } => match text.trim().parse::<u32>() {
                Ok(days) if days > 0 => {
                    ctx.info(format!("creating identity '{name}'…"));
                    vec![Effect::Store(StoreOp::CreateIdentity {
                        new: NewIdentity {
                            name,
                            scope,
                            days,
                            algorithm: KeyAlgorithm::default(),
                            created_by: CreatedBy::Human,
                            agent_use: false,
                        },
                        then,
                    })]
                }
                _ => {
                    ctx.error(format!("'{text}' is not a number of days"));
                    Vec::new()
                }
            },
        }
    }
}

/// The most recent gemini:// page of the tab (to suggest an identity scope).
fn last_gemini_url(ctx: &Ctx) -> String {
    ctx.tabs
        .active()
        .and_then(|t| t.last_url_with("gemini://"))
        .map_or_else(|| "gemini://".into(), super::nav::strip_query)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn user_input_becomes_a_url() {
        let cases = [
            ("gemini://a.b/c", "gemini://a.b/c"),
            ("gopher://x", "gopher://x"),
            ("about:home", "about:home"),
            ("geminiprotocol.net", "gemini://geminiprotocol.net"),
            ("host/path?q", "gemini://host/path?q"),
            ("localhost:1965/x", "gemini://localhost:1965/x"),
            ("  spaced.org  ", "gemini://spaced.org"),
            ("mailto:me", "mailto:me"),
        ];
        for (input, want) in cases {
            assert_eq!(user_url(input), want, "{input}");
        }
    }
}
