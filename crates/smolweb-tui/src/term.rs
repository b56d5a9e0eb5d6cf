//! The terminal shell: raw mode and the alternate screen, the event loop, and the effects of
//! [`App::update`] carried out (fetches in tasks, store changes, external programs).
//!
//! Invariants: the terminal is restored on quit, on error, on panic (a hook restores it before
//! the message prints) and on SIGTERM. Key reading runs on its own thread, fetches in tokio
//! tasks; the loop itself never waits on IO, so the screen keeps answering while pages load.

mod editor;
mod effects;
mod input;

use crate::app::{App, Msg};
use crate::keymap::{Code, Key};
use crate::picture::{Mode, Painter, TermEnv};
use crate::view;
use input::{Incoming, Input};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use ratatui::crossterm::event::{
    DisableBracketedPaste, DisableMouseCapture, EnableBracketedPaste, EnableMouseCapture, Event,
    KeyCode, KeyEventKind, KeyModifiers, MouseButton, MouseEventKind,
};
use ratatui::crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use ratatui::crossterm::{cursor, execute};
use smolweb_client::Client;
use std::io::Stdout;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::mpsc;

type Term = Terminal<CrosstermBackend<Stdout>>;

/// Why the browser stopped with an error.
#[derive(Debug, thiserror::Error)]
pub enum TermError {
    #[error(transparent)]
    Config(#[from] crate::app::SetupError),
    #[error("cannot set up the terminal: {0}")]
    Setup(std::io::Error),
    #[error("cannot draw: {0}")]
    Draw(std::io::Error),
    #[error("cannot watch SIGTERM: {0}")]
    Signal(std::io::Error),
    #[error("the terminal input closed")]
    InputClosed,
}

/// Put the terminal back as we found it. Safe to call more than once.
pub(crate) fn restore() {
    let _ = disable_raw_mode();
    let _ = execute!(
        std::io::stdout(),
        DisableBracketedPaste,
        DisableMouseCapture,
        LeaveAlternateScreen,
        cursor::Show
    );
}

fn setup() -> Result<Term, TermError> {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        // The PDF reader's worker catches its own panics: the browser carries on, so the
        // terminal stays as it is and the report goes to the log, not over the screen.
        if std::thread::current().name() == Some(smolweb_client::web::PDF_THREAD) {
            tracing::warn!("the PDF reader panicked: {info}");
            return;
        }
        restore();
        previous(info);
    }));
    enter().map_err(TermError::Setup)?;
    Terminal::new(CrosstermBackend::new(std::io::stdout())).map_err(TermError::Setup)
}

/// Raw mode, the alternate screen, mouse and bracketed paste: the browser's terminal.
fn enter() -> std::io::Result<()> {
    enable_raw_mode()?;
    execute!(
        std::io::stdout(),
        EnterAlternateScreen,
        EnableMouseCapture,
        EnableBracketedPaste
    )
}

/// What the shell knows of the terminal: the environment, the picture mode, and whether
/// the start-up question was asked (its answer comes in later, see [`crate::probe`]).
struct Probe {
    env: TermEnv,
    mode: Mode,
    ask: crate::probe::Ask,
}

impl Probe {
    fn new(app: &App, images: &str) -> Probe {
        let mode = Mode::parse(images).unwrap_or_else(|| {
            tracing::warn!("[tui] images = {images:?} is not a mode: auto");
            Mode::Auto
        });
        let env = TermEnv::from_process();
        let answers = env.tty && !env.dumb();
        let ask = crate::probe::Ask {
            graphics: crate::picture::should_query(mode, &env),
            background: answers && app.follows_background(),
            tmux: env.tmux,
        };
        Probe { env, mode, ask }
    }

    /// Write the question (before anything else writes: nothing is drawn yet).
    fn write_question(&self, terminal: &mut Term) -> bool {
        use std::io::Write;
        if !self.ask.any() {
            return false;
        }
        let q = crate::probe::query(&self.ask);
        let out = terminal.backend_mut();
        match out.write_all(q.as_bytes()).and_then(|()| out.flush()) {
            Ok(()) => true,
            Err(e) => {
                tracing::warn!("cannot ask the terminal what it draws: {e}");
                false
            }
        }
    }

    /// Use the answer: the graphics it names, the theme for its background.
    fn answered(&self, reply: &crate::probe::Reply, app: &mut App, painter: &mut Painter) {
        if self.ask.graphics {
            let g = crate::picture::answered(self.mode, &self.env, Some(reply));
            if let Some(g) = g {
                tracing::info!("pictures: {} (tmux: {})", g.name(), g.tmux);
            }
            *painter = Painter::new(g);
            app.set_pictures(g);
        }
        if self.ask.background
            && let Some(light) = reply.light()
        {
            app.set_light_background(light);
        }
    }
}

/// Run the browser until the user quits.
pub(crate) async fn run(client: Arc<Client>, start: Option<String>) -> Result<(), TermError> {
    let config = client.config();
    let mut app = App::from_config(&config.tui, config.identity.days)?;
    app.set_web_external(config.web.open_external);
    app.set_work_offline(client.working_offline());
    app.set_system_opener(on_path("xdg-open").then(|| "xdg-open".to_string()));
    app.set_search_engines(smolweb_client::search::choices(&config.search.engine));
    match client.search_engine() {
        Ok(engine) => app.set_search_engine(Some(engine)),
        Err(e) => tracing::warn!("{e}: words in the address bar are read as addresses"),
    }
    // Until the terminal says (if it is asked at all): what the environment says.
    if let Some(light) = std::env::var("COLORFGBG")
        .ok()
        .and_then(|v| crate::probe::light_from_colorfgbg(&v))
    {
        app.set_light_background(light);
    }
    let probe = Probe::new(&app, &config.tui.images);
    let mut painter = Painter::new(crate::picture::provisional(probe.mode, &probe.env));
    app.set_pictures(painter.graphics());
    let mut terminal = setup()?;
    // The question goes out now and is answered in the background: the first frame is drawn
    // at once, and the answer changes the pictures and colours when it comes.
    let asked = probe.write_question(&mut terminal);
    let input = Input::start(asked);
    let mut session = Session::open(&client, start);
    let result = event_loop(
        &mut terminal,
        &mut app,
        &mut painter,
        input,
        &probe,
        &mut session,
        client,
    )
    .await;
    restore();
    session.save(&app);
    result
}

/// The saved session (`[tui] restore_session`): read at start, written at the end.
struct Session {
    store: smolweb_store::session::Session,
    /// What was saved, to restore now (None: nothing, or restoring is off).
    saved: Option<smolweb_store::session::SavedSession>,
    /// The page asked for on the command line.
    start: Option<String>,
    /// Why the saved session could not be read: said at start, and then it is not written
    /// over (the file is the person's to look at).
    unreadable: Option<String>,
    on: bool,
    private: bool,
}

impl Session {
    fn open(client: &Client, start: Option<String>) -> Session {
        let tui = &client.config().tui;
        let store = smolweb_store::session::Session::new(client.paths().session());
        let (saved, unreadable) = match tui.restore_session.then(|| store.load()) {
            None => (None, None),
            Some(Ok(saved)) => (saved, None),
            Some(Err(e)) => (
                None,
                Some(format!(
                    "the last session was not restored: {e}; the file is left as it is and \
                     this session will not be saved over it"
                )),
            ),
        };
        Session {
            store,
            saved,
            start,
            unreadable,
            on: tui.restore_session,
            private: tui.restore_private_pages,
        }
    }

    /// The first tabs: the saved ones (and the page asked for in a new tab), else that page
    /// or home.
    fn begin(&mut self, app: &mut App) -> Vec<crate::app::Effect> {
        let start = self.start.take();
        let fx = match self.saved.take() {
            Some(saved) => app.restore(saved, start),
            None => app.start(start),
        };
        if let Some(why) = &self.unreadable {
            app.report(why.clone());
        }
        fx
    }

    /// Keep the tabs for the next start (never over a file that could not be read).
    fn save(&self, app: &App) {
        if !self.on || self.unreadable.is_some() {
            return;
        }
        if let Err(e) = self.store.save(&app.saved_session(self.private)) {
            tracing::warn!("the session was not saved for the next start: {e}");
        }
    }
}

/// Is `program` an executable file in a directory of `$PATH`?
fn on_path(program: &str) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::env::var_os("PATH").is_some_and(|path| {
        std::env::split_paths(&path).any(|dir| {
            std::fs::metadata(dir.join(program))
                .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        })
    })
}

/// Translate a terminal event into a message.
pub(crate) fn translate(ev: Event) -> Option<Msg> {
    match ev {
        Event::Key(k) if k.kind != KeyEventKind::Release => {
            let code = match k.code {
                KeyCode::Char(c) => Code::Char(c),
                KeyCode::Enter => Code::Enter,
                KeyCode::Esc => Code::Esc,
                KeyCode::Tab => Code::Tab,
                KeyCode::BackTab => Code::BackTab,
                KeyCode::Backspace => Code::Backspace,
                KeyCode::Delete => Code::Delete,
                KeyCode::Up => Code::Up,
                KeyCode::Down => Code::Down,
                KeyCode::Left => Code::Left,
                KeyCode::Right => Code::Right,
                KeyCode::Home => Code::Home,
                KeyCode::End => Code::End,
                KeyCode::PageUp => Code::PageUp,
                KeyCode::PageDown => Code::PageDown,
                KeyCode::F(n) => Code::F(n),
                _ => return None,
            };
            Some(Msg::Key(Key {
                code,
                ctrl: k.modifiers.contains(KeyModifiers::CONTROL),
                alt: k.modifiers.contains(KeyModifiers::ALT),
            }))
        }
        Event::Mouse(m) => match m.kind {
            MouseEventKind::Down(MouseButton::Left) => Some(Msg::Click {
                col: m.column,
                row: m.row,
            }),
            MouseEventKind::Moved => Some(Msg::Hover {
                col: m.column,
                row: m.row,
            }),
            MouseEventKind::ScrollDown => Some(Msg::Wheel(1)),
            MouseEventKind::ScrollUp => Some(Msg::Wheel(-1)),
            _ => None,
        },
        Event::Resize(width, height) => Some(Msg::Resize { width, height }),
        Event::Paste(s) => Some(Msg::Paste(s)),
        _ => None,
    }
}

/// Run the effects, then hand the terminal to the editor for each text the app asked to
/// edit, and give it the answers (which may ask for more).
fn run_effects(
    terminal: &mut Term,
    input: &mut Input,
    app: &mut App,
    shell: &mut effects::Shell,
    fx: Vec<crate::app::Effect>,
) {
    shell.run(app, fx);
    while let Some((purpose, initial)) = shell.take_edit() {
        let result = hand_to_editor(terminal, input, &initial);
        let fx = app.update(Msg::Edited { purpose, result });
        shell.run(app, fx);
    }
}

/// Leave the alternate screen and raw mode, stop reading keys, run the editor, then take the
/// terminal back and draw it whole. The loop waits meanwhile (fetch tasks go on).
fn hand_to_editor(
    terminal: &mut Term,
    input: &mut Input,
    initial: &str,
) -> Result<String, crate::app::ShellError> {
    input.pause();
    restore();
    let result = editor::edit(initial);
    let back = enter().and_then(|()| terminal.clear());
    input.resume();
    if let Err(e) = back {
        // What was written is still sent; the next draw reports a terminal that is gone.
        tracing::warn!("cannot take the terminal back from the editor: {e}");
    }
    result
}

async fn event_loop(
    terminal: &mut Term,
    app: &mut App,
    painter: &mut Painter,
    mut input: Input,
    probe: &Probe,
    session: &mut Session,
    client: Arc<Client>,
) -> Result<(), TermError> {
    let (msg_tx, mut msg_rx) = mpsc::unbounded_channel::<Msg>();
    let mut shell = effects::Shell::new(client, msg_tx);
    let begun = Instant::now();
    app.set_started(time::OffsetDateTime::now_utc());
    let size = terminal.size().map_err(TermError::Draw)?;
    app.update(Msg::Resize {
        width: size.width,
        height: size.height,
    });
    let fx = session.begin(app);
    run_effects(terminal, &mut input, app, &mut shell, fx);
    shell.poll_stores();
    let mut tick = tokio::time::interval(Duration::from_millis(100));
    let mut poll = tokio::time::interval(Duration::from_secs(2));
    let mut sigterm = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        .map_err(TermError::Signal)?;
    let result = loop {
        if let Err(e) = terminal.draw(|f| view::draw_with(f, app, Some(&mut *painter))) {
            break Err(TermError::Draw(e));
        }
        if app.has_quit() {
            break Ok(());
        }
        let msg = tokio::select! {
            ev = input.rx.recv() => match ev {
                Some(Incoming::Event(ev)) => translate(ev),
                Some(Incoming::Key(key)) => Some(Msg::Key(key)),
                Some(Incoming::Answer(reply)) => {
                    probe.answered(&reply, app, painter);
                    // A resize while the answer was read was not seen: look again.
                    terminal.size().ok().map(|s| Msg::Resize {
                        width: s.width,
                        height: s.height,
                    })
                }
                None => break Err(TermError::InputClosed),
            },
            Some(m) = msg_rx.recv() => Some(m),
            _ = tick.tick() => {
                shell.report_progress();
                Some(Msg::Tick(begun.elapsed().as_millis() as u64))
            }
            _ = poll.tick() => {
                shell.poll_stores();
                None
            }
            _ = sigterm.recv() => break Ok(()),
        };
        if let Some(msg) = msg {
            let fx = app.update(msg);
            run_effects(terminal, &mut input, app, &mut shell, fx);
        }
    };
    input.stop();
    shell.abort_all();
    shell.leave();
    result
}
