//! The terminal shell: raw mode and the alternate screen, the event loop, and the effects of
//! [`App::update`] carried out (fetches in tasks, store changes, external programs).
//!
//! Invariants: the terminal is restored on quit, on error, on panic (a hook restores it before
//! the message prints) and on SIGTERM. Key reading runs on its own thread, fetches in tokio
//! tasks; the loop itself never waits on IO, so the screen keeps answering while pages load.

mod editor;
mod effects;

use crate::app::{App, Msg};
use crate::keymap::{Code, Key};
use crate::view;
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use ratatui::crossterm::event::{
    self, DisableBracketedPaste, DisableMouseCapture, EnableBracketedPaste, EnableMouseCapture,
    Event, KeyCode, KeyEventKind, KeyModifiers, MouseButton, MouseEventKind,
};
use ratatui::crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use ratatui::crossterm::{cursor, execute};
use smolweb_client::Client;
use std::io::Stdout;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
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

/// Run the browser until the user quits.
pub(crate) async fn run(client: Arc<Client>, start: Option<String>) -> Result<(), TermError> {
    let config = client.config();
    let mut app = App::from_config(&config.tui, config.identity.days)?;
    app.set_web_external(config.web.open_external);
    app.set_work_offline(client.working_offline());
    let mut terminal = setup()?;
    // Asked once, in raw mode, before the key reader starts (it would take the reply).
    let mode = crate::picture::Mode::parse(&config.tui.images).unwrap_or_else(|| {
        tracing::warn!("[tui] images = {:?} is not a mode: auto", config.tui.images);
        crate::picture::Mode::Auto
    });
    let mut painter = crate::picture::Painter::new(crate::picture::detect(mode));
    app.set_pictures(painter.graphics());
    let result = event_loop(&mut terminal, &mut app, &mut painter, client, start).await;
    restore();
    result
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

/// The thread that reads the terminal's events, which can be paused while another program
/// (the editor) owns the terminal, so that no key meant for it is taken.
struct Input {
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
    rx: mpsc::UnboundedReceiver<Event>,
}

impl Input {
    fn start() -> Input {
        let stop = Arc::new(AtomicBool::new(false));
        let (rx, thread) = spawn_input(Arc::clone(&stop));
        Input {
            stop,
            thread: Some(thread),
            rx,
        }
    }

    /// Stop reading (returns once the thread has ended: it looks at the flag every 100 ms).
    fn pause(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }

    /// Read again, on a new thread and channel (events of before the pause are dropped).
    fn resume(&mut self) {
        self.pause();
        *self = Input::start();
    }
}

fn spawn_input(
    stop: Arc<AtomicBool>,
) -> (mpsc::UnboundedReceiver<Event>, std::thread::JoinHandle<()>) {
    let (tx, rx) = mpsc::unbounded_channel();
    let thread = std::thread::spawn(move || {
        while !stop.load(Ordering::Relaxed) {
            match event::poll(Duration::from_millis(100)) {
                Ok(true) => match event::read() {
                    Ok(ev) => {
                        if tx.send(ev).is_err() {
                            break;
                        }
                    }
                    Err(_) => break,
                },
                Ok(false) => {}
                Err(_) => break,
            }
        }
    });
    (rx, thread)
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
    painter: &mut crate::picture::Painter,
    client: Arc<Client>,
    start: Option<String>,
) -> Result<(), TermError> {
    let mut input = Input::start();
    let (msg_tx, mut msg_rx) = mpsc::unbounded_channel::<Msg>();
    let mut shell = effects::Shell::new(client, msg_tx);
    let begun = Instant::now();
    app.set_started(time::OffsetDateTime::now_utc());
    let size = terminal.size().map_err(TermError::Draw)?;
    app.update(Msg::Resize {
        width: size.width,
        height: size.height,
    });
    let fx = app.start(start);
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
                Some(ev) => translate(ev),
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
    input.stop.store(true, Ordering::Relaxed);
    shell.abort_all();
    shell.leave();
    result
}
