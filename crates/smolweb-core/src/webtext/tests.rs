//! Kinds by type and bytes, JSON re-indenting, and the words for what is shown.

use super::*;

#[test]
fn kinds_by_type_with_parameters_and_by_bytes() {
    let pdf = b"%PDF-1.7\n...";
    let cases: &[(Option<&str>, &[u8], Option<BodyKind>)] = &[
        (
            Some("text/html; charset=utf-8"),
            b"<p>x",
            Some(BodyKind::Html),
        ),
        (Some("application/xhtml+xml"), b"<p>x", Some(BodyKind::Html)),
        (
            Some("text/markdown; charset=UTF-8"),
            b"# x",
            Some(BodyKind::Markdown),
        ),
        (Some("text/plain"), b"x", Some(BodyKind::Text)),
        (
            Some("text/csv; header=present"),
            b"a,b",
            Some(BodyKind::Text),
        ),
        (
            Some("Application/JSON; charset=utf-8"),
            b"{}",
            Some(BodyKind::Json { pretty: false }),
        ),
        (
            Some("application/ld+json; profile=\"x\""),
            b"{}",
            Some(BodyKind::Json { pretty: false }),
        ),
        (
            Some("application/problem+json"),
            b"{}",
            Some(BodyKind::Json { pretty: false }),
        ),
        (Some("application/xml"), b"<a/>", Some(BodyKind::Xml)),
        (
            Some("text/xml; charset=iso-8859-1"),
            b"<a/>",
            Some(BodyKind::Xml),
        ),
        (
            Some("application/atom+xml"),
            b"<feed/>",
            Some(BodyKind::Xml),
        ),
        (Some("application/rss+xml"), b"<rss/>", Some(BodyKind::Xml)),
        (Some("application/yaml"), b"a: 1", Some(BodyKind::Text)),
        (Some("image/png"), b"\x89PNG", None),
        (Some("image/svg+xml"), b"<svg/>", None),
        (Some("application/octet-stream"), b"\x00\x01", None),
        // A PDF by its first bytes, whatever the type says.
        (
            Some("application/pdf"),
            pdf,
            Some(BodyKind::Pdf { pages: 0 }),
        ),
        (
            Some("application/octet-stream"),
            pdf,
            Some(BodyKind::Pdf { pages: 0 }),
        ),
        (Some("text/html"), pdf, Some(BodyKind::Pdf { pages: 0 })),
        (None, pdf, Some(BodyKind::Pdf { pages: 0 })),
        // ... but not a page that merely talks about the header.
        (
            Some("text/html"),
            b"<p>files start with %PDF-1.7</p>",
            Some(BodyKind::Html),
        ),
        // Untyped bodies are sniffed.
        (None, b"  <!DOCTYPE html><p>x", Some(BodyKind::Html)),
        (None, b"plain words\n", Some(BodyKind::Text)),
        (None, b"\x00\x01\x02", None),
    ];
    for (ct, body, want) in cases {
        assert_eq!(classify(*ct, body), *want, "{ct:?} {body:?}");
    }
}

#[test]
fn json_is_reindented_token_for_token() {
    let got = pretty_json(
        r#"{"b": [1, 2.50, {"e\"s": "a,b:{c}"}], "a": {}, "n": 12345678901234567890123, "z": []}"#,
    );
    let want = "{\n  \"b\": [\n    1,\n    2.50,\n    {\n      \"e\\\"s\": \"a,b:{c}\"\n    }\n  ],\n  \"a\": {},\n  \"n\": 12345678901234567890123,\n  \"z\": []\n}\n";
    assert_eq!(got.as_deref(), Some(want));
    assert_eq!(pretty_json("  42 ").as_deref(), Some("42\n"));
    assert_eq!(pretty_json(r#""x""#).as_deref(), Some("\"x\"\n"));
    // Keys keep their order (b before a) and numbers their spelling (2.50, the big one).
    for bad in [
        "{",
        "{\"a\": 1,}",
        "{'a': 1}",
        "[1] [2]",
        "",
        "{\"a\":1}\n{\"a\":2}",
    ] {
        assert_eq!(pretty_json(bad), None, "{bad:?}");
    }
    let deep = |n: usize| "[".repeat(n) + &"]".repeat(n);
    // The innermost `[]` stays on its line: n arrays nest n - 1 levels deep.
    assert!(pretty_json(&deep(MAX_PRETTY_DEPTH + 1)).is_some());
    assert_eq!(
        pretty_json(&deep(MAX_PRETTY_DEPTH + 2)),
        None,
        "too deep: shown as sent"
    );
    assert_eq!(pretty_json(&deep(100_000)), None);
}

#[test]
fn every_shown_kind_is_named() {
    let html = |extraction| Shown {
        kind: BodyKind::Html,
        extraction,
        reading: None,
    };
    let other = |kind| Shown {
        kind,
        extraction: Extraction::None,
        reading: None,
    };
    assert_eq!(html(Extraction::Main).describe(), "main content");
    assert_eq!(html(Extraction::Full).describe(), "full page");
    let fallback = html(Extraction::FallbackFull);
    assert_eq!(fallback.describe(), "full page, no article found");
    assert_eq!(fallback.short(), "full (no article found)");
    assert!(fallback.is_fallback() && fallback.has_article_view());
    assert_eq!(html(Extraction::Main).short(), "main");
    assert_eq!(
        other(BodyKind::Json { pretty: true }).describe(),
        "JSON, pretty-printed"
    );
    assert_eq!(
        other(BodyKind::Json { pretty: false }).describe(),
        "JSON, as sent"
    );
    assert_eq!(
        other(BodyKind::Pdf { pages: 3 }).describe(),
        "the text of a PDF (3 pages)"
    );
    assert_eq!(other(BodyKind::Pdf { pages: 1 }).short(), "PDF, 1 page");
    assert_eq!(other(BodyKind::Text).describe(), "text, as sent");
    assert!(!other(BodyKind::Xml).has_article_view());
}
