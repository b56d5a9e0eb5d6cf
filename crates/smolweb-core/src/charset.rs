//! Body decoding: the one decoder of every text body, Gemini, Gopher and the web alike.
//!
//! Order of evidence, first that applies ([`decode`]):
//! 1. A byte-order mark (UTF-8, UTF-16LE, UTF-16BE) wins over any declared charset, as the
//!    WHATWG Encoding Standard says; it is removed from the text.
//! 2. The declared label (Gemini's `charset` parameter, utf-8 when absent as the Gemini spec
//!    says; the HTTP Content-Type `charset`), read by the WHATWG label rules (encoding_rs): every
//!    encoding of the standard, UTF-16LE/BE, the windows-125x, ISO-8859 and KOI8 families,
//!    Shift_JIS, EUC-JP, ISO-2022-JP, EUC-KR, GBK, gb18030, Big5 among them. So `iso-8859-1`
//!    means windows-1252, as in browsers. `cp437` / `ibm437`, which the standard lacks, names
//!    IBM code page 437 (Gopher's ANSI art). Malformed sequences become U+FFFD.
//! 3. HTML only: a `<meta charset>` or `<meta http-equiv="Content-Type">` in the first 1024
//!    bytes (a page that claims UTF-16 there in ASCII bytes is UTF-8).
//! 4. Detection (nothing declared, or an unknown label).
//!
//! A mislabel is not obeyed: a body declared (or, in HTML, `<meta>`-named) in a legacy
//! encoding that is valid UTF-8 with characters beyond ASCII is read as UTF-8. Pages re-saved
//! as UTF-8 keep their old `<meta charset=gb2312>`, and servers add a default `iso-8859-1`;
//! text really written in a legacy encoding practically never forms valid UTF-8 sequences
//! (`Ã©` is what such a reading produces), so obeying the label would only turn a readable
//! page into mojibake. UTF-16 labels are obeyed as they are.
//!
//! An unknown label (or one the standard maps to its "replacement" encoding, such as
//! iso-2022-kr) is not an error and is not guessed at silently: the body is decoded as if
//! nothing were declared, and [`Decoded::unknown_label`] keeps the label so each face says so
//! (the agent's `unknown-charset-label` hint, the browser's page info).
//!
//! Gemini and Gopher bodies ([`Origin::Gemini`], [`Origin::Gopher`]) are never mangled by a
//! wrong guess: a body declared UTF-8 (or US-ASCII) that is not valid UTF-8, and a body with
//! no declaration (Gopher has none), are detected without dropping or replacing a byte: valid
//! UTF-8; else CP437 when it plainly is ANSI art (escape sequences, control glyphs: see
//! [`cp437::Evidence`]); else a legacy multi-byte encoding (Shift_JIS, EUC-KR, gb18030,
//! Big5, ...) when chardetng guesses one that decodes every byte without a malformed sequence;
//! else CP437 when its box characters stand in pairs; else chardetng's single-byte guess when
//! lossless; else windows-1252, which maps each byte to one character. Web bodies ([`Origin::Web`])
//! follow browsers: a declared encoding wins with replacement, an undeclared body is UTF-8
//! when valid, else chardetng's guess.
//!
//! Charset names are reported lowercase (`utf-8`, `windows-1252`, `shift_jis`, `utf-16le`,
//! `cp437`): each is also a label this module reads back (offline copies store it).

mod cp437;

use encoding_rs::Encoding;

/// How far into an HTML body a `<meta charset>` is looked for.
const META_PRESCAN_BYTES: usize = 1024;

/// An encoding a body was decoded with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Charset {
    /// An encoding of the WHATWG Encoding Standard.
    Whatwg(&'static Encoding),
    /// IBM code page 437 (not in the standard).
    Cp437,
}

impl Charset {
    /// UTF-8.
    pub(crate) fn utf8() -> Charset {
        Charset::Whatwg(encoding_rs::UTF_8)
    }

    /// The lowercase name (`utf-8`, `windows-1252`, `cp437`, ...), itself a readable label.
    pub fn name(self) -> String {
        match self {
            Charset::Whatwg(e) => e.name().to_ascii_lowercase(),
            Charset::Cp437 => "cp437".into(),
        }
    }

    /// The charset a label names, or None when it names none smolweb knows.
    pub(crate) fn for_label(label: &str) -> Option<Charset> {
        let label = clean_label(label);
        if CP437_LABELS.iter().any(|l| l.eq_ignore_ascii_case(label)) {
            return Some(Charset::Cp437);
        }
        Encoding::for_label_no_replacement(label.as_bytes()).map(Charset::Whatwg)
    }
}

/// Labels of CP437.
const CP437_LABELS: &[&str] = &["cp437", "ibm437", "437", "cp-437", "ibm-437", "csibm437"];

/// Where a body came from: decides the default label and what detection may do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// A Gemini body: utf-8 unless declared; detection never loses a byte.
    Gemini,
    /// A Gopher body: nothing is declared; detection never loses a byte.
    Gopher,
    /// A web body (HTML when `html`: its `<meta charset>` is read).
    Web {
        /// Whether the body is HTML, so that its `<meta charset>` is read.
        html: bool,
    },
}

/// Which evidence decided the encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// A byte-order mark at the start of the body.
    Bom,
    /// The label declared with the body (Gemini or HTTP `charset`).
    Declared,
    /// An HTML `<meta charset>` or `<meta http-equiv="Content-Type">`.
    Meta,
    /// Detection from the bytes themselves.
    Detected,
}

/// A decoded body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decoded {
    /// The body as text (without its byte-order mark).
    pub text: String,
    /// The encoding the body was decoded with.
    pub charset: Charset,
    pub(crate) source: Source,
    /// The declared label, when it named no encoding smolweb knows.
    pub unknown_label: Option<String>,
}

/// The label without quotes and surrounding whitespace.
fn clean_label(label: &str) -> &str {
    label.trim().trim_matches(['"', '\'']).trim()
}

/// The declared label as [`decode`] reads it (cleaned, utf-8 for Gemini when absent), with the
/// encoding it names if any, and the label to report when it names none.
fn read_label(
    declared: Option<&str>,
    origin: Origin,
) -> (Option<(&str, Option<Charset>)>, Option<String>) {
    let label = declared.map(clean_label).filter(|l| !l.is_empty());
    let label = match (label, origin) {
        (None, Origin::Gemini) => Some("utf-8"),
        (l, _) => l,
    };
    let known = label.map(|l| (l, Charset::for_label(l)));
    let unknown_label = match known {
        Some((l, None)) => Some(l.to_string()),
        _ => None,
    };
    (known, unknown_label)
}

/// Decode a body (see the module docs). `declared` is the protocol's charset label.
pub fn decode(bytes: &[u8], declared: Option<&str>, origin: Origin) -> Decoded {
    let (known, unknown_label) = read_label(declared, origin);
    let done = |text: String, charset: Charset, source: Source| Decoded {
        text,
        charset,
        source,
        unknown_label: unknown_label.clone(),
    };
    let smol = !matches!(origin, Origin::Web { .. });
    if let Some((enc, len)) = Encoding::for_bom(bytes) {
        return done(with(enc, &bytes[len..]), Charset::Whatwg(enc), Source::Bom);
    }
    match known {
        Some((_, Some(Charset::Cp437))) => {
            return done(cp437::decode(bytes), Charset::Cp437, Source::Declared);
        }
        Some((l, Some(Charset::Whatwg(enc)))) => {
            let utf8_like = enc == encoding_rs::UTF_8 || names_ascii(l);
            if !(smol && utf8_like) {
                if mislabelled_utf8(enc, bytes) {
                    return done(utf8_copy(bytes), Charset::utf8(), Source::Detected);
                }
                return done(with(enc, bytes), Charset::Whatwg(enc), Source::Declared);
            }
            if let Ok(text) = std::str::from_utf8(bytes) {
                return done(text.to_string(), Charset::utf8(), Source::Declared);
            }
        }
        _ => {}
    }
    if origin == (Origin::Web { html: true })
        && let Some(enc) = meta_charset(bytes)
    {
        if mislabelled_utf8(enc, bytes) {
            return done(utf8_copy(bytes), Charset::utf8(), Source::Detected);
        }
        return done(with(enc, bytes), Charset::Whatwg(enc), Source::Meta);
    }
    let (text, charset) = if smol {
        detect_lossless(bytes)
    } else {
        detect_web(bytes)
    };
    done(text, charset, Source::Detected)
}

/// [`decode`], taking the bytes: when `decode` would read them as UTF-8 as they are (no
/// byte-order mark, valid UTF-8, and no other encoding declared or, for HTML, named in a
/// `<meta>`), they become the text without a copy, and `Decoded::text.into_bytes()` gives them
/// back unchanged. Otherwise they are handed back untouched, for [`decode`].
pub fn decode_in_place(
    bytes: Vec<u8>,
    declared: Option<&str>,
    origin: Origin,
) -> Result<Decoded, Vec<u8>> {
    if Encoding::for_bom(&bytes).is_some() || std::str::from_utf8(&bytes).is_err() {
        return Err(bytes);
    }
    let (known, unknown_label) = read_label(declared, origin);
    let smol = !matches!(origin, Origin::Web { .. });
    let source = match known {
        Some((_, Some(Charset::Whatwg(enc)))) if enc == encoding_rs::UTF_8 => Source::Declared,
        Some((l, Some(Charset::Whatwg(_)))) if smol && names_ascii(l) => Source::Declared,
        Some((_, Some(Charset::Whatwg(enc)))) if mislabelled_utf8(enc, &bytes) => Source::Detected,
        Some((_, Some(_))) => return Err(bytes),
        _ => match origin == (Origin::Web { html: true }) {
            true => match meta_charset(&bytes) {
                None => Source::Detected,
                Some(enc) if enc == encoding_rs::UTF_8 => Source::Meta,
                Some(enc) if mislabelled_utf8(enc, &bytes) => Source::Detected,
                Some(_) => return Err(bytes),
            },
            false => Source::Detected,
        },
    };
    match String::from_utf8(bytes) {
        Ok(text) => Ok(Decoded {
            text,
            charset: Charset::utf8(),
            source,
            unknown_label,
        }),
        Err(e) => Err(e.into_bytes()),
    }
}

/// Is this body, labelled `enc`, really UTF-8 (see the module docs on mislabels)?
fn mislabelled_utf8(enc: &'static Encoding, bytes: &[u8]) -> bool {
    let obeyed = [
        encoding_rs::UTF_8,
        encoding_rs::UTF_16LE,
        encoding_rs::UTF_16BE,
    ];
    !obeyed.contains(&enc) && !bytes.is_ascii() && std::str::from_utf8(bytes).is_ok()
}

/// The text of bytes already known to be valid UTF-8.
fn utf8_copy(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Decode with `enc`, malformed sequences replaced (the BOM, if any, already cut).
fn with(enc: &'static Encoding, bytes: &[u8]) -> String {
    enc.decode_without_bom_handling(bytes).0.into_owned()
}

/// Does the label name US-ASCII (which the standard reads as windows-1252)? A Gemini or
/// Gopher body so labelled is read as UTF-8 first, of which ASCII is a subset.
fn names_ascii(label: &str) -> bool {
    const ASCII: &[&str] = &[
        "us-ascii",
        "ascii",
        "ansi_x3.4-1968",
        "iso-ir-6",
        "iso646-us",
        "iso_646.irv:1991",
        "cp367",
        "ibm367",
        "csascii",
        "us",
    ];
    ASCII.iter().any(|a| a.eq_ignore_ascii_case(label))
}

/// chardetng's guess for a body that is not UTF-8.
fn guess(bytes: &[u8]) -> &'static Encoding {
    let mut detector = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
    detector.feed(bytes, true);
    detector.guess(None, chardetng::Utf8Detection::Allow)
}

/// Detection that keeps every byte (see the module docs).
fn detect_lossless(bytes: &[u8]) -> (String, Charset) {
    if let Ok(text) = std::str::from_utf8(bytes) {
        return (text.to_string(), Charset::utf8());
    }
    let art = cp437::evidence(bytes);
    if art == cp437::Evidence::Strong {
        return (cp437::decode(bytes), Charset::Cp437);
    }
    let enc = guess(bytes);
    let lossless = || {
        (enc != encoding_rs::UTF_8)
            .then(|| enc.decode_without_bom_handling_and_without_replacement(bytes))
            .flatten()
    };
    if !enc.is_single_byte()
        && let Some(text) = lossless()
    {
        return (text.into_owned(), Charset::Whatwg(enc));
    }
    if art == cp437::Evidence::Weak {
        return (cp437::decode(bytes), Charset::Cp437);
    }
    if let Some(text) = lossless() {
        return (text.into_owned(), Charset::Whatwg(enc));
    }
    let w = encoding_rs::WINDOWS_1252;
    (with(w, bytes), Charset::Whatwg(w))
}

/// Detection as browsers do it: UTF-8 when valid, else chardetng's guess.
fn detect_web(bytes: &[u8]) -> (String, Charset) {
    if let Ok(text) = std::str::from_utf8(bytes) {
        return (text.to_string(), Charset::utf8());
    }
    let enc = guess(bytes);
    (with(enc, bytes), Charset::Whatwg(enc))
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
        if let Some(enc) = tag_charset(tag) {
            // A page that claims UTF-16 in ASCII bytes is not UTF-16.
            let utf16 = enc == encoding_rs::UTF_16LE || enc == encoding_rs::UTF_16BE;
            return Some(if utf16 { encoding_rs::UTF_8 } else { enc });
        }
        from = end.max(start + 1);
    }
    None
}

/// The encoding named by `charset=` in one lowercased `<meta ...>` tag.
fn tag_charset(tag: &[u8]) -> Option<&'static Encoding> {
    let c = find(tag, b"charset")?;
    let rest = trim_start(&tag[c + 7..]);
    let rest = trim_start(rest.strip_prefix(b"=")?);
    let rest = rest
        .strip_prefix(b"\"")
        .or_else(|| rest.strip_prefix(b"'"))
        .unwrap_or(rest);
    let len = rest
        .iter()
        .position(|b| matches!(b, b'"' | b'\'' | b';' | b' ' | b'/' | b'>'))
        .unwrap_or(rest.len());
    Encoding::for_label_no_replacement(&rest[..len])
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

fn trim_start(b: &[u8]) -> &[u8] {
    let n = b.iter().take_while(|c| c.is_ascii_whitespace()).count();
    &b[n..]
}

#[cfg(test)]
mod tests;
