//! The seam between the client and the network: [`Transport`] is what `client` needs from
//! `net` (one Gemini request, one Gopher request, one small-protocol request). The real implementation is [`Net`]; tests
//! and simulations inject their own. Futures are boxed so the trait stays object-safe.

use smolweb_core::url::{GopherTarget, Url};
use smolweb_net::{FetchError, GeminiResponse, Net, NetOptions, SmallRequest, SmallResponse};
use std::future::Future;
use std::pin::Pin;

/// A boxed, sendable future.
pub(crate) type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// One request over the network.
pub trait Transport: Send + Sync {
    /// Fetch a gemini:// URL (query included) and return the raw answer.
    fn gemini<'a>(
        &'a self,
        url: &'a Url,
        opts: &'a NetOptions,
    ) -> BoxFuture<'a, Result<GeminiResponse, FetchError>>;

    /// Fetch a gopher item and return the raw bytes.
    fn gopher<'a>(
        &'a self,
        target: &'a GopherTarget,
        opts: &'a NetOptions,
    ) -> BoxFuture<'a, Result<Vec<u8>, FetchError>>;

    /// One request of a small protocol (nex, finger, spartan, scroll, gophers, a titan
    /// upload) and its answer.
    fn small<'a>(
        &'a self,
        request: &'a SmallRequest,
        opts: &'a NetOptions,
    ) -> BoxFuture<'a, Result<SmallResponse, FetchError>>;
}

impl Transport for Net {
    fn gemini<'a>(
        &'a self,
        url: &'a Url,
        opts: &'a NetOptions,
    ) -> BoxFuture<'a, Result<GeminiResponse, FetchError>> {
        Box::pin(Net::gemini(self, url, opts))
    }

    fn gopher<'a>(
        &'a self,
        target: &'a GopherTarget,
        opts: &'a NetOptions,
    ) -> BoxFuture<'a, Result<Vec<u8>, FetchError>> {
        Box::pin(Net::gopher(self, target, opts))
    }

    fn small<'a>(
        &'a self,
        request: &'a SmallRequest,
        opts: &'a NetOptions,
    ) -> BoxFuture<'a, Result<SmallResponse, FetchError>> {
        Box::pin(Net::small(self, request, opts))
    }
}
