//! Charset detection and decoding of remote bodies, as every fetcher decodes them
//! (`core::charset::decode`): the first input line is a declared charset label (a
//! Content-Type or Gemini `charset` parameter), the rest the body, decoded for each origin with
//! and without the label. Checked: the same input decodes the same way twice; a charset is
//! always named; an unknown label is reported only when one was given; without a label or BOM,
//! Gemini and Gopher detection never loses a byte (no U+FFFD the body did not hold), and a
//! single-byte result (CP437, windows-1252) maps each byte to one char.
#![no_main]
use libfuzzer_sys::fuzz_target;
use smolweb_core::charset::{Charset, Origin, decode};
use smolweb_fuzz::{split_line, text};

const ORIGINS: [Origin; 4] = [
    Origin::Gemini,
    Origin::Gopher,
    Origin::Web { html: false },
    Origin::Web { html: true },
];

fuzz_target!(|data: &[u8]| {
    let (label, body) = split_line(data);
    let label = text(label);
    let has_bom = [&b"\xEF\xBB\xBF"[..], b"\xFF\xFE", b"\xFE\xFF"]
        .iter()
        .any(|bom| body.starts_with(bom));
    let holds_replacement = body.windows(3).any(|w| w == b"\xEF\xBF\xBD");
    for origin in ORIGINS {
        for declared in [Some(label.as_str()), None] {
            let d = decode(body, declared, origin);
            assert_eq!(d, decode(body, declared, origin), "{origin:?}");
            assert!(!d.charset.name().is_empty());
            if declared.is_none() {
                assert_eq!(d.unknown_label, None);
            }
            let single_byte = d.charset == Charset::Cp437 || d.charset.name() == "windows-1252";
            if single_byte && !has_bom {
                assert_eq!(
                    d.text.chars().count(),
                    body.len(),
                    "{origin:?} {declared:?}"
                );
            }
            let smol = matches!(origin, Origin::Gemini | Origin::Gopher);
            if smol && declared.is_none() && !has_bom && !holds_replacement {
                assert!(
                    !d.text.contains('\u{FFFD}'),
                    "{origin:?} detection lost bytes as {}",
                    d.charset.name()
                );
            }
        }
    }
});
