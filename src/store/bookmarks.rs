//! Bookmarks, stored as a gemtext file of `=> URL title` lines (readable as a page).

use super::StoreError;
use std::path::PathBuf;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bookmark {
    pub url: String,
    pub title: String,
}

#[derive(Clone, Debug)]
pub struct Bookmarks {
    path: PathBuf,
}

impl Bookmarks {
    pub fn new(path: PathBuf) -> Bookmarks {
        Bookmarks { path }
    }
    pub fn list(&self) -> Result<Vec<Bookmark>, StoreError> {
        let _ = &self.path;
        Ok(Vec::new())
    }
    /// Add (or retitle) a bookmark; returns true when it was new.
    pub fn add(&self, url: &str, title: &str) -> Result<bool, StoreError> {
        let _ = (url, title);
        Ok(false)
    }
    pub fn remove(&self, url: &str) -> Result<bool, StoreError> {
        let _ = url;
        Ok(false)
    }
    /// The bookmarks as a gemtext page.
    pub fn to_gemtext(&self) -> Result<String, StoreError> {
        Ok(String::new())
    }
}
