//! The absolute-URL parser behind [`Url::parse`]: split, check, normalize.
//!
//! Order: trim, refuse control characters, scheme, drop fragment, authority (userinfo refused,
//! host IDNA-normalized or an IPv6 literal, port), then path and query normalization.

use super::encode::{decode_bytes, normalize_component, remove_dot_segments};
use super::{Scheme, Url, UrlError};

/// The scheme of `s` when it starts with `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"`.
pub(super) fn scheme_of(s: &str) -> Option<&str> {
    let colon = s.find(':')?;
    let scheme = &s[..colon];
    let mut chars = scheme.chars();
    let first = chars.next()?;
    let valid = first.is_ascii_alphabetic()
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    valid.then_some(scheme)
}

pub(super) fn parse_absolute(input: &str) -> Result<Url, UrlError> {
    let s = input.trim();
    if s.is_empty() {
        return Err(UrlError::Empty);
    }
    if s.contains(['\r', '\n', '\t', '\0']) {
        return Err(UrlError::ControlCharacter("a URL"));
    }
    let scheme_str = scheme_of(s).ok_or_else(|| UrlError::NotAbsolute(s.to_string()))?;
    let scheme = Scheme::from_name(scheme_str)
        .ok_or_else(|| UrlError::UnsupportedScheme(scheme_str.to_string()))?;
    let rest = &s[scheme_str.len() + 1..];
    let rest = rest.split('#').next().unwrap_or("");
    if scheme == Scheme::About {
        return parse_about(rest);
    }
    let rest = rest.strip_prefix("//").ok_or(UrlError::MissingHost)?;
    let auth_end = rest.find(['/', '?']).unwrap_or(rest.len());
    let (authority, tail) = rest.split_at(auth_end);
    let (authority, finger_user) = match (scheme, authority.rsplit_once('@')) {
        // finger://user@host is finger://host/user (and user@h1@h2 a forwarding query).
        (Scheme::Finger, Some((user, host))) => (host, Some(user)),
        _ => (authority, None),
    };
    let (host, port) = parse_authority(authority, scheme)?;
    let finger_path;
    let tail = match finger_user {
        Some(user) if tail.is_empty() || tail == "/" => {
            finger_path = format!("/{user}");
            finger_path.as_str()
        }
        Some(_) => return Err(UrlError::Userinfo),
        None => tail,
    };
    let (path, query) = match tail.split_once('?') {
        Some((p, q)) => (p, Some(q)),
        None => (tail, None),
    };
    // Normalize before removing dot segments: "%2E%2E" decodes to "..", which must go too.
    let path = normalize_component(path, false);
    let path = match (scheme, path.as_str()) {
        (_, "") => "/".to_string(),
        // A selector or a finger query is opaque; every other path is hierarchical.
        (Scheme::Gopher | Scheme::Gophers | Scheme::Finger, _) => path,
        _ => remove_dot_segments(&path),
    };
    Ok(Url {
        scheme,
        host,
        port,
        path,
        query: query.map(|q| normalize_component(q, true)),
    })
}

/// `about:NAME[?query]`: the name is lowercased and kept as the path.
fn parse_about(rest: &str) -> Result<Url, UrlError> {
    let (name, query) = match rest.split_once('?') {
        Some((n, q)) => (n, Some(q)),
        None => (rest, None),
    };
    if name.is_empty() || name.starts_with('/') {
        return Err(UrlError::Invalid(format!("about:{rest}")));
    }
    Ok(Url {
        scheme: Scheme::About,
        host: String::new(),
        port: 0,
        path: normalize_component(name, false).to_ascii_lowercase(),
        query: query.map(|q| normalize_component(q, true)),
    })
}

fn parse_authority(authority: &str, scheme: Scheme) -> Result<(String, u16), UrlError> {
    if authority.contains('@') {
        return Err(UrlError::Userinfo);
    }
    let (host, port) = if let Some(inner) = authority.strip_prefix('[') {
        let (lit, after) = inner
            .split_once(']')
            .ok_or_else(|| UrlError::InvalidHost(authority.to_string()))?;
        let port = match after {
            "" => None,
            p => Some(
                p.strip_prefix(':')
                    .ok_or_else(|| UrlError::InvalidPort(p.to_string()))?,
            ),
        };
        (ipv6_host(lit)?, port)
    } else {
        let (h, p) = match authority.split_once(':') {
            Some((h, p)) => (h, Some(p)),
            None => (authority, None),
        };
        (domain_host(h)?, p)
    };
    let port = match port {
        None | Some("") => scheme.default_port(),
        Some(p) => parse_port(p)?,
    };
    Ok((host, port))
}

pub(super) fn parse_port(p: &str) -> Result<u16, UrlError> {
    let bad = || UrlError::InvalidPort(p.to_string());
    if !p.bytes().all(|b| b.is_ascii_digit()) || p.len() > 5 {
        return Err(bad());
    }
    match p.parse::<u16>() {
        Ok(0) | Err(_) => Err(bad()),
        Ok(n) => Ok(n),
    }
}

pub(super) fn ipv6_host(lit: &str) -> Result<String, UrlError> {
    lit.parse::<::core::net::Ipv6Addr>()
        .map(|a| a.to_string())
        .map_err(|_| UrlError::InvalidHost(lit.to_string()))
}

/// Percent-decode, IDNA-map (lowercase, punycode) and check a registered name. Final dots
/// (the DNS root, `example.org.`) are dropped after mapping: they name the same host.
pub(super) fn domain_host(h: &str) -> Result<String, UrlError> {
    if h.is_empty() {
        return Err(UrlError::MissingHost);
    }
    let invalid = || UrlError::InvalidHost(h.to_string());
    let decoded = String::from_utf8(decode_bytes(h)).map_err(|_| invalid())?;
    let ascii = idna::domain_to_ascii(&decoded).map_err(|_| invalid())?;
    let ascii = match ascii.trim_end_matches('.') {
        "" => ascii,
        trimmed => trimmed.to_string(),
    };
    let ok = !ascii.is_empty()
        && ascii.bytes().all(|b| {
            b.is_ascii_lowercase() || b.is_ascii_digit() || matches!(b, b'-' | b'.' | b'_')
        });
    if ok { Ok(ascii) } else { Err(invalid()) }
}
