//! Pictures in tmux: a capsule serves a PNG; opening its link shows the picture in the page
//! area as half-block characters (tmux passes no graphics through unless the person turned
//! passthrough on, and the browser never does), under a header with its pixel size, type and
//! byte size. The browser asks the terminal (tmux) what it draws, with nothing set: `auto`.
//! Then the same picture inline, under its link in the gemtext page (the `z` toggle), the text
//! after the link moved down under it, and back up when the toggle is pressed again.

use crate::tui_tmux_driver::{Tmux, tmux_available};
use smolweb_testkit as support;

use support::gemini::{Reply, Routes, Server};

/// 24 × 16 pixels, red and blue rows in turn: every cell is red over blue (`▀`).
fn striped_png() -> Vec<u8> {
    let img = image::RgbImage::from_fn(24, 16, |_, y| {
        if y % 2 == 0 {
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

/// The rows of the screen with at least `n` half-block characters in a row.
fn block_rows(screen: &str, n: usize) -> Vec<(usize, &str)> {
    let run: String = "▀".repeat(n);
    let low: String = "▄".repeat(n);
    screen
        .lines()
        .enumerate()
        .filter(|(_, l)| l.contains(&run) || l.contains(&low))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_image_link_shows_the_picture_in_half_blocks() {
    if !tmux_available("tui_tmux_pictures") {
        return;
    }
    let png = striped_png();
    let size = png.len();
    let capsule = Server::start(
        Routes::new()
            .route(
                "/",
                Reply::gemtext("# Gallery\n=> /stripes.png The stripes\nText after the link\n"),
            )
            .route("/stripes.png", Reply::ok("image/png", png)),
    )
    .await;
    let data = tempfile::tempdir().unwrap();
    let command = format!(
        "env -u SMOLWEB_IMAGES {} --data-dir {} {}; echo SMOLWEB-EXIT=$?; sleep 30",
        env!("CARGO_BIN_EXE_smolweb"),
        data.path().display(),
        capsule.url("/")
    );
    tokio::task::spawn_blocking(move || {
        let t = Tmux::start("pictures", &command, 100, 30);
        t.wait_for("[1] The stripes");
        t.keys(&["1"]);
        let s = t.wait_for("24 × 16 px");
        println!("{s}");
        assert!(s.contains("stripes.png"), "{s}");
        assert!(
            s.contains(&format!("image/png · 24 × 16 px · {size} B")),
            "{s}"
        );
        assert!(s.contains("s: save  o: open with xdg-open"), "{s}");
        // 24 × 16 px: 24 columns and 8 rows of half blocks, under the header.
        let rows = block_rows(&s, 24);
        assert_eq!(rows.len(), 8, "{s}");
        let header = s.lines().position(|l| l.contains("24 × 16 px")).unwrap();
        assert!(rows.iter().all(|(i, _)| *i > header), "{s}");
        assert!(
            !s.contains("▀".repeat(25).as_str()),
            "fitted to its own size: {s}"
        );
        // Back: the page as it was, the keys still work (no reply leaked in as keys).
        t.keys(&["b"]);
        let s = t.wait_for("Text after the link");
        assert!(block_rows(&s, 1).is_empty(), "{s}");
        // Inline pictures: under the link's line, the text after it moved down, in place.
        t.keys(&["z"]);
        let s = t.wait_for("▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀");
        println!("{s}");
        let lines: Vec<&str> = s.lines().collect();
        let link = lines
            .iter()
            .position(|l| l.contains("[1] The stripes"))
            .unwrap();
        let rows = block_rows(&s, 24);
        assert_eq!(rows.len(), 8, "{s}");
        let first = rows[0].0;
        assert_eq!(first, link + 1, "right under its link: {s}");
        assert!(rows.windows(2).all(|w| w[1].0 == w[0].0 + 1), "{s}");
        assert!(lines[first + 8].contains("Text after the link"), "{s}");
        // Off again: the text comes back up under the link.
        t.keys(&["z"]);
        let s = t.wait_for("inline pictures off");
        let lines: Vec<&str> = s.lines().collect();
        let link = lines
            .iter()
            .position(|l| l.contains("[1] The stripes"))
            .unwrap();
        assert!(lines[link + 1].contains("Text after the link"), "{s}");
        t.keys(&["q"]);
        t.wait_for("SMOLWEB-EXIT=0");
    })
    .await
    .unwrap();
}
