//! The store operations the faces call, one module per store: the client hands out
//! operations, never a raw store, so what a face may do with the person's data is said here,
//! in one place for every face.
//!
//! Each operation is a method of [`Client`](crate::Client) that opens no new store (the
//! client's own, built once for its data directory), takes the time from the client's clock
//! when the store wants one, and answers the store's own error ([`smolweb_store::StoreError`]).

mod bookmarks;
mod history;
