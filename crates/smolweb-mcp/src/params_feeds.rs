//! Parameters of the feed tools (kept apart from `params` so the fetch tools' file stays
//! theirs). Numbers are signed so a negative one reaches us and becomes `INVALID_REQUEST`.

use schemars::JsonSchema;
use serde::Deserialize;

#[derive(Clone, Debug, Deserialize, JsonSchema)]
pub(crate) struct FeedFetchParams {
    /// The feed's URL: a gemlog page, a Gopher phlog menu, or an Atom, RSS or JSON Feed document
    /// (gemini:// or gopher://).
    pub url: String,
    /// Entry offset; use the previous result's `next_offset`.
    #[serde(default)]
    #[schemars(range(min = 0))]
    pub offset: i64,
    /// Download again instead of using the held copy.
    #[serde(default)]
    pub refresh: bool,
}

fn default_max_entries() -> i64 {
    10
}

#[derive(Clone, Debug, Deserialize, JsonSchema)]
pub(crate) struct SubscriptionsParams {
    /// Only subscriptions whose URL or title contains this text (case-insensitive).
    #[serde(default)]
    pub filter: Option<String>,
    /// Only entries the user has not read.
    #[serde(default)]
    pub(crate) unread_only: bool,
    /// Newest entries listed per subscription (1 to 50, default 10).
    #[serde(default = "default_max_entries")]
    #[schemars(range(min = 1, max = 50))]
    pub max_entries: i64,
}
