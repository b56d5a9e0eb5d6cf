//! The tour: links to read next, in the order they were added (offpunk's `tour`). The person
//! adds links from the browser or `smolweb tour add`, agents add them with a reason; the next
//! one is taken off the front when it is visited.
//!
//! `tour.toml` holds `[[stop]]` entries: the URL (without fragment, never with a query: that
//! may be an answer typed at a capsule's prompt), when it was added, its link label when it
//! came from a page, and for an agent's add who added it (the MCP client's declared name and
//! its session in the activity log) and why. Every text is cleaned to one short line; it is
//! still remote or agent text, sanitized again where a terminal shows it.
//!
//! Bounds: at most [`MAX_STOPS`] wait, and of those at most [`MAX_AGENT_STOPS`] added by
//! agents; past either a new one is refused (never an older one dropped: each was put there
//! on purpose). A link already waiting keeps its place.

use super::StoreError;
use super::activity::{MAX_TEXT_CHARS, clean_note, clean_text};
use super::list_file::{ListFile, ListItem};
use std::path::PathBuf;
use time::OffsetDateTime;

/// Most links waiting at once.
pub const MAX_STOPS: usize = 500;
/// Most of them added by agents.
pub const MAX_AGENT_STOPS: usize = 50;
/// Most characters of a reason or a label kept.
pub const MAX_REASON_CHARS: usize = 300;

/// A link on the tour.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Stop {
    /// The page, without fragment or query.
    pub url: String,
    /// When it was added (whole seconds).
    #[serde(with = "time::serde::rfc3339")]
    pub at: OffsetDateTime,
    /// The link's label on the page it was added from (remote text), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// The agent that added it (None: the person).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent: Option<AgentAdd>,
}

/// Who of the agents added a stop, and why.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct AgentAdd {
    /// The MCP client's declared name (untrusted).
    pub client: String,
    /// Its session id in the activity log.
    pub session: String,
    /// Why the agent thinks the person should read it (untrusted).
    pub reason: String,
}

impl ListItem for Stop {
    const TABLE: &'static str = "stop";
    fn header() -> String {
        "# smolweb: the tour, links to read next in order (the browser's tour keys, `smolweb \
         tour`).\n"
            .into()
    }
}

/// A link to add: the URL and, when it came from a page, its label.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NewStop {
    /// The URL (a fragment is dropped; a query is refused).
    pub url: String,
    /// The link's label.
    pub label: Option<String>,
}

/// What adding links did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Added {
    /// Links added at the end of the tour.
    pub added: usize,
    /// Links already on the tour (they keep their place).
    pub already: usize,
    /// Links refused, each with why (a query, not a URL, the tour full).
    pub refused: Vec<(String, String)>,
    /// Links waiting after the add.
    pub waiting: usize,
}

/// The tour file.
#[derive(Clone, Debug)]
pub struct Tour {
    file: ListFile<Stop>,
}

/// The URL as the tour keeps it, or why it cannot.
fn tour_url(url: &str) -> Result<String, String> {
    let url = url.split_once('#').map_or(url, |(before, _)| before).trim();
    if url.is_empty() || url.chars().any(char::is_control) || !url.contains(':') {
        return Err("not a URL".into());
    }
    if url.contains('?') {
        return Err(
            "a link with a query is not put on the tour (it may be an answer you typed)".into(),
        );
    }
    Ok(url.to_string())
}

impl Tour {
    /// The file at `path` (nothing is read or created yet).
    pub fn new(path: PathBuf) -> Tour {
        Tour {
            file: ListFile::new(path),
        }
    }

    /// The file this store reads and writes.
    pub fn path(&self) -> &std::path::Path {
        self.file.path()
    }

    /// Add the person's links at the end, in order, under one lock (see [`Added`]).
    pub fn add(&self, links: &[NewStop], now: OffsetDateTime) -> Result<Added, StoreError> {
        let stops = links.iter().map(|l| {
            let label = clean_note(l.label.as_deref(), MAX_REASON_CHARS);
            (l.url.as_str(), label, None)
        });
        self.add_stops(stops.collect(), now)
    }

    /// Add one link for an agent, with its reason (see [`Added`]): refused when agents already
    /// have [`MAX_AGENT_STOPS`] waiting.
    pub fn add_for_agent(
        &self,
        url: &str,
        reason: &str,
        client: &str,
        session: &str,
        now: OffsetDateTime,
    ) -> Result<Added, StoreError> {
        let reason = clean_text(reason, MAX_REASON_CHARS);
        if reason.is_empty() {
            return Err(StoreError::Invalid(
                "say why the person should read it (a reason)".into(),
            ));
        }
        let agent = AgentAdd {
            client: clean_text(client, MAX_TEXT_CHARS),
            session: clean_text(session, 16),
            reason,
        };
        self.add_stops(vec![(url, None, Some(agent))], now)
    }

    fn add_stops(
        &self,
        stops: Vec<(&str, Option<String>, Option<AgentAdd>)>,
        now: OffsetDateTime,
    ) -> Result<Added, StoreError> {
        let now = now.replace_nanosecond(0).unwrap_or(now);
        self.file.update(|list| {
            let mut out = Added::default();
            for (url, label, agent) in stops {
                let url = match tour_url(url) {
                    Ok(u) => u,
                    Err(why) => {
                        out.refused.push((url.to_string(), why));
                        continue;
                    }
                };
                if list.iter().any(|s| s.url == url) {
                    out.already += 1;
                    continue;
                }
                let by_agents = list.iter().filter(|s| s.agent.is_some()).count();
                let full = if list.len() >= MAX_STOPS {
                    Some(format!("the tour is full ({MAX_STOPS} links)"))
                } else if agent.is_some() && by_agents >= MAX_AGENT_STOPS {
                    Some(format!(
                        "agents already put {MAX_AGENT_STOPS} links on the tour; the person \
                         reads or clears them first"
                    ))
                } else {
                    None
                };
                if let Some(why) = full {
                    out.refused.push((url, why));
                    continue;
                }
                list.push(Stop {
                    url,
                    at: now,
                    label,
                    agent,
                });
                out.added += 1;
            }
            out.waiting = list.len();
            Ok((out.clone(), out.added > 0))
        })
    }

    /// The links waiting, in tour order (the next first).
    pub fn list(&self) -> Result<Vec<Stop>, StoreError> {
        self.file.read()
    }

    /// Take the next link off the front; with how many wait after it. None: the tour is empty.
    pub fn next(&self) -> Result<Option<(Stop, usize)>, StoreError> {
        self.file.update(|list| {
            if list.is_empty() {
                return Ok((None, false));
            }
            let stop = list.remove(0);
            Ok((Some((stop, list.len())), true))
        })
    }

    /// Take one link off (wherever it is). Returns whether it was there.
    pub fn remove(&self, url: &str) -> Result<bool, StoreError> {
        let url = url.split_once('#').map_or(url, |(before, _)| before).trim();
        self.file.update(|list| {
            let before = list.len();
            list.retain(|s| s.url != url);
            let changed = list.len() != before;
            Ok((changed, changed))
        })
    }

    /// Take every link off. Returns how many there were.
    pub fn clear(&self) -> Result<usize, StoreError> {
        self.file.update(|list| {
            let n = list.len();
            list.clear();
            Ok((n, n > 0))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: i64) -> OffsetDateTime {
        OffsetDateTime::from_unix_timestamp(1_800_000_000 + s).unwrap()
    }

    fn link(url: &str) -> NewStop {
        NewStop {
            url: url.into(),
            label: None,
        }
    }

    #[test]
    fn links_keep_their_order_and_next_takes_the_first() {
        let dir = tempfile::tempdir().unwrap();
        let tour = Tour::new(dir.path().join("tour.toml"));
        assert_eq!(tour.next().unwrap(), None);
        let added = tour
            .add(
                &[
                    NewStop {
                        url: "gemini://a.test/one#part".into(),
                        label: Some("One\n\x1b[31mred".into()),
                    },
                    link("gopher://b.test/1/two"),
                    link("gemini://a.test/one"),
                    link("gemini://a.test/search?secret"),
                    link("no url"),
                ],
                at(1),
            )
            .unwrap();
        assert_eq!((added.added, added.already, added.waiting), (2, 1, 2));
        assert_eq!(added.refused.len(), 2, "{:?}", added.refused);
        assert!(added.refused[0].1.contains("query"));
        let list = tour.list().unwrap();
        assert_eq!(list[0].url, "gemini://a.test/one");
        let label = list[0].label.as_deref().unwrap();
        assert!(!label.chars().any(char::is_control), "{label:?}");
        let (first, left) = tour.next().unwrap().unwrap();
        assert_eq!((first.url.as_str(), left), ("gemini://a.test/one", 1));
        assert!(tour.remove("gopher://b.test/1/two").unwrap());
        assert!(tour.list().unwrap().is_empty());
    }

    #[test]
    fn agents_add_with_a_reason_within_their_share() {
        let dir = tempfile::tempdir().unwrap();
        let tour = Tour::new(dir.path().join("tour.toml"));
        assert!(
            tour.add_for_agent("gemini://a.test/", "  ", "bot", "s1", at(0))
                .is_err()
        );
        for i in 0..MAX_AGENT_STOPS {
            let url = format!("gemini://a.test/{i}");
            let a = tour
                .add_for_agent(&url, "worth it", "bot", "s1", at(0))
                .unwrap();
            assert_eq!(a.added, 1);
        }
        let over = tour
            .add_for_agent("gemini://a.test/more", "too", "bot", "s1", at(0))
            .unwrap();
        assert_eq!(over.added, 0);
        assert!(over.refused[0].1.contains("agents already"), "{over:?}");
        // The person's adds are not counted against the agents' share.
        assert_eq!(
            tour.add(&[link("gemini://p.test/")], at(1)).unwrap().added,
            1
        );
        let stop = &tour.list().unwrap()[0];
        let agent = stop.agent.as_ref().unwrap();
        assert_eq!(
            (agent.client.as_str(), agent.reason.as_str()),
            ("bot", "worth it")
        );
        assert_eq!(tour.clear().unwrap(), MAX_AGENT_STOPS + 1);
    }

    #[test]
    fn a_full_tour_refuses_and_keeps_what_waits() {
        let dir = tempfile::tempdir().unwrap();
        let tour = Tour::new(dir.path().join("tour.toml"));
        let links: Vec<NewStop> = (0..MAX_STOPS + 2)
            .map(|i| link(&format!("gemini://a.test/{i}")))
            .collect();
        let added = tour.add(&links, at(0)).unwrap();
        assert_eq!((added.added, added.refused.len()), (MAX_STOPS, 2));
        assert_eq!(tour.list().unwrap()[0].url, "gemini://a.test/0");
    }

    #[test]
    fn a_corrupt_tour_is_an_error_and_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("tour.toml");
        crate::perms::write_private(&path, "[[stop]]\nurl = 3\n").unwrap();
        let tour = Tour::new(path.clone());
        let err = tour.list().unwrap_err();
        assert!(matches!(err, StoreError::Corrupt { .. }), "{err:?}");
        assert!(err.to_string().contains("tour.toml"), "{err}");
        assert!(tour.add(&[link("gemini://a.test/")], at(0)).is_err());
        assert!(tour.next().is_err());
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "[[stop]]\nurl = 3\n"
        );
    }
}
