//! The bookmarks ([`smolweb_store::bookmarks`]) as the faces use them: listed, added,
//! filed in a folder, removed, and imported from another browser's file.

use crate::Client;
use smolweb_store::StoreError;
use smolweb_store::bookmarks::Bookmark;

impl Client {
    /// The bookmarks, in the file's order.
    pub fn bookmarks_list(&self) -> Result<Vec<Bookmark>, StoreError> {
        self.bookmarks.list()
    }

    /// Bookmark `url` as `title`: true when it is new, false when an existing bookmark was
    /// renamed.
    pub fn add_bookmark(&self, url: &str, title: &str) -> Result<bool, StoreError> {
        self.bookmarks.add(url, title)
    }

    /// File the bookmark of `url` in `folder` (empty: the top level); false when `url` is not
    /// bookmarked.
    pub fn move_bookmark(&self, url: &str, folder: &str) -> Result<bool, StoreError> {
        self.bookmarks.move_to(url, folder)
    }

    /// Remove the bookmark of `url`; whether there was one.
    pub fn remove_bookmark(&self, url: &str) -> Result<bool, StoreError> {
        self.bookmarks.remove(url)
    }

    /// Add bookmarks brought from elsewhere (`smolweb_store::bookmarks::import`): how many
    /// were added, and how many were skipped (already bookmarked or unusable).
    pub fn import_bookmarks(&self, found: &[Bookmark]) -> Result<(usize, usize), StoreError> {
        self.bookmarks.add_all(found)
    }
}
