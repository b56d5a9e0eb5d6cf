//! The checks every HTTP request passes before rmcp sees it, as pure functions of the headers:
//! the `Host` (DNS rebinding), the `Origin` (a web page in the person's browser) and the bearer
//! token (compared in constant time).
//!
//! - **Host**: the port must be the bound port, and the name `localhost`, a loopback address,
//!   or a name from `mcp.http.allowed_hosts`; when the server listens on a non-loopback
//!   address, any IP address too (a rebinding attack always carries a DNS name, which the
//!   browser puts in `Host`). Anything else is refused with 403, as the MCP transport
//!   specification's security warning asks (403 and not 421: the request did reach the server
//!   it named, but that name is not one this server answers to).
//! - **Origin**: absent is fine (not a browser); present, it must be `http://127.0.0.1:PORT`,
//!   `http://localhost:PORT`, `http://[::1]:PORT`, the bound address, or one of
//!   `mcp.http.allowed_origins`; else 403 (2025-11-25 spec, "Origin header validation").
//! - **Token**: `Authorization: Bearer TOKEN`. The comparison is an HMAC verification under a
//!   key drawn at start (ring's `hmac::verify`, constant time whatever the lengths), so no
//!   timing says how much of a guess was right.

use http::HeaderMap;
use ring::hmac;
use std::net::{IpAddr, SocketAddr};

/// What a request is checked against; built once when the server binds.
pub(super) struct Checks {
    port: u16,
    /// The listening address is not loopback (an explicit choice).
    remote: bool,
    hosts: Vec<String>,
    origins: Vec<String>,
    key: hmac::Key,
    tag: hmac::Tag,
}

/// Why a request was refused before rmcp saw it.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Refusal {
    /// No `Host` header, or one that is not an authority: 400.
    BadHost,
    /// A `Host` this server does not answer to: 403.
    ForeignHost,
    /// An `Origin` that is not allowed: 403.
    ForeignOrigin,
    /// No bearer token: 401.
    NoToken,
    /// A bearer token that is not this server's: 401.
    WrongToken,
}

impl Checks {
    /// Checks for a server bound at `bound` whose token is `token`; `hosts` and `origins` are
    /// the configured extras. None when the system random source failed.
    pub(super) fn new(
        bound: SocketAddr,
        token: &str,
        hosts: &[String],
        origins: &[String],
    ) -> Option<Checks> {
        let port = bound.port();
        let remote = !bound.ip().is_loopback();
        let mut allowed: Vec<String> = ["127.0.0.1", "localhost", "[::1]"]
            .iter()
            .map(|h| format!("http://{h}:{port}"))
            .collect();
        if !bound.ip().is_unspecified() {
            allowed.push(format!("http://{bound}"));
        }
        allowed.extend(origins.iter().map(|o| normalize_origin(o)));
        let key = hmac::Key::generate(hmac::HMAC_SHA256, &ring::rand::SystemRandom::new()).ok()?;
        let tag = hmac::sign(&key, token.as_bytes());
        Some(Checks {
            port,
            remote,
            hosts: hosts.iter().map(|h| h.to_ascii_lowercase()).collect(),
            origins: allowed,
            key,
            tag,
        })
    }

    /// All three checks, in order: Host, Origin, token.
    pub(super) fn check(&self, headers: &HeaderMap) -> Result<(), Refusal> {
        self.host(headers)?;
        self.origin(headers)?;
        self.token(headers)
    }

    fn host(&self, headers: &HeaderMap) -> Result<(), Refusal> {
        let value = headers
            .get(http::header::HOST)
            .and_then(|v| v.to_str().ok())
            .ok_or(Refusal::BadHost)?;
        let authority =
            http::uri::Authority::try_from(value.trim()).map_err(|_| Refusal::BadHost)?;
        if authority.port_u16().unwrap_or(80) != self.port {
            return Err(Refusal::ForeignHost);
        }
        let name = authority.host().to_ascii_lowercase();
        let bare = name.trim_start_matches('[').trim_end_matches(']');
        let ok = match bare.parse::<IpAddr>() {
            Ok(ip) => ip.is_loopback() || self.remote,
            Err(_) => name == "localhost" || self.hosts.contains(&name),
        };
        if ok {
            Ok(())
        } else {
            Err(Refusal::ForeignHost)
        }
    }

    fn origin(&self, headers: &HeaderMap) -> Result<(), Refusal> {
        let Some(value) = headers.get(http::header::ORIGIN) else {
            return Ok(());
        };
        let origin = value.to_str().map_err(|_| Refusal::ForeignOrigin)?;
        if self.origins.contains(&normalize_origin(origin)) {
            Ok(())
        } else {
            Err(Refusal::ForeignOrigin)
        }
    }

    fn token(&self, headers: &HeaderMap) -> Result<(), Refusal> {
        let value = headers
            .get(http::header::AUTHORIZATION)
            .ok_or(Refusal::NoToken)?
            .to_str()
            .map_err(|_| Refusal::WrongToken)?;
        let (scheme, token) = value.trim().split_once(' ').ok_or(Refusal::WrongToken)?;
        if !scheme.eq_ignore_ascii_case("bearer") {
            return Err(Refusal::NoToken);
        }
        hmac::verify(&self.key, token.trim().as_bytes(), self.tag.as_ref())
            .map_err(|_| Refusal::WrongToken)
    }
}

/// Lowercase, without a trailing slash (an origin has no path; some clients add one).
fn normalize_origin(origin: &str) -> String {
    origin.trim().trim_end_matches('/').to_ascii_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;
    use http::HeaderValue;

    const TOKEN: &str = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";

    fn checks(bound: &str) -> Checks {
        Checks::new(
            bound.parse().unwrap(),
            TOKEN,
            &["Box.Lan".into()],
            &["http://localhost:6274/".into()],
        )
        .unwrap()
    }

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.insert(*k, HeaderValue::from_str(v).unwrap());
        }
        h
    }

    fn with_token(host: &str, origin: Option<&str>) -> HeaderMap {
        let mut h = headers(&[("host", host)]);
        let bearer = HeaderValue::from_str(&format!("Bearer {TOKEN}")).unwrap();
        h.insert("authorization", bearer);
        if let Some(o) = origin {
            h.insert("origin", HeaderValue::from_str(o).unwrap());
        }
        h
    }

    #[test]
    fn hosts_on_loopback() {
        let c = checks("127.0.0.1:4000");
        for ok in [
            "127.0.0.1:4000",
            "localhost:4000",
            "LOCALHOST:4000",
            "[::1]:4000",
        ] {
            assert_eq!(c.check(&with_token(ok, None)), Ok(()), "{ok}");
        }
        assert_eq!(
            c.check(&with_token("box.lan:4000", None)),
            Ok(()),
            "configured"
        );
        for foreign in [
            "evil.example:4000",
            "localhost:4001",
            "localhost",
            "127.0.0.1",
            "192.168.1.5:4000",
            "localhost.evil.example:4000",
        ] {
            let r = c.check(&with_token(foreign, None));
            assert_eq!(r, Err(Refusal::ForeignHost), "{foreign}");
        }
        assert_eq!(c.check(&headers(&[])), Err(Refusal::BadHost));
        assert_eq!(
            c.check(&with_token("a b:4000", None)),
            Err(Refusal::BadHost)
        );
    }

    #[test]
    fn a_remote_bind_takes_ip_addresses_but_not_names() {
        let c = checks("0.0.0.0:4000");
        assert_eq!(c.check(&with_token("192.168.1.5:4000", None)), Ok(()));
        assert_eq!(
            c.check(&with_token("rebind.evil.example:4000", None)),
            Err(Refusal::ForeignHost)
        );
    }

    #[test]
    fn origins() {
        let c = checks("127.0.0.1:4000");
        let host = "127.0.0.1:4000";
        for ok in [
            "http://127.0.0.1:4000",
            "http://localhost:4000",
            "http://[::1]:4000",
            "HTTP://LOCALHOST:6274",
        ] {
            assert_eq!(c.check(&with_token(host, Some(ok))), Ok(()), "{ok}");
        }
        for bad in [
            "https://evil.example",
            "http://localhost:4001",
            "null",
            "https://localhost:4000",
        ] {
            let r = c.check(&with_token(host, Some(bad)));
            assert_eq!(r, Err(Refusal::ForeignOrigin), "{bad}");
        }
    }

    #[test]
    fn tokens() {
        let c = checks("127.0.0.1:4000");
        let host = ("host", "127.0.0.1:4000");
        assert_eq!(c.check(&headers(&[host])), Err(Refusal::NoToken));
        let wrong = format!("Bearer {}", &TOKEN[1..]);
        for (value, want) in [
            (wrong.as_str(), Refusal::WrongToken),
            ("Bearer", Refusal::WrongToken),
            ("Basic dXNlcjpwYXNz", Refusal::NoToken),
            ("Bearer 00112233", Refusal::WrongToken),
        ] {
            let h = headers(&[host, ("authorization", value)]);
            assert_eq!(c.check(&h), Err(want), "{value}");
        }
        let lower = format!("bearer  {TOKEN}");
        assert_eq!(
            c.check(&headers(&[host, ("authorization", &lower)])),
            Ok(())
        );
    }
}
