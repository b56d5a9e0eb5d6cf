//! Pictures in the browser (no terminal, no network): an image answer is shown as a picture
//! page (header with pixel size, type and bytes; the picture painted under it; `s` saves and
//! `o` opens the image itself), a refused picture says why, and inline pictures are fetched
//! only for image links on screen, shown under their line with the text after it moved down.

use crate::tui_helpers;

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use smolweb_tui::app::{App, Effect, Msg, Slot};
use smolweb_tui::picture::{self, Graphics, Painter};
use smolweb_tui::view;
use tui_helpers::*;

/// 240 × 160 pixels, red and blue bands of 10 pixels in turn: at 10 × 20 pixels a cell,
/// 24 columns and 8 rows, each cell red over blue.
fn striped_png() -> Vec<u8> {
    let img = image::RgbImage::from_fn(240, 160, |_, y| {
        if (y / 10) % 2 == 0 {
            image::Rgb([220, 20, 20])
        } else {
            image::Rgb([20, 20, 200])
        }
    });
    let mut bytes = Vec::new();
    image::DynamicImage::ImageRgb8(img)
        .write_to(
            &mut std::io::Cursor::new(&mut bytes),
            image::ImageFormat::Png,
        )
        .unwrap();
    bytes
}

fn picture_app() -> App {
    let mut app = app_sized(80, 30);
    app.set_pictures(Some(Graphics::halfblocks()));
    app
}

/// The screen with the pictures painted in half-blocks.
fn painted(app: &App) -> String {
    let mut painter = Painter::new(Some(Graphics::halfblocks()));
    let mut term = Terminal::new(TestBackend::new(80, 30)).unwrap();
    term.draw(|f| view::draw_with(f, app, Some(&mut painter)))
        .unwrap();
    let buf = term.backend().buffer();
    let mut out = String::new();
    for y in 0..buf.area.height {
        let line: String = (0..buf.area.width).map(|x| buf[(x, y)].symbol()).collect();
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

fn decode_effects(fx: &[Effect]) -> Vec<String> {
    fx.iter()
        .filter_map(|e| match e {
            Effect::DecodePicture { key, .. } => Some(key.clone()),
            _ => None,
        })
        .collect()
}

fn inline_fetches(fx: &[Effect]) -> Vec<String> {
    fx.iter()
        .filter_map(|e| match e {
            Effect::FetchPicture { key } => Some(key.clone()),
            _ => None,
        })
        .collect()
}

/// Decode as the shell's worker does and hand the result back.
fn decoded(app: &mut App, key: &str, bytes: &[u8]) -> Vec<Effect> {
    let result = picture::decode(bytes);
    app.update(Msg::Picture {
        key: key.to_string(),
        result,
    })
}

#[test]
fn an_image_answer_is_shown_as_a_picture_with_its_size_and_type() {
    let mut app = picture_app();
    let url = "gemini://cap.test/pics/stripes.png";
    let png = striped_png();
    let fx = open(&mut app, url, page_with(url, "image/png", &png));
    assert_eq!(decode_effects(&fx), vec![url.to_string()]);
    assert!(app.dialog().popup.is_none(), "not offered as a download");
    let s = screen(&app);
    assert!(s.contains("stripes.png"), "{s}");
    assert!(s.contains("decoding…"), "{s}");

    decoded(&mut app, url, &png);
    assert!(matches!(app.picture(url), Some(Slot::Ready(_))));
    let s = painted(&app);
    let header = format!(
        "image/png · 240 × 160 px · {}",
        smolweb_core::text::human_bytes(png.len() as u64)
    );
    assert!(s.contains(&header), "{s}");
    assert!(s.contains("s: save  o: open with xdg-open"), "{s}");
    let lines: Vec<&str> = s.lines().collect();
    let at = lines.iter().position(|l| l.contains(&header)).unwrap();
    let blocks: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i].contains(&"▀".repeat(24)))
        .collect();
    assert_eq!(blocks.len(), 8, "{s}");
    assert!(blocks[0] > at, "under the header: {s}");

    // s saves and o opens the image itself, named after it.
    let fx = press(&mut app, &["s"]);
    let saved = fx.iter().find_map(|e| match e {
        Effect::Save { page, name } => Some((page.raw.clone(), name.clone())),
        _ => None,
    });
    assert_eq!(
        saved,
        Some((png.clone(), "stripes.png".to_string())),
        "{fx:?}"
    );
    let fx = press(&mut app, &["o"]);
    assert!(
        fx.iter().any(
            |e| matches!(e, Effect::Open { page, name } if page.raw == png && name == "stripes.png")
        ),
        "{fx:?}"
    );
}

fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    out.extend_from_slice(&(data.len() as u32).to_be_bytes());
    let mut body = kind.to_vec();
    body.extend_from_slice(data);
    let mut crc = 0xffff_ffffu32;
    for &b in &body {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xedb8_8320
            } else {
                crc >> 1
            };
        }
    }
    out.extend_from_slice(&body);
    out.extend_from_slice(&(!crc).to_be_bytes());
}

#[test]
fn a_refused_picture_says_why_and_no_picture_is_painted() {
    let mut app = picture_app();
    let url = "gemini://cap.test/bomb.png";
    // A PNG declaring 100000 × 100000 pixels, with a few bytes of data.
    let mut ihdr = Vec::new();
    ihdr.extend_from_slice(&100_000u32.to_be_bytes());
    ihdr.extend_from_slice(&100_000u32.to_be_bytes());
    ihdr.extend_from_slice(&[8, 2, 0, 0, 0]);
    let mut bomb = b"\x89PNG\r\n\x1a\n".to_vec();
    chunk(&mut bomb, b"IHDR", &ihdr);
    chunk(
        &mut bomb,
        b"IDAT",
        &[0x78, 0x01, 0x01, 0x00, 0x00, 0xff, 0xff, 0, 0, 0, 1],
    );
    chunk(&mut bomb, b"IEND", &[]);
    open(&mut app, url, page_with(url, "image/png", &bomb));
    decoded(&mut app, url, &bomb);
    let s = painted(&app);
    assert!(
        s.contains("refused: the image declares 100000 × 100000 px"),
        "{s}"
    );
    assert!(!s.contains('▀') && !s.contains('▄'), "{s}");
    assert!(
        app.status().text.contains("picture not shown"),
        "{}",
        app.status().text
    );
}

/// Issue 33: a PNG whose data chunk fails its checksum said the decoder's debug dump. It
/// says the image is damaged, in words, and `s` still saves the bytes as they came.
#[test]
fn a_damaged_picture_says_so_in_words_and_can_still_be_saved() {
    let mut app = picture_app();
    let url = "gemini://cap.test/damaged.png";
    let mut png = striped_png();
    let idat = png.windows(4).position(|w| w == b"IDAT").unwrap();
    let len = u32::from_be_bytes(png[idat - 4..idat].try_into().unwrap()) as usize;
    png[idat + 4 + len] ^= 0x55;
    open(&mut app, url, page_with(url, "image/png", &png));
    decoded(&mut app, url, &png);
    let s = painted(&app);
    assert!(
        s.contains("the image is damaged (PNG checksum error)"),
        "{s}"
    );
    assert!(s.contains("s: save"), "{s}");
    assert!(!s.contains("ChunkType") && !s.contains('▀'), "{s}");
    assert_eq!(
        app.status().text,
        "picture not shown: the image is damaged (PNG checksum error)"
    );
    let fx = press(&mut app, &["s"]);
    assert!(
        fx.iter().any(
            |e| matches!(e, Effect::Save { page, name } if page.raw == png && name == "damaged.png")
        ),
        "{fx:?}"
    );
}

#[test]
fn without_pictures_an_image_is_offered_as_before() {
    let mut app = app();
    let url = "gemini://cap.test/stripes.png";
    let fx = open(&mut app, url, page_with(url, "image/png", &striped_png()));
    assert!(decode_effects(&fx).is_empty());
    assert!(app.dialog().popup.is_some());
    // And the inline toggle says why it does nothing.
    press(&mut app, &["esc"]);
    press(&mut app, &["z"]);
    assert!(
        app.status().text.contains("pictures are off"),
        "{}",
        app.status().text
    );
}

#[test]
fn inline_pictures_load_when_on_screen_and_sit_under_their_link() {
    let mut app = picture_app();
    let url = "gemini://cap.test/gallery.gmi";
    let mut body = String::from(
        "# Gallery\n=> stripes.png The stripes\nText after the link\n=> notes.gmi Notes\n",
    );
    for i in 0..60 {
        body.push_str(&format!("filler {i}\n"));
    }
    body.push_str("=> far.png Far below\n");
    open(&mut app, url, gem(url, &body));
    let s = screen(&app);
    assert!(!s.contains("loading"), "off by default: {s}");

    let fx = press(&mut app, &["z"]);
    assert!(app.status().text.contains("inline pictures on"));
    // Only the image link on screen is fetched; the one far below waits.
    assert_eq!(
        inline_fetches(&fx),
        vec!["gemini://cap.test/stripes.png".to_string()]
    );
    let s = screen(&app);
    let lines: Vec<&str> = s.lines().collect();
    let link = lines
        .iter()
        .position(|l| l.contains("[1] The stripes"))
        .unwrap();
    assert!(lines[link + 1].contains("[loading the picture…]"), "{s}");
    assert!(lines[link + 2].contains("Text after the link"), "{s}");

    let png = striped_png();
    decoded(&mut app, "gemini://cap.test/stripes.png", &png);
    let s = painted(&app);
    let lines: Vec<&str> = s.lines().collect();
    let link = lines
        .iter()
        .position(|l| l.contains("[1] The stripes"))
        .unwrap();
    for i in 1..=8 {
        assert!(lines[link + i].contains(&"▀".repeat(24)), "row {i}: {s}");
    }
    assert!(lines[link + 9].contains("Text after the link"), "{s}");

    // Scrolling the far link into view fetches it; its failure is said in its place.
    let fx = press(&mut app, &["G"]);
    assert_eq!(
        inline_fetches(&fx),
        vec!["gemini://cap.test/far.png".to_string()]
    );
    app.update(Msg::Picture {
        key: "gemini://cap.test/far.png".into(),
        result: Err(picture::PictureError::NotFetched(
            "the capsule answered 51".into(),
        )),
    });
    // (Its row was added under the last line: the bottom is one row further now.)
    let fx = press(&mut app, &["G"]);
    assert!(inline_fetches(&fx).is_empty(), "{fx:?}");
    let s = screen(&app);
    assert!(
        s.contains("[picture not shown: the capsule answered 51]"),
        "{s}"
    );
    // Nothing fetched twice.
    let fx = press(&mut app, &["g", "G"]);
    assert!(inline_fetches(&fx).is_empty(), "{fx:?}");

    // Off: the rows are given back.
    press(&mut app, &["g", "z"]);
    let s = screen(&app);
    let lines: Vec<&str> = s.lines().collect();
    let link = lines
        .iter()
        .position(|l| l.contains("[1] The stripes"))
        .unwrap();
    assert!(lines[link + 1].contains("Text after the link"), "{s}");
}

#[test]
fn gopher_image_items_and_web_images_are_pictures_too() {
    use smolweb_client::{Fetched, Outcome};
    use smolweb_core::page::Page;
    use smolweb_core::url::Url;
    use std::sync::Arc;
    let png = striped_png();
    for (url, item) in [
        ("gopher://hole.test/I/stripes.png", 'I'),
        ("gopher://hole.test/g/stripes", 'g'),
        ("gopher://hole.test/p/stripes", 'p'),
    ] {
        let mut app = picture_app();
        let page = Page::from_gopher(Url::parse(url).unwrap(), item, png.clone());
        let outcome = Outcome::Page {
            info: info(url),
            fetched: Fetched {
                page: Arc::new(page),
                cached: false,
                cached_at: None,
            },
        };
        let fx = open(&mut app, url, outcome);
        assert_eq!(decode_effects(&fx), vec![url.to_string()], "{item}");
    }
    // A web image (the reader view keeps binaries as they came, with their type).
    let mut app = picture_app();
    let url = "https://example.test/img/stripes.png";
    let fx = open(&mut app, url, page_with(url, "image/png", &png));
    assert_eq!(decode_effects(&fx), vec![url.to_string()]);
    // A type that says image but bytes no decoder reads (SVG): offered as a download.
    let mut app = picture_app();
    let url = "gemini://cap.test/logo.svg";
    let fx = open(&mut app, url, page_with(url, "image/svg+xml", b"<svg/>"));
    assert!(decode_effects(&fx).is_empty());
    assert!(app.dialog().popup.is_some());
}
