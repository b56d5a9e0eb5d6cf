//! In-memory TTL + LRU cache of fetched pages, keyed by normalized URL; clock injected.
//!
//! Invariants:
//! - A Gemini URL with a query is never stored (its query may be a secret answer): the caller
//!   never offers one, `put` refuses it anyway, and a debug assertion flags the attempt.
//! - `ttl == 0` disables the cache: nothing is stored, every read misses.
//! - At most `max_entries` entries and `max_bytes` bytes (each entry weighs what it holds: for
//!   a page, its raw and decoded bodies and its parsed lines or menu items); inserting beyond
//!   either evicts the least recently used. An entry heavier than `max_bytes` is not stored.
//! - An entry older than `ttl` (by the injected monotonic [`Clock`]) is gone: a read drops it.
//! - One `std::sync::Mutex` guards the state; it is never held across an `.await` (no method
//!   here is async). Operations are O(log n): a `HashMap` plus a `BTreeMap` of recency ticks.

use smolweb_core::page::Page;
use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};
use time::OffsetDateTime;

/// A monotonic clock, injected so TTLs, robots lifetimes and pacing can be tested.
pub trait Clock: Send + Sync {
    /// The current instant; never goes backwards.
    fn now(&self) -> Instant;
}

/// The real monotonic clock.
#[derive(Clone, Copy, Debug, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> Instant {
        Instant::now()
    }
}

/// A clock that only moves when told to (tests, simulations).
#[derive(Debug)]
pub struct ManualClock {
    base: Instant,
    offset: Mutex<Duration>,
}

impl ManualClock {
    /// A clock standing at the moment it was made.
    pub fn new() -> ManualClock {
        ManualClock {
            base: Instant::now(),
            offset: Mutex::new(Duration::ZERO),
        }
    }
    /// Move the clock forward.
    pub fn advance(&self, by: Duration) {
        let mut offset = self.offset.lock().unwrap_or_else(|e| e.into_inner());
        *offset += by;
    }
}

impl Default for ManualClock {
    fn default() -> Self {
        ManualClock::new()
    }
}

impl Clock for ManualClock {
    fn now(&self) -> Instant {
        let offset = *self.offset.lock().unwrap_or_else(|e| e.into_inner());
        self.base + offset
    }
}

/// What an entry holds, in bytes (an estimate of its heap size).
pub trait Weigh {
    /// The estimate, in bytes.
    fn weight(&self) -> usize;
}

/// A shared value weighs what it holds (the web cache keeps `Arc<WebPage>`).
impl<T: Weigh + ?Sized> Weigh for Arc<T> {
    fn weight(&self) -> usize {
        (**self).weight()
    }
}

/// The parsed lines or items of a page are counted before they are built as what a parse
/// holds: a copy of the text and one line or item record per line. Weighing must not force a
/// parse (`smolweb get` streams a 20 MB page without ever building its document), yet the
/// budget keeps room for the parse a later window does (the entry is weighed once, when it is
/// put: a page parsed afterwards does not grow past its weight).
fn unparsed(text: &str, record: usize) -> usize {
    let lines = text.bytes().filter(|b| *b == b'\n').count() + 1;
    text.len() + lines * record
}

impl Weigh for CacheEntry {
    fn weight(&self) -> usize {
        use smolweb_core::gemtext::Line;
        use smolweb_core::gopher::MenuItem;
        use smolweb_core::page::Content;
        use std::mem::size_of;
        let page = &self.page;
        let text = page.body.text().len();
        let parsed = match &page.content {
            Content::Gemtext(doc) if doc.is_parsed() => doc
                .lines
                .iter()
                .map(|l| {
                    let link = l
                        .link
                        .as_ref()
                        .map_or(0, |k| k.url.len() + k.text.as_ref().map_or(0, String::len));
                    size_of::<Line>()
                        + l.content.len()
                        + l.text.as_ref().map_or(0, String::len)
                        + link
                })
                .sum(),
            Content::Menu(items) if items.is_parsed() => items
                .iter()
                .map(|i| {
                    size_of::<MenuItem>()
                        + i.title.len()
                        + i.selector.len()
                        + i.host.len()
                        + i.next_url.len()
                })
                .sum(),
            Content::Gemtext(_) => unparsed(page.body.text(), size_of::<Line>()),
            Content::Menu(_) => unparsed(page.body.text(), size_of::<MenuItem>()),
            Content::Text | Content::Binary => 0,
        };
        page.raw.len() + text + parsed
    }
}

/// What a cache read returns.
#[derive(Clone, Debug)]
pub struct CacheEntry {
    /// The cached page.
    pub page: Arc<Page>,
    /// Wall-clock time of the download that filled the entry.
    pub cached_at: OffsetDateTime,
    /// When the request that filled the entry was sent (a held answer's `timestamp`).
    pub sent_at: OffsetDateTime,
    /// The TLS connection that delivered it (Gemini), so a cached answer still says which
    /// certificate vouched for it.
    pub tls: Option<crate::TlsInfo>,
}

struct Slot<V> {
    entry: V,
    stored: Instant,
    tick: u64,
    weight: usize,
}

struct State<V> {
    slots: HashMap<String, Slot<V>>,
    /// Recency tick -> key; the smallest tick is the least recently used.
    order: BTreeMap<u64, String>,
    next_tick: u64,
    /// Sum of the held entries' weights.
    bytes: usize,
}

impl<V> Default for State<V> {
    fn default() -> Self {
        State {
            slots: HashMap::new(),
            order: BTreeMap::new(),
            next_tick: 0,
            bytes: 0,
        }
    }
}

impl<V> State<V> {
    fn bump(&mut self) -> u64 {
        self.next_tick += 1;
        self.next_tick
    }
    fn drop_key(&mut self, key: &str) -> Option<Slot<V>> {
        let slot = self.slots.remove(key)?;
        self.order.remove(&slot.tick);
        self.bytes -= slot.weight;
        Some(slot)
    }
}

/// The page cache (generic over the value so it can be tested without pages).
pub struct Cache<V = CacheEntry> {
    ttl: Duration,
    max_entries: usize,
    max_bytes: usize,
    clock: Arc<dyn Clock>,
    state: Mutex<State<V>>,
}

/// True for keys that must never be stored: Gemini URLs carrying a query.
pub(crate) fn is_secret_key(key: &str) -> bool {
    key.get(..9)
        .is_some_and(|p| p.eq_ignore_ascii_case("gemini://"))
        && key.contains('?')
}

impl<V: Clone + Weigh> Cache<V> {
    /// An empty cache: entries live `ttl` (0 stores nothing), and the least recently used are
    /// dropped past `max_entries` entries or `max_bytes` of weight (see the module docs).
    pub fn new(
        ttl: Duration,
        max_entries: usize,
        max_bytes: usize,
        clock: Arc<dyn Clock>,
    ) -> Cache<V> {
        Cache {
            ttl,
            max_entries,
            max_bytes,
            clock,
            state: Mutex::new(State::default()),
        }
    }

    /// Is caching on at all (ttl > 0 and room for one entry)?
    pub fn enabled(&self) -> bool {
        !self.ttl.is_zero() && self.max_entries > 0
    }

    fn lock(&self) -> MutexGuard<'_, State<V>> {
        // A panic elsewhere while holding the lock leaves consistent data: keep going.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A fresh entry for `key`, marking it most recently used; an expired one is dropped.
    pub fn get(&self, key: &str) -> Option<V> {
        if !self.enabled() {
            return None;
        }
        let now = self.clock.now();
        let mut state = self.lock();
        let expired = {
            let slot = state.slots.get(key)?;
            now.saturating_duration_since(slot.stored) >= self.ttl
        };
        if expired {
            state.drop_key(key);
            return None;
        }
        let tick = state.bump();
        let slot = state.slots.get_mut(key)?;
        let old = std::mem::replace(&mut slot.tick, tick);
        let entry = slot.entry.clone();
        state.order.remove(&old);
        state.order.insert(tick, key.to_string());
        Some(entry)
    }

    /// Store (or replace) an entry, evicting the least recently used beyond `max_entries` or
    /// `max_bytes`. Refuses Gemini URLs with a query, and entries heavier than `max_bytes`.
    pub fn put(&self, key: &str, entry: V) {
        debug_assert!(
            !is_secret_key(key),
            "a Gemini URL with a query must never be cached"
        );
        if !self.enabled() || is_secret_key(key) {
            return;
        }
        let stored = self.clock.now();
        let weight = entry.weight();
        let mut state = self.lock();
        state.drop_key(key);
        if weight > self.max_bytes {
            return;
        }
        let tick = state.bump();
        state.order.insert(tick, key.to_string());
        state.slots.insert(
            key.to_string(),
            Slot {
                entry,
                stored,
                tick,
                weight,
            },
        );
        state.bytes += weight;
        while state.slots.len() > self.max_entries || state.bytes > self.max_bytes {
            let Some((_, oldest)) = state.order.pop_first() else {
                break;
            };
            if let Some(slot) = state.slots.remove(&oldest) {
                state.bytes -= slot.weight;
            }
        }
    }

    /// Drop an entry (refresh, forget); returns whether one was held.
    pub fn remove(&self, key: &str) -> bool {
        self.lock().drop_key(key).is_some()
    }

    /// Drop every entry whose key `doomed` says so; returns how many went.
    pub fn remove_where(&self, doomed: impl Fn(&str) -> bool) -> usize {
        let mut state = self.lock();
        let keys: Vec<String> = state.slots.keys().filter(|k| doomed(k)).cloned().collect();
        for k in &keys {
            state.drop_key(k);
        }
        keys.len()
    }

    /// Number of held entries (expired ones included until read).
    pub fn len(&self) -> usize {
        self.lock().slots.len()
    }

    /// True when nothing is held.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Weight of the held entries, in bytes.
    pub fn bytes(&self) -> usize {
        self.lock().bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    const T0: OffsetDateTime = OffsetDateTime::UNIX_EPOCH;

    impl Weigh for OffsetDateTime {
        fn weight(&self) -> usize {
            0
        }
    }

    fn cache(ttl: u64, max: usize) -> (Cache<OffsetDateTime>, Arc<ManualClock>) {
        let clock = Arc::new(ManualClock::new());
        (
            Cache::new(Duration::from_secs(ttl), max, usize::MAX, clock.clone()),
            clock,
        )
    }

    impl Weigh for String {
        fn weight(&self) -> usize {
            self.len()
        }
    }

    /// A cache entry holding `body` as a Gemini page (not parsed yet), and the page.
    fn gemtext_entry(body: String) -> (CacheEntry, Arc<smolweb_core::page::Page>) {
        use smolweb_core::page::{Page, mime_of};
        let url = smolweb_core::url::Url::parse("gemini://example.org/").unwrap();
        let page = Arc::new(Page::from_gemini(
            url,
            mime_of("text/gemini"),
            body.into_bytes(),
        ));
        let entry = CacheEntry {
            tls: None,
            page: page.clone(),
            cached_at: T0,
            sent_at: T0,
        };
        (entry, page)
    }

    #[test]
    fn weighing_a_page_does_not_parse_it() {
        use smolweb_core::page::Content;
        let (entry, page) = gemtext_entry("=> /a link\n".repeat(1000));
        let w = entry.weight();
        let parsed = match &page.content {
            Content::Gemtext(doc) => doc.is_parsed(),
            other => unreachable!("gemtext expected, got {other:?}"),
        };
        assert!(!parsed, "weighing must not build the document");
        assert!(w >= page.raw.len() + 2 * page.body.text().len(), "{w}");
    }

    #[test]
    fn a_page_of_short_lines_weighs_its_parse_before_it_is_parsed() {
        use smolweb_core::page::Content;
        let (entry, page) = gemtext_entry("=> /a link\nA line of text\n".repeat(20_000));
        let before = entry.weight();
        let Content::Gemtext(doc) = &page.content else {
            unreachable!("gemtext expected")
        };
        assert_eq!(doc.lines.len(), 40_000, "parsed now");
        let after = entry.weight();
        // Each line's record is counted, not twice its few bytes of text.
        assert!(after >= 40_000 * std::mem::size_of::<smolweb_core::gemtext::Line>());
        assert!(2 * before >= after, "before {before}, parsed {after}");
    }

    #[test]
    fn bytes_are_bounded_too() {
        let clock = Arc::new(ManualClock::new());
        let c: Cache<String> = Cache::new(Duration::from_secs(100), 100, 10, clock);
        c.put("gopher://a/", "aaaa".into());
        c.put("gopher://b/", "bbbb".into());
        assert_eq!(c.bytes(), 8);
        c.put("gopher://c/", "cccc".into());
        assert!(c.get("gopher://a/").is_none(), "the oldest made room");
        assert_eq!((c.len(), c.bytes()), (2, 8));
        c.put("gopher://b/", "b".into());
        assert_eq!(c.bytes(), 5, "a replaced entry's weight is replaced");
        c.put("gopher://huge/", "x".repeat(11));
        assert!(
            c.get("gopher://huge/").is_none(),
            "heavier than the budget: not held"
        );
        assert_eq!(c.len(), 2, "and nothing was evicted for it");
    }

    #[test]
    fn a_page_weighs_its_raw_and_decoded_bodies() {
        let url = smolweb_core::url::Url::parse("gemini://a/").unwrap();
        let raw = "# Title\n=> gemini://b/ link\nplain text\n"
            .as_bytes()
            .to_vec();
        let mime = smolweb_core::response::parse_mime("text/gemini");
        let page = smolweb_core::page::Page::from_gemini(url, mime, raw.clone());
        let entry = CacheEntry {
            tls: None,
            page: Arc::new(page),
            cached_at: T0,
            sent_at: T0,
        };
        assert!(entry.weight() >= 2 * raw.len(), "{}", entry.weight());
    }

    #[test]
    fn entry_lives_until_ttl() {
        let (c, clock) = cache(10, 5);
        c.put("gemini://a/", T0);
        clock.advance(Duration::from_secs(9));
        let got = c.get("gemini://a/").expect("fresh");
        assert_eq!(got, T0);
        clock.advance(Duration::from_secs(1));
        assert!(c.get("gemini://a/").is_none());
        assert!(c.is_empty(), "expired entry dropped on read");
    }

    #[test]
    fn ttl_zero_disables() {
        let (c, _) = cache(0, 5);
        c.put("gemini://a/", T0);
        assert!(c.get("gemini://a/").is_none());
        assert_eq!(c.len(), 0);
    }

    #[test]
    fn lru_evicts_least_recently_used() {
        let (c, _) = cache(100, 2);
        c.put("gopher://a/", T0);
        c.put("gopher://b/", T0);
        assert!(c.get("gopher://a/").is_some()); // a is now the most recent
        c.put("gopher://c/", T0);
        assert!(c.get("gopher://b/").is_none(), "b was least recently used");
        assert!(c.get("gopher://a/").is_some());
        assert!(c.get("gopher://c/").is_some());
        assert_eq!(c.len(), 2);
    }

    #[test]
    fn put_replaces_and_restarts_ttl() {
        let (c, clock) = cache(10, 5);
        c.put("gemini://a/", T0);
        clock.advance(Duration::from_secs(8));
        let later = OffsetDateTime::UNIX_EPOCH + time::Duration::hours(1);
        c.put("gemini://a/", later);
        clock.advance(Duration::from_secs(8));
        assert_eq!(c.get("gemini://a/").expect("replaced"), later);
        assert_eq!(c.len(), 1);
    }

    #[test]
    fn remove_drops_entry() {
        let (c, _) = cache(10, 5);
        c.put("gemini://a/", T0);
        assert!(c.remove("gemini://a/"));
        assert!(!c.remove("gemini://a/"));
        assert!(c.get("gemini://a/").is_none());
    }

    #[test]
    fn secret_keys_detected() {
        for (key, secret) in [
            ("gemini://a/?x", true),
            ("GEMINI://a/b?", true),
            ("gemini://a/b", false),
            ("gopher://a/7s?q", false),
        ] {
            assert_eq!(is_secret_key(key), secret, "{key}");
        }
    }

    #[test]
    #[cfg(not(debug_assertions))]
    fn gemini_query_never_stored() {
        let (c, _) = cache(10, 5);
        c.put("gemini://a/?secret", T0);
        assert!(c.get("gemini://a/?secret").is_none());
    }

    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "never be cached")]
    fn gemini_query_trips_debug_assertion() {
        let (c, _) = cache(10, 5);
        c.put("gemini://a/?secret", T0);
    }
}
