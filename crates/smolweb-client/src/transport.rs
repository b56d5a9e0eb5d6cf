//! The seam between the client and the network: [`Transport`] is what `client` needs from
//! `net` (one Gemini request, one Gopher request, one small-protocol request). The real implementation is [`Net`]; tests
//! and simulations inject their own. Futures are boxed so the trait stays object-safe.

use smolweb_core::url::{GopherTarget, Url};
use smolweb_net::{FetchError, GeminiResponse, Net, NetOptions, SmallRequest, SmallResponse};
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

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

/// The switch of the work-offline mode, shared by a client and its transport gate.
pub(crate) type OfflineSwitch = Arc<AtomicBool>;

/// Refuses every request while the work-offline switch is on (see [`crate::Client::set_work_offline`]):
/// the last check before any socket of Gemini, Gopher and the small protocols (Titan uploads,
/// robots.txt and feed fetches included) is opened, so no path that forgets to ask the mode
/// can reach the network.
pub(crate) struct OfflineGate {
    pub(crate) inner: Arc<dyn Transport>,
    pub(crate) offline: OfflineSwitch,
}

impl OfflineGate {
    fn refuse(&self, url: impl FnOnce() -> String) -> Result<(), FetchError> {
        if self.offline.load(Ordering::SeqCst) {
            return Err(FetchError::Offline { url: url() });
        }
        Ok(())
    }
}

impl Transport for OfflineGate {
    fn gemini<'a>(
        &'a self,
        url: &'a Url,
        opts: &'a NetOptions,
    ) -> BoxFuture<'a, Result<GeminiResponse, FetchError>> {
        Box::pin(async move {
            self.refuse(|| url.without_query())?;
            self.inner.gemini(url, opts).await
        })
    }

    fn gopher<'a>(
        &'a self,
        target: &'a GopherTarget,
        opts: &'a NetOptions,
    ) -> BoxFuture<'a, Result<Vec<u8>, FetchError>> {
        Box::pin(async move {
            self.refuse(|| {
                format!(
                    "gopher://{}:{}/{}{}",
                    target.host, target.port, target.item_type, target.selector
                )
            })?;
            self.inner.gopher(target, opts).await
        })
    }

    fn small<'a>(
        &'a self,
        request: &'a SmallRequest,
        opts: &'a NetOptions,
    ) -> BoxFuture<'a, Result<SmallResponse, FetchError>> {
        Box::pin(async move {
            self.refuse(|| request.host().to_string())?;
            self.inner.small(request, opts).await
        })
    }
}
