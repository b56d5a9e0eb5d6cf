//! Shared helpers of the TUI tests: an app without a terminal, fake fetch results, and the
//! screen as plain text.
#![allow(dead_code)]

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use smolweb_client::{Fetched, Outcome, RequestInfo};
use smolweb_core::page::Page;
use smolweb_core::response::parse_mime;
use smolweb_core::url::Url;
use smolweb_net::{TlsInfo, TofuState};
use smolweb_store::identity::{CreatedBy, Identity, KeyAlgorithm, Scope};
use smolweb_tui::app::{App, Effect, FetchOptions, Msg, Settings};
use smolweb_tui::keymap::{Key, Keymap};
use smolweb_tui::theme::Theme;
use smolweb_tui::view;
use std::sync::Arc;

pub(crate) fn app_sized(width: u16, height: u16) -> App {
    let mut app = App::new(Settings::default(), Keymap::default(), Theme::default());
    app.update(Msg::Resize { width, height });
    app
}

pub(crate) fn app() -> App {
    app_sized(80, 24)
}

pub(crate) fn info(url: &str) -> RequestInfo {
    let u = Url::parse(url).ok();
    RequestInfo {
        url: url.split('?').next().unwrap().to_string(),
        host: u.as_ref().map(|u| u.host().to_string()).unwrap_or_default(),
        port: u.as_ref().map_or(0, |u| u.port()),
        ..RequestInfo::default()
    }
}

pub(crate) fn tls(tofu: TofuState) -> TlsInfo {
    TlsInfo {
        version: "TLSv1.3".into(),
        cipher: "TLS13_AES_256_GCM_SHA384".into(),
        cert_fingerprint: "sha256:00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"
            .into(),
        cert_not_after: "2030-01-01T00:00:00Z".into(),
        tofu,
        client_cert: None,
        client_cert_warning: None,
        pin_warning: None,
        root: None,
    }
}

pub(crate) fn page_with(url: &str, mime: &str, body: &[u8]) -> Outcome {
    let u = Url::parse(url).expect("test URL parses");
    let page = Page::from_gemini(u, parse_mime(mime), body.to_vec());
    Outcome::Page {
        info: info(url),
        fetched: Fetched {
            page: Arc::new(page),
            cached: false,
            cached_at: None,
        },
    }
}

pub(crate) fn gem(url: &str, body: &str) -> Outcome {
    page_with(url, "text/gemini", body.as_bytes())
}

pub(crate) fn menu(url: &str, body: &str) -> Outcome {
    let u = Url::parse(url).expect("test URL parses");
    let page = Page::from_gopher(u, '1', body.as_bytes().to_vec());
    Outcome::Page {
        info: info(url),
        fetched: Fetched {
            page: Arc::new(page),
            cached: false,
            cached_at: None,
        },
    }
}

/// The fetches among effects: (id, url, options).
pub(crate) fn fetches(fx: &[Effect]) -> Vec<(u64, String, FetchOptions)> {
    fx.iter()
        .filter_map(|e| match e {
            Effect::Fetch { id, url, opts } => Some((*id, url.clone(), opts.clone())),
            _ => None,
        })
        .collect()
}

/// The one fetch among effects.
pub(crate) fn fetch(fx: &[Effect]) -> (u64, String, FetchOptions) {
    let f = fetches(fx);
    assert_eq!(f.len(), 1, "expected one fetch in {fx:?}");
    f.into_iter().next().unwrap()
}

/// Press keys by name ("j", "ctrl-t", "enter"); returns all effects.
pub(crate) fn press(app: &mut App, keys: &[&str]) -> Vec<Effect> {
    let mut fx = Vec::new();
    for k in keys {
        fx.extend(app.update(Msg::Key(Key::parse(k).expect("key name"))));
    }
    fx
}

/// Type text into a prompt.
pub(crate) fn type_text(app: &mut App, text: &str) -> Vec<Effect> {
    let mut fx = Vec::new();
    for c in text.chars() {
        fx.extend(app.update(Msg::Key(Key::ch(c))));
    }
    fx
}

/// Answer a fetch.
pub(crate) fn answer(app: &mut App, id: u64, outcome: Outcome) -> Vec<Effect> {
    app.update(Msg::Fetched {
        id,
        outcome: Box::new(outcome),
    })
}

/// Start at `url` and answer with `outcome`.
pub(crate) fn open(app: &mut App, url: &str, outcome: Outcome) -> Vec<Effect> {
    let fx = app.start(Some(url.to_string()));
    let (id, _, _) = fetch(&fx);
    answer(app, id, outcome)
}

/// Go to `url` through the address bar and answer with `outcome`.
pub(crate) fn go(app: &mut App, url: &str, outcome: Outcome) -> Vec<Effect> {
    press(app, &[":", "ctrl-u"]);
    type_text(app, url);
    let fx = press(app, &["enter"]);
    let (id, _, _) = fetch(&fx);
    answer(app, id, outcome)
}

/// The screen as text, one line per row, trailing spaces removed.
pub(crate) fn screen(app: &App) -> String {
    let backend = TestBackend::new(app.screen().width(), app.screen().height());
    let mut term = Terminal::new(backend).unwrap();
    term.draw(|f| view::draw(f, app)).unwrap();
    let buf = term.backend().buffer();
    let mut out = String::new();
    for y in 0..buf.area.height {
        let mut line = String::new();
        let mut skip = 0;
        for x in 0..buf.area.width {
            if skip > 0 {
                skip -= 1;
                continue;
            }
            let sym = buf[(x, y)].symbol();
            line.push_str(sym);
            skip = unicode_width::UnicodeWidthStr::width(sym).saturating_sub(1);
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// Compare a screen with its insta snapshot, tests/snapshots/NAME.snap. A mismatch or a
/// missing snapshot fails the test (plain `cargo test`, on CI too: no `cargo insta` needed);
/// after a deliberate change, `INSTA_UPDATE=always cargo test` (or `cargo insta review`)
/// rewrites them for review in the diff.
pub(crate) fn assert_snapshot(name: &str, text: &str) {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/snapshots"));
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    settings.bind(|| insta::assert_snapshot!(name, text));
}

/// An identity made by the person for home.test, with this name and fingerprint.
pub(crate) fn identity(name: &str, fp: &str) -> Identity {
    Identity {
        name: name.into(),
        fingerprint: fp.into(),
        scope: Scope {
            host: "home.test".into(),
            port: 1965,
            path: "/".into(),
        },
        not_before: time::macros::datetime!(2025-01-01 0:00 UTC),
        not_after: time::macros::datetime!(2099-01-01 0:00 UTC),
        created_by: CreatedBy::Human,
        agent_use: false,
        algorithm: KeyAlgorithm::EcdsaP256,
        cert_pem: String::new(),
    }
}
