//! Persistent history of visited URLs (never with a query: it may hold a secret answer).
//! Bounded (newest kept), most recent first, deduplicated by URL.

use super::StoreError;
use super::atomic::{self, Modes};
use smolweb_core::url::strip_query;
use std::path::PathBuf;
use time::OffsetDateTime;

pub const MAX_HISTORY: usize = 2000;

#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Visit {
    pub url: String,
    pub title: Option<String>,
    #[serde(with = "time::serde::rfc3339")]
    pub at: OffsetDateTime,
}

/// On-disk shape: `[[visit]]` tables, most recent first.
#[derive(Debug, Default, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct HistoryFile {
    #[serde(default, rename = "visit")]
    visits: Vec<Visit>,
}

fn render(file: &HistoryFile) -> Result<String, StoreError> {
    let body = atomic::render_toml(file)?;
    Ok(format!(
        "# smolweb history, most recent first (URLs are stored without their query).\n\n{body}"
    ))
}

/// Read, write and read again (the fuzz targets' check; see [`super::fuzzing`]).
pub(super) fn round_trip(text: &str) -> super::fuzzing::RoundTrip {
    super::fuzzing::check(text, atomic::parse_toml::<HistoryFile>, render)
}

/// The history file.
#[derive(Clone, Debug)]
pub struct History {
    path: PathBuf,
}

impl History {
    pub fn new(path: PathBuf) -> History {
        History { path }
    }
    pub fn path(&self) -> &std::path::Path {
        &self.path
    }
    /// Record a visit: the query is stripped, an earlier visit of the same URL moves to the
    /// front (keeping the new title, or the old one when none is given), and the list is cut
    /// to [`MAX_HISTORY`].
    pub fn record(
        &self,
        url: &str,
        title: Option<&str>,
        now: OffsetDateTime,
    ) -> Result<(), StoreError> {
        let url = strip_query(url.trim());
        if url.is_empty() {
            return Ok(());
        }
        let now = now.replace_nanosecond(0).unwrap_or(now);
        atomic::update_if(
            &self.path,
            Modes::DATA,
            atomic::parse_toml::<HistoryFile>,
            render,
            |file| {
                let old = file
                    .visits
                    .iter()
                    .position(|v| v.url == url)
                    .map(|i| file.visits.remove(i));
                let title = title
                    .map(|t| t.trim().to_string())
                    .filter(|t| !t.is_empty())
                    .or_else(|| old.and_then(|v| v.title));
                file.visits.insert(
                    0,
                    Visit {
                        url: url.to_string(),
                        title,
                        at: now,
                    },
                );
                file.visits.truncate(MAX_HISTORY);
                Ok(((), true))
            },
        )
    }
    /// Visits, most recent first.
    pub fn list(&self) -> Result<Vec<Visit>, StoreError> {
        Ok(atomic::read(&self.path, atomic::parse_toml::<HistoryFile>)?.visits)
    }
}
