//! Carrying out the feed and offline effects: subscribing, refreshing (with progress),
//! saving for offline reading, and what every visit leaves behind (entries marked read, an
//! offline copy kept, a copy offered when the network failed).
//!
//! Store IO runs on one executor, the store thread, in order with the other store writes:
//! the store part of a [`FeedOp`] is a [`Job::Call`] its async task awaits ([`on_store`]),
//! and the after-visit work is a [`FeedJob`]. Only network work (a refresh, a save, the first
//! fetch of a new subscription) runs in tokio tasks. Every result reaches the app as a
//! [`FeedMsg`]. At most one refresh of all feeds runs at a time.

use super::{Job, Shell, StoreWorker, send_job};
use crate::app::{FeedError, FeedMsg, FeedOp, FetchOptions, Msg, Offer, RefreshSummary};
use smolweb_client::feeds::{FeedRefresh, refresh_all};
use smolweb_client::{Client, OpenOptions, Outcome};
use std::sync::Arc;
use tokio::sync::{mpsc, oneshot};

/// The store thread's queue, as the feed tasks hold it.
type Jobs = Option<std::sync::mpsc::Sender<Job>>;

/// Store work after a fetch, for the store thread.
pub(super) enum FeedJob {
    /// A page or an error came back for `url` (what the tab asked for).
    Visited {
        url: String,
        opts: OpenOptions,
        outcome: Box<Outcome>,
    },
}

impl FeedJob {
    /// The after-visit job for a fetch (none for built-in pages).
    pub(super) fn visited(url: &str, opts: &FetchOptions, outcome: &Outcome) -> Option<Job> {
        if url.starts_with("about:") {
            return None;
        }
        let opts = OpenOptions {
            input: opts.input.clone(),
            search: opts.search.clone(),
            ..OpenOptions::default()
        };
        Some(Job::Feed(FeedJob::Visited {
            url: url.to_string(),
            opts,
            outcome: Box::new(outcome.clone()),
        }))
    }
}

/// Run `work` on the store thread and wait for its answer.
async fn on_store<T: Send + 'static>(
    jobs: &Jobs,
    work: impl FnOnce(&Client) -> T + Send + 'static,
) -> Result<T, FeedError> {
    let (tx, rx) = oneshot::channel();
    let job = Job::Call(Box::new(move |c: &Client| {
        let _ = tx.send(work(c));
    }));
    send_job(jobs.as_ref(), job)?;
    rx.await
        .map_err(|_| FeedError::from(crate::app::ShellError::StoreThreadStopped))
}

/// What the stores hold now, for the app's toggles (run on the store thread).
pub(super) fn lists(client: &Client) -> Msg {
    let subscribed = client
        .subscriptions_list()
        .map(|l| l.iter().map(|s| s.url.clone()).collect());
    let saved = client
        .reading_list()
        .map(|l| l.into_iter().map(|e| e.url).collect());
    match (subscribed, saved) {
        (Ok(subscribed), Ok(saved)) => Msg::Feeds(FeedMsg::Lists { subscribed, saved }),
        (Err(e), _) | (_, Err(e)) => Msg::Done(Err(e.into())),
    }
}

/// The subscription `url` names as the store holds it now (its stored URL), if any.
fn followed(client: &Client, url: &str) -> Result<Option<String>, FeedError> {
    match client.subscription(url) {
        Ok(found) => Ok(found.map(|s| s.url)),
        // Not a feed URL at all (such as an entry's link): not followed.
        Err(smolweb_store::StoreError::Invalid(_)) => Ok(None),
        Err(e) => Err(FeedError::from(e)),
    }
}

fn summary(results: &[FeedRefresh]) -> RefreshSummary {
    RefreshSummary {
        feeds: results.len(),
        new_entries: results.iter().map(|r| r.new_entries.len()).sum(),
        failed: results.iter().filter(|r| r.error.is_some()).count(),
    }
}

/// Do store work on the store thread and send what it says, then the fresh lists.
async fn store_then_lists(
    jobs: Jobs,
    tx: mpsc::UnboundedSender<Msg>,
    work: impl FnOnce(&Client) -> Result<String, FeedError> + Send + 'static,
) {
    match on_store(&jobs, move |c| (work(c), lists(c))).await {
        Ok((said, lists)) => {
            send_changed(&tx, said);
            let _ = tx.send(lists);
        }
        Err(e) => send_changed(&tx, Err(e)),
    }
}

/// Send the fresh lists, read on the store thread.
async fn send_lists(jobs: &Jobs, tx: &mpsc::UnboundedSender<Msg>) {
    if let Ok(msg) = on_store(jobs, lists).await {
        let _ = tx.send(msg);
    }
}

/// Refresh every feed (only when due if `only_due`), reporting progress.
async fn refresh(client: Arc<Client>, jobs: Jobs, tx: mpsc::UnboundedSender<Msg>, only_due: bool) {
    if only_due {
        match on_store(&jobs, |c| c.feeds_due().map_err(FeedError::from)).await {
            Ok(Ok(true)) => {}
            Ok(Ok(false)) => return,
            Ok(Err(e)) | Err(e) => {
                let _ = tx.send(Msg::Feeds(FeedMsg::Refreshed(Err(e))));
                return;
            }
        }
    }
    let _ = tx.send(Msg::Feeds(FeedMsg::Progress { done: 0, total: 0 }));
    let progress = tx.clone();
    let result = refresh_all(&client, |done, total, _| {
        let _ = progress.send(Msg::Feeds(FeedMsg::Progress { done, total }));
    })
    .await;
    let _ = tx.send(Msg::Feeds(FeedMsg::Refreshed(
        result.map(|r| summary(&r)).map_err(FeedError::from),
    )));
}

fn saved_sentence(report: &smolweb_client::offline::SaveReport) -> String {
    let mut s = match report.saved.len() {
        1 => format!("saved {} for offline reading", report.saved[0]),
        n => format!("saved {n} pages for offline reading"),
    };
    if !report.failed.is_empty() {
        s.push_str(&format!(
            "; {} could not be saved",
            smolweb_core::text::count(report.failed.len(), "link", "links")
        ));
    }
    s
}

/// Follow the page `url` for its changes (on the store thread), then fetch it once to keep
/// its first copy (a network task).
async fn follow(
    client: Arc<Client>,
    jobs: Jobs,
    tx: mpsc::UnboundedSender<Msg>,
    url: String,
    watch: smolweb_core::follow::Watch,
) {
    let added = on_store(&jobs, move |c| {
        let added = c.follow_page(&url, watch);
        (added, lists(c))
    })
    .await;
    let url = match added {
        Ok((Ok((url, _)), lists)) => {
            let _ = tx.send(lists);
            url
        }
        Ok((Err(e), _)) => return send_changed(&tx, Err(e.into())),
        Err(e) => return send_changed(&tx, Err(e)),
    };
    let what = match watch {
        smolweb_core::follow::Watch::Links => "its new and removed links",
        smolweb_core::follow::Watch::Text => "any change of its text",
    };
    let r = client.refresh_feed(&url).await;
    let said = match r.error {
        None => Ok(format!(
            "following {} for {what}; its first copy is kept",
            r.title.as_deref().unwrap_or(&url)
        )),
        Some(reason) => Err(FeedError::FirstFetch { url, reason }),
    };
    send_changed(&tx, said);
}

/// Follow `url` (on the store thread), then fetch it once (a network task).
async fn subscribe(client: Arc<Client>, jobs: Jobs, tx: mpsc::UnboundedSender<Msg>, url: String) {
    let added = on_store(&jobs, move |c| {
        let added = c.subscribe(&url).map(|(u, _)| u);
        (added, lists(c))
    })
    .await;
    let url = match added {
        Ok((Ok(url), lists)) => {
            let _ = tx.send(lists);
            url
        }
        Ok((Err(e), _)) => return send_changed(&tx, Err(e.into())),
        Err(e) => return send_changed(&tx, Err(e)),
    };
    let r = client.refresh_feed(&url).await;
    let said = match r.error {
        None => Ok(format!(
            "following {}: {}",
            r.title.as_deref().unwrap_or(&url),
            smolweb_core::text::count(r.new_entries.len(), "entry", "entries")
        )),
        Some(reason) => Err(FeedError::FirstFetch { url, reason }),
    };
    send_changed(&tx, said);
}

impl Shell {
    pub(super) fn feed_op(&mut self, op: FeedOp) {
        let (client, tx, jobs) = (Arc::clone(&self.client), self.tx.clone(), self.jobs.clone());
        match op {
            FeedOp::Subscribe { url } => {
                tokio::spawn(subscribe(client, jobs, tx, url));
            }
            FeedOp::Follow { url, watch } => {
                tokio::spawn(follow(client, jobs, tx, url, watch));
            }
            FeedOp::Adopt { url } => {
                tokio::spawn(store_then_lists(jobs, tx, move |c| {
                    let moved = c.adopt(&url)?;
                    Ok(format!("following {} at {}", moved.name(), moved.url))
                }));
            }
            FeedOp::Unsubscribe { url } => {
                tokio::spawn(store_then_lists(jobs, tx, move |c| {
                    let gone = c.unsubscribe(&url)?;
                    Ok(format!("no longer following {}", gone.url))
                }));
            }
            FeedOp::Refresh | FeedOp::RefreshIfDue => {
                if self.feed_refresh.as_ref().is_some_and(|h| !h.is_finished()) {
                    return;
                }
                let only_due = op == FeedOp::RefreshIfDue;
                self.feed_refresh = Some(tokio::spawn(refresh(client, jobs, tx, only_due)));
            }
            FeedOp::SaveOffline { url, with_links } => {
                tokio::spawn(async move {
                    let said = client
                        .save_for_offline(&url, with_links)
                        .await
                        .map(|r| saved_sentence(&r))
                        .map_err(FeedError::from);
                    send_changed(&tx, said);
                    send_lists(&jobs, &tx).await;
                });
            }
            FeedOp::CheckFollowed { url } => {
                tokio::spawn(async move {
                    let asked = url.clone();
                    let read = on_store(&jobs, move |c| (followed(c, &asked), lists(c))).await;
                    let followed = match read {
                        Ok((followed, lists)) => {
                            let _ = tx.send(lists);
                            followed
                        }
                        Err(e) => Err(e),
                    };
                    let _ = tx.send(Msg::Feeds(FeedMsg::Followed { url, followed }));
                });
            }
            FeedOp::MarkAllRead { feed } => {
                tokio::spawn(store_then_lists(jobs, tx, move |c| {
                    let n = c.mark_all_read(feed.as_deref())?;
                    Ok(match n {
                        0 => "nothing was unread".to_string(),
                        n => format!(
                            "{} marked read",
                            smolweb_core::text::count(n, "entry", "entries")
                        ),
                    })
                }));
            }
            FeedOp::Unsave { url } => {
                tokio::spawn(store_then_lists(jobs, tx, move |c| {
                    Ok(if c.unsave_offline(&url)? {
                        format!("{url} is off the reading list")
                    } else {
                        format!("{url} was not on the reading list")
                    })
                }));
            }
        }
    }
}

fn send_changed(tx: &mpsc::UnboundedSender<Msg>, said: Result<String, FeedError>) {
    let _ = tx.send(Msg::Feeds(FeedMsg::Changed(said)));
}

impl StoreWorker {
    pub(super) fn feed_job(&self, job: FeedJob) {
        match job {
            FeedJob::Visited { url, opts, outcome } => self.visited(&url, &opts, &outcome),
        }
    }

    /// After a visit: its feed entries are read, an offline copy is kept and the page is
    /// indexed; after a network failure, a kept copy is offered.
    fn visited(&self, url: &str, opts: &OpenOptions, outcome: &Outcome) {
        let c = &self.client;
        match outcome {
            Outcome::Page { fetched, .. } => {
                // The URL asked for and, after a redirect, the one answered.
                let page_url = fetched.page.url.to_string();
                let mut read = c.mark_read(url);
                if read.is_ok() && page_url != url {
                    read = c.mark_read(&page_url);
                }
                if let Err(e) = read {
                    self.send(Msg::Done(Err(e.into())));
                }
                if let Err(e) = c.keep_offline(opts, outcome) {
                    self.send(Msg::Feeds(FeedMsg::Changed(Err(e.into()))));
                }
                // Handed to the index's own thread: the store thread does not wait for it.
                c.index_visit(opts, outcome);
            }
            Outcome::Error { .. } => match c.offline_fallback(url, outcome) {
                Ok(Some(copy)) => {
                    let age_seconds = copy.age_seconds(c.now());
                    self.send(Msg::Feeds(FeedMsg::Offer(Offer {
                        url: url.to_string(),
                        copy: Box::new(copy),
                        age_seconds,
                    })));
                }
                Ok(None) => {}
                Err(e) => self.send(Msg::Feeds(FeedMsg::Changed(Err(e.into())))),
            },
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::{App, Settings};
    use crate::keymap::{Key, Keymap};
    use crate::theme::Theme;
    use smolweb_client::{Fetched, RequestInfo};
    use smolweb_core::feed::Entry;
    use smolweb_core::page::Page;
    use smolweb_core::response::parse_mime;
    use smolweb_core::url::Url;
    use smolweb_net::FetchError;
    use smolweb_store::subscriptions::Refreshed;

    const URL: &str = "gemini://ada.test/gemlog/frost.gmi";

    use super::super::tests::{drain, worker};

    fn page_outcome() -> Outcome {
        let page = Page::from_gemini(
            Url::parse(URL).unwrap(),
            parse_mime("text/gemini"),
            b"# Frost\n\nThe capsule is white this morning.\n".to_vec(),
        );
        Outcome::Page {
            info: RequestInfo {
                url: URL.into(),
                host: "ada.test".into(),
                port: 1965,
                ..RequestInfo::default()
            },
            fetched: Fetched {
                page: Arc::new(page),
                cached: false,
                cached_at: None,
            },
        }
    }

    fn error(error: FetchError) -> Outcome {
        Outcome::Error {
            info: RequestInfo {
                url: URL.into(),
                ..RequestInfo::default()
            },
            error,
        }
    }

    fn visit(w: &StoreWorker, outcome: &Outcome) {
        let job = FeedJob::visited(URL, &FetchOptions::default(), outcome).unwrap();
        match job {
            Job::Feed(job) => w.feed_job(job),
            _ => panic!("not a feed job"),
        }
    }

    #[test]
    fn a_visit_marks_its_entry_read_and_keeps_a_copy_offered_after_a_network_failure() {
        let (w, mut rx, _dir) = worker();
        let c = &w.client;
        let feed = "gemini://ada.test/gemlog/";
        c.subscribe(feed).unwrap();
        let entries = vec![Entry {
            title: "Frost".into(),
            url: URL.into(),
            published: Some("2026-11-30T00:00:00Z".into()),
        }];
        let refreshed = Refreshed::Ok {
            title: None,
            entries,
        };
        // What a refresh records (the client's `refresh_feed`, here without a network).
        let store = smolweb_store::subscriptions::Subscriptions::new(c.paths().subscriptions());
        store.record(feed, &refreshed, c.now()).unwrap();
        assert_eq!(c.subscriptions_list().unwrap()[0].unread(), 1);

        visit(&w, &page_outcome());
        assert_eq!(c.subscriptions_list().unwrap()[0].unread(), 0, "read");
        assert!(c.offline_copy(URL).unwrap().is_some(), "kept offline");
        assert!(drain(&mut rx).is_empty(), "no error to report");

        // A capsule's own refusal offers nothing; a refused connection offers the copy.
        visit(&w, &error(smolweb_net::RequestError::TitanOpened.into()));
        assert!(drain(&mut rx).is_empty());
        let refused = std::io::ErrorKind::ConnectionRefused.into();
        let down = error(FetchError::connection("ada.test", 1965, refused));
        visit(&w, &down);
        let offer = match drain(&mut rx).pop() {
            Some(Msg::Feeds(FeedMsg::Offer(o))) => o,
            other => panic!("expected an offer, got {other:?}"),
        };
        assert_eq!(offer.url, URL);
        assert!(offer.copy.fetched.cached);

        // The browser: the error page, the offer, the key that reads it.
        let mut app = App::new(Settings::default(), Keymap::default(), Theme::default());
        let fx = app.start(Some(URL.into()));
        let id = fx
            .iter()
            .find_map(|e| match e {
                crate::app::Effect::Fetch { id, .. } => Some(*id),
                _ => None,
            })
            .unwrap();
        app.update(Msg::Fetched {
            id,
            outcome: Box::new(down),
        });
        app.update(Msg::Feeds(FeedMsg::Offer(offer)));
        assert!(
            app.status().text.contains("a copy from"),
            "{:?}",
            app.status()
        );
        app.update(Msg::Key(Key::ch('C')));
        let text = app
            .screen()
            .frame()
            .iter()
            .map(|r| r.text.as_str())
            .collect::<Vec<_>>();
        assert!(
            text.iter().any(|t| t.contains("white this morning")),
            "{text:?}"
        );
        assert!(
            app.status().text.contains("offline copy, "),
            "{:?}",
            app.status()
        );
        assert!(app.status().text.contains(" s old") || app.status().text.contains("min old"));
    }

    #[test]
    fn the_followed_check_reads_what_another_process_added() {
        let (w, _rx, _dir) = super::super::tests::worker();
        assert_eq!(followed(&w.client, "gopher://hole.test/1/").unwrap(), None);
        let other =
            smolweb_store::subscriptions::Subscriptions::new(w.client.paths().subscriptions());
        other
            .add("gopher://hole.test:70/1/", time::OffsetDateTime::now_utc())
            .unwrap();
        let stored = followed(&w.client, "gopher://hole.test/1/").unwrap();
        assert!(stored.is_some_and(|u| u.contains("hole.test")));
        assert_eq!(
            followed(&w.client, "about:offline").unwrap(),
            None,
            "no feed URL: not followed"
        );
    }

    #[test]
    fn built_in_pages_leave_nothing_behind() {
        let o = page_outcome();
        assert!(FeedJob::visited("about:feeds", &FetchOptions::default(), &o).is_none());
    }
}
