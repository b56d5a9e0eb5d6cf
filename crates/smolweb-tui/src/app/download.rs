//! Downloads: a non-text answer is not shown but offered (open with the handler configured
//! for its type, save to the downloads directory, or cancel), with its size and type first,
//! and a warning first when its end was not confirmed (no TLS close_notify): it may be cut.
//! Names come from the URL's last segment with an extension that fits the type.

use super::dialog::Pending;
use super::{Ctx, Effect};
use smolweb_core::page::Page;
use smolweb_core::response::Mime;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Extensions of common types, for names that have none.
const EXTENSIONS: &[(&str, &str)] = &[
    ("text/gemini", "gmi"),
    ("text/plain", "txt"),
    ("text/html", "html"),
    ("text/markdown", "md"),
    ("image/png", "png"),
    ("image/jpeg", "jpg"),
    ("image/gif", "gif"),
    ("image/webp", "webp"),
    ("image/svg+xml", "svg"),
    ("audio/mpeg", "mp3"),
    ("audio/ogg", "ogg"),
    ("audio/flac", "flac"),
    ("video/mp4", "mp4"),
    ("video/webm", "webm"),
    ("application/pdf", "pdf"),
    ("application/zip", "zip"),
    ("application/gzip", "gz"),
    ("application/epub+zip", "epub"),
    ("application/json", "json"),
];

/// Longest name made from a page's title.
const TITLE_NAME_CHARS: usize = 60;

/// A file name for a download of `url` with type `mime`: its last path segment, or, for a
/// capsule's root or a directory, the page's `title` (else the host), always with the type's
/// extension then (a host such as `127.0.0.1` is no name with an extension).
pub(crate) fn download_name(url: &str, mime: &Mime, title: Option<&str>) -> String {
    let after_scheme = url.split_once("://").map_or(url, |(_, rest)| rest);
    let path = after_scheme
        .split(['?', '#'])
        .next()
        .unwrap_or("")
        .split_once('/')
        .map_or("", |(_, p)| p);
    let from_path = !path
        .trim_end_matches('/')
        .rsplit('/')
        .next()
        .unwrap_or("")
        .is_empty()
        && !path.ends_with('/');
    let mut name = if from_path {
        super::nav::file_name(url)
    } else {
        let slug = title.map(title_slug).filter(|t| !t.is_empty());
        slug.unwrap_or_else(|| super::nav::file_name(url))
    };
    let essence = mime.essence();
    let ext = EXTENSIONS
        .iter()
        .find(|(m, _)| *m == essence)
        .map(|(_, e)| *e)
        .or(if mime.mime_type == "text" {
            Some("txt")
        } else {
            None
        });
    let has_ext = name.rsplit_once('.').is_some_and(|(s, e)| {
        !s.is_empty() && !e.is_empty() && e.len() <= 5 && e.chars().all(char::is_alphanumeric)
    });
    if let Some(ext) = ext
        && (!has_ext || !from_path)
    {
        name.push('.');
        name.push_str(ext);
    }
    name
}

/// A page title as a file name: letters, digits, `-` and `_` kept, runs of anything else made
/// one `-`, cut to [`TITLE_NAME_CHARS`].
fn title_slug(title: &str) -> String {
    let mut out = String::new();
    for c in title.chars() {
        if c.is_alphanumeric() || c == '_' {
            out.push(c);
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
        if out.chars().count() >= TITLE_NAME_CHARS {
            break;
        }
    }
    out.trim_end_matches('-').to_string()
}

/// The command configured for a type: the full type first, then its major type.
pub(crate) fn handler_for<'h>(
    handlers: &'h BTreeMap<String, String>,
    mime: &Mime,
) -> Option<&'h str> {
    handlers
        .get(&mime.essence())
        .or_else(|| handlers.get(&mime.mime_type))
        .map(String::as_str)
        .filter(|c| !c.trim().is_empty())
}

/// The program that opens a download of this type: the one configured for it, else
/// xdg-open when it is installed (the shell looks at start). None: nothing to offer.
pub(crate) fn opener(settings: &super::Settings, mime: &Mime) -> Option<String> {
    handler_for(&settings.handlers, mime)
        .map(str::to_string)
        .or_else(|| settings.system_opener.clone())
}

/// The downloads room: stateless (the question holds the download until it is answered).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Downloads;

impl Downloads {
    /// Offer a non-text answer: open, save or cancel.
    pub(crate) fn offer(self, url: &str, page: Arc<Page>, ctx: &mut Ctx) -> Vec<Effect> {
        let name = download_name(url, &page.mime, page.title());
        let opener = opener(ctx.settings, &page.mime);
        let open = opener
            .as_ref()
            .map_or_else(String::new, |o| format!("o: open with {o}  "));
        // A body whose end was not confirmed may be cut short: say so before it is saved.
        let warning = if page.ending.is_clean() {
            String::new()
        } else {
            format!("Warning: {}. ", page.ending.describe())
        };
        let textual = smolweb_core::webtext::classify(Some(&page.mime.essence()), &page.raw)
            .is_some_and(|k| !matches!(k, smolweb_core::webtext::BodyKind::Pdf { .. }));
        let as_text = if textual { "t: view as text  " } else { "" };
        let question = format!(
            "{warning}{name} is {} ({}), not a page. {as_text}{open}s: save to the downloads directory  c: cancel",
            page.mime.essence(),
            smolweb_core::text::human_bytes(page.size() as u64),
        );
        let openable = opener.is_some();
        ctx.ask(
            question.clone(),
            Pending::Download {
                page,
                name,
                openable,
            },
        );
        ctx.dialog.show(super::Popup::Download(question));
        Vec::new()
    }

    /// Open the picture shown with the program for its type.
    pub(crate) fn open_shown(self, ctx: &mut Ctx) -> Vec<Effect> {
        let Some(page) = ctx.doc_view().and_then(|d| d.picture.clone()) else {
            return Vec::new();
        };
        if opener(ctx.settings, &page.mime).is_none() {
            ctx.error(format!(
                "no program opens {} here: name one in [tui.handlers] (xdg-open is not installed)",
                page.mime.essence()
            ));
            return Vec::new();
        }
        let name = download_name(ctx.current_url().unwrap_or_default(), &page.mime, None);
        ctx.info(format!("opening {name}…"));
        vec![Effect::Open { page, name }]
    }

    /// Save the page shown (the save key; on a picture page, the picture).
    pub(crate) fn save_shown(self, ctx: &Ctx) -> Vec<Effect> {
        let Some(dv) = ctx.doc_view() else {
            return Vec::new();
        };
        let page = dv.picture.clone().unwrap_or_else(|| dv.doc.page().clone());
        let name = download_name(
            ctx.current_url().unwrap_or_default(),
            &page.mime,
            page.title(),
        );
        vec![Effect::Save { page, name }]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use smolweb_core::response::parse_mime;

    #[test]
    fn names_fit_the_type() {
        let cases = [
            ("gemini://h/pic.png", "image/png", "pic.png"),
            ("gemini://h/pic", "image/png", "pic.png"),
            ("gemini://h/notes", "text/gemini", "notes.gmi"),
            ("gemini://h/", "text/gemini", "h.gmi"),
            ("gemini://127.0.0.1/", "text/gemini", "127.0.0.1.gmi"),
            ("gopher://127.0.0.1:7070/1/", "text/gemini", "1.gmi"),
            ("gemini://h/docs/", "text/gemini", "docs.gmi"),
            ("gemini://h/readme", "text/x-rst", "readme.txt"),
            ("gemini://h/blob", "application/x-unknown", "blob"),
            (
                "gopher://h/9/file.tar.gz",
                "application/octet-stream",
                "file.tar.gz",
            ),
        ];
        for (url, mime, want) in cases {
            assert_eq!(
                download_name(url, &parse_mime(mime), None),
                want,
                "{url} {mime}"
            );
        }
        // A root or a directory is named by its page's title when it has one.
        let gmi = parse_mime("text/gemini");
        let titled = download_name("gemini://127.0.0.1/", &gmi, Some("Welcome: the Home page!"));
        assert_eq!(titled, "Welcome-the-Home-page.gmi");
        let titled = download_name("gemini://h/docs/", &gmi, Some("Docs"));
        assert_eq!(titled, "Docs.gmi");
        let named = download_name("gemini://h/notes.gmi", &gmi, Some("Notes"));
        assert_eq!(named, "notes.gmi", "a file's own name wins");
    }

    #[test]
    fn handlers_by_type_then_major_type() {
        let mut h = BTreeMap::new();
        h.insert("image/png".to_string(), "feh".to_string());
        h.insert("image".to_string(), "sxiv".to_string());
        assert_eq!(handler_for(&h, &parse_mime("image/png")), Some("feh"));
        assert_eq!(handler_for(&h, &parse_mime("image/gif")), Some("sxiv"));
        assert_eq!(handler_for(&h, &parse_mime("audio/ogg")), None);
    }
}
