//! The web fetcher: one HTTP(S) request with smolweb's limits, over reqwest + rustls (ring).
//!
//! Invariants:
//! - The address guard ([`super::guard`]) runs on every hop: names are resolved by
//!   [`resolve::GuardedResolver`], which checks every address and hands reqwest only checked
//!   ones (reqwest connects to what the resolver returned, so there is no second lookup and a
//!   rebinding DNS answer cannot swap the address after the check); IP literals, which reqwest
//!   connects to without asking the resolver, are checked by [`check_target`] before sending;
//!   dangerous ports, userinfo and schemes other than http/https are refused there too.
//! - Redirects are followed here by hand, at most [`MAX_REDIRECTS`], each hop re-checked; a
//!   loop or one hop too many is `REDIRECT_FAILED`. Where a leading run of permanent
//!   redirects led is kept ([`HttpResponse::moved_to`]).
//! - A request may be conditional ([`Validators`], sent as `If-None-Match` and
//!   `If-Modified-Since` on every hop); a 304 answer is returned as it is, with no body.
//! - One timeout budget covers every hop and the body. The body cap counts decompressed
//!   bytes (gzip, brotli, zstd and deflate are decoded by reqwest as they arrive), so a
//!   compression bomb stops at the cap with `truncated`. Header count (HTTP/1) and header
//!   list size (HTTP/2) are bounded; hyper bounds the HTTP/1 header bytes.
//! - Under the SOCKS5 proxy (`HttpSetup::socks5`), reqwest connects through it with the names
//!   left to the proxy (`socks5h`): the resolver is never asked, and [`check_target`] judges
//!   each hop unresolved (`guard::check_unresolved`). reqwest does not report the TLS facts of
//!   a connection it made through a proxy, so an https answer then names the certificate the
//!   verifier last accepted for that host name ([`tls::RootLog::last_for`]).
//! - No proxy from the environment, no cookies, no referer. Certificates are checked against
//!   the configured extra roots, the system store (or `SSL_CERT_FILE` / `SSL_CERT_DIR`) and
//!   the bundled WebPKI roots ([`roots`]); there is no way to turn verification off. Each
//!   https answer names the root that verified its chain ([`tls`]).

mod error;
mod resolve;
pub mod roots;
pub mod tls;

pub use error::{WebError, status_words};
pub use roots::{RootSource, SystemRoots, TrustRoot};

use super::NetOptions;
use super::guard;
use rustls::pki_types::CertificateDer;
use std::net::{IpAddr, SocketAddr};
use std::time::Duration;
use tokio::time::Instant;

/// Redirects followed for one request.
pub const MAX_REDIRECTS: usize = 5;
/// Most response headers accepted (HTTP/1).
pub(crate) const MAX_HEADERS: usize = 128;
/// Largest HTTP/2 header list accepted, in bytes.
pub(crate) const MAX_HEADER_LIST_BYTES: u32 = 64 * 1024;
/// What smolweb says it accepts: markdown first, then HTML, then plain text, then anything
/// (JSON, XML, PDF and other text are read too; the rest is refused by its type).
pub const ACCEPT: &str = "text/markdown, text/html;q=0.9, text/plain;q=0.8, */*;q=0.1";

/// How the fetcher is built (one per face: the guard options do not change per call).
#[derive(Clone, Debug, Default)]
pub struct HttpSetup {
    /// Extra trusted roots (DER, from `web.extra_root_certificates`), besides the system's and
    /// the bundled WebPKI roots.
    pub extra_roots: Vec<CertificateDer<'static>>,
    /// Where the system's roots are read (`SystemRoots::from_env()` outside tests).
    pub system_roots: SystemRoots,
    /// Private destinations allowed (the human face, or the agent's config).
    pub allow_private: bool,
    /// Hosts let through to any address but the never-reached ones (see the guard).
    pub allowed_hosts: Vec<String>,
    /// An agent's request: dangerous ports are refused.
    pub for_agent: bool,
    /// Connect through this SOCKS5 proxy, which resolves the names (`[network] socks5`).
    pub socks5: Option<SocketAddr>,
}

/// One request's limits.
#[derive(Clone, Debug)]
pub struct HttpRequest {
    /// The http:// or https:// URL to fetch.
    pub url: String,
    /// Body cap (decompressed bytes).
    pub max_bytes: u64,
    /// The one budget for every hop and the body.
    pub timeout: Duration,
    /// The Accept header to send (usually [`ACCEPT`]).
    pub accept: &'static str,
    /// Make the request conditional on these validators of a copy held (`If-None-Match`,
    /// `If-Modified-Since`): a server may then answer 304 with no body.
    pub validators: Validators,
}

/// The validators of an answer, sent back to ask whether the copy held is still current.
/// Values that cannot be a header (control characters, longer than
/// [`MAX_VALIDATOR_BYTES`]) are neither read nor sent.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Validators {
    /// The `ETag` header as sent.
    pub etag: Option<String>,
    /// The `Last-Modified` header as sent.
    pub last_modified: Option<String>,
}

/// Longest validator kept or sent, in bytes.
pub const MAX_VALIDATOR_BYTES: usize = 256;

impl Validators {
    /// Are there none to send?
    pub fn is_empty(&self) -> bool {
        self.etag.is_none() && self.last_modified.is_none()
    }
}

/// A validator that can be kept and sent back.
fn usable_validator(v: &str) -> Option<reqwest::header::HeaderValue> {
    if v.len() > MAX_VALIDATOR_BYTES || v.bytes().any(|b| b.is_ascii_control()) {
        return None;
    }
    reqwest::header::HeaderValue::from_str(v).ok()
}

/// The certificate facts of an https answer (verified against the trusted roots).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WebTls {
    /// `sha256:<hex>` of the server certificate DER.
    pub cert_fingerprint: String,
    /// "TLSv1.3" / "TLSv1.2" when known.
    pub version: Option<String>,
    /// The trust anchor that verified the chain, when it could be named.
    pub root: Option<TrustRoot>,
}

/// A final (non-redirect) answer.
#[derive(Clone, Debug)]
pub struct HttpResponse {
    /// The HTTP status code.
    pub status: u16,
    /// The URL that answered, after the redirects.
    pub final_url: String,
    /// The Content-Type header as sent.
    pub content_type: Option<String>,
    /// The Retry-After header as sent, when there was one.
    pub retry_after: Option<String>,
    /// `x-markdown-tokens`, when the site sent one.
    pub markdown_tokens: Option<u64>,
    /// The body, decompressed (at most the request's `max_bytes`).
    pub body: Vec<u8>,
    /// The body cap was reached; `body` holds the first `max_bytes`.
    pub truncated: bool,
    /// The certificate facts, for an https answer.
    pub tls: Option<WebTls>,
    /// URLs redirected through, in order.
    pub redirects: Vec<String>,
    /// The answer's validators (`ETag`, `Last-Modified`), to make the next request for it
    /// conditional.
    pub validators: Validators,
    /// Where the leading run of permanent redirects (301, 308) led: the address the URL
    /// asked moved to (None when the first hop was not a permanent redirect).
    pub moved_to: Option<String>,
}

/// A check run before each redirect hop is followed (robots.txt of the next host, for
/// instance); an error stops the chain with that error.
pub trait HopGate: Send + Sync {
    /// Ok to follow the redirect to `url`; an error stops the chain with it.
    fn allow<'a>(
        &'a self,
        url: &'a url::Url,
    ) -> std::pin::Pin<Box<dyn std::future::Future<Output = Result<(), WebError>> + Send + 'a>>;
}

/// Lets every hop through.
struct Open;

impl HopGate for Open {
    fn allow<'a>(
        &'a self,
        _url: &'a url::Url,
    ) -> std::pin::Pin<Box<dyn std::future::Future<Output = Result<(), WebError>> + Send + 'a>>
    {
        Box::pin(async { Ok(()) })
    }
}

/// The fetcher of one face.
pub struct HttpFetcher {
    client: reqwest::Client,
    guard: NetOptions,
    roots: std::sync::Arc<tls::RootLog>,
    root_warnings: Vec<String>,
}

impl HttpFetcher {
    /// Build the fetcher: its TLS configuration (see [`roots`]) and guard. A trust store that
    /// cannot be read is logged as a warning (and kept in [`Self::root_warnings`]); an extra
    /// root that is not a usable certificate is an error.
    pub fn new(setup: &HttpSetup) -> Result<HttpFetcher, WebError> {
        let guard = NetOptions {
            allow_private: setup.allow_private,
            allowed_hosts: setup.allowed_hosts.clone(),
            for_agent: setup.for_agent,
            socks5: setup.socks5,
            ..NetOptions::default()
        };
        let anchors = roots::load(&setup.extra_roots, &setup.system_roots).map_err(|e| {
            WebError::Internal(format!("an extra root certificate is unusable: {e}"))
        })?;
        let root_warnings = anchors.warnings.clone();
        for w in &root_warnings {
            tracing::warn!("{w}");
        }
        let (tls, roots) = tls::client_config(std::sync::Arc::new(anchors))?;
        let mut builder = reqwest::Client::builder()
            .tls_backend_preconfigured(tls)
            .dns_resolver(resolve::GuardedResolver::new(guard.clone()))
            .no_proxy();
        if let Some(proxy) = setup.socks5 {
            // socks5h: the proxy resolves the names; no lookup leaves this machine.
            let proxy = reqwest::Proxy::all(format!("socks5h://{proxy}"))
                .map_err(|e| WebError::Internal(format!("cannot use the SOCKS5 proxy: {e}")))?;
            builder = builder.proxy(proxy);
        }
        let client = builder
            .redirect(reqwest::redirect::Policy::none())
            .referer(false)
            .user_agent(concat!("smolweb/", env!("CARGO_PKG_VERSION")))
            .http1_max_headers(MAX_HEADERS)
            .http2_max_header_list_size(MAX_HEADER_LIST_BYTES)
            .tcp_nodelay(true)
            .tls_info(true)
            .pool_idle_timeout(Duration::from_secs(30))
            .build()
            .map_err(|e| WebError::Internal(format!("cannot build the HTTP client: {e}")))?;
        Ok(HttpFetcher {
            client,
            guard,
            roots,
            root_warnings,
        })
    }

    /// What could not be read while gathering the trusted roots (empty when all was read).
    pub fn root_warnings(&self) -> &[String] {
        &self.root_warnings
    }

    /// Fetch `req.url`, following redirects (see the module docs).
    pub async fn fetch(&self, req: &HttpRequest) -> Result<HttpResponse, WebError> {
        self.fetch_gated(req, &Open).await
    }

    /// [`Self::fetch`], asking `gate` before each redirect hop is followed.
    pub async fn fetch_gated(
        &self,
        req: &HttpRequest,
        gate: &dyn HopGate,
    ) -> Result<HttpResponse, WebError> {
        let deadline = Instant::now() + req.timeout;
        match tokio::time::timeout_at(deadline, self.fetch_inner(req, deadline, gate)).await {
            Ok(r) => r,
            Err(_) => Err(WebError::Timeout(req.timeout)),
        }
    }

    async fn fetch_inner(
        &self,
        req: &HttpRequest,
        deadline: Instant,
        gate: &dyn HopGate,
    ) -> Result<HttpResponse, WebError> {
        let mut url = parse_target(&req.url, false)?;
        let mut seen = vec![url.to_string()];
        let mut redirects = Vec::new();
        // Still on the leading run of permanent redirects, and where it led.
        let mut permanent = true;
        let mut moved_to = None;
        loop {
            check_target(&url, &self.guard)?;
            let left = deadline.saturating_duration_since(Instant::now());
            let mut get = self
                .client
                .get(url.clone())
                .header(reqwest::header::ACCEPT, req.accept)
                .timeout(left);
            if let Some(v) = req.validators.etag.as_deref().and_then(usable_validator) {
                get = get.header(reqwest::header::IF_NONE_MATCH, v);
            }
            if let Some(v) = req
                .validators
                .last_modified
                .as_deref()
                .and_then(usable_validator)
            {
                get = get.header(reqwest::header::IF_MODIFIED_SINCE, v);
            }
            let resp = get
                .send()
                .await
                .map_err(|e| error::from_reqwest(&e, &url, req.timeout))?;
            let status = resp.status();
            if !status.is_redirection() || status.as_u16() == 304 {
                let mut out = read_response(resp, url, redirects, req, &self.roots).await?;
                out.moved_to = moved_to;
                return Ok(out);
            }
            let Some(location) = resp
                .headers()
                .get(reqwest::header::LOCATION)
                .and_then(|v| v.to_str().ok())
            else {
                return Err(WebError::Redirect(format!(
                    "status {} without a usable Location header",
                    status.as_u16()
                )));
            };
            let next = url
                .join(location.trim())
                .map_err(|e| WebError::Redirect(format!("unusable redirect target: {e}")))?;
            let next = parse_target(next.as_str(), true)?;
            if seen.contains(&next.to_string()) {
                return Err(WebError::Redirect(format!("redirect loop at {next}")));
            }
            if redirects.len() >= MAX_REDIRECTS {
                return Err(WebError::Redirect(format!(
                    "more than {MAX_REDIRECTS} redirects (the next one was to {next})"
                )));
            }
            check_target(&next, &self.guard)?;
            gate.allow(&next).await?;
            permanent = permanent && matches!(status.as_u16(), 301 | 308);
            if permanent {
                moved_to = Some(next.to_string());
            }
            redirects.push(url.to_string());
            seen.push(next.to_string());
            url = next;
        }
    }
}

/// Parse and vet a URL to fetch: http/https, a host, no userinfo; the fragment dropped.
/// `redirect` says a server chose it (its refusals are policy refusals).
pub fn parse_target(text: &str, redirect: bool) -> Result<url::Url, WebError> {
    let refuse = |message: String| {
        if redirect {
            WebError::RedirectRefused(message)
        } else {
            WebError::InvalidInput(message)
        }
    };
    let mut url = url::Url::parse(text.trim()).map_err(|e| refuse(format!("invalid URL: {e}")))?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(refuse(format!(
            "only http and https URLs can be fetched, not {}:",
            url.scheme()
        )));
    }
    if url.host().is_none() {
        return Err(refuse("the URL has no host".into()));
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(refuse(
            "URLs with user information (user@host) are refused".into(),
        ));
    }
    url.set_fragment(None);
    Ok(url)
}

/// The guard's checks that must happen before a request: the port, and IP literals (which
/// reqwest connects to without resolving). Names are checked by the resolver, or, under the
/// SOCKS5 proxy, judged unresolved here.
pub(crate) fn check_target(url: &url::Url, opts: &NetOptions) -> Result<(), WebError> {
    let host = url.host_str().unwrap_or_default();
    let port = url.port_or_known_default().unwrap_or(0);
    if opts.socks5.is_some() {
        return guard::check_unresolved(host, port, opts).map_err(WebError::from_guard);
    }
    guard::check_addresses(host, port, &[], opts).map_err(WebError::from_guard)?;
    let ip: Option<IpAddr> = match url.host() {
        Some(url::Host::Ipv4(v4)) => Some(v4.into()),
        Some(url::Host::Ipv6(v6)) => Some(v6.into()),
        _ => None,
    };
    if let Some(ip) = ip {
        guard::check_addresses(host, port, &[SocketAddr::new(ip, port)], opts)
            .map_err(WebError::from_guard)?;
    }
    Ok(())
}

async fn read_response(
    mut resp: reqwest::Response,
    url: url::Url,
    redirects: Vec<String>,
    req: &HttpRequest,
    roots: &tls::RootLog,
) -> Result<HttpResponse, WebError> {
    let header = |name: &str| {
        resp.headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string)
    };
    let content_type = header("content-type");
    let retry_after = header("retry-after");
    let validators = Validators {
        etag: header("etag").filter(|v| usable_validator(v).is_some()),
        last_modified: header("last-modified").filter(|v| usable_validator(v).is_some()),
    };
    let markdown_tokens = header("x-markdown-tokens").and_then(|v| v.trim().parse().ok());
    let tls = resp
        .extensions()
        .get::<reqwest::tls::TlsInfo>()
        .and_then(|t| {
            let version = t.version().and_then(|v| match v {
                reqwest::tls::Version::TLS_1_3 => Some("TLSv1.3".to_string()),
                reqwest::tls::Version::TLS_1_2 => Some("TLSv1.2".to_string()),
                _ => None,
            });
            t.peer_certificate().map(|der| {
                let cert_fingerprint = smolweb_core::fingerprint::sha256_fingerprint(der);
                WebTls {
                    root: roots.root_of(&cert_fingerprint),
                    cert_fingerprint,
                    version,
                }
            })
        });
    // Through the proxy reqwest keeps no TLS facts: the verifier's last word on this name.
    let tls = tls.or_else(|| {
        let host = url.host_str().filter(|_| url.scheme() == "https")?;
        let (cert_fingerprint, root) = roots.last_for(host)?;
        Some(WebTls {
            cert_fingerprint,
            version: None,
            root,
        })
    });
    let status = resp.status().as_u16();
    // Sized from the declared length (never past the cap), so a 5 MB body is not read into a
    // vector doubled to 8 MiB.
    let declared = resp.content_length().unwrap_or(0).min(req.max_bytes);
    let mut body = Vec::with_capacity(usize::try_from(declared).unwrap_or(0));
    let mut truncated = false;
    loop {
        let chunk = resp
            .chunk()
            .await
            .map_err(|e| error::from_reqwest(&e, &url, req.timeout))?;
        let Some(chunk) = chunk else { break };
        let room = (req.max_bytes as usize).saturating_sub(body.len());
        if chunk.len() > room {
            body.extend_from_slice(&chunk[..room]);
            truncated = true;
            break;
        }
        body.extend_from_slice(&chunk);
    }
    // Without a declared length the vector grew by doubling: what it holds is kept, not the
    // room (the body lives on in the page cache).
    if body.capacity() - body.len() > body.len() / 4 {
        body.shrink_to_fit();
    }
    Ok(HttpResponse {
        status,
        final_url: url.to_string(),
        content_type,
        retry_after,
        markdown_tokens,
        body,
        truncated,
        tls,
        redirects,
        validators,
        moved_to: None,
    })
}
