//! The Geminispace search engines the address bar (and `smolweb get "?words"`) sends words
//! to, as a Gemini input query: `[search] engine` names one of [`ENGINES`] or gives a
//! gemini:// URL. Words are what the person typed that is not an address.

use smolweb_core::url::{Scheme, Url};

/// A public search engine of Geminispace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Engine {
    /// The name `[search] engine` takes.
    pub name: &'static str,
    /// The URL that takes the words as its input.
    pub url: &'static str,
    /// What it is, in a line.
    pub about: &'static str,
}

/// The engines to choose from (the first is the default).
pub const ENGINES: &[Engine] = &[
    Engine {
        name: "kennedy",
        url: "gemini://kennedy.gemi.dev/search",
        about: "Kennedy: full-text search of Geminispace, with filters for time and site",
    },
    Engine {
        name: "tlgs",
        url: "gemini://tlgs.one/search",
        about: "TLGS (Totally Legit Gemini Search): ranks capsules by their links",
    },
    Engine {
        name: "geminispace",
        url: "gemini://geminispace.info/search",
        about: "geminispace.info: the oldest index of Geminispace (formerly GUS)",
    },
];

/// One line of the browser's list of engines to choose from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The name `[search] engine` takes (`custom` for a configured URL).
    pub name: String,
    /// The URL that takes the words as its input.
    pub url: String,
    /// What it is, in a line.
    pub about: String,
}

/// The engines the browser offers to choose from: [`ENGINES`], then the URL `setting` gives
/// when it is none of theirs (a `[search] engine` that names no engine adds nothing).
pub fn choices(setting: &str) -> Vec<Choice> {
    let mut out: Vec<Choice> = ENGINES
        .iter()
        .map(|e| Choice {
            name: e.name.to_string(),
            url: e.url.to_string(),
            about: e.about.to_string(),
        })
        .collect();
    if let Ok(url) = engine_url(setting)
        && !out.iter().any(|c| c.url == url)
    {
        out.push(Choice {
            name: "custom".to_string(),
            about: "the gemini:// URL set by [search] engine in the config".to_string(),
            url,
        });
    }
    out
}

/// Is `host` one of [`ENGINES`]' (an agent refused by its robots.txt is told it is a search
/// engine that forbids bots)?
pub fn is_engine_host(host: &str) -> bool {
    ENGINES.iter().any(|e| {
        Url::parse(e.url)
            .ok()
            .is_some_and(|u| u.host().eq_ignore_ascii_case(host))
    })
}

/// Why `[search] engine` names no engine.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EngineError {
    /// Neither a known name nor a gemini:// URL.
    #[error(
        "[search] engine = \"{0}\" is neither one of {names} nor a gemini:// URL",
        names = ENGINES.iter().map(|e| e.name).collect::<Vec<_>>().join(", ")
    )]
    Unknown(String),
}

/// The URL of the engine `setting` names (a name of [`ENGINES`], or a gemini:// URL without
/// a query).
pub fn engine_url(setting: &str) -> Result<String, EngineError> {
    let s = setting.trim();
    if let Some(e) = ENGINES.iter().find(|e| e.name.eq_ignore_ascii_case(s)) {
        return Ok(e.url.to_string());
    }
    match Url::parse(s) {
        Ok(u) if u.scheme() == Scheme::Gemini && u.query().is_none() => Ok(u.to_string()),
        _ => Err(EngineError::Unknown(s.to_string())),
    }
}

/// The words to search for when `input` (typed in the address bar or given to `smolweb
/// get`) is not an address: `?words`, or words with a space between them, or one word with
/// no dot, colon or slash (not `localhost`). None: it is an address.
pub fn engine_query(input: &str) -> Option<String> {
    let t = input.trim();
    if let Some(words) = t.strip_prefix('?') {
        let words = words.trim();
        return (!words.is_empty()).then(|| words.to_string());
    }
    if t.is_empty() || t.contains("://") || t.starts_with("//") || t.starts_with("about:") {
        return None;
    }
    let spaced = t.split_whitespace().nth(1).is_some();
    let bare_word = !t.contains(['.', ':', '/']) && !t.eq_ignore_ascii_case("localhost");
    (spaced || bare_word).then(|| t.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_go_to_the_engine_addresses_do_not() {
        let cases = [
            ("tardigrades in moss", Some("tardigrades in moss")),
            ("?tardigrades", Some("tardigrades")),
            ("?  ", None),
            ("tardigrades", Some("tardigrades")),
            ("?gemini://x.test/", Some("gemini://x.test/")),
            ("moss.test", None),
            ("moss.test/a b", Some("moss.test/a b")),
            ("gemini://moss.test/", None),
            ("//moss.test", None),
            ("localhost", None),
            ("localhost:1965", None),
            ("about:search", None),
            ("mailto:x", None),
            ("", None),
        ];
        for (input, want) in cases {
            assert_eq!(engine_query(input).as_deref(), want, "{input:?}");
        }
    }

    #[test]
    fn the_choices_are_the_engines_and_a_configured_url() {
        let names = |v: Vec<Choice>| v.into_iter().map(|c| c.name).collect::<Vec<_>>();
        assert_eq!(names(choices("tlgs")), ["kennedy", "tlgs", "geminispace"]);
        assert_eq!(names(choices("bing")), ["kennedy", "tlgs", "geminispace"]);
        let with = choices("gemini://my.test/s");
        assert_eq!(
            names(with.clone()),
            ["kennedy", "tlgs", "geminispace", "custom"]
        );
        assert_eq!(with[3].url, "gemini://my.test/s");
        // The URL of a named engine is that engine, not a second line.
        assert_eq!(choices("gemini://tlgs.one/search").len(), 3);
    }

    #[test]
    fn engines_by_name_or_url() {
        assert_eq!(engine_url("kennedy").unwrap(), ENGINES[0].url);
        assert_eq!(engine_url(" TLGS ").unwrap(), "gemini://tlgs.one/search");
        assert_eq!(
            engine_url("gemini://my.test/s").unwrap(),
            "gemini://my.test/s"
        );
        assert!(engine_url("https://www.google.com/").is_err());
        assert!(is_engine_host("kennedy.gemi.dev") && is_engine_host("TLGS.one"));
        assert!(!is_engine_host("moss.test"));
        assert!(engine_url("gemini://my.test/s?x").is_err());
        let e = engine_url("bing").unwrap_err().to_string();
        assert!(e.contains("kennedy, tlgs, geminispace"), "{e}");
    }
}
