//! The thread that reads the terminal: first the answer to the start-up question (see
//! [`crate::probe`]), with the keys typed meanwhile, then crossterm's events. It can be
//! paused while another program (the editor) owns the terminal, so that no key meant for it
//! is taken.
//!
//! Invariants: one reader of stdin at a time (the answer is read before crossterm's reader
//! starts, on the same thread); stdin's read timeout is set for the answer's read only and
//! put back before crossterm reads; the thread looks at its stop flag at least every 100 ms.

use crate::keymap::Key;
use crate::probe::{Reader, Reply, TIMEOUT};
use ratatui::crossterm::event::{self, Event};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use tokio::sync::mpsc;

/// What the reader gives the event loop.
#[derive(Debug)]
pub(super) enum Incoming {
    /// A terminal event, read by crossterm.
    Event(Event),
    /// A key typed while the answer was read.
    Key(Key),
    /// The terminal's answer (what came in time; empty when nothing did).
    Answer(Reply),
}

pub(super) struct Input {
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
    pub(super) rx: mpsc::UnboundedReceiver<Incoming>,
}

impl Input {
    /// Start reading; `answer`: the question was just written, read its answer first.
    pub(super) fn start(answer: bool) -> Input {
        let stop = Arc::new(AtomicBool::new(false));
        let (tx, rx) = mpsc::unbounded_channel();
        let flag = Arc::clone(&stop);
        let thread = std::thread::spawn(move || {
            if answer {
                let reply = read_answer(&flag, &tx);
                if tx.send(Incoming::Answer(reply)).is_err() {
                    return;
                }
            }
            read_events(&flag, &tx);
        });
        Input {
            stop,
            thread: Some(thread),
            rx,
        }
    }

    /// Stop reading (returns once the thread has ended).
    pub(super) fn pause(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }

    /// Read again, on a new thread and channel (events of before the pause are dropped).
    pub(super) fn resume(&mut self) {
        self.pause();
        *self = Input::start(false);
    }

    /// Ask the thread to end (the loop is over).
    pub(super) fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

fn read_events(stop: &AtomicBool, tx: &mpsc::UnboundedSender<Incoming>) {
    while !stop.load(Ordering::Relaxed) {
        match event::poll(Duration::from_millis(100)) {
            Ok(true) => match event::read() {
                Ok(ev) => {
                    if tx.send(Incoming::Event(ev)).is_err() {
                        break;
                    }
                }
                Err(_) => break,
            },
            Ok(false) => {}
            Err(_) => break,
        }
    }
}

/// Read stdin until the terminal's status report, the time bound or the stop flag; keys
/// found among the bytes are sent on at once. Anything that goes wrong ends the read with
/// what came so far.
fn read_answer(stop: &AtomicBool, tx: &mpsc::UnboundedSender<Incoming>) -> Reply {
    use rustix::termios::{OptionalActions, SpecialCodeIndex, tcgetattr, tcsetattr};
    use std::io::Read;
    let stdin = std::io::stdin();
    let mut reader = Reader::default();
    let Ok(before) = tcgetattr(&stdin) else {
        return reader.reply;
    };
    // Reads return after 100 ms without a byte, so the time bound and the flag are seen.
    let mut timed = before.clone();
    timed.special_codes[SpecialCodeIndex::VMIN] = 0;
    timed.special_codes[SpecialCodeIndex::VTIME] = 1;
    if tcsetattr(&stdin, OptionalActions::Now, &timed).is_err() {
        return reader.reply;
    }
    let started = Instant::now();
    let mut buf = [0u8; 512];
    let mut lock = stdin.lock();
    while started.elapsed() < TIMEOUT && !stop.load(Ordering::Relaxed) {
        let n = match lock.read(&mut buf) {
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        for key in reader.push(&buf[..n]) {
            let _ = tx.send(Incoming::Key(key));
        }
        if reader.reply.complete {
            break;
        }
    }
    for key in reader.finish() {
        let _ = tx.send(Incoming::Key(key));
    }
    drop(lock);
    if let Err(e) = tcsetattr(&stdin, OptionalActions::Now, &before) {
        tracing::warn!("cannot put stdin's settings back after the terminal's answer: {e}");
    }
    tracing::info!(
        "the terminal answered in {} ms: {:?}",
        started.elapsed().as_millis(),
        reader.reply
    );
    reader.reply
}
