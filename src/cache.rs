//! In-memory TTL + LRU cache of fetched pages, keyed by normalized URL; clock injected.
//! Gemini URLs with a query are never stored (the caller enforces it and a debug assertion
//! checks it).
