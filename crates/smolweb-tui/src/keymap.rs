//! Keys and named actions. Every binding is an `Action` with a stable snake_case name; the
//! config table `[tui.keys]` maps an action name to a list of keys and replaces that action's
//! default keys. Digits (link numbers) and text typed into prompts are not actions.
//!
//! Keys are written as `j`, `G`, `?`, `space`, `enter`, `esc`, `tab`, `backtab`, `backspace`,
//! `up`, `down`, `left`, `right`, `home`, `end`, `pageup`, `pagedown`, `delete`, `f1`..`f12`,
//! with optional `ctrl-` / `alt-` prefixes (`ctrl-d`, `alt-left`). Uppercase letters mean shift.
//! Lookup is by context: on the identities screen its own actions win over the global ones.

use std::collections::BTreeMap;
use std::fmt;

/// A key name that is not understood.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown key '{0}'")]
pub struct UnknownKey(pub String);

/// A `[tui.keys]` entry that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum KeymapError {
    #[error("[tui.keys]: unknown action '{0}'")]
    /// An action name that does not exist.
    UnknownAction(String),
    #[error("[tui.keys] {action}: {key}")]
    /// A key that cannot be read.
    BadKey {
        /// The action.
        action: String,
        /// What is wrong with the key.
        key: UnknownKey,
    },
}

/// A key without terminal types, so the app and its tests need no terminal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Code {
    /// A character.
    Char(char),
    /// Enter.
    Enter,
    /// Escape.
    Esc,
    /// Tab.
    Tab,
    /// Shift-Tab.
    BackTab,
    /// Backspace.
    Backspace,
    /// Delete.
    Delete,
    /// Up arrow.
    Up,
    /// Down arrow.
    Down,
    /// Left arrow.
    Left,
    /// Right arrow.
    Right,
    /// Home.
    Home,
    /// End.
    End,
    /// Page up.
    PageUp,
    /// Page down.
    PageDown,
    /// A function key.
    F(u8),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
/// A key with its modifiers.
pub struct Key {
    pub(crate) code: Code,
    pub(crate) ctrl: bool,
    pub(crate) alt: bool,
}

impl Key {
    /// A key without modifiers.
    pub const fn plain(code: Code) -> Key {
        Key {
            code,
            ctrl: false,
            alt: false,
        }
    }
    /// A character key.
    pub const fn ch(c: char) -> Key {
        Key::plain(Code::Char(c))
    }
    /// A character with Ctrl.
    pub const fn ctrl(c: char) -> Key {
        Key {
            code: Code::Char(c),
            ctrl: true,
            alt: false,
        }
    }

    /// Parse a key name as written in the config.
    pub fn parse(text: &str) -> Result<Key, UnknownKey> {
        let mut rest = text;
        let (mut ctrl, mut alt) = (false, false);
        loop {
            let lower = rest.to_ascii_lowercase();
            if rest.len() > 5 && lower.starts_with("ctrl-") {
                ctrl = true;
                rest = &rest[5..];
            } else if rest.len() > 4 && lower.starts_with("alt-") {
                alt = true;
                rest = &rest[4..];
            } else {
                break;
            }
        }
        let code = parse_code(rest).ok_or_else(|| UnknownKey(text.to_string()))?;
        Ok(Key { code, ctrl, alt })
    }
}

fn parse_code(name: &str) -> Option<Code> {
    let mut chars = name.chars();
    if let (Some(c), None) = (chars.next(), chars.next()) {
        return Some(Code::Char(c));
    }
    let code = match name.to_ascii_lowercase().as_str() {
        "space" => Code::Char(' '),
        "enter" | "return" => Code::Enter,
        "esc" | "escape" => Code::Esc,
        "tab" => Code::Tab,
        "backtab" | "shift-tab" => Code::BackTab,
        "backspace" => Code::Backspace,
        "delete" | "del" => Code::Delete,
        "up" => Code::Up,
        "down" => Code::Down,
        "left" => Code::Left,
        "right" => Code::Right,
        "home" => Code::Home,
        "end" => Code::End,
        "pageup" | "pgup" => Code::PageUp,
        "pagedown" | "pgdn" => Code::PageDown,
        "minus" => Code::Char('-'),
        f if f.starts_with('f') => Code::F(f[1..].parse().ok().filter(|n| (1..=12).contains(n))?),
        _ => return None,
    };
    Some(code)
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.ctrl {
            f.write_str("ctrl-")?;
        }
        if self.alt {
            f.write_str("alt-")?;
        }
        match self.code {
            Code::Char(' ') => f.write_str("space"),
            Code::Char(c) => write!(f, "{c}"),
            Code::F(n) => write!(f, "f{n}"),
            other => {
                let name = match other {
                    Code::Enter => "enter",
                    Code::Esc => "esc",
                    Code::Tab => "tab",
                    Code::BackTab => "backtab",
                    Code::Backspace => "backspace",
                    Code::Delete => "delete",
                    Code::Up => "up",
                    Code::Down => "down",
                    Code::Left => "left",
                    Code::Right => "right",
                    Code::Home => "home",
                    Code::End => "end",
                    Code::PageUp => "pageup",
                    Code::PageDown => "pagedown",
                    Code::Char(_) | Code::F(_) => "",
                };
                f.write_str(name)
            }
        }
    }
}

/// Where an action applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Context {
    /// Everywhere.
    Global,
    /// On the identities screen.
    Identities,
    /// On the bookmarks page.
    Bookmarks,
    /// On the history page.
    History,
    /// On the tour page (about:tour).
    Tour,
}

macro_rules! actions {
    ($( $variant:ident, $name:literal, $ctx:ident, [$($key:literal),*], $help:literal; )*) => {
        /// A named thing the user can do.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Action {
            $( #[doc = $help] $variant, )*
        }

        impl Action {
            /// Every action, in help order.
            pub const ALL: &'static [Action] = &[ $( Action::$variant, )* ];
            /// The config name.
            pub fn name(self) -> &'static str {
                match self { $( Action::$variant => $name, )* }
            }
            /// Where the action applies.
            pub fn context(self) -> Context {
                match self { $( Action::$variant => Context::$ctx, )* }
            }
            /// One line for the help page.
            pub fn help(self) -> &'static str {
                match self { $( Action::$variant => $help, )* }
            }
            fn default_keys(self) -> &'static [&'static str] {
                match self { $( Action::$variant => &[$($key),*], )* }
            }
        }
    };
}

actions! {
    ScrollDown, "scroll_down", Global, ["j", "down"], "scroll down one line";
    ScrollUp, "scroll_up", Global, ["k", "up"], "scroll up one line";
    HalfPageDown, "half_page_down", Global, ["ctrl-d"], "scroll down half a screen";
    HalfPageUp, "half_page_up", Global, ["ctrl-u"], "scroll up half a screen";
    PageDown, "page_down", Global, ["pagedown", "ctrl-f"], "scroll down one screen";
    PageUp, "page_up", Global, ["pageup", "ctrl-b"], "scroll up one screen";
    ScrollLeft, "scroll_left", Global, ["h", "left"], "scroll preformatted text left";
    ScrollRight, "scroll_right", Global, ["l", "right"], "scroll preformatted text right";
    Top, "top", Global, ["g", "home"], "go to the top of the page";
    Bottom, "bottom", Global, ["G", "end"], "go to the bottom of the page";
    AddressBar, "address_bar", Global, [":", "space"], "type an address (Tab completes)";
    Back, "back", Global, ["b", "backspace", "alt-left"], "go back";
    Forward, "forward", Global, ["f", "alt-right"], "go forward";
    Reload, "reload", Global, ["r", "ctrl-r"], "reload the page (skips the cache)";
    Up, "up", Global, ["u"], "go up one directory (..)";
    Root, "root", Global, ["U"], "go to the capsule's root";
    Home, "home", Global, ["H"], "go to the home page";
    NextLink, "next_link", Global, ["tab"], "select the next link";
    PrevLink, "prev_link", Global, ["backtab"], "select the previous link";
    Follow, "follow", Global, ["enter"], "follow the selected or typed link";
    OpenInNewTab, "open_in_new_tab", Global, ["t"], "open the selected or typed link in a new tab";
    OpenInBackground, "open_in_background", Global, ["alt-t"], "open the selected or typed link in a new tab behind this one (this one stays on screen)";
    Outline, "outline", Global, ["#"], "the page's headings: pick one to jump there (the status line names the section you are in)";
    NewTab, "new_tab", Global, ["ctrl-t"], "open a new tab";
    CloseTab, "close_tab", Global, ["ctrl-w"], "close the tab";
    UndoCloseTab, "undo_close_tab", Global, ["X"], "reopen the last closed tab";
    NextTab, "next_tab", Global, ["ctrl-n", "f2"], "next tab";
    PrevTab, "prev_tab", Global, ["ctrl-p", "f1"], "previous tab";
    Search, "search", Global, ["/"], "search in the page (smart case: lowercase matches any case)";
    SearchRead, "search_read", Global, ["ctrl-k"], "search what you and your agents read (about:search; filters: source:, since:)";
    SearchEngine, "search_engine", Global, ["K"], "pick the Geminispace search engine that words typed in the address bar go to (kennedy, tlgs, geminispace, or the URL of [search] engine), for this session";
    SearchNext, "search_next", Global, ["n"], "next search match";
    SearchPrev, "search_prev", Global, ["N"], "previous search match";
    TogglePreformat, "toggle_preformat", Global, ["p"], "fold or unfold preformatted blocks";
    PageInfo, "page_info", Global, ["i"], "page info: MIME, size, TLS, certificate, identity";
    Messages, "messages", Global, ["M"], "the status line's messages, whole, with their times (about:messages)";
    ViewSource, "view_source", Global, ["\\"], "view the page's source: the bytes as received, as text";
    Bookmark, "bookmark", Global, ["m"], "bookmark the page (again: remove the bookmark)";
    Bookmarks, "bookmarks", Global, ["B"], "show bookmarks";
    History, "history", Global, ["ctrl-y"], "show history";
    Identities, "identities", Global, ["I"], "client identities and agent requests";
    Trust, "trust", Global, ["T"], "pinned certificates (trust on first use)";
    Save, "save", Global, ["s"], "save the page to the downloads directory";
    CopyUrl, "copy_url", Global, ["Y"], "copy the selected link's URL (or the page's) to the clipboard";
    Help, "help", Global, ["?", "f10"], "this help";
    Cancel, "cancel", Global, ["esc"], "cancel loading, close a popup, clear the selection";
    Quit, "quit", Global, ["q", "ctrl-c"], "quit";
    IdentityCreate, "identity_create", Identities, ["c"], "identities: create a new identity";
    IdentityImport, "identity_import", Identities, ["i"], "identities: import one made elsewhere (a PEM certificate and its key)";
    IdentityToggleAgent, "identity_toggle_agent", Identities, ["a"], "identities: allow or forbid agent use";
    IdentityExport, "identity_export", Identities, ["e"], "identities: export certificate and key (PEM)";
    IdentityDelete, "identity_delete", Identities, ["d"], "identities: delete (asks first)";
    ApprovalApprove, "approval_approve", Identities, ["y"], "identities: approve the agent's request";
    ApprovalDeny, "approval_deny", Identities, ["x"], "identities: deny the agent's request";
    BookmarkRename, "bookmark_rename", Bookmarks, ["R"], "bookmarks: rename the selected bookmark";
    BookmarkDelete, "bookmark_delete", Bookmarks, ["d"], "bookmarks: delete the selected bookmark (asks first)";
    BookmarkFolder, "bookmark_folder", Bookmarks, ["F"], "bookmarks: file the selected bookmark in a folder";
    HistoryDelete, "history_delete", History, ["d"], "history: forget the selected visit (asks first)";
    HistoryClear, "history_clear", History, ["D"], "history: forget every visit (asks first)";
    ReaderFull, "reader_full", Global, ["v"], "web page: toggle main content / full page";
    PickRegion, "pick_region", Global, ["V"], "web page: pick the region of the page that is its text and keep it as the site's rule (again: the next region; Enter keeps it, esc puts the page back; smolweb rules lists them)";
    OpenInBrowser, "open_in_browser", Global, ["E"], "open the page in the external browser ($BROWSER, else xdg-open)";
    Subscribe, "subscribe", Global, ["S"], "follow the page's feed (again: unfollow; on about:feeds the selected one)";
    Feeds, "feeds", Global, ["F"], "feeds you follow, newest first (about:feeds)";
    RefreshFeeds, "refresh_feeds", Global, ["alt-r"], "refresh every feed now";
    MarkAllRead, "mark_all_read", Global, ["R"], "on about:feeds: mark every entry read (of the feed shown, else all; asks first)";
    SaveOffline, "save_offline", Global, ["o"], "save the page for offline reading (again: remove; on about:offline the selected one)";
    OfflinePages, "offline_pages", Global, ["O"], "pages saved for offline reading (about:offline)";
    OfflineCopy, "offline_copy", Global, ["C"], "read the offline copy offered when the network failed";
    WorkOffline, "work_offline", Global, ["alt-o"], "work offline (again: online): nothing is fetched, pages come from the offline cache";
    Agents, "agents", Global, ["A"], "what agents did, their suggestions, pages shared with them (about:agents)";
    Share, "share", Global, ["P"], "share the page (or the selected link) with agents, with a note";
    Upload, "upload", Global, ["W"], "upload to the page's titan:// address: edit its source in $VISUAL/$EDITOR (e), send a file (f) or delete it (d, asks twice)";
    InlineImages, "inline_images", Global, ["z"], "show the image links of gemtext pages as pictures under their line (again: hide them)";
    TourAdd, "tour_add", Global, ["+"], "put a link on the tour (the links to read next): the selected one, else ask which (3, 1-5, * for all; Enter alone: this page)";
    TourNext, "tour_next", Global, [">"], "go to the next link of the tour, taking it off";
    Tour, "tour", Global, ["L"], "the tour: the links to read next, yours and agents' (about:tour)";
    TourRemove, "tour_remove", Tour, ["d"], "tour: take the selected link off the tour";
    TourClear, "tour_clear", Tour, ["D"], "tour: take every link off the tour (asks first)";
    EditInput, "edit_input", Global, ["ctrl-e"], "at an input prompt (status 10): write the answer in $VISUAL, else $EDITOR, else vi (never for status 11)";
}

/// One action in a key list: its keys ("j, down"), what it does, its config name.
pub type KeyRow = (String, &'static str, &'static str);

/// What the help page and the manual say before the actions: keys that are not actions.
pub const NOT_ACTIONS: &[(&str, &str)] = &[
    (
        "1-9",
        "type a link number, then Enter (it is followed at once when no longer number exists)",
    ),
    ("mouse", "click a link to follow it; the wheel scrolls"),
];

/// The live key bindings.
#[derive(Clone, Debug)]
pub struct Keymap {
    bindings: BTreeMap<Action, Vec<Key>>,
}

impl Default for Keymap {
    fn default() -> Self {
        let bindings = Action::ALL
            .iter()
            .map(|&a| {
                let keys = a
                    .default_keys()
                    .iter()
                    .filter_map(|k| Key::parse(k).ok())
                    .collect();
                (a, keys)
            })
            .collect();
        Keymap { bindings }
    }
}

impl Keymap {
    /// Defaults overridden by `[tui.keys]`. Unknown action or key names are errors.
    pub fn from_config(keys: &BTreeMap<String, Vec<String>>) -> Result<Keymap, KeymapError> {
        let mut map = Keymap::default();
        for (name, list) in keys {
            let action = Action::ALL
                .iter()
                .copied()
                .find(|a| a.name() == name)
                .ok_or_else(|| KeymapError::UnknownAction(name.clone()))?;
            let parsed = list
                .iter()
                .map(|k| {
                    Key::parse(k).map_err(|key| KeymapError::BadKey {
                        action: name.clone(),
                        key,
                    })
                })
                .collect::<Result<Vec<_>, _>>()?;
            map.bindings.insert(action, parsed);
        }
        Ok(map)
    }

    /// The action bound to `key` in `context` (its own actions first, then global ones).
    pub fn lookup(&self, key: Key, context: Context) -> Option<Action> {
        let find = |ctx: Context| {
            self.bindings
                .iter()
                .find(|(a, keys)| a.context() == ctx && keys.contains(&key))
                .map(|(a, _)| *a)
        };
        match context {
            Context::Global => find(Context::Global),
            other => find(other).or_else(|| find(Context::Global)),
        }
    }

    /// The keys bound to an action.
    pub fn keys(&self, action: Action) -> &[Key] {
        self.bindings.get(&action).map_or(&[], Vec::as_slice)
    }

    /// The keys of an action as text ("j, down"), for help and hints.
    pub fn describe(&self, action: Action) -> String {
        let keys: Vec<String> = self.keys(action).iter().map(Key::to_string).collect();
        if keys.is_empty() {
            "(unbound)".into()
        } else {
            keys.join(", ")
        }
    }

    /// The keys as the help page (`?`) and the manual page list them, from this keymap: per
    /// place (its title), each action's keys, what it does and its config name.
    pub fn sections(&self) -> Vec<(&'static str, Vec<KeyRow>)> {
        [
            ("Everywhere", Context::Global),
            ("On the identities screen", Context::Identities),
            ("On the bookmarks page", Context::Bookmarks),
            ("On the history page", Context::History),
            ("On the tour page", Context::Tour),
        ]
        .into_iter()
        .map(|(title, ctx)| {
            let rows = Action::ALL
                .iter()
                .filter(|a| a.context() == ctx)
                .map(|&a| {
                    let help = a
                        .help()
                        .trim_start_matches("identities: ")
                        .trim_start_matches("bookmarks: ")
                        .trim_start_matches("history: ")
                        .trim_start_matches("tour: ");
                    (self.describe(a), help, a.name())
                })
                .collect();
            (title, rows)
        })
        .collect()
    }

    /// The first key of an action, for short hints ("press ? for help").
    pub fn hint(&self, action: Action) -> String {
        self.keys(action)
            .first()
            .map_or_else(|| action.name().to_string(), Key::to_string)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_key_names() {
        let cases = [
            ("j", Key::ch('j')),
            ("G", Key::ch('G')),
            ("ctrl-d", Key::ctrl('d')),
            ("space", Key::ch(' ')),
            ("enter", Key::plain(Code::Enter)),
            ("backtab", Key::plain(Code::BackTab)),
            ("f2", Key::plain(Code::F(2))),
            (
                "alt-left",
                Key {
                    code: Code::Left,
                    ctrl: false,
                    alt: true,
                },
            ),
            ("-", Key::ch('-')),
        ];
        for (text, key) in cases {
            assert_eq!(Key::parse(text).unwrap(), key, "{text}");
            assert_eq!(
                Key::parse(&key.to_string()).unwrap(),
                key,
                "round trip {text}"
            );
        }
        assert!(Key::parse("ctrl-").is_err());
        assert_eq!(Key::parse("ctrl--").unwrap(), Key::ctrl('-'));
        assert!(Key::parse("hyper-x").is_err());
        assert!(Key::parse("f13").is_err());
    }

    #[test]
    fn defaults_have_no_conflicts_within_a_context() {
        let map = Keymap::default();
        let mut seen = std::collections::HashMap::new();
        for &a in Action::ALL {
            for k in map.keys(a) {
                let prev = seen.insert((a.context(), *k), a);
                assert!(prev.is_none(), "{k} bound to both {prev:?} and {a:?}");
            }
        }
    }

    #[test]
    fn config_replaces_an_actions_keys() {
        let mut cfg = BTreeMap::new();
        cfg.insert("quit".to_string(), vec!["ctrl-q".to_string()]);
        let map = Keymap::from_config(&cfg).unwrap();
        assert_eq!(
            map.lookup(Key::ctrl('q'), Context::Global),
            Some(Action::Quit)
        );
        assert_eq!(map.lookup(Key::ch('q'), Context::Global), None);
        cfg.insert("fly".to_string(), vec!["z".to_string()]);
        assert_eq!(
            Keymap::from_config(&cfg).unwrap_err(),
            KeymapError::UnknownAction("fly".into())
        );
        assert!(
            Keymap::from_config(&cfg)
                .unwrap_err()
                .to_string()
                .contains("fly")
        );
    }

    #[test]
    fn context_actions_win_over_global_ones() {
        let map = Keymap::default();
        assert_eq!(
            map.lookup(Key::ch('d'), Context::Identities),
            Some(Action::IdentityDelete)
        );
        assert_eq!(
            map.lookup(Key::ch('j'), Context::Identities),
            Some(Action::ScrollDown)
        );
        assert_eq!(map.lookup(Key::ch('d'), Context::Global), None);
    }
}
