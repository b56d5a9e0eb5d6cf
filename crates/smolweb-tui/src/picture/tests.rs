use super::*;
use crate::probe::parse_reply;
use image::{Rgb, RgbImage};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::style::Color;

fn env(term: &str, tty: bool, tmux: bool, over: Option<&str>) -> TermEnv {
    TermEnv {
        term: Some(term.to_string()),
        tmux,
        tty,
        override_mode: over.map(str::to_string),
    }
}

/// A test card: every pixel its own colour, so each cell's halves differ.
fn card(w: u32, h: u32) -> RgbImage {
    RgbImage::from_fn(w, h, |x, y| {
        Rgb([
            (x * 40 + 10) as u8,
            (y * 30 + 5) as u8,
            ((x + y) * 17 % 256) as u8,
        ])
    })
}

fn rgb(p: &Rgb<u8>) -> Color {
    Color::Rgb(p[0], p[1], p[2])
}

fn luminance(p: &Rgb<u8>) -> u32 {
    2126 * u32::from(p[0]) + 7152 * u32::from(p[1]) + 722 * u32::from(p[2])
}

#[test]
fn halfblocks_paint_the_pixels_two_to_a_cell() {
    let img = card(6, 8);
    // A cell of 1 × 2 pixels: each pixel is half a cell.
    let g = Graphics {
        cell: (1, 2),
        ..Graphics::halfblocks()
    };
    let mut painter = Painter::new(Some(g));
    let dynimg = DynamicImage::ImageRgb8(img.clone());
    let mut term = Terminal::new(TestBackend::new(20, 10)).expect("test backend");
    term.draw(|f| painter.paint(f.buffer_mut(), "card", &dynimg, Rect::new(2, 1, 16, 8)))
        .expect("draw");
    let buf = term.backend().buffer().clone();
    // 6 × 8 pixels: 6 columns and 4 rows of cells, at (2, 1).
    for cy in 0..4u32 {
        for cx in 0..6u32 {
            let (up, low) = (img.get_pixel(cx, 2 * cy), img.get_pixel(cx, 2 * cy + 1));
            let cell = &buf[(2 + cx as u16, 1 + cy as u16)];
            let (sym, fg, bg) = if up == low {
                (" ", None, rgb(low))
            } else if luminance(low) > luminance(up) {
                ("▄", Some(rgb(low)), rgb(up))
            } else {
                ("▀", Some(rgb(up)), rgb(low))
            };
            assert_eq!(cell.symbol(), sym, "cell {cx},{cy}");
            if let Some(fg) = fg {
                assert_eq!(cell.fg, fg, "fg of cell {cx},{cy}");
            }
            assert_eq!(cell.bg, bg, "bg of cell {cx},{cy}");
        }
    }
    // Nothing drawn outside the picture.
    assert_eq!(buf[(1, 1)].symbol(), " ");
    assert_eq!(buf[(8, 1)].symbol(), " ");
    assert_eq!(buf[(2, 5)].symbol(), " ");
    assert_eq!(buf[(2, 5)].bg, Color::Reset);
}

#[test]
fn a_big_picture_is_fitted_keeping_its_shape() {
    let img = DynamicImage::ImageRgb8(card(400, 200));
    let kitty = Graphics {
        protocol: ProtocolType::Kitty,
        cell: (10, 20),
        tmux: false,
    };
    // 400 × 200 px is 40 × 10 cells of 10 × 20; into 20 × 30 cells (200 px wide) it is
    // halved: 200 × 100 px, 20 columns and 5 rows.
    let s = fitted(&kitty, &img, Size::new(20, 30));
    assert_eq!((s.width, s.height), (20, 5));
    let s = fitted(&kitty, &img, Size::new(80, 24));
    assert_eq!((s.width, s.height), (40, 10), "its own size when it fits");
}

/// Issue 33: sixel drew a 160 × 120 picture at its pixel size while half-blocks stretched it
/// to the text width. Every protocol now takes the same cells for it.
#[test]
fn every_protocol_gives_a_picture_the_same_cells() {
    let img = DynamicImage::ImageRgb8(card(160, 120));
    let cell = (10, 20);
    let sizes: Vec<(ProtocolType, Size)> = [
        ProtocolType::Halfblocks,
        ProtocolType::Sixel,
        ProtocolType::Kitty,
        ProtocolType::Iterm2,
    ]
    .into_iter()
    .map(|protocol| {
        let g = Graphics {
            protocol,
            cell,
            tmux: false,
        };
        (protocol, fitted(&g, &img, Size::new(80, 20)))
    })
    .collect();
    for (protocol, size) in &sizes {
        assert_eq!(
            (size.width, size.height),
            (16, 6),
            "{protocol:?}: 160 × 120 px at 10 × 20 px a cell"
        );
    }
    // And half-blocks fill exactly those cells when painted.
    let mut painter = Painter::new(Some(Graphics::halfblocks()));
    let mut term = Terminal::new(TestBackend::new(80, 20)).expect("test backend");
    term.draw(|f| painter.paint(f.buffer_mut(), "card", &img, Rect::new(0, 0, 80, 20)))
        .expect("draw");
    let buf = term.backend().buffer().clone();
    let painted = |x: u16, y: u16| buf[(x, y)].bg != Color::Reset;
    assert!(painted(15, 5) && !painted(16, 0) && !painted(0, 6));
}

#[test]
fn protocol_from_the_environment() {
    assert_eq!(
        choose(Mode::Off, &env("xterm", true, false, None), None),
        None
    );
    let g = choose(Mode::Auto, &env("xterm", true, false, Some("kitty")), None);
    assert_eq!(g.map(|g| g.protocol), Some(ProtocolType::Kitty));
    let g = choose(Mode::Kitty, &env("xterm", true, false, Some("sixel")), None);
    assert_eq!(g.map(|g| g.protocol), Some(ProtocolType::Sixel), "env wins");
    let g = choose(Mode::Auto, &env("xterm", true, false, Some("off")), None);
    assert_eq!(g, None);
    let g = choose(Mode::Iterm2, &env("xterm", true, true, None), None);
    assert_eq!(
        g.map(|g| (g.protocol, g.tmux)),
        Some((ProtocolType::Iterm2, true))
    );
    // No terminal, or a dumb one: half-blocks whatever was asked, and no query.
    for e in [
        env("dumb", true, false, None),
        env("xterm", false, false, None),
    ] {
        let g = choose(Mode::Kitty, &e, None);
        assert_eq!(g.map(|g| g.protocol), Some(ProtocolType::Halfblocks));
        assert!(!should_query(Mode::Auto, &e));
    }
    assert!(should_query(Mode::Auto, &env("xterm", true, false, None)));
    assert!(!should_query(
        Mode::Halfblocks,
        &env("xterm", true, false, None)
    ));
    assert!(!should_query(
        Mode::Auto,
        &env("xterm", true, false, Some("halfblocks"))
    ));
    // An unknown override is ignored (the config's choice stands).
    let g = choose(
        Mode::Sixel,
        &env("xterm", true, false, Some("hologram")),
        None,
    );
    assert_eq!(g.map(|g| g.protocol), Some(ProtocolType::Sixel));
    assert_eq!(Mode::parse("HalfBlocks"), Some(Mode::Halfblocks));
    assert_eq!(Mode::parse("sparkles"), None);
}

#[test]
fn protocol_from_the_terminal_reply() {
    let xterm = env("xterm-256color", true, false, None);
    let pick = |bytes: &[u8]| {
        let r = parse_reply(bytes);
        choose(Mode::Auto, &xterm, Some(&r)).map(|g| (g.protocol, g.cell))
    };
    // Kitty: graphics OK, then its attributes, cell size and status.
    let kitty = b"\x1b_Gi=31;OK\x1b\\\x1b[?62;c\x1b[6;20;9t\x1b[0n";
    assert_eq!(pick(kitty), Some((ProtocolType::Kitty, (9, 20))));
    assert!(parse_reply(kitty).complete);
    // A sixel terminal: attribute 4 in DA1, no kitty reply.
    let sixel = b"\x1b[?63;1;2;4;6;9;15;22c\x1b[0n";
    assert_eq!(pick(sixel), Some((ProtocolType::Sixel, (10, 20))));
    // Kitty's answer wins over sixel.
    let both = b"\x1b[?63;4c\x1b_Gi=31;OK\x1b\\\x1b[0n";
    assert_eq!(pick(both).map(|p| p.0), Some(ProtocolType::Kitty));
    // Plain DA1, an error from kitty's query, nothing at all, noise: half-blocks.
    for bytes in [
        &b"\x1b[?1;2c\x1b[0n"[..],
        &b"\x1b_Gi=31;ENOTSUPPORTED\x1b\\\x1b[?1;2c\x1b[0n"[..],
        &b""[..],
        &b"\x1b[\x1b]garbage\x07zz"[..],
    ] {
        assert_eq!(
            pick(bytes).map(|p| p.0),
            Some(ProtocolType::Halfblocks),
            "{bytes:?}"
        );
    }
    assert!(!parse_reply(b"\x1b[?1;2c").complete, "no status report yet");
}

fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = 0xffff_ffffu32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xedb8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    out.extend_from_slice(&(data.len() as u32).to_be_bytes());
    let mut body = kind.to_vec();
    body.extend_from_slice(data);
    out.extend_from_slice(&body);
    out.extend_from_slice(&crc32(&body).to_be_bytes());
}

/// A PNG that declares `w` × `h` RGB pixels and holds a few bytes of (zlib) data.
fn declared_png(w: u32, h: u32) -> Vec<u8> {
    let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut ihdr = Vec::new();
    ihdr.extend_from_slice(&w.to_be_bytes());
    ihdr.extend_from_slice(&h.to_be_bytes());
    ihdr.extend_from_slice(&[8, 2, 0, 0, 0]);
    chunk(&mut png, b"IHDR", &ihdr);
    // An empty stored zlib block: no pixels at all.
    chunk(
        &mut png,
        b"IDAT",
        &[
            0x78, 0x01, 0x01, 0x00, 0x00, 0xff, 0xff, 0x00, 0x00, 0x00, 0x01,
        ],
    );
    chunk(&mut png, b"IEND", &[]);
    png
}

#[test]
fn a_decompression_bomb_is_refused_before_decoding() {
    let bomb = declared_png(100_000, 100_000);
    assert!(bomb.len() < 100, "the bomb is tiny: {} bytes", bomb.len());
    let err = decode(&bomb).expect_err("refused");
    assert_eq!(
        err,
        PictureError::TooLarge {
            width: 100_000,
            height: 100_000
        }
    );
    assert_eq!(
        err.to_string(),
        "refused: the image declares 100000 × 100000 px, over the limit of 40 megapixels"
    );
    // Under each side's bound but over the pixel count: refused too.
    let wide = declared_png(20_000, 20_000);
    assert!(matches!(decode(&wide), Err(PictureError::TooLarge { .. })));
}

#[test]
fn real_pictures_decode_and_others_do_not() {
    let img = DynamicImage::ImageRgb8(card(5, 3));
    for (format, mime) in [
        (ImageFormat::Png, "image/png"),
        (ImageFormat::Bmp, "image/bmp"),
        (ImageFormat::Gif, "image/gif"),
        (ImageFormat::Qoi, "image/x-qoi"),
        (ImageFormat::Tiff, "image/tiff"),
    ] {
        let mut bytes = Vec::new();
        img.write_to(&mut Cursor::new(&mut bytes), format)
            .expect("encode");
        let d = decode(&bytes).expect("decodes");
        assert_eq!((d.width, d.height, d.mime), (5, 3, mime), "{format:?}");
    }
    assert!(matches!(
        decode(b"# a gemtext page\n"),
        Err(PictureError::Unknown)
    ));
    // A PNG cut after its header: an error, no panic.
    let mut png = Vec::new();
    img.write_to(&mut Cursor::new(&mut png), ImageFormat::Png)
        .expect("encode");
    png.truncate(40);
    assert!(matches!(decode(&png), Err(PictureError::Damaged { .. })));
    // A picture bigger than what is kept is scaled down once, its own size remembered.
    let big = DynamicImage::ImageRgb8(RgbImage::new(3000, 1500));
    let mut bytes = Vec::new();
    big.write_to(&mut Cursor::new(&mut bytes), ImageFormat::Png)
        .expect("encode");
    let d = decode(&bytes).expect("decodes");
    assert_eq!((d.width, d.height), (3000, 1500));
    assert_eq!(
        (d.image.width(), d.image.height()),
        (KEPT_SIDE, KEPT_SIDE / 2)
    );
}

/// Issue 33: a damaged picture said the decoder's dump (`ChunkType { type: IDAT, critical:
/// true, … }`). It says what is wrong in plain words.
#[test]
fn damage_is_said_in_plain_words() {
    let img = DynamicImage::ImageRgb8(card(40, 30));
    let mut png = Vec::new();
    img.write_to(&mut Cursor::new(&mut png), ImageFormat::Png)
        .expect("encode");
    // The IDAT chunk's CRC no longer matches its data (as in the file).
    let idat = png
        .windows(4)
        .position(|w| w == b"IDAT")
        .expect("an IDAT chunk");
    let len = u32::from_be_bytes(png[idat - 4..idat].try_into().unwrap()) as usize;
    png[idat + 4 + len] ^= 0x55;
    let err = decode(&png).expect_err("damaged");
    assert_eq!(err.to_string(), "the image is damaged (PNG checksum error)");
    // Its compressed data damaged: damaged too, in words.
    let mut mangled = Vec::new();
    img.write_to(&mut Cursor::new(&mut mangled), ImageFormat::Png)
        .expect("encode");
    mangled[idat + 6] ^= 0x55;
    let said = decode(&mangled).expect_err("damaged").to_string();
    assert!(said.starts_with("the image is damaged (PNG "), "{said}");
    // Cut in the middle of its data.
    let mut cut = Vec::new();
    img.write_to(&mut Cursor::new(&mut cut), ImageFormat::Png)
        .expect("encode");
    cut.truncate(idat + 20);
    let said = decode(&cut).expect_err("cut").to_string();
    assert_eq!(said, "the image is damaged (the PNG file is cut short)");
    // A GIF cut short.
    let mut gif = Vec::new();
    img.write_to(&mut Cursor::new(&mut gif), ImageFormat::Gif)
        .expect("encode");
    gif.truncate(gif.len() / 2);
    let said = decode(&gif).expect_err("cut").to_string();
    assert!(
        said.starts_with("the image is damaged (") && said.contains("GIF"),
        "{said}"
    );
    for e in [err.to_string(), said] {
        assert!(!e.contains('{') && !e.contains("ChunkType"), "{e}");
    }
}

#[test]
fn every_protocol_encodes_and_draws_into_its_area() {
    let img = DynamicImage::ImageRgb8(card(40, 40));
    for (protocol, tmux) in [
        (ProtocolType::Sixel, false),
        (ProtocolType::Kitty, true),
        (ProtocolType::Kitty, false),
        (ProtocolType::Iterm2, false),
    ] {
        let g = Graphics {
            protocol,
            cell: (10, 20),
            tmux,
        };
        let mut painter = Painter::new(Some(g));
        let mut buf = Buffer::empty(Rect::new(0, 0, 20, 10));
        painter.paint(&mut buf, "card", &img, Rect::new(1, 1, 10, 5));
        // 40 × 40 px at 10 × 20 px a cell: 4 columns, 2 rows; something was written there
        // (an escape sequence or kitty's placeholders), nothing outside.
        let written = |x: u16, y: u16| buf[(x, y)].symbol() != " ";
        assert!(written(1, 1), "{protocol:?}");
        assert!(
            !written(0, 0) && !written(6, 1) && !written(1, 4),
            "{protocol:?}"
        );
        if tmux {
            assert!(
                buf[(1, 1)].symbol().contains("\x1bPtmux;"),
                "{protocol:?} wrapped for tmux"
            );
        }
    }
    // Off: nothing at all.
    let mut buf = Buffer::empty(Rect::new(0, 0, 20, 10));
    Painter::new(None).paint(&mut buf, "card", &img, Rect::new(0, 0, 10, 5));
    assert!(buf.content().iter().all(|c| c.symbol() == " "));
}

#[test]
fn a_picture_scrolled_half_off_shows_its_lower_rows() {
    let img = card(4, 8);
    let dynimg = DynamicImage::ImageRgb8(img.clone());
    let mut painter = Painter::new(Some(Graphics::halfblocks()));
    let mut whole = Buffer::empty(Rect::new(0, 0, 4, 4));
    let area = whole.area;
    painter.paint(&mut whole, "c", &dynimg, area);
    // Two of its four rows scrolled off above: the screen shows rows 2 and 3 at the top.
    let mut part = Buffer::empty(Rect::new(0, 0, 4, 2));
    let area = part.area;
    painter.paint_part(&mut part, "c", &dynimg, area, 2, 4);
    for y in 0..2 {
        for x in 0..4 {
            assert_eq!(part[(x, y)], whole[(x, y + 2)], "{x},{y}");
        }
    }
    // Cut at the bottom: the top rows, the same size (not shrunk to fit).
    let mut top = Buffer::empty(Rect::new(0, 0, 4, 3));
    let area = top.area;
    painter.paint_part(&mut top, "c", &dynimg, area, 0, 4);
    for y in 0..3 {
        for x in 0..4 {
            assert_eq!(top[(x, y)], whole[(x, y)], "{x},{y}");
        }
    }
    // Other protocols draw no part of a picture.
    let g = Graphics {
        protocol: ProtocolType::Sixel,
        cell: (1, 2),
        tmux: false,
    };
    let mut sixel = Painter::new(Some(g));
    let mut part = Buffer::empty(Rect::new(0, 0, 4, 2));
    let area = part.area;
    sixel.paint_part(&mut part, "c", &dynimg, area, 2, 4);
    assert!(part.content().iter().all(|c| c.symbol() == " "));
}
