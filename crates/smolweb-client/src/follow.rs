//! Pages followed for their changes, over the facade: the fetch every refresh makes (feeds
//! and pages alike), the comparison of a page with its kept copy, the `about:changes`
//! addresses of its changes, adopting a subscription that moved, and the entries and changes
//! seen since a time (`smolweb feeds changes`, the agents' `changes_since`).
//!
//! A refresh fetches through [`fetch_fresh`]: http(s) through
//! [`Client::fetch_web_conditional`], conditional on the validators the subscription keeps
//! (`If-None-Match`, `If-Modified-Since`; a 304 is a success with nothing new), every other
//! scheme through [`Client::open_following_moves`] (a web page followed for its links is read
//! whole, one followed for its text in the reader view); both say where a leading run of permanent
//! redirects led (the subscription moved). A followed page's answer becomes its follow text
//! ([`smolweb_core::follow::snapshot`]; HTML and other text from a capsule in the reader view
//! first), compared with the kept copy under the copy's lock on a blocking thread
//! ([`keep_and_compare`]); the entries recorded are all the changes the copy keeps, so a
//! refresh that died between the copy and the subscriptions is made whole by the next one.

use super::web::{WebFormat, WebQuery, readable_page, reader_outcome, web_error_as_fetch};
use super::{Client, OpenOptions, Outcome, RequestInfo};
use smolweb_core::feed::Entry;
use smolweb_core::follow::{self, Memory, Snapshot, Verdict, Watch};
use smolweb_core::html::Extract;
use smolweb_core::page::{Content, Page};
use smolweb_core::url::{Scheme, Url};
use smolweb_net::http::Validators;
use smolweb_store::StoreError;
use smolweb_store::follows::{Follows, PageCopy, StoredChange};
use smolweb_store::subscriptions::{Notes, StoredEntry, Subscription};
use std::sync::Arc;
use time::OffsetDateTime;

/// Most same-host redirects followed to reach a feed or a followed page.
pub(crate) const MAX_REDIRECTS: usize = 5;

/// What a refresh needs of a subscription.
#[derive(Clone, Debug)]
pub(crate) struct Target {
    /// The stored URL.
    pub(crate) url: String,
    /// A followed page and what counts as its change (None: a feed).
    pub(crate) changes: Option<Watch>,
    /// The validators of its last answer over http(s).
    pub(crate) validators: Validators,
}

impl Target {
    pub(crate) fn of(sub: &Subscription) -> Target {
        Target {
            url: sub.url.clone(),
            changes: sub.changes,
            validators: Validators {
                etag: sub.etag.clone(),
                last_modified: sub.last_modified.clone(),
            },
        }
    }
}

/// What a refresh's fetch gave: the outcome (None: the server said nothing changed) and
/// what it learned besides (a move, the answer's validators).
pub(crate) struct Fresh {
    pub(crate) outcome: Option<Outcome>,
    pub(crate) notes: Notes,
}

/// Fetch a subscription's URL for a refresh (see the module docs), skipping the cache.
pub(crate) async fn fetch_fresh(client: &Client, target: &Target) -> Fresh {
    let url = target.url.as_str();
    let parsed = Url::parse(url);
    let web = parsed
        .as_ref()
        .is_ok_and(|u| matches!(u.scheme(), Scheme::Http | Scheme::Https));
    let (Ok(parsed), true) = (parsed.as_ref(), web) else {
        let opts = OpenOptions {
            refresh: true,
            ..OpenOptions::default()
        };
        let (outcome, _, moved_to) = client.open_following_moves(url, &opts, MAX_REDIRECTS).await;
        return Fresh {
            outcome: Some(outcome),
            notes: Notes {
                moved_to: moved_elsewhere(url, moved_to),
                ..Notes::default()
            },
        };
    };
    // Followed for its links, a web page is read whole: an index's list of posts is the
    // part the main-text finder drops as link-heavy, and its new link the change wanted
    // (the chrome's links change rarely, and reordered links are no change). Its text is
    // followed as the reader view shows it.
    let extract = match target.changes {
        Some(Watch::Links) => Extract::Full,
        _ => Extract::Main,
    };
    let query = WebQuery {
        url: url.to_string(),
        format: WebFormat::Markdown,
        extract,
        max_bytes: None,
    };
    let info = RequestInfo {
        url: url.to_string(),
        host: parsed.host().to_string(),
        port: parsed.port(),
        ..RequestInfo::default()
    };
    match client
        .fetch_web_conditional(&query, &target.validators)
        .await
    {
        Ok(answer) => {
            let notes = Notes {
                moved_to: moved_elsewhere(url, answer.moved_to),
                etag: answer.validators.etag,
                last_modified: answer.validators.last_modified,
                ..Notes::default()
            };
            let outcome = answer.page.map(|page| {
                let fetched = super::web::WebFetched {
                    page,
                    from_cache: false,
                };
                reader_outcome(parsed.clone(), info, &fetched)
            });
            Fresh { outcome, notes }
        }
        Err(e) => Fresh {
            outcome: Some(super::error(info, web_error_as_fetch(&e))),
            notes: Notes::default(),
        },
    }
}

/// A move to another address (a permanent redirect to the URL itself is none).
fn moved_elsewhere(url: &str, moved_to: Option<String>) -> Option<String> {
    moved_to.filter(|m| {
        smolweb_core::feed::subscription_url(m)
            .is_ok_and(|m| smolweb_core::feed::subscription_url(url).map_or(true, |u| u != m))
    })
}

/// Why a followed page could not be compared.
#[derive(Clone, Debug, thiserror::Error)]
pub enum CompareError {
    /// The answer is not text (an image, an archive).
    #[error(transparent)]
    NotText(#[from] follow::NotText),
    /// The kept copy could not be read or written.
    #[error("cannot keep the page's copy: {0}")]
    Store(#[source] Arc<StoreError>),
    /// The blocking task comparing the page stopped.
    #[error("the comparison stopped")]
    Stopped,
}

/// The page a followed URL's answer is compared as: HTML, markdown and other text served by
/// a capsule in the reader view; gemtext, menus, web pages (already in the reader view) and
/// plain text as they are.
fn as_read(page: &Page) -> std::borrow::Cow<'_, Page> {
    let web = matches!(page.url.scheme(), Scheme::Http | Scheme::Https);
    let plain = page.mime.essence() == "text/plain";
    match &page.content {
        Content::Text if !web && !plain => {
            readable_page(page).map_or(std::borrow::Cow::Borrowed(page), std::borrow::Cow::Owned)
        }
        _ => std::borrow::Cow::Borrowed(page),
    }
}

/// What comparing a page with its copy gave, for the subscription's record.
pub(crate) struct Compared {
    /// The page's title.
    pub(crate) title: Option<String>,
    /// Every change the copy keeps, as entries.
    pub(crate) entries: Vec<Entry>,
    /// The page is restless now.
    pub(crate) restless: bool,
    /// The page was cut.
    pub(crate) cut: bool,
}

/// Compare a followed page's answer with its copy and keep the new copy (and the change),
/// on a blocking thread.
pub(crate) async fn compare(
    client: &Client,
    url: &str,
    watch: Watch,
    page: &Page,
) -> Result<Compared, CompareError> {
    let snap = follow::snapshot(&as_read(page))?;
    let follows = client.follows();
    let (url, now) = (url.to_string(), client.now());
    let title = snap.title.clone();
    let kept =
        tokio::task::spawn_blocking(move || keep_and_compare(&follows, &url, watch, snap, now))
            .await
            .map_err(|_| CompareError::Stopped)?
            .map_err(|e| CompareError::Store(Arc::new(e)))?;
    Ok(Compared { title, ..kept })
}

/// Under the copy's lock: judge the new text against the copy (the first copy is only
/// kept), record a change that is listed, keep the new text. Nothing is written when
/// nothing changed.
pub(crate) fn keep_and_compare(
    follows: &Follows,
    url: &str,
    watch: Watch,
    snap: Snapshot,
    now: OffsetDateTime,
) -> Result<Compared, StoreError> {
    let now = now.replace_nanosecond(0).unwrap_or(now);
    follows.update(url, |slot| {
        let Some(copy) = slot else {
            *slot = Some(PageCopy {
                url: url.to_string(),
                fetched: now,
                cut: snap.cut,
                memory: Memory::first(&snap.text, watch),
                text: snap.text,
                changes: Vec::new(),
            });
            let compared = Compared {
                title: None,
                entries: Vec::new(),
                restless: false,
                cut: snap.cut,
            };
            return Ok((compared, true));
        };
        let before = copy.memory.clone();
        let verdict = follow::judge(&copy.text, &snap.text, watch, &mut copy.memory);
        let since = copy.fetched;
        let listed = match verdict {
            Verdict::Changed(diff) => Some((diff, false)),
            Verdict::BecameRestless(diff) => Some((diff, true)),
            Verdict::Same { .. } | Verdict::Restless(_) => None,
        };
        let changed = listed.is_some() || copy.text != snap.text || copy.memory != before;
        if let Some((diff, restless)) = listed {
            copy.push_change(StoredChange {
                at: now,
                since,
                restless,
                cut: snap.cut,
                diff,
            });
        }
        if changed {
            copy.text = snap.text;
            copy.fetched = now;
            copy.cut = snap.cut;
        }
        let compared = Compared {
            title: None,
            entries: entries_of(copy),
            restless: copy.memory.restless,
            cut: copy.cut,
        };
        Ok((compared, changed))
    })
}

/// The kept changes of a page as entries (`about:changes?…` URLs, titled by their summary).
fn entries_of(copy: &PageCopy) -> Vec<Entry> {
    copy.changes
        .iter()
        .map(|c| Entry {
            title: change_title(c),
            url: change_url(&copy.url, c.id()),
            published: Some(smolweb_core::text::rfc3339(c.at)),
        })
        .collect()
}

/// A change's title: its summary, and for the one that made the page restless, that.
pub fn change_title(c: &StoredChange) -> String {
    let summary = c.diff.summary();
    if c.restless {
        format!("{summary} · changes at every refresh: the next changes are not listed")
    } else {
        summary
    }
}

/// The `about:changes` address of one change of a followed page.
pub fn change_url(page: &str, id: i64) -> String {
    format!("{}&at={id}", changes_url(page))
}

/// The `about:changes` address of every kept change of a followed page.
pub fn changes_url(page: &str) -> String {
    let enc: String = url::form_urlencoded::byte_serialize(page.as_bytes()).collect();
    format!("about:changes?page={enc}")
}

/// The page and the change (None: all of them) an `about:changes` query names.
pub fn change_of_query(query: &str) -> Option<(String, Option<i64>)> {
    let mut page = None;
    let mut at = None;
    for (k, v) in url::form_urlencoded::parse(query.as_bytes()) {
        match &*k {
            "page" => page = Some(v.into_owned()),
            "at" => at = v.parse().ok(),
            _ => {}
        }
    }
    Some((page?, at))
}

/// One entry or page change seen since a time ([`Client::changes_since`]).
#[derive(Clone, Debug)]
pub struct Since {
    /// The subscription's URL.
    pub subscription: String,
    /// The subscription's title, when it has one.
    pub subscription_title: Option<String>,
    /// The entry (a page change's entry has an `about:changes` URL).
    pub entry: StoredEntry,
    /// A page change: the followed page's URL and the change, when its copy still keeps it.
    pub change: Option<(String, StoredChange)>,
    /// The subscription is a followed page.
    pub page: bool,
}

impl Client {
    /// The copies of followed pages in this client's data directory.
    pub(crate) fn follows(&self) -> Follows {
        Follows::new(self.paths.follows_dir())
    }

    /// Follow a subscription that moved to the address its permanent redirect gave
    /// ([`smolweb_store::subscriptions::Subscriptions::adopt`]); a followed page's copy moves
    /// with it. Returns the subscription at its new address.
    pub fn adopt(&self, url: &str) -> Result<Subscription, StoreError> {
        let old = self.subscriptions().get(url)?;
        let adopted = self.subscriptions().adopt(url)?;
        if let Some(old) = old.filter(|o| o.is_page()) {
            self.follows().rename(&old.url, &adopted.url)?;
        }
        Ok(adopted)
    }

    /// Every entry and page change first seen at `since` or later, newest first, of the
    /// subscriptions whose URL or title contains `filter` (case-insensitive). No network.
    pub fn changes_since(
        &self,
        since: OffsetDateTime,
        filter: Option<&str>,
    ) -> Result<Vec<Since>, StoreError> {
        let filter = filter.map(str::trim).filter(|f| !f.is_empty());
        let filter = filter.map(str::to_lowercase);
        let mut out = Vec::new();
        for sub in self.subscriptions().list()? {
            if let Some(f) = &filter {
                let title = sub.title.as_deref().unwrap_or("").to_lowercase();
                if !sub.url.to_lowercase().contains(f) && !title.contains(f) {
                    continue;
                }
            }
            let fresh: Vec<&StoredEntry> = sub
                .entries
                .iter()
                .filter(|e| e.first_seen >= since)
                .collect();
            if fresh.is_empty() {
                continue;
            }
            let copy = match sub.changes {
                Some(_) => self.follows().get(&sub.url)?,
                None => None,
            };
            for e in fresh {
                let change = copy.as_ref().and_then(|c| {
                    let (_, id) = e
                        .url
                        .split_once('?')
                        .and_then(|(_, q)| change_of_query(q))?;
                    Some((c.url.clone(), c.change(id?)?.clone()))
                });
                out.push(Since {
                    subscription: sub.url.clone(),
                    subscription_title: sub.title.clone(),
                    entry: e.clone(),
                    change,
                    page: sub.is_page(),
                });
            }
        }
        out.sort_by(|a, b| {
            (b.entry.first_seen, b.entry.sort_key()).cmp(&(a.entry.first_seen, a.entry.sort_key()))
        });
        Ok(out)
    }
}

/// Why a time could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "cannot read {0:?} as a time: give an RFC 3339 time (2026-07-21T08:00:00Z), a date \
     (2026-07-21, midnight UTC) or an age (90m, 12h, 3d, 2w)"
)]
pub struct SinceError(pub String);

/// A time as people and agents give it: RFC 3339, a date (midnight UTC), or an age before
/// `now` (`90m`, `12h`, `3d`, `2w`).
pub fn parse_since(text: &str, now: OffsetDateTime) -> Result<OffsetDateTime, SinceError> {
    use time::format_description::well_known::Rfc3339;
    let t = text.trim();
    let bad = || SinceError(smolweb_core::feed::one_line(text));
    if let Ok(at) = OffsetDateTime::parse(t, &Rfc3339) {
        return Ok(at);
    }
    let date_format = time::macros::format_description!("[year]-[month]-[day]");
    if let Ok(d) = time::Date::parse(t, &date_format) {
        return Ok(d.midnight().assume_utc());
    }
    let split = t.find(|c: char| !c.is_ascii_digit()).ok_or_else(bad)?;
    let n: i64 = t[..split].parse().map_err(|_| bad())?;
    let unit = match &t[split..] {
        "m" | "min" => time::Duration::minutes(1),
        "h" => time::Duration::hours(1),
        "d" => time::Duration::days(1),
        "w" => time::Duration::weeks(1),
        _ => return Err(bad()),
    };
    let age = unit
        .checked_mul(i32::try_from(n).map_err(|_| bad())?)
        .ok_or_else(bad)?;
    now.checked_sub(age).ok_or_else(bad)
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    #[test]
    fn times_are_read_as_people_and_agents_give_them() {
        let now = datetime!(2026-07-28 12:00 UTC);
        let cases = [
            ("2026-07-21T08:00:00Z", datetime!(2026-07-21 08:00 UTC)),
            ("2026-07-21T10:00:00+02:00", datetime!(2026-07-21 08:00 UTC)),
            ("2026-07-21", datetime!(2026-07-21 00:00 UTC)),
            ("90m", datetime!(2026-07-28 10:30 UTC)),
            ("12h", datetime!(2026-07-28 00:00 UTC)),
            (" 3d ", datetime!(2026-07-25 12:00 UTC)),
            ("2w", datetime!(2026-07-14 12:00 UTC)),
        ];
        for (text, want) in cases {
            assert_eq!(parse_since(text, now), Ok(want), "{text}");
        }
        for bad in ["", "tuesday", "3y", "-3d", "99999999999d", "2026-13-01"] {
            assert!(parse_since(bad, now).is_err(), "{bad}");
        }
    }

    #[test]
    fn change_addresses_round_trip() {
        let url = change_url("gemini://w.example/a page?x=1&y", 1_785_231_300);
        assert_eq!(
            url,
            "about:changes?page=gemini%3A%2F%2Fw.example%2Fa+page%3Fx%3D1%26y&at=1785231300"
        );
        let (_, q) = url.split_once('?').unwrap();
        assert_eq!(
            change_of_query(q),
            Some((
                "gemini://w.example/a page?x=1&y".into(),
                Some(1_785_231_300)
            ))
        );
        assert_eq!(change_of_query("at=3"), None);
    }
}
