//! The browser's state machine driven by key sequences and fake fetch results: no terminal.

use crate::tui_helpers;

use smolweb_client::Outcome;
use smolweb_net::{FetchError, IdentityChoice, TofuState};
use smolweb_store::approvals::{Approval, Request as AskRequest};
use smolweb_store::identity::{CreatedBy, Scope};
use smolweb_tui::app::{Effect, Msg, Popup, Purpose, StoreOp, View};
use tui_helpers::*;

const HOME: &str = "gemini://home.test/";
const HOME_BODY: &str = "# Home\n\nHello.\n=> /one First\n=> gemini://other.test/ Elsewhere\n=> https://web.test/ A web page\n";

fn at_home() -> smolweb_tui::app::App {
    let mut app = app();
    open(&mut app, HOME, gem(HOME, HOME_BODY));
    assert_eq!(app.current_url(), Some(HOME));
    app
}

#[test]
fn start_fetches_and_shows_the_page() {
    let mut app = app();
    let fx = app.start(Some(HOME.into()));
    assert!(
        fx.iter()
            .any(|e| matches!(e, Effect::Store(StoreOp::LoadLists)))
    );
    let (id, url, _) = fetch(&fx);
    assert_eq!(url, HOME);
    assert!(app.tab().unwrap().loading.is_some());
    let fx = answer(&mut app, id, gem(HOME, HOME_BODY));
    assert!(app.tab().unwrap().loading.is_none());
    assert_eq!(app.current().unwrap().title, "Home");
    assert!(
        fx.iter()
            .any(|e| matches!(e, Effect::Store(StoreOp::RecordHistory { url, .. }) if url == HOME))
    );
    assert!(screen(&app).contains("[1] First"));
}

#[test]
fn a_digit_follows_a_link_when_no_longer_number_exists() {
    let mut app = at_home();
    let (_, url, _) = fetch(&press(&mut app, &["1"]));
    assert_eq!(url, "gemini://home.test/one");
}

#[test]
fn digits_wait_for_enter_or_the_timeout_when_ambiguous() {
    let mut app = app();
    let body: String = (1..=12).map(|i| format!("=> /p{i} Page {i}\n")).collect();
    open(&mut app, HOME, gem(HOME, &body));
    assert!(
        fetches(&press(&mut app, &["1"])).is_empty(),
        "1 could be 10, 11 or 12"
    );
    let (_, url, _) = fetch(&app.update(Msg::Tick(5_000)));
    assert_eq!(url, "gemini://home.test/p1");

    let mut app = app_sized(80, 24);
    open(&mut app, HOME, gem(HOME, &body));
    let (_, url, _) = fetch(&press(&mut app, &["1", "2"]));
    assert_eq!(url, "gemini://home.test/p12");

    let mut app = app_sized(80, 24);
    open(&mut app, HOME, gem(HOME, &body));
    press(&mut app, &["1"]);
    let (_, url, _) = fetch(&press(&mut app, &["enter"]));
    assert_eq!(url, "gemini://home.test/p1");
}

#[test]
fn tab_selects_links_and_enter_follows() {
    let mut app = at_home();
    press(&mut app, &["tab", "tab"]);
    assert_eq!(app.doc_view().unwrap().selected, Some(1));
    press(&mut app, &["backtab"]);
    let (_, url, _) = fetch(&press(&mut app, &["enter"]));
    assert_eq!(url, "gemini://home.test/one");
}

#[test]
fn back_and_forward_come_from_memory() {
    let mut app = at_home();
    let (id, _, _) = fetch(&press(&mut app, &["1"]));
    answer(&mut app, id, gem("gemini://home.test/one", "# One\n"));
    assert_eq!(app.current().unwrap().title, "One");
    let fx = press(&mut app, &["b"]);
    assert!(fetches(&fx).is_empty(), "back must not fetch");
    assert_eq!(app.current_url(), Some(HOME));
    let fx = press(&mut app, &["f"]);
    assert!(fetches(&fx).is_empty());
    assert_eq!(app.current().unwrap().title, "One");
}

#[test]
fn back_keeps_the_scroll_position() {
    let mut app = app();
    let body: String = (0..200).map(|i| format!("line {i}\n")).collect::<String>() + "=> /x X\n";
    open(&mut app, HOME, gem(HOME, &body));
    press(&mut app, &["ctrl-d", "ctrl-d"]);
    let top = app.doc_view().unwrap().top;
    assert!(top.line > 0);
    go(
        &mut app,
        "gemini://home.test/x",
        gem("gemini://home.test/x", "# X\n"),
    );
    press(&mut app, &["b"]);
    assert_eq!(app.doc_view().unwrap().top, top);
}

#[test]
fn a_stale_answer_is_dropped() {
    let mut app = at_home();
    let (first, _, _) = fetch(&press(&mut app, &["1"]));
    press(&mut app, &[":", "ctrl-u"]);
    type_text(&mut app, "gemini://home.test/two");
    let fx = press(&mut app, &["enter"]);
    assert!(
        fx.iter()
            .any(|e| matches!(e, Effect::Cancel { id } if *id == first))
    );
    let (second, _, _) = fetch(&fx);
    answer(&mut app, first, gem("gemini://home.test/one", "# One\n"));
    assert_eq!(
        app.current_url(),
        Some(HOME),
        "the cancelled answer must not show"
    );
    answer(&mut app, second, gem("gemini://home.test/two", "# Two\n"));
    assert_eq!(app.current().unwrap().title, "Two");
}

#[test]
fn escape_cancels_a_load() {
    let mut app = at_home();
    let (id, _, _) = fetch(&press(&mut app, &["1"]));
    let fx = press(&mut app, &["esc"]);
    assert!(
        fx.iter()
            .any(|e| matches!(e, Effect::Cancel { id: c } if *c == id))
    );
    assert!(app.tab().unwrap().loading.is_none());
    answer(&mut app, id, gem("gemini://home.test/one", "# One\n"));
    assert_eq!(app.current_url(), Some(HOME));
}

#[test]
fn tabs_open_close_switch_and_undo() {
    let mut app = at_home();
    let (id, url, _) = fetch(&press(&mut app, &["ctrl-t"]));
    assert_eq!(url, "about:home");
    answer(&mut app, id, gem("gemini://home.test/two", "# Two\n"));
    assert_eq!((app.tabs().len(), app.tabs().active), (2, 1));
    press(&mut app, &["ctrl-p"]);
    assert_eq!(app.current().unwrap().title, "Home");
    press(&mut app, &["ctrl-n"]);
    press(&mut app, &["ctrl-w"]);
    assert_eq!(app.tabs().len(), 1);
    press(&mut app, &["ctrl-w"]);
    assert_eq!(app.tabs().len(), 1, "the last tab stays");
    assert!(
        fetches(&press(&mut app, &["X"])).is_empty(),
        "undo restores from memory"
    );
    assert_eq!(app.tabs().len(), 2);
    assert_eq!(app.current().unwrap().title, "Two");
}

#[test]
fn open_a_link_in_a_new_tab() {
    let mut app = at_home();
    press(&mut app, &["tab", "tab"]);
    let (_, url, _) = fetch(&press(&mut app, &["t"]));
    assert_eq!(url, "gemini://other.test/");
    assert_eq!(app.tabs().len(), 2);
    assert_eq!(app.tabs().active, 1);
}

#[test]
fn input_prompt_sends_the_answer_as_query() {
    let mut app = at_home();
    let url = "gemini://home.test/ask";
    press(&mut app, &[":", "ctrl-u"]);
    type_text(&mut app, url);
    let (id, _, _) = fetch(&press(&mut app, &["enter"]));
    answer(
        &mut app,
        id,
        Outcome::Input {
            info: info(url),
            prompt: "Your name".into(),
            sensitive: false,
        },
    );
    let p = app.prompt().expect("prompt open");
    assert!(p.label().contains("Your name"));
    type_text(&mut app, "Ada");
    let (id, sent, opts) = fetch(&press(&mut app, &["enter"]));
    assert_eq!(sent, url);
    assert_eq!(opts.input.as_deref(), Some("Ada"));
    answer(
        &mut app,
        id,
        gem("gemini://home.test/ask?Ada", "# Hi Ada\n"),
    );
    assert_eq!(app.current_url(), Some("gemini://home.test/ask?Ada"));
}

#[test]
fn sensitive_input_is_masked_and_never_kept() {
    let mut app = at_home();
    let url = "gemini://home.test/login";
    go(
        &mut app,
        url,
        Outcome::Input {
            info: info(url),
            prompt: "Password".into(),
            sensitive: true,
        },
    );
    type_text(&mut app, "hunter2");
    let p = app.prompt().unwrap();
    assert_eq!(p.shown_text(), "*******");
    assert!(!screen(&app).contains("hunter2"));
    let (id, _, opts) = fetch(&press(&mut app, &["enter"]));
    assert_eq!(opts.input.as_deref(), Some("hunter2"));
    let fx = answer(
        &mut app,
        id,
        gem("gemini://home.test/login?hunter2", "# Welcome\n"),
    );
    assert_eq!(app.current_url(), Some(url));
    for e in &fx {
        assert!(
            !format!("{e:?}").contains("hunter2"),
            "secret leaked into {e:?}"
        );
    }
}

#[test]
fn same_host_redirects_are_followed_up_to_five() {
    let mut app = at_home();
    let (mut id, _, _) = fetch(&press(&mut app, &["1"]));
    for i in 0..5 {
        let target = format!("gemini://home.test/r{i}");
        let fx = answer(
            &mut app,
            id,
            redirect(&format!("gemini://home.test/r{}", i - 1), &target, false),
        );
        let (next, url, _) = fetch(&fx);
        assert_eq!(url, target);
        id = next;
    }
    let fx = answer(
        &mut app,
        id,
        redirect("gemini://home.test/r4", "gemini://home.test/r5", false),
    );
    assert!(fetches(&fx).is_empty());
    assert!(
        app.status().error && app.status().text.contains("too many redirects"),
        "{:?}",
        app.status()
    );
}

fn redirect(from: &str, target: &str, cross_host: bool) -> Outcome {
    Outcome::Redirect {
        info: info(from),
        target: target.into(),
        permanent: false,
        cross_host,
        scheme: target.split(':').next().unwrap().into(),
    }
}

#[test]
fn redirect_loops_stop_with_a_clear_message() {
    let mut app = at_home();
    let (id, _, _) = fetch(&press(&mut app, &["1"]));
    let (id, _, _) = fetch(&answer(
        &mut app,
        id,
        redirect("gemini://home.test/one", "gemini://home.test/two", false),
    ));
    let fx = answer(
        &mut app,
        id,
        redirect("gemini://home.test/two", "gemini://home.test/one", false),
    );
    assert!(fetches(&fx).is_empty());
    assert!(
        app.status().text.contains("redirect loop"),
        "{:?}",
        app.status()
    );
    assert!(screen(&app).contains("Redirect stopped"));
}

#[test]
fn cross_host_redirects_ask_first() {
    let mut app = at_home();
    let (id, _, _) = fetch(&press(&mut app, &["1"]));
    let fx = answer(
        &mut app,
        id,
        redirect("gemini://home.test/one", "gemini://far.test/", true),
    );
    assert!(fetches(&fx).is_empty());
    assert!(matches!(app.dialog().popup, Some(Popup::Confirm(ref q)) if q.contains("far.test")));
    assert!(screen(&app).contains("far.test"));
    let (_, url, _) = fetch(&press(&mut app, &["y"]));
    assert_eq!(url, "gemini://far.test/");
}

#[test]
fn external_links_open_after_confirmation() {
    // `[web] open_external = true`: the web goes to the external browser, as before.
    let mut app = at_home();
    app.set_web_external(true);
    let fx = press(&mut app, &["3"]);
    assert!(fx.is_empty());
    assert!(press(&mut app, &["n"]).is_empty());
    press(&mut app, &["3"]);
    let fx = press(&mut app, &["y"]);
    assert!(
        fx.iter()
            .any(|e| matches!(e, Effect::OpenExternal { url } if url == "https://web.test/"))
    );
}

#[test]
fn binary_pages_are_saved_not_shown() {
    let mut app = at_home();
    let url = "gemini://home.test/pic.png";
    press(&mut app, &[":", "ctrl-u"]);
    type_text(&mut app, url);
    let (id, _, _) = fetch(&press(&mut app, &["enter"]));
    let fx = answer(
        &mut app,
        id,
        page_with(url, "image/png", b"\x89PNG\r\n\x1a\n"),
    );
    assert!(fx.is_empty(), "a download asks what to do first");
    let fx = press(&mut app, &["s"]);
    assert!(
        fx.iter()
            .any(|e| matches!(e, Effect::Save { name, .. } if name == "pic.png")),
        "{fx:?} {:?}",
        app.dialog().popup
    );
    assert_eq!(app.current_url(), Some(HOME));
}

fn changed() -> Outcome {
    Outcome::Error {
        info: info("gemini://home.test/one"),
        error: FetchError::CertificateChanged {
            change: Box::new(smolweb_net::CertChange {
                host: "home.test".into(),
                port: 1965,
                pinned: "sha256:aaaa".into(),
                presented: "sha256:bbbb".into(),
                pinned_not_after: "2031-05-06T00:00:00Z".into(),
                presented_not_after: "2032-01-02T00:00:00Z".into(),
            }),
        },
    }
}

#[test]
fn changed_certificate_warning_offers_three_choices() {
    let mut app = at_home();
    let (id, _, _) = fetch(&press(&mut app, &["1"]));
    answer(&mut app, id, changed());
    let s = screen(&app);
    assert!(
        s.contains("sha256:aaaa") && s.contains("sha256:bbbb") && s.contains("2031-05-06"),
        "{s}"
    );
    // Go back.
    assert!(fetches(&press(&mut app, &["1"])).is_empty());
    assert_eq!(app.current_url(), Some(HOME));
    // Trust once: refetch with the presented fingerprint; later requests to the host too.
    let mut app = at_home();
    let (id, _, _) = fetch(&press(&mut app, &["1"]));
    answer(&mut app, id, changed());
    let (id, _, opts) = fetch(&press(&mut app, &["2"]));
    assert_eq!(opts.trust_once.as_deref(), Some("sha256:bbbb"));
    let fx = answer(&mut app, id, gem("gemini://home.test/one", "# One\n"));
    assert!(
        !fx.iter()
            .any(|e| matches!(e, Effect::Store(StoreOp::Pin { .. }))),
        "trust once never saves"
    );
    assert_eq!(
        app.tab().unwrap().back.len(),
        1,
        "the warning is replaced, not kept in history"
    );
    let (_, _, opts) = fetch(&press(&mut app, &["r"]));
    assert_eq!(opts.trust_once.as_deref(), Some("sha256:bbbb"));
}

#[test]
fn trust_and_save_pins_the_new_certificate() {
    let mut app = at_home();
    let (id, _, _) = fetch(&press(&mut app, &["1"]));
    answer(&mut app, id, changed());
    let (id, _, opts) = fetch(&press(&mut app, &["3"]));
    assert_eq!(opts.trust_once.as_deref(), Some("sha256:bbbb"));
    let mut page = gem("gemini://home.test/one", "# One\n");
    if let Outcome::Page { info, .. } = &mut page {
        let mut t = tls(TofuState::TrustedOnce);
        t.cert_fingerprint = "sha256:bbbb".into();
        info.tls = Some(t);
    }
    let fx = answer(&mut app, id, page);
    assert!(fx.iter().any(|e| matches!(e,
        Effect::Store(StoreOp::Pin { host, port: 1965, fingerprint, .. }) if host == "home.test" && fingerprint == "sha256:bbbb")));
}

#[test]
fn first_visit_says_the_certificate_was_pinned() {
    let mut app = app();
    let mut page = gem(HOME, HOME_BODY);
    if let Outcome::Page { info, .. } = &mut page {
        info.tls = Some(tls(TofuState::FirstUse));
    }
    open(&mut app, HOME, page);
    assert!(app.status().text.contains("pinned"), "{:?}", app.status());
    assert!(screen(&app).contains("pinned"));
}

#[test]
fn status_60_creates_an_identity_and_retries_with_it() {
    let mut app = at_home();
    let url = "gemini://home.test/private/page";
    go(
        &mut app,
        url,
        Outcome::Certificate {
            info: info(url),
            status: 60,
            message: "Log in".into(),
        },
    );
    assert!(screen(&app).contains("New identity for this directory"));
    press(&mut app, &["2"]);
    assert!(matches!(
        app.prompt().map(|p| &p.purpose),
        Some(Purpose::IdentityName { .. })
    ));
    type_text(&mut app, "-me");
    press(&mut app, &["enter"]);
    assert_eq!(app.prompt().unwrap().text, "365");
    let fx = press(&mut app, &["enter"]);
    let (new, then) = fx
        .iter()
        .find_map(|e| match e {
            Effect::Store(StoreOp::CreateIdentity { new, then }) => {
                Some((new.clone(), then.clone()))
            }
            _ => None,
        })
        .expect("create effect");
    assert_eq!(new.name, "home.test-me");
    assert_eq!(
        (new.scope.host.as_str(), new.scope.path.as_str()),
        ("home.test", "/private")
    );
    assert_eq!(new.days, 365);
    assert_eq!(new.created_by, CreatedBy::Human);
    let id = identity("home.test-me", "sha256:cafe");
    let fx = app.update(Msg::IdentityCreated {
        result: Ok(id),
        then,
    });
    let (_, sent, opts) = fetch(&fx);
    assert_eq!(sent, url);
    assert_eq!(
        opts.identity,
        IdentityChoice::Fingerprint("sha256:cafe".into())
    );
}

fn approval(id: &str) -> Approval {
    Approval {
        id: id.into(),
        request: AskRequest::IdentityCreate {
            scope: Scope {
                host: "capsule.test".into(),
                port: 1965,
                path: "/app".into(),
            },
            name: "agent-login".into(),
        },
        client: "test-agent".into(),
        requested_at: time::macros::datetime!(2025-01-01 0:00 UTC),
        expires_at: time::macros::datetime!(2099-01-01 0:00 UTC),
    }
}

/// A 61 to a request that carried no identity (a Titan upload with a wrong token) does not
/// speak of "the identity you presented" (issue 33, item 8).
#[test]
fn status_61_without_an_identity_is_not_about_one() {
    let mut app = at_home();
    let url = "gemini://home.test/post.gmi";
    let refused = |info| Outcome::Certificate {
        info,
        status: 61,
        message: "wrong token".into(),
    };
    go(&mut app, url, refused(info(url)));
    let s = screen(&app);
    assert!(s.contains("No identity was sent"), "{s}");
    assert!(s.contains("token may be wrong"), "{s}");
    assert!(!s.contains("recognised the identity"), "{s}");
    let mut sent = info(url);
    let mut t = tls(TofuState::Trusted);
    t.client_cert = Some("sha256:cafe".into());
    sent.tls = Some(t);
    go(&mut app, url, refused(sent));
    assert!(screen(&app).contains("recognised the identity you presented"));
}

#[test]
fn status_61_and_62_are_explained_and_62_offers_replacement() {
    let mut app = at_home();
    let url = "gemini://home.test/club";
    go(
        &mut app,
        url,
        Outcome::Certificate {
            info: info(url),
            status: 61,
            message: "members only".into(),
        },
    );
    assert!(screen(&app).contains("not allowed"));
    // 62 after an identity was presented.
    let mut sent = info(url);
    let mut t = tls(TofuState::Trusted);
    t.client_cert = Some("sha256:cafe".into());
    sent.tls = Some(t);
    go(
        &mut app,
        url,
        Outcome::Certificate {
            info: sent,
            status: 62,
            message: "expired".into(),
        },
    );
    assert!(screen(&app).contains("Replace it with a new identity"));
    press(&mut app, &["1"]);
    assert!(matches!(
        app.prompt().map(|p| &p.purpose),
        Some(Purpose::IdentityName { .. })
    ));
}

#[test]
fn existing_identity_can_be_used_for_a_60() {
    let mut app = at_home();
    app.update(Msg::Identities(vec![identity("main", "sha256:beef")]));
    let url = "gemini://home.test/x";
    go(
        &mut app,
        url,
        Outcome::Certificate {
            info: info(url),
            status: 60,
            message: "".into(),
        },
    );
    let (_, _, opts) = fetch(&press(&mut app, &["4"]));
    assert_eq!(
        opts.identity,
        IdentityChoice::Fingerprint("sha256:beef".into())
    );
}

#[test]
fn pending_approvals_show_a_badge_and_can_be_approved_or_denied() {
    let mut app = at_home();
    app.update(Msg::Approvals(vec![
        approval("ab12cd34"),
        approval("ef56ab78"),
    ]));
    assert!(screen(&app).contains("2 agent request"));
    press(&mut app, &["I"]);
    assert!(matches!(
        app.current().unwrap().view,
        View::Identities { .. }
    ));
    assert!(screen(&app).contains("ab12cd34"));
    assert!(
        press(&mut app, &["y"]).is_empty(),
        "approving asks once more"
    );
    assert!(
        matches!(&app.dialog().popup, Some(Popup::Confirm(q))
            if q.contains("test-agent") && q.contains("gemini://capsule.test/app")
                && q.contains("A new client certificate is made")),
        "names the scope and what changes: {:?}",
        app.dialog().popup
    );
    let fx = press(&mut app, &["y"]);
    assert!(
        fx.iter()
            .any(|e| matches!(e, Effect::Store(StoreOp::Approve { id }) if id == "ab12cd34"))
    );
    let fx = press(&mut app, &["j", "x"]);
    assert!(
        fx.iter()
            .any(|e| matches!(e, Effect::Store(StoreOp::Deny { id }) if id == "ef56ab78"))
    );
}

#[test]
fn identities_screen_toggles_agent_use_and_asks_before_deleting() {
    let mut app = at_home();
    press(&mut app, &["I"]);
    app.update(Msg::Identities(vec![identity("main", "sha256:beef")]));
    let fx = press(&mut app, &["a"]);
    assert!(
        fx.iter()
            .any(|e| matches!(e, Effect::Store(StoreOp::SetAgentUse { allowed: true, .. })))
    );
    assert!(press(&mut app, &["d"]).is_empty(), "delete asks first");
    assert!(screen(&app).contains("Delete identity 'main'"));
    let fx = press(&mut app, &["y"]);
    assert!(fx.iter().any(|e| matches!(e, Effect::Store(StoreOp::DeleteIdentity { fingerprint }) if fingerprint == "sha256:beef")));
    assert!(fx.len() == 1);
    let fx = press(&mut app, &["e"]);
    assert!(
        fx.iter()
            .any(|e| matches!(e, Effect::Store(StoreOp::ExportIdentity { .. })))
    );
}

#[test]
fn identity_created_from_the_identities_screen() {
    let mut app = at_home();
    press(&mut app, &["I", "c", "ctrl-u"]);
    type_text(&mut app, "gemini://home.test/app");
    press(&mut app, &["enter", "ctrl-u"]);
    type_text(&mut app, "work");
    press(&mut app, &["enter", "ctrl-u"]);
    type_text(&mut app, "30");
    let fx = press(&mut app, &["enter"]);
    assert!(fx.iter().any(
        |e| matches!(e, Effect::Store(StoreOp::CreateIdentity { new, then: None })
        if new.name == "work" && new.days == 30 && new.scope.path == "/app")
    ));
}

#[test]
fn address_bar_completes_from_history_and_bookmarks() {
    let mut app = at_home();
    app.update(Msg::Lists {
        history: vec![("gemini://capsule.test/log/".into(), Some("A log".into()))],
        bookmarks: vec![smolweb_store::bookmarks::Bookmark {
            url: "gemini://marks.test/".into(),
            title: "Marked".into(),
            folder: String::new(),
        }],
    });
    press(&mut app, &[":", "ctrl-u"]);
    type_text(&mut app, "caps");
    let p = app.prompt().unwrap();
    assert_eq!(p.completions.len(), 1);
    press(&mut app, &["tab"]);
    assert_eq!(app.prompt().unwrap().text, "gemini://capsule.test/log/");
    press(&mut app, &["ctrl-u"]);
    type_text(&mut app, "marked");
    let (_, url, _) = fetch(&press(&mut app, &["tab", "enter"]));
    assert_eq!(url, "gemini://marks.test/");
}

/// Issue 33: a typed URL with the default port found nothing, history keeping URLs without
/// it. The typed prefix is normalized as history is.
#[test]
fn completion_finds_a_typed_url_with_its_default_port() {
    let mut app = at_home();
    app.update(Msg::Lists {
        history: vec![
            ("gemini://host.test/gemlog/".into(), Some("Gemlog".into())),
            ("gemini://host.test/about".into(), None),
        ],
        bookmarks: Vec::new(),
    });
    press(&mut app, &[":", "ctrl-u"]);
    type_text(&mut app, "gemini://HOST.test:1965/ge");
    let p = app.prompt().unwrap();
    assert_eq!(
        p.completions,
        [(
            "gemini://host.test/gemlog/".to_string(),
            "Gemlog".to_string()
        )]
    );
    press(&mut app, &["tab"]);
    assert_eq!(app.prompt().unwrap().text, "gemini://host.test/gemlog/");
    // Another port is another capsule: nothing.
    press(&mut app, &["ctrl-u"]);
    type_text(&mut app, "gemini://host.test:1966/ge");
    assert!(app.prompt().unwrap().completions.is_empty());
}

#[test]
fn bare_host_in_the_address_bar_becomes_gemini() {
    let mut app = at_home();
    press(&mut app, &["space", "ctrl-u"]);
    type_text(&mut app, "example.test");
    let (_, url, _) = fetch(&press(&mut app, &["enter"]));
    assert_eq!(url, "gemini://example.test");
}

#[test]
fn typing_replaces_the_prefilled_address_and_arrows_keep_it() {
    let mut app = at_home();
    press(&mut app, &[":"]);
    assert_eq!(
        app.prompt().unwrap().text,
        HOME,
        "prefilled with the page URL"
    );
    type_text(&mut app, "gopher.test");
    assert_eq!(app.prompt().unwrap().text, "gopher.test");
    press(&mut app, &["esc", ":", "backspace"]);
    assert_eq!(
        app.prompt().unwrap().text,
        "",
        "backspace clears the selection"
    );
    press(&mut app, &["esc", ":", "ctrl-w"]);
    type_text(&mut app, "two");
    assert_eq!(app.prompt().unwrap().text, "gemini://home.test/two");
}

#[test]
fn search_moves_to_matches_and_cycles() {
    let mut app = app();
    let body: String = (0..100)
        .map(|i| {
            if i % 40 == 7 {
                format!("the Needle {i}\n")
            } else {
                format!("hay {i}\n")
            }
        })
        .collect();
    open(&mut app, HOME, gem(HOME, &body));
    press(&mut app, &["/"]);
    type_text(&mut app, "needle");
    press(&mut app, &["enter"]);
    let s = app.doc_view().unwrap().search.clone().unwrap();
    assert_eq!(s.matches.len(), 3);
    assert_eq!(app.doc_view().unwrap().top.line, 7);
    press(&mut app, &["n"]);
    assert_eq!(app.doc_view().unwrap().top.line, 47);
    press(&mut app, &["N", "N"]);
    assert!(
        app.status().text.contains("match 3 of 3"),
        "{:?}",
        app.status()
    );
}

#[test]
fn bookmark_toggles() {
    let mut app = at_home();
    assert!(press(&mut app, &["m"]).is_empty(), "m asks for a name");
    assert_eq!(
        app.prompt().unwrap().text,
        "Home",
        "prefilled with the title"
    );
    let fx = press(&mut app, &["enter"]);
    assert!(
        fx.iter()
            .any(|e| matches!(e, Effect::Store(StoreOp::AddBookmark { url, .. }) if url == HOME))
    );
    let fx = press(&mut app, &["m"]);
    assert!(fx.is_empty(), "a bookmarked page: m asks first: {fx:?}");
    let s = screen(&app);
    assert!(s.contains("Remove the bookmark 'Home'"), "{s}");
    let fx = press(&mut app, &["enter"]);
    assert!(fx.is_empty(), "only y removes: {fx:?}");
    assert!(
        app.status().text.contains("kept the bookmark"),
        "{:?}",
        app.status()
    );
    assert!(app.lists().bookmark(HOME).is_some());
    press(&mut app, &["m"]);
    let fx = press(&mut app, &["y"]);
    assert!(
        fx.iter()
            .any(|e| matches!(e, Effect::Store(StoreOp::RemoveBookmark { url }) if url == HOME))
    );
    assert!(app.lists().bookmark(HOME).is_none());
}

#[test]
fn a_message_belongs_to_the_tab_and_page_where_it_was_said() {
    let mut app = at_home();
    let fx = press(&mut app, &["Y"]);
    assert!(
        fx.iter().any(|e| matches!(e, Effect::Copy { .. })),
        "{fx:?}"
    );
    assert!(app.status().text.contains("copied"), "{:?}", app.status());
    let fx = press(&mut app, &["ctrl-t"]);
    if let Some((id, url, _)) = fetches(&fx).into_iter().next() {
        answer(&mut app, id, gem(&url, "# New tab\n"));
    }
    let last = screen(&app).lines().last().unwrap().to_string();
    assert!(!last.contains("copied"), "the new tab: {last}");
    press(&mut app, &["ctrl-w"]);
    assert_eq!(app.current_url(), Some(HOME));
    let fx = press(&mut app, &["m"]);
    assert!(fx.is_empty());
    press(&mut app, &["enter"]);
    app.update(Msg::Done(Ok(format!("bookmarked {HOME}"))));
    assert!(
        app.status().text.contains("bookmarked"),
        "{:?}",
        app.status()
    );
    go(
        &mut app,
        "about:bookmarks",
        gem("about:bookmarks", "# Bookmarks\n"),
    );
    let last = screen(&app).lines().last().unwrap().to_string();
    assert!(!last.contains(HOME), "the bookmarks page: {last}");
    assert!(
        last.contains("about:bookmarks"),
        "its own address shows: {last}"
    );
}

#[test]
fn up_and_root_go_to_parent_and_capsule_root() {
    let mut app = app();
    let url = "gemini://home.test/a/b/c.gmi";
    open(&mut app, url, gem(url, "# C\n"));
    let (_, up, _) = fetch(&press(&mut app, &["u"]));
    assert_eq!(up, "gemini://home.test/a/b/");
    let mut app = app_sized(80, 24);
    open(&mut app, url, gem(url, "# C\n"));
    let (_, root, _) = fetch(&press(&mut app, &["U"]));
    assert_eq!(root, "gemini://home.test/");
}

#[test]
fn reload_skips_the_cache_and_keeps_the_place() {
    let mut app = app();
    let body: String = (0..200).map(|i| format!("line {i}\n")).collect();
    open(&mut app, HOME, gem(HOME, &body));
    press(&mut app, &["ctrl-d"]);
    let top = app.doc_view().unwrap().top;
    let (id, url, opts) = fetch(&press(&mut app, &["r"]));
    assert!(opts.refresh);
    assert_eq!(url, HOME);
    answer(&mut app, id, gem(HOME, &body));
    assert_eq!(app.doc_view().unwrap().top, top);
    assert!(
        app.tab().unwrap().back.is_empty(),
        "reload does not add history"
    );
}

#[test]
fn a_click_on_a_link_follows_it() {
    let mut app = at_home();
    let row = app
        .screen()
        .frame()
        .iter()
        .position(|r| r.link == Some(0))
        .unwrap();
    let (_, url, _) = fetch(&app.update(Msg::Click {
        col: 12,
        row: row as u16 + 1,
    }));
    assert_eq!(url, "gemini://home.test/one");
}

#[test]
fn scrolling_stops_at_the_ends() {
    let mut app = app();
    let body: String = (0..100).map(|i| format!("line {i}\n")).collect();
    open(&mut app, HOME, gem(HOME, &body));
    press(&mut app, &["k"]);
    assert_eq!(app.doc_view().unwrap().top.line, 0);
    press(&mut app, &["G"]);
    let h = app.screen().page_height();
    assert_eq!(app.doc_view().unwrap().top.line, 100 - h);
    press(&mut app, &["j"]);
    assert_eq!(app.doc_view().unwrap().top.line, 100 - h);
    assert!(screen(&app).contains("line 99"));
    press(&mut app, &["g"]);
    assert_eq!(app.doc_view().unwrap().top.line, 0);
}

#[test]
fn rebinding_a_key_in_the_config_changes_what_it_does() {
    let mut tui = smolweb_client::config::Tui::default();
    tui.keys.insert("quit".into(), vec!["ctrl-q".into()]);
    tui.keys.insert("scroll_down".into(), vec!["e".into()]);
    let mut app = smolweb_tui::app::App::from_config(&tui, 365).unwrap();
    app.update(Msg::Resize {
        width: 80,
        height: 24,
    });
    assert!(press(&mut app, &["q"]).is_empty());
    assert!(!app.has_quit());
    assert!(
        press(&mut app, &["ctrl-q"])
            .iter()
            .any(|e| matches!(e, Effect::Quit))
    );
    tui.keys.insert("fly".into(), vec!["z".into()]);
    assert!(smolweb_tui::app::App::from_config(&tui, 365).is_err());
}

#[test]
fn help_lists_the_live_keymap() {
    let mut tui = smolweb_client::config::Tui::default();
    tui.keys.insert("quit".into(), vec!["ctrl-q".into()]);
    let mut app = smolweb_tui::app::App::from_config(&tui, 365).unwrap();
    app.update(Msg::Resize {
        width: 80,
        height: 200,
    });
    app.start(Some(HOME.into()));
    press(&mut app, &["?"]);
    let s = screen(&app);
    assert!(s.contains("ctrl-q: quit (quit)"), "{s}");
    assert!(s.contains("j, down: scroll down one line"));
}

/// Foreign schemes (issue: Hardening II, 4): a capsule's `javascript:`, `file:`, `data:` links
/// and a menu's `URL:javascript:` item are text, unnumbered; typed or redirected to, they are
/// refused; the external opener only ever sees http(s) and mailto, and `E` on a capsule
/// hands nothing to it.
#[test]
fn foreign_schemes_are_never_followed_or_opened() {
    let body = "# Links\n=> javascript:alert(1) Click me\n=> file:///etc/passwd Secrets\n\
                => data:text/html,<b>x</b> Data\n=> vbscript:msgbox Basic\n\
                => https://web.test/ Web\n=> mailto:op@home.test Mail\n";
    let mut app = app();
    app.set_web_external(true);
    open(&mut app, HOME, gem(HOME, body));
    let s = screen(&app);
    for (label, scheme) in [
        ("Click me", "javascript"),
        ("Secrets", "file"),
        ("Data", "data"),
        ("Basic", "vbscript"),
    ] {
        assert!(
            s.contains(&format!("[-] {label} ({scheme}: link not followed)")),
            "{label}: {s}"
        );
    }
    assert!(s.contains("[1] Web") && s.contains("[2] Mail"), "{s}");
    let opened = |fx: &[Effect]| -> Vec<String> {
        fx.iter()
            .filter_map(|e| match e {
                Effect::OpenExternal { url } => Some(url.clone()),
                _ => None,
            })
            .collect()
    };
    press(&mut app, &["1"]);
    assert_eq!(opened(&press(&mut app, &["y"])), ["https://web.test/"]);
    press(&mut app, &["2"]);
    assert_eq!(opened(&press(&mut app, &["y"])), ["mailto:op@home.test"]);
    assert!(press(&mut app, &["3"]).is_empty(), "only two links");

    // Typed in the address bar: refused with a message, nothing asked.
    for typed in [
        "javascript:alert(1)",
        "file:///etc/passwd",
        "telnet://bbs.test",
    ] {
        press(&mut app, &[":", "ctrl-u"]);
        type_text(&mut app, typed);
        let fx = press(&mut app, &["enter"]);
        assert!(fx.is_empty(), "{typed}: {fx:?}");
        assert!(app.dialog().popup.is_none(), "{typed}");
        assert!(
            app.status().error && app.status().text.contains("not followed"),
            "{typed}"
        );
    }
    // `E` on a capsule: the opener does not get gemini:// (nor anything else but the web).
    assert!(opened(&press(&mut app, &["E"])).is_empty());

    // A redirect to a foreign scheme stops, and says why.
    let mut app = at_home();
    let (id, _, _) = fetch(&press(&mut app, &["1"]));
    let fx = answer(
        &mut app,
        id,
        redirect("gemini://home.test/one", "file:///etc/passwd", true),
    );
    assert!(fx.is_empty() && app.dialog().popup.is_none(), "{fx:?}");
    assert!(screen(&app).contains("file: URL, which is not followed"));

    // A Gopher `h` item whose selector is `URL:javascript:` is text too.
    let menu_body = "hClick\tURL:javascript:alert(1)\tg.test\t70\r\n\
                     hFile\tURL:file:///etc/passwd\tg.test\t70\r\n\
                     hWeb\tURL:https://web.test/\tg.test\t70\r\n.\r\n";
    go(
        &mut app,
        "gopher://g.test/",
        menu("gopher://g.test/", menu_body),
    );
    let s = screen(&app);
    assert!(s.contains("Click (javascript: link not followed)"), "{s}");
    assert!(s.contains("File (file: link not followed)"), "{s}");
    assert!(s.contains("[1] WWW Web"), "{s}");
}

#[test]
fn a_gopher_search_followed_from_a_menu_is_asked_for_by_its_name() {
    let mut app = at_home();
    let body = "iA hole\tfake\t(NULL)\t0\r\n7Search Veronica-2\t/v2/vs\tg.test\t70\r\n.\r\n";
    go(&mut app, "gopher://g.test/", menu("gopher://g.test/", body));
    assert_eq!(
        app.current().unwrap().title,
        "A hole",
        "the menu names itself"
    );
    let fx = press(&mut app, &["1"]);
    assert!(fetches(&fx).is_empty(), "a search asks first: {fx:?}");
    let prompt = app.prompt().expect("a search asks first");
    assert_eq!(prompt.label(), "Search Veronica-2: ");
    // Typed as an address elsewhere, the search has no name to give.
    let mut app = at_home();
    press(&mut app, &[":", "ctrl-u"]);
    type_text(&mut app, "gopher://g.test/7/v2/vs");
    press(&mut app, &["enter"]);
    assert_eq!(app.prompt().expect("asks").label(), "Search for: ");
}
