//! TOML configuration. Every key is optional; unknown keys are rejected with their name; a
//! missing file means defaults; a broken file is an error naming the file, the line, the
//! column and the key, but never quoting a line or a value of it.
//! The config file may be a symbolic link (dotfile managers make one); it is followed, unlike
//! the data files, because it is the person's own choice of file.
//! `assets/config.example.toml` documents every knob (a test keeps it in sync).

use serde::{Deserialize, Serialize};
use smolweb_store::parse_failure::{Quote, describe_toml};
use std::path::{Path, PathBuf};

mod data;
mod mcp_http;
pub(crate) mod proxy;
mod web;
pub use data::Data;
pub use mcp_http::McpHttp;
pub(crate) use web::Web;

#[derive(Debug, thiserror::Error)]
/// Why the configuration could not be loaded.
pub enum ConfigError {
    // The reason is the source (printed after it by an error chain), not repeated here.
    #[error("cannot read config {path}")]
    /// The file could not be read (`source` says why).
    Io {
        /// The file.
        path: PathBuf,
        #[source]
        /// What the system said.
        source: std::io::Error,
    },
    /// `reason` names the line, the column and the key, never a line or a value of the file
    /// (it may be a link to a file that is not a config at all).
    #[error("invalid config {path}: {reason}")]
    Invalid {
        /// The file.
        path: PathBuf,
        /// What is wrong, and where.
        reason: String,
    },
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
/// smolweb's configuration (`config.toml`), one section per field; every key has a default.
pub struct Config {
    /// `[network]`.
    pub network: Network,
    /// `[politeness]`.
    pub politeness: Politeness,
    /// `[cache]`.
    pub cache: Cache,
    /// `[mcp]`.
    pub mcp: Mcp,
    /// `[tofu]`.
    pub tofu: Tofu,
    /// `[identity]`.
    pub identity: IdentityDefaults,
    /// `[tui]`.
    pub tui: Tui,
    /// `[feeds]`.
    pub feeds: Feeds,
    /// `[offline]`.
    pub offline: Offline,
    /// `[sync]`.
    pub sync: Syncing,
    /// `[web]`.
    pub web: Web,
    /// `[agents]`.
    pub agents: Agents,
    /// `[search]`.
    pub search: Search,
    /// `[data]`.
    pub data: Data,
}

#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
/// `[network]`: limits and the address guard.
pub struct Network {
    /// One budget for DNS + connect + TLS + transfer.
    pub timeout_seconds: u64,
    /// Body cap for the agent face.
    pub max_response_bytes: u64,
    /// Body cap for the terminal browser.
    pub tui_max_response_bytes: u64,
    /// Agent face: allow loopback, RFC 1918 and unique-local destinations (nothing else; see
    /// `net::guard`). The TUI always may.
    pub allow_private_addresses: bool,
    /// Hosts allowed whatever non-public address they resolve to, except the ones the guard
    /// always refuses (metadata endpoints, "this host").
    pub allowed_hosts: Vec<String>,
    /// Present client certificates over TLS 1.2 too (sent in clear there).
    pub allow_client_cert_over_tls12: bool,
    /// Most network requests in flight at once in this process (the rest wait their turn).
    pub max_in_flight: usize,
    /// Most network requests in flight at once to one host (default 5, equal to
    /// `mcp.batch_concurrency`'s, so a batch to one host is not split into rounds).
    pub max_in_flight_per_host: usize,
    /// A SOCKS5 proxy (an IP address and port, e.g. Tor's `127.0.0.1:9050`) that every
    /// request goes through, names resolved by the proxy; empty: none. Guppy (UDP) is refused
    /// under it.
    #[serde(deserialize_with = "proxy::socks5")]
    pub socks5: String,
    /// The agent face goes through `socks5` too (false: it connects directly, every address
    /// resolved here and checked by the guard).
    pub socks5_for_agent: bool,
}

impl Default for Network {
    fn default() -> Self {
        Network {
            timeout_seconds: 30,
            max_response_bytes: 1024 * 1024,
            tui_max_response_bytes: 64 * 1024 * 1024,
            allow_private_addresses: false,
            allowed_hosts: Vec::new(),
            allow_client_cert_over_tls12: false,
            max_in_flight: 32,
            max_in_flight_per_host: 5,
            socks5: String::new(),
            socks5_for_agent: true,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
/// `[politeness]`: how requests to one host are spaced.
pub struct Politeness {
    /// Minimum interval between two requests to one host; 0 disables pacing.
    pub per_host_interval_ms: u64,
    /// Honour robots.txt on the agent face.
    pub respect_robots: bool,
    /// Honour robots.txt in the terminal browser too.
    pub tui_respect_robots: bool,
}

impl Default for Politeness {
    fn default() -> Self {
        Politeness {
            per_host_interval_ms: 1000,
            respect_robots: true,
            tui_respect_robots: false,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
/// `[cache]`: the in-memory answer cache.
pub struct Cache {
    /// Time to live of a cached body; 0 disables the cache.
    pub ttl_seconds: u64,
    /// Most answers held.
    pub max_entries: usize,
    /// Most bytes held (raw and decoded bodies and parsed lines of every entry).
    pub max_bytes: usize,
}

impl Default for Cache {
    fn default() -> Self {
        Cache {
            ttl_seconds: 300,
            max_entries: 1000,
            max_bytes: 256 * 1024 * 1024,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
/// `[mcp]`: sizes of what the agent is given.
pub struct Mcp {
    /// Most characters of a rendered text block.
    pub max_rendered_chars: usize,
    /// Most items of a Gopher menu window.
    pub max_menu_items: usize,
    /// Fetches a batch tool runs at once.
    pub batch_concurrency: usize,
    /// Largest JSON-RPC message (one stdin line) the server reads, in bytes.
    pub max_message_bytes: usize,
    /// How long a question to the person (elicitation) waits for an answer, in seconds; then
    /// the change waits in the approval queue instead (a prompt's answer: the agent gets it).
    pub consent_timeout_seconds: u64,
    /// `[mcp.http]`: the server over Streamable HTTP.
    pub http: McpHttp,
}

impl Mcp {
    /// [`Mcp::consent_timeout_seconds`] as a duration (at least one second).
    pub fn consent_timeout(&self) -> std::time::Duration {
        std::time::Duration::from_secs(self.consent_timeout_seconds.max(1))
    }
}

impl Default for Mcp {
    fn default() -> Self {
        Mcp {
            max_rendered_chars: 50_000,
            max_menu_items: 1000,
            batch_concurrency: 5,
            max_message_bytes: 4 * 1024 * 1024,
            consent_timeout_seconds: 300,
            http: McpHttp::default(),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
/// `[tofu]`: how server certificates are trusted.
pub struct Tofu {
    /// Accept and re-pin a new certificate when the pinned one has expired.
    pub accept_new_when_expired: bool,
    /// Refuse certificates whose validity starts in the future.
    pub refuse_not_yet_valid: bool,
    /// Refuse expired certificates even when pinned.
    pub refuse_expired: bool,
}

impl Default for Tofu {
    fn default() -> Self {
        Tofu {
            accept_new_when_expired: true,
            refuse_not_yet_valid: true,
            refuse_expired: false,
        }
    }
}

impl Tofu {
    /// The store's TOFU policy for these settings.
    pub fn policy(&self) -> smolweb_store::tofu::TofuPolicy {
        smolweb_store::tofu::TofuPolicy {
            accept_new_when_expired: self.accept_new_when_expired,
            refuse_not_yet_valid: self.refuse_not_yet_valid,
            refuse_expired: self.refuse_expired,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
/// `[identity]`: defaults for new client identities.
pub struct IdentityDefaults {
    /// Validity of new identities, in days.
    pub days: u32,
    /// "ecdsa-p256" or "ed25519".
    pub algorithm: String,
}

impl Default for IdentityDefaults {
    fn default() -> Self {
        IdentityDefaults {
            days: 365,
            algorithm: "ecdsa-p256".into(),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
/// `[tui]`: the browser.
pub struct Tui {
    /// Text column width (reflow); the page is centred in wider terminals.
    pub text_width: u16,
    /// The start page.
    pub home: String,
    /// Command that opens external links and `E` (page in the browser); empty = $BROWSER's commands, then xdg-open.
    pub external_command: String,
    /// Where downloads are saved; empty = the platform download directory.
    pub downloads_dir: String,
    /// Copy URLs to the clipboard through the terminal (OSC 52).
    pub osc52_copy: bool,
    /// Programs that open downloads: MIME type ("image/png") or major type ("image") ->
    /// command; unlisted types use xdg-open.
    pub handlers: std::collections::BTreeMap<String, String>,
    /// Key bindings: action name -> list of keys ("j", "ctrl-d", "space", "enter", ...).
    pub keys: std::collections::BTreeMap<String, Vec<String>>,
    /// Colours: the base ("auto", "light", "dark") and element name -> colour ("red",
    /// "lightblue", "#ff8800", "245"). `theme = "light"` (a string) chooses the base alone.
    pub theme: ThemeConfig,
    /// Pictures: "auto" (ask the terminal), "kitty", "sixel", "iterm2", "halfblocks" or "off";
    /// the `SMOLWEB_IMAGES` environment variable overrides it.
    pub images: String,
    /// Show image links of gemtext pages as pictures under their line (the toggle key's
    /// starting state).
    pub inline_images: bool,
    /// Open the tabs of the last session (their history and places) at the next start.
    pub restore_session: bool,
    /// Also keep, for the next start, pages fetched under a client identity or with a query
    /// (off: such a page is left out of the saved session; its tab keeps the rest).
    pub restore_private_pages: bool,
}

/// `[tui] theme`: the base colours (`"auto"` follows the terminal's background, `"light"`,
/// `"dark"`) and the elements changed from them. Written as a string (`theme = "light"`, the
/// base alone) or as the `[tui.theme]` table (`base = "light"` and `element = "colour"` keys).
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(from = "ThemeRepr", into = "ThemeRepr")]
pub struct ThemeConfig {
    /// "auto", "light" or "dark" (the browser refuses any other name at start).
    pub base: String,
    /// Element name -> colour, over the base.
    pub colours: std::collections::BTreeMap<String, String>,
}

impl Default for ThemeConfig {
    fn default() -> Self {
        ThemeConfig {
            base: "auto".into(),
            colours: Default::default(),
        }
    }
}

/// How `[tui] theme` is written: a base's name, or a table.
#[derive(Deserialize, Serialize)]
#[serde(untagged)]
enum ThemeRepr {
    Base(String),
    Table(std::collections::BTreeMap<String, String>),
}

impl From<ThemeRepr> for ThemeConfig {
    fn from(repr: ThemeRepr) -> Self {
        match repr {
            ThemeRepr::Base(base) => ThemeConfig {
                base,
                ..ThemeConfig::default()
            },
            ThemeRepr::Table(mut colours) => ThemeConfig {
                base: colours.remove("base").unwrap_or_else(|| "auto".into()),
                colours,
            },
        }
    }
}

impl From<ThemeConfig> for ThemeRepr {
    fn from(c: ThemeConfig) -> Self {
        let mut table = c.colours;
        table.insert("base".into(), c.base);
        ThemeRepr::Table(table)
    }
}

impl Default for Tui {
    fn default() -> Self {
        Tui {
            text_width: 80,
            home: "about:home".into(),
            external_command: String::new(),
            downloads_dir: String::new(),
            osc52_copy: true,
            handlers: Default::default(),
            keys: Default::default(),
            theme: Default::default(),
            images: "auto".into(),
            inline_images: false,
            restore_session: true,
            restore_private_pages: false,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
/// `[feeds]`: subscriptions and refresh.
pub struct Feeds {
    /// Opening `about:feeds` refreshes in the background when the last refresh is older.
    pub(crate) refresh_after_minutes: u64,
    /// Feeds fetched at once during a refresh (different hosts; one host is paced).
    pub(crate) refresh_concurrency: usize,
    /// Offer the `subscriptions_list` tool to agents.
    pub agent_can_list_subscriptions: bool,
}

impl Default for Feeds {
    fn default() -> Self {
        Feeds {
            refresh_after_minutes: 60,
            refresh_concurrency: 4,
            agent_can_list_subscriptions: true,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
/// `[offline]`: pages kept for offline reading.
pub struct Offline {
    /// Size bound of the offline page cache in bytes (saved pages count, and are never
    /// evicted); 0 keeps no copies of visited pages (saved pages are still kept).
    pub max_bytes: u64,
    /// Also keep pages that were fetched while presenting a client identity.
    pub keep_identity_pages: bool,
    /// Work offline: no request leaves (every page comes from the offline cache). The
    /// browser starts in this mode (a key toggles it); `smolweb --mcp` stays in it.
    pub work_offline: bool,
}

impl Default for Offline {
    fn default() -> Self {
        Offline {
            max_bytes: 200 * 1024 * 1024,
            keep_identity_pages: false,
            work_offline: false,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
/// `[sync]`: `smolweb sync`, which fetches what the person follows into the offline cache.
pub struct Syncing {
    /// Longest a sync runs, in seconds (`--max-time` overrides); it then stops cleanly and
    /// says what was left. 0: no bound.
    pub max_seconds: u64,
    /// Most body bytes one sync downloads (`--max-bytes` overrides); checked before each
    /// fetch. 0: no bound.
    pub max_bytes: u64,
    /// Also keep the same-capsule pages each entry links to (one level), for subscriptions
    /// that do not say (`smolweb feeds sync-links URL on|off` says per subscription).
    pub follow_links: bool,
}

impl Default for Syncing {
    fn default() -> Self {
        Syncing {
            max_seconds: 600,
            max_bytes: 50 * 1024 * 1024,
            follow_links: false,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
/// `[agents]`: what the person sees of agents, and what agents may show the person.
pub struct Agents {
    /// Record each MCP session's calls in the activity log.
    pub activity_log: bool,
    /// Most entries the activity log keeps.
    pub activity_max_entries: usize,
    /// Most bytes the activity log keeps.
    pub activity_max_bytes: u64,
    /// Offer the `show_to_user` tool.
    pub show_to_user: bool,
    /// Most `show_to_user` calls per session and minute.
    pub show_to_user_per_minute: u32,
    /// Offer the tour tools (`tour_list`, `tour_add`): agents read the tour and add links to
    /// it with a reason.
    pub tour: bool,
    /// `search_local` also searches the person's history, offline copies and bookmarks (by
    /// default agents search only what agents fetched, pages shared with them and the
    /// entries of followed feeds).
    pub search_history: bool,
}

impl Default for Agents {
    fn default() -> Self {
        Agents {
            activity_log: true,
            activity_max_entries: 10_000,
            activity_max_bytes: 4 * 1024 * 1024,
            show_to_user: true,
            show_to_user_per_minute: 6,
            tour: true,
            search_history: false,
        }
    }
}

impl Agents {
    /// The activity log's bounds.
    pub fn limits(&self) -> smolweb_store::activity::Limits {
        smolweb_store::activity::Limits {
            max_entries: self.activity_max_entries.max(2),
            max_bytes: self.activity_max_bytes.max(4096),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
/// `[search]`: the local index of what was read, and the engine words in the address bar go to.
pub struct Search {
    /// Keep the local full-text index (`about:search`, `smolweb search`, `search_local`).
    pub index: bool,
    /// Also index pages fetched while presenting a client identity.
    pub index_identity_pages: bool,
    /// The Geminispace search engine for words typed in the address bar and `smolweb get
    /// "?words"`: kennedy, tlgs, geminispace, or a gemini:// URL that takes input.
    pub engine: String,
}

impl Default for Search {
    fn default() -> Self {
        Search {
            index: true,
            index_identity_pages: false,
            engine: "kennedy".into(),
        }
    }
}

impl Config {
    /// Parse TOML text; unknown keys are an error naming the key.
    pub fn from_toml(text: &str) -> Result<Config, toml::de::Error> {
        toml::from_str(text)
    }

    /// Load from a file; a missing file gives defaults.
    pub fn load(path: &Path) -> Result<Config, ConfigError> {
        match std::fs::read_to_string(path) {
            Ok(text) => Config::from_toml(&text).map_err(|e| ConfigError::Invalid {
                path: path.to_path_buf(),
                reason: describe_toml(&e, &text, Quote::Keys),
            }),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Config::default()),
            Err(source) => Err(ConfigError::Io {
                path: path.to_path_buf(),
                source,
            }),
        }
    }
}
