//! Which character encoding a web body is in, and decoding it.
//!
//! Order of evidence: the Content-Type `charset` parameter, then a byte-order mark, then (HTML
//! only) a `<meta charset>` or `<meta http-equiv="Content-Type">` in the first 1024 bytes, then
//! a statistical guess (chardetng), then UTF-8. Labels are read by the WHATWG Encoding
//! Standard (encoding_rs), so `iso-8859-1` means windows-1252 as browsers do. Decoding never
//! fails: malformed sequences become U+FFFD.

use encoding_rs::Encoding;

/// How far into the body a `<meta charset>` is looked for.
const META_PRESCAN_BYTES: usize = 1024;

/// Where the encoding came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    ContentType,
    Bom,
    Meta,
    Guess,
    Default,
}

/// A decoded body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decoded {
    pub text: String,
    /// The WHATWG name of the encoding used ("UTF-8", "windows-1252", ...).
    pub encoding: &'static str,
    pub source: Source,
}

/// Pick the encoding of `bytes` (see the module docs). `declared` is the Content-Type charset.
pub fn detect(bytes: &[u8], declared: Option<&str>, html: bool) -> (&'static Encoding, Source) {
    if let Some(enc) = declared.and_then(|l| Encoding::for_label(l.trim().as_bytes())) {
        return (enc, Source::ContentType);
    }
    if let Some((enc, _)) = Encoding::for_bom(bytes) {
        return (enc, Source::Bom);
    }
    if html && let Some(enc) = meta_charset(bytes) {
        return (enc, Source::Meta);
    }
    if std::str::from_utf8(bytes).is_ok() {
        return (encoding_rs::UTF_8, Source::Default);
    }
    let mut detector = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
    detector.feed(bytes, true);
    (
        detector.guess(None, chardetng::Utf8Detection::Allow),
        Source::Guess,
    )
}

/// Decode `bytes` (see the module docs).
pub fn decode(bytes: &[u8], declared: Option<&str>, html: bool) -> Decoded {
    let (enc, source) = detect(bytes, declared, html);
    let body = match Encoding::for_bom(bytes) {
        Some((bom_enc, len)) if bom_enc == enc => &bytes[len..],
        _ => bytes,
    };
    let (text, _) = enc.decode_without_bom_handling(body);
    Decoded {
        text: text.into_owned(),
        encoding: enc.name(),
        source,
    }
}

/// Decode `bytes`, taking them: when they are UTF-8 already (by the evidence of
/// [`detect`], without a byte-order mark) they become the text as they are, without a copy, and
/// `Decoded::text.into_bytes()` gives them back unchanged. Otherwise they are returned.
pub fn decode_in_place(
    bytes: Vec<u8>,
    declared: Option<&str>,
    html: bool,
) -> Result<Decoded, Vec<u8>> {
    let (enc, source) = detect(&bytes, declared, html);
    if enc != encoding_rs::UTF_8 || bytes.starts_with(b"\xEF\xBB\xBF") {
        return Err(bytes);
    }
    match String::from_utf8(bytes) {
        Ok(text) => Ok(Decoded {
            text,
            encoding: enc.name(),
            source,
        }),
        Err(e) => Err(e.into_bytes()),
    }
}

/// The encoding a `<meta>` in the first bytes names (a byte scan, as the HTML prescan does:
/// `charset=` inside a `<meta` tag).
fn meta_charset(bytes: &[u8]) -> Option<&'static Encoding> {
    let head = &bytes[..bytes.len().min(META_PRESCAN_BYTES)];
    let lower: Vec<u8> = head.iter().map(u8::to_ascii_lowercase).collect();
    let mut from = 0;
    while let Some(at) = find(&lower[from..], b"<meta") {
        let start = from + at;
        let end = find(&lower[start..], b">").map_or(lower.len(), |e| start + e);
        let tag = &lower[start..end];
        if let Some(c) = find(tag, b"charset") {
            let rest = &tag[c + 7..];
            let rest = trim_start(rest);
            if let Some(rest) = rest.strip_prefix(b"=") {
                let rest = trim_start(rest);
                let rest = rest
                    .strip_prefix(b"\"")
                    .or_else(|| rest.strip_prefix(b"'"))
                    .unwrap_or(rest);
                let len = rest
                    .iter()
                    .position(|b| matches!(b, b'"' | b'\'' | b';' | b' ' | b'/' | b'>'))
                    .unwrap_or(rest.len());
                if let Some(enc) = Encoding::for_label(&rest[..len]) {
                    // A page that claims UTF-16 in ASCII bytes is not UTF-16.
                    return Some(
                        if enc == encoding_rs::UTF_16LE || enc == encoding_rs::UTF_16BE {
                            encoding_rs::UTF_8
                        } else {
                            enc
                        },
                    );
                }
            }
        }
        from = end.max(start + 1);
    }
    None
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

fn trim_start(b: &[u8]) -> &[u8] {
    let n = b.iter().take_while(|c| c.is_ascii_whitespace()).count();
    &b[n..]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[allow(clippy::unwrap_used)]
    fn in_place_only_for_utf8_and_same_as_decode() {
        let utf8 = "<p>café ☕</p>".as_bytes().to_vec();
        let d = decode_in_place(utf8.clone(), None, true).unwrap();
        assert_eq!(d, decode(&utf8, None, true));
        assert_eq!(d.text.into_bytes(), utf8);
        let latin1 = b"<meta charset=\"iso-8859-1\"><p>caf\xe9</p>".to_vec();
        assert_eq!(decode_in_place(latin1.clone(), None, true), Err(latin1));
        let bom = b"\xEF\xBB\xBFhi".to_vec();
        assert_eq!(decode_in_place(bom.clone(), None, false), Err(bom));
        let broken = b"caf\xe9 is not UTF-8".to_vec();
        assert_eq!(
            decode_in_place(broken.clone(), Some("utf-8"), false),
            Err(broken)
        );
    }

    #[test]
    fn order_of_evidence() {
        let latin1 = b"<html><head><meta charset=\"iso-8859-1\"></head><body>caf\xe9</body></html>";
        let d = decode(latin1, None, true);
        assert_eq!((d.encoding, d.source), ("windows-1252", Source::Meta));
        assert!(d.text.contains("café"));
        let d = decode(latin1, Some("utf-8"), true);
        assert_eq!(d.source, Source::ContentType);
        let http_equiv = b"<meta http-equiv='Content-Type' content='text/html; charset=koi8-r'>";
        assert_eq!(detect(http_equiv, None, true).0.name(), "KOI8-R");
        let bom = b"\xef\xbb\xbfhello \xc3\xa9";
        let d = decode(bom, None, true);
        assert_eq!((d.text.as_str(), d.source), ("hello é", Source::Bom));
        let d = decode(b"plain ascii", None, false);
        assert_eq!((d.encoding, d.source), ("UTF-8", Source::Default));
    }

    #[test]
    fn undeclared_windows_1252_is_guessed() {
        let text =
            "Les élèves étaient très fâchés: « déjà vu » — naïve café crème brûlée. ".repeat(4);
        let (bytes, _, _) = encoding_rs::WINDOWS_1252.encode(&text);
        let d = decode(&bytes, None, true);
        assert_eq!((d.encoding, d.source), ("windows-1252", Source::Guess));
        assert!(d.text.contains("élèves") && d.text.contains("—"));
    }
}
