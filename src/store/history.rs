//! Persistent history of visited URLs (never with a query: it may hold a secret answer).
//! Bounded (newest kept), most recent first, deduplicated by URL.

use super::StoreError;
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

#[derive(Clone, Debug)]
pub struct History {
    path: PathBuf,
}

impl History {
    pub fn new(path: PathBuf) -> History {
        History { path }
    }
    pub fn record(
        &self,
        url: &str,
        title: Option<&str>,
        now: OffsetDateTime,
    ) -> Result<(), StoreError> {
        let _ = (url, title, now, &self.path);
        Ok(())
    }
    pub fn list(&self) -> Result<Vec<Visit>, StoreError> {
        Ok(Vec::new())
    }
}
