//! The index's schema and its analyzers: one field per kind of thing a query looks at, and a
//! body field per stemming language.
//!
//! A document's text is indexed once: in `body_<code>` when the page says its language and
//! tantivy has a stemmer for it (`en`, `fr`, `de`, ... see [`LANGUAGES`]), else in `body`,
//! unstemmed. A query word is looked up in every body field through that field's own
//! analyzer, so "mosses" finds an English page that says "moss", and a page of no stated
//! language only by its words as written. The bodies keep no word positions (a third of the
//! index): a phrase in them is checked against the stored text (`phrase.rs`); titles and
//! URLs keep theirs. The text itself is kept once, compressed, in the stored-only `text`
//! field, for snippets and phrases.
//! [`SCHEMA_VERSION`] changes with any change here; an index of another version is rebuilt.

use crate::tokenize::SmolTokenizer;
use tantivy::schema::{
    FAST, Field, INDEXED, IndexRecordOption, STORED, STRING, Schema, TextFieldIndexing, TextOptions,
};
use tantivy::store::{Compressor, ZstdCompressor};
use tantivy::tokenizer::{Language, LowerCaser, Stemmer, TextAnalyzer};
use tantivy::{Index, IndexSettings};

/// Bump when the schema, an analyzer or the settings change: an index of another version is
/// rebuilt.
pub(crate) const SCHEMA_VERSION: u32 = 3;

/// The stored text's blocks: zstd compresses prose to about a third (lz4: a half), and a
/// block holds several pages so their common words compress together. A hit reads one
/// block, so a bigger one costs each search more for little: on the bench's pages zstd 9
/// keeps 37% of the text in 16 KiB blocks, 36% in 32 KiB and 35% in 64 KiB.
pub(crate) const STORE_BLOCK_BYTES: usize = 32 * 1024;
/// zstd's level for the stored text (3 is its default; higher costs the build time, not
/// the reading).
pub(crate) const STORE_LEVEL: i32 = 9;

/// The index's settings: how the stored text is kept.
pub(crate) fn settings() -> IndexSettings {
    IndexSettings {
        docstore_compression: Compressor::Zstd(ZstdCompressor {
            compression_level: Some(STORE_LEVEL),
        }),
        docstore_blocksize: STORE_BLOCK_BYTES,
        ..IndexSettings::default()
    }
}

/// Languages with a stemmer: the page's language tag's primary subtag, and tantivy's name.
pub(crate) const LANGUAGES: &[(&str, Language)] = &[
    ("ar", Language::Arabic),
    ("da", Language::Danish),
    ("de", Language::German),
    ("el", Language::Greek),
    ("en", Language::English),
    ("es", Language::Spanish),
    ("fi", Language::Finnish),
    ("fr", Language::French),
    ("hu", Language::Hungarian),
    ("it", Language::Italian),
    ("nl", Language::Dutch),
    ("no", Language::Norwegian),
    ("pt", Language::Portuguese),
    ("ro", Language::Romanian),
    ("ru", Language::Russian),
    ("sv", Language::Swedish),
    ("ta", Language::Tamil),
    ("tr", Language::Turkish),
];

/// The stemming language of a language tag (`en-GB`, `fr`, `nb`), if tantivy has one.
pub(crate) fn language_of(tag: &str) -> Option<usize> {
    let primary = tag
        .split(['-', '_'])
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    let primary = match primary.as_str() {
        "nb" | "nn" => "no",
        other => other,
    };
    LANGUAGES.iter().position(|(code, _)| *code == primary)
}

/// The analyzer without stemming (titles, URLs, pages of no known language).
pub(crate) const PLAIN: &str = "smol";

fn plain() -> TextAnalyzer {
    TextAnalyzer::builder(SmolTokenizer::default())
        .filter(LowerCaser)
        .build()
}

fn stemmed(language: Language) -> TextAnalyzer {
    TextAnalyzer::builder(SmolTokenizer::default())
        .filter(LowerCaser)
        .filter(Stemmer::new(language))
        .build()
}

/// The fields, by role.
#[derive(Clone, Debug)]
pub(crate) struct Fields {
    /// `<source>\u{1f}<url>`: what a replacement or a forgetting deletes by.
    pub key: Field,
    /// The source's name (`history`, `agent`, ...): the privacy filter.
    pub source: Field,
    /// A hash of the URL (fast): results of several sources for one page are merged by it.
    pub url_key: Field,
    /// The URL (stored).
    pub url: Field,
    /// The URL's words (indexed, plain).
    pub url_words: Field,
    /// The host and its parent domains (`site:`).
    pub host: Field,
    /// The title (indexed plain, stored).
    pub title: Field,
    /// The feed's title, for a feed entry (stored).
    pub feed: Field,
    /// The language tag the page gave (stored).
    pub lang: Field,
    /// When (unix seconds; indexed and fast for `since`, stored for display).
    pub time: Field,
    /// The text, stored only (snippets).
    pub text: Field,
    /// 1 when only the first part of the text was indexed (stored).
    pub cut: Field,
    /// `body`, then `body_<code>` in [`LANGUAGES`] order.
    pub bodies: Vec<Field>,
}

fn indexed_text(analyzer: &str, positions: bool) -> TextOptions {
    let record = match positions {
        true => IndexRecordOption::WithFreqsAndPositions,
        false => IndexRecordOption::WithFreqs,
    };
    TextOptions::default().set_indexing_options(
        TextFieldIndexing::default()
            .set_tokenizer(analyzer)
            .set_index_option(record),
    )
}

/// The schema and its fields.
pub(crate) fn build() -> (Schema, Fields) {
    let mut b = Schema::builder();
    let key = b.add_text_field("key", STRING);
    let source = b.add_text_field("source", STRING | STORED);
    let url_key = b.add_u64_field("url_key", FAST);
    let url = b.add_text_field("url", STORED);
    let url_words = b.add_text_field("url_words", indexed_text(PLAIN, true));
    let host = b.add_text_field("host", STRING);
    let title = b.add_text_field("title", indexed_text(PLAIN, true) | STORED);
    let feed = b.add_text_field("feed", STORED);
    let lang = b.add_text_field("lang", STORED);
    let time = b.add_i64_field("time", INDEXED | FAST | STORED);
    let text = b.add_text_field("text", STORED);
    let cut = b.add_u64_field("cut", STORED);
    let mut bodies = vec![b.add_text_field("body", indexed_text(PLAIN, false))];
    for (code, _) in LANGUAGES {
        let name = format!("body_{code}");
        let analyzer = format!("{PLAIN}_{code}");
        bodies.push(b.add_text_field(&name, indexed_text(&analyzer, false)));
    }
    let fields = Fields {
        key,
        source,
        url_key,
        url,
        url_words,
        host,
        title,
        feed,
        lang,
        time,
        text,
        cut,
        bodies,
    };
    (b.build(), fields)
}

/// Register the analyzers on an opened or created index (tantivy keeps them per `Index`).
pub(crate) fn register(index: &Index) {
    let manager = index.tokenizers();
    manager.register(PLAIN, plain());
    for (code, language) in LANGUAGES {
        manager.register(&format!("{PLAIN}_{code}"), stemmed(*language));
    }
}

/// The fields of an opened index, by name (None: not our schema).
pub(crate) fn fields_of(schema: &Schema) -> Option<Fields> {
    let f = |name: &str| schema.get_field(name).ok();
    let mut bodies = vec![f("body")?];
    for (code, _) in LANGUAGES {
        bodies.push(f(&format!("body_{code}"))?);
    }
    Some(Fields {
        key: f("key")?,
        source: f("source")?,
        url_key: f("url_key")?,
        url: f("url")?,
        url_words: f("url_words")?,
        host: f("host")?,
        title: f("title")?,
        feed: f("feed")?,
        lang: f("lang")?,
        time: f("time")?,
        text: f("text")?,
        cut: f("cut")?,
        bodies,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn language_tags_map_to_stemmers() {
        let cases = [
            ("en", Some("en")),
            ("en-GB", Some("en")),
            ("FR", Some("fr")),
            ("nb", Some("no")),
            ("pt_BR", Some("pt")),
            ("ja", None),
            ("", None),
            ("klingon", None),
        ];
        for (tag, want) in cases {
            assert_eq!(language_of(tag).map(|i| LANGUAGES[i].0), want, "{tag}");
        }
    }

    #[test]
    fn the_schema_reads_back_by_name() {
        let (schema, fields) = build();
        let back = fields_of(&schema).unwrap();
        assert_eq!(back.bodies, fields.bodies);
        assert_eq!(back.bodies.len(), LANGUAGES.len() + 1);
    }
}
