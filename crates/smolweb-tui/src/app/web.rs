//! The reader view room: web pages in the browser. An http(s) link loads here like a capsule
//! (the client answers with the page converted to gemtext, so it is drawn with the gemtext
//! styles) unless `[web] open_external` sends the web to the external browser. This room
//! owns what is particular to a web page: the main content / full page toggle (kept per
//! history entry in [`DocView::web_full`] and carried by [`FetchOptions::web_full`]), opening
//! the page in the external browser, and the words the status line and page info use to say
//! that a page comes from the web, whether its certificate was verified, and what the text
//! shown is: the client's [`Shown`](smolweb_core::webtext::Shown) in the request info names it
//! (the article, the full page, the full page because no article was found, JSON, a PDF's
//! text...), so `v` on a page without an article view says why instead of fetching again.
//! Its reading ([`Reading`]) says what the page is and how far to trust its main text
//! ("article · quality 0.92") beside the badge and in page info; a page whose figure is under
//! 0.5 says on arrival that its main text is likely poor and which key shows the full page.
//!
//! There is no trust on first use on the web: an https page the client shows had its
//! certificate verified against the trusted roots (a failed check is an error page), and an
//! http page was not encrypted at all.

use super::{Ctx, DocView, Effect, Entry, FetchOptions, Settings, Special, Then, View};
use crate::keymap::Action;
use crate::layout::external_scheme;
use smolweb_client::RequestInfo;
use smolweb_core::html::{Reading, RuleUse};

/// Is `url` a web address (http or https)?
pub(super) fn is_web(url: &str) -> bool {
    external_scheme(url)
        .is_some_and(|s| s.eq_ignore_ascii_case("http") || s.eq_ignore_ascii_case("https"))
}

/// How a web page reached us, in a few words: "certificate verified" or "not encrypted".
fn transport(info: &RequestInfo) -> &'static str {
    if info.tls.is_some() {
        "certificate verified"
    } else {
        "not encrypted (http)"
    }
}

/// Did this web page come through the person's Gemini proxy (`[web] gemini_proxy`)? Then
/// the connection made, and the certificate judged (trusted on first use), were the proxy's,
/// whose host and port the request info carries, and the page is the proxy's gemtext.
fn via_gemini_proxy(url: &str, info: &RequestInfo) -> bool {
    info.tls.is_some()
        && smolweb_core::url::Url::parse(url)
            .is_ok_and(|u| u.host() != info.host || u.port() != info.port)
}

/// The status line's note on a page of Gemini, Gopher or another small protocol (nex,
/// finger, spartan, scroll, gophers): the protocol and its security, short enough to sit
/// beside the other badges: "TLS, pinned" (the certificate checked against its pin: trust
/// on first use) or "not encrypted". None on other pages (the web reader says its own), on
/// the browser's own warning and error pages, and on a Gemini page not fetched on this visit
/// (a kept copy: no TLS to speak of).
pub(super) fn protocol_badge(e: Option<&Entry>) -> Option<String> {
    use smolweb_core::url::Scheme;
    let e = e?;
    if let View::Doc(dv) = &e.view
        && !matches!(dv.special, Special::None)
    {
        return None;
    }
    let url = smolweb_core::url::Url::parse(&e.url).ok()?;
    let scheme = url.scheme();
    let tls = e.info.as_ref().is_some_and(|i| i.tls.is_some());
    let security = match scheme {
        Scheme::Gemini if tls => "TLS, pinned",
        Scheme::Gemini => return None,
        Scheme::Gopher => "not encrypted",
        s if !s.is_small_net() => return None,
        s if !s.is_tls() => "not encrypted",
        _ if tls => "TLS, pinned",
        _ => "TLS",
    };
    Some(format!("{} · {security}", scheme.as_str()))
}

fn extract_words(full: bool) -> &'static str {
    if full { "full page" } else { "main content" }
}

/// The reader room: stateless (what it needs is in the history entry), with its own keys.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Reader;

/// Does following `url` leave the browser for an external program? Web links do only when
/// `[web] open_external` says so; mailto always does. Nothing else ever does: the opener
/// receives http(s) and mailto only ([`smolweb_core::url::opener_may_receive`]).
pub(super) fn leaves_browser(settings: &Settings, url: &str) -> bool {
    smolweb_core::url::opener_may_receive(url) && (settings.web_external || !is_web(url))
}

/// The entry when it is a web page the reader shows (not an error page).
fn web_view(e: Option<&Entry>) -> Option<(&str, &DocView, &RequestInfo)> {
    let e = e?;
    let View::Doc(dv) = &e.view else {
        return None;
    };
    let info = e.info.as_ref()?;
    (is_web(&e.url) && matches!(dv.special, Special::None)).then_some((
        e.url.as_str(),
        dv.as_ref(),
        info,
    ))
}

impl Reader {
    /// The reader's keys: the main content / full page toggle, the external browser.
    pub(crate) fn act(self, action: Action, ctx: &mut Ctx) -> Vec<Effect> {
        match action {
            Action::ReaderFull => self.toggle_full(ctx),
            Action::OpenInBrowser => self.open_in_browser(ctx),
            _ => Vec::new(),
        }
    }

    /// Is the entry a web page converted whole (what a reload keeps)?
    pub(crate) fn full_here(self, e: Option<&Entry>) -> bool {
        web_view(e).is_some_and(|(_, dv, _)| dv.web_full)
    }

    /// A web page arrived in `tab`: remember how it was converted and say what it is.
    pub(crate) fn shown(self, tab: u64, full: bool, ctx: &mut Ctx) {
        let Some(t) = ctx.tabs.by_id_mut(tab) else {
            return;
        };
        if let Some(Entry {
            url,
            view: View::Doc(dv),
            ..
        }) = t.current.as_mut()
            && is_web(url)
        {
            dv.web_full = full;
        }
        if ctx.tab_id() != tab {
            return;
        }
        let Some((url, _, info)) = web_view(ctx.current()) else {
            return;
        };
        let browser = format!("{}: browser", ctx.hint(Action::OpenInBrowser));
        let poor = info.web.and_then(|w| w.reading).filter(|r| r.is_poor());
        let text = match info.web {
            _ if via_gemini_proxy(url, info) => format!(
                "web page through the Gemini proxy {}:{} ({browser})",
                info.host, info.port
            ),
            // No main content / full page choice here (the badge says what is shown).
            Some(shown) if shown.is_fallback() || !shown.has_article_view() => {
                format!("web page ({browser})")
            }
            // The person's rule for the site no longer finds its region here.
            _ if !full
                && info
                    .web
                    .and_then(|w| w.reading)
                    .is_some_and(|r| r.rule == Some(RuleUse::Unmatched)) =>
            {
                format!(
                    "this site's rule matched nothing on this page: the main text was found as \
                     usual ({}: pick a region again)",
                    ctx.hint(Action::PickRegion)
                )
            }
            // The main text found is likely poor: the key to the full page comes first.
            _ if !full && let Some(q) = poor.and_then(Reading::quality) => format!(
                "quality {q:.2}, likely poor: {}: full page",
                ctx.hint(Action::ReaderFull)
            ),
            _ => format!(
                "web page ({}: {} · {browser})",
                ctx.hint(Action::ReaderFull),
                extract_words(!full),
            ),
        };
        ctx.info(text);
    }

    /// The short note the status line keeps while a web page is shown: how it came and what
    /// is shown ("main", "full", "full (no article found)", "JSON", "PDF, 3 pages", ...).
    pub(crate) fn badge(self, e: Option<&Entry>) -> Option<String> {
        let (url, dv, info) = web_view(e)?;
        if via_gemini_proxy(url, info) {
            return Some("web · via Gemini proxy · TLS, pinned".into());
        }
        let shown = match info.web {
            Some(shown) => shown.short(),
            None => (if dv.web_full { "full" } else { "main" }).to_string(),
        };
        Some(format!("web · {} · {shown}", transport(info)))
    }

    /// What the web page shown is and how far to trust its main text, for the status line:
    /// "article · quality 0.92" ("article" for the full page asked for). None on other pages.
    pub(crate) fn reading_badge(self, e: Option<&Entry>) -> Option<String> {
        let (url, _, info) = web_view(e)?;
        if via_gemini_proxy(url, info) {
            return None;
        }
        Some(info.web?.reading?.short())
    }

    /// Fetch the current web page again, converted the other way (main content / full page).
    /// A page with no article view says so instead: not HTML, or no article was found (the
    /// full page is what is shown already).
    fn toggle_full(self, ctx: &mut Ctx) -> Vec<Effect> {
        let Some((url, dv, info)) = web_view(ctx.current()) else {
            ctx.info("not a web page: only web pages have a main content / full page view");
            return Vec::new();
        };
        if via_gemini_proxy(url, info) {
            ctx.info("this page came from the Gemini proxy as gemtext: it has no main content / full page view");
            return Vec::new();
        }
        match info.web {
            Some(shown) if !shown.has_article_view() => {
                let text = format!(
                    "this page is {}, not HTML: it has no main content / full page view",
                    shown.describe()
                );
                ctx.info(text);
                return Vec::new();
            }
            Some(shown) if shown.is_fallback() && !dv.web_full => {
                ctx.info("no article was found on this page: the full page is shown already");
                return Vec::new();
            }
            _ => {}
        }
        let (url, full) = (url.to_string(), !dv.web_full);
        let opts = FetchOptions {
            web_full: full,
            ..FetchOptions::default()
        };
        ctx.then(Then::Go {
            url,
            opts,
            replace: true,
        });
        Vec::new()
    }

    /// Open the current page with the external browser ($BROWSER, else xdg-open; a program
    /// that cannot start offers to copy the URL instead).
    fn open_in_browser(self, ctx: &mut Ctx) -> Vec<Effect> {
        match ctx.current_url() {
            Some(url) if smolweb_core::url::opener_may_receive(url) => vec![Effect::OpenExternal {
                url: url.to_string(),
            }],
            _ => {
                ctx.info("only web pages open in the external browser");
                Vec::new()
            }
        }
    }

    /// The page info rows of a web page (in place of the Gemini certificate rows).
    /// `full_key` names the key that shows the full page (said when the main text is poor).
    pub(crate) fn info_rows(
        self,
        e: Option<&Entry>,
        full_key: &str,
    ) -> Option<Vec<(String, String)>> {
        let (_, dv, info) = web_view(e)?;
        let shown = match info.web {
            Some(shown) => shown.describe(),
            None => extract_words(dv.web_full).to_string(),
        };
        let mut out = vec![(
            "Kind".to_string(),
            format!("web page (reader view: {shown})"),
        )];
        if let Some(r) = info.web.and_then(|w| w.reading) {
            out.push(("Page type".into(), r.page_type.as_str().into()));
            let rule = info.site_rule.as_deref().unwrap_or("the site's rule");
            match r.rule {
                Some(RuleUse::Applied) => out.push((
                    "Site rule".into(),
                    format!("{rule}: the text is what it keeps (V picks another)"),
                )),
                Some(RuleUse::Unmatched) => out.push((
                    "Site rule".into(),
                    format!("{rule} matched nothing here: the main text was found as usual"),
                )),
                None => {}
            }
            if let Some(q) = r.quality().filter(|_| r.rule != Some(RuleUse::Applied)) {
                let poor = match r.is_poor() {
                    true => format!("; likely poor, {full_key}: full page"),
                    false => String::new(),
                };
                out.push((
                    "Quality".into(),
                    format!("{q:.2} (estimated share of the main text kept{poor})"),
                ));
            }
        }
        match &info.tls {
            Some(t) => {
                out.push(("TLS".into(), t.version.clone()));
                out.push(("Certificate".into(), t.cert_fingerprint.clone()));
                let trust = match &t.root {
                    Some(root) => format!("verified by {root}"),
                    None => "verified against the trusted roots".into(),
                };
                out.push(("Trust".into(), trust));
            }
            None => out.push(("TLS".into(), "none (plain http: not encrypted)".into())),
        }
        Some(out)
    }
}
