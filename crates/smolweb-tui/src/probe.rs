//! What the terminal says about itself: the graphics it draws (kitty's graphics query, the
//! sixel attribute of its device attributes), its cell size in pixels, and its background
//! colour (OSC 11, for `[tui] theme = "auto"`). Pure: the query to write, and a reader of
//! what comes back on stdin.
//!
//! The question is asked once, after the terminal is set up, and answered in the background:
//! the first frame never waits for it. Until the answer is in (or its time is up) the shell
//! reads stdin through [`Reader`], which sorts the bytes into the terminal's replies and the
//! keys the person typed meanwhile, so no key is lost and no reply reaches the page as keys.
//!
//! Invariants: the query ends with a status report (DSR) that every terminal answers last,
//! so a terminal that answers is known as soon as it has; inside tmux the questions for the
//! outer terminal are wrapped for passthrough (tmux drops them unless the person allowed
//! it, and then the time bound ends the wait). The reader keeps at most [`MAX_PENDING`]
//! bytes of an unfinished sequence.

use crate::keymap::{Code, Key};
use std::time::Duration;

/// How long the terminal has to answer (the page is drawn and fetched meanwhile).
pub const TIMEOUT: Duration = Duration::from_millis(500);
/// The most bytes of one unfinished escape sequence kept between reads.
pub const MAX_PENDING: usize = 4096;

/// What to ask.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Ask {
    /// The graphics protocols and the cell size (`[tui] images = "auto"`).
    pub graphics: bool,
    /// The background colour (`[tui] theme` base `auto`).
    pub background: bool,
    /// Inside tmux: the questions are wrapped for the outer terminal.
    pub tmux: bool,
}

impl Ask {
    /// Is there anything to ask?
    pub fn any(&self) -> bool {
        self.graphics || self.background
    }
}

/// The escapes that ask the terminal what `ask` wants, ending with the status report.
pub fn query(ask: &Ask) -> String {
    let (start, esc, end) = if ask.tmux {
        ("\x1bPtmux;", "\x1b\x1b", "\x1b\\")
    } else {
        ("", "\x1b", "")
    };
    let mut q = String::new();
    if ask.tmux && ask.background {
        // A newer tmux answers for its pane itself; the wrapped question asks the terminal.
        q.push_str("\x1b]11;?\x1b\\");
    }
    q.push_str(start);
    if ask.graphics {
        // Kitty's graphics query (one pixel, answered OK by kitty-capable terminals), the
        // primary device attributes (4: sixel) and the cell size in pixels.
        q.push_str(&format!("{esc}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA{esc}\\"));
        q.push_str(&format!("{esc}[c{esc}[16t"));
    }
    if ask.background {
        q.push_str(&format!("{esc}]11;?{esc}\\"));
    }
    q.push_str(&format!("{esc}[5n"));
    q.push_str(end);
    q
}

/// What the terminal answered.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reply {
    /// It answered kitty's graphics query with OK.
    pub kitty: bool,
    /// Its primary device attributes list 4 (sixel).
    pub sixel: bool,
    /// Its cell size in pixels (width, height), when it said.
    pub cell: Option<(u16, u16)>,
    /// Its background colour (8 bits a channel), when it said.
    pub background: Option<(u8, u8, u8)>,
    /// Its status report (the query's last question) came back: the whole reply is in.
    pub complete: bool,
}

impl Reply {
    /// Is the background light? None when the terminal did not say.
    pub fn light(&self) -> Option<bool> {
        self.background.map(|(r, g, b)| is_light(r, g, b))
    }
}

/// A colour is light when its relative luminance (sRGB weights, linear enough for the
/// question) is over half.
fn is_light(r: u8, g: u8, b: u8) -> bool {
    let y = 2126 * u32::from(r) + 7152 * u32::from(g) + 722 * u32::from(b);
    y > 10_000 * 255 / 2
}

/// What `COLORFGBG` (set by rxvt, Konsole and others: "15;0" is white on black) says of the
/// background: light for the light basic colours (7, 9 to 15 but 8), None when unset or not
/// understood.
pub fn light_from_colorfgbg(value: &str) -> Option<bool> {
    let bg: u8 = value.rsplit(';').next()?.trim().parse().ok()?;
    Some(matches!(bg, 7 | 9..=15))
}

/// Read a whole reply (any bytes; keys and what is not understood are skipped).
pub fn parse_reply(bytes: &[u8]) -> Reply {
    let mut r = Reader::default();
    r.push(bytes);
    r.finish();
    r.reply
}

/// Sorts what stdin gives while the question is out: the terminal's replies go into
/// [`Reader::reply`], keys come back in order.
#[derive(Debug, Default)]
pub struct Reader {
    /// What the terminal answered so far.
    pub reply: Reply,
    pending: Vec<u8>,
}

/// What one sequence at the front of the buffer is.
enum Step {
    /// Needs more bytes.
    More,
    /// `n` bytes used, maybe giving a key.
    Used(usize, Option<Key>),
}

impl Reader {
    /// Take more bytes; returns the keys among them (an unfinished sequence waits for the
    /// next bytes).
    pub fn push(&mut self, bytes: &[u8]) -> Vec<Key> {
        self.pending.extend_from_slice(bytes);
        let mut keys = Vec::new();
        let mut at = 0;
        while at < self.pending.len() {
            match self.step(at) {
                Step::More => break,
                Step::Used(n, key) => {
                    keys.extend(key);
                    at += n.max(1);
                }
            }
        }
        self.pending.drain(..at);
        if self.pending.len() > MAX_PENDING {
            self.pending.clear();
        }
        keys
    }

    /// The time is up: a lone escape byte left was the Esc key; an unfinished sequence is
    /// dropped.
    pub fn finish(&mut self) -> Vec<Key> {
        let keys = if self.pending == [0x1b] {
            vec![Key::plain(Code::Esc)]
        } else {
            Vec::new()
        };
        self.pending.clear();
        keys
    }

    fn step(&mut self, at: usize) -> Step {
        let buf = &self.pending[at..];
        match buf[0] {
            0x1b => self.escape(at),
            b'\r' | b'\n' => Step::Used(1, Some(Key::plain(Code::Enter))),
            b'\t' => Step::Used(1, Some(Key::plain(Code::Tab))),
            0x7f | 0x08 => Step::Used(1, Some(Key::plain(Code::Backspace))),
            c @ 0x01..=0x1a => Step::Used(1, Some(Key::ctrl(char::from(b'a' + c - 1)))),
            0x00..=0x1f => Step::Used(1, None),
            _ => match utf8_char(buf) {
                Some((c, n)) => Step::Used(n, Some(Key::ch(c))),
                None if buf.len() < 4 && utf8_start(buf[0]) => Step::More,
                None => Step::Used(1, None),
            },
        }
    }

    /// A sequence that starts with ESC at `at`.
    fn escape(&mut self, at: usize) -> Step {
        let buf = &self.pending[at..];
        let Some(&kind) = buf.get(1) else {
            return Step::More;
        };
        match kind {
            b'[' => {
                let Some(end) = buf[2..].iter().position(|b| (0x40..=0x7e).contains(b)) else {
                    return Step::More;
                };
                let params = String::from_utf8_lossy(&buf[2..2 + end]).into_owned();
                let fin = buf[2 + end];
                let key = self.csi(&params, fin);
                Step::Used(3 + end, key)
            }
            b']' | b'_' | b'P' => {
                // Ends with BEL (OSC only) or ST (ESC \).
                let body = &buf[2..];
                let bel = (kind == b']')
                    .then(|| body.iter().position(|&b| b == 0x07).map(|i| (i, 1)))
                    .flatten();
                let st = body.windows(2).position(|w| w == b"\x1b\\").map(|i| (i, 2));
                let Some((len, term)) = [bel, st].into_iter().flatten().min() else {
                    return Step::More;
                };
                let text = String::from_utf8_lossy(&body[..len]).into_owned();
                match kind {
                    b']' => self.osc(&text),
                    b'_' => self.apc(&text),
                    _ => {}
                }
                Step::Used(2 + len + term, None)
            }
            b'O' => {
                let Some(&c) = buf.get(2) else {
                    return Step::More;
                };
                let code = match c {
                    b'A' => Some(Code::Up),
                    b'B' => Some(Code::Down),
                    b'C' => Some(Code::Right),
                    b'D' => Some(Code::Left),
                    b'H' => Some(Code::Home),
                    b'F' => Some(Code::End),
                    b'P'..=b'S' => Some(Code::F(c - b'P' + 1)),
                    _ => None,
                };
                Step::Used(3, code.map(Key::plain))
            }
            0x1b => Step::Used(1, Some(Key::plain(Code::Esc))),
            _ => match utf8_char(&buf[1..]) {
                Some((c, n)) if !c.is_control() => Step::Used(
                    1 + n,
                    Some(Key {
                        code: Code::Char(c),
                        ctrl: false,
                        alt: true,
                    }),
                ),
                None if buf.len() < 5 && utf8_start(buf[1]) => Step::More,
                _ => Step::Used(1, Some(Key::plain(Code::Esc))),
            },
        }
    }

    /// A control sequence: a reply (device attributes, status, cell size) or a key.
    fn csi(&mut self, params: &str, fin: u8) -> Option<Key> {
        match fin {
            b'c' if params.starts_with('?') => {
                if params[1..].split(';').any(|p| p == "4") {
                    self.reply.sixel = true;
                }
                None
            }
            b'n' if params == "0" => {
                self.reply.complete = true;
                None
            }
            b't' => {
                let mut it = params.split(';');
                if it.next() == Some("6")
                    && let (Some(Ok(h)), Some(Ok(w))) =
                        (it.next().map(str::parse::<u16>), it.next().map(str::parse))
                    && h > 0
                    && w > 0
                {
                    self.reply.cell = Some((w, h));
                }
                None
            }
            _ if params.starts_with(['<', '?', '>']) => None,
            _ => csi_key(params, fin),
        }
    }

    fn osc(&mut self, text: &str) {
        if let Some(rgb) = text.strip_prefix("11;").and_then(parse_rgb) {
            self.reply.background = Some(rgb);
        }
    }

    fn apc(&mut self, text: &str) {
        if let Some(rest) = text.strip_prefix("Gi=31")
            && rest.split(';').nth(1) == Some("OK")
        {
            self.reply.kitty = true;
        }
    }
}

/// A key written as a control sequence (arrows, Home, End, Delete, the page keys, with Alt
/// or Ctrl as xterm marks them: `1;3D` is Alt-Left).
fn csi_key(params: &str, fin: u8) -> Option<Key> {
    let mut it = params.split(';');
    let first = it.next().unwrap_or("");
    let modifier: u8 = it.next().and_then(|m| m.parse().ok()).unwrap_or(1);
    let code = match (fin, first) {
        (b'A', _) => Code::Up,
        (b'B', _) => Code::Down,
        (b'C', _) => Code::Right,
        (b'D', _) => Code::Left,
        (b'H', _) | (b'~', "1" | "7") => Code::Home,
        (b'F', _) | (b'~', "4" | "8") => Code::End,
        (b'Z', _) => Code::BackTab,
        (b'~', "3") => Code::Delete,
        (b'~', "5") => Code::PageUp,
        (b'~', "6") => Code::PageDown,
        _ => return None,
    };
    let bits = modifier.saturating_sub(1);
    Some(Key {
        code,
        alt: bits & 2 != 0,
        ctrl: bits & 4 != 0,
    })
}

/// `rgb:R/G/B` with 1 to 4 hex digits a channel, scaled to 8 bits.
fn parse_rgb(text: &str) -> Option<(u8, u8, u8)> {
    let body = text.strip_prefix("rgb:")?;
    let mut channels = body.split('/').map(|h| {
        let digits = h.len();
        if !(1..=4).contains(&digits) {
            return None;
        }
        let v = u32::from_str_radix(h, 16).ok()?;
        let max = (1u32 << (4 * digits)) - 1;
        u8::try_from(v * 255 / max).ok()
    });
    let rgb = (channels.next()??, channels.next()??, channels.next()??);
    channels.next().is_none().then_some(rgb)
}

/// Can this byte start a UTF-8 character of more than one byte?
fn utf8_start(b: u8) -> bool {
    (0xc2..=0xf4).contains(&b)
}

/// The character at the start of `buf` and its length, when whole and valid.
fn utf8_char(buf: &[u8]) -> Option<(char, usize)> {
    let n = match buf.first()? {
        0x00..=0x7f => 1,
        0xc2..=0xdf => 2,
        0xe0..=0xef => 3,
        0xf0..=0xf4 => 4,
        _ => return None,
    };
    let s = std::str::from_utf8(buf.get(..n)?).ok()?;
    Some((s.chars().next()?, n))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn k(name: &str) -> Key {
        Key::parse(name).unwrap()
    }

    #[test]
    fn replies_are_read_and_keys_kept_in_order() {
        let mut r = Reader::default();
        // Keys typed before the reply, the reply in pieces, keys after it.
        let mut keys = r.push(b"j\x1b[B\x1b_Gi=31;O");
        keys.extend(r.push(b"K\x1b\\\x1b[?62;4c\x1b[6;18;9t\x1b]11;rgb:ffff/ffff/f0f0\x1b\\"));
        keys.extend(r.push("q é\r\x1b[0n\x1b[1;3D\x09\x7f\x04".as_bytes()));
        keys.extend(r.finish());
        assert_eq!(
            keys,
            [
                k("j"),
                k("down"),
                k("q"),
                k("space"),
                k("é"),
                k("enter"),
                k("alt-left"),
                k("tab"),
                k("backspace"),
                k("ctrl-d")
            ]
        );
        let want = Reply {
            kitty: true,
            sixel: true,
            cell: Some((9, 18)),
            background: Some((255, 255, 240)),
            complete: true,
        };
        assert_eq!(r.reply, want);
        assert_eq!(r.reply.light(), Some(true));
    }

    #[test]
    fn an_escape_at_the_end_waits_then_is_the_esc_key() {
        let mut r = Reader::default();
        assert!(r.push(b"\x1b").is_empty(), "maybe the start of a reply");
        assert_eq!(r.finish(), [k("esc")]);
        let mut r = Reader::default();
        assert!(r.push(b"\x1b").is_empty());
        assert_eq!(r.push(b"[A"), [k("up")], "it was an arrow");
        assert_eq!(r.push(b"\x1bx"), [k("alt-x")]);
        assert_eq!(r.push(b"\x1b\x1b[C"), [k("esc"), k("right")]);
        // A character cut between reads waits for its other bytes.
        assert!(r.push(&"é".as_bytes()[..1]).is_empty());
        assert_eq!(r.push(&"é".as_bytes()[1..]), [k("é")]);
    }

    #[test]
    fn backgrounds_in_every_digit_count() {
        for (text, want) in [
            ("11;rgb:0000/0000/0000", Some((0, 0, 0))),
            ("11;rgb:ff/ff/ff", Some((255, 255, 255))),
            ("11;rgb:f/f/f", Some((255, 255, 255))),
            ("11;rgb:fdfd/f6f6/e3e3", Some((253, 246, 227))),
            ("11;rgb:1e1e/1e1e/2e2e", Some((30, 30, 46))),
            ("11;rgb:12345/0/0", None),
            ("11;rgb:00/00", None),
            ("11;rgba:00/00/00/ff", None),
            ("10;rgb:ff/ff/ff", None),
        ] {
            let mut r = Reader::default();
            r.push(format!("\x1b]{text}\x07").as_bytes());
            assert_eq!(r.reply.background, want, "{text}");
        }
        let light = |rgb: (u8, u8, u8)| is_light(rgb.0, rgb.1, rgb.2);
        assert!(light((253, 246, 227)), "solarized light");
        assert!(!light((0, 43, 54)), "solarized dark");
        assert!(!light((112, 112, 112)), "a gray under the middle is dark");
        assert!(light((160, 160, 160)), "one over it is light");
        assert_eq!(light_from_colorfgbg("0;15"), Some(true));
        assert_eq!(light_from_colorfgbg("15;default;0"), Some(false));
        assert_eq!(light_from_colorfgbg("7;8"), Some(false));
        assert_eq!(light_from_colorfgbg("nonsense"), None);
    }

    #[test]
    fn the_query_asks_what_is_wanted_and_ends_with_the_status_report() {
        let all = Ask {
            graphics: true,
            background: true,
            tmux: false,
        };
        let q = query(&all);
        assert!(q.contains("\x1b_Gi=31") && q.contains("\x1b[c") && q.contains("\x1b]11;?"));
        assert!(q.ends_with("\x1b[5n"));
        let q = query(&Ask {
            graphics: false,
            ..all
        });
        assert!(!q.contains("_Gi=31") && !q.contains("[c") && q.contains("]11;?"));
        let q = query(&Ask { tmux: true, ..all });
        assert!(q.starts_with("\x1b]11;?\x1b\\\x1bPtmux;"), "{q:?}");
        assert!(q.ends_with("\x1b\x1b[5n\x1b\\"));
        assert!(!Ask::default().any());
    }

    #[test]
    fn noise_never_panics_and_stays_bounded() {
        let mut r = Reader::default();
        let mut bytes = b"\x1b]".to_vec();
        bytes.extend(std::iter::repeat_n(b'x', MAX_PENDING + 10));
        assert!(r.push(&bytes).is_empty());
        assert!(r.pending.is_empty(), "an endless sequence is dropped");
        for b in 0..=255u8 {
            r.push(&[0x1b, b, 0x1b, b'[', b]);
            r.push(&[b, 0xff, 0xc3]);
        }
        r.finish();
    }
}
