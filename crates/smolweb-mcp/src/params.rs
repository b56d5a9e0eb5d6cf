//! Tool parameters (the contract's names). Their JSON Schemas are what `tools/list` publishes
//! and what `mcp::call` checks every call against (a mismatch, such as a negative offset, is
//! answered per protocol generation, naming the field). Numbers are still read as signed, so a
//! call that skips the check (in-process) gets an `INVALID_REQUEST` result, never a panic.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Deserialize, JsonSchema)]
pub(crate) struct GeminiFetchParams {
    /// The gemini:// URL to fetch.
    pub url: String,
    /// Answer to an input prompt (status 10/11): sent percent-encoded as the query, replacing
    /// any query in `url`.
    #[serde(default)]
    pub input: Option<String>,
    /// Character offset into the decoded body; use the previous result's `next_offset`.
    #[serde(default)]
    #[schemars(range(min = 0))]
    pub offset: i64,
    /// Download again instead of using the held copy.
    #[serde(default)]
    pub refresh: bool,
    /// On an input prompt, ask the human directly (elicitation) and send their answer
    /// without it passing through the agent.
    #[serde(default)]
    pub ask_user: bool,
}

#[derive(Clone, Debug, Deserialize, JsonSchema)]
pub(crate) struct GopherFetchParams {
    /// The gopher:// URL to fetch.
    pub url: String,
    /// Search string for a type-7 (search) item; percent-encoded and sent after a TAB.
    #[serde(default)]
    pub search: Option<String>,
    /// Character offset (text) or item offset (menus); use the previous `next_offset`.
    #[serde(default)]
    #[schemars(range(min = 0))]
    pub offset: i64,
    /// Download again instead of using the held copy.
    #[serde(default)]
    pub refresh: bool,
}

#[derive(Clone, Debug, Deserialize, JsonSchema)]
pub(crate) struct BatchParams {
    /// 1 to 50 URLs; results come back in the same order.
    #[schemars(length(min = 1, max = 50))]
    pub urls: Vec<String>,
    /// Download again instead of using held copies.
    #[serde(default)]
    pub refresh: bool,
}

#[derive(Clone, Debug, Deserialize, JsonSchema)]
pub(crate) struct HostFilter {
    /// Only entries for this host.
    #[serde(default)]
    pub host: Option<String>,
}

/// What `gemini_client_cert_update` does (asked in the call, repeated in its result):
/// `create` a new identity for the scope, or `remove` one.
// No variant docs, so the schema stays a plain string `enum`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum CertAction {
    Create,
    Remove,
}

impl CertAction {
    /// The serialized name (`create`, `remove`).
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            CertAction::Create => "create",
            CertAction::Remove => "remove",
        }
    }
}

impl std::fmt::Display for CertAction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[derive(Clone, Debug, Deserialize, JsonSchema)]
pub(crate) struct CertUpdateParams {
    /// `create` a new identity for the scope, or `remove` one.
    pub action: CertAction,
    /// The scope: gemini://host[:port]/path (the identity covers that path and below).
    pub url: String,
    /// `sha256:<hex>` of the identity to remove; required for `remove`, refused for `create`.
    #[serde(default)]
    pub fingerprint: Option<String>,
}

/// What `gemini_trust_update` does (asked in the call, repeated in its result): `pin` a
/// certificate fingerprint for the host, or `remove` the pin.
// No variant docs, so the schema stays a plain string `enum`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum TrustAction {
    Pin,
    Remove,
}

impl TrustAction {
    /// The serialized name (`pin`, `remove`).
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            TrustAction::Pin => "pin",
            TrustAction::Remove => "remove",
        }
    }
}

impl std::fmt::Display for TrustAction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[derive(Clone, Debug, Deserialize, JsonSchema)]
pub(crate) struct TrustUpdateParams {
    /// `pin` a certificate fingerprint for the host, or `remove` the pin.
    pub action: TrustAction,
    pub host: String,
    /// Default 1965.
    #[serde(default)]
    #[schemars(range(min = 1, max = 65535))]
    pub port: Option<i64>,
    /// `sha256:<hex>`; required for `pin`; for `remove`, checked against the pin when given.
    #[serde(default)]
    pub fingerprint: Option<String>,
}

/// Elicitation form: a yes/no question.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
pub(crate) struct Confirm {
    /// Tick to allow the change.
    pub approve: bool,
}
rmcp::elicit_safe!(Confirm);

/// Elicitation form: the answer to a capsule's prompt.
#[derive(Clone, Deserialize, JsonSchema)]
pub(crate) struct Answer {
    /// Your answer (sent to the capsule only).
    pub answer: String,
}
rmcp::elicit_safe!(Answer);

impl std::fmt::Debug for Answer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Answer { .. }")
    }
}
