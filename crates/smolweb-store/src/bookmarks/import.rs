//! Bookmarks from other browsers: amfora's `bookmarks.xml` (XBEL, folders kept), amfora's
//! older `bookmarks.toml` (a `[bookmarks]` table of URL = name), and Lagrange's
//! `bookmarks.ini` (numbered tables with `url`, `title` and `parent`; an entry without a URL
//! is a folder, nested folders read `Outer / Inner`). Pure: the caller reads the file and
//! adds what comes back ([`super::Bookmarks::add_all`]).

use super::Bookmark;
use std::collections::BTreeMap;

/// Why a file could not be read as bookmarks.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    /// Neither XBEL nor TOML of a known shape.
    #[error(
        "not a bookmarks file smolweb knows (amfora's bookmarks.xml or bookmarks.toml, Lagrange's bookmarks.ini): {0}"
    )]
    Unknown(String),
}

/// Deepest folder nesting followed (a loop of `parent`s stops here).
const MAX_DEPTH: usize = 16;

/// The bookmarks in `text`, in file order, with the format's name.
pub fn import(text: &str) -> Result<(&'static str, Vec<Bookmark>), ImportError> {
    let head = text.trim_start_matches('\u{feff}').trim_start();
    if head.starts_with("<?xml") || head.starts_with("<xbel") || head.contains("<xbel") {
        return Ok(("XBEL (amfora)", xbel(text)));
    }
    let table: toml::Table = text
        .parse()
        .map_err(|e: toml::de::Error| ImportError::Unknown(e.message().to_string()))?;
    if let Some(toml::Value::Table(marks)) = table.get("bookmarks") {
        let list = marks
            .iter()
            .map(|(url, name)| Bookmark {
                url: url.clone(),
                title: name.as_str().unwrap_or_default().to_string(),
                folder: String::new(),
            })
            .collect();
        return Ok(("amfora bookmarks.toml", list));
    }
    let list = lagrange(&table);
    if list.is_empty() && !table.is_empty() {
        return Err(ImportError::Unknown(
            "no table has a url (expected Lagrange's numbered entries)".into(),
        ));
    }
    Ok(("Lagrange bookmarks.ini", list))
}

fn lagrange(table: &toml::Table) -> Vec<Bookmark> {
    let str_of =
        |t: &toml::Table, k: &str| t.get(k).and_then(toml::Value::as_str).map(str::to_string);
    let parent_of = |t: &toml::Table| t.get("parent").and_then(toml::Value::as_integer);
    let entries: BTreeMap<i64, &toml::Table> = table
        .iter()
        .filter_map(|(k, v)| Some((k.parse::<i64>().ok()?, v.as_table()?)))
        .collect();
    let folder_path = |mut parent: Option<i64>| {
        let mut names = Vec::new();
        while let Some(p) = parent {
            if names.len() == MAX_DEPTH {
                break;
            }
            let Some(t) = entries.get(&p) else { break };
            names.push(str_of(t, "title").unwrap_or_default());
            parent = parent_of(t);
        }
        names.reverse();
        names.join(" / ")
    };
    entries
        .values()
        .filter_map(|t| {
            let url = str_of(t, "url").filter(|u| !u.is_empty())?;
            Some(Bookmark {
                url,
                title: str_of(t, "title").unwrap_or_default(),
                folder: folder_path(parent_of(t)),
            })
        })
        .collect()
}

/// A tolerant XBEL reader: `<folder>` (with its `<title>`), `<bookmark href>` (with its
/// `<title>`); everything else is skipped.
fn xbel(text: &str) -> Vec<Bookmark> {
    let mut out = Vec::new();
    let mut folders: Vec<String> = Vec::new();
    // What the next <title> names: a folder (its index) or the open bookmark.
    enum Open {
        Folder,
        Mark(Bookmark),
        None,
    }
    let mut open = Open::None;
    let mut rest = text;
    while let Some(lt) = rest.find('<') {
        let after = &rest[lt + 1..];
        let Some(gt) = after.find('>') else { break };
        let tag = &after[..gt];
        rest = &after[gt + 1..];
        let name = tag
            .trim_start_matches('/')
            .split(|c: char| c.is_whitespace() || c == '/')
            .next()
            .unwrap_or("")
            .to_ascii_lowercase();
        let closing = tag.starts_with('/');
        match (name.as_str(), closing) {
            ("folder", false) => {
                folders.push(String::new());
                open = Open::Folder;
            }
            ("folder", true) => {
                folders.pop();
            }
            ("bookmark", false) => {
                let href = attr(tag, "href").unwrap_or_default();
                let mark = Bookmark {
                    url: unescape(&href),
                    title: String::new(),
                    folder: folders
                        .iter()
                        .filter(|f| !f.is_empty())
                        .cloned()
                        .collect::<Vec<_>>()
                        .join(" / "),
                };
                if tag.ends_with('/') {
                    out.push(mark);
                } else {
                    open = Open::Mark(mark);
                }
            }
            ("bookmark", true) => {
                if let Open::Mark(m) = std::mem::replace(&mut open, Open::None) {
                    out.push(m);
                }
            }
            ("title", false) => {
                let end = rest.find('<').unwrap_or(rest.len());
                let title = unescape(rest[..end].trim());
                match &mut open {
                    Open::Folder => {
                        if let Some(f) = folders.last_mut() {
                            *f = title;
                        }
                        open = Open::None;
                    }
                    Open::Mark(m) => m.title = title,
                    Open::None => {}
                }
            }
            _ => {}
        }
    }
    out
}

/// The value of `name="..."` (or single quotes) in a tag.
fn attr(tag: &str, name: &str) -> Option<String> {
    let mut rest = tag;
    while let Some(i) = rest.find(name) {
        let after = rest[i + name.len()..].trim_start();
        let before_ok = i == 0 || rest[..i].ends_with(char::is_whitespace);
        if before_ok && let Some(v) = after.strip_prefix('=') {
            let v = v.trim_start();
            let q = v.chars().next()?;
            if q == '"' || q == '\'' {
                let body = &v[1..];
                return body.find(q).map(|e| body[..e].to_string());
            }
        }
        rest = &rest[i + name.len()..];
    }
    None
}

/// XML character and entity references.
fn unescape(s: &str) -> String {
    if !s.contains('&') {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find('&') {
        out.push_str(&rest[..i]);
        let after = &rest[i + 1..];
        let Some(semi) = after.find(';').filter(|&k| k <= 10) else {
            out.push('&');
            rest = after;
            continue;
        };
        let ent = &after[..semi];
        let c = match ent {
            "amp" => Some('&'),
            "lt" => Some('<'),
            "gt" => Some('>'),
            "quot" => Some('"'),
            "apos" => Some('\''),
            _ => ent
                .strip_prefix("#x")
                .or_else(|| ent.strip_prefix("#X"))
                .and_then(|h| u32::from_str_radix(h, 16).ok())
                .or_else(|| ent.strip_prefix('#').and_then(|d| d.parse().ok()))
                .and_then(char::from_u32),
        };
        match c {
            Some(c) => {
                out.push(c);
                rest = &after[semi + 1..];
            }
            None => {
                out.push('&');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(list: &[Bookmark]) -> Vec<(&str, &str, &str)> {
        list.iter()
            .map(|b| (b.url.as_str(), b.title.as_str(), b.folder.as_str()))
            .collect()
    }

    #[test]
    fn amfora_xbel_with_folders_and_entities() {
        let xml = r#"<?xml version="1.0" encoding="UTF-8"?>
<xbel version="1.0">
  <bookmark href="gemini://geminiprotocol.net/">
    <title>Project Gemini</title>
  </bookmark>
  <folder>
    <title>Gemlogs &amp; news</title>
    <bookmark href="gemini://a.example/log/?x=1&amp;y=2"><title>A&#39;s log</title></bookmark>
    <folder><title>Old</title><bookmark href='gopher://b.example/1/'/></folder>
  </folder>
  <bookmark href="gemini://c.example/"><title>C</title></bookmark>
</xbel>"#;
        let (kind, list) = import(xml).unwrap();
        assert_eq!(kind, "XBEL (amfora)");
        assert_eq!(
            rows(&list),
            [
                ("gemini://geminiprotocol.net/", "Project Gemini", ""),
                (
                    "gemini://a.example/log/?x=1&y=2",
                    "A's log",
                    "Gemlogs & news"
                ),
                ("gopher://b.example/1/", "", "Gemlogs & news / Old"),
                ("gemini://c.example/", "C", ""),
            ]
        );
    }

    #[test]
    fn lagrange_ini_with_a_folder_and_amfora_toml() {
        let ini = r#"
[1]
url = "gemini://skyjake.fi/lagrange/"
title = "Lagrange"
tags = "homepage"
icon = 0x1f4d8
created = 1602000000

[2]
title = "Reading"
created = 1602000001

[3]
url = "gemini://d.example/"
title = "D \"quoted\""
parent = 2
created = 1602000002
"#;
        let (kind, list) = import(ini).unwrap();
        assert_eq!(kind, "Lagrange bookmarks.ini");
        assert_eq!(
            rows(&list),
            [
                ("gemini://skyjake.fi/lagrange/", "Lagrange", ""),
                ("gemini://d.example/", "D \"quoted\"", "Reading"),
            ]
        );
        let toml = "[bookmarks]\n\"gemini://e.example/\" = \"E\"\n";
        let (kind, list) = import(toml).unwrap();
        assert_eq!(kind, "amfora bookmarks.toml");
        assert_eq!(rows(&list), [("gemini://e.example/", "E", "")]);
        assert!(import("[x]\ny = 1\n").is_err());
        assert!(import("not toml = = at all").is_err());
    }

    #[test]
    fn a_parent_loop_ends() {
        let ini = "[1]\ntitle = \"A\"\nparent = 2\n[2]\ntitle = \"B\"\nparent = 1\n[3]\nurl = \"gemini://f.example/\"\nparent = 1\n";
        let (_, list) = import(ini).unwrap();
        assert_eq!(list.len(), 1);
        assert!(list[0].folder.split(" / ").count() <= MAX_DEPTH);
    }
}
