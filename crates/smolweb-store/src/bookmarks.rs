//! Bookmarks, stored as a gemtext file of `=> URL title` lines (readable as a page), those
//! in a folder under its `## Folder` heading. [`import`] reads amfora's (XBEL) and
//! Lagrange's (`bookmarks.ini`) files.

mod import;
pub use import::{ImportError, import};

use super::StoreError;
use super::atomic::{self, Modes};
use std::path::PathBuf;

/// One bookmark: a `=> URL title` line of the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bookmark {
    /// The bookmarked URL, as written.
    pub url: String,
    /// Its title; empty when the line has none.
    pub title: String,
    /// The folder it is filed in; empty at the top level.
    pub folder: String,
}

/// Parse the gemtext file: every `=> URL [title]` line is a bookmark, other lines are
/// ignored (they are not kept on the next write). Never fails.
fn parse(text: &str) -> Result<Vec<Bookmark>, std::convert::Infallible> {
    let mut folder = String::new();
    let mut out = Vec::new();
    for line in text.lines() {
        if let Some(h) = line.strip_prefix("## ") {
            folder = clean_title(h);
        } else if line.starts_with("# ") {
            folder.clear();
        } else if let Some(mut b) = parse_link(line) {
            b.folder = folder.clone();
            out.push(b);
        }
    }
    Ok(out)
}

fn parse_link(line: &str) -> Option<Bookmark> {
    let rest = line.strip_prefix("=>")?.trim();
    let (url, title) = match rest.split_once(char::is_whitespace) {
        Some((u, t)) => (u, t.trim()),
        None => (rest, ""),
    };
    (!url.is_empty()).then(|| Bookmark {
        url: url.to_string(),
        title: title.to_string(),
        folder: String::new(),
    })
}

/// The folders in the order they first appear, the top level (`""`) first.
pub fn folders(list: &[Bookmark]) -> Vec<&str> {
    let mut out: Vec<&str> = vec![""];
    for b in list {
        if !out.contains(&b.folder.as_str()) {
            out.push(&b.folder);
        }
    }
    out
}

fn render(list: &[Bookmark]) -> String {
    let mut out = String::from("# Bookmarks\n");
    for folder in folders(list) {
        if !folder.is_empty() {
            out.push_str(&format!("\n## {folder}\n"));
        } else {
            out.push('\n');
        }
        for b in list.iter().filter(|b| b.folder == folder) {
            if b.title.is_empty() {
                out.push_str(&format!("=> {}\n", b.url));
            } else {
                out.push_str(&format!("=> {} {}\n", b.url, b.title));
            }
        }
    }
    out
}

/// Read, write and read again (the fuzz targets' check; see [`super::fuzzing`]).
#[cfg(any(test, feature = "fuzzing"))]
pub(super) fn round_trip(text: &str) -> super::fuzzing::RoundTrip {
    super::fuzzing::check(text, parse, |l| Ok(render(l)))
}

/// A title fits on its link line: line breaks and control characters become spaces.
fn clean_title(title: &str) -> String {
    let one_line: String = title
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    one_line.trim().to_string()
}

/// The bookmarks file (`bookmarks.gmi`).
#[derive(Clone, Debug)]
pub struct Bookmarks {
    path: PathBuf,
}

impl Bookmarks {
    /// The bookmarks file at `path` (nothing is read or created yet).
    pub fn new(path: PathBuf) -> Bookmarks {
        Bookmarks { path }
    }
    /// The file this store reads and writes.
    pub fn path(&self) -> &std::path::Path {
        &self.path
    }
    /// Bookmarks in file order (oldest first).
    pub fn list(&self) -> Result<Vec<Bookmark>, StoreError> {
        atomic::read(&self.path, parse)
    }
    fn update<R>(
        &self,
        mutate: impl FnOnce(&mut Vec<Bookmark>) -> (R, bool),
    ) -> Result<R, StoreError> {
        atomic::update_if(
            &self.path,
            Modes::DATA,
            parse,
            |l| Ok(render(l)),
            |l| Ok(mutate(l)),
        )
    }
    /// Add (or retitle) a bookmark; returns true when it was new.
    pub fn add(&self, url: &str, title: &str) -> Result<bool, StoreError> {
        let url = url.trim();
        if url.is_empty() || url.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return Err(StoreError::Invalid(format!(
                "not a bookmarkable URL: {url:?}"
            )));
        }
        let title = clean_title(title);
        self.update(|list| match list.iter_mut().find(|b| b.url == url) {
            Some(b) => {
                let changed = b.title != title;
                b.title = title;
                (false, changed)
            }
            None => {
                list.push(Bookmark {
                    url: url.to_string(),
                    title,
                    folder: String::new(),
                });
                (true, true)
            }
        })
    }
    /// File a bookmark in `folder` (empty: the top level). Returns whether it was there.
    pub fn move_to(&self, url: &str, folder: &str) -> Result<bool, StoreError> {
        let (url, folder) = (url.trim(), clean_title(folder));
        self.update(|list| match list.iter().position(|b| b.url == url) {
            Some(i) => {
                let mut b = list.remove(i);
                let changed = b.folder != folder;
                b.folder = folder;
                // Last in its folder, as a new bookmark would be.
                list.push(b);
                (true, changed)
            }
            None => (false, false),
        })
    }
    /// Add bookmarks read elsewhere (see [`import`]), in their order, skipping URLs already
    /// bookmarked and unusable ones. Returns (added, skipped).
    pub fn add_all(&self, new: &[Bookmark]) -> Result<(usize, usize), StoreError> {
        self.update(|list| {
            let (mut added, mut skipped) = (0, 0);
            for b in new {
                let url = b.url.trim();
                let usable =
                    !url.is_empty() && !url.chars().any(|c| c.is_whitespace() || c.is_control());
                if !usable || list.iter().any(|k| k.url == url) {
                    skipped += 1;
                    continue;
                }
                list.push(Bookmark {
                    url: url.to_string(),
                    title: clean_title(&b.title),
                    folder: clean_title(&b.folder),
                });
                added += 1;
            }
            ((added, skipped), added > 0)
        })
    }
    /// Remove a bookmark; returns whether it existed.
    pub fn remove(&self, url: &str) -> Result<bool, StoreError> {
        let url = url.trim();
        self.update(|list| {
            let before = list.len();
            list.retain(|b| b.url != url);
            let removed = list.len() != before;
            (removed, removed)
        })
    }
    /// The bookmarks as a gemtext page.
    pub fn to_gemtext(&self) -> Result<String, StoreError> {
        Ok(render(&self.list()?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_lines() {
        let text = "# Bookmarks\n\n=> gemini://a/ Alpha site\n=>gemini://b/\n=>   \ntext\n=> gopher://c:70/1/x  Spaced  title \n";
        let got = parse(text).unwrap();
        let want = [
            ("gemini://a/", "Alpha site"),
            ("gemini://b/", ""),
            ("gopher://c:70/1/x", "Spaced  title"),
        ];
        assert_eq!(got.len(), want.len());
        for (b, (u, t)) in got.iter().zip(want) {
            assert_eq!((b.url.as_str(), b.title.as_str()), (u, t));
        }
        assert_eq!(parse(&render(&got)).unwrap(), got);
    }

    #[test]
    fn titles_stay_on_one_line() {
        assert_eq!(clean_title(" a\nb\r\tc "), "a b  c");
    }
}
