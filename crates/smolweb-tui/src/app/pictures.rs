//! The pictures room: an image answer (a Gemini `image/*` page, a Gopher `I`/`g`/`p` item, an
//! image followed from the web reader) is shown in the page area instead of being offered as a
//! download; its bytes go to a decoding worker, and the decoded pictures are kept here, by
//! URL, for the view to paint. Also the inline pictures of gemtext pages (image links shown
//! under their line, off until the toggle key).
//!
//! Invariants: the picture page keeps the image's own [`Page`], so save and open act on the
//! image, not on the header the view shows; at most [`KEPT`] decoded pictures are kept (the
//! oldest goes first); a URL is sent to the decoder once until its slot is dropped.

use super::{Ctx, Effect, Special};
use crate::picture::{Decoded, PictureError};
use smolweb_core::page::{Content, Page};
use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

/// How many decoded pictures are kept.
const KEPT: usize = 24;

/// Where one picture is.
#[derive(Clone, Debug)]
pub enum Slot {
    /// Being fetched (inline pictures) or decoded.
    Loading,
    /// Decoded.
    Ready(Decoded),
    /// Not shown, and why.
    Failed(String),
}

/// The pictures room.
#[derive(Debug, Default)]
pub struct Pictures {
    slots: HashMap<String, Slot>,
    order: VecDeque<String>,
}

/// Is this answer a picture this browser shows: bytes that start like an image format it
/// decodes, whatever the type says (Gopher `I` items, servers that say
/// application/octet-stream). Other images (SVG, AVIF...) stay downloads.
pub(crate) fn is_picture(page: &Page) -> bool {
    matches!(page.content, Content::Binary) && crate::picture::sniff(&page.raw).is_some()
}

/// The header shown over a picture: its name, type, pixel size and byte size, and what `s`
/// and `o` do (`o` only when a program opens it).
fn header(url: &str, page: &Page, slot: Option<&Slot>, handler: Option<&str>) -> Arc<Page> {
    let name = super::download::download_name(url, &page.mime, None);
    let bytes = smolweb_core::text::human_bytes(page.size() as u64);
    let size = match slot {
        Some(Slot::Ready(d)) => format!("{} · {} × {} px · {bytes}", d.mime, d.width, d.height),
        Some(Slot::Failed(why)) => format!("{} · {bytes} · {why}", page.mime.essence()),
        _ => format!("{} · {bytes} · decoding…", page.mime.essence()),
    };
    let keys = match handler {
        Some(h) => format!("s: save  o: open with {h}"),
        None => "s: save".to_string(),
    };
    let gemtext = format!("# {name}\n{size}\n{keys}\n");
    let mut mime = smolweb_core::page::mime_of("text/gemini");
    mime.charset = Some("utf-8".into());
    Arc::new(Page::from_gemini(
        page.url.clone(),
        mime,
        gemtext.into_bytes(),
    ))
}

impl Pictures {
    /// The picture kept for `key` (a URL).
    pub fn get(&self, key: &str) -> Option<&Slot> {
        self.slots.get(key)
    }

    /// An inline picture is being fetched.
    pub(crate) fn loading(&mut self, key: &str) {
        self.put(key, Slot::Loading);
    }

    fn put(&mut self, key: &str, slot: Slot) {
        if self.slots.insert(key.to_string(), slot).is_none() {
            self.order.push_back(key.to_string());
        }
        while self.order.len() > KEPT {
            if let Some(old) = self.order.pop_front() {
                self.slots.remove(&old);
            }
        }
    }

    /// Show an image answer in tab `tab` at `url`, and have it decoded.
    pub(crate) fn show(
        &mut self,
        ctx: &mut Ctx,
        tab: u64,
        url: &str,
        page: Arc<Page>,
        info: Option<smolweb_client::RequestInfo>,
        replace: bool,
    ) -> Vec<Effect> {
        let handler = handler(ctx, &page);
        let mut fx = Vec::new();
        // A reload decodes again (the bytes may have changed).
        self.slots.remove(url);
        self.order.retain(|k| k != url);
        self.put(url, Slot::Loading);
        fx.push(Effect::DecodePicture {
            key: url.to_string(),
            page: Arc::clone(&page),
        });
        let shown = header(url, &page, self.get(url), handler.as_deref());
        ctx.show_doc(tab, url, Some(shown), Special::None, info, replace);
        if let Some(dv) = ctx.tabs.by_id_mut(tab).and_then(super::Tab::doc_view_mut) {
            dv.picture = Some(page);
        }
        fx
    }

    /// A decoding ended: keep the picture (or why not) and remake the header of every tab
    /// showing it.
    pub(crate) fn decoded(
        &mut self,
        ctx: &mut Ctx,
        key: String,
        result: Result<Decoded, PictureError>,
    ) {
        let slot = match result {
            Ok(d) => Slot::Ready(d),
            Err(e) => Slot::Failed(e.to_string()),
        };
        if let Slot::Failed(why) = &slot
            && ctx.current_url() == Some(key.as_str())
        {
            ctx.error(format!("picture not shown: {why}"));
        }
        // Only a picture still wanted is kept (its slot was made when it was asked for).
        if !self.slots.contains_key(&key) {
            return;
        }
        self.put(&key, slot);
        let settings = ctx.settings.clone();
        for t in ctx.tabs.iter_mut() {
            let Some(e) = t.current.as_mut() else {
                continue;
            };
            if e.url != key {
                continue;
            }
            if let super::View::Doc(dv) = &mut e.view
                && let Some(page) = dv.picture.clone()
            {
                let handler = super::download::opener(&settings, &page.mime);
                let shown = header(&key, &page, self.slots.get(&key), handler.as_deref());
                let special = dv.special.clone();
                let mut fresh = super::DocView::new(crate::layout::Doc::new(shown), special);
                fresh.picture = Some(page);
                **dv = fresh;
            }
        }
    }
}

fn handler(ctx: &Ctx, page: &Page) -> Option<String> {
    super::download::opener(ctx.settings, &page.mime)
}
