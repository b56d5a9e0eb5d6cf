//! Pictures in the terminal: which graphics protocol to use (from the config, the
//! environment and what the terminal answered, see [`crate::probe`]), decoding an image off
//! the UI thread within pixel and byte bounds, and painting a decoded image into a screen
//! area with `ratatui-image` (kitty graphics, sixel, the iTerm2 protocol, or half-block
//! characters everywhere else).
//!
//! Invariants: nothing here changes the terminal's or tmux's settings; a declared size over
//! [`MAX_PIXELS`] is refused before any pixel is decoded; every decoder runs under
//! `image::Limits`, so no remote file makes the browser allocate without bound.

pub use crate::probe::Reply;
use image::{DynamicImage, ImageFormat, ImageReader, Limits};
use ratatui::buffer::Buffer;
use ratatui::layout::{Rect, Size};
use ratatui::widgets::Widget;
use ratatui_image::picker::ProtocolType;
use ratatui_image::protocol::Protocol;
use ratatui_image::protocol::halfblocks::Halfblocks;
use ratatui_image::protocol::iterm2::Iterm2;
use ratatui_image::protocol::kitty::Kitty;
use ratatui_image::protocol::sixel::Sixel;
use ratatui_image::{FontSize, Image, Resize};
use std::collections::HashMap;
use std::io::Cursor;
use std::sync::Arc;

/// The most pixels a picture may declare (width × height): 40 megapixels.
pub const MAX_PIXELS: u64 = 40_000_000;
/// The widest or tallest a picture may declare, in pixels.
pub const MAX_SIDE: u32 = 30_000;
/// Decoded pictures are kept at most this wide and tall (larger ones are scaled down once,
/// on the worker): enough for any terminal, and a bound on what the cache holds.
pub const KEPT_SIDE: u32 = 2048;
/// The environment variable that overrides `[tui] images`.
pub const ENV_VAR: &str = "SMOLWEB_IMAGES";

/// `[tui] images` / `SMOLWEB_IMAGES`: which protocol, or none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Ask the terminal (half-blocks when it names nothing better).
    Auto,
    /// Kitty graphics (with unicode placeholders inside tmux).
    Kitty,
    /// Sixel.
    Sixel,
    /// The iTerm2 inline image protocol.
    Iterm2,
    /// Half-block characters (`▀`/`▄` with two colours): works everywhere.
    Halfblocks,
    /// No pictures: image links are offered as downloads, as before.
    Off,
}

impl Mode {
    /// The mode named `s` (case-insensitive), if any.
    pub fn parse(s: &str) -> Option<Mode> {
        Some(match s.trim().to_ascii_lowercase().as_str() {
            "auto" | "" => Mode::Auto,
            "kitty" => Mode::Kitty,
            "sixel" => Mode::Sixel,
            "iterm2" | "iterm" => Mode::Iterm2,
            "halfblocks" | "halfblock" | "blocks" => Mode::Halfblocks,
            "off" | "none" | "no" | "false" => Mode::Off,
            _ => return None,
        })
    }
}

/// What the browser draws pictures with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Graphics {
    /// The protocol.
    pub protocol: ProtocolType,
    /// The terminal's cell size in pixels (width, height).
    pub cell: (u16, u16),
    /// Inside tmux: escapes are wrapped for passthrough, kitty uses unicode placeholders.
    pub tmux: bool,
}

impl Graphics {
    /// Half-blocks, which every terminal shows.
    pub fn halfblocks() -> Graphics {
        Graphics {
            protocol: ProtocolType::Halfblocks,
            cell: (10, 20),
            tmux: false,
        }
    }

    /// The protocol's name, as `[tui] images` spells it.
    pub fn name(&self) -> &'static str {
        match self.protocol {
            ProtocolType::Halfblocks => "halfblocks",
            ProtocolType::Sixel => "sixel",
            ProtocolType::Kitty => "kitty",
            ProtocolType::Iterm2 => "iterm2",
        }
    }
}

/// What the environment says about the terminal.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TermEnv {
    /// `$TERM`.
    pub term: Option<String>,
    /// `$TMUX` is set (or `$TERM` names tmux/screen).
    pub tmux: bool,
    /// Stdout and stdin are terminals.
    pub tty: bool,
    /// `SMOLWEB_IMAGES`, when set.
    pub override_mode: Option<String>,
}

impl TermEnv {
    /// The mode in force: `SMOLWEB_IMAGES` when it names one, else the config's.
    fn mode(&self, config_mode: Mode) -> Mode {
        self.override_mode
            .as_deref()
            .and_then(Mode::parse)
            .unwrap_or(config_mode)
    }

    /// No `$TERM`, an empty one or `dumb`: a terminal that draws no graphics and answers
    /// no question.
    pub fn dumb(&self) -> bool {
        self.term
            .as_deref()
            .is_none_or(|t| t.is_empty() || t == "dumb")
    }

    /// Read from this process's environment.
    pub fn from_process() -> TermEnv {
        use std::io::IsTerminal;
        let term = std::env::var("TERM").ok();
        let tmux = std::env::var_os("TMUX").is_some()
            || term
                .as_deref()
                .is_some_and(|t| t.starts_with("tmux") || t.starts_with("screen"));
        TermEnv {
            term,
            tmux,
            tty: std::io::stdout().is_terminal() && std::io::stdin().is_terminal(),
            override_mode: std::env::var(ENV_VAR).ok(),
        }
    }
}

/// The graphics to use, from the config's mode, the environment and, in auto mode, the
/// terminal's reply (None when it was not asked or said nothing). `None` means no pictures.
pub fn choose(config_mode: Mode, env: &TermEnv, reply: Option<&Reply>) -> Option<Graphics> {
    let mode = env.mode(config_mode);
    let dumb = env.dumb();
    let cell = reply.and_then(|r| r.cell).unwrap_or((10, 20));
    let protocol = match mode {
        Mode::Off => return None,
        // No terminal to ask, or one that draws no graphics: half-blocks.
        _ if !env.tty || dumb => ProtocolType::Halfblocks,
        Mode::Kitty => ProtocolType::Kitty,
        Mode::Sixel => ProtocolType::Sixel,
        Mode::Iterm2 => ProtocolType::Iterm2,
        Mode::Halfblocks => ProtocolType::Halfblocks,
        Mode::Auto => match reply {
            Some(r) if r.kitty => ProtocolType::Kitty,
            Some(r) if r.sixel => ProtocolType::Sixel,
            _ => ProtocolType::Halfblocks,
        },
    };
    Some(Graphics {
        protocol,
        cell,
        tmux: env.tmux,
    })
}

/// Should the terminal be asked? Only in auto mode, on a terminal that is not dumb.
pub fn should_query(config_mode: Mode, env: &TermEnv) -> bool {
    env.mode(config_mode) == Mode::Auto && env.tty && !env.dumb()
}

/// The graphics in force from the start, before the terminal has answered (or when it is
/// not asked): in auto mode half-blocks, which every terminal draws; the cell size from the
/// terminal's window size in pixels when it reports one.
pub fn provisional(config_mode: Mode, env: &TermEnv) -> Option<Graphics> {
    answered(config_mode, env, None)
}

/// The graphics once the terminal has answered (`reply`; None when it said nothing in time).
pub fn answered(config_mode: Mode, env: &TermEnv, reply: Option<&Reply>) -> Option<Graphics> {
    let mut g = choose(config_mode, env, reply)?;
    if reply.and_then(|r| r.cell).is_none()
        && let Some(cell) = cell_from_winsize()
    {
        g.cell = cell;
    }
    Some(g)
}

/// The cell size from the terminal's window size in pixels, when it reports one.
fn cell_from_winsize() -> Option<(u16, u16)> {
    let ws = rustix::termios::tcgetwinsize(std::io::stdout()).ok()?;
    if ws.ws_xpixel == 0 || ws.ws_ypixel == 0 || ws.ws_col == 0 || ws.ws_row == 0 {
        return None;
    }
    Some((ws.ws_xpixel / ws.ws_col, ws.ws_ypixel / ws.ws_row))
}

/// Why a picture is not shown.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PictureError {
    /// The bytes are no image format this browser decodes.
    #[error("not an image format smolweb decodes")]
    Unknown,
    /// The declared size is over the bounds: refused before decoding (a decompression bomb,
    /// or simply too big).
    #[error(
        "refused: the image declares {width} × {height} px, over the limit of {} megapixels",
        MAX_PIXELS / 1_000_000
    )]
    TooLarge {
        /// Declared width.
        width: u32,
        /// Declared height.
        height: u32,
    },
    /// An inline picture's link gave no picture (a failure, a redirect, a text page...).
    #[error("{0}")]
    NotFetched(String),
    /// The bytes break the format's rules (a checksum that does not match, a file cut
    /// short, data the decoder cannot read). `what` is in plain words: never the decoder's
    /// own dump.
    #[error("the image is damaged ({what})")]
    Damaged {
        /// What is wrong ("PNG checksum error", "the GIF file is cut short").
        what: String,
    },
    /// A valid image of a kind the decoder does not read, or one that needs more memory than
    /// a picture may take.
    #[error("cannot show this {format} image: {why}")]
    Unsupported {
        /// The format's short name ("PNG").
        format: String,
        /// Why, in plain words.
        why: String,
    },
}

/// The format's short name as people write it ("PNG", "JPEG").
fn format_name(format: ImageFormat) -> String {
    format
        .extensions_str()
        .first()
        .map_or_else(|| format!("{format:?}"), |e| e.to_ascii_uppercase())
        .replace("JPG", "JPEG")
}

/// The decoder's error in plain words. The decoders' messages (which may name internal
/// types, as png's `ChunkType { type: IDAT, critical: true, … }`) are read only to tell a
/// checksum error and a cut file from other damage.
fn plain_error(format: ImageFormat, e: &image::ImageError) -> PictureError {
    use image::ImageError;
    let name = format_name(format);
    let damaged = |what: String| PictureError::Damaged { what };
    match e {
        ImageError::Limits(_) => PictureError::Unsupported {
            format: name,
            why: "it needs more memory than a picture may take".into(),
        },
        ImageError::Unsupported(_) => PictureError::Unsupported {
            format: name,
            why: "a kind of it smolweb does not decode".into(),
        },
        ImageError::IoError(io) if io.kind() == std::io::ErrorKind::UnexpectedEof => {
            damaged(format!("the {name} file is cut short"))
        }
        ImageError::Decoding(_) | ImageError::IoError(_) | ImageError::Parameter(_) => {
            let said = e.to_string().to_ascii_lowercase();
            let has = |words: &[&str]| words.iter().any(|w| said.contains(w));
            if has(&["crc", "checksum", "adler"]) {
                damaged(format!("{name} checksum error"))
            } else if has(&[
                "unexpected end",
                "eof",
                "truncated",
                "no more data",
                "end of",
            ]) {
                damaged(format!("the {name} file is cut short"))
            } else {
                damaged(format!("{name} data that cannot be read"))
            }
        }
        ImageError::Encoding(_) => damaged(format!("{name} data that cannot be read")),
    }
}

/// A decoded picture.
#[derive(Clone, Debug)]
pub struct Decoded {
    /// The pixels (scaled down to [`KEPT_SIDE`] when bigger).
    pub image: Arc<DynamicImage>,
    /// The image's own width in pixels.
    pub width: u32,
    /// Its own height.
    pub height: u32,
    /// Its format's MIME type ("image/png").
    pub mime: &'static str,
}

/// Does this link look like a picture by its name (an image extension, before any query or
/// fragment), on a protocol of the small net? Only such links are fetched inline.
pub fn looks_like_picture(url: &str) -> bool {
    const EXT: &[&str] = &[
        "png", "jpg", "jpeg", "gif", "webp", "bmp", "ico", "tif", "tiff", "qoi", "pnm", "ppm",
        "pgm", "pbm",
    ];
    let small = ["gemini://", "gopher://", "gophers://", "spartan://"]
        .iter()
        .any(|s| {
            url.get(..s.len())
                .is_some_and(|p| p.eq_ignore_ascii_case(s))
        });
    let path = url.split(['?', '#']).next().unwrap_or("");
    let name = path.rsplit('/').next().unwrap_or("");
    small
        && name
            .rsplit_once('.')
            .is_some_and(|(_, e)| EXT.iter().any(|x| x.eq_ignore_ascii_case(e)))
}

/// The format of the bytes, when they start like an image `image` decodes.
pub fn sniff(bytes: &[u8]) -> Option<ImageFormat> {
    let f = image::guess_format(bytes).ok()?;
    f.reading_enabled().then_some(f)
}

fn limits() -> Limits {
    let mut l = Limits::default();
    l.max_image_width = Some(MAX_SIDE);
    l.max_image_height = Some(MAX_SIDE);
    // Room for the largest allowed picture at 16 bits per channel, and no more.
    l.max_alloc = Some(MAX_PIXELS * 8);
    l
}

/// Decode a picture: its declared size is read and checked first, then it is decoded under
/// the limits (the first frame of an animation) and scaled down to [`KEPT_SIDE`].
pub fn decode(bytes: &[u8]) -> Result<Decoded, PictureError> {
    let format = sniff(bytes).ok_or(PictureError::Unknown)?;
    let mime = format.to_mime_type();
    let fail = |e: image::ImageError| plain_error(format, &e);
    let reader = || {
        let mut r = ImageReader::with_format(Cursor::new(bytes), format);
        r.limits(limits());
        r
    };
    // The header alone: a size over the bounds is refused with no pixel decoded.
    let (width, height) = match reader().into_dimensions() {
        Ok(d) => d,
        Err(image::ImageError::Limits(_)) => {
            let mut r = ImageReader::with_format(Cursor::new(bytes), format);
            r.no_limits();
            let (width, height) = r.into_dimensions().map_err(fail)?;
            return Err(PictureError::TooLarge { width, height });
        }
        Err(e) => return Err(fail(e)),
    };
    if u64::from(width) * u64::from(height) > MAX_PIXELS || width > MAX_SIDE || height > MAX_SIDE {
        return Err(PictureError::TooLarge { width, height });
    }
    let image = reader().decode().map_err(fail)?;
    let image = if image.width() > KEPT_SIDE || image.height() > KEPT_SIDE {
        image.resize(KEPT_SIDE, KEPT_SIDE, image::imageops::FilterType::Triangle)
    } else {
        image
    };
    Ok(Decoded {
        image: Arc::new(image),
        width,
        height,
        mime,
    })
}

/// The cells a picture takes when fitted into `area`: one rule for every protocol. A
/// picture covers the cells its pixels fill at the terminal's cell size (never enlarged),
/// scaled down to fit; half-blocks then draw those same cells at two colours a cell, so a
/// picture is as big on screen whatever draws it.
pub fn fitted(g: &Graphics, image: &DynamicImage, area: Size) -> Size {
    Resize::Fit(None).size_for(image, font(g), area)
}

fn font(g: &Graphics) -> FontSize {
    FontSize::new(g.cell.0.max(1), g.cell.1.max(1))
}

/// Makes and keeps the encoded form of each picture for the area it is drawn in (encoding
/// for kitty or sixel is costly: it is done once per picture and size, not every frame).
#[derive(Default)]
pub struct Painter {
    graphics: Option<Graphics>,
    kept: HashMap<(String, u16, u16), Protocol>,
    used: Vec<(String, u16, u16)>,
    /// The last kitty image id given.
    last_id: u32,
}

impl std::fmt::Debug for Painter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Painter")
            .field("graphics", &self.graphics)
            .field("kept", &self.kept.len())
            .finish()
    }
}

/// How many encoded pictures are kept.
const KEPT_ENCODED: usize = 16;

impl Painter {
    /// A painter for these graphics (None: pictures are off, nothing is drawn).
    pub fn new(graphics: Option<Graphics>) -> Painter {
        Painter {
            graphics,
            ..Painter::default()
        }
    }

    /// The graphics in use.
    pub fn graphics(&self) -> Option<Graphics> {
        self.graphics
    }

    /// Draw the rows `skip..skip + area.height` of `image` fitted into `full` rows of
    /// `area`'s width: the part of a picture on screen when the page is scrolled (whole
    /// pictures only, except with half-blocks: the other protocols cannot draw part of one).
    pub fn paint_part(
        &mut self,
        buf: &mut Buffer,
        key: &str,
        image: &DynamicImage,
        area: Rect,
        skip: u16,
        full: u16,
    ) {
        if skip == 0 && area.height >= full {
            return self.paint(
                buf,
                key,
                image,
                Rect {
                    height: full,
                    ..area
                },
            );
        }
        if self.graphics.map(|g| g.protocol) != Some(ProtocolType::Halfblocks) {
            return;
        }
        let whole = Rect::new(0, 0, area.width, full.max(skip.saturating_add(area.height)));
        let mut scratch = Buffer::empty(whole);
        self.paint(&mut scratch, key, image, whole);
        for y in 0..area.height {
            for x in 0..area.width {
                if let (Some(from), Some(to)) = (
                    scratch.cell((x, y + skip)),
                    buf.cell_mut((area.x + x, area.y + y)),
                ) {
                    *to = from.clone();
                }
            }
        }
    }

    /// Draw `image` (known as `key`) fitted into `area`, at its top left.
    pub fn paint(&mut self, buf: &mut Buffer, key: &str, image: &DynamicImage, area: Rect) {
        let Some(g) = self.graphics else {
            return;
        };
        if area.width == 0 || area.height == 0 {
            return;
        }
        let size = fitted(&g, image, area.as_size());
        if size.width == 0 || size.height == 0 {
            return;
        }
        let k = (key.to_string(), size.width, size.height);
        if !self.kept.contains_key(&k) {
            self.last_id = self.last_id.wrapping_add(1).max(1);
            let Some(p) = encode(&g, image, size, self.last_id) else {
                return;
            };
            if self.kept.len() >= KEPT_ENCODED
                && let Some(old) = self.used.first().cloned()
            {
                self.kept.remove(&old);
                self.used.remove(0);
            }
            self.kept.insert(k.clone(), p);
        }
        self.used.retain(|u| *u != k);
        self.used.push(k.clone());
        if let Some(p) = self.kept.get(&k) {
            let at = Rect::new(area.x, area.y, size.width, size.height).intersection(area);
            Image::new(p).allow_clipping(true).render(at, buf);
        }
    }
}

/// The picture in the protocol, `size` cells big.
fn encode(g: &Graphics, image: &DynamicImage, size: Size, id: u32) -> Option<Protocol> {
    let f = font(g);
    let scaled = Resize::Fit(None).resize(image, f, size, None);
    let p = match g.protocol {
        ProtocolType::Halfblocks => Halfblocks::new(scaled, size).map(Protocol::Halfblocks),
        ProtocolType::Sixel => Sixel::new(scaled, size, g.tmux).map(Protocol::Sixel),
        ProtocolType::Kitty => Kitty::new(scaled, size, id, g.tmux, false).map(Protocol::Kitty),
        ProtocolType::Iterm2 => Iterm2::new(scaled, size, g.tmux).map(Protocol::ITerm2),
    };
    match p {
        Ok(p) => Some(p),
        Err(e) => {
            tracing::warn!("cannot encode a picture for {}: {e}", g.name());
            None
        }
    }
}

#[cfg(test)]
mod tests;
