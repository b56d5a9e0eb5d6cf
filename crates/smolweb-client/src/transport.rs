//! The seam between the client and the network: [`Transport`] is what `client` needs from
//! `net`, one request of any protocol and its answer. The real implementation is [`Net`];
//! tests and simulations inject their own. Futures are boxed so the trait stays object-safe.

use smolweb_net::{FetchError, Net, NetOptions, Request, Response};
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// A boxed, sendable future.
pub(crate) type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// One request over the network.
pub trait Transport: Send + Sync {
    /// Send `request` (Gemini, Gopher, a small protocol, a Titan upload) and return its
    /// answer.
    fn send<'a>(
        &'a self,
        request: &'a Request,
        opts: &'a NetOptions,
    ) -> BoxFuture<'a, Result<Response, FetchError>>;
}

impl Transport for Net {
    fn send<'a>(
        &'a self,
        request: &'a Request,
        opts: &'a NetOptions,
    ) -> BoxFuture<'a, Result<Response, FetchError>> {
        Box::pin(Net::send(self, request, opts))
    }
}

/// The switch of the work-offline mode, shared by a client and its transport gate.
pub(crate) type OfflineSwitch = Arc<AtomicBool>;

/// Refuses every request while the work-offline switch is on (see [`crate::Client::set_work_offline`]):
/// the last check before any socket of every protocol (Titan uploads, robots.txt and feed
/// fetches included) is opened, so no path that forgets to ask the mode can reach the network.
pub(crate) struct OfflineGate {
    pub(crate) inner: Arc<dyn Transport>,
    pub(crate) offline: OfflineSwitch,
}

impl Transport for OfflineGate {
    fn send<'a>(
        &'a self,
        request: &'a Request,
        opts: &'a NetOptions,
    ) -> BoxFuture<'a, Result<Response, FetchError>> {
        Box::pin(async move {
            if self.offline.load(Ordering::SeqCst) {
                return Err(FetchError::Offline {
                    url: request.shown(),
                });
            }
            self.inner.send(request, opts).await
        })
    }
}
