//! The Gemini fetcher: guard -> TCP (nodelay) -> TLS with the TOFU verifier, the request line
//! queued so it leaves with the handshake's last flight -> header (CRLF within 1024 bytes of
//! meta + 5) -> body (2x only, bounded by `max_body`).
//!
//! Invariants: one timeout budget (`opts.timeout`) covers DNS, connect, TLS and transfer; the
//! request line is only ever sent after the verifier accepted the certificate (a resumed
//! session is checked against the current pin before connecting and again after); a closed
//! connection without close_notify after a complete header ends the body, and the answer
//! records it (`GeminiResponse::ending`).

mod first_bytes;
mod header;

use first_bytes::FirstBytes;
pub(crate) use header::read_header;

/// A TLS connection over TCP, its first bytes kept (see [`FirstBytes`]).
pub(crate) type Stream = TlsStream<FirstBytes>;

use super::tls::identity::{self, ChosenIdentity};
use super::tls::{CONNECTION, Connection, Slot, VerifyOutcome, cert_details};
use super::{
    CertStoreError, ClientCertError, FetchError, GeminiResponse, Heard, Net, NetOptions,
    RequestError, TlsError, TlsInfo, TofuState, guard,
};
use rustls::pki_types::ServerName;
use rustls::{AlertDescription, PeerIncompatible, ProtocolVersion};
use smolweb_core::response::StatusClass;
use smolweb_core::url::{Scheme, Url};
use std::sync::atomic::Ordering;
use std::sync::{Arc, PoisonError};
use tokio::io::AsyncWriteExt;
use tokio_rustls::TlsConnector;
use tokio_rustls::client::TlsStream;

/// Fetch a gemini:// URL within `opts.timeout`.
pub(crate) async fn fetch(
    net: &Net,
    url: &Url,
    opts: &NetOptions,
) -> Result<GeminiResponse, FetchError> {
    if url.scheme() != Scheme::Gemini {
        let url = url.without_query();
        return Err(RequestError::WrongScheme {
            expected: "gemini",
            url,
        }
        .into());
    }
    let request = url.gemini_request().map_err(RequestError::from)?;
    let target = Target {
        host: url.host(),
        port: url.port(),
        path: url.path(),
    };
    tokio::time::timeout(opts.timeout, fetch_in_budget(net, &target, &request, opts))
        .await
        .unwrap_or(Err(FetchError::Timeout(opts.timeout)))
}

/// Where a TLS request goes: host and port (the pin's key), and the path (for the identity's
/// scope and messages).
pub(crate) struct Target<'a> {
    pub(crate) host: &'a str,
    pub(crate) port: u16,
    pub(crate) path: &'a str,
}

async fn fetch_in_budget(
    net: &Net,
    t: &Target<'_>,
    request: &str,
    opts: &NetOptions,
) -> Result<GeminiResponse, FetchError> {
    let (mut tls, info) = open_tls(net, t, Some(t.path), request, opts).await?;
    let io_err = |e| read_error(e, t);
    let (header, rest) = read_header(&mut tls, io_err).await?;
    let mut body = Vec::new();
    let mut ending = super::Ending::Clean;
    if header.class() == StatusClass::Success {
        body = rest;
        let progress = opts.progress.as_ref();
        ending = super::read_body(&mut tls, &mut body, opts.max_body, progress, io_err).await?;
    }
    Ok(GeminiResponse {
        header,
        body,
        tls: info,
        ending,
    })
}

/// Guard, TCP, and a TLS handshake judged by TOFU with `request` (its CRLF added here) queued
/// to leave with the handshake's last flight, then flushed. `identity_path`: present the
/// identity whose scope covers that path on this host and port (Gemini, Titan); None presents
/// none (Scroll, gophers). Shared by every protocol over TLS, so each has the one verifier,
/// the one pin per host and port, and the one session cache.
pub(crate) async fn open_tls(
    net: &Net,
    t: &Target<'_>,
    identity_path: Option<&str>,
    request: &str,
    opts: &NetOptions,
) -> Result<(Stream, TlsInfo), FetchError> {
    let name = ServerName::try_from(t.host.to_string())
        .map_err(|_| RequestError::HostName(t.host.to_string()))?;
    let addrs = guard::resolve_checked(t.host, t.port, opts).await?;
    let chosen = match identity_path {
        Some(path) => match identity::choose(&net.identities, t.host, t.port, path, opts)? {
            Some(id) => Some(identity::load(&net.tls, &net.identities, &id)?),
            None => None,
        },
        None => None,
    };
    let tcp = super::connect(t.host, t.port, &addrs).await?;
    let (mut tls, ctx) = handshake(net, t, name, tcp, request, chosen.as_ref(), opts).await?;
    let info = session_info(net, t, &tls, &ctx, chosen.as_ref(), opts)?;
    tls.flush().await.map_err(|e| read_error(e, t))?;
    Ok((tls, info))
}

/// TLS handshake with the request line queued in the connection's writer.
async fn handshake(
    net: &Net,
    t: &Target<'_>,
    name: ServerName<'static>,
    tcp: tokio::net::TcpStream,
    request: &str,
    chosen: Option<&ChosenIdentity>,
    opts: &NetOptions,
) -> Result<(Stream, Arc<Connection>), FetchError> {
    let id_fp = chosen.map(|c| c.fingerprint.as_str());
    let pinned = net
        .known_hosts
        .get(t.host, t.port)
        .ok()
        .flatten()
        .map(|p| p.fingerprint);
    net.tls
        .prepare_resumption(id_fp, &name, t.host, t.port, pinned.as_deref());
    let ctx = Arc::new(Connection {
        host: t.host.to_string(),
        port: t.port,
        trust_once: opts.trust_once.clone(),
        ..Connection::default()
    });
    let config = net
        .tls
        .client_config(chosen, opts.allow_client_cert_over_tls12, t.port)?;
    let line = format!("{request}\r\n");
    let (tcp, heard) = FirstBytes::new(tcp);
    let connecting = TlsConnector::from(Arc::new(config)).connect_with(name, tcp, |conn| {
        use std::io::Write;
        // Buffered by rustls until the handshake completes; cannot fail below its limit.
        let _ = conn.writer().write_all(line.as_bytes());
    });
    match CONNECTION.scope(ctx.clone(), connecting).await {
        Ok(stream) => Ok((stream, ctx)),
        Err(e) => {
            let first = heard.lock().unwrap_or_else(PoisonError::into_inner).clone();
            Err(handshake_error(e, &ctx.slot, chosen.is_some(), t, &first))
        }
    }
}

fn take(slot: &Slot) -> Option<VerifyOutcome> {
    slot.lock().unwrap_or_else(PoisonError::into_inner).take()
}

fn rustls_error(e: &std::io::Error) -> Option<&rustls::Error> {
    e.get_ref()
        .and_then(|inner| inner.downcast_ref::<rustls::Error>())
}

fn handshake_error(
    e: std::io::Error,
    slot: &Slot,
    identity: bool,
    t: &Target<'_>,
    first: &[u8],
) -> FetchError {
    if let Some(VerifyOutcome::Refused(err)) = take(slot) {
        return err;
    }
    if let Some(tls) = rustls_error(&e) {
        if matches!(
            tls,
            rustls::Error::InvalidMessage(rustls::InvalidMessage::InvalidContentType)
        ) {
            // Not a TLS record at all: another protocol answered on this port.
            return TlsError::NotTls {
                host: t.host.to_string(),
                port: t.port,
                heard: Heard::of(first),
            }
            .into();
        }
        let version_mismatch = matches!(
            tls,
            rustls::Error::AlertReceived(AlertDescription::ProtocolVersion)
                | rustls::Error::PeerIncompatible(
                    PeerIncompatible::ServerDoesNotSupportTls12Or13
                        | PeerIncompatible::ServerTlsVersionIsDisabledByOurConfig
                        | PeerIncompatible::SupportedVersionsExtensionRequired
                        | PeerIncompatible::Tls12NotOffered
                        | PeerIncompatible::Tls12NotOfferedOrEnabled
                )
        );
        if identity && version_mismatch {
            return ClientCertError::NeedsTls13 {
                host: t.host.to_string(),
                port: t.port,
            }
            .into();
        }
        return TlsError::Rustls(tls.clone()).into();
    }
    match e.kind() {
        std::io::ErrorKind::UnexpectedEof => TlsError::ClosedInHandshake.into(),
        std::io::ErrorKind::InvalidData => TlsError::Stream(Arc::new(e)).into(),
        _ => FetchError::connection(t.host, t.port, e),
    }
}

pub(crate) fn read_error(e: std::io::Error, t: &Target<'_>) -> FetchError {
    match rustls_error(&e) {
        Some(tls) => TlsError::Rustls(tls.clone()).into(),
        None if e.kind() == std::io::ErrorKind::InvalidData => TlsError::Stream(Arc::new(e)).into(),
        None => FetchError::connection(t.host, t.port, e),
    }
}

/// TLS facts of the finished handshake; for a resumed session (no verifier call) the peer
/// certificate is checked against the current pin.
fn session_info(
    net: &Net,
    t: &Target<'_>,
    tls: &Stream,
    ctx: &Connection,
    chosen: Option<&ChosenIdentity>,
    opts: &NetOptions,
) -> Result<TlsInfo, FetchError> {
    let conn = tls.get_ref().1;
    tracing::debug!(kind = ?conn.handshake_kind(), host = t.host, port = t.port, "TLS handshake done");
    let id_fp = chosen.map(|c| c.fingerprint.as_str());
    let peer = conn
        .peer_certificates()
        .and_then(|c| c.first())
        .ok_or(TlsError::NoCertificate)?;
    let (cert, tofu, resumed, pin_warning) = match take(&ctx.slot) {
        Some(VerifyOutcome::Accepted {
            cert,
            tofu,
            pin_not_saved,
        }) => {
            net.tls
                .remember_session_cert(id_fp, t.host, t.port, &cert.fingerprint);
            (cert, tofu, false, pin_not_saved)
        }
        Some(VerifyOutcome::Refused(err)) => return Err(err),
        None => {
            let cert = cert_details(peer.as_ref())?;
            let tofu = resumed_tofu(net, t, &cert, opts)?;
            (cert, tofu, true, None)
        }
    };
    let version = match conn.protocol_version() {
        Some(ProtocolVersion::TLSv1_3) => "TLSv1.3",
        Some(ProtocolVersion::TLSv1_2) => "TLSv1.2",
        _ => "unknown",
    };
    let cipher = conn
        .negotiated_cipher_suite()
        .and_then(|s| s.suite().as_str())
        .unwrap_or("unknown");
    let presented = chosen.filter(|_| ctx.presented.load(Ordering::SeqCst) || resumed);
    let warning = match presented {
        Some(c) if version != "TLSv1.3" => Some(format!(
            "the identity '{}' was sent over {version}, which does not encrypt client \
             certificates",
            c.name
        )),
        _ => None,
    };
    Ok(TlsInfo {
        version: version.into(),
        cipher: cipher.into(),
        cert_fingerprint: cert.fingerprint.clone(),
        cert_not_after: super::tls::verifier::rfc3339(cert.not_after),
        tofu,
        client_cert: presented.map(|c| c.fingerprint.clone()),
        client_cert_warning: warning,
        pin_warning,
        root: None,
    })
}

/// The TOFU state of a resumed session: its certificate must still be the pinned one (or the
/// one the human trusts once).
fn resumed_tofu(
    net: &Net,
    t: &Target<'_>,
    cert: &smolweb_store::tofu::CertInfo,
    opts: &NetOptions,
) -> Result<TofuState, FetchError> {
    let pin = net
        .known_hosts
        .get(t.host, t.port)
        .map_err(CertStoreError::from)?;
    match pin {
        Some(pin) if pin.fingerprint == cert.fingerprint => Ok(TofuState::Trusted),
        _ if opts.trust_once.as_deref() == Some(cert.fingerprint.as_str()) => {
            Ok(TofuState::TrustedOnce)
        }
        pin => {
            net.forget_sessions();
            Err(FetchError::CertificateChanged {
                change: Box::new(super::CertChange {
                    host: t.host.to_string(),
                    port: t.port,
                    pinned: pin
                        .as_ref()
                        .map_or_else(|| "none".into(), |p| p.fingerprint.clone()),
                    presented: cert.fingerprint.clone(),
                    pinned_not_after: pin
                        .and_then(|p| p.not_after)
                        .map_or_else(|| "unknown".into(), super::tls::verifier::rfc3339),
                    presented_not_after: super::tls::verifier::rfc3339(cert.not_after),
                }),
            })
        }
    }
}
