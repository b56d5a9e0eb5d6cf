//! What the stores give the index: everything, for a rebuild, and the sources kept equal to
//! a store (history, saved pages, feed entries, bookmarks, shared pages) when a file changed.
//!
//! Texts come from the offline copies (converted as the reader view shows them); a page with
//! no copy is known by its title and URL. Pages agents fetched are kept only in the index:
//! a rebuild knows them by their URL from the activity log.

use super::Doc;
use crate::config::Config;
use smolweb_search::{Corpus, Source, Synced};
use smolweb_store::offline::Offline;
use smolweb_store::paths::Paths;
use std::collections::HashSet;
use std::path::Path;
use time::OffsetDateTime;

/// The client's stores, as the index reads them.
pub(crate) struct Stores {
    paths: Paths,
    offline_max: u64,
    activity: smolweb_store::activity::Limits,
}

/// A cheap signature of a file (the index's own, [`smolweb_search::file_stamp`]).
fn stamp(path: &Path) -> String {
    smolweb_search::file_stamp(path)
}

fn file_time(path: &Path) -> OffsetDateTime {
    std::fs::metadata(path)
        .and_then(|m| m.modified())
        .map(OffsetDateTime::from)
        .unwrap_or(OffsetDateTime::UNIX_EPOCH)
}

fn said(e: smolweb_store::StoreError) -> String {
    e.to_string()
}

impl Stores {
    pub(crate) fn new(paths: Paths, config: &Config) -> Stores {
        Stores {
            paths,
            offline_max: config.offline.max_bytes,
            activity: config.agents.limits(),
        }
    }

    fn offline(&self) -> Offline {
        Offline::new(self.paths.offline_dir(), self.offline_max)
    }

    /// The text of `url`'s offline copy, if one is kept (gemtext, menus and text; a web page
    /// only when `web` is true: converting it takes longer).
    fn kept_text(
        &self,
        offline: &Offline,
        url: &str,
        web: bool,
    ) -> Option<(String, Option<String>)> {
        let parsed = smolweb_core::url::Url::parse(url).ok()?;
        let is_web = matches!(
            parsed.scheme(),
            smolweb_core::url::Scheme::Http | smolweb_core::url::Scheme::Https
        );
        if is_web && !web {
            return None;
        }
        let stored = offline.peek(url).ok()??;
        let page = crate::offline::rebuild(parsed, stored, smolweb_core::html::Extract::Main)?;
        let (text, _) = super::text_of(&page)?;
        Some((text, page.lang.clone()))
    }

    fn history(&self, offline: &Offline) -> Result<Vec<Doc>, String> {
        let visits = smolweb_store::history::History::new(self.paths.history())
            .list()
            .map_err(said)?;
        Ok(visits
            .into_iter()
            .map(|v| {
                let (text, lang) = self.kept_text(offline, &v.url, true).unwrap_or_default();
                Doc {
                    url: v.url,
                    title: v.title,
                    text,
                    source: Source::History,
                    feed: None,
                    lang,
                    time: v.at,
                }
            })
            .collect())
    }

    fn saved(&self, offline: &Offline) -> Result<Vec<Doc>, String> {
        let saved = offline.saved().map_err(said)?;
        Ok(saved
            .into_iter()
            .map(|e| {
                let (text, lang) = self.kept_text(offline, &e.url, true).unwrap_or_default();
                Doc {
                    url: e.url,
                    title: e.title,
                    text,
                    source: Source::Offline,
                    feed: None,
                    lang,
                    time: e.saved.unwrap_or(e.fetched),
                }
            })
            .collect())
    }

    fn feeds(&self, offline: &Offline) -> Result<Vec<Doc>, String> {
        let subs = smolweb_store::subscriptions::Subscriptions::new(self.paths.subscriptions())
            .list()
            .map_err(said)?;
        let mut out = Vec::new();
        for s in &subs {
            for e in &s.entries {
                let (text, lang) = self.kept_text(offline, &e.url, false).unwrap_or_default();
                let time = e
                    .published
                    .as_deref()
                    .and_then(|p| {
                        OffsetDateTime::parse(p, &time::format_description::well_known::Rfc3339)
                            .ok()
                    })
                    .unwrap_or(e.first_seen);
                out.push(Doc {
                    url: e.url.clone(),
                    title: Some(e.title.clone()),
                    text,
                    source: Source::Feed,
                    feed: Some(s.name().to_string()),
                    lang,
                    time,
                });
            }
        }
        Ok(out)
    }

    fn bookmarks(&self) -> Result<Vec<Doc>, String> {
        let path = self.paths.bookmarks();
        let list = smolweb_store::bookmarks::Bookmarks::new(path.clone())
            .list()
            .map_err(said)?;
        let time = file_time(&path);
        Ok(list
            .into_iter()
            .map(|b| Doc {
                url: b.url,
                title: Some(b.title).filter(|t| !t.trim().is_empty()),
                text: b.folder,
                source: Source::Bookmark,
                feed: None,
                lang: None,
                time,
            })
            .collect())
    }

    fn shared(&self) -> Result<Vec<Doc>, String> {
        let list = smolweb_store::shared::SharedPages::new(self.paths.shared())
            .list()
            .map_err(said)?;
        Ok(list
            .into_iter()
            .map(|p| Doc {
                url: p.url,
                title: p.title,
                text: p.note.unwrap_or_default(),
                source: Source::Shared,
                feed: None,
                lang: None,
                time: p.at,
            })
            .collect())
    }

    /// Pages agents fetched, as the activity log names them (newest visit of each URL).
    fn agent_fetches(&self) -> Result<Vec<Doc>, String> {
        use smolweb_store::activity::Event;
        let log = smolweb_store::activity::Activity::new(self.paths.activity(), self.activity)
            .read()
            .map_err(said)?;
        let mut seen = HashSet::new();
        let mut out = Vec::new();
        for e in log.entries.iter().rev() {
            let Event::Call {
                url: Some(url),
                error: false,
                tool,
                ..
            } = &e.event
            else {
                continue;
            };
            let fetch = tool.ends_with("_fetch") || tool == "fetch_url";
            if !fetch || smolweb_search::refusal(url, false, false).is_some() {
                continue;
            }
            if seen.insert(url.clone()) {
                out.push(Doc {
                    url: url.clone(),
                    title: None,
                    text: String::new(),
                    source: Source::Agent,
                    feed: None,
                    lang: None,
                    time: e.at,
                });
            }
        }
        Ok(out)
    }
}

impl Corpus for Stores {
    fn documents(&self) -> Result<Vec<Doc>, String> {
        let offline = self.offline();
        let mut all = self.history(&offline)?;
        all.extend(self.saved(&offline)?);
        all.extend(self.feeds(&offline)?);
        all.extend(self.bookmarks()?);
        all.extend(self.shared()?);
        all.extend(self.agent_fetches()?);
        Ok(all)
    }

    fn stamps(&self) -> Vec<(Source, String)> {
        vec![
            (Source::History, stamp(&self.paths.history())),
            (
                Source::Offline,
                stamp(&self.offline().dir().join("index.toml")),
            ),
            (Source::Feed, stamp(&self.paths.subscriptions())),
            (Source::Bookmark, stamp(&self.paths.bookmarks())),
            (Source::Shared, stamp(&self.paths.shared())),
        ]
    }

    fn sync(&self, source: Source) -> Result<Synced, String> {
        let offline = self.offline();
        Ok(match source {
            Source::History => {
                let visits = smolweb_store::history::History::new(self.paths.history())
                    .list()
                    .map_err(said)?;
                Synced::Keep(visits.into_iter().map(|v| v.url).collect())
            }
            Source::Offline => Synced::Replace(self.saved(&offline)?),
            Source::Feed => Synced::Replace(self.feeds(&offline)?),
            Source::Bookmark => Synced::Replace(self.bookmarks()?),
            Source::Shared => Synced::Replace(self.shared()?),
            // Not in `stamps`: the index is the only store of what agents fetched.
            Source::Agent => return Err("pages agents fetched are kept by the index only".into()),
        })
    }
}
