//! The loads room: requests in flight (by request id) and the session's choices that every
//! later request to a host carries: the identity picked for a host:port and a changed
//! certificate trusted for this session only.
//!
//! Invariant: an answer whose request id is not here (cancelled, superseded, tab closed) is
//! dropped by the caller.

use super::FetchOptions;
use smolweb_core::url::Url;
use smolweb_net::IdentityChoice;
use std::collections::HashMap;

/// A request sent or about to be sent.
#[derive(Clone, Debug)]
pub struct Request {
    pub(crate) tab: u64,
    pub(crate) url: String,
    /// Replace the current entry (reload) instead of pushing a new one.
    pub(crate) replace: bool,
    /// URLs already visited in this redirect chain.
    pub(crate) chain: Vec<String>,
    /// The answer was to a sensitive prompt: never keep the query.
    pub(crate) sensitive: bool,
    /// Pin the presented certificate once the page arrives ("trust and save").
    pub(crate) pin_after: bool,
    pub(crate) opts: FetchOptions,
    /// A Titan upload: its answer is shown, never kept in history.
    pub(crate) upload: bool,
}

impl Request {
    /// A plain request for `url` in `tab`.
    pub fn new(tab: u64, url: &str, opts: FetchOptions) -> Request {
        Request {
            tab,
            url: url.to_string(),
            replace: false,
            chain: Vec::new(),
            sensitive: false,
            pin_after: false,
            opts,
            upload: false,
        }
    }

    /// The same, replacing the tab's current entry.
    pub fn replacing(mut self) -> Request {
        self.replace = true;
        self
    }
}

type HostPort = (String, u16);

#[derive(Debug, Default)]
pub(super) struct Loads {
    requests: HashMap<u64, Request>,
    next_id: u64,
    identity_for: HashMap<HostPort, String>,
    trusted_once: HashMap<HostPort, String>,
}

fn host_port(url: &str) -> Option<HostPort> {
    Url::parse(url)
        .ok()
        .map(|u| (u.host().to_string(), u.port()))
}

impl Loads {
    /// Register a request (with the session's choices for its host) and give it an id.
    pub(super) fn start(&mut self, mut req: Request) -> (u64, &Request) {
        if let Some(key) = host_port(&req.url) {
            if req.opts.identity == IdentityChoice::Auto
                && let Some(fp) = self.identity_for.get(&key)
            {
                req.opts.identity = IdentityChoice::Fingerprint(fp.clone());
            }
            if req.opts.trust_once.is_none() {
                req.opts.trust_once = self.trusted_once.get(&key).cloned();
            }
        }
        self.next_id += 1;
        let id = self.next_id;
        let req = self.requests.entry(id).or_insert(req);
        (id, req)
    }

    /// The request for an answer, if it is still wanted.
    pub(super) fn take(&mut self, id: u64) -> Option<Request> {
        self.requests.remove(&id)
    }

    pub(super) fn forget(&mut self, id: u64) {
        self.requests.remove(&id);
    }

    /// Use this identity for every later request to the host of `url`.
    pub(super) fn use_identity(&mut self, url: &str, fingerprint: &str) {
        if let Some(key) = host_port(url) {
            self.identity_for.insert(key, fingerprint.to_string());
        }
    }

    /// Accept this changed certificate of `host:port` until the browser quits.
    pub(super) fn trust_once(&mut self, host: &str, port: u16, fingerprint: &str) {
        self.trusted_once
            .insert((host.to_string(), port), fingerprint.to_string());
    }

    /// The certificate is now pinned: no session exception is needed any more.
    pub(super) fn pinned(&mut self, host: &str, port: u16) {
        self.trusted_once.remove(&(host.to_string(), port));
    }
}
