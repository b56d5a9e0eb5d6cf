//! Moving around: where a URL goes (built-in screen, external program, prompt, fetch),
//! sending requests, the answers coming back, redirects, and stepping through a tab's
//! history; routed between the tabs, loads, lists and special-screens rooms.
//!
//! A fetch replaces any load in progress in its tab (the old one is cancelled and its answer,
//! should it still arrive, is dropped). Back and forward never fetch: entries keep their page.

use super::dialog::Pending;
use super::loads::Request;
use super::special::{PageAction, Special, pages};
use super::{Ctx, DocView, Effect, Entry, FetchOptions, Loading, Opening, StoreOp, Then, View};
use smolweb_client::Outcome;
use smolweb_core::page::Content;
use smolweb_core::url::{Scheme, Url};
use smolweb_net::{FetchError, TofuState};
use std::sync::Arc;

/// Same-host redirects followed without asking.
pub(super) const MAX_REDIRECTS: usize = 5;

/// The navigation room: the requests in flight and the session's trust and identity choices
/// (`Loads`), and every flow that moves a tab (going somewhere, the answers coming back,
/// redirects, history steps, tabs opened and closed).
#[derive(Debug, Default)]
pub(crate) struct Nav {
    pub(super) loads: super::loads::Loads,
}

impl Nav {
    pub(super) fn new_tab(&mut self, ctx: &mut Ctx, url: &str) -> Vec<Effect> {
        ctx.tabs.open();
        self.navigate(ctx, url, FetchOptions::default(), false)
    }

    /// Go to `url` in the active tab: built-in screens, external links, prompts, or a fetch.
    pub(crate) fn navigate(
        &mut self,
        ctx: &mut Ctx,
        url: &str,
        opts: FetchOptions,
        replace: bool,
    ) -> Vec<Effect> {
        let Some(tab) = ctx.tabs.active().map(|t| t.id) else {
            return Vec::new();
        };
        let url = url.trim();
        match url {
            "about:help" => {
                let page = pages::help_page(ctx.keymap);
                ctx.show_doc(tab, url, page, Special::None, None, replace);
                return Vec::new();
            }
            "about:messages" => {
                let page = pages::synth("messages", &ctx.log.page());
                ctx.show_doc(tab, url, page, Special::None, None, replace);
                return Vec::new();
            }
            "about:identities" => {
                let entry = Entry {
                    url: url.into(),
                    title: "identities".into(),
                    view: View::Identities { selected: 0 },
                    info: None,
                };
                self.show(ctx, tab, entry, replace);
                return vec![Effect::Store(StoreOp::LoadLists)];
            }
            _ => {}
        }
        if (opts.typed || opts.refresh)
            && Url::parse(url).is_ok_and(|u| u.scheme() == Scheme::Titan)
        {
            // A titan:// URL the person typed, or the reload of an upload's answer, uploads:
            // the upload dialog, never a fetch (a link to one stays refused by the one link
            // rule).
            ctx.then(Then::Upload(super::upload::Step::Begin(url.to_string())));
            return Vec::new();
        }
        if let Some(scheme) = smolweb_core::url::refused_scheme(url) {
            // The one rule (`core::url::destination`): never fetched, never handed on.
            ctx.error(format!(
                "not followed: smolweb does not open {scheme}: links"
            ));
            return Vec::new();
        }
        if super::web::leaves_browser(ctx.settings, url) {
            return ctx.ask(
                format!("Open {url} with the external program? (y/n)"),
                Pending::External(url.to_string()),
            );
        }
        if opts.search.is_none() && is_gopher_search(url) {
            // Followed from a menu, the search is named as the menu names it.
            let label = ctx
                .doc_view()
                .and_then(|d| d.doc.label_of(url))
                .filter(|l| !l.trim().is_empty());
            ctx.prompt(super::Purpose::GopherSearch {
                tab,
                url: url.to_string(),
                label,
            });
            return Vec::new();
        }
        let req = Request::new(tab, url, opts);
        let fx = self.fetch(ctx, if replace { req.replacing() } else { req });
        ctx.then(Then::FeedsOpened {
            url: url.to_string(),
            replace,
        });
        fx
    }

    /// Send a request (cancelling the tab's previous load).
    pub(super) fn fetch(&mut self, ctx: &mut Ctx, req: Request) -> Vec<Effect> {
        let mut fx = Vec::new();
        let now = ctx.now;
        let Some(tab) = ctx.tabs.by_id_mut(req.tab) else {
            return fx;
        };
        if let Some(old) = tab.loading.take() {
            self.loads.forget(old.id);
            fx.push(Effect::Cancel { id: old.id });
        }
        let (id, req) = self.loads.start(req);
        tab.loading = Some(Loading {
            id,
            url: req.url.clone(),
            bytes: 0,
            started: now,
            upload: None,
        });
        fx.push(Effect::Fetch {
            id,
            url: req.url.clone(),
            opts: req.opts.clone(),
        });
        fx
    }

    /// Send a confirmed Titan upload in `tab` (cancelling its load): a load like a fetch,
    /// whose answer is shown in the tab.
    pub(super) fn upload(
        &mut self,
        ctx: &mut Ctx,
        tab: u64,
        upload: Box<smolweb_client::smallnet::Upload>,
    ) -> Vec<Effect> {
        let mut fx = Vec::new();
        let now = ctx.now;
        let Some(t) = ctx.tabs.by_id_mut(tab) else {
            ctx.error("the tab of the upload was closed: nothing sent");
            return fx;
        };
        if let Some(old) = t.loading.take() {
            self.loads.forget(old.id);
            fx.push(Effect::Cancel { id: old.id });
        }
        let mut req = Request::new(tab, &upload.url, FetchOptions::default());
        req.upload = true;
        let (id, _) = self.loads.start(req);
        t.loading = Some(Loading {
            id,
            url: upload.url.clone(),
            bytes: 0,
            started: now,
            upload: Some(upload.body.len() as u64),
        });
        fx.push(Effect::Upload { id, upload });
        fx
    }

    /// Stop the active tab's load.
    pub(super) fn cancel_load(&mut self, ctx: &mut Ctx) -> Vec<Effect> {
        let Some(l) = ctx.tabs.active_mut().and_then(|t| t.loading.take()) else {
            return Vec::new();
        };
        self.loads.forget(l.id);
        ctx.info(format!("cancelled {}", l.url));
        vec![Effect::Cancel { id: l.id }]
    }

    pub(super) fn on_fetched(&mut self, ctx: &mut Ctx, id: u64, outcome: Outcome) -> Vec<Effect> {
        let Some(req) = self.loads.take(id) else {
            return Vec::new(); // stale: cancelled or superseded
        };
        let Some(tab) = ctx.tabs.by_id_mut(req.tab) else {
            return Vec::new();
        };
        if tab.loading.as_ref().map(|l| l.id) != Some(id) {
            return Vec::new();
        }
        tab.loading = None;
        match outcome {
            Outcome::Page { info, fetched } => self.on_page(ctx, req, info, fetched.page),
            Outcome::Input {
                prompt, sensitive, ..
            } => {
                // After an upload the capsule's question is about its gemini:// page.
                let url = match req.upload {
                    true => gemini_twin(&req.url),
                    false => strip_query(&req.url),
                };
                ctx.prompt(super::Purpose::Input {
                    tab: req.tab,
                    url,
                    sensitive,
                    label: prompt,
                });
                Vec::new()
            }
            Outcome::Redirect {
                target,
                cross_host,
                scheme,
                ..
            } => self.on_redirect(ctx, req, target, cross_host, &scheme),
            Outcome::Certificate {
                info,
                status,
                message,
            } => {
                let (page, special) = pages::client_cert_page(
                    &ctx.lists.identities,
                    &req.url,
                    &info,
                    status,
                    &message,
                );
                ctx.show_doc(req.tab, &req.url, page, special, Some(info), req.replace);
                Vec::new()
            }
            Outcome::Failure {
                info,
                status,
                meta,
                retry_after_seconds,
            } => {
                let page = pages::failure_page(&req.url, status, &meta, retry_after_seconds);
                ctx.error(format!("{status} {meta}"));
                ctx.show_doc(
                    req.tab,
                    &req.url,
                    page,
                    Special::Error,
                    Some(info),
                    req.replace,
                );
                Vec::new()
            }
            Outcome::Error { info, error } => self.on_error(ctx, req, info, error),
        }
    }

    fn on_page(
        &mut self,
        ctx: &mut Ctx,
        req: Request,
        info: smolweb_client::RequestInfo,
        page: Arc<smolweb_core::page::Page>,
    ) -> Vec<Effect> {
        let mut fx = Vec::new();
        let page = capsule_markup(page);
        // A picture is shown (below, once its certificate is dealt with), other binaries offered.
        let picture = ctx.settings.pictures && super::pictures::is_picture(&page);
        if matches!(page.content, Content::Binary) && !picture {
            return super::download::Downloads.offer(&req.url, page, ctx);
        }
        let shown = ctx.tabs.active().is_some_and(|t| t.id == req.tab);
        if let Some(tls) = &info.tls {
            match &tls.tofu {
                TofuState::FirstUse => ctx.info(format!(
                    "first visit to {}:{}: certificate pinned ({})",
                    info.host,
                    info.port,
                    short_fp(&tls.cert_fingerprint)
                )),
                TofuState::ReplacedExpired { .. } => ctx.info(format!(
                    "the old certificate of {}:{} had expired; the new one is pinned",
                    info.host, info.port
                )),
                TofuState::TrustedOnce => ctx.info(format!(
                    "changed certificate of {}:{} trusted for this session only",
                    info.host, info.port
                )),
                // A page loading behind the one read leaves the status line to that one.
                TofuState::Trusted if shown => ctx.status.clear(),
                TofuState::Trusted => {}
            }
            // An identity sent where the tab was not just using it is announced: the person
            // sees that this capsule now knows who they are.
            if let Some(fp) = &tls.client_cert {
                let before = ctx
                    .tabs
                    .by_id(req.tab)
                    .and_then(|t| t.current.as_ref())
                    .and_then(|e| e.info.as_ref())
                    .filter(|i| i.host == info.host && i.port == info.port)
                    .and_then(|i| i.tls.as_ref())
                    .and_then(|t| t.client_cert.as_deref());
                if before != Some(fp.as_str()) {
                    let name = ctx
                        .lists
                        .identity(fp)
                        .map_or_else(|| short_fp(fp), |i| format!("\"{}\"", i.name));
                    let said = format!("identity {name} sent to {}:{}", info.host, info.port);
                    let text = match ctx.status.text.is_empty() {
                        true => said,
                        false => format!("{}; {said}", ctx.status.text),
                    };
                    ctx.info(text);
                }
            }
            if req.pin_after {
                fx.push(Effect::Store(StoreOp::Pin {
                    host: info.host.clone(),
                    port: info.port,
                    fingerprint: tls.cert_fingerprint.clone(),
                    not_after: tls.cert_not_after.clone(),
                }));
                self.loads.pinned(&info.host, info.port);
            }
        } else if page.url.scheme() != Scheme::About && shown {
            ctx.status.clear();
        }
        let url = if req.sensitive {
            page.url.without_query()
        } else {
            page.url.to_string()
        };
        let url = if url.is_empty() || req.upload {
            req.url.clone()
        } else {
            url
        };
        if page.url.scheme() != Scheme::About && !req.upload {
            let (plain, title) = (history_url(&url), page.title().map(str::to_string));
            ctx.lists.visited(&plain, title.clone());
            fx.push(Effect::Store(StoreOp::RecordHistory { url: plain, title }));
        }
        if picture {
            ctx.then(super::Then::ShowPicture {
                tab: req.tab,
                url,
                page,
                info: Some(Box::new(info)),
                replace: req.replace,
            });
            return fx;
        }
        let special = if url == "about:trust" {
            Special::Trust
        } else {
            Special::None
        };
        let kept_at = info.timestamp.filter(|_| ctx.lists.work_offline);
        let builtin = page.url.scheme() == Scheme::About;
        ctx.show_doc(req.tab, &url, Some(page), special, Some(info), req.replace);
        super::web::Reader.shown(req.tab, req.opts.web_full, ctx);
        if let Some(at) = kept_at.filter(|_| !builtin) {
            let age = (time::OffsetDateTime::now_utc() - at)
                .whole_seconds()
                .max(0) as u64;
            let when = smolweb_core::text::readable_time(at);
            ctx.info(format!(
                "offline: kept {} ago (downloaded {when})",
                super::feeds::human_age(age)
            ));
        }
        fx
    }

    fn on_error(
        &mut self,
        ctx: &mut Ctx,
        req: Request,
        info: smolweb_client::RequestInfo,
        error: FetchError,
    ) -> Vec<Effect> {
        if let FetchError::CertificateChanged { change } = error {
            let page = pages::cert_changed_page(&change);
            ctx.error(format!("the certificate of {} changed", change.host));
            let special = Special::CertChanged {
                url: req.url.clone(),
                change: *change,
            };
            ctx.show_doc(req.tab, &req.url, page, special, Some(info), req.replace);
            return Vec::new();
        }
        ctx.error(error.to_string());
        let page = pages::error_page(&req.url, &error);
        if matches!(error, FetchError::Offline { .. }) {
            // Working offline, a page that is not kept: say so, and offer the sync queue.
            let from = ctx.current_url().map(str::to_string);
            ctx.show_doc(
                req.tab,
                &req.url,
                page,
                Special::Error,
                Some(info),
                req.replace,
            );
            return super::feeds::offer_queue(&req.url, from, ctx);
        }
        ctx.show_doc(
            req.tab,
            &req.url,
            page,
            Special::Error,
            Some(info),
            req.replace,
        );
        Vec::new()
    }

    fn on_redirect(
        &mut self,
        ctx: &mut Ctx,
        mut req: Request,
        target: String,
        cross_host: bool,
        scheme: &str,
    ) -> Vec<Effect> {
        let mut from_scheme = req.url.split(':').next().unwrap_or("").to_string();
        if req.upload {
            // A Titan answer is a Gemini answer: its redirect to the capsule's page is
            // followed as Gemini's are.
            from_scheme = "gemini".into();
        }
        // The one link rule: a redirect leads only where smolweb fetches.
        if smolweb_core::url::destination(&target) != smolweb_core::url::Destination::Fetch {
            let scheme =
                smolweb_core::url::refused_scheme(&target).unwrap_or_else(|| "mailto".into());
            let msg = format!("the redirect leads to a {scheme}: URL, which is not followed");
            return self.redirect_stop(ctx, req, msg);
        }
        if req.chain.iter().any(|u| u == &target) || target == req.url {
            let mut path = req.chain.clone();
            path.extend([req.url.clone(), target.clone()]);
            let msg = format!("redirect loop: {}", path.join(" → "));
            return self.redirect_stop(ctx, req, msg);
        }
        if req.chain.len() >= MAX_REDIRECTS {
            let msg = format!(
                "too many redirects ({MAX_REDIRECTS}) starting at {}; stopped before {target}",
                req.chain.first().unwrap_or(&req.url)
            );
            return self.redirect_stop(ctx, req, msg);
        }
        req.chain.push(req.url.clone());
        req.url = target.clone();
        req.opts.input = None;
        if std::mem::take(&mut req.upload) {
            // The capsule's page changed: the copy in the cache is old.
            req.opts.refresh = true;
        }
        if cross_host || !scheme.eq_ignore_ascii_case(&from_scheme) {
            return ctx.ask(
                format!("Follow the redirect to {target}? (y/n)"),
                Pending::Redirect(Box::new(req)),
            );
        }
        self.fetch(ctx, req)
    }

    fn redirect_stop(&mut self, ctx: &mut Ctx, req: Request, msg: String) -> Vec<Effect> {
        ctx.error(msg.clone());
        let page = pages::message_page("Redirect stopped", &msg);
        ctx.show_doc(req.tab, &req.url, page, Special::Error, None, req.replace);
        Vec::new()
    }

    /// Send a redirect the user agreed to.
    pub(super) fn follow_redirect(&mut self, ctx: &mut Ctx, req: Request) -> Vec<Effect> {
        if super::web::leaves_browser(ctx.settings, &req.url) {
            return vec![Effect::OpenExternal { url: req.url }];
        }
        self.fetch(ctx, req)
    }

    pub(super) fn show(&mut self, ctx: &mut Ctx, tab: u64, entry: Entry, replace: bool) {
        if let Some(t) = ctx.tabs.by_id_mut(tab) {
            t.show(entry, replace);
        }
    }

    pub(super) fn go_back(&mut self, ctx: &mut Ctx) -> Vec<Effect> {
        self.step_history(ctx, true)
    }

    pub(super) fn go_forward(&mut self, ctx: &mut Ctx) -> Vec<Effect> {
        self.step_history(ctx, false)
    }

    /// Move one entry back or forward in the tab's history (from memory, never a network
    /// fetch). A built-in page that shows a shared store is made again from the store, keeping
    /// its place, so coming back to `about:feeds` after reading an entry shows it read.
    fn step_history(&mut self, ctx: &mut Ctx, back: bool) -> Vec<Effect> {
        let mut fx = self.cancel_load(ctx);
        let Some(t) = ctx.tabs.active_mut() else {
            return fx;
        };
        match (t.step(back), back) {
            (true, _) => {
                ctx.status.clear();
                if let Some(url) = ctx.current_url().filter(|u| super::is_store_page(u)) {
                    let url = url.to_string();
                    fx.extend(self.navigate(ctx, &url, FetchOptions::default(), true));
                }
            }
            (false, true) => ctx.info("no page to go back to"),
            (false, false) => ctx.info("no page to go forward to"),
        }
        fx
    }

    pub(super) fn reload(&mut self, ctx: &mut Ctx) -> Vec<Effect> {
        let Some(url) = ctx.current_url().map(str::to_string) else {
            return Vec::new();
        };
        if matches!(
            ctx.current().map(|e| &e.view),
            Some(View::Identities { .. })
        ) {
            return vec![Effect::Store(StoreOp::LoadLists)];
        }
        let opts = FetchOptions {
            refresh: true,
            web_full: super::web::Reader.full_here(ctx.current()),
            ..FetchOptions::default()
        };
        self.navigate(ctx, &url, opts, true)
    }

    /// `..` (parent) or `/` (root) of the current capsule.
    pub(super) fn go_up(&mut self, ctx: &mut Ctx, root: bool) -> Vec<Effect> {
        let Some(url) = ctx.current_url().and_then(|u| Url::parse(u).ok()) else {
            ctx.info("no parent here");
            return Vec::new();
        };
        let target = if root { Some(url.root()) } else { url.parent() };
        match target {
            Some(t) if t != url => {
                self.navigate(ctx, &t.to_string(), FetchOptions::default(), false)
            }
            _ => {
                ctx.info("already at the root");
                Vec::new()
            }
        }
    }

    pub(super) fn close_tab(&mut self, ctx: &mut Ctx) -> Vec<Effect> {
        if ctx.tabs.len() <= 1 {
            ctx.info(format!(
                "this is the last tab ({} quits)",
                ctx.keymap.hint(crate::keymap::Action::Quit)
            ));
            return Vec::new();
        }
        let fx = self.cancel_load(ctx);
        ctx.tabs.close_active();
        fx
    }

    pub(super) fn undo_close_tab(&mut self, ctx: &mut Ctx) -> Vec<Effect> {
        match ctx.tabs.reopen() {
            None => {
                ctx.info("no closed tab to reopen");
                Vec::new()
            }
            Some(true) => {
                let home = ctx.settings.home.clone();
                self.navigate(ctx, &home, FetchOptions::default(), false)
            }
            Some(false) => Vec::new(),
        }
    }

    /// Follow link `index` (zero-based) of the current page.
    pub(super) fn follow_link(&mut self, ctx: &mut Ctx, index: usize, to: Opening) -> Vec<Effect> {
        let Some(url) = ctx
            .doc_view()
            .and_then(|d| d.doc.link_url(index))
            .map(str::to_string)
        else {
            ctx.info(format!("no link {}", index + 1));
            return Vec::new();
        };
        // Only the browser's own pages may act; elsewhere an action: link is just a link of
        // an unknown scheme.
        if PageAction::is_action(&url) && ctx.doc_view().is_some_and(DocView::builtin) {
            return self.page_action(ctx, &url);
        }
        if let Some(dv) = ctx.doc_view().filter(|d| d.doc.is_prompt_link(index)) {
            // A Spartan prompt: the text typed goes as the request's data block.
            let label = dv
                .doc
                .link_line(index)
                .map(|l| {
                    dv.doc
                        .text(l)
                        .trim_end_matches(" (asks for text)")
                        .to_string()
                })
                .unwrap_or_else(|| "Text to send".into());
            let tab = ctx.tab_id();
            ctx.prompt(super::Purpose::Input {
                tab,
                url,
                sensitive: false,
                label,
            });
            return Vec::new();
        }
        if to != Opening::Here && !super::web::leaves_browser(ctx.settings, &url) {
            let here = ctx.tabs.active;
            let fx = self.new_tab(ctx, &url);
            if to == Opening::Background {
                ctx.tabs.select(here);
                let n = ctx.tabs.len();
                ctx.info(format!(
                    "opened {} in tab {n} ({} goes there)",
                    smolweb_core::url::display(&url),
                    ctx.keymap.hint(crate::keymap::Action::NextTab)
                ));
            }
            return fx;
        }
        self.navigate(ctx, &url, FetchOptions::default(), false)
    }
}

fn is_gopher_search(url: &str) -> bool {
    Url::parse(url)
        .ok()
        .filter(|u| u.scheme() == Scheme::Gopher)
        .and_then(|u| u.gopher_target().ok())
        .is_some_and(|t| t.item_type == '7' && t.search.is_none())
}

/// What history keeps of a URL: never a query, nor a gopher search string (`%09...`).
pub(super) fn history_url(url: &str) -> String {
    let mut plain = strip_query(url);
    if plain
        .get(..9)
        .is_some_and(|s| s.eq_ignore_ascii_case("gopher://"))
        && let Some(i) = plain.to_ascii_lowercase().find("%09")
    {
        plain.truncate(i);
    }
    plain
}

/// The gemini:// page of a titan:// URL (the URL as it is when it is no titan URL).
fn gemini_twin(url: &str) -> String {
    match Url::parse(url) {
        Ok(u) if u.scheme() == Scheme::Titan => u.with_scheme(Scheme::Gemini).without_query(),
        _ => strip_query(url),
    }
}

/// The URL without `?query`.
pub(super) fn strip_query(url: &str) -> String {
    smolweb_core::url::strip_query(url).to_string()
}

/// `sha256:abcdef…` shortened for the status line.
pub(super) fn short_fp(fp: &str) -> String {
    let body = fp.strip_prefix("sha256:").unwrap_or(fp);
    format!("sha256:{}…", body.get(..16).unwrap_or(body))
}

pub(super) fn short_url(url: &str) -> String {
    let shown = smolweb_core::url::display(url);
    let s = shown
        .trim_start_matches("gemini://")
        .trim_start_matches("gopher://");
    s.trim_end_matches('/').to_string()
}

/// A safe file name for a download, from the last path segment.
pub(super) fn file_name(url: &str) -> String {
    let path = strip_query(url);
    let last = path.trim_end_matches('/').rsplit('/').next().unwrap_or("");
    let clean: String = last
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || ".-_".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    let clean = clean.trim_start_matches('.').to_string();
    if clean.is_empty() || clean.contains("://") {
        "download".into()
    } else {
        clean
    }
}

/// HTML and markdown served by a capsule, in the reader view as a web page would be, not as
/// raw markup; every other page as it came.
fn capsule_markup(page: Arc<smolweb_core::page::Page>) -> Arc<smolweb_core::page::Page> {
    use smolweb_core::url::Scheme;
    use smolweb_core::webtext::{BodyKind, classify};
    let markup = matches!(page.content, Content::Text)
        && matches!(page.url.scheme(), Scheme::Gemini | Scheme::Gopher)
        && matches!(
            classify(Some(&page.mime.essence()), &[]),
            Some(BodyKind::Html | BodyKind::Markdown)
        );
    if !markup {
        return page;
    }
    smolweb_client::web::readable_page(&page).map_or(page, Arc::new)
}
