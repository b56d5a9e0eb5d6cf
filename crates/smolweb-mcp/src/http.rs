//! The Streamable HTTP front end: `smolweb --mcp --http ADDR`, at `http://ADDR/mcp`.
//!
//! The same server as over stdio (the same `SmolwebServer`, so the same tools, argument checks
//! in `call`, consent flow and cancellation), behind rmcp's `StreamableHttpService` with its
//! in-memory session manager, served by hyper's HTTP/1.1 server. Each session is one
//! `initialize` handshake, and its consent identity is the client name it gave there (see
//! `gate`), as a stdio process's is. The sealer of 2026-07-28 round-trip state is shared by all
//! sessions (it is per process, as over stdio).
//!
//! Before rmcp sees a request, the front end refuses, in this order:
//! - a `Host` or `Origin` it does not answer to (`checks`): 403;
//! - a missing or wrong bearer token: 401 with `WWW-Authenticate: Bearer`;
//! - a path other than `/mcp`: 404;
//! - a POST body over `mcp.http.max_body_bytes` (declared or counted while read): 413, or
//!   one that does not arrive within [`BODY_TIMEOUT`]: 408;
//! - a body that is not one well-formed JSON-RPC message: 400 with the JSON-RPC error the
//!   stdio front end would send (the same `stdio::verdict`: `-32700`, `-32600`, or `-32602`
//!   for a malformed `tools/call`), since rmcp alone would answer 415 without an id;
//! - an `initialize` when `mcp.http.max_sessions` sessions are open: 503 with a JSON-RPC error.
//!
//! A DELETE that closes a session is answered 204 (rmcp's 202 reads as a failure to clients).
//! Sessions without a request for `mcp.http.idle_timeout_seconds` are closed by rmcp's session
//! worker (a later request with that session id gets 404, and the client starts anew).
//! Connections are bounded ([`MAX_CONNECTIONS`]) and must send their headers within
//! [`HEADER_TIMEOUT`]. Nothing is written to stdout; the token is never logged.

mod checks;

use super::SmolwebServer;
use super::stdio::verdict::{self, Verdict};
use bytes::Bytes;
use checks::{Checks, Refusal};
use http::{Method, Request, Response, StatusCode, header};
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use rmcp::transport::streamable_http_server::session::local::{LocalSessionManager, SessionConfig};
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use serde_json::Value;
use smolweb_client::Client;
use smolweb_store::mcp_token::McpToken;
use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;

/// The path clients connect to.
pub(crate) const PATH: &str = "/mcp";
/// Connections served at once; more wait to be accepted.
pub(crate) const MAX_CONNECTIONS: usize = 64;
/// A connection's request headers must arrive within this.
pub(crate) const HEADER_TIMEOUT: Duration = Duration::from_secs(10);
/// A request body must arrive within this.
pub(crate) const BODY_TIMEOUT: Duration = Duration::from_secs(30);

type Body = BoxBody<Bytes, Infallible>;

/// Why the HTTP server could not start or stopped.
#[derive(Debug, thiserror::Error)]
pub enum HttpError {
    /// A non-loopback address without the explicit permission.
    #[error(
        "refusing to listen on {0}: it is not a loopback address (pass --http-allow-remote, or \
         set mcp.http.allow_non_loopback = true, to serve other machines)"
    )]
    NotLoopback(SocketAddr),
    /// The address could not be bound.
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        /// The address asked for.
        addr: SocketAddr,
        /// What the system said.
        #[source]
        source: std::io::Error,
    },
    /// Accepting connections failed.
    #[error("cannot accept connections: {0}")]
    Accept(#[source] std::io::Error),
    /// The system random source failed (the token check needs a key).
    #[error("the system random source failed")]
    Random,
}

/// A bound, not yet serving, MCP server over HTTP.
pub struct HttpServer {
    listener: TcpListener,
    local: SocketAddr,
    front: Arc<Front>,
}

impl std::fmt::Debug for HttpServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HttpServer")
            .field("local", &self.local)
            .finish_non_exhaustive()
    }
}

impl HttpServer {
    /// Bind `addr` (refused when it is not loopback, unless `allow_remote`), with the limits
    /// of the client's `[mcp.http]` and `token` as the bearer token.
    pub async fn bind(
        client: Arc<Client>,
        addr: SocketAddr,
        allow_remote: bool,
        token: &McpToken,
    ) -> Result<HttpServer, HttpError> {
        if !addr.ip().is_loopback() && !allow_remote {
            return Err(HttpError::NotLoopback(addr));
        }
        let listener = TcpListener::bind(addr)
            .await
            .map_err(|source| HttpError::Bind { addr, source })?;
        let local = listener
            .local_addr()
            .map_err(|source| HttpError::Bind { addr, source })?;
        let front = Front::new(client, local, token).ok_or(HttpError::Random)?;
        Ok(HttpServer {
            listener,
            local,
            front: Arc::new(front),
        })
    }

    /// The address actually bound (the port chosen when 0 was asked for).
    pub fn local_addr(&self) -> SocketAddr {
        self.local
    }

    /// The URL clients connect to.
    pub fn url(&self) -> String {
        format!("http://{}{PATH}", self.local)
    }

    /// Serve until SIGINT or SIGTERM (or an accept error).
    pub async fn serve(self) -> Result<(), HttpError> {
        let slots = Arc::new(tokio::sync::Semaphore::new(MAX_CONNECTIONS));
        let stop = shutdown_signal();
        tokio::pin!(stop);
        loop {
            let slot = tokio::select! {
                () = &mut stop => break,
                slot = slots.clone().acquire_owned() => match slot {
                    Ok(s) => s,
                    Err(_) => break,
                },
            };
            let (stream, peer) = tokio::select! {
                () = &mut stop => break,
                accepted = self.listener.accept() => match accepted {
                    Ok(a) => a,
                    Err(e) if transient(&e) => {
                        tracing::warn!("accept failed: {e}");
                        tokio::time::sleep(Duration::from_millis(50)).await;
                        continue;
                    }
                    Err(e) => return Err(HttpError::Accept(e)),
                },
            };
            let front = self.front.clone();
            tokio::spawn(async move {
                let service = hyper::service::service_fn(move |req| {
                    let front = front.clone();
                    async move { Ok::<_, Infallible>(front.handle(req).await) }
                });
                let served = hyper::server::conn::http1::Builder::new()
                    .timer(TokioTimer::new())
                    .header_read_timeout(HEADER_TIMEOUT)
                    .serve_connection(TokioIo::new(stream), service)
                    .await;
                if let Err(e) = served {
                    tracing::debug!(%peer, "HTTP connection ended: {e}");
                }
                drop(slot);
            });
        }
        self.front.rmcp.config.cancellation_token.cancel();
        Ok(())
    }
}

/// Accept errors that concern one connection or a passing shortage, not the listener.
fn transient(e: &std::io::Error) -> bool {
    use std::io::ErrorKind::*;
    matches!(
        e.kind(),
        ConnectionAborted | ConnectionReset | Interrupted | WouldBlock
    ) || e.raw_os_error().is_some_and(|n| n == 24 || n == 23) // EMFILE, ENFILE
}

async fn shutdown_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = tokio::signal::ctrl_c() => {}
                    _ = term.recv() => {}
                }
            }
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

/// Everything a request meets: the checks, the limits, and rmcp.
struct Front {
    checks: Checks,
    rmcp: StreamableHttpService<SmolwebServer, LocalSessionManager>,
    sessions: Arc<LocalSessionManager>,
    max_body: usize,
    max_sessions: usize,
    /// Held while a new session is counted and made, so two cannot pass the cap together.
    opening: tokio::sync::Mutex<()>,
}

impl Front {
    fn new(client: Arc<Client>, local: SocketAddr, token: &McpToken) -> Option<Front> {
        let settings = client.config().mcp.http.clone();
        let checks = Checks::new(
            local,
            token.expose(),
            &settings.allowed_hosts,
            &settings.allowed_origins,
        )?;
        let mut session_config = SessionConfig::default();
        session_config.keep_alive = Some(Duration::from_secs(settings.idle_timeout_seconds.max(1)));
        let mut manager = LocalSessionManager::default();
        manager.session_config = session_config;
        let sessions = Arc::new(manager);
        let max_body = settings.max_body_bytes.max(1024);
        // Host and Origin are checked here (`checks`), once, before rmcp; its own checks would
        // only repeat them with a narrower list.
        let config = StreamableHttpServerConfig::default()
            .disable_allowed_hosts()
            .disable_allowed_origins()
            .with_max_request_body_bytes(max_body);
        // One server, cloned per session: the tool router is built once and the sealer shared.
        let server = SmolwebServer::new(client);
        let rmcp = StreamableHttpService::new(move || Ok(server.clone()), sessions.clone(), config);
        Some(Front {
            checks,
            rmcp,
            sessions,
            max_body,
            max_sessions: settings.max_sessions.max(1),
            opening: tokio::sync::Mutex::new(()),
        })
    }

    async fn handle(&self, req: Request<Incoming>) -> Response<Body> {
        if let Err(r) = self.checks.check(req.headers()) {
            return refused(r);
        }
        if req.uri().path() != PATH {
            return plain(StatusCode::NOT_FOUND, "Not Found: the MCP endpoint is /mcp");
        }
        if req.method() != Method::POST {
            let (parts, _) = req.into_parts();
            let closing = parts.method == Method::DELETE;
            let r = self.rmcp.handle(Request::from_parts(parts, empty())).await;
            return if closing { closed(r) } else { r };
        }
        let (parts, body) = req.into_parts();
        let bytes = match self.read_body(&parts.headers, body).await {
            Ok(b) => b,
            Err(response) => return response,
        };
        match verdict::judge(&bytes) {
            Verdict::Forward => {}
            Verdict::Reply(error) => return json_response(StatusCode::BAD_REQUEST, &error),
            Verdict::Drop => {
                return plain(
                    StatusCode::BAD_REQUEST,
                    "Bad Request: not a valid JSON-RPC notification or response",
                );
            }
        }
        let opens = initialize_id(&parts.headers, &bytes);
        let request = Request::from_parts(parts, Full::new(bytes));
        match opens {
            Some(id) => self.open_session(request, id).await,
            None => self.rmcp.handle(request).await,
        }
    }

    /// The whole body, within the size cap and the time bound.
    async fn read_body(
        &self,
        headers: &http::HeaderMap,
        body: Incoming,
    ) -> Result<Bytes, Response<Body>> {
        let too_large = || {
            let m = format!(
                "Payload Too Large: the request body is over the limit of {} bytes",
                self.max_body
            );
            plain(StatusCode::PAYLOAD_TOO_LARGE, &m)
        };
        let declared = headers
            .get(header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<u64>().ok());
        if declared.is_some_and(|n| n > self.max_body as u64) {
            return Err(too_large());
        }
        let read = Limited::new(body, self.max_body).collect();
        match tokio::time::timeout(BODY_TIMEOUT, read).await {
            Err(_) => Err(plain(
                StatusCode::REQUEST_TIMEOUT,
                "Request Timeout: the body did not arrive in time",
            )),
            Ok(Ok(collected)) => Ok(collected.to_bytes()),
            Ok(Err(e)) if e.is::<http_body_util::LengthLimitError>() => Err(too_large()),
            Ok(Err(_)) => Err(plain(
                StatusCode::BAD_REQUEST,
                "Bad Request: the body could not be read",
            )),
        }
    }

    /// An `initialize`: a new session, if there is room for one.
    async fn open_session(&self, request: Request<Full<Bytes>>, id: Value) -> Response<Body> {
        let _turn = self.opening.lock().await;
        let open = self.sessions.sessions.read().await.len();
        if open >= self.max_sessions {
            tracing::warn!(
                open,
                "refused a new MCP session: the session limit is reached"
            );
            let message = format!(
                "Server busy: {open} sessions are open, the limit (mcp.http.max_sessions); close \
                 one, or wait for an idle one to expire"
            );
            let error = verdict::error_reply(id, SERVER_BUSY, message, None);
            let mut r = json_response(StatusCode::SERVICE_UNAVAILABLE, &error);
            r.headers_mut()
                .insert(header::RETRY_AFTER, header::HeaderValue::from_static("30"));
            return r;
        }
        self.rmcp.handle(request).await
    }
}

/// The answer to a DELETE that closed its session: 204 No Content. rmcp answers 202 Accepted,
/// which the Python SDKs (1.x and 2.x) take for a failure: they accept only 200 or 204 and log
/// "Session termination failed: 202" on every clean close. Other answers (404 for an unknown
/// session, 400 without a session id) pass unchanged.
fn closed(r: Response<Body>) -> Response<Body> {
    if r.status() != StatusCode::ACCEPTED {
        return r;
    }
    let mut done = Response::new(empty().boxed());
    *done.status_mut() = StatusCode::NO_CONTENT;
    done
}

/// JSON-RPC error code of a refused `initialize` (implementation-defined server error range).
const SERVER_BUSY: i64 = -32000;

/// The id of a POST that opens a session: an `initialize` request without a session id.
fn initialize_id(headers: &http::HeaderMap, body: &[u8]) -> Option<Value> {
    if headers.contains_key("mcp-session-id") {
        return None;
    }
    let v: Value = serde_json::from_slice(body).ok()?;
    (v.get("method")?.as_str()? == "initialize").then(|| v.get("id").cloned())?
}

fn empty() -> Full<Bytes> {
    Full::new(Bytes::new())
}

fn plain(status: StatusCode, message: &str) -> Response<Body> {
    let mut r = Response::new(Full::new(Bytes::from(message.to_string())).boxed());
    *r.status_mut() = status;
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        header::HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    r
}

fn json_response(status: StatusCode, value: &Value) -> Response<Body> {
    let body = serde_json::to_vec(value).unwrap_or_else(|_| b"{}".to_vec());
    let mut r = Response::new(Full::new(Bytes::from(body)).boxed());
    *r.status_mut() = status;
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        header::HeaderValue::from_static("application/json"),
    );
    r
}

fn refused(r: Refusal) -> Response<Body> {
    match r {
        Refusal::BadHost => plain(
            StatusCode::BAD_REQUEST,
            "Bad Request: a Host header naming this server is required",
        ),
        Refusal::ForeignHost => plain(
            StatusCode::FORBIDDEN,
            "Forbidden: this server does not answer to that Host (DNS rebinding protection)",
        ),
        Refusal::ForeignOrigin => plain(
            StatusCode::FORBIDDEN,
            "Forbidden: requests from that Origin are not allowed",
        ),
        Refusal::NoToken | Refusal::WrongToken => {
            let challenge = if r == Refusal::WrongToken {
                "Bearer realm=\"smolweb\", error=\"invalid_token\""
            } else {
                "Bearer realm=\"smolweb\""
            };
            let mut resp = plain(
                StatusCode::UNAUTHORIZED,
                "Unauthorized: send Authorization: Bearer TOKEN (`smolweb mcp token` prints it)",
            );
            resp.headers_mut().insert(
                header::WWW_AUTHENTICATE,
                header::HeaderValue::from_static(challenge),
            );
            resp
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_initialize_is_told_from_other_messages() {
        let none = http::HeaderMap::new();
        let mut session = http::HeaderMap::new();
        session.insert("mcp-session-id", header::HeaderValue::from_static("abc"));
        let init = br#"{"jsonrpc":"2.0","id":7,"method":"initialize","params":{}}"#;
        assert_eq!(initialize_id(&none, init), Some(json!(7)));
        assert_eq!(initialize_id(&session, init), None);
        let list = br#"{"jsonrpc":"2.0","id":8,"method":"tools/list"}"#;
        assert_eq!(initialize_id(&none, list), None);
    }

    #[test]
    fn refusals_carry_their_status_and_challenge() {
        assert_eq!(
            refused(Refusal::ForeignHost).status(),
            StatusCode::FORBIDDEN
        );
        assert_eq!(
            refused(Refusal::ForeignOrigin).status(),
            StatusCode::FORBIDDEN
        );
        let r = refused(Refusal::WrongToken);
        assert_eq!(r.status(), StatusCode::UNAUTHORIZED);
        let challenge = r.headers()[header::WWW_AUTHENTICATE].to_str().unwrap();
        assert!(challenge.starts_with("Bearer "), "{challenge}");
    }
}
