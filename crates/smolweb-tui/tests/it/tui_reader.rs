//! The reader view: web pages in the browser, driven by key sequences and fetch results made
//! with the real HTML conversion (no terminal, no network).

use crate::tui_helpers;
use smolweb_testkit as support;

use smolweb_client::Outcome;
use smolweb_client::web::{WebFetched, WebFormat, WebPage, reader_outcome, web_page};
use smolweb_core::html::{Extract, Extraction};
use smolweb_core::url::Url;
use smolweb_net::http::{HttpResponse, WebTls};
use smolweb_tui::app::{App, Effect, Msg, Popup, ShellError};
use std::sync::Arc;
use time::OffsetDateTime;
use tui_helpers::*;

const HOME: &str = "gemini://home.test/";
const HOME_BODY: &str = "# Home\n\n=> https://web.test/post A web article\n=> http://plain.test/ A plain web page\n=> mailto:me@home.test Write to me\n";
const POST: &str = "https://web.test/post";

const ARTICLE: &str = r#"<!doctype html><html lang="en"><head><title>A web article</title></head>
<body>
<nav><a href="/">Home</a> <a href="/about">About</a> <a href="/archive">Archive</a></nav>
<main><article>
<h1>A web article</h1>
<p>The first paragraph of the article says something worth reading about small web
protocols, and it goes on long enough for the readability pass to keep it as the body.</p>
<h2>A list</h2>
<ul><li>one point</li><li>another point</li></ul>
<blockquote>A quotation from somewhere else.</blockquote>
<p>Read <a href="gemini://cap.test/">the capsule</a> or <a href="/next">the next post</a>.</p>
<pre><code>let x = 1;</code></pre>
<form action="/subscribe"><input name="email"><button>Subscribe</button></form>
<p>A last paragraph, so that the article has enough text in it to count as the main content
of this page rather than as one more box next to the navigation.</p>
</article></main>
<footer>Copyright and links nobody reads.</footer>
</body></html>"#;

/// A web answer as the HTTP fetcher hands it over (https ones with a verified certificate).
fn response(url: &str, content_type: &str, body: &[u8]) -> HttpResponse {
    HttpResponse {
        status: 200,
        final_url: url.into(),
        content_type: Some(content_type.into()),
        retry_after: None,
        markdown_tokens: None,
        body: body.to_vec(),
        truncated: false,
        tls: url.starts_with("https:").then(|| WebTls {
            cert_fingerprint: "sha256:00112233".into(),
            version: Some("TLSv1.3".into()),
            root: None,
        }),
        redirects: Vec::new(),
        validators: Default::default(),
        moved_to: None,
    }
}

/// The outcome the client's reader face answers for this page (the same conversion and the
/// same result as `fetch_url`, made into the reader's page by the client's own code).
fn outcome(url: &str, page: WebPage) -> Outcome {
    let fetched = WebFetched {
        page: Arc::new(page),
        from_cache: false,
    };
    reader_outcome(Url::parse(url).unwrap(), info(url), &fetched)
}

/// A web page as the client's reader face answers it: the HTML converted with the real
/// conversion, shown as gemtext, the page's own type kept.
fn web(url: &str, html: &str, extract: Extract) -> Outcome {
    outcome(url, converted(url, html, extract))
}

fn converted(url: &str, html: &str, extract: Extract) -> WebPage {
    let resp = response(url, "text/html; charset=utf-8", html.as_bytes());
    web_page(
        resp,
        WebFormat::Markdown,
        extract,
        OffsetDateTime::UNIX_EPOCH,
        true,
    )
    .unwrap()
}

fn at_home() -> App {
    let mut app = app();
    open(&mut app, HOME, gem(HOME, HOME_BODY));
    app
}

/// Home, then link 1 into the reader view.
fn at_post() -> App {
    let mut app = at_home();
    let (id, url, opts) = fetch(&press(&mut app, &["1"]));
    assert_eq!(url, POST);
    assert!(!opts.web_full, "the main content first");
    answer(&mut app, id, web(POST, ARTICLE, Extract::Main));
    app
}

#[test]
fn an_https_link_is_fetched_into_the_reader_view() {
    let mut app = at_home();
    assert!(
        screen(&app).contains("A web article (https)"),
        "on a capsule a web link says where it goes"
    );
    let fx = press(&mut app, &["1"]);
    assert!(app.dialog().popup.is_none(), "{:?}", app.dialog().popup);
    assert!(!fx.iter().any(|e| matches!(e, Effect::OpenExternal { .. })));
    let (id, url, _) = fetch(&fx);
    assert_eq!(url, POST);
    answer(&mut app, id, web(POST, ARTICLE, Extract::Main));
    assert_eq!(app.current_url(), Some(POST));
    assert_eq!(app.current().unwrap().title, "A web article");
    let s = screen(&app);
    assert!(s.contains("A web article"), "{s}");
    assert!(
        s.contains("• one point"),
        "lists are drawn as gemtext lists: {s}"
    );
    assert!(s.contains("A quotation from somewhere else."), "{s}");
    assert!(
        !s.contains("Copyright"),
        "the footer is not main content: {s}"
    );
    assert!(s.contains("smolweb does not submit forms"), "{s}");
    assert!(
        s.contains("the next post\n") && !s.contains("(https)"),
        "on a web page its web links are not marked as leaving: {s}"
    );
    let status_line = s.lines().last().unwrap().to_string();
    assert!(
        status_line.contains("web page (v: full page · E: browser)"),
        "{status_line}"
    );
    assert!(
        status_line.contains("web · certificate verified · main"),
        "{status_line}"
    );
}

#[test]
fn links_in_the_reader_view_open_natively_and_back_returns() {
    let mut app = at_post();
    let s = screen(&app);
    let n = s
        .lines()
        .find(|l| l.contains("] the capsule"))
        .and_then(|l| l.split('[').nth(1))
        .and_then(|l| l.split(']').next())
        .unwrap_or_else(|| panic!("a numbered capsule link: {s}"))
        .to_string();
    let (id, url, _) = fetch(&press(&mut app, &[&n, "enter"]));
    assert_eq!(url, "gemini://cap.test/");
    answer(&mut app, id, gem("gemini://cap.test/", "# Capsule\n"));
    assert!(app.web_badge().is_none(), "a capsule is not a web page");
    press(&mut app, &["b"]);
    assert_eq!(app.current_url(), Some(POST));
    assert!(app.web_badge().is_some());
}

#[test]
fn the_toggle_key_fetches_the_full_page_and_back() {
    let mut app = at_post();
    let fx = press(&mut app, &["v"]);
    let (id, url, opts) = fetch(&fx);
    assert_eq!(url, POST);
    assert!(opts.web_full, "{opts:?}");
    answer(&mut app, id, web(POST, ARTICLE, Extract::Full));
    let s = screen(&app);
    assert!(s.contains("certificate verified · full"), "{s}");
    assert!(
        app.status().text.contains("v: main content"),
        "{:?}",
        app.status()
    );
    // The toggle replaced the entry: back goes home, not to the main-content copy.
    press(&mut app, &["G"]);
    assert!(
        screen(&app).contains("Copyright"),
        "the whole page has its footer"
    );
    // A reload keeps the full page.
    let (_, _, opts) = fetch(&press(&mut app, &["r"]));
    assert!(opts.web_full && opts.refresh, "{opts:?}");
    press(&mut app, &["esc"]);
    let (id, _, opts) = fetch(&press(&mut app, &["v"]));
    assert!(!opts.web_full);
    answer(&mut app, id, web(POST, ARTICLE, Extract::Main));
    assert!(app.web_badge().unwrap().ends_with("· main"));
    press(&mut app, &["b"]);
    assert_eq!(app.current_url(), Some(HOME));
}

#[test]
fn the_toggle_key_on_a_capsule_says_it_is_for_web_pages() {
    let mut app = at_home();
    assert!(fetches(&press(&mut app, &["v"])).is_empty());
    assert!(
        app.status().text.contains("not a web page"),
        "{:?}",
        app.status()
    );
}

#[test]
fn the_browser_key_opens_the_page_externally_and_offers_to_copy_on_failure() {
    let mut app = at_post();
    let fx = press(&mut app, &["E"]);
    assert!(
        fx.iter()
            .any(|e| matches!(e, Effect::OpenExternal { url } if url == POST)),
        "{fx:?}"
    );
    app.update(Msg::Done(Err(ShellError::Start {
        program: "xdg-open".into(),
        url: POST.into(),
        source: std::sync::Arc::new(std::io::Error::from(std::io::ErrorKind::NotFound)),
    })));
    assert!(
        matches!(&app.dialog().popup, Some(Popup::Confirm(q)) if q.contains(POST) && q.contains("Copy")),
        "{:?}",
        app.dialog().popup
    );
    let fx = press(&mut app, &["y"]);
    assert!(
        fx.iter()
            .any(|e| matches!(e, Effect::Copy { text } if text == POST)),
        "{fx:?}"
    );
}

#[test]
fn page_info_says_web_page_and_how_the_certificate_was_checked() {
    let mut app = at_post();
    press(&mut app, &["i"]);
    let Some(Popup::Info(rows)) = &app.dialog().popup else {
        panic!("{:?}", app.dialog().popup);
    };
    let get = |k: &str| rows.iter().find(|(a, _)| a == k).map(|(_, b)| b.clone());
    assert_eq!(get("Type").as_deref(), Some("text/html"));
    assert!(get("Kind").unwrap().contains("web page"));
    assert_eq!(
        get("Trust").as_deref(),
        Some("verified against the trusted roots")
    );

    let mut app = at_home();
    let (id, url, _) = fetch(&press(&mut app, &["2"]));
    assert_eq!(url, "http://plain.test/");
    answer(&mut app, id, web(&url, ARTICLE, Extract::Main));
    assert!(app.web_badge().unwrap().contains("not encrypted"));
    press(&mut app, &["i"]);
    let Some(Popup::Info(rows)) = &app.dialog().popup else {
        panic!("{:?}", app.dialog().popup);
    };
    assert!(
        rows.iter()
            .any(|(k, v)| k == "TLS" && v.contains("not encrypted")),
        "{rows:?}"
    );
}

#[test]
fn with_open_external_the_web_goes_to_the_external_browser() {
    let mut app = at_home();
    app.set_web_external(true);
    let fx = press(&mut app, &["1"]);
    assert!(fetches(&fx).is_empty());
    assert!(matches!(&app.dialog().popup, Some(Popup::Confirm(q)) if q.contains(POST)));
    let fx = press(&mut app, &["y"]);
    assert!(
        fx.iter()
            .any(|e| matches!(e, Effect::OpenExternal { url } if url == POST))
    );
}

#[test]
fn other_foreign_schemes_still_ask_before_leaving() {
    let mut app = at_home();
    let fx = press(&mut app, &["3"]);
    assert!(fetches(&fx).is_empty());
    assert!(matches!(&app.dialog().popup, Some(Popup::Confirm(q)) if q.contains("mailto:")));
}

#[test]
fn an_https_link_opens_in_a_new_tab_too() {
    let mut app = at_home();
    let (_, url, _) = fetch(&press(&mut app, &["tab", "t"]));
    assert_eq!(url, POST);
    assert_eq!(app.tabs().len(), 2);
}

#[test]
fn a_reader_page_snapshot() {
    let mut app = app();
    open(&mut app, POST, web(POST, ARTICLE, Extract::Main));
    assert_snapshot("reader_80x24", &screen(&app));
}

#[test]
fn help_names_the_reader_keys_and_they_can_be_rebound() {
    use smolweb_tui::keymap::Keymap;
    let page = smolweb_tui::app::pages::help_page(&Keymap::default()).unwrap();
    let text = String::from_utf8_lossy(&page.raw).to_string();
    assert!(
        text.contains("* v: web page: toggle main content / full page (reader_full)"),
        "{text}"
    );
    assert!(text.contains("(open_in_browser)"), "{text}");

    let mut keys = std::collections::BTreeMap::new();
    keys.insert("reader_full".to_string(), vec!["F".to_string()]);
    keys.insert("open_in_browser".to_string(), vec!["ctrl-o".to_string()]);
    let tui = smolweb_client::config::Tui {
        keys,
        ..Default::default()
    };
    let mut app = App::from_config(&tui, 365).unwrap();
    app.update(Msg::Resize {
        width: 80,
        height: 24,
    });
    open(&mut app, POST, web(POST, ARTICLE, Extract::Main));
    assert!(fetches(&press(&mut app, &["v"])).is_empty());
    let (_, _, opts) = fetch(&press(&mut app, &["F"]));
    assert!(opts.web_full);
    press(&mut app, &["esc"]);
    let fx = press(&mut app, &["ctrl-o"]);
    assert!(fx.iter().any(|e| matches!(e, Effect::OpenExternal { .. })));
}

/// Home, link 1, answered with `outcome`.
fn at_post_with(page: WebPage) -> App {
    let mut app = at_home();
    let (id, url, _) = fetch(&press(&mut app, &["1"]));
    answer(&mut app, id, outcome(&url, page));
    app
}

fn info_row(app: &mut App, key: &str) -> String {
    press(app, &["i"]);
    let Some(Popup::Info(rows)) = &app.dialog().popup else {
        panic!("{:?}", app.dialog().popup);
    };
    let row = rows.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone());
    press(app, &["esc"]);
    row.unwrap_or_else(|| panic!("no {key} row"))
}

#[test]
fn a_page_without_an_article_says_it_shows_the_full_page() {
    // The converter found no article and gave the whole page (`fallback-full`).
    let mut page = converted(POST, ARTICLE, Extract::Full);
    page.extraction = Extraction::FallbackFull;
    let mut app = at_post_with(page);
    let s = screen(&app);
    let status_line = s.lines().last().unwrap();
    assert!(
        status_line.starts_with("web page (E: browser)"),
        "{status_line}"
    );
    assert!(
        status_line.contains("web · certificate verified · full (no article found)"),
        "{status_line}"
    );
    assert!(!status_line.contains("· main"), "{status_line}");
    assert_eq!(
        info_row(&mut app, "Kind"),
        "web page (reader view: full page, no article found)"
    );
    // `v` would give the same page: it says so instead of fetching it again.
    assert!(fetches(&press(&mut app, &["v"])).is_empty());
    assert!(
        app.status()
            .text
            .contains("no article was found on this page: the full page is shown already"),
        "{:?}",
        app.status()
    );
}

#[test]
fn page_info_names_the_extraction_used() {
    let mut app = at_post();
    assert_eq!(
        info_row(&mut app, "Kind"),
        "web page (reader view: main content)"
    );
    let (id, _, _) = fetch(&press(&mut app, &["v"]));
    answer(&mut app, id, web(POST, ARTICLE, Extract::Full));
    assert_eq!(
        info_row(&mut app, "Kind"),
        "web page (reader view: full page)"
    );
}

#[test]
fn a_json_link_opens_as_pretty_text_in_the_reader() {
    let resp = response(
        POST,
        "application/json",
        br#"{"tide":{"high":"06:12","low":"12:30"}}"#,
    );
    let page = web_page(
        resp,
        WebFormat::Markdown,
        Extract::Main,
        OffsetDateTime::UNIX_EPOCH,
        true,
    )
    .unwrap();
    let mut app = at_post_with(page);
    let s = screen(&app);
    // Pretty-printed, its indentation kept (the screen has a one-column margin).
    assert!(
        s.contains(" {\n   \"tide\": {\n     \"high\": \"06:12\","),
        "{s}"
    );
    assert!(app.web_badge().unwrap().ends_with("· JSON"), "{s}");
    assert_eq!(
        info_row(&mut app, "Kind"),
        "web page (reader view: JSON, pretty-printed)"
    );
    assert_eq!(info_row(&mut app, "Type"), "application/json");
    assert!(fetches(&press(&mut app, &["v"])).is_empty());
    assert!(
        app.status()
            .text
            .contains("not HTML: it has no main content / full page view"),
        "{:?}",
        app.status()
    );
}

#[test]
fn a_pdf_link_opens_as_its_text_in_the_reader() {
    use smolweb_core::pdf::{PdfLimits, extract};
    let pdf = support::pdf::text_pdf(
        "Tide tables",
        &[&["High water at six."], &["Low water at noon."]],
        support::pdf::Layout::Lines,
        true,
    );
    // Sent with a type that hides what it is: the bytes say PDF.
    let resp = response(POST, "application/octet-stream", &pdf);
    let read = extract(&pdf, &PdfLimits::for_body(pdf.len()), &|| true);
    let page =
        smolweb_client::web::web_pdf_page(resp, read, OffsetDateTime::UNIX_EPOCH, true).unwrap();
    let mut app = at_post_with(page);
    let s = screen(&app);
    assert!(
        s.contains("--- page 1 of 2 ---")
            && s.contains("High water at six.")
            && s.contains("--- page 2 of 2 ---"),
        "{s}"
    );
    assert!(app.web_badge().unwrap().ends_with("· PDF, 2 pages"));
    assert_eq!(info_row(&mut app, "Type"), "application/pdf");
    assert_eq!(
        info_row(&mut app, "Kind"),
        "web page (reader view: the text of a PDF (2 pages))"
    );
}

#[test]
fn the_toggle_keeps_the_paragraph_being_read() {
    let nav: String = (0..60)
        .map(|i| format!("<li><a href=\"/section-{i}\">Section number {i}</a></li>"))
        .collect();
    let paras: String = (0..40)
        .map(|i| {
            format!("<p>Paragraph {i} of the long article says its own thing, {i} times over.</p>")
        })
        .collect();
    let html = format!(
        "<!doctype html><html><head><title>Long read</title></head><body><nav><ul>{nav}</ul></nav>\
         <article><h1>Long read</h1>{paras}</article><footer>Copyright</footer></body></html>"
    );
    let mut app = at_home();
    let (id, _, _) = fetch(&press(&mut app, &["1"]));
    answer(&mut app, id, web(POST, &html, Extract::Main));
    press(&mut app, &["G"]);
    let first_row = |app: &App| -> String {
        app.screen()
            .frame()
            .iter()
            .map(|r| r.text.trim().to_string())
            .find(|t| !t.is_empty())
            .unwrap_or_default()
    };
    let before = first_row(&app);
    assert!(before.contains("Paragraph 2"), "near the end: {before}");
    let (id, _, opts) = fetch(&press(&mut app, &["v"]));
    assert!(opts.web_full);
    answer(&mut app, id, web(POST, &html, Extract::Full));
    assert!(screen(&app).contains("· full"), "{}", screen(&app));
    assert_eq!(first_row(&app), before, "the same paragraph is on top");
}

#[test]
fn the_status_line_and_page_info_say_what_the_page_is() {
    let reading = converted(POST, ARTICLE, Extract::Main)
        .reading
        .expect("a converted page has a reading");
    let said = reading.short();
    assert!(
        said.contains(" · quality 0.") && !reading.is_poor(),
        "{said}"
    );
    let mut app = at_post();
    // At 80 columns the arrival message keeps its room: the reading gives way to it.
    let s = screen(&app);
    let status_line = s.lines().last().unwrap();
    assert!(
        status_line.contains("web page (v: full page · E: browser)"),
        "{status_line}"
    );
    app.update(Msg::Resize {
        width: 140,
        height: 24,
    });
    let s = screen(&app);
    let status_line = s.lines().last().unwrap();
    assert!(
        status_line.contains("web page (v: full page · E: browser)")
            && status_line.contains(&format!("web · certificate verified · main  {said}")),
        "{status_line}"
    );
    assert_eq!(info_row(&mut app, "Page type"), reading.page_type.as_str());
    let quality = info_row(&mut app, "Quality");
    assert!(
        quality.starts_with("0.") && quality.ends_with("(estimated share of the main text kept)"),
        "{quality}"
    );
    // The whole page asked for: the type, no figure.
    let (id, _, _) = fetch(&press(&mut app, &["v"]));
    answer(&mut app, id, web(POST, ARTICLE, Extract::Full));
    let s = screen(&app);
    let status_line = s.lines().last().unwrap();
    assert!(
        status_line.contains(&format!(
            "web · certificate verified · full  {}",
            reading.page_type.as_str()
        )) && !status_line.contains("quality"),
        "{status_line}"
    );
}

#[test]
fn a_likely_poor_main_text_names_the_key_to_the_full_page() {
    let page = converted(POST, &support::http::chrome_only_page(), Extract::Main);
    let reading = page.reading.expect("a reading");
    assert!(reading.is_poor(), "{reading:?}");
    let mut app = at_post_with(page);
    let s = screen(&app);
    let status_line = s.lines().last().unwrap();
    assert!(
        status_line.starts_with(&format!(
            "quality {:.2}, likely poor: v: full page",
            reading.quality().unwrap()
        )),
        "{status_line}"
    );
    let quality = info_row(&mut app, "Quality");
    assert!(quality.contains("likely poor, v: full page"), "{quality}");
    let (_, url, opts) = fetch(&press(&mut app, &["v"]));
    assert_eq!(url, POST);
    assert!(opts.web_full, "v asks for the full page");
}
