//! The shape four store files share: a few comment lines, then one TOML array of tables of
//! one kind of entry (`[[visit]]` in history, `[[approval]]`, `[[subscription]]`, `[[pin]]` in
//! known_hosts). [`ListFile`] reads and rewrites such a file through [`atomic`] (shared lock to
//! read, exclusive lock + re-read + atomic replace to change), so each store only says what
//! its entries are ([`ListItem`]) and how it changes them.
//!
//! The text is exactly what a struct `{ #[serde(default, rename = "<table>")] items: Vec<T> }`
//! with `deny_unknown_fields` reads and writes: a missing table is an empty list, any other
//! top-level key is refused (a corrupt file, never rewritten), and an empty list is written as
//! `<table> = []`.

use super::StoreError;
use super::atomic::{self, Modes};
use super::file_cache::FileCache;
#[cfg(any(test, feature = "fuzzing"))]
use super::fuzzing::RoundTrip;
use serde::de::{self, DeserializeOwned, DeserializeSeed, MapAccess, Visitor};
use serde::ser::SerializeStruct;
use std::fmt;
use std::marker::PhantomData;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// One entry of a list file.
pub(crate) trait ListItem: serde::Serialize + DeserializeOwned {
    /// The name of the array of tables (`visit` for `[[visit]]`).
    const TABLE: &'static str;
    /// The only top-level key serde's errors may expect; leave it as it is.
    const FIELDS: &'static [&'static str] = &[Self::TABLE];
    /// The comment lines written above the entries, each ending with a newline.
    fn header() -> String;
    /// Bring entries just read to today's form (an older version's spellings); none by default.
    fn after_read(_items: &mut [Self]) {}
}

/// A data file holding a list of `T` (see the module docs).
pub(crate) struct ListFile<T> {
    path: PathBuf,
    items: PhantomData<fn() -> T>,
}

impl<T> Clone for ListFile<T> {
    fn clone(&self) -> Self {
        ListFile {
            path: self.path.clone(),
            items: PhantomData,
        }
    }
}

impl<T> fmt::Debug for ListFile<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("ListFile").field(&self.path).finish()
    }
}

impl<T: ListItem> ListFile<T> {
    pub(crate) fn new(path: PathBuf) -> ListFile<T> {
        ListFile {
            path,
            items: PhantomData,
        }
    }

    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    /// The entries on disk, in file order (none when the file does not exist).
    pub(crate) fn read(&self) -> Result<Vec<T>, StoreError> {
        atomic::read(&self.path, parse::<T>)
    }

    /// The entries, newest first (for files appended in time order).
    pub(crate) fn newest_first(&self) -> Result<Vec<T>, StoreError> {
        let mut items = self.read()?;
        items.reverse();
        Ok(items)
    }

    /// Under the exclusive lock: re-read, let `mutate` change the entries, and replace the file
    /// when it says something changed. Returns what `mutate` returned.
    pub(crate) fn update<R>(
        &self,
        mutate: impl FnOnce(&mut Vec<T>) -> Result<(R, bool), StoreError>,
    ) -> Result<R, StoreError> {
        atomic::update_if(
            &self.path,
            Modes::DATA,
            parse::<T>,
            |items| render(items),
            mutate,
        )
    }
}

impl<T: ListItem + Clone> ListFile<T> {
    /// [`ListFile::read`] through `cache` (parsed once per change of the file, shared).
    pub(crate) fn read_cached(&self, cache: &FileCache<Vec<T>>) -> Result<Arc<Vec<T>>, StoreError> {
        atomic::read_cached(&self.path, cache, parse::<T>)
    }

    /// [`ListFile::update`] through `cache` (the re-read takes the copy when the file has not
    /// changed; what is written becomes the copy).
    pub(crate) fn update_cached<R>(
        &self,
        cache: &FileCache<Vec<T>>,
        mutate: impl FnOnce(&mut Vec<T>) -> Result<(R, bool), StoreError>,
    ) -> Result<R, StoreError> {
        atomic::update_cached(
            &self.path,
            Modes::DATA,
            cache,
            parse::<T>,
            |items| render(items),
            mutate,
        )
    }
}

/// 8 random lowercase hex digits that `taken` says no entry uses (approvals, suggestions,
/// shared pages). The system's random source failing is reported, not papered over with a
/// predictable id.
pub(crate) fn fresh_id(taken: impl Fn(&str) -> bool) -> Result<String, StoreError> {
    loop {
        let id = super::activity::new_session_id()?;
        if !taken(&id) {
            return Ok(id);
        }
    }
}

/// Take out the entry `same` picks and give its id back, or a fresh id when there is none
/// (an entry made again keeps the id the person or agent already holds).
pub(crate) fn take_keeping_id<T>(
    list: &mut Vec<T>,
    same: impl Fn(&T) -> bool,
    id_of: impl Fn(&T) -> &str,
) -> Result<String, StoreError> {
    match list.iter().position(same) {
        Some(i) => Ok(id_of(&list.remove(i)).to_string()),
        None => fresh_id(|id| list.iter().any(|e| id_of(e) == id)),
    }
}

/// Append `item` to a list kept to its newest `max` entries (the oldest go first).
pub(crate) fn push_bounded<T>(list: &mut Vec<T>, item: T, max: usize) {
    list.push(item);
    if list.len() > max {
        let extra = list.len() - max;
        list.drain(..extra);
    }
}

/// Parse a list file's text (errors become [`StoreError::Corrupt`] reasons).
pub(crate) fn parse<T: ListItem>(text: &str) -> Result<Vec<T>, toml::de::Error> {
    let Tables(mut items) = atomic::parse_toml::<Tables<T>>(text)?;
    T::after_read(&mut items);
    Ok(items)
}

/// The file's text: the header, a blank line, the entries.
pub(crate) fn render<T: ListItem>(items: &[T]) -> Result<String, StoreError> {
    let body = atomic::render_toml(&TablesRef(items))?;
    Ok(format!("{}\n{body}", T::header()))
}

/// Read, write and read again (the fuzz targets' check; see [`super::fuzzing`]).
#[cfg(any(test, feature = "fuzzing"))]
pub(crate) fn round_trip<T: ListItem>(text: &str) -> RoundTrip {
    super::fuzzing::check(text, parse::<T>, |items: &Vec<T>| render(items))
}

/// The entries as they are written.
struct TablesRef<'a, T>(&'a [T]);

impl<T: ListItem> serde::Serialize for TablesRef<'_, T> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("ListFile", 1)?;
        s.serialize_field(T::TABLE, self.0)?;
        s.end()
    }
}

/// The entries as they are read.
struct Tables<T>(Vec<T>);

impl<'de, T: ListItem> serde::Deserialize<'de> for Tables<T> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_struct("ListFile", T::FIELDS, TablesVisitor(PhantomData))
    }
}

struct TablesVisitor<T>(PhantomData<fn() -> T>);

impl<'de, T: ListItem> Visitor<'de> for TablesVisitor<T> {
    type Value = Tables<T>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a table of [[{}]] entries", T::TABLE)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Tables<T>, A::Error> {
        let mut items = None;
        while map.next_key_seed(TableKey::<T>(PhantomData))?.is_some() {
            if items.is_some() {
                return Err(de::Error::duplicate_field(T::TABLE));
            }
            items = Some(map.next_value()?);
        }
        Ok(Tables(items.unwrap_or_default()))
    }
}

/// A top-level key: the table's name, or refused as an unknown field (while the key is read,
/// so the error points at it).
struct TableKey<T>(PhantomData<fn() -> T>);

impl<'de, T: ListItem> DeserializeSeed<'de> for TableKey<T> {
    type Value = ();

    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_identifier(self)
    }
}

impl<T: ListItem> Visitor<'_> for TableKey<T> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("field identifier")
    }

    fn visit_str<E: de::Error>(self, key: &str) -> Result<(), E> {
        if key == T::TABLE {
            Ok(())
        } else {
            Err(E::unknown_field(key, T::FIELDS))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::approvals::Approval;
    use crate::history::Visit;
    use crate::subscriptions::Subscription;
    use crate::tofu::Pin;

    // Files as the stores wrote them before they shared this type; tests/it/store_formats.rs reads the same
    // files through the public API.
    const HISTORY: &str = include_str!("../tests/fixtures/history.toml");
    const APPROVALS: &str = include_str!("../tests/fixtures/approvals.toml");
    const SUBSCRIPTIONS: &str = include_str!("../tests/fixtures/subscriptions.toml");
    const KNOWN_HOSTS: &str = include_str!("../tests/fixtures/known_hosts.toml");

    /// The file reads, and writing what was read gives the same bytes.
    fn same_bytes<T: ListItem>(text: &str) -> usize {
        let items = parse::<T>(text).unwrap();
        assert_eq!(render(&items).unwrap(), text, "[[{}]]", T::TABLE);
        items.len()
    }

    #[test]
    fn existing_files_are_rewritten_byte_for_byte() {
        assert_eq!(same_bytes::<Visit>(HISTORY), 2);
        assert_eq!(same_bytes::<Approval>(APPROVALS), 3);
        assert_eq!(same_bytes::<Subscription>(SUBSCRIPTIONS), 2);
        assert_eq!(same_bytes::<Pin>(KNOWN_HOSTS), 2);
    }

    #[test]
    fn an_empty_list_is_written_as_an_empty_array() {
        assert_eq!(
            render::<Pin>(&[]).unwrap(),
            "# smolweb known hosts: trust-on-first-use pins of server certificates.\n\
             # fingerprint = sha256 of the certificate DER; times are RFC 3339.\n\npin = []\n"
        );
        assert_eq!(
            render::<Subscription>(&[]).unwrap(),
            "# smolweb subscriptions and read state (shared by the browser, the CLI and the MCP \
             server).\n\nsubscription = []\n"
        );
        assert!(parse::<Visit>("visit = []\n").unwrap().is_empty());
        assert!(parse::<Visit>("# nothing yet\n").unwrap().is_empty());
    }

    #[test]
    fn other_top_level_keys_and_other_tables_are_refused() {
        for text in [
            "[[pin]]\nhost = \"h\"\n",
            "extra = 1\n",
            "visit = []\nother = []\n",
            "[[visits]]\nurl = \"gemini://h/\"\nat = \"2024-01-01T00:00:00Z\"\n",
            "visit = 3\n",
        ] {
            assert!(parse::<Visit>(text).is_err(), "{text}");
        }
    }

    #[test]
    fn corrupt_reasons_say_where_without_quoting_the_file() {
        // The reasons the stores' own derived wrapper structs gave, word for word.
        for (text, reason) in [
            (
                "\n\nsecret_key = 1\n",
                "line 3, column 1: unknown field …, expected `visit`",
            ),
            (
                "visit = 3\n",
                "line 1, column 9: invalid type: integer …, expected a sequence",
            ),
            (
                "[[visit]]\nurl = 3\n",
                "line 2, column 7: invalid type: integer …, expected a string",
            ),
            (
                "visit = []\nvisit = []\n",
                "line 2, column 1: duplicate key",
            ),
            (
                "[[visits]]\nurl = \"gemini://h/\"\n",
                "line 1, column 3: unknown field …, expected `visit`",
            ),
        ] {
            let e = parse::<Visit>(text).unwrap_err();
            assert_eq!(
                crate::parse_failure::ParseFailure::describe(&e, text),
                reason
            );
        }
    }
}
