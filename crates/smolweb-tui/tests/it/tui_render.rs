//! Screens rendered on ratatui's TestBackend and compared with text snapshots under
//! tests/snapshots/ with insta (`INSTA_UPDATE=always` rewrites them after a deliberate change).

use crate::tui_helpers;

use smolweb_client::Outcome;
use smolweb_net::FetchError;
use smolweb_store::identity::{CreatedBy, Identity, KeyAlgorithm, Scope};
use smolweb_tui::app::Msg;
use tui_helpers::*;

const PAGE: &str = "# A capsule\n\nSome text that is long enough to be wrapped at the text width, because it goes on and on about nothing in particular, like a good blog post.\n\n## Links\n=> gemini://a.test/ A gemini link\n=> gopher://b.test/ A gopher hole\n=> https://c.test/ A web page\n* a list item\n* 日本語のテキストと絵文字🦀も正しく折り返されること、幅の計算は二セル\n> A quote that is rather long and must be wrapped, with the bar repeated on every row.\n```ascii art\n+------+  a preformatted line that is wider than the text column and is never wrapped at all\n|  hi  |\n+------+\n```\n### The end\n";

fn page_app(width: u16, height: u16) -> smolweb_tui::app::App {
    let mut app = app_sized(width, height);
    open(
        &mut app,
        "gemini://cap.test/",
        gem("gemini://cap.test/", PAGE),
    );
    app
}

#[test]
fn a_gemtext_page() {
    let app = page_app(80, 24);
    assert_snapshot("page_80x24", &screen(&app));
}

#[test]
fn a_folded_page_and_a_search() {
    let mut app = page_app(80, 24);
    press(&mut app, &["p", "/"]);
    type_text(&mut app, "link");
    press(&mut app, &["enter", "g"]);
    let s = screen(&app);
    assert!(s.contains("[3 lines folded]"), "{s}");
    assert_snapshot("page_folded", &s);
}

#[test]
fn a_small_terminal() {
    let app = page_app(40, 10);
    assert_snapshot("page_40x10", &screen(&app));
}

#[test]
fn a_gopher_menu() {
    let mut app = app();
    let body = "iWelcome to the hole\tfake\t(NULL)\t0\r\n1Phlog\t/phlog\tb.test\t70\r\n0About me\t/about.txt\tb.test\t70\r\n7Search\t/search\tb.test\t70\r\nhWeb\tURL:https://c.test/\tb.test\t70\r\n.\r\n";
    open(&mut app, "gopher://b.test/", menu("gopher://b.test/", body));
    assert_snapshot("menu_80x24", &screen(&app));
}

#[test]
fn the_changed_certificate_warning() {
    let mut app = app();
    let url = "gemini://cap.test/";
    let fx = app.start(Some(url.into()));
    let (id, _, _) = fetch(&fx);
    answer(
        &mut app,
        id,
        Outcome::Error {
            info: info(url),
            error: FetchError::CertificateChanged {
                change: Box::new(smolweb_net::CertChange {
                    host: "cap.test".into(),
                    port: 1965,
                    pinned:
                        "sha256:1111222233334444555566667777888899990000aaaabbbbccccddddeeeeffff"
                            .into(),
                    presented:
                        "sha256:ffffeeeeddddccccbbbbaaaa0000999988887777666655554444333322221111"
                            .into(),
                    pinned_not_after: "2031-05-06T00:00:00Z".into(),
                    presented_not_after: "2032-01-02T00:00:00Z".into(),
                }),
            },
        },
    );
    assert_snapshot("tofu_warning", &screen(&app));
}

#[test]
fn the_identities_screen() {
    let mut app = app();
    open(
        &mut app,
        "gemini://cap.test/",
        gem("gemini://cap.test/", PAGE),
    );
    press(&mut app, &["I"]);
    app.update(Msg::Identities(vec![Identity {
        name: "me".into(),
        fingerprint: "sha256:beef".into(),
        scope: Scope {
            host: "cap.test".into(),
            port: 1965,
            path: "/".into(),
        },
        not_before: time::macros::datetime!(2025-01-01 0:00 UTC),
        not_after: time::macros::datetime!(2099-01-01 0:00 UTC),
        created_by: CreatedBy::Human,
        agent_use: true,
        algorithm: KeyAlgorithm::EcdsaP256,
        cert_pem: String::new(),
    }]));
    app.update(Msg::Approvals(vec![smolweb_store::approvals::Approval {
        id: "ab12cd34".into(),
        request: smolweb_store::approvals::Request::IdentityCreate {
            scope: Scope {
                host: "cap.test".into(),
                port: 1965,
                path: "/app".into(),
            },
            name: "agent-login".into(),
        },
        client: "test-agent".into(),
        requested_at: time::macros::datetime!(2025-01-01 0:00 UTC),
        expires_at: time::macros::datetime!(2099-01-01 0:00 UTC),
    }]));
    assert_snapshot("identities", &screen(&app));
}

#[test]
fn the_help_page() {
    let mut app = app();
    app.start(Some("about:help".into()));
    assert_snapshot("help", &screen(&app));
}

#[test]
fn page_info_popup() {
    let mut app = page_app(80, 24);
    press(&mut app, &["i"]);
    let s = screen(&app);
    assert!(s.contains("Page info") && s.contains("text/gemini"), "{s}");
}

#[test]
fn the_pins_page() {
    let pin = |host: &str, port| smolweb_store::tofu::Pin {
        host: host.into(),
        port,
        fingerprint: format!("sha256:{}", "ab".repeat(32)),
        not_after: Some(time::macros::datetime!(2031-05-06 0:00 UTC)),
        first_seen: time::macros::datetime!(2026-01-02 0:00 UTC),
        last_seen: time::macros::datetime!(2026-11-30 0:00 UTC),
    };
    let page = smolweb_client::about_browser::pins_page(&[pin("cap.test", 1965), pin("::1", 1966)]);
    let mut app = app_sized(80, 30);
    let fx = app.start(Some("about:trust".into()));
    let (id, _, _) = fetch(&fx);
    answer(&mut app, id, gem("about:trust", &page));
    assert_snapshot("pins", &screen(&app));
}

#[test]
fn a_selected_link_shows_its_url_in_the_status_line() {
    let mut app = page_app(80, 24);
    press(&mut app, &["tab", "tab", "tab"]);
    assert_snapshot("link_url", &screen(&app));
}

#[test]
fn the_download_choice() {
    let mut app = page_app(80, 24);
    go(
        &mut app,
        "gemini://cap.test/song",
        page_with("gemini://cap.test/song", "audio/ogg", &[0u8; 123_456]),
    );
    assert_snapshot("download", &screen(&app));
}

/// Nothing a capsule or an agent wrote reaches the screen as a control, a bidi control or an
/// invisible format character: page text, link labels, preformatted blocks, titles in the tab
/// bar, a capsule's prompt, a failure's meta on the status line, and an agent's declared
/// name in the identities view (Hardening II, 1 and 2).
#[test]
fn bidi_and_invisible_characters_never_reach_the_screen() {
    fn assert_clean(what: &str, s: &str) {
        let bad: Vec<char> = s
            .chars()
            .filter(|&c| {
                (c != '\n' && c.is_control())
                    || matches!(c, '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2060}'..='\u{206f}' | '\u{feff}' | '\u{ad}' | '\u{61c}')
                    || ('\u{e0000}'..='\u{e007f}').contains(&c)
            })
            .collect();
        assert!(bad.is_empty(), "{what}: {bad:?} in\n{s}");
    }
    let trojan = "# Title \u{202e}gnp.exe\u{202c}\n\
                  text \u{2066}isAdmin\u{2069} and pay\u{200b}pal\u{feff} soft\u{ad}hyphen \u{e0041}\u{e0049}\n\
                  => /x Label \u{202e}txt.exe\n\
                  ```sh\nrm -rf /tmp/x \u{2067}\u{2066}# harmless\u{2069}\u{2069}\n```\n\
                  * item \u{200f}right\u{200e}left\u{61c}\n> quote \u{202d}over\u{202c}\n";
    let mut app = app();
    open(
        &mut app,
        "gemini://cap.test/",
        gem("gemini://cap.test/", trojan),
    );
    let s = screen(&app);
    assert_clean("page", &s);
    assert!(s.contains("Label \u{fffd}txt.exe"), "{s}");
    assert!(
        s.contains("rm -rf /tmp/x \u{fffd}\u{fffd}# harmless"),
        "{s}"
    );
    assert!(s.contains("paypal soft"), "invisible ones are dropped: {s}");
    press(&mut app, &["i"]);
    assert_clean("page info", &screen(&app));
    press(&mut app, &["esc"]);

    // A capsule's prompt, long enough to get its own box, and a failure's meta.
    let ask = format!(
        "{} \u{202e}drowssap\u{2069}\x1b]0;x\x07",
        "Tell me ".repeat(8)
    );
    go(
        &mut app,
        "gemini://cap.test/ask",
        Outcome::Input {
            info: info("gemini://cap.test/ask"),
            prompt: ask,
            sensitive: false,
        },
    );
    assert_clean("prompt", &screen(&app));
    press(&mut app, &["esc"]);
    go(
        &mut app,
        "gemini://cap.test/gone",
        Outcome::Failure {
            info: info("gemini://cap.test/gone"),
            status: 51,
            meta: "not \u{202e}here\u{200b}\x1b[2J".into(),
            retry_after_seconds: None,
        },
    );
    assert_clean("failure", &screen(&app));

    // An agent's self-declared name in the identities view.
    let mut app = app_sized(160, 10);
    app.start(Some("about:identities".into()));
    app.update(Msg::Approvals(vec![smolweb_store::approvals::Approval {
        id: "ab12cd34".into(),
        request: smolweb_store::approvals::Request::TrustRemove {
            host: "cap.test".into(),
            port: 1965,
        },
        client: "agent\x1b]0;pwned\x07\u{9b}31m\u{202e}exe.txt\u{2066}".into(),
        requested_at: time::macros::datetime!(2025-01-01 0:00 UTC),
        expires_at: time::macros::datetime!(2099-01-01 0:00 UTC),
    }]));
    let s = screen(&app);
    assert_clean("identities", &s);
    assert!(s.contains("(asked by agent\u{fffd}]0;pwned"), "{s}");
}

/// Issue 33: labels moved a column right from `[10]` on. They line up.
#[test]
fn link_labels_line_up_past_nine() {
    let mut app = app();
    let body: String = (1..=12)
        .map(|i| format!("=> /{i}.gmi Chapter {i}, a title long enough to wrap at the text width of the page\n"))
        .collect();
    open(
        &mut app,
        "gemini://cap.test/",
        gem("gemini://cap.test/", &format!("# Chapters\n{body}")),
    );
    let s = screen(&app);
    let starts: Vec<usize> = s
        .lines()
        .filter(|l| l.contains("Chapter "))
        .map(|l| l.find("Chapter").unwrap())
        .collect();
    assert!(starts.windows(2).all(|w| w[0] == w[1]), "{starts:?}\n{s}");
    assert_snapshot("links_aligned", &s);
}

/// Issue 33: the outline over a page, its levels indented, the section under the cursor.
#[test]
fn the_outline() {
    let mut app = page_app(80, 24);
    press(&mut app, &["#", "j"]);
    assert_snapshot("outline", &screen(&app));
}
