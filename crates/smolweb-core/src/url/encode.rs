//! Percent-encoding and path helpers for [`super::Url`].
//!
//! Invariants: output of the `normalize_*` functions is pure ASCII, every `%` starts a valid
//! triplet with uppercase hex digits, unreserved characters are never encoded, and applying a
//! normalizer twice gives the same string (the Display/parse round trip relies on it).

/// RFC 3986 unreserved: ALPHA / DIGIT / "-" / "." / "_" / "~".
pub(super) fn is_unreserved(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~')
}

/// RFC 3986 sub-delims plus ":" and "@" (pchar without unreserved and pct-encoded).
fn is_pchar_extra(b: u8) -> bool {
    matches!(
        b,
        b'!' | b'$' | b'&' | b'\'' | b'(' | b')' | b'*' | b'+' | b',' | b';' | b'=' | b':' | b'@'
    )
}

fn hex_val(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

const HEX: &[u8; 16] = b"0123456789ABCDEF";

fn push_pct(out: &mut String, b: u8) {
    out.push('%');
    out.push(char::from(HEX[usize::from(b >> 4)]));
    out.push(char::from(HEX[usize::from(b & 0x0f)]));
}

/// The byte a valid `%XX` triplet at `i` stands for.
fn triplet_at(bytes: &[u8], i: usize) -> Option<u8> {
    if bytes.get(i) != Some(&b'%') {
        return None;
    }
    let hi = hex_val(*bytes.get(i + 1)?)?;
    let lo = hex_val(*bytes.get(i + 2)?)?;
    Some(hi << 4 | lo)
}

/// Normalize a path (`query == false`) or query component: keep allowed characters and valid
/// `%XX` (uppercased; decoded when it stands for an unreserved character), encode the rest
/// (space, non-ASCII, `"<>\^`{|}`, a stray `%`, ...).
pub(super) fn normalize_component(s: &str, query: bool) -> String {
    let bytes = s.as_bytes();
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if let Some(v) = triplet_at(bytes, i) {
            if is_unreserved(v) {
                out.push(char::from(v));
            } else {
                push_pct(&mut out, v);
            }
            i += 3;
            continue;
        }
        let keep = is_unreserved(b) || is_pchar_extra(b) || b == b'/' || (query && b == b'?');
        if keep {
            out.push(char::from(b));
        } else {
            push_pct(&mut out, b);
        }
        i += 1;
    }
    out
}

/// Encode every byte but RFC 3986 unreserved characters (space becomes `%20`).
pub(super) fn encode_all(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for &b in s.as_bytes() {
        if is_unreserved(b) {
            out.push(char::from(b));
        } else {
            push_pct(&mut out, b);
        }
    }
    out
}

/// Encode a gopher selector for a URL path: like [`encode_all`] but "/" and the harmless
/// sub-delims stay readable. `%`, `?`, `#`, TAB and spaces are always encoded.
pub(super) fn encode_selector(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for &b in s.as_bytes() {
        if is_unreserved(b) || is_pchar_extra(b) || b == b'/' {
            out.push(char::from(b));
        } else {
            push_pct(&mut out, b);
        }
    }
    out
}

/// Decode `%XX` triplets to bytes; malformed escapes stay as written.
pub(super) fn decode_bytes(s: &str) -> Vec<u8> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if let Some(v) = triplet_at(bytes, i) {
            out.push(v);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    out
}

/// Percent-decode to a string (invalid UTF-8 replaced by U+FFFD).
pub(super) fn decode_lossy(s: &str) -> String {
    String::from_utf8_lossy(&decode_bytes(s)).into_owned()
}

/// RFC 3986 section 5.2.4: remove "." and ".." segments. The result of an absolute path is
/// absolute; ".." never climbs above the root.
pub(super) fn remove_dot_segments(path: &str) -> String {
    let mut out: Vec<&str> = Vec::new();
    let absolute = path.starts_with('/');
    let body = if absolute { &path[1..] } else { path };
    let segs: Vec<&str> = body.split('/').collect();
    let last = segs.len().saturating_sub(1);
    let mut trailing_slash = false;
    for (i, seg) in segs.iter().enumerate() {
        match *seg {
            "." => trailing_slash = i == last,
            ".." => {
                out.pop();
                trailing_slash = i == last;
            }
            s => {
                out.push(s);
                trailing_slash = false;
            }
        }
    }
    let mut res = String::with_capacity(path.len());
    if absolute {
        res.push('/');
    }
    res.push_str(&out.join("/"));
    if trailing_slash && !res.ends_with('/') {
        res.push('/');
    }
    res
}

/// RFC 3986 section 5.2.3: merge a relative path with the base path.
pub(super) fn merge_paths(base: &str, reference: &str) -> String {
    match base.rfind('/') {
        Some(i) => format!("{}{}", &base[..=i], reference),
        None => format!("/{reference}"),
    }
}
