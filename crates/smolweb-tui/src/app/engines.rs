//! The engine list: which Geminispace search engine words typed in the address bar go to,
//! picked from a short list over the page (the engines smolweb knows and the URL the config
//! gives) with the arrows and Enter, or a line's number. The choice holds for this session:
//! the browser does not write the config file, so `[search] engine` keeps it across runs.

use super::{App, Effect, Popup, Status};
use crate::keymap::{Action, Code, Context, Key};
use smolweb_client::search::Choice;

/// The list popup: the engines and the one under the cursor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Engines {
    /// The engines to choose from, in order.
    pub choices: Vec<Choice>,
    /// The line under the cursor.
    pub selected: usize,
    /// The line of the engine in use, if it is one of them.
    pub current: Option<usize>,
}

impl App {
    /// The engines the list offers (the client's [`smolweb_client::search::choices`]).
    pub fn set_search_engines(&mut self, choices: Vec<Choice>) {
        self.engines = choices;
    }

    /// The engine key: open the list, the engine in use under the cursor.
    pub(super) fn open_engines(&mut self) -> Vec<Effect> {
        if self.engines.is_empty() {
            self.status = Status::info(
                "no search engine to choose from: [search] engine names none",
                self.now,
            );
            return Vec::new();
        }
        let current = self
            .settings
            .search_engine
            .as_ref()
            .and_then(|url| self.engines.iter().position(|c| &c.url == url));
        self.dialog.show(Popup::Engines(Engines {
            choices: self.engines.clone(),
            selected: current.unwrap_or(0),
            current,
        }));
        Vec::new()
    }

    /// A key while the list is open: move, pick (Enter or a line's number) or close.
    pub(super) fn engines_key(&mut self, key: Key) -> Vec<Effect> {
        let Some(Popup::Engines(list)) = self.dialog.popup.as_mut() else {
            return Vec::new();
        };
        let last = list.choices.len().saturating_sub(1);
        let action = self.keymap.lookup(key, Context::Global);
        let picked = match (key.code, action) {
            (Code::Down, _) | (_, Some(Action::ScrollDown | Action::NextLink)) => {
                list.selected = (list.selected + 1).min(last);
                None
            }
            (Code::Up, _) | (_, Some(Action::ScrollUp | Action::PrevLink)) => {
                list.selected = list.selected.saturating_sub(1);
                None
            }
            (Code::Enter, _) => list.choices.get(list.selected).cloned(),
            (Code::Char(c @ '1'..='9'), _) if !key.ctrl && !key.alt => {
                let n = c as usize - '1' as usize;
                match list.choices.get(n) {
                    Some(choice) => Some(choice.clone()),
                    None => return Vec::new(),
                }
            }
            _ => {
                self.dialog.close();
                return Vec::new();
            }
        };
        if let Some(choice) = picked {
            self.dialog.close();
            self.settings.search_engine = Some(choice.url.clone());
            self.status = Status::info(
                format!(
                    "this session's search engine: {} ({}); [search] engine in the config \
                     sets the next session's",
                    choice.name, choice.url
                ),
                self.now,
            );
        }
        Vec::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::keymap::Keymap;

    fn app() -> App {
        let mut app = App::new(
            crate::app::Settings::default(),
            Keymap::default(),
            crate::theme::Theme::default(),
        );
        app.set_search_engines(smolweb_client::search::choices("gemini://my.test/s"));
        app.set_search_engine(Some("gemini://my.test/s".into()));
        app
    }

    fn list(app: &App) -> Option<&Engines> {
        match app.dialog().popup.as_ref() {
            Some(Popup::Engines(e)) => Some(e),
            _ => None,
        }
    }

    #[test]
    fn the_list_opens_on_the_engine_in_use_and_a_pick_changes_it() {
        let mut a = app();
        a.open_engines();
        let l = list(&a).unwrap();
        assert_eq!(l.choices.len(), 4);
        assert_eq!((l.selected, l.current), (3, Some(3)));
        a.engines_key(Key::plain(Code::Up));
        a.engines_key(Key::plain(Code::Enter));
        assert!(list(&a).is_none());
        assert_eq!(
            a.settings.search_engine.as_deref(),
            Some("gemini://geminispace.info/search")
        );
        // A line's number picks it at once; a number past the list does nothing.
        a.open_engines();
        a.engines_key(Key::plain(Code::Char('7')));
        assert!(list(&a).is_some());
        a.engines_key(Key::plain(Code::Char('2')));
        assert_eq!(
            a.settings.search_engine.as_deref(),
            Some("gemini://tlgs.one/search")
        );
        // Esc closes it and changes nothing.
        a.open_engines();
        a.engines_key(Key::plain(Code::Esc));
        assert!(list(&a).is_none());
        assert_eq!(
            a.settings.search_engine.as_deref(),
            Some("gemini://tlgs.one/search")
        );
    }
}
