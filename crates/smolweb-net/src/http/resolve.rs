//! The DNS resolver reqwest uses: the address guard's [`resolve_checked`] (one lookup, every
//! address checked, only checked addresses returned). A refusal travels back through reqwest's
//! error chain as a [`GuardError`], so the caller reports the guard's words and code.
//!
//! reqwest does not tell a resolver the port; the port is checked per hop before the request
//! ([`super::check_target`]), so the lookup here passes 443, a port the guard never refuses.

use super::error::GuardError;
use crate::NetOptions;
use crate::guard::resolve_checked;
use reqwest::dns::{Addrs, Name, Resolve, Resolving};

/// A placeholder port for the lookup (see the module docs).
const LOOKUP_PORT: u16 = 443;

pub(super) struct GuardedResolver {
    opts: NetOptions,
}

impl GuardedResolver {
    pub(super) fn new(opts: NetOptions) -> GuardedResolver {
        GuardedResolver { opts }
    }
}

impl Resolve for GuardedResolver {
    fn resolve(&self, name: Name) -> Resolving {
        let opts = self.opts.clone();
        let host = name.as_str().to_string();
        Box::pin(async move {
            match resolve_checked(&host, LOOKUP_PORT, &opts).await {
                Ok(addrs) => {
                    let addrs: Addrs = Box::new(addrs.into_iter());
                    Ok(addrs)
                }
                Err(e) => Err(Box::new(GuardError(e)) as Box<dyn std::error::Error + Send + Sync>),
            }
        })
    }
}
