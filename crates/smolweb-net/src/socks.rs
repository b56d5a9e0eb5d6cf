//! SOCKS5 (RFC 1928): a TCP connection to a destination through the proxy of
//! `[network] socks5`, for every protocol over TCP (the web's is reqwest's, `net::http`).
//!
//! Invariants:
//! - The destination is sent as the proxy's to resolve: a host name with the domain-name
//!   address type (3), an IP literal as itself (type 1 or 4). Nothing is looked up here: under
//!   a proxy smolweb sends no DNS query for a destination, and connects only to the proxy (an
//!   IP address and port from the person's config, so reaching it needs no lookup either).
//! - No authentication is offered ("no authentication required", method 0 alone); a proxy that
//!   wants a user name and password is told no and refused with [`ProxyError::AuthRequired`].
//! - The exchange is bounded: the proxy's answers are read field by field at their fixed or
//!   announced sizes (at most 262 bytes in all); the caller holds the timeout.
//! - What the guard can judge without the address (the port, IP literals, metadata and local
//!   names) is judged before this is called (`guard::check_unresolved`).

use super::{FetchError, ProxyError, RequestError};
use std::net::{IpAddr, SocketAddr};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// The protocol version byte.
const VERSION: u8 = 5;
/// "No authentication required".
const NO_AUTH: u8 = 0;
/// "No acceptable methods".
const NO_METHOD: u8 = 0xff;
/// The CONNECT command.
const CONNECT: u8 = 1;
/// Address types.
const IPV4: u8 = 1;
const DOMAIN: u8 = 3;
const IPV6: u8 = 4;
/// The longest name the domain address type carries (its length is one byte).
pub(crate) const MAX_NAME_BYTES: usize = 255;

/// The method negotiation a client opens with (pure): version, one method, no authentication.
pub(crate) fn greeting() -> [u8; 3] {
    [VERSION, 1, NO_AUTH]
}

/// The CONNECT request for `host:port` (pure): an IP literal (brackets or not) as an address,
/// anything else as a name the proxy resolves.
pub(crate) fn connect_request(host: &str, port: u16) -> Result<Vec<u8>, FetchError> {
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    let mut out = vec![VERSION, CONNECT, 0];
    match bare.parse::<IpAddr>() {
        Ok(IpAddr::V4(v4)) => {
            out.push(IPV4);
            out.extend_from_slice(&v4.octets());
        }
        Ok(IpAddr::V6(v6)) => {
            out.push(IPV6);
            out.extend_from_slice(&v6.octets());
        }
        Err(_) => {
            let name = bare.as_bytes();
            if name.is_empty() || name.len() > MAX_NAME_BYTES {
                let (what, len, limit) =
                    ("host name sent to the proxy", name.len(), MAX_NAME_BYTES);
                return Err(RequestError::TooLong { what, len, limit }.into());
            }
            out.push(DOMAIN);
            out.push(name.len() as u8);
            out.extend_from_slice(name);
        }
    }
    out.extend_from_slice(&port.to_be_bytes());
    Ok(out)
}

/// Connect to `host:port` through the SOCKS5 proxy at `proxy`. The caller holds the timeout.
pub(crate) async fn connect(
    proxy: SocketAddr,
    host: &str,
    port: u16,
) -> Result<TcpStream, FetchError> {
    let fail = |reason: ProxyError| FetchError::Proxy { proxy, reason };
    let request = connect_request(host, port)?;
    let mut stream = TcpStream::connect(proxy)
        .await
        .map_err(|e| fail(ProxyError::Unreachable(e.into())))?;
    // Small request, small answers: never wait for Nagle.
    let _ = stream.set_nodelay(true);
    let broke = |e: std::io::Error| fail(ProxyError::Broke(e.into()));
    stream.write_all(&greeting()).await.map_err(broke)?;
    let mut chosen = [0u8; 2];
    stream.read_exact(&mut chosen).await.map_err(broke)?;
    match chosen {
        [VERSION, NO_AUTH] => {}
        [VERSION, NO_METHOD] => return Err(fail(ProxyError::AuthRequired)),
        _ => return Err(fail(ProxyError::NotSocks5)),
    }
    stream.write_all(&request).await.map_err(broke)?;
    let mut head = [0u8; 4];
    stream.read_exact(&mut head).await.map_err(broke)?;
    if head[0] != VERSION {
        return Err(fail(ProxyError::NotSocks5));
    }
    if head[1] != 0 {
        return Err(fail(ProxyError::Refused {
            host: host.to_string(),
            port,
            reply: head[1],
        }));
    }
    // The address the proxy bound for us: read and dropped (its length says how much).
    let skip = match head[3] {
        IPV4 => 4 + 2,
        IPV6 => 16 + 2,
        DOMAIN => {
            let mut len = [0u8; 1];
            stream.read_exact(&mut len).await.map_err(broke)?;
            usize::from(len[0]) + 2
        }
        _ => return Err(fail(ProxyError::NotSocks5)),
    };
    let mut bound = [0u8; MAX_NAME_BYTES + 2];
    stream.read_exact(&mut bound[..skip]).await.map_err(broke)?;
    Ok(stream)
}

/// A reply code in plain words (RFC 1928 section 6).
pub(crate) fn reply_words(reply: u8) -> &'static str {
    match reply {
        1 => "the proxy failed (general failure)",
        2 => "the proxy's rules do not allow that connection",
        3 => "the network is unreachable from the proxy",
        4 => "the host is unreachable from the proxy (or its name did not resolve there)",
        5 => "the host refused the connection",
        6 => "the connection timed out at the proxy",
        7 => "the proxy does not support CONNECT",
        8 => "the proxy does not support that address type",
        _ => "the proxy answered with an unknown reply code",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_go_as_names_and_literals_as_addresses() {
        assert_eq!(greeting(), [5, 1, 0]);
        let name = connect_request("capsule.onion", 1965).unwrap();
        let mut want = vec![5, 1, 0, 3, 13];
        want.extend_from_slice(b"capsule.onion");
        want.extend_from_slice(&1965u16.to_be_bytes());
        assert_eq!(name, want);
        assert_eq!(
            connect_request("10.1.2.3", 70).unwrap(),
            [5, 1, 0, 1, 10, 1, 2, 3, 0, 70]
        );
        let v6 = connect_request("[::1]", 443).unwrap();
        assert_eq!(v6[3], 4);
        assert_eq!(v6.len(), 4 + 16 + 2);
        assert_eq!(v6[4 + 15], 1);
        let long = "a".repeat(256);
        assert!(connect_request(&long, 1).is_err());
        assert!(connect_request("", 1).is_err());
    }

    #[test]
    fn every_reply_code_has_words() {
        for code in 1..=9u8 {
            assert!(!reply_words(code).is_empty());
        }
        assert!(reply_words(2).contains("rules"));
    }
}
