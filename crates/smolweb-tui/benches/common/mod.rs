//! What the benches share: counting the presses of a key from the top of a page to its
//! bottom, so a step bench can start again from the top before a press stops moving.

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use smolweb_tui::app::{App, Msg};
use smolweb_tui::keymap::Key;
use smolweb_tui::view;

/// How many presses of `key` move `probe`'s page (drawn on `term`) before the screen stops
/// changing (at least 1).
pub(crate) fn steps_to_bottom(
    probe: &mut App,
    term: &mut Terminal<TestBackend>,
    key: Key,
) -> usize {
    let mut before = term.backend().buffer().clone();
    let mut n = 0usize;
    loop {
        probe.update(Msg::Key(key));
        term.draw(|f| view::draw(f, probe)).unwrap();
        let now = term.backend().buffer().clone();
        if now == before || n > 10_000_000 {
            break n.max(1);
        }
        before = now;
        n += 1;
    }
}
