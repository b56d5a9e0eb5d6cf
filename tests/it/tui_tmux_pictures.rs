//! Pictures in tmux: a capsule serves a PNG; opening its link shows the picture in the page
//! area as half-block characters (tmux passes no graphics through unless the person turned
//! passthrough on, and the browser never does), under a header with its pixel size, type and
//! byte size. The browser asks the terminal (tmux) what it draws, with nothing set: `auto`.
//! Then the same picture inline, under its link in the gemtext page (the `z` toggle), the text
//! after the link moved down under it, and back up when the toggle is pressed again.

use crate::tui_tmux_driver::{Tmux, tmux_available};
use smolweb_testkit as support;

use support::gemini::{Reply, Routes, Server};

/// 240 × 160 pixels, red and blue bands of 10 pixels in turn: at 10 × 20 pixels a cell (the
/// size assumed when the terminal does not say), 24 columns and 8 rows, each cell red over
/// blue (`▀`).
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

/// The picture on screen: the rows holding half blocks, and how many columns wide it is
/// (every such row the same width).
fn picture(screen: &str) -> (Vec<usize>, usize) {
    let mut rows = Vec::new();
    let mut widths = std::collections::BTreeSet::new();
    for (i, l) in screen.lines().enumerate() {
        let n = l.chars().filter(|c| matches!(c, '▀' | '▄')).count();
        if n > 0 {
            rows.push(i);
            widths.insert(n);
        }
    }
    assert!(
        widths.len() <= 1,
        "rows of different widths: {widths:?}\n{screen}"
    );
    (rows, widths.into_iter().next().unwrap_or(0))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_image_link_shows_the_picture_in_half_blocks() {
    if !tmux_available("tui_tmux_pictures") {
        return;
    }
    let png = striped_png();
    let size = smolweb_core::text::human_bytes(png.len() as u64);
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
        let s = t.wait_for("240 × 160 px");
        println!("{s}");
        assert!(s.contains("stripes.png"), "{s}");
        assert!(
            s.contains(&format!("image/png · 240 × 160 px · {size}")),
            "{s}"
        );
        // `o` is offered only when a program can open it (issue 33): xdg-open installed.
        let xdg_open = std::env::var_os("PATH")
            .is_some_and(|p| std::env::split_paths(&p).any(|d| d.join("xdg-open").is_file()));
        if xdg_open {
            assert!(s.contains("s: save  o: open with xdg-open"), "{s}");
        } else {
            assert!(s.contains("s: save") && !s.contains("o: open"), "{s}");
        }
        // 240 × 160 px at the terminal's cell size (tmux says one; 10 × 20 when it does not):
        // a 3:2 picture on cells twice as high as wide is three times as many columns as rows,
        // the same cells any protocol would take, not stretched to the text width (issue 33).
        let (rows, width) = picture(&s);
        println!("the picture: {width} columns, {} rows", rows.len());
        assert!(rows.len() >= 2 && width == 3 * rows.len(), "{s}");
        assert!(width < 80, "at its own size, not the text width: {s}");
        let header = s.lines().position(|l| l.contains("240 × 160 px")).unwrap();
        assert!(rows.iter().all(|i| *i > header), "{s}");
        // Back: the page as it was, the keys still work (no reply leaked in as keys).
        t.keys(&["b"]);
        let s = t.wait_for("Text after the link");
        assert!(picture(&s).0.is_empty(), "{s}");
        // Inline pictures: under the link's line, the text after it moved down, in place.
        t.keys(&["z"]);
        let s = t.wait_for("inline pictures on");
        let s = (0..100)
            .map(|_| {
                std::thread::sleep(std::time::Duration::from_millis(50));
                t.screen()
            })
            .find(|s| picture(s).0.len() == rows.len())
            .unwrap_or(s);
        println!("{s}");
        let lines: Vec<&str> = s.lines().collect();
        let link = lines
            .iter()
            .position(|l| l.contains("[1] The stripes"))
            .unwrap();
        let (inline, inline_width) = picture(&s);
        assert_eq!(
            (inline.len(), inline_width),
            (rows.len(), width),
            "the same cells: {s}"
        );
        let first = inline[0];
        assert_eq!(first, link + 1, "right under its link: {s}");
        assert!(inline.windows(2).all(|w| w[1] == w[0] + 1), "{s}");
        assert!(
            lines[first + inline.len()].contains("Text after the link"),
            "{s}"
        );
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
